from django.urls import path

from matches.play import views
from matches.thread import forum_views as views_forum
from matches.verification import views as verification_views

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="list"),
    path("new/", views.schedule, name="schedule"),
    path("<id:pk>/", views.detail, name="detail"),
    path("<id:pk>/live/", views.live, name="live"),
    path("<id:pk>/verify/", verification_views.verify, name="verify"),
    path("<id:pk>/forum/", views_forum.forum, name="forum"),
    path("<id:pk>/thread/", views.thread_page, name="thread"),
    path("<id:pk>/replay/", views.replay, name="replay"),
    path("<id:pk>/replay/frames/", views.replay_frames, name="replay_frames"),
    path("<id:pk>/preview/", views.preview, name="preview"),
    path("<id:pk>/declare/", views.declare, name="declare"),
    path("<id:pk>/answer/", views.answer, name="answer"),
    path("<id:pk>/posts/", views.write, name="write"),
    path("<id:pk>/close/", views.close, name="close"),
    path("<id:pk>/posts/<id:number>/edit/", views.edit, name="edit"),
]
