from django.urls import path

from matches.history import views

app_name = "history"

urlpatterns = [
    path("players/<id:player_id>/", views.player, name="player"),
    path("teams/<id:team_id>/history/", views.team, name="team"),
    path("leagues/<id:league_id>/records/", views.league_records, name="records"),
]
