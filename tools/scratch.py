"""A throwaway database for the tools that play matches (benchmarks, the random-match digest):
never the configured one."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def throwaway_database(suffix: str, *, sqlite_file: bool = False) -> Iterator[None]:
    """A test database made for the block and dropped after it: on PostgreSQL ``NAME_suffix``
    on the configured server; on SQLite in memory, or with ``sqlite_file`` a file beside the
    configured one (``NAME.suffix``), for a server started in other processes."""
    name = connection.settings_dict["NAME"]
    if connection.vendor != "sqlite" or sqlite_file:
        separator = "." if connection.vendor == "sqlite" else "_"
        connection.settings_dict["TEST"] = {
            **connection.settings_dict.get("TEST", {}),
            "NAME": f"{name}{separator}{suffix}",
        }
    real_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(real_name, verbosity=0)
