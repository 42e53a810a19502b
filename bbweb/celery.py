import os
from pathlib import Path

from celery import Celery

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
