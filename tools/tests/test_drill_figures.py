"""The fault drill's notice figures tell a notice not delivered yet when the drill stopped
waiting (its task or its claim still pending) from a lost one (nothing left would send it)."""

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from bbweb.models import OutboxMessage
from matches.models import Match, Notice
from tools import drill

pytestmark = pytest.mark.django_db


def test_a_late_notice_is_not_counted_lost_and_a_lost_one_is(
    match: Match, cast: dict[str, User]
) -> None:
    alice, carol = cast["alice"], cast["carol"]
    sent_key, late_task, late_claim, lost = (f"{drill.NOTICE_KEY}:{n}" for n in range(4))
    went = Notice.objects.create(user=alice, match=match, kind="turn", key=sent_key, sent=True)
    OutboxMessage.objects.create(
        task="matches.tasks.notify", args=["turn", match.pk, ["home:captain"], late_task, {}]
    )
    Notice.objects.create(user=carol, match=match, kind="turn", key=late_claim, sent=False)
    OutboxMessage.objects.create(  # a task that ran to its end and sent nothing: that one is lost
        task="matches.tasks.notify", args=["turn", match.pk, ["away:captain"], lost, {}]
    )
    OutboxMessage.objects.filter(args__3=lost).update(done_at=went.created_at)
    smtp = SimpleNamespace(received=[(f"<notice-{went.pk}@bbweb.local>", ("alice@x",))])
    due = [(alice.pk, sent_key), (alice.pk, late_task), (carol.pk, late_claim), (carol.pk, lost)]
    figures = drill.Figures(notices_due=len(due), waited_seconds=180)
    drill.count_notices(figures, due, smtp)  # type: ignore[arg-type]
    assert (figures.notices_sent, figures.notices_late, figures.notices_lost) == (1, 2, 1)
    assert figures.notices_doubled == 0
    line = figures.lines()[1]
    assert "4 due, 1 sent, 2 not delivered yet when the drill stopped waiting (180 s" in line
    assert "1 lost (nothing left that would send them)" in line
