import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls it makes through
# live_server are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# Tasks run in the test process unless a test starts a real worker (see test_worker.py).
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

# The cast of a match (alice, bob, carol, dave, erin and gm) for the tests of every room.
pytest_plugins = ["matches.tests.cast"]

CHROMIUM = "/usr/bin/chromium"
# A page's answer may take seconds on a loaded CI machine (two test processes on two cores, a
# Chromium each): assertions on the page wait up to this long before failing.
BROWSER_PATIENCE_MS = 20_000


@pytest.fixture(autouse=True, scope="session")
def _tasks_run_eagerly() -> Iterator[None]:
    """pytest-django reads the settings before this file sets the variable above, so the
    Celery app is told directly; errors in a task fail the test that sent it."""
    from bbweb.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    # Each test process its own queues: a worker started by one test must take neither the
    # tasks another process sent for its own database nor those of a worker or beat left
    # running on the same Redis by anything else (a CI machine's earlier run, a developer's).
    if str(app.conf.broker_url).startswith("redis"):
        prefix = {"global_keyprefix": f"bbweb-test-{os.getpid()}-{uuid.uuid4().hex[:8]}:"}
        app.conf.broker_transport_options = {**app.conf.broker_transport_options, **prefix}
        app.conf.result_backend_transport_options = prefix
        yield
    elif str(app.conf.broker_url).startswith("filesystem://"):
        options = dict(app.conf.broker_transport_options)
        queue = Path(options["data_folder_in"]).parent / f"test-{os.getpid()}"
        for key in ("data_folder_in", "data_folder_out"):
            options[key] = str(queue / "queue")
        options["control_folder"] = str(queue / "control")
        options["processed_folder"] = str(queue / "processed")
        for folder in {
            options[k] for k in ("data_folder_in", "control_folder", "processed_folder")
        }:
            Path(folder).mkdir(parents=True, exist_ok=True)
        app.conf.broker_transport_options = options
        yield
        shutil.rmtree(queue, ignore_errors=True)
    else:
        yield


@pytest.fixture(autouse=True)
def _each_test_starts_in_the_default_language() -> Iterator[None]:
    """A request in Spanish leaves Spanish active in the test's thread (LocaleMiddleware
    activates it and nothing deactivates it), and the next test in that process would read
    its messages in Spanish."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _patient_page_assertions() -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=BROWSER_PATIENCE_MS)


@pytest.fixture(autouse=True)
def _a_test_leaves_no_page_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """A page opened in a context of a test's own would go on polling the live server
    through the tests that follow in its process, with their databases."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    for context in browser.contexts if browser is not None else []:
        context.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, object]) -> dict[str, object]:
    if not shutil.which(CHROMIUM):
        if os.environ.get("BBWEB_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing and the browser tests are mandatory here")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(autouse=True, scope="session")
def _each_test_process_has_its_own_cache() -> Iterator[None]:
    """Two test processes share one Redis: its cache would mix their rate-limit counts and
    their cached fragments of matches that have the same ids in their two databases. Each
    process caches in its own memory; test_thread_fragments.py tests the Redis cache itself."""
    from django.test.utils import override_settings

    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    ):
        yield


@pytest.fixture(autouse=True)
def _each_test_starts_with_no_throttle_counts() -> Iterator[None]:
    """The rate limits count in the cache, which lives as long as the test process: one
    test's sign-ups or wrong passwords must not refuse the next test's."""
    from django.core.cache import cache

    from matches.thread.page import RECENT

    cache.clear()
    RECENT.clear()  # the thread's copies in this process, in front of the cache
    yield
