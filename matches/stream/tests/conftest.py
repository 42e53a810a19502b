import socket
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast as typed_as

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from pytest_django.live_server_helper import LiveServer

from matches.tests.cast import cast, clients, gm, league, match, teams


@pytest.fixture
def asgi_server(transactional_db: None) -> Iterator[LiveServer]:
    """The site under uvicorn, as in production, in a thread of the test's process (its
    database, the in-process channel), the static files served from their folders."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = ASGIStaticFilesHandler(get_asgi_application())
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    # what the browser tests' helpers read of pytest-django's live server: its address
    yield typed_as(LiveServer, SimpleNamespace(url=f"http://127.0.0.1:{port}"))
    server.should_exit = True
    server.force_exit = True  # the streams still open would hold a graceful stop
    thread.join(10)
