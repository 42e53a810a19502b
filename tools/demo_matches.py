"""The demo matches between the two demo teams, played through the services like any match:
one played to its end (a concession) and closed by the GM, so its seed is revealed
(``verify_match`` can check it), one in play a few turns in, with some talk in the thread, and
the return fixture on the league's schedule. A team plays one match at a time, so the GM opens
that fixture (at its pre-match, seed 003) once the match in play has finished."""

import random
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from matches import services
from matches.models import Fixture, Match, Post
from matches.play.page import awaited
from rules.engine import MatchState, legal_declarations
from rules.engine.board import NAMES
from rules.engine.randomplay import formation
from rules.engine.ruleset import ruleset_for
from rules.engine.state import other
from teams.models import Team

KICK_TARGETS = {"home": "H8", "away": "S8"}  # the square kicked to when that team receives


def load_demo_matches(home: Team, away: Team) -> list[Match]:
    """The finished match, then the one in play (its line-up taken after the first one's
    post-match changed the rosters), created unless they exist (safe to run again), and the
    return fixture scheduled."""
    gm = User.objects.get(username="gm")
    pair = Match.objects.filter(home_team=home, away_team=away)
    finished = pair.filter(status=Match.Status.FINISHED).first()
    if finished is None:
        finished = services.create_match(home=home, away=away, gm=gm, league=home.league)
        play(finished, random.Random(11), turns=2)
        concede(finished)
        settle_post_match(finished)
    in_play = pair.filter(status=Match.Status.IN_PLAY).first()
    if in_play is None:
        in_play = services.create_match(home=home, away=away, gm=gm, league=home.league)
        play(in_play, random.Random(7), turns=3)
        _talk(in_play)
    return_fixture(home, away, gm)
    return [Match.objects.get(pk=m.pk) for m in (in_play, finished)]


def return_fixture(home: Team, away: Team, gm: User) -> Fixture:
    """The return fixture (the away team at home) on the league's schedule."""
    league = home.league
    assert league is not None, "the demo teams play in the demo league"
    fixture = Fixture.objects.filter(league=league, home=away, away=home).first()
    if fixture is None:
        fixture = services.add_fixture(league.pk, gm, round=1, home_id=away.pk, away_id=home.pk)
    return fixture


def settle_post_match(match: Match) -> None:
    """Nobody answers the post-match steps: each takes its default when its deadline passes
    (winnings kept, MVPs drawn, improvements chosen), and the last one closes the match."""
    later = timezone.now() + timedelta(days=30)
    for _ in range(20):
        if Match.objects.get(pk=match.pk).status == Match.Status.FINISHED:
            return
        if not services.expire_sequence_deadlines(now=later):
            break
    services.close_match(match.pk, match.gm)


def coach(match: Match, actor: str) -> User:
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    return team.captain if side == "captain" or team.rival is None else team.rival


def play(match: Match, rng: random.Random, *, turns: int) -> None:
    """Real declarations through the services until ``turns`` team turns were played: the
    decisions (kick or receive, rerolls, block dice...) answered at random by their coach."""
    played = 0
    for _ in range(2000):
        match.refresh_from_db()
        state = services.load_state(match)
        if state.phase == "finished":
            return
        if state.pending is not None:
            choice = rng.choice(state.pending.options)
            services.answer(match.pk, coach(match, state.pending.to), choice)
            continue
        if state.phase == "play" and played >= turns:
            return
        actor, declaration = _next(state, rng)
        if declaration.get("action") == "end_turn" and actor.endswith(":captain"):
            played += 1
        services.declare(match.pk, coach(match, actor), declaration, side=actor.partition(":")[2])


def _next(state: MatchState, rng: random.Random) -> tuple[str, dict[str, object]]:
    rs = ruleset_for(state)
    if state.phase == "kickoff":
        return f"{state.kicking}:captain", {"action": "kick", "target": _kick(state)}
    if state.phase in ("setup", "perfect_defence", "quick_snap"):
        actor = awaited(state)[0][0]
        team, _sep, side = actor.partition(":")
        placements: dict[str, str] = {}
        if state.phase == "setup":
            placements = formation(state, team)
        elif state.phase == "perfect_defence":
            placements = {p.id: NAMES[p.at] for p in state.players.values() if p.at is not None}
        mine = {
            pid: sq
            for pid, sq in placements.items()
            if state.players[pid].team == team
            and (not state.house_rules or state.players[pid].side == side)
        }
        return actor, {"action": "setup", "placements": mine}
    team = state.active
    sides = [s for s in rs.sides() if s not in state.teams[team].ended]
    side = sides[-1] if sides else "captain"  # the rival's side plays first, then the captain
    actor = f"{team}:{side}"
    options = [d for d in legal_declarations(state, actor) if d.action != "claim_blitz"]
    moves = [d for d in options if (d.action == "move" and d.path) or d.action == "block"]
    if moves and rng.random() < 0.6:
        return actor, rng.choice(moves).to_json()
    return actor, {"action": "end_turn"}


def _kick(state: MatchState) -> str:
    return KICK_TARGETS[other(state.kicking)]


def concede(match: Match) -> None:
    """The active team's captain concedes at the start of its next turn."""
    for _ in range(200):
        match.refresh_from_db()
        state = services.load_state(match)
        if state.phase == "finished":
            return
        if state.pending is not None:
            services.answer(match.pk, coach(match, state.pending.to), state.pending.default)
            continue
        if state.phase == "play":
            team = state.active
            acted = any(p.acted for p in state.players.values() if p.team == team)
            if not acted and not state.teams[team].ended:
                captain = coach(match, f"{team}:captain")
                services.declare(match.pk, captain, {"action": "concede"}, side="captain")
                continue
        actor, declaration = _next(state, random.Random(0))
        services.declare(match.pk, coach(match, actor), declaration, side=actor.partition(":")[2])


def _talk(match: Match) -> None:
    home, away = match.home_team, match.away_team
    lines = [
        (home.captain, Post.Kind.IN_CHARACTER, "The Reavers take the field to a roaring crowd!"),
        (away.captain, Post.Kind.IN_CHARACTER, "**WAAAGH!** Da Raiders iz 'ere."),
        (
            home.rival or home.captain,
            Post.Kind.OUT_OF_CHARACTER,
            f"@{home.captain.username} shall I take the Blitz this turn?",
        ),
    ]
    for author, kind, text in lines:
        services.write_post(match.pk, author, kind=kind, text=text)
