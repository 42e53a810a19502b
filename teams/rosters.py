"""Roster arithmetic without the database: what a planned team costs, whether it is legal, what
a player is worth, and how gold is shared between the two sides of a team."""

from collections import Counter
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import gamedata

CAPTAIN = "captain"
RIVAL = "rival"
SIDES = (CAPTAIN, RIVAL)
NUMBER_MAX = 99
STAT_LABELS = {
    "MA": gettext_lazy("MA"),
    "ST": gettext_lazy("ST"),
    "AG": gettext_lazy("AG"),
    "AV": gettext_lazy("AV"),
}
# Gold shared between the sides is counted in thousands, as the forum writes it ("50k").
SHARE_UNIT = 1_000


def gp(amount: int) -> str:
    """1,000,000 gp, grouped as the reader's language groups digits."""
    return _("%(amount)s gp") % {"amount": number_format(amount, force_grouping=True)}


@dataclass(frozen=True)
class PlannedPlayer:
    position: str
    side: str
    number: int | None = None
    name: str = ""


@dataclass(frozen=True)
class TeamPlan:
    """A team as it would be created: what the browser form and ``import_team --new`` build."""

    race: str
    players: tuple[PlannedPlayer, ...]
    rerolls: int = 0
    fan_factor: int = 0
    assistant_coaches: int = 0
    cheerleaders: int = 0
    apothecary: bool = False


@dataclass(frozen=True)
class PlanTotals:
    players_cost: int
    rerolls_cost: int
    staff_cost: int
    captain_players: int
    rival_players: int
    captain_value: int
    rival_value: int

    @property
    def total(self) -> int:
        return self.players_cost + self.rerolls_cost + self.staff_cost

    @property
    def players(self) -> int:
        return self.captain_players + self.rival_players


def _known_race(race_id: str) -> gamedata.Race | None:
    try:
        return gamedata.race(race_id)
    except gamedata.UnknownRace:
        return None


def staff_cost(
    *, fan_factor: int, assistant_coaches: int, cheerleaders: int, apothecary: bool
) -> int:
    rules = gamedata.team_building()
    return (
        fan_factor * rules.fan_factor_cost
        + assistant_coaches * rules.assistant_coach_cost
        + cheerleaders * rules.cheerleader_cost
        + (rules.apothecary_cost if apothecary else 0)
    )


def plan_totals(plan: TeamPlan) -> PlanTotals:
    """Costs of a plan; players of unknown positions count for nothing (plan_problems says so)."""
    race = _known_race(plan.race)
    values = {CAPTAIN: 0, RIVAL: 0}
    counts = {CAPTAIN: 0, RIVAL: 0}
    for player in plan.players:
        side = player.side if player.side in SIDES else CAPTAIN
        counts[side] += 1
        if race is not None:
            with suppress(gamedata.UnknownPosition):
                values[side] += race.position(player.position).cost
    return PlanTotals(
        players_cost=values[CAPTAIN] + values[RIVAL],
        rerolls_cost=max(plan.rerolls, 0) * (race.reroll_cost if race else 0),
        staff_cost=staff_cost(
            fan_factor=max(plan.fan_factor, 0),
            assistant_coaches=max(plan.assistant_coaches, 0),
            cheerleaders=max(plan.cheerleaders, 0),
            apothecary=plan.apothecary,
        ),
        captain_players=counts[CAPTAIN],
        rival_players=counts[RIVAL],
        captain_value=values[CAPTAIN],
        rival_value=values[RIVAL],
    )


def plan_problems(plan: TeamPlan, budget: int | None) -> list[str]:
    """Every reason the plan is not a legal LRB5 team, as sentences for the coach.

    With a budget the plan is a new team: at least 11 players, the fan factor a new team may
    buy, and no more spent than the budget. Without one it is a team that has played.
    """
    race = _known_race(plan.race)
    if race is None:
        return [_("Unknown race “%(race)s”.") % {"race": plan.race}]
    rules = gamedata.team_building()
    problems: list[str] = []
    by_position: Counter[str] = Counter()
    for player in plan.players:
        try:
            race.position(player.position)
        except gamedata.UnknownPosition:
            problems.append(
                _("Unknown position “%(position)s” for a %(race)s team.")
                % {"position": player.position, "race": race.name}
            )
            continue
        by_position[player.position] += 1
        if player.side not in SIDES:
            problems.append(
                _("Unknown side “%(side)s”: a player is on the captain's or the rival's side.")
                % {"side": player.side}
            )
    for pos in race.positions:
        if by_position[pos.id] > pos.max_qty:
            problems.append(
                _("Too many %(position)s: %(count)d, at most %(max)d.")
                % {"position": pos.title, "count": by_position[pos.id], "max": pos.max_qty}
            )
    count = len(plan.players)
    if count > rules.players_max:
        problems.append(
            _("Too many players: %(count)d, at most %(max)d.")
            % {"count": count, "max": rules.players_max}
        )
    if budget is not None and count < rules.players_min:
        problems.append(
            _("Too few players: %(count)d, a new team needs at least %(min)d.")
            % {"count": count, "min": rules.players_min}
        )
    problems.extend(number_problems(plan.players))
    for label, amount in (
        (_("Team rerolls"), plan.rerolls),
        (_("Fan factor"), plan.fan_factor),
        (_("Assistant coaches"), plan.assistant_coaches),
        (_("Cheerleaders"), plan.cheerleaders),
    ):
        if amount < 0:
            problems.append(_("%(what)s cannot be negative.") % {"what": label})
    if plan.rerolls > rules.max_rerolls:
        problems.append(
            _("Too many team rerolls: %(count)d, at most %(max)d.")
            % {"count": plan.rerolls, "max": rules.max_rerolls}
        )
    if budget is not None and plan.fan_factor > rules.max_fan_factor_at_creation:
        problems.append(
            _("Fan factor %(count)d: a new team buys at most %(max)d.")
            % {"count": plan.fan_factor, "max": rules.max_fan_factor_at_creation}
        )
    if plan.apothecary and not race.apothecary_allowed:
        problems.append(_("%(race)s teams may not have an apothecary.") % {"race": race.name})
    spent = plan_totals(plan).total
    if budget is not None and spent > budget:
        problems.append(
            _("Over budget: %(spent)s spent of %(budget)s.")
            % {"spent": gp(spent), "budget": gp(budget)}
        )
    return problems


def number_problems(players: Iterable[PlannedPlayer]) -> list[str]:
    problems = []
    seen: Counter[int] = Counter(p.number for p in players if p.number is not None)
    for number in sorted(seen):
        if not 1 <= number <= NUMBER_MAX:
            problems.append(
                _("Player number %(number)d is not between 1 and %(max)d.")
                % {"number": number, "max": NUMBER_MAX}
            )
        if seen[number] > 1:
            problems.append(
                _("Duplicate player number %(number)d (%(count)d players).")
                % {"number": number, "count": seen[number]}
            )
    return problems


def share_by_value(amount: int, captain_value: int, rival_value: int) -> tuple[int, int]:
    """Split gold between the sides in proportion to their players' value, like the gate.

    Each exact share is rounded down to the unit (SHARE_UNIT) and the gold left goes to the
    side whose exact share lost the larger fraction (largest remainder); on equal fractions
    to the lower-valued side, and between sides of equal value to the rival's. So the shares
    always add up to the amount and each is within one unit of its exact share. With no
    value on either side the captain's side holds it all.

    >>> share_by_value(70_000, 410_000, 340_000)
    (38000, 32000)
    >>> share_by_value(1_000, 500_000, 500_000)
    (0, 1000)
    """
    total = captain_value + rival_value
    if amount <= 0 or total <= 0:
        return amount, 0
    captain_units, captain_rest = divmod(amount * captain_value, total * SHARE_UNIT)
    rival_units, rival_rest = divmod(amount * rival_value, total * SHARE_UNIT)
    captain_floor, rival_floor = captain_units * SHARE_UNIT, rival_units * SHARE_UNIT
    left = amount - captain_floor - rival_floor
    if not left:
        return captain_floor, rival_floor
    captain_first = captain_rest > rival_rest or (
        captain_rest == rival_rest and captain_value < rival_value
    )
    if captain_first:
        captain = captain_floor + min(left, SHARE_UNIT)
        return captain, amount - captain
    rival = rival_floor + min(left, SHARE_UNIT)
    return amount - rival, rival


def player_value(position: gamedata.Position, gained: Sequence[str]) -> int:
    """The position's cost plus what each improvement adds (LRB5)."""
    return position.cost + sum(gamedata.improvement_cost(position, g) for g in gained)


def gained_problems(position: gamedata.Position, gained: Sequence[str]) -> list[str]:
    """Why a list of gained skills and stat increases is not possible for the position."""
    problems = []
    names: Counter[str] = Counter()
    for item in gained:
        if item in gamedata.STAT_INCREASES:
            continue
        try:
            skill = gamedata.skill(item)
        except gamedata.UnknownSkill:
            problems.append(_("Unknown skill “%(skill)s”.") % {"skill": item})
            continue
        names[skill.name] += 1
        if skill.name in position.skills:
            problems.append(
                _("A %(position)s already has %(skill)s.")
                % {"position": position.title, "skill": skill.name}
            )
        elif position.access(skill.name) is None:
            problems.append(
                _("A %(position)s cannot learn %(skill)s.")
                % {"position": position.title, "skill": skill.name}
            )
    problems.extend(
        _("%(skill)s is gained twice.") % {"skill": name}
        for name, count in names.items()
        if count > 1
    )
    return problems


def current_stat(position: gamedata.Position, stat: str, gained: Sequence[str], loss: int) -> int:
    """A characteristic with the player's increases and injuries applied (never below 1)."""
    increases = sum(1 for g in gained if g == f"+{stat}")
    return max(gamedata.STAT_MIN, position.stat(stat) + increases - loss)
