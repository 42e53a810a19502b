from django.urls import path

from matches import views

app_name = "matches"

urlpatterns = [
    path("<int:pk>/", views.detail, name="detail"),
]
