"""A real worker SIGKILLed while it sends a notice: the mail server (a fake on loopback) holds
its reply to the mail's data, the worker is killed, and a second worker takes the notice over
once the broker's visibility timeout and the notice's lease have passed (``faults.after_a_kill``
does what those clocks do, at once).

Afterwards the notice is delivered. Whether it is delivered twice depends on the mail server:
one that had not yet taken the mail when its sender vanished delivers it once; one that had
taken it delivers the first copy and the retry's, the window where notices are at least once
(``matches.notices.emails._deliver``, README "Notices"). Both copies carry one Message-ID, so
the coach's mail client shows one."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection

from bbweb.models import OutboxMessage
from matches.models import Match, Notice
from tools import faults

pytestmark = [
    pytest.mark.worker,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
KEY = "fault:notice-kill"


@pytest.fixture
def own_redis() -> Iterator[faults.OwnRedis]:
    if connection.vendor != "postgresql":
        faults.unavailable("needs PostgreSQL (DATABASE_URL): the worker shares the test database")
    try:
        server = faults.OwnRedis()
    except RuntimeError as error:
        faults.unavailable(str(error))
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize("accepted", [False, True], ids=["not taken", "taken before the kill"])
def test_a_worker_killed_while_the_mail_server_holds_its_reply_loses_no_notice(
    match: Match, own_redis: faults.OwnRedis, accepted: bool
) -> None:
    alice = match.home_team.captain
    User.objects.filter(pk=alice.pk).update(email="alice@example.org")
    smtp = faults.FakeSmtp(accept_held=accepted)
    smtp.hold()
    env = faults.worker_env(
        faults.database_url(connection.settings_dict), own_redis.url(), smtp.port
    )
    OutboxMessage.objects.create(  # the relay of the worker's beat sends it
        task="matches.tasks.notify", args=["turn", match.pk, ["home:captain"], KEY, {}]
    )
    first = faults.Worker(env)
    try:
        assert smtp.held.wait(60), "the worker never reached the mail server"
        first.kill()
    finally:
        first.kill()
    smtp.release()
    notice = Notice.objects.get(user=alice, key=KEY)
    assert not notice.sent  # killed between the mail and its mark
    restored, _ended = faults.after_a_kill(own_redis.url())
    assert restored >= 1, "the killed worker's task was not left unacknowledged"
    second = faults.Worker(env)
    try:
        assert faults.wait_for(lambda: Notice.objects.get(pk=notice.pk).sent, 90)
    finally:
        second.stop()
    smtp.close()
    assert Notice.objects.filter(user=alice, key=KEY).count() == 1
    ids = [message_id for message_id, _to in smtp.received]
    assert ids and len(set(ids)) == 1 and ids[0] == f"<notice-{notice.pk}@{_host()}>"
    assert len(ids) == (2 if accepted else 1), smtp.received


def _host() -> str:
    from urllib.parse import urlsplit

    from django.conf import settings

    return urlsplit(settings.SITE_URL).hostname or "bbweb.local"
