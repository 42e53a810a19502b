from django.urls import path

from matches.sequence import views

app_name = "sequence"

urlpatterns = [
    path("<int:pk>/prematch/", views.prematch, name="prematch"),
    path("<int:pk>/prematch/petty-cash/", views.petty_cash, name="petty_cash"),
    path("<int:pk>/prematch/inducements/", views.inducements, name="inducements"),
    path("<int:pk>/postmatch/", views.postmatch, name="postmatch"),
    path("<int:pk>/postmatch/reroll/", views.reroll, name="reroll"),
    path("<int:pk>/postmatch/mvp/", views.mvp, name="mvp"),
    path(
        "<int:pk>/postmatch/journeymen/<int:player_id>/hire/",
        views.hire_journeyman,
        name="hire_journeyman",
    ),
    path("advancements/<int:pk>/", views.advance, name="advance"),
]
