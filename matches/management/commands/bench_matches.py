from typing import Any
from unittest import mock

from celery.app.task import Task
from django.core.management.base import BaseCommand, CommandParser
from django.test.utils import override_settings

from tools import bench_thread as bench
from tools.scratch import throwaway_database


class Command(BaseCommand):
    help = (
        "Build a match with 500 posts in a throwaway test database and print the median "
        "server time and database queries of a declaration and of the match page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--posts", type=int, default=500)
        parser.add_argument("--samples", type=int, default=30)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        # Tasks are not sent: a worker would look for matches that no longer exist.
        with (
            throwaway_database("bench"),
            override_settings(ALLOWED_HOSTS=["testserver"]),
            mock.patch.object(Task, "apply_async"),
        ):
            figures = bench.run(options["posts"], options["samples"], options["seed"])
        self.stdout.write(bench.report(figures))
