"""The post-match figures of an exported match, recomputed from its events and the rules: the
result (from the final state), the winnings (die, fame, spiralling expenses, the two sides'
shares), the fan factor's change, each player's SPP (``matches.record.spp`` over the events a rewind
left standing, and the awards) and the MVPs (players of the team they were given for). A
figure the record does not give is a problem, with the event that shows it.

The team values are recomputed from the rosters the sequence itemises beside them
(``matches.record.values``): each value from its players' positions and gains, re-rolls and staff by
the rules; the side values the winnings are shared by from the roster at the final whistle,
which must be the one the match began with (its line-up, its value before the match); and the
roster after the match from that one and the record: the dead gone, the injured missing the
next match, each improvement taken added, the fan factor changed by its roll. A record made
before the rosters were itemised shows no rosters: its values are checked for their arithmetic
only (``values_itemised`` tells which).
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from matches.record import economy, folding, spp
from matches.record import values as team_values
from rules.engine import MatchState
from teams import advancement

Doc = Mapping[str, Any]


class _Event:
    def __init__(self, event: Doc) -> None:
        self.number: int = event["number"]
        self.type: str = event["type"]
        self.data: Any = event["data"]


def check(events: Sequence[Doc], lineup: Doc, final: MatchState | None) -> list[str]:
    """What in the post-match sequence the events and the rules do not give (none if all do)."""
    steps: dict[str, list[Doc]] = {}
    for event in events:
        kind = str(event["type"])
        if kind.startswith("sequence_"):
            steps.setdefault(kind.removeprefix("sequence_"), []).append(event)
    if "result" not in steps:
        return []  # the match has not reached its post-match sequence
    problems: list[str] = []
    result = steps["result"][-1]
    winner = result["data"].get("winner")
    play_ended = final is not None and final.result is not None
    if play_ended and (winner, result["data"].get("score")) != _outcome(final):
        problems.append(
            f"event {result['number']}: the result is not the one the match's play ends with"
        )
    problems += _winnings(steps, winner, final)
    problems += _spp(events, steps, lineup)
    problems += _values(steps, lineup)
    return problems


def values_itemised(events: Sequence[Doc]) -> bool:
    """Whether the record itemises its team values (a record made since they were)."""
    return any(e["type"] == "sequence_team_values_after" and "items" in e["data"] for e in events)


def _values(steps: dict[str, list[Doc]], lineup: Doc) -> list[str]:
    problems: list[str] = []
    for step in ("team_values", "team_values_after"):
        for event in steps.get(step, []):
            for key, items in (event["data"].get("items") or {}).items():
                problems += _value_of(event, key, items, event["data"].get(key))
    began = {e["data"].get("team"): e for e in steps.get("winnings", []) if "items" in e["data"]}
    before = {key: v for e in steps.get("team_values", []) for key, v in _teams(e)}
    for key, event in began.items():
        problems += _final_whistle_roster(event, key, before.get(key), lineup)
    for event in steps.get("team_values_after", []):
        for key, items in (event["data"].get("items") or {}).items():
            if key in began:
                expected = _roster_after(began[key]["data"]["items"], key, steps, lineup)
                problems += _roster_differs(event, key, items, expected)
    return problems


def _value_of(event: Doc, key: str, items: Doc, shown: Any) -> list[str]:
    try:
        value = team_values.value(items)
    except (KeyError, TypeError, ValueError) as error:
        return [f"event {event['number']}: the {key} team's roster cannot be valued ({error!r})"]
    if shown != value:
        return [
            f"event {event['number']}: the {key} team's value is {shown!r}, its players, "
            f"re-rolls and staff give {value!r} by the rules"
        ]
    return []


def _final_whistle_roster(event: Doc, key: str, before: Any, lineup: Doc) -> list[str]:
    """The roster the winnings are shared by: the line-up's players, valued as before."""
    data, where = event["data"], f"event {event['number']} ({key}'s winnings)"
    items = data["items"]
    problems = _value_of(event, key, items, before) if before is not None else []
    try:
        expected = {
            "captain_value": team_values.side_value(items, "captain"),
            "rival_value": team_values.side_value(items, "rival"),
        }
    except (KeyError, TypeError, ValueError) as error:
        return [f"{where}: the roster cannot be valued ({error!r})"]
    problems += _differ(where, data, expected)
    if before is None:
        spiralling = economy.spiralling_expenses(team_values.value(items))
        problems += _differ(where, data, {"spiralling": spiralling})
    playing = {p["player"] for p in items["players"] if not p["missing"]}
    lined_up = {
        entry.get("pk")
        for pid, entry in lineup.items()
        if spp.team_of(pid) == key and entry.get("kind", "player") == "player"
    }
    if playing != lined_up:
        problems.append(f"{where}: its roster is not the line-up the match began with")
    return problems


def _roster_after(began: Doc, key: str, steps: dict[str, list[Doc]], lineup: Doc) -> Doc:
    """The roster at the final whistle as the record changes it."""
    pks = {pid: entry.get("pk") for pid, entry in lineup.items()}
    hurt = {
        pks.get(row.get("id")): advancement.injury_change(row.get("injury", ""))
        for event in steps.get("injuries", [])
        for row in event["data"].get(key, [])
        if not row.get("ignored")
    }
    taken: dict[Any, list[str]] = {}
    for event in steps.get("advancement", []):
        taken.setdefault(event["data"].get("player"), []).append(event["data"].get("choice"))
    players = []
    for player in began["players"]:
        change = hurt.get(player["player"])
        if change is not None and change.dead:
            continue
        players.append(
            {
                **player,
                "gained": [*player["gained"], *taken.get(player["player"], [])],
                "missing": bool(change is not None and change.miss_next_game),
            }
        )
    change = sum(
        e["data"].get("change", 0)
        for e in steps.get("fan_factor", [])
        if e["data"].get("team") == key
    )
    return {**began, "players": players, "fan_factor": began["fan_factor"] + change}


def _roster_differs(event: Doc, key: str, shown: Doc, expected: Doc) -> list[str]:
    where = f"event {event['number']}: the {key} team after the match"
    problems = [
        f"{where}: its {name} is {shown.get(name)!r}, the record gives {value!r}"
        for name, value in expected.items()
        if name != "players" and shown.get(name) != value
    ]
    listed = {p.get("player"): p for p in shown.get("players", [])}
    for player in expected["players"]:
        found = listed.pop(player["player"], None)
        if found != player:
            problems.append(
                f"{where}: player {player['player']} is {found!r}, the record gives {player!r}"
            )
    problems += [f"{where}: player {pk} was not on the roster" for pk in listed]
    return problems


def _winnings(steps: dict[str, list[Doc]], winner: Any, final: MatchState | None) -> list[str]:
    problems: list[str] = []
    dice = {key: data for e in steps.get("winnings_dice", []) for key, data in _teams(e)}
    rerolled = {e["data"]["team"]: e for e in steps.get("winnings_reroll", [])}
    values = {key: v for e in steps.get("team_values", []) for key, v in _teams(e)}
    fans = {key: v for e in steps.get("fans", []) for key, v in _teams(e)}
    for event in steps.get("winnings", []):
        data, key = event["data"], event["data"].get("team")
        where = f"event {event['number']} ({key}'s winnings)"
        result = economy.result_for(key, winner)
        rolled = dice.get(key, {})
        standing = (
            rerolled[key]["data"]["dice"][-1]
            if key in rerolled and rerolled[key]["data"].get("reroll")
            else (rolled.get("dice") or [None])[-1]
        )
        fame = final.teams[key].fame if final is not None else rolled.get("fame")
        gross = economy.winnings_before_expenses(data["die"], data["fame"], data["result"])
        spiralling = (
            economy.spiralling_expenses(values[key]) if key in values else data["spiralling"]
        )
        expected = {
            "die": standing,
            "fame": fame,
            "result": result,
            "gross": gross,
            "spiralling": spiralling,
            "winnings": max(0, gross - spiralling),
        }
        shares = economy.split_winnings_as_recorded(
            data["winnings"], data["captain_value"], data["rival_value"], data.get("rounding")
        )
        expected |= {"captain_share": shares[0], "rival_share": shares[1]}
        problems += _differ(where, data, expected)
    for event in steps.get("fan_factor", []):
        data, key = event["data"], event["data"].get("team")
        result = economy.result_for(key, winner)
        thrown = dice.get(key, {}).get("fan_factor_dice", data.get("dice"))
        expected = {
            "dice": thrown,
            "before": fans.get(key, {}).get("fan_factor", data["before"]),
            "change": economy.fan_factor_change(data["before"], result, sum(data["dice"])),
        }
        if len(thrown) != economy.fan_factor_dice(result):
            problems.append(f"event {event['number']}: a {result} rolls {len(thrown)} dice")
        problems += _differ(f"event {event['number']} ({key}'s fan factor)", data, expected)
    return problems


def _spp(events: Sequence[Doc], steps: dict[str, list[Doc]], lineup: Doc) -> list[str]:
    problems: list[str] = []
    played = [_Event(e) for e in events if not str(e["type"]).startswith("sequence_")]
    undone = folding.undone_numbers(played)
    found = spp.achievements((e.type, e.data) for e in played if e.number not in undone)
    awards: dict[str, str] = {}
    for event in steps.get("mvp", []):
        data = event["data"]
        for award in (spp.MJE, spp.PJE):
            pid = str((data.get(award) or {}).get("id", ""))
            if pid not in lineup or spp.team_of(pid) != data.get("team"):
                problems.append(
                    f"event {event['number']}: the {award.upper()} {pid or '(nobody)'} is not a "
                    f"player of the {data.get('team')} team's line-up"
                )
            awards[pid] = award
    rows = {row["id"]: row for e in steps.get("spp", []) for _k, side in _teams(e) for row in side}
    due = {pid for pid, counts in found.items() if any(counts.values())} | set(awards)
    if not _awards_settled(steps):  # nobody was given any SPP
        due = set()
    for pid in sorted(due | set(rows)):
        counts: Counter[str] = found.get(pid, Counter())
        award = awards.get(pid, "")
        earns = (lineup.get(pid) or {}).get("kind", "player") == "player"
        expected: dict[str, Any] = {what: counts.get(what, 0) for what in spp.AWARDS}
        expected |= {"award": award, "spp": spp.points(counts, award) if earns else 0}
        row = rows.get(pid)
        if row is None:
            problems.append(f"the SPP of {pid} are not listed ({expected['spp']} earned)")
        else:
            problems += _differ(f"{pid}'s SPP", row, expected)
    return problems


# The steps recorded once the awards are settled: the winnings, the fan factor, the SPP and the
# injuries come together (``services.postmatch._settle_awards``), the rest after them.
_SETTLED_STEPS = (
    "winnings",
    "fan_factor",
    "spp",
    "injuries",
    "improvement_rolls",
    "team_values_after",
)


def _awards_settled(steps: dict[str, list[Doc]]) -> bool:
    """Whether the sequence settled its awards, once both captains had chosen theirs. A match
    the GM closes before then (``services.end_match``) gave nobody any SPP and lists none."""
    return any(step in steps for step in _SETTLED_STEPS)


def _outcome(final: MatchState | None) -> tuple[Any, Any]:
    assert final is not None and final.result is not None
    return final.result.get("winner"), dict(final.score)


def _teams(event: Doc) -> list[tuple[str, Any]]:
    data = event["data"]
    return [(key, data[key]) for key in ("home", "away") if key in data]


def _differ(where: str, shown: Doc, expected: Doc) -> list[str]:
    return [
        f"{where}: {name} is {shown.get(name)!r}, the record and the rules give {value!r}"
        for name, value in expected.items()
        if shown.get(name) != value
    ]
