"""Random matches, some rewound by the GM, played to their end: every player's career, every
team's history and the league's records equal what the events give, read as the SPP are
(matches.record.spp over the events no rewind took back), and what the post-match recorded."""

import random
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.gm.tests.conftest import play
from matches.models import Match, PlayerMatchRecord
from matches.record import careers, spp
from matches.record.folding import undone_numbers
from matches.sequence.tests.driving import finish_now
from teams.models import League, Player, Team

pytestmark = pytest.mark.django_db

SETTINGS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _mid_setup(state: dict[str, Any]) -> bool:
    teams = state["teams"].values()
    return state["phase"] == "setup" and any(team.get("posted") for team in teams)


def _rewind_somewhere(
    match: Match, snapshots: dict[int, Any], point: float, alice: User, gm: User
) -> None:
    """The GM rewinds to before a declaration (not one finishing a set-up half posted: the
    random formation could not be posted again from the dice that follow)."""
    declarations = [
        e
        for e in match.events.filter(type="declaration").order_by("number")
        if e.number - 1 in snapshots and not _mid_setup(snapshots[e.number - 1])
    ]
    if not declarations:
        return
    target = declarations[int(point * (len(declarations) - 1))]
    dispute = services.raise_dispute(match.pk, alice, reason="Again.", event_number=target.number)
    services.rule_on_dispute(match.pk, gm, dispute.pk, "rewind", note="Again.")


def _from_the_events(league: League) -> tuple[dict[int, Counter[str]], list[int]]:
    """Each rostered player's feats over the league's played matches, from the events no
    rewind undid, and each match's winning margin."""
    feats: dict[int, Counter[str]] = defaultdict(Counter)
    margins = []
    played = Match.objects.filter(
        league=league, status__in=(Match.Status.POST_MATCH, Match.Status.FINISHED)
    )
    for match in played:
        events = list(match.events.order_by("number"))
        undone = undone_numbers(events)
        found = spp.achievements((e.type, e.data) for e in events if e.number not in undone)
        for pid, entry in match.lineup.items():
            if entry.get("pk") is None or entry.get("kind", "player") != "player":
                continue
            line = feats[entry["pk"]]
            line["matches"] += 1
            line.update(found.get(pid, Counter()))
            line["suffered"] += bool(match.state["players"].get(pid, {}).get("casualty"))
        score = match.state["score"]
        margins.append(abs(score["home"] - score["away"]))
    return feats, margins


@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(3, 80),
    point=st.floats(0, 1),
    rewind=st.booleans(),
    winner=st.sampled_from(["home", "away", None]),
)
def test_careers_histories_and_records_are_what_the_events_give(
    seed: int,
    steps: int,
    point: float,
    rewind: bool,
    winner: str | None,
    demo: tuple[Team, Team],
    cast: dict[str, User],
) -> None:
    home, away = demo
    gm, alice = cast["gm"], cast["alice"]
    league = home.league
    assert league is not None
    coaches = {
        "home:captain": alice,
        "home:rival": cast["bob"],
        "away:captain": cast["carol"],
        "away:rival": cast["dave"],
    }
    rng = random.Random(seed)
    match = services.create_match(home=home, away=away, gm=gm, league=league)
    snapshots = {1: match.events.get(number=1).data["state"]}
    for last, state in play(match, coaches, rng, steps):
        if state["pending"] is None:
            snapshots.setdefault(last, state)
    match.refresh_from_db()
    if rewind and match.status == Match.Status.IN_PLAY:
        _rewind_somewhere(match, snapshots, point, alice, gm)
        play(match, coaches, rng, 5)
        match.refresh_from_db()
    if match.status == Match.Status.IN_PLAY:
        fielded = sorted(pid for pid in match.state["players"] if pid.startswith("h"))
        hurt = {rng.choice(fielded): "minus_ma"} if rng.random() < 0.5 else {}
        finish_now(match, winner=winner, casualties=hurt)
    services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))

    feats, margins = _from_the_events(league)
    for player in Player.objects.filter(team__in=(home, away)):
        career = careers.player_career(player)
        want = feats.get(player.pk, Counter())
        got = {
            "matches": career.matches,
            "touchdowns": career.touchdowns,
            "casualties": career.casualties,
            "completions": career.completions,
            "interceptions": career.interceptions,
            "suffered": career.casualties_suffered,
        }
        assert got == {what: want[what] for what in got}, player.name
        # The post-match's records, written from the same events, agree line by line.
        records = PlayerMatchRecord.objects.filter(player=player)
        assert career.spp == sum(r.spp for r in records)
        assert career.mvps == sum(r.award == spp.MJE for r in records)

    # A touchdown a rewind took back is nobody's.
    scored = sum(line["touchdowns"] for line in feats.values())
    assert scored == sum(careers.player_career(p).touchdowns for p in Player.objects.all())

    found = careers.league_records(league)
    best_td = max((line["touchdowns"] for line in feats.values()), default=0)
    assert [f.value for f in found.career_touchdowns[:1]] == ([best_td] if best_td else [])
    best_cas = max((line["casualties"] for line in feats.values()), default=0)
    assert [f.value for f in found.career_casualties[:1]] == ([best_cas] if best_cas else [])
    top_margin = max(margins, default=0)
    assert [f.value for f in found.biggest_wins[:1]] == ([top_margin] if top_margin else [])

    # Each team's history holds every one of its matches once, with the state's score.
    for team in (home, away):
        games = careers.team_games(team)
        assert (
            len(games)
            == Match.objects.filter(
                league=league, status__in=(Match.Status.POST_MATCH, Match.Status.FINISHED)
            ).count()
        )
        for game in games:
            key = "home" if game.match.home_team_id == team.pk else "away"
            other = "away" if key == "home" else "home"
            score = game.match.state["score"]
            assert (game.scored, game.conceded) == (score[key], score[other])
