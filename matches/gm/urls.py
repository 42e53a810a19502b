from django.urls import path

from matches.gm import views as views_gm

urlpatterns = [
    path("gm/disputes/", views_gm.queue, name="queue"),
    path("matches/<id:pk>/disputes/", views_gm.match_disputes, name="match_disputes"),
    path("matches/<id:pk>/disputes/raise/", views_gm.raise_dispute, name="raise_dispute"),
    path("matches/<id:pk>/disputes/<id:dispute_id>/rule/", views_gm.rule, name="rule"),
    path("matches/<id:pk>/control/<str:action>/", views_gm.control, name="control"),
]
