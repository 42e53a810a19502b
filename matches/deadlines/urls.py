from django.urls import path

from matches.deadlines import views

# In the ``deadlines`` namespace with "My matches" and the notification preferences
# (bbweb/urls.py): the names are older than the rooms.
urlpatterns = [
    path("<id:pk>/deadlines/", views.deadlines, name="deadlines"),
    path("<id:pk>/standing-orders/", views.standing_orders, name="standing_orders"),
    path("<id:pk>/vacation/", views.vacation, name="vacation"),
]
