from django.apps import AppConfig


class BbwebConfig(AppConfig):
    name = "bbweb"
    verbose_name = "bbweb"

    def ready(self) -> None:
        from bbweb import checks  # noqa: F401  (registers the production checks)
