"""The production settings with the HTTP benchmark's floor mounted (tools/bench_urls.py);
only ``manage.py bench_http`` starts a server with them."""

from pathlib import Path

from bbweb.env import envstr
from bbweb.settings import *  # noqa: F403

ROOT_URLCONF = "tools.bench_urls"
STATIC_ROOT = Path(envstr("BBWEB_BENCH_STATIC_ROOT", str(STATIC_ROOT)))  # noqa: F405
# The tasks the benchmark's posts queue go to a queue of their own, purged afterwards: no
# worker ever runs them for matches of a database that is dropped.
CELERY_TASK_DEFAULT_QUEUE = "bench_http"
