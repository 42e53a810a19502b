"""One-click unsubscribe: every notice names, in ``List-Unsubscribe`` and at its foot, a link
that turns its kind off for its reader: a mail client's POST (no login, no CSRF token) or the
page's button; a link not made here changes nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from matches import services
from matches.models import CoachPreferences, Match
from matches.notices import unsubscribe

pytestmark = pytest.mark.django_db


def _end_turn(match: Match, captain: User, rival: User, on_commit: Callable[..., Any]) -> None:
    services.declare(match.pk, captain, {"action": "end_turn"}, side="captain")
    with on_commit():
        services.declare(match.pk, rival, {"action": "end_turn"}, side="rival")


def _path(link: str) -> str:
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


def test_a_mail_clients_one_click_turns_that_kind_off(
    in_play: Match,
    alice: User,
    bob: User,
    carol: User,
    dave: User,
    on_commit: Callable[..., Any],
) -> None:
    _end_turn(in_play, alice, bob, on_commit)
    to_carol = next(m for m in mail.outbox if m.to == ["carol@example.org"])
    header = to_carol.extra_headers["List-Unsubscribe"]
    assert to_carol.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert header.startswith("<http") and header.endswith(">")
    link = header[1:-1]
    assert link in to_carol.body  # the same link at the foot of the text

    client = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token
    answer = client.post(_path(link), {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    preferences = CoachPreferences.objects.get(user=carol)
    assert preferences.email_turn is False
    assert preferences.email_decision is True  # only that kind

    mail.outbox.clear()
    _end_turn(in_play, carol, dave, on_commit)
    _end_turn(in_play, alice, bob, on_commit)
    assert ["dave@example.org"] in [m.to for m in mail.outbox]
    assert ["carol@example.org"] not in [m.to for m in mail.outbox]


def test_the_link_asks_before_it_acts_in_the_readers_language(carol: User) -> None:
    services.save_preferences(carol, language="fr")
    link = unsubscribe.url(carol.pk, "warning")
    client = Client()
    client.cookies["django_language"] = "fr"
    page = client.get(_path(link))
    assert page.status_code == 200
    assert "Se désabonner" in page.content.decode()
    assert CoachPreferences.objects.get(user=carol).email_warning is True  # a GET changes nothing
    client.post(_path(link))
    assert CoachPreferences.objects.get(user=carol).email_warning is False


@pytest.mark.parametrize("forged", ["nonsense", "tampered"])
def test_a_link_not_made_here_changes_nothing(carol: User, forged: str) -> None:
    services.save_preferences(carol, language="en")
    value = unsubscribe.token(carol.pk, "turn")
    bad = (
        "nonsense" if forged == "nonsense" else value[:-2] + ("AA" if value[-2:] != "AA" else "BB")
    )
    good = unsubscribe.url(carol.pk, "turn")
    answer = Client().post(_path(good).replace(value, bad))
    assert answer.status_code == 404
    assert "not valid" in answer.content.decode()
    assert CoachPreferences.objects.get(user=carol).email_turn is True


def test_a_mention_can_be_turned_off_too(
    in_play: Match, alice: User, carol: User, on_commit: Callable[..., Any]
) -> None:
    with on_commit():
        services.write_post(in_play.pk, alice, kind="ooc", text="@carol your move, coach")
    (message,) = [m for m in mail.outbox if m.to == ["carol@example.org"]]
    link = message.extra_headers["List-Unsubscribe"][1:-1]
    Client().post(_path(link))
    assert CoachPreferences.objects.get(user=carol).email_mention is False
    mail.outbox.clear()
    with on_commit():
        services.write_post(in_play.pk, alice, kind="ooc", text="@carol again")
    assert [m for m in mail.outbox if m.to == ["carol@example.org"]] == []
