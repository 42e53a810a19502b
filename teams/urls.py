from django.urls import path

from teams import views

app_name = "teams"

urlpatterns = [
    path("", views.team_list, name="list"),
    path("mine/", views.my_teams, name="mine"),
    path("new/", views.create, name="create"),
    path("new/totals/", views.create_totals, name="create_totals"),
    path("<int:team_id>/", views.detail, name="detail"),
    path("<int:team_id>/export.json", views.export, name="export"),
    path("<int:team_id>/hire/", views.hire, name="hire"),
    path("<int:team_id>/buy/", views.buy, name="buy"),
    path("<int:team_id>/invite/", views.invite, name="invite"),
    path("<int:team_id>/players/<int:player_id>/fire/", views.fire, name="fire"),
    path("<int:team_id>/players/<int:player_id>/rename/", views.rename, name="rename"),
    path("<int:team_id>/players/<int:player_id>/move/", views.move, name="move"),
    path(
        "invitations/<int:invitation_id>/accept/",
        views.answer_invitation,
        {"answer": "accept"},
        name="accept_invitation",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        views.answer_invitation,
        {"answer": "decline"},
        name="decline_invitation",
    ),
    path(
        "moves/<int:proposal_id>/accept/",
        views.answer_move,
        {"answer": "accept"},
        name="accept_move",
    ),
    path(
        "moves/<int:proposal_id>/refuse/",
        views.answer_move,
        {"answer": "refuse"},
        name="refuse_move",
    ),
]
