"""What silence answers is told the same way everywhere it is told (the page, the API, the
e-mail) and is what the deadline applies: both of a league's defaults for a rival's reroll
request, end to end."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from bbweb.models import ApiToken
from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import Decision, Match
from teams.models import League

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("setting", "answer", "shown", "rerolls_left"),
    [
        (League.RerollApproval.APPROVE, "approve", "Approve", 1),
        (League.RerollApproval.REFUSE, "deny", "Deny", 2),
    ],
)
def test_the_default_shown_is_the_default_the_deadline_applies(
    in_play: Match,
    alice: User,
    bob: User,
    league: League,
    dice: list[int],
    clock: Clock,
    on_commit: Callable[..., Any],
    setting: str,
    answer: str,
    shown: str,
    rerolls_left: int,
) -> None:
    league.reroll_approval_default = setting
    league.save()
    dice += [1, 4, 4, 4]  # the dodge fails; the reroll succeeds, or the armour holds (8)
    services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    with on_commit():
        services.answer(in_play.pk, bob, "team")
    [message] = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    assert f"If nobody answers in time: {shown}." in message.body

    page = Client()
    page.force_login(alice)
    html = page.get(reverse("matches:detail", args=[in_play.pk])).content.decode()
    assert f"If nobody answers in time: {shown}." in html

    api = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(alice)}")
    pending = api.get(reverse("api:match", args=[in_play.pk])).json()["pending"]
    assert (pending["kind"], pending["default"]) == ("reroll_approval", answer)
    assert Decision.objects.get(kind="reroll_approval").default == answer

    clock.advance(hours=13)
    assert services.expire_deadlines() == 1
    assert Decision.objects.get(kind="reroll_approval").answer == answer
    in_play.refresh_from_db()
    assert services.load_state(in_play).teams["home"].rerolls == rerolls_left
