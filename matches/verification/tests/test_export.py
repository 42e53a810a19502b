import copy
import json
import random
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchEvent
from matches.verification.exports import export_match, verify
from tools import autoplay

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Match:
    """A match some sixty posts in: the opening rolls, a kick-off and a few turns. The dice
    seed is new each run, so it plays on, ten posts at a time, until more than 20 dice have
    been rolled."""
    match = autoplay.demo_match()
    rng = random.Random(7)
    autoplay.fill(match.pk, 60, rng, chat_share=0.2)
    for _ in range(30):
        match.refresh_from_db()
        if match.state["dice_used"] > 20:
            break
        autoplay.fill(match.pk, 10, rng, chat_share=0.2)
    return match


def finish(match: Match) -> Match:
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    return match


def download(match: Match, client: Client) -> dict[str, Any]:
    response = client.get(reverse("matches:export", args=[match.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="match-{match.pk}.json"'
    doc: dict[str, Any] = json.loads(response.content)
    return doc


def call_export_and_verify(match: Match, path: Path) -> str:
    """export_match to a file, then verify_match on it; the second command's output."""
    exported = StringIO()
    call_command("export_match", str(match.pk), stdout=exported)
    path.write_text(exported.getvalue())
    out = StringIO()
    call_command("verify_match", str(path), stdout=out)
    return out.getvalue()


def test_the_export_lists_every_roll_of_the_match_in_order(played: Match, client: Client) -> None:
    doc = download(played, client)
    rolls = doc["dice"]["rolls"]
    assert [r["index"] for r in rolls] == list(range(played.state["dice_used"]))
    assert {r["sides"] for r in rolls} >= {6, 8}
    events = {e["number"]: e for e in doc["events"]}
    for roll in rolls:
        assert roll["face"] in events[roll["event"]]["data"]["faces"]
        assert 1 <= roll["face"] <= roll["sides"]
    assert rolls[0]["purpose"] == "weather"
    assert doc["dice"]["match_id"] == str(played.pk)
    assert doc["dice"]["commitment"] == played.dice_commitment
    assert [p["number"] for p in doc["posts"]] == list(range(1, played.posts.count() + 1))
    assert doc["teams"]["home"]["name"] == "Reikland Reavers"
    assert doc["lineup"]["h1"]["name"] == "Karl Fleischer"


def test_the_seed_is_not_in_the_export_before_the_match_is_over(
    played: Match, client: Client, tmp_path: Path
) -> None:
    doc = download(played, client)
    assert doc["dice"]["seed"] is None
    assert played.dice_seed not in json.dumps(doc)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CommandError, match="seed is not revealed yet"):
        call_command("verify_match", str(path))


def test_an_exported_match_verifies(played: Match, client: Client, tmp_path: Path) -> None:
    doc = download(finish(played), client)
    assert doc["dice"]["seed"] == played.dice_seed
    result = verify(doc)
    assert result.problems == []
    assert result.ok
    assert result.rolls == played.state["dice_used"] > 20
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    out = call_export_and_verify(played, path)
    assert f"OK: {result.rolls} rolls and 0 sequence rolls recomputed from the seed" in out


def test_changing_any_roll_makes_verification_fail(played: Match) -> None:
    doc = export_match(finish(played))
    for k, roll in enumerate(doc["dice"]["rolls"]):
        forged = copy.deepcopy(doc)
        forged["dice"]["rolls"][k]["face"] = roll["face"] % roll["sides"] + 1
        assert not verify(forged).ok, f"roll {k} changed and still verified"
    forged = copy.deepcopy(doc)
    forged["dice"]["rolls"][0]["sides"] = 8
    assert not verify(forged).ok
    forged = copy.deepcopy(doc)
    del forged["dice"]["rolls"][-1]
    assert not verify(forged).ok


def test_changing_any_event_makes_verification_fail(played: Match) -> None:
    doc = export_match(finish(played))
    for k in range(len(doc["events"])):
        forged = copy.deepcopy(doc)
        forged["events"][k]["data"]["forged"] = True
        problems = verify(forged).problems
        assert any(f"event {k + 1}:" in p for p in problems), problems


def test_a_forger_who_rebuilds_the_hash_chain_is_still_caught_by_the_dice(played: Match) -> None:
    """A changed face with every hash recomputed: the chain holds, the seed's dice do not."""
    doc = export_match(finish(played))
    target = next(e for e in doc["events"] if e["type"] == "dodge" or e["type"] == "armour")
    target["data"]["faces"][0] = target["data"]["faces"][0] % 6 + 1
    prev = doc["events"][0]["prev_hash"]
    for event in doc["events"]:
        event["prev_hash"] = prev
        event["hash"] = prev = MatchEvent.chain_hash(
            prev, event["number"], event["type"], event["data"]
        )
    problems = verify(doc).problems
    assert f"event {target['number']} is not what declaration" in " ".join(problems)


def test_a_wrong_seed_does_not_verify(played: Match) -> None:
    doc = export_match(finish(played))
    doc["dice"]["seed"] = "00" * 32
    assert verify(doc).problems == [
        "the seed does not match the commitment published for the match"
    ]


def test_a_private_match_is_downloaded_only_by_its_coaches_and_gm(
    played: Match, client: Client
) -> None:
    Match.objects.filter(pk=played.pk).update(is_public=False)
    url = reverse("matches:export", args=[played.pk])
    assert client.get(url).status_code == 404
    client.force_login(User.objects.create_user("eve"))
    assert client.get(url).status_code == 404
    for name in ("bob", "gm"):
        client.force_login(User.objects.get(username=name))
        assert client.get(url).status_code == 200


def test_a_file_that_is_no_export_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "bbweb-match/1", "events": [1, 2]}))
    with pytest.raises(CommandError, match="is not a match export"):
        call_command("verify_match", str(path))
    path.write_text("[]")
    with pytest.raises(CommandError, match="is not a match export"):
        call_command("verify_match", str(path))
    path.write_text(json.dumps({"events": []}))
    with pytest.raises(CommandError, match="1 problem"):
        call_command("verify_match", str(path), stderr=StringIO())
