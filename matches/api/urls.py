"""The JSON API under /api/ (namespace ``api``), and the match download that bbweb/urls.py
adds to the ``matches`` namespace (``matches:export``)."""

from django.urls import path, re_path

from matches.api import views as api

app_name = "api"

urlpatterns = [
    path("openapi.json", api.openapi, name="openapi"),
    path("matches/<id:pk>", api.match, name="match"),
    path("matches/<id:pk>/events", api.events, name="events"),
    path("matches/<id:pk>/declare", api.declare, name="declare"),
    path("matches/<id:pk>/decide", api.decide, name="decide"),
    path("matches/<id:pk>/options", api.options, name="options"),
    re_path(r"^(?P<rest>.*)$", api.not_found, name="not_found"),
]

match_urlpatterns = [
    path("<id:pk>/export.json", api.export, name="export"),
]
