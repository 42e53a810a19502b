from allauth.socialaccount.providers.discord import views as discord
from django.contrib import admin
from django.urls import include, path

from bbweb import views
from bbweb.accounts import views as accounts
from matches.api import urls as api_urls
from matches.dashboard import urls as dashboard_urls
from matches.dashboard import views as dashboard_views
from matches.deadlines import urls as deadline_urls
from matches.gm import urls as gm_urls
from matches.league import urls as league_urls
from matches.notices import urls as notice_urls
from matches.play import urls as match_urls
from matches.stream import urls as stream_urls

urlpatterns = [
    path("", dashboard_views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", views.healthz, name="healthz"),
    path("", include(stream_urls)),
    # allauth's pages (bbweb/accounts/), the first three with bbweb's limits and older names
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/signup/", accounts.SignupView.as_view(), name="signup"),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view()),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/discord/login/", accounts.when_configured("discord", discord.oauth2_login)),
    path(
        "accounts/discord/login/callback/",
        accounts.when_configured("discord", discord.oauth2_callback),
    ),
    path("accounts/", include("allauth.urls")),
    # the addresses of the accounts' pages before allauth
    path("accounts/password_reset/", accounts.moved("account_reset_password")),
    path("accounts/password_reset/done/", accounts.moved("account_reset_password_done")),
    path("accounts/reset/<str:uidb64>/<str:token>/", accounts.moved("account_reset_password")),
    path("accounts/reset/done/", accounts.moved("account_login")),
    path("accounts/password_change/", accounts.moved("account_change_password")),
    path("accounts/password_change/done/", accounts.moved("profile")),
    path("accounts/verify/<str:token>/", accounts.moved("account_email")),
    # the admin's login is the site's: the same limits, the same second factor
    path("admin/login/", accounts.moved("login")),
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
    path("", include("matches.history.urls")),
    path("admin/", admin.site.urls),
]
