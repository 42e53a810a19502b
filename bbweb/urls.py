from django.contrib import admin
from django.urls import include, path

from bbweb import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("teams/", include("teams.urls")),
    path("matches/", include("matches.urls")),
    path("", include("matches.urls_gm")),
    path("admin/", admin.site.urls),
]
