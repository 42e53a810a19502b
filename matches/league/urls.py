from django.urls import path

from matches.league import hooks, seasons, views

# In the ``gm`` namespace with the GM's own pages (bbweb/urls.py): the names are older than
# the rooms.
urlpatterns = [
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/new/", views.league_create, name="league_create"),
    path("leagues/<id:league_id>/", views.league_detail, name="league"),
    path("leagues/<id:league_id>/edit/", views.league_edit, name="league_edit"),
    path("leagues/<id:league_id>/export.json", views.league_export, name="league_export"),
    path("leagues/<id:league_id>/join/", views.league_join, name="league_join"),
    path("leagues/<id:league_id>/schedule/", views.league_schedule, name="schedule"),
    path(
        "leagues/<id:league_id>/schedule/round-robin/",
        views.league_round_robin,
        name="round_robin",
    ),
    path("leagues/<id:league_id>/season/", seasons.season_manage, name="season"),
    path("leagues/<id:league_id>/all-time/", seasons.all_time, name="all_time"),
    path("leagues/<id:league_id>/hooks/", hooks.league_hooks, name="hooks"),
    path("hooks/<id:hook_id>/switch/", hooks.hook_switch, name="hook_switch"),
    path("hooks/<id:hook_id>/secret/", hooks.hook_secret, name="hook_secret"),
    path("hooks/<id:hook_id>/remove/", hooks.hook_remove, name="hook_remove"),
    path("fixtures/<id:fixture_id>/start/", views.fixture_start, name="fixture_start"),
]
