"""The replay: every event of the record on the pitch, rebuilt with the rules engine, for
whoever may read the match."""

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Match
from matches.play import replay
from matches.tests.replays import recorded_position, walk_and_score
from rules.engine.board import NAMES
from teams.models import Team
from tools import demo_matches as demo

pytestmark = pytest.mark.django_db


def _frames(client: Client, match: Match) -> list[dict[str, object]]:
    response = client.get(f"/matches/{match.pk}/replay/frames/")
    assert response.status_code == 200
    frames: list[dict[str, object]] = response.json()["frames"]
    return frames


def test_the_last_frame_of_a_played_match_is_its_stored_state(match: Match) -> None:
    demo.play(match, random.Random(3), turns=3)
    demo.concede(match)
    match.refresh_from_db()
    state = services.load_state(match)
    last = replay.frames(match)[-1].view
    assert last.spots == {
        pid: (NAMES[p.at], p.state, pid == state.carrier, p.team)
        for pid, p in state.players.items()
        if p.at is not None
    }
    assert last.score == (state.score["home"], state.score["away"])
    assert last.turn == (state.turn["home"], state.turn["away"])
    assert match.events.filter(type__startswith="sequence_").exists()
    assert all(not f.text.startswith("sequence") for f in replay.frames(match))


def test_a_walk_and_a_touchdown_are_replayed_event_by_event(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    walk_and_score(match, cast)
    frames = _frames(clients["anonymous"], match)
    texts = [str(f["text"]) for f in frames]
    assert frames[0]["changes"]["h7"] == ["K8", "standing", False, "home"]  # type: ignore[index]
    walked = texts.index("#7 Max Steiner moves from K8 to J8")
    assert frames[walked]["changes"] == {"h7": ["J8", "standing", False, "home"]}
    stepped = texts.index("#1 Karl Fleischer moves from X8 to Y8")
    assert frames[stepped]["changes"] == {"h1": ["Y8", "standing", True, "home"]}
    assert frames[stepped]["score"] == [0, 0]
    scored = next(i for i, t in enumerate(texts) if t.startswith("Touchdown for Reikland Reavers"))
    assert frames[scored]["score"] == [1, 0]
    assert frames[walked]["post"] != frames[stepped]["post"]


def test_undone_play_is_not_replayed(
    match: Match, cast: dict[str, User], gm: User, clients: dict[str, Client]
) -> None:
    recorded_position(match)
    walk_and_score(match, cast)
    touchdown = match.events.get(type="touchdown")
    dispute = services.raise_dispute(
        match.pk, cast["carol"], reason="Karl stepped out.", event_number=touchdown.number
    )
    services.rule_on_dispute(
        match.pk, gm, dispute.pk, "rewind", note="Agreed.", event_number=touchdown.number
    )
    frames = _frames(clients["alice"], match)
    assert all(not str(f["text"]).startswith("Touchdown") for f in frames)
    assert frames[-1]["score"] == [0, 0]
    assert [f["text"] for f in frames[-2:]] == [
        "A coach raises a dispute",
        "The game master takes the play back",
    ]
    spanish = clients["alice"].get(
        f"/matches/{match.pk}/replay/frames/", headers={"accept-language": "es"}
    )
    assert spanish.json()["frames"][-1]["text"] == "El máster deshace la jugada"


def test_a_private_match_is_replayed_for_its_coaches_and_gm_only(
    match: Match, clients: dict[str, Client]
) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    assert clients["alice"].get(f"/matches/{match.pk}/replay/").status_code == 200
    assert clients["gm"].get(f"/matches/{match.pk}/replay/frames/").status_code == 200
    assert clients["erin"].get(f"/matches/{match.pk}/replay/").status_code == 404
    assert clients["erin"].get(f"/matches/{match.pk}/replay/frames/").status_code == 404
    anonymous = clients["anonymous"]
    assert anonymous.get(f"/matches/{match.pk}/replay/").status_code == 302
    assert anonymous.get(f"/matches/{match.pk}/replay/frames/").status_code == 403


def test_the_match_page_links_its_replay(match: Match, clients: dict[str, Client]) -> None:
    page = clients["anonymous"].get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/replay/"' in page


def test_a_match_not_yet_on_record_has_no_frames(
    teams: tuple[Team, Team], gm: User, clients: dict[str, Client]
) -> None:
    home, away = teams
    match = services.create_match(home=home, away=away, gm=gm, prematch=True)
    assert _frames(clients["erin"], match) == []
    page = clients["erin"].get(f"/matches/{match.pk}/replay/").content.decode()
    assert "Nothing of this match is on record yet." in page


def test_a_replay_is_never_served_for_another_history_under_the_same_id(match: Match) -> None:
    """A database restored from a backup, or made again, gives a match id and version to
    another history while the cache still holds a day of replays."""
    demo.play(match, random.Random(3), turns=2)
    match.refresh_from_db()
    played = replay.replay_document(match)
    pk, fields = match.pk, match.fields_for_copies()
    match.delete()
    again = Match.objects.create(pk=pk, **fields)  # the same id and version, no events
    assert (again.pk, again.version) == (pk, fields["version"])
    document = replay.replay_document(again)
    assert document != played
    assert document == replay.replay_document(Match.objects.get(pk=again.pk))
    assert document["frames"] == []
