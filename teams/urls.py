from django.urls import path

from teams import views

app_name = "teams"

urlpatterns = [
    path("", views.team_list, name="list"),
    path("mine/", views.my_teams, name="mine"),
    path("new/", views.create, name="create"),
    path("new/totals/", views.create_totals, name="create_totals"),
    path("<id:team_id>/", views.detail, name="detail"),
    path("<id:team_id>/export.json", views.export, name="export"),
    path("<id:team_id>/hire/", views.hire, name="hire"),
    path("<id:team_id>/buy/", views.buy, name="buy"),
    path("<id:team_id>/invite/", views.invite, name="invite"),
    path("<id:team_id>/players/<id:player_id>/fire/", views.fire, name="fire"),
    path("<id:team_id>/players/<id:player_id>/rename/", views.rename, name="rename"),
    path("<id:team_id>/players/<id:player_id>/move/", views.move, name="move"),
    path(
        "invitations/<id:invitation_id>/accept/",
        views.answer_invitation,
        {"answer": "accept"},
        name="accept_invitation",
    ),
    path(
        "invitations/<id:invitation_id>/decline/",
        views.answer_invitation,
        {"answer": "decline"},
        name="decline_invitation",
    ),
    path(
        "moves/<id:proposal_id>/accept/",
        views.answer_move,
        {"answer": "accept"},
        name="accept_move",
    ),
    path(
        "moves/<id:proposal_id>/refuse/",
        views.answer_move,
        {"answer": "refuse"},
        name="refuse_move",
    ),
]
