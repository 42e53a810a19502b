from typing import Any
from unittest import mock

from celery.app.task import Task
from django.core.management.base import BaseCommand, CommandParser
from django.test.utils import override_settings

from tools import digest
from tools.scratch import throwaway_database


class Command(BaseCommand):
    help = (
        "Play random matches from fixed seeds, by the engine alone and through the services (in "
        "a throwaway test database), and print a digest of each kind: a change of the code's "
        "shape that changes no result prints the same digests."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=400, help="engine matches")
        parser.add_argument("--served", type=int, default=4, help="matches through the services")

    def handle(self, *args: Any, **options: Any) -> None:
        engine = digest.engine_digest(options["matches"])
        self.stdout.write(
            f"engine: {engine.matches} matches, {engine.posts} declarations, sha256 {engine.sha256}"
        )
        if not options["served"]:
            return
        # Tasks are not sent: a worker would look for matches that no longer exist.
        with (
            throwaway_database("digest"),
            override_settings(ALLOWED_HOSTS=["testserver"]),
            mock.patch.object(Task, "apply_async"),
        ):
            served = digest.served_digest(options["served"])
        self.stdout.write(
            f"services: {served.matches} matches, {served.posts} posts, sha256 {served.sha256}"
        )
