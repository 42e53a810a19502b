import json
from dataclasses import asdict
from typing import Any

import psycopg
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from tools import autoplay, drill, faults


class Command(BaseCommand):
    help = (
        "The fault drill, bounded and on loopback: in a database of its own on the configured "
        "PostgreSQL server (NAME_drill, dropped afterwards) with a Redis server, a Celery worker "
        "and a mail server of its own, it kills workers with -9 while deadlines and notices go "
        "out, stops the broker and terminates database backends while clients post, tries "
        "forgeries on an export; and prints what was created, applied, sent, stored, doubled, "
        "lost and caught."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--deadlines", type=int, default=200, help="matches whose deadline passed"
        )
        parser.add_argument("--clients", type=int, default=4, help="clients posting at once")
        parser.add_argument("--posts", type=int, default=10, help="posts by each client")
        parser.add_argument(
            "--wait-resend",
            action="store_true",
            help="wait (up to 30 minutes) while a notice's task or claim is still pending, for "
            "the outbox's resend and the sweep, rather than counting such notices as not yet "
            "delivered",
        )
        parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
        parser.add_argument("--keep", action="store_true", help="keep the drill's database")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("The drill needs PostgreSQL (DATABASE_URL): it terminates backends.")
        try:
            own = faults.OwnRedis()
        except RuntimeError as error:
            raise CommandError(f"The drill needs its own broker: {error}.") from None
        configured = connection.settings_dict["NAME"]
        name = f"{configured}_drill"
        _recreate(name)
        connection.close()
        connection.settings_dict["NAME"] = name
        figures = drill.Figures()
        try:
            call_command("migrate", verbosity=0)
            own.start()
            drill.configure_broker(own.url())
            env = faults.worker_env(faults.database_url(connection.settings_dict), own.url())
            template = autoplay.demo_match()
            for user in User.objects.all():
                User.objects.filter(pk=user.pk).update(email=f"{user.username}@drill.invalid")
            drill.deadlines_and_notices(
                figures,
                template,
                env,
                own.url(),
                options["deadlines"],
                wait_resend=options["wait_resend"],
            )
            drill.posts_under_faults(
                figures, template, own, env, options["clients"], options["posts"]
            )
            drill.forgeries(figures)
        finally:
            own.stop()
            connection.close()
            connection.settings_dict["NAME"] = configured
            if not options["keep"]:
                _drop(name)
        if options["json"]:
            self.stdout.write(json.dumps(asdict(figures)))
        else:
            for line in figures.lines():
                self.stdout.write(line)


def _admin() -> psycopg.Connection[Any]:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    )


def _recreate(name: str) -> None:
    _drop(name)
    with _admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')


def _drop(name: str) -> None:
    with _admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
