from django.urls import path

from matches.live import views

app_name = "live"

urlpatterns = [
    path("leagues/<id:league_id>/live/new/", views.new, name="new"),
    path("leagues/<id:league_id>/live/counts/", views.counts, name="counts"),
    path("live/<id:pk>/", views.match_page, name="match"),
    path("live/<id:pk>/act/<slug:action>/", views.act, name="act"),
    path("live/<id:pk>/phone/<token:token>/", views.phone, name="phone"),
]
