from django.apps import AppConfig
from django.urls import register_converter
from django.urls.converters import get_converters


class BbwebConfig(AppConfig):
    name = "bbweb"
    verbose_name = "bbweb"

    def ready(self) -> None:
        from bbweb import checks  # noqa: F401  (registers the production checks)
        from bbweb.accounts import login_limits, welcome  # noqa: F401  (their signals)
        from bbweb.converters import IdConverter, TokenConverter

        # Before any URLconf is imported: its routes name them. Django refuses to register a
        # name twice, and a test may set the apps up again.
        for name, converter in (("id", IdConverter), ("token", TokenConverter)):
            if name not in get_converters():
                register_converter(converter, name)
