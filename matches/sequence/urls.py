from django.urls import path

from matches.sequence import views

app_name = "sequence"

urlpatterns = [
    path("<id:pk>/prematch/", views.prematch, name="prematch"),
    path("<id:pk>/prematch/petty-cash/", views.petty_cash, name="petty_cash"),
    path("<id:pk>/prematch/inducements/", views.inducements, name="inducements"),
    path("<id:pk>/postmatch/", views.postmatch, name="postmatch"),
    path("<id:pk>/postmatch/reroll/", views.reroll, name="reroll"),
    path("<id:pk>/postmatch/mvp/", views.mvp, name="mvp"),
    path(
        "<id:pk>/postmatch/journeymen/<id:player_id>/hire/",
        views.hire_journeyman,
        name="hire_journeyman",
    ),
    path("advancements/<id:pk>/", views.advance, name="advance"),
]
