"""sequence: the steps the pre- and post-match sequences share: the sequence row and the
teams' records, the step posts and their deadlines, the sequence's dice and where each was read,
the checks of who may act, and the gold that moves between treasuries and sides."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import F
from django.utils import timezone

from matches.models import Match, Post, Sequence, TeamMatchRecord
from matches.services import core
from matches.services.actors import AnyUser, actors_for
from matches.services.clocks import DEFAULT_DECISION_HOURS
from matches.services.core import MatchError, append_event, load_state, new_post
from teams.models import Team

STAR_SIDE = "captain"  # the captain buys the inducements, so the hired players play for him


# Wherever the record shows dice of the sequence's stream, it shows where each was read: a list
# of faces KEY ("dice", "fan_factor_dice"; "die" for one face) sits beside KEY_at, the indexes
# (and KEY_sides when they are not D6), so the export's verifier checks each against the seed.
# The match's opening rolls the sequence shows again are "faces" beside "faces_at".


@dataclass(frozen=True)
class _Rolled:
    faces: list[int]
    at: list[int]  # the indexes in the sequence's stream
    sides: int


def roll_sequence(match: Match, seq: Sequence, count: int = 1, sides: int = 6) -> _Rolled:
    """The next ``count`` rolls of the sequence's stream. The step shows them all in the
    first event it posts with dice: the export's verifier checks the stream is read in order."""
    stream = core.sequence_dice(match)
    at = list(range(seq.dice_used, seq.dice_used + count))
    seq.dice_used += count
    return _Rolled([stream.face(index, sides) for index in at], at, sides)


def drawn_for(*draws: _Rolled) -> dict[str, list[int]]:
    """Random choices made for a coach who missed a deadline: the dice that chose."""
    return {
        "dice": [face for draw in draws for face in draw.faces],
        "dice_at": [index for draw in draws for index in draw.at],
        "dice_sides": [draw.sides for draw in draws for _ in draw.faces],
    }


def step_deadline(match: Match) -> Any:
    hours = match.league.decision_deadline_hours if match.league else DEFAULT_DECISION_HOURS
    return timezone.now() + timedelta(hours=hours)


def team_of(match: Match, key: str) -> Team:
    return match.home_team if key == "home" else match.away_team


def other(key: str) -> str:
    return "away" if key == "home" else "home"


def team_records(match: Match) -> dict[str, TeamMatchRecord]:
    return {r.key: r for r in TeamMatchRecord.objects.select_for_update().filter(match=match)}


def sequence(match: Match) -> Sequence:
    seq = Sequence.objects.select_for_update().filter(match=match).first()
    if seq is None:
        raise MatchError("no_sequence", "This match has no pre- or post-match sequence.")
    return seq


def step_post(
    match: Match, step: str, author: AnyUser | None = None, actor: str = "", **data: Any
) -> Post:
    """A system post for one step, and its event in the match record."""
    state = load_state(match)
    summary = {"step": step, **data}
    post = new_post(
        match, state, kind=Post.Kind.SYSTEM, author=author, actor=actor, summary=summary
    )
    append_event(match, state, f"sequence_{step}", summary, post)
    return post


def coaches_in(match: Match, team: Team, side: str, user: AnyUser) -> bool:
    """Whether the user coaches that side of the team in this match (a GM's substitute does,
    the coach replaced does not)."""
    key = "home" if team.pk == match.home_team_id else "away"
    return f"{key}:{side}" in actors_for(match, user)


def check_side_coach(match: Match, team: Team, user: AnyUser, side: str) -> None:
    if side not in ("captain", "rival"):
        raise MatchError("malformed", "A side is the captain's or the rival's.")
    if not coaches_in(match, team, side, user):
        if not actors_for(match, user):
            raise MatchError("not_in_match", "Only the coaches of the teams decide this.")
        raise MatchError("not_your_side", "Only that side's coach decides this.")


def check_captain_of(match: Match, team: Team, user: AnyUser) -> None:
    if not coaches_in(match, team, "captain", user):
        if not actors_for(match, user):
            raise MatchError("not_in_match", "Only the coaches of the teams decide this.")
        raise MatchError("not_captain", "Only the team's captain decides this.")


def take_gold(team: Team, side: str, amount: int) -> None:
    field = "captain_treasury" if side == "captain" else "rival_treasury"
    taken = Team.objects.filter(pk=team.pk, **{f"{field}__gte": amount}).update(
        **{field: F(field) - amount}
    )
    if not taken:
        raise MatchError("not_enough_gold", "The side's treasury does not hold that much.")


def give_gold(team: Team, side: str, amount: int) -> None:
    if amount:
        field = "captain_treasury" if side == "captain" else "rival_treasury"
        Team.objects.filter(pk=team.pk).update(**{field: F(field) + amount})
