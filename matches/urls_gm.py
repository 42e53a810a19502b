from django.urls import path

from matches import views_gm

app_name = "gm"

urlpatterns = [
    path("gm/disputes/", views_gm.queue, name="queue"),
    path("matches/<id:pk>/disputes/", views_gm.match_disputes, name="match_disputes"),
    path("matches/<id:pk>/disputes/raise/", views_gm.raise_dispute, name="raise_dispute"),
    path("matches/<id:pk>/disputes/<id:dispute_id>/rule/", views_gm.rule, name="rule"),
    path("matches/<id:pk>/control/<str:action>/", views_gm.control, name="control"),
    path("leagues/", views_gm.league_list, name="leagues"),
    path("leagues/new/", views_gm.league_create, name="league_create"),
    path("leagues/<id:league_id>/", views_gm.league_detail, name="league"),
    path("leagues/<id:league_id>/edit/", views_gm.league_edit, name="league_edit"),
    path("leagues/<id:league_id>/join/", views_gm.league_join, name="league_join"),
    path("leagues/<id:league_id>/schedule/", views_gm.league_schedule, name="schedule"),
    path(
        "leagues/<id:league_id>/schedule/round-robin/",
        views_gm.league_round_robin,
        name="round_robin",
    ),
    path("fixtures/<id:fixture_id>/start/", views_gm.fixture_start, name="fixture_start"),
]
