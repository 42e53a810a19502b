"""The JSON API under /api/ (namespace ``api``), and the match download that bbweb/urls.py
adds to the ``matches`` namespace (``matches:export``)."""

from django.urls import path, re_path

from matches.api import views as api

app_name = "api"

urlpatterns = [
    path("openapi.json", api.openapi, name="openapi"),
    path("matches/<int:pk>", api.match, name="match"),
    path("matches/<int:pk>/events", api.events, name="events"),
    path("matches/<int:pk>/declare", api.declare, name="declare"),
    path("matches/<int:pk>/decide", api.decide, name="decide"),
    path("matches/<int:pk>/options", api.options, name="options"),
    re_path(r"^(?P<rest>.*)$", api.not_found, name="not_found"),
]

match_urlpatterns = [
    path("<int:pk>/export.json", api.export, name="export"),
]
