from typing import Any
from unittest import mock

from celery.app.task import Task
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test.utils import override_settings

from tools import bench_thread as bench


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
        # Never the real database: a test database (PostgreSQL: NAME_bench) made and dropped
        # here. Tasks are not sent: a worker would look for matches that no longer exist.
        if connection.vendor != "sqlite":
            name = connection.settings_dict["NAME"]
            connection.settings_dict["TEST"] = {
                **connection.settings_dict.get("TEST", {}),
                "NAME": f"{name}_bench",
            }
        real_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False
        )
        try:
            with (
                override_settings(ALLOWED_HOSTS=["testserver"]),
                mock.patch.object(Task, "apply_async"),
            ):
                figures = bench.run(options["posts"], options["samples"], options["seed"])
        finally:
            connection.creation.destroy_test_db(real_name, verbosity=0)
        self.stdout.write(bench.report(figures))
