from django.contrib import admin
from django.urls import include, path

from bbweb import views
from matches.api import urls as api_urls
from matches.dashboard import urls as dashboard_urls
from matches.dashboard import views as dashboard_views
from matches.deadlines import urls as deadline_urls
from matches.gm import urls as gm_urls
from matches.league import urls as league_urls
from matches.notices import urls as notice_urls
from matches.play import urls as match_urls

urlpatterns = [
    path("", dashboard_views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/verify/<str:token>/", views.verify_email, name="verify_email"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("teams/", include("teams.urls")),
    # the match pages and the match download share the ``matches`` namespace
    path("matches/", include((match_urls.urlpatterns + api_urls.match_urlpatterns, "matches"))),
    path("matches/", include("matches.sequence.urls")),
    # the namespaces are older than the rooms: a room's URLs keep the names they had
    path(
        "matches/",
        include(
            (
                dashboard_urls.urlpatterns + notice_urls.urlpatterns + deadline_urls.urlpatterns,
                "deadlines",
            )
        ),
    ),
    path("api/", include("matches.api.urls")),
    path("", include((gm_urls.urlpatterns + league_urls.urlpatterns, "gm"))),
    path("", include("matches.live.urls")),
    path("admin/", admin.site.urls),
]
