from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bbweb.celery import app
from tools import bench_live
from tools.scratch import throwaway_database


class Command(BaseCommand):
    help = (
        "Live push benchmark: gunicorn with one uvicorn worker and the production settings, on "
        "a throwaway PostgreSQL database beside the configured one and a Redis of its own; N "
        "streams across M matches whose coaches post legal declarations. Prints the latency "
        "from each write to each stream's receipt (p50, p99), the memory per idle stream, the "
        "server's CPU per delivered message, the messages lost and duplicated, then the same "
        "with Redis restarted mid-run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--connections", type=int, default=1000, help="open streams")
        parser.add_argument("--matches", type=int, default=20, help="matches being played")
        parser.add_argument("--writes", type=int, default=20, help="writes per match and phase")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("bench_live runs on PostgreSQL: set DATABASE_URL.")
        app.conf.task_default_queue = "bench_live"  # the posts' tasks: no worker runs them
        with throwaway_database("bench_live"):
            bench_live.run(
                options["connections"], options["matches"], options["writes"], self._write
            )

    def _write(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
