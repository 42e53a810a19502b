import os
import sys
from pathlib import Path

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")

app = Celery("bbweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _make_filesystem_broker_folders() -> None:
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)
    backend = str(app.conf.result_backend or "")
    if backend.startswith("file://"):
        Path(backend.removeprefix("file://")).mkdir(parents=True, exist_ok=True)


_make_filesystem_broker_folders()


@worker_init.connect
@beat_init.connect
def _refuse_to_start_misconfigured(**kwargs: object) -> None:
    """The worker and beat start only with what production needs (bbweb/checks.py): Celery
    runs Django's system checks but goes on whatever they find, and logs an exception a
    signal's receiver raises and goes on too; SystemExit it lets through."""
    from django.core.exceptions import ImproperlyConfigured

    from bbweb.checks import require_production_settings

    try:
        require_production_settings()
    except ImproperlyConfigured as refused:
        print(refused, file=sys.stderr)
        raise SystemExit(1) from None
