from django.apps import AppConfig


class BbwebConfig(AppConfig):
    name = "bbweb"
    verbose_name = "bbweb"
