from django.urls import path

from matches.notices import views

# In the ``deadlines`` namespace (bbweb/urls.py): the name is older than the rooms.
urlpatterns = [
    path("notifications/", views.preferences, name="preferences"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe_kind, name="unsubscribe"),
]
