"""Receipts: the head of the whole record (events, posts, teams) shown on the page, in every
e-mail and in the post-match report; ``verify_match FILE --head RECEIPT`` holds an export to
it, so a history rewritten after the receipt was taken fails even when it is consistent."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from matches.models import Match
from matches.verification import receipts
from matches.verification.exports import verify
from matches.verification.tests.conftest import Doc, forged, played_once, rechained, verify_command
from matches.verification.tests.test_sequence_rolls import play_a_match_with_its_sequences

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("verify_receipts")]


def _played() -> dict[str, Any]:
    played = play_a_match_with_its_sequences()
    match = Match.objects.get(pk=played["doc"]["match"]["id"])
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    report = Client().get(f"/matches/{match.pk}/postmatch/").content.decode()
    return {**played, "shown": receipts.for_match(match), "page": page, "report": report}


@pytest.fixture(scope="module")
def finished(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    yield from played_once(django_db_blocker, _played)


def midway(doc: Doc) -> tuple[str, int]:
    """A receipt a coach took halfway through the match, and the event it was taken at."""
    events = len(doc["events"]) // 2
    posts = max(p["number"] for p in doc["posts"] if p["number"] <= len(doc["posts"]) // 2)
    return receipts.at(doc, events, posts), events


def test_the_page_and_the_post_match_report_show_the_receipt_the_export_gives_back(
    finished: dict[str, Any], tmp_file: Path
) -> None:
    doc = finished["doc"]
    assert finished["shown"] == doc["receipt"] == receipts.of_export(doc)
    assert f'data-testid="receipt">{doc["receipt"]}<' in finished["page"]
    assert doc["receipt"] in finished["report"]
    out, err, error = verify_command(doc, tmp_file, "--head", doc["receipt"])
    assert error is None, err
    assert f"It gives back the receipt {doc['receipt']}." in out


def test_a_receipt_taken_midway_holds_the_finished_export_to_what_it_saw(
    finished: dict[str, Any],
) -> None:
    held, _event = midway(finished["doc"])
    assert verify(finished["doc"], head=held).ok


def test_an_alternative_history_fails_against_a_receipt_taken_after_the_forged_point(
    finished: dict[str, Any], tmp_file: Path
) -> None:
    """Rewritten from the middle and chained again, the later history may replay (here: a
    post's text, which no roll checks), but a receipt taken after the forged point fails."""
    held, event = midway(finished["doc"])
    doc = forged(finished["doc"])
    post = next(p for p in doc["posts"] if p["number"] == 2)
    post["text"], post["summary"] = "I never declared that.", {}
    doc["receipt"] = receipts.of_export(doc)
    assert verify(doc).ok  # without a receipt, nothing tells the story apart
    _out, err, error = verify_command(doc, tmp_file, "--head", held)
    assert error is not None and "does not give back the receipt" in err
    rewritten = forged(finished["doc"])
    rewritten["events"][event - 2]["data"]["forged"] = True
    problems = verify(rechained(rewritten), head=held).problems
    assert any("does not give back the receipt" in problem for problem in problems)


def test_a_forgery_after_the_receipt_was_taken_does_not_touch_it(
    finished: dict[str, Any],
) -> None:
    held, _event = midway(finished["doc"])
    doc = forged(finished["doc"])
    doc["posts"][-1]["text"] = "a later post, rewritten"
    assert receipts.check(doc, held) == []


def test_a_receipt_the_file_is_too_short_for_or_malformed_fails_with_a_message(
    finished: dict[str, Any],
) -> None:
    doc = finished["doc"]
    assert "the file holds" in receipts.check(doc, f"{len(doc['events']) + 1}.1.{'0' * 64}")[0]
    assert "is not a receipt" in receipts.check(doc, "abc")[0]


def test_every_notice_carries_the_receipt(finished: dict[str, Any]) -> None:
    from matches.notices import emails as notifications

    match = Match.objects.get(pk=finished["doc"]["match"]["id"])
    User.objects.filter(pk=match.home_team.captain_id).update(email="alice@example.org")
    mail.outbox.clear()
    notifications.send("turn", match.pk, ["home:captain"], "receipt-test", {})
    [message] = mail.outbox
    assert receipts.for_match(match) in message.body
