"""A database that drops its connections (a restart, a failover, a proxy's idle cut) costs no
request: a web process checks a reused connection before its first query (CONN_HEALTH_CHECKS)
and opens a new one. The requests go through the real WSGI handler, as gunicorn's do: Django's
test client leaves out the connection checks of request_started and request_finished."""

import io
from collections.abc import Iterator
from typing import Any
from wsgiref.util import setup_testing_defaults

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection


@pytest.fixture
def postgresql_only() -> Iterator[None]:
    if connection.vendor != "postgresql":
        pytest.skip("backends are terminated with PostgreSQL's pg_terminate_backend")
    yield


def get(path: str) -> int:
    environ: dict[str, Any] = {"PATH_INFO": path, "wsgi.input": io.BytesIO()}
    setup_testing_defaults(environ)
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
        statuses.append(status)
        return lambda data: None

    response = WSGIHandler()(environ, start_response)
    b"".join(response)
    response.close()  # request_finished, as a WSGI server sends it
    return int(statuses[0].split()[0])


def terminate_backends() -> int:
    """End every other connection to the test database, as a database restart does."""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        row = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.django_db(transaction=True)
def test_the_first_request_after_the_database_dropped_its_connections_succeeds(
    postgresql_only: None,
) -> None:
    path = "/teams/"
    assert get(path) == 200
    assert connection.connection is not None  # kept for the next request (CONN_MAX_AGE)
    assert terminate_backends() >= 1
    assert get(path) == 200
    assert get(path) == 200
