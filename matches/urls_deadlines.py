from django.urls import path

from matches import views_dashboard
from matches import views_deadlines as views

app_name = "deadlines"

urlpatterns = [
    path("mine/", views_dashboard.my_matches, name="mine"),
    path("notifications/", views.preferences, name="preferences"),
    path("<id:pk>/deadlines/", views.deadlines, name="deadlines"),
    path("<id:pk>/standing-orders/", views.standing_orders, name="standing_orders"),
    path("<id:pk>/vacation/", views.vacation, name="vacation"),
]
