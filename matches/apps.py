from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # The services queue these tasks by name (matches.services.jobs): register them in
        # every process, not only in the worker that autodiscovers them.
        from matches import tasks  # noqa: F401
        from matches.notices import guess  # noqa: F401  (a person's zone, at the first login)
