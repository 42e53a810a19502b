from django.urls import path

from matches.live import views

app_name = "live"

urlpatterns = [
    path("leagues/<int:league_id>/live/new/", views.new, name="new"),
    path("leagues/<int:league_id>/live/counts/", views.counts, name="counts"),
    path("live/<int:pk>/", views.match_page, name="match"),
    path("live/<int:pk>/act/<slug:action>/", views.act, name="act"),
    path("live/<int:pk>/phone/<str:token>/", views.phone, name="phone"),
]
