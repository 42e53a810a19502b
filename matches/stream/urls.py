from django.urls import path

from matches.stream import views

app_name = "stream"

urlpatterns = [
    path("matches/<id:pk>/stream/", views.match_stream, name="match"),
    path("matches/<id:pk>/watching/", views.watching, name="watching"),
    path("matches/mine/stream/", views.person_stream, name="person"),
    path("live/<id:pk>/stream/", views.live_stream, name="live"),
    path("live/<id:pk>/phone/<token:token>/stream/", views.live_stream, name="phone"),
]
