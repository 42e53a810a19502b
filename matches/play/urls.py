from django.urls import path

from matches.play import views
from matches.thread import forum_views as views_forum
from matches.verification import views as verification_views

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="list"),
    path("new/", views.schedule, name="schedule"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/live/", views.live, name="live"),
    path("<int:pk>/verify/", verification_views.verify, name="verify"),
    path("<int:pk>/forum/", views_forum.forum, name="forum"),
    path("<int:pk>/thread/", views.thread_page, name="thread"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("<int:pk>/replay/frames/", views.replay_frames, name="replay_frames"),
    path("<int:pk>/preview/", views.preview, name="preview"),
    path("<int:pk>/declare/", views.declare, name="declare"),
    path("<int:pk>/answer/", views.answer, name="answer"),
    path("<int:pk>/posts/", views.write, name="write"),
    path("<int:pk>/close/", views.close, name="close"),
    path("<int:pk>/posts/<int:number>/edit/", views.edit, name="edit"),
]
