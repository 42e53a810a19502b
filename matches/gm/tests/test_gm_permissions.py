"""Only the match's GM rules and controls the match: every GM action, tried by every role
through the views (anonymous, a spectator, each coach, another GM and the match's GM)."""

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import AuditEntry, Dispute, Match

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dave", "alice", "bob", "carol", "otto", "gm"]

# action: (url kind, path argument, POST data, the audit action it leaves)
ACTIONS: dict[str, tuple[str, str, dict[str, Any], str]] = {
    "dismiss": ("rule", "", {"ruling": "dismiss", "note": "No."}, "dismissed"),
    "uphold": ("rule", "", {"ruling": "uphold", "note": "Yes."}, "upheld"),
    "rewind": ("rule", "", {"ruling": "rewind"}, "rewind"),
    "grant_reroll": ("rule", "", {"ruling": "grant_reroll"}, "granted_reroll"),
    "correct": (
        "rule",
        "",
        {"ruling": "correct", "player": "h1", "state": "ko"},
        "correction",
    ),
    "extend_deadline": (
        "rule",
        "",
        {"ruling": "extend_deadline", "hours": "12"},
        "deadline_extended",
    ),
    "pause_ruling": ("rule", "", {"ruling": "pause"}, "paused"),
    "award": ("rule", "", {"ruling": "award", "winner": "home"}, "award"),
    "pause": ("control", "pause", {}, "paused"),
    "resume": ("control", "resume", {}, "resumed"),
    "lock": ("control", "lock", {}, "locked"),
    "unlock": ("control", "unlock", {}, "unlocked"),
    "extend": ("control", "extend", {"hours": "6"}, "deadline_extended"),
    "deadline": ("control", "deadline", {}, "deadline_set"),
    "replace": (
        "control",
        "replace",
        {"actor": "home:rival", "username": "dave"},
        "coach_replaced",
    ),
    "end": ("control", "end", {}, "match_ended"),
}


@pytest.fixture
def disputed(match: Match, alice: User, carol: User) -> tuple[Match, Dispute]:
    """A match past its coin toss (no question pending) with a dispute on the weather roll."""
    state = services.load_state(match)
    assert state.pending is not None
    chooser = carol if state.pending.to.startswith("away") else alice
    services.answer(match.pk, chooser, "receive")
    weather = match.events.get(type="weather")
    dispute = services.raise_dispute(
        match.pk, alice, reason="The weather roll is odd.", event_number=weather.number
    )
    match.refresh_from_db()
    return match, dispute


def _client(role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(User.objects.get(username=role))
    return client


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_only_the_match_gm_reaches_the_gm_actions(
    action: str, role: str, disputed: tuple[Match, Dispute], dave: User, otto: User, gm: User
) -> None:
    match, dispute = disputed
    kind, argument, data, audited = ACTIONS[action]
    if action == "resume":
        services.pause_match(match.pk, gm)
    if action == "unlock":
        services.lock_match(match.pk, gm)
    if action == "deadline":
        data = {"at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")}
    url = (
        reverse("gm:rule", args=[match.pk, dispute.pk])
        if kind == "rule"
        else reverse("gm:control", args=[match.pk, argument])
    )
    before = AuditEntry.objects.filter(match=match, action=audited).count()
    version = Match.objects.get(pk=match.pk).version

    response = _client(role).post(url, data)

    after = AuditEntry.objects.filter(match=match, action=audited).count()
    if role == "gm":
        assert response.status_code == 302, response.content
        assert after == before + 1
        return
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == 403
    assert after == before
    assert Match.objects.get(pk=match.pk).version == version
    dispute.refresh_from_db()
    assert dispute.is_open


@pytest.mark.parametrize("role", ROLES)
def test_only_game_masters_see_the_dispute_queue(
    role: str, disputed: tuple[Match, Dispute], dave: User, otto: User, gm: User
) -> None:
    response = _client(role).get(reverse("gm:queue"))
    if role == "anonymous":
        assert response.status_code == 302
    elif role in ("gm", "otto"):
        assert response.status_code == 200
        listed = b"The weather roll is odd." in response.content
        assert listed == (role == "gm")  # each GM sees the disputes of its own matches
    else:
        assert response.status_code == 403


def test_the_queue_lists_open_disputes_oldest_first(
    disputed: tuple[Match, Dispute], bob: User, gm: User
) -> None:
    match, first = disputed
    second = services.raise_dispute(match.pk, bob, reason="And the fans roll.", post_number=1)
    third = services.raise_dispute(match.pk, bob, reason="Closed one.", post_number=1)
    services.rule_on_dispute(match.pk, gm, third.pk, "dismiss")
    page = _client("gm").get(reverse("gm:queue")).content.decode()
    assert page.index(f"queued-{first.pk}") < page.index(f"queued-{second.pk}")
    assert f"queued-{third.pk}" not in page


@pytest.mark.parametrize("role", ROLES)
def test_only_the_match_coaches_raise_disputes(
    role: str, disputed: tuple[Match, Dispute], dave: User, otto: User, gm: User
) -> None:
    match, _dispute = disputed
    url = reverse("gm:raise_dispute", args=[match.pk])
    response = _client(role).post(url, {"post": "1", "reason": "Look at this."})
    raised = Dispute.objects.filter(reason="Look at this.").exists()
    if role in ("alice", "bob", "carol"):
        assert response.status_code == 302 and raised
    else:
        assert response.status_code in (302, 403) and not raised


def test_the_partial_shows_ruling_forms_only_to_the_match_gm(
    disputed: tuple[Match, Dispute], otto: User, gm: User
) -> None:
    match, dispute = disputed
    url = reverse("gm:match_disputes", args=[match.pk])
    for role, sees in (("gm", True), ("otto", False), ("alice", False), ("anonymous", False)):
        page = _client(role).get(url).content.decode()
        assert (f'data-testid="rule-{dispute.pk}"' in page) == sees, role
        assert ('data-testid="match-control"' in page) == sees, role
    assert 'data-testid="raise-dispute"' in _client("alice").get(url).content.decode()
    assert 'data-testid="raise-dispute"' not in _client("otto").get(url).content.decode()


def test_the_match_page_rules_for_the_gm_and_lists_for_the_others(
    disputed: tuple[Match, Dispute], otto: User, gm: User
) -> None:
    match, dispute = disputed
    url = reverse("matches:detail", args=[match.pk])
    for role, rules, raises in (
        ("gm", True, False),
        ("alice", False, True),
        ("otto", False, False),
        ("anonymous", False, False),
    ):
        page = _client(role).get(url).content.decode()
        assert f'data-testid="dispute-{dispute.pk}"' in page, role
        assert (f'data-testid="rule-{dispute.pk}"' in page) == rules, role
        assert ('data-testid="raise-dispute-link"' in page) == raises, role
        assert 'data-testid="raise-dispute"' not in page, role  # raised on the disputes page
