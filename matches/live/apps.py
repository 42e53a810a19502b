from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The 3-LIVE-BB companion is an app of its own (label ``live``) inside matches/, so that its
    models register without matches.models importing them and no import circle ties the two."""

    name = "matches.live"
    label = "live"
    verbose_name = _("3-LIVE-BB")
    default_auto_field = "django.db.models.BigAutoField"
