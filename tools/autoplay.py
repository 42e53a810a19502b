"""Random legal play through the write path: benchmarks and tests fill matches with it."""

import random
from typing import Any

from django.contrib.auth.models import User

from bbweb.roles import make_game_master
from matches import services
from matches.models import Match, Post
from rules.engine import MatchState
from rules.engine.randomplay import choose
from teams.models import Team
from tools.demo_teams import load_demo_teams


def coaches(match: Match) -> dict[str, User]:
    """The user behind each TEAM:SIDE (the captain holds both sides until a rival joins)."""
    out = {}
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        out[f"{key}:captain"] = team.captain
        out[f"{key}:rival"] = team.rival or team.captain
    return out


def next_declaration(match: Match, rng: random.Random) -> tuple[User, dict[str, Any], str]:
    """A random legal declaration for the match's state (no decision may be pending): the
    coach who posts it, the declaration and the side it posts for."""
    actor, declaration = choose(MatchState.from_json(match.state), rng, whole=True)
    return coaches(match)[str(actor)], declaration.to_json(), actor.side


def step(match_id: int, rng: random.Random) -> services.Outcome:
    """One random legal post: the answer to the pending decision, or a declaration."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    pending = MatchState.from_json(match.state).pending
    if pending is not None:
        user = coaches(match)[pending.to]
        return services.answer(match_id, user, rng.choice(pending.options))
    user, declaration, side = next_declaration(match, rng)
    return services.declare(match_id, user, declaration, side=side)


def chat(match_id: int, rng: random.Random) -> Post:
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    user = rng.choice(list(coaches(match).values()))
    kind = rng.choice([Post.Kind.IN_CHARACTER, Post.Kind.OUT_OF_CHARACTER])
    return services.write_post(match_id, user, kind=kind, text=f"Post {rng.random():.6f}, *go*!")


def fill(match_id: int, posts: int, rng: random.Random, *, chat_share: float = 0.5) -> None:
    """Add ``posts`` posts to the thread: declarations and decisions, and chat in between
    (only chat once the match is over)."""
    for _ in range(posts):
        status = Match.objects.values_list("status", flat=True).get(pk=match_id)
        if status == Match.Status.IN_PLAY and rng.random() >= chat_share:
            step(match_id, rng)
        else:
            chat(match_id, rng)


def demo_match() -> Match:
    """A match in play between the demo league's two teams, made with their coaches and GM
    when they are missing."""
    for username in ("gm", "alice", "bob", "carol", "dave"):
        User.objects.get_or_create(username=username)
    gm = User.objects.get(username="gm")
    make_game_master(gm)
    home, away = (Team.objects.get(pk=team.pk) for team in load_demo_teams())
    return services.create_match(home=home, away=away, gm=gm, league=home.league)
