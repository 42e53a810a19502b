from django.urls import path

from matches.dashboard import views

# In the ``deadlines`` namespace (bbweb/urls.py): the name is older than the rooms.
urlpatterns = [
    path("mine/", views.my_matches, name="mine"),
]
