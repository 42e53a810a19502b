from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bbweb.celery import app
from tools import bench_http
from tools.scratch import throwaway_database


class Command(BaseCommand):
    help = (
        "Load benchmark over HTTP: gunicorn with the production settings against a throwaway "
        "database beside the configured one, 1, 10 and 50 clients each playing its own match "
        "through the JSON API, against a floor of one row behind the same token check. Prints "
        "req/s, p50, p99 and server CPU per request, the ratio to the floor, and checks that "
        "every post answered is stored once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--levels", default="1,10,50", help="concurrent clients, e.g. 1,10,50")
        parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per level")
        parser.add_argument(
            "--requests",
            type=int,
            default=90,
            help="requests of each kind per level (at least one per client and round)",
        )
        parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")

    def handle(self, *args: Any, **options: Any) -> None:
        levels = tuple(int(n) for n in options["levels"].split(","))
        # The tasks the posts queue go to a queue of their own, purged after: no worker runs
        # them for matches that no longer exist. gunicorn's processes share the database: on
        # SQLite a file.
        app.conf.task_default_queue = "bench_http"
        try:
            with throwaway_database("bench", sqlite_file=True):
                bench_http.run(
                    levels, options["rounds"], options["requests"], options["workers"], self._write
                )
        finally:
            with app.connection_for_write() as conn:
                conn.default_channel.queue_purge("bench_http")

    def _write(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
