"""The league's gold and glory around a match, without the database: LRB5 as
``rules/data/lrb5/tables.json`` gives it, with the forum's house rules 3 (the gate shared by
side value), 4 (MVP chosen by the opposing captain) and 6 (no Wizard), and seed 003's
pre-match sequence (petty cash, handicap money, inducements within their limits).

>>> winnings(d6=4, fame=1, result=WIN, team_value=1_000_000)
60000
>>> spiralling_expenses(1_900_000)
20000
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils.translation import gettext as _

from bbweb import glossary
from rules import gamedata
from teams import rosters

WIN, DRAW, LOSS = "win", "draw", "loss"
# Inducements bought by count; stars and mercenaries are listed one by one.
COUNTED = (
    "bloodweiser_babes",
    "bribes",
    "extra_training",
    "halfling_master_chef",
    "igor",
    "wandering_apothecary",
)


@cache
def _tables() -> dict[str, Any]:
    with (gamedata.DATA_DIR / "tables.json").open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


# -- before the match -----------------------------------------------------------------------------


def fame(fans: int, opponent_fans: int) -> int:
    """FAME: 0 with no more fans than the opponent, +1 with more, +2 with at least double."""
    if fans >= 2 * opponent_fans:
        return 2
    return 1 if fans > opponent_fans else 0


def favourite(home_value: int, away_value: int) -> str:
    """The team that decides first (the higher value; the home team when equal)."""
    return "away" if away_value > home_value else "home"


def handicap(value: int, opponent_value: int) -> int:
    """Handicap money: the value difference, for the lower team only (seed 003)."""
    return max(0, opponent_value - value)


@dataclass(frozen=True)
class Mercenary:
    position: str
    skill: str = ""

    def to_json(self) -> dict[str, str]:
        return {"position": self.position, "skill": self.skill}


@dataclass(frozen=True)
class Order:
    """What a team buys before the match: counted inducements, star players, mercenaries."""

    counts: Mapping[str, int] = field(default_factory=dict)
    stars: tuple[str, ...] = ()
    mercenaries: tuple[Mercenary, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        counts = data.get("counts") or {}
        if not isinstance(counts, Mapping):
            raise ValueError("counts must be an object")
        return cls(
            counts={str(k): int(v) for k, v in counts.items() if int(v)},
            stars=tuple(str(s) for s in data.get("stars") or ()),
            mercenaries=tuple(
                Mercenary(str(m["position"]), str(m.get("skill") or ""))
                for m in data.get("mercenaries") or ()
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": {k: v for k, v in sorted(self.counts.items()) if v},
            "stars": list(self.stars),
            "mercenaries": [m.to_json() for m in self.mercenaries],
        }

    @property
    def empty(self) -> bool:
        return not any(self.counts.values()) and not self.stars and not self.mercenaries

    def players(self) -> int:
        """Players the order adds to the match (Brick Far'th brings Grotty)."""
        extra = sum(1 for s in self.stars if _star(s) and _partner(s))
        return len(self.stars) + extra + len(self.mercenaries)


def _star(star_id: str) -> gamedata.StarPlayer | None:
    return next((s for s in gamedata.star_players() if s.id == star_id), None)


def _partner(star_id: str) -> gamedata.StarPlayer | None:
    star = _star(star_id)
    if star is None or not star.hired_with:
        return None
    return next((s for s in gamedata.star_players() if s.name == star.hired_with), None)


def star_companions(star_id: str) -> tuple[gamedata.StarPlayer, ...]:
    """The star and whoever comes with him for free."""
    star = _star(star_id)
    if star is None:
        return ()
    partner = _partner(star_id)
    return (star, partner) if partner is not None else (star,)


def mercenary_skill_ok(pos: gamedata.Position, skill_name: str) -> bool:
    """A mercenary's extra skill comes from the position's normal categories."""
    try:
        found = gamedata.skill(skill_name)
    except gamedata.UnknownSkill:
        return False
    return found.name not in pos.skills and pos.access(found.name) == "normal"


def order_cost(race_id: str, order: Order) -> int:
    """What the order costs a team of the race (unknown items count for nothing)."""
    total = 0
    for item_id, count in order.counts.items():
        try:
            price = gamedata.inducement(item_id).cost_for(race_id)
        except gamedata.UnknownInducement:
            continue
        total += (price or 0) * count
    for star_id in order.stars:
        star = _star(star_id)
        total += star.cost if star else 0
    for merc in order.mercenaries:
        try:
            pos = gamedata.race(race_id).position(merc.position)
        except gamedata.UnknownPosition:
            continue
        total += gamedata.mercenary_cost(pos, extra_skill=bool(merc.skill))
    return total


def order_problems(
    race_id: str,
    order: Order,
    *,
    budget: int,
    available_players: int,
    position_counts: Mapping[str, int],
) -> list[str]:
    """Every reason the order cannot be bought, as sentences for the captain.

    ``available_players``: the team's players able to play this match; ``position_counts``:
    how many of each position the roster holds (mercenaries stay within the limits).
    """
    race = gamedata.race(race_id)
    problems: list[str] = []
    for item_id, count in order.counts.items():
        if item_id == "wizard":
            problems.append(_("There is no Wizard in this league (house rule 6)."))
            continue
        try:
            item = gamedata.inducement(item_id)
        except gamedata.UnknownInducement:
            problems.append(_("Unknown inducement “%(item)s”.") % {"item": item_id})
            continue
        if item_id not in COUNTED:
            problems.append(_("Unknown inducement “%(item)s”.") % {"item": item_id})
            continue
        if count < 0:
            problems.append(_("%(item)s cannot be negative.") % {"item": item.name})
        elif item.max is not None and count > item.max:
            problems.append(_("At most %(max)d %(item)s.") % {"max": item.max, "item": item.name})
        if count > 0 and not item.available_to(race.id):
            problems.append(
                _("%(race)s teams may not buy %(item)s.") % {"race": race.name, "item": item.name}
            )
    stars_max = gamedata.inducement("star_players").max or 0
    if len(order.stars) > stars_max:
        problems.append(_("At most %(max)d star players.") % {"max": stars_max})
    if len(set(order.stars)) != len(order.stars):
        problems.append(_("A star player is hired once."))
    allowed = {s.id for s in gamedata.star_players_for(race.id)}
    for star_id in order.stars:
        if star_id not in allowed:
            star = _star(star_id)
            problems.append(
                _("%(star)s does not play for %(race)s teams.")
                % {"star": star.name if star else star_id, "race": race.name}
            )
    added: Counter[str] = Counter()
    for merc in order.mercenaries:
        try:
            pos = race.position(merc.position)
        except gamedata.UnknownPosition:
            problems.append(
                _("A %(race)s team has no position “%(position)s”.")
                % {"race": race.name, "position": merc.position}
            )
            continue
        added[pos.id] += 1
        if merc.skill and not mercenary_skill_ok(pos, merc.skill):
            problems.append(
                _("A %(position)s mercenary cannot take %(skill)s.")
                % {"position": glossary.position_name(pos), "skill": merc.skill}
            )
    for pos_id, count in added.items():
        pos = race.position(pos_id)
        if position_counts.get(pos_id, 0) + count > pos.max_qty:
            problems.append(
                _("Too many %(position)s: %(count)d, at most %(max)d.")
                % {
                    "position": glossary.position_name(pos),
                    "count": position_counts.get(pos_id, 0) + count,
                    "max": pos.max_qty,
                }
            )
    limit = gamedata.team_building().players_max
    if available_players + order.players() > limit:
        problems.append(
            _("Too many players: %(count)d, at most %(max)d.")
            % {"count": available_players + order.players(), "max": limit}
        )
    cost = order_cost(race.id, order)
    if cost > budget:
        problems.append(
            _("Over budget: %(spent)s spent of %(budget)s.")
            % {"spent": rosters.gp(cost), "budget": rosters.gp(budget)}
        )
    return problems


def star_clashes(home: Order, away: Order) -> frozenset[str]:
    """Stars both teams induced: neither fields them, and both pay (seed 003)."""
    return frozenset(home.stars) & frozenset(away.stars)


def spend(cost: int, *, handicap_money: int, captain_cash: int, rival_cash: int) -> tuple[int, int]:
    """What goes back to each side's treasury: the handicap money is spent first (and what is
    left of it is lost), then the petty cash of both sides in proportion to what each put in,
    rounded as the gate is (``rosters.share_by_value``)."""
    from_cash = max(0, cost - handicap_money)
    cash = captain_cash + rival_cash
    left = max(0, cash - from_cash)
    if cash <= 0:
        return 0, 0
    return rosters.share_by_value(left, captain_cash, rival_cash)


# -- after the match ------------------------------------------------------------------------------


def result_for(team: str, winner: str | None) -> str:
    if winner is None:
        return DRAW
    return WIN if winner == team else LOSS


def spiralling_expenses(team_value: int) -> int:
    """From 1,750,000: 10,000 for every 150,000 of team value, from the first band on."""
    rule = _tables()["post_match"]["spiralling_expenses"]
    start, width, per_band = int(rule["start_tv"]), int(rule["band_width"]), int(rule["per_band"])
    if team_value < start:
        return 0
    return ((team_value - start) // width + 1) * per_band


def winnings_before_expenses(d6: int, fame: int, result: str) -> int:
    """(D6 + FAME, +1 for a win or a draw) x 10,000."""
    return (d6 + fame + (1 if result in (WIN, DRAW) else 0)) * 10_000


def winnings(*, d6: int, fame: int, result: str, team_value: int) -> int:
    """The team's winnings after spiralling expenses (never below nothing)."""
    return max(0, winnings_before_expenses(d6, fame, result) - spiralling_expenses(team_value))


LARGEST_REMAINDER = "largest_remainder"  # the gate's rounding a winnings event names


def split_winnings_as_recorded(
    amount: int, captain_value: int, rival_value: int, rounding: str | None
) -> tuple[int, int]:
    """The shares by the rounding a winnings event was paid with: matches paid before the
    largest remainder (their events name no rounding) rounded the rival's share down to the
    thousand and gave the rest to the captain."""
    if rounding == LARGEST_REMAINDER:
        return split_winnings(amount, captain_value, rival_value)
    total = captain_value + rival_value
    if amount <= 0 or total <= 0:
        return amount, 0
    rival = amount * rival_value // total // rosters.SHARE_UNIT * rosters.SHARE_UNIT
    return amount - rival, rival


def split_winnings(amount: int, captain_value: int, rival_value: int) -> tuple[int, int]:
    """House rule 3: each side gets a share in proportion to its players' value, rounded to
    the thousand by largest remainder (docs/house-rules.md)."""
    return rosters.share_by_value(amount, captain_value, rival_value)


def fan_factor_dice(result: str) -> int:
    """3D6 after a win, 2D6 after a draw or a loss."""
    return 3 if result == WIN else 2


def fan_factor_change(fan_factor: int, result: str, total: int) -> int:
    """+1 after a win or draw rolling above the fan factor, -1 after a loss or draw below."""
    if result in (WIN, DRAW) and total > fan_factor:
        return 1
    if result in (LOSS, DRAW) and total < fan_factor and fan_factor > 0:
        return -1
    return 0
