from django.contrib import admin
from django.urls import include, path

from bbweb import views
from matches import api_urls, views_dashboard
from matches import urls as match_urls

urlpatterns = [
    path("", views_dashboard.home, name="home"),
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
    path("matches/", include("matches.urls_sequence")),
    path("matches/", include("matches.urls_deadlines")),
    path("api/", include("matches.api_urls")),
    path("", include("matches.urls_gm")),
    path("", include("matches.live.urls")),
    path("admin/", admin.site.urls),
]
