"""Star player points from a match's record (matches/record/spp.py), case by case from LRB5's
"How to earn Star Player points", over hand-built event lists in the engine's own vocabulary;
then, over seeded random matches, the season's leaders equal the sum of the players' records."""

import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from matches.record import season as leagues
from matches.record import spp
from matches.record.folding import undone_numbers
from rules.engine.dice import FairDice
from rules.engine.randomplay import play_match

Event = tuple[str, dict[str, Any]]


def action(player: str, kind: str) -> Event:
    return ("action", {"player": player, "action": kind})


def block(attacker: str, target: str, face: int) -> Event:
    return ("block_result", {"player": attacker, "target": target, "face": face})


def hurt(player: str, result: str = "casualty", *, crowd: bool = False) -> list[Event]:
    """Knocked down, armour broken, and an injury roll of ``result`` (a casualty roll after
    a Casualty)."""
    events: list[Event] = [
        ("knocked_down", {"player": player, "at": "M5"}),
        ("armour", {"purpose": "armour", "player": player, "result": "broken"}),
        ("injury", {"purpose": "injury", "player": player, "result": result, "crowd": crowd}),
    ]
    if result == "casualty":
        events.append(("casualty", {"purpose": "casualty", "player": player, "result": "dead"}))
    return events


def pass_to(thrower: str, target: str, result: str = "accurate") -> list[Event]:
    return [
        ("throw", {"player": thrower, "target": target, "at": "K7", "hail_mary": False}),
        ("pass", {"purpose": "pass", "player": thrower, "result": result, "reroll": False}),
    ]


def catch(player: str, result: str = "success", *, reroll: bool = False) -> Event:
    return ("catch", {"purpose": "catch", "player": player, "result": result, "reroll": reroll})


def bounce() -> Event:
    return ("bounce", {"purpose": "bounce", "faces": [3], "frm": "K7", "to": "K8"})


def found(*groups: Event | list[Event]) -> dict[str, Counter[str]]:
    events: list[Event] = []
    for group in groups:
        events.extend(group if isinstance(group, list) else [group])
    return spp.achievements(events)


# -- touchdowns, completions, interceptions ------------------------------------------------------


def test_a_touchdown_earns_its_scorer_three_and_an_awarded_one_earns_nobody_anything() -> None:
    counts = found(
        ("touchdown", {"player": "h8", "team": "home", "at": "Z7"}),
        ("touchdown", {"player": None, "team": "away", "at": None, "awarded": True}),
    )
    assert counts == {"h8": {"touchdowns": 1}}
    assert spp.points(counts["h8"]) == 3


def test_an_accurate_pass_caught_by_the_intended_receiver_is_a_completion() -> None:
    # LRB5: "A player who makes an accurate pass that is caught by the intended receiver from
    # his own team when the ball comes to rest earns 1 Star Player point."
    counts = found(action("h3", "pass"), pass_to("h3", "h8"), catch("h8"))
    assert counts == {"h3": {"completions": 1}}
    assert spp.points(counts["h3"]) == 1


def test_a_catch_made_on_a_reroll_still_completes_the_pass() -> None:
    counts = found(
        action("h3", "pass"),
        pass_to("h3", "h8"),
        catch("h8", "failure"),
        ("decision", {"kind": "reroll", "to": "home:captain", "choice": "team"}),
        ("reroll", {"source": "team", "player": "h8", "purpose": "catch", "result": "used"}),
        catch("h8", reroll=True),
    )
    assert counts == {"h3": {"completions": 1}}


def test_a_pass_aimed_at_a_square_is_completed_by_the_team_mate_standing_there() -> None:
    assert found(action("h3", "pass"), pass_to("h3", "K7"), catch("h8")) == {
        "h3": {"completions": 1}
    }


def test_an_inaccurate_pass_is_no_completion_even_when_a_team_mate_catches_it() -> None:
    scatter = ("scatter", {"purpose": "scatter", "faces": [2, 5, 7], "to": "K8"})
    inaccurate = pass_to("h3", "h8", "inaccurate")
    assert found(action("h3", "pass"), inaccurate, scatter, catch("h9")) == {}


def test_a_ball_that_bounces_off_the_receiver_to_a_team_mate_is_no_completion() -> None:
    events = (action("h3", "pass"), pass_to("h3", "h8"), catch("h8", "failure"), bounce())
    assert found(*events, catch("h9")) == {}


def test_a_diving_catch_beside_an_empty_square_is_not_the_intended_receiver() -> None:
    diving = ("diving_catch", {"player": "h9", "at": "K7"})
    assert found(action("h3", "pass"), pass_to("h3", "K7"), diving, catch("h9")) == {}


def test_a_pass_caught_by_an_opponent_or_fumbled_or_handed_off_earns_nothing() -> None:
    assert found(action("h3", "pass"), pass_to("h3", "K7"), catch("a2")) == {}
    fumble = pass_to("h3", "h8", "fumble")
    assert found(action("h3", "pass"), fumble, bounce(), catch("h8")) == {}
    hand_off = ("hand_off", {"player": "h3", "target": "h8"})
    assert found(action("h3", "hand_off"), hand_off, catch("h8")) == {}


def test_a_bomb_is_no_pass_to_complete() -> None:
    events = (
        action("h14", "bomb"),
        ("bomb", {"player": "h14", "at": "I11"}),
        ("pass", {"purpose": "pass", "player": "h14", "result": "accurate", "reroll": False}),
        ("explosion", {"at": "I11"}),
    )
    assert found(*events, catch("h3")) == {}


def test_an_interception_earns_the_interceptor_two_and_the_thrower_nothing() -> None:
    counts = found(
        action("h3", "pass"),
        ("throw", {"player": "h3", "target": "h8", "at": "K7", "hail_mary": False}),
        ("intercept", {"purpose": "intercept", "player": "a7", "result": "success"}),
        ("interception", {"player": "a7", "thrower": "h3"}),
        catch("h8"),
    )
    assert counts == {"a7": {"interceptions": 1}}
    assert spp.points(counts["a7"]) == 2


# -- casualties: an opposing player hurt by the player's block -----------------------------------


def test_a_casualty_from_a_block_earns_the_blocker_two() -> None:
    counts = found(action("h1", "block"), block("h1", "a4", 6), hurt("a4"))
    assert counts == {"h1": {"casualties": 1}}
    assert spp.points(counts["h1"]) == 2


def test_a_blitz_block_counts_and_the_push_and_follow_up_before_the_fall_do_not_matter() -> None:
    counts = found(
        action("h1", "blitz"),
        ("move", {"player": "h1", "frm": "K6", "to": "L6"}),
        block("h1", "a4", 5),
        ("decision", {"kind": "push", "to": "home:captain", "choice": "N5"}),
        ("push", {"player": "a4", "frm": "M5", "to": "N5", "crowd": False}),
        ("follow_up", {"player": "h1", "to": "M5"}),
        hurt("a4"),
        ("apothecary", {"player": "a4", "injury": "casualty", "result": "badly_hurt"}),
    )
    assert counts == {"h1": {"casualties": 1}}


def test_a_stunty_badly_hurt_is_a_casualty_and_stunned_or_ko_are_not() -> None:
    assert found(action("h1", "block"), block("h1", "a4", 6), hurt("a4", "badly_hurt")) == {
        "h1": {"casualties": 1}
    }
    for result in ("stunned", "ko"):
        assert found(action("h1", "block"), block("h1", "a4", 6), hurt("a4", result)) == {}


def test_a_piling_on_reroll_that_turns_a_ko_into_a_casualty_counts_once() -> None:
    counts = found(
        action("h2", "block"),
        block("h2", "a11", 6),
        hurt("a11", "ko"),
        ("decision", {"kind": "piling_on", "to": "home:captain", "choice": True}),
        ("piling_on", {"player": "h2", "target": "a11", "reroll": "injury"}),
        ("injury", {"purpose": "injury", "player": "a11", "result": "casualty", "crowd": False}),
        ("casualty", {"purpose": "casualty", "player": "a11", "result": "badly_hurt"}),
    )
    assert counts == {"h2": {"casualties": 1}}


def test_frenzy_and_multiple_block_each_block_counts_for_its_own_target() -> None:
    counts = found(
        action("h1", "block"),
        block("h1", "a4", 2),
        ("push", {"player": "a4", "frm": "M5", "to": "N5", "crowd": False}),
        block("h1", "a4", 6),
        hurt("a4"),
        action("h5", "block"),
        block("h5", "a2", 6),
        hurt("a2"),
        block("h5", "a3", 6),
        hurt("a3", "badly_hurt"),
    )
    assert counts == {"h1": {"casualties": 1}, "h5": {"casualties": 2}}


def test_both_down_the_defender_hurt_earns_the_blocker_and_the_blocker_hurt_earns_nobody() -> None:
    # LRB5 gives the SPP to the player who blocks: on Both Down the defender blocked nobody.
    assert found(action("h1", "block"), block("h1", "a4", 4), hurt("a4"), hurt("h1")) == {
        "h1": {"casualties": 1}
    }
    assert found(action("h1", "block"), block("h1", "a4", 4), hurt("h1")) == {}


def test_an_attacker_down_hurts_only_the_blocker_and_earns_the_defender_nothing() -> None:
    assert found(action("h1", "block"), block("h1", "a4", 1), hurt("h1")) == {}


def test_a_blitzer_falling_after_the_block_earns_the_defender_nothing() -> None:
    gfi = ("gfi", {"purpose": "gfi", "player": "h1", "result": "failure"})
    assert found(action("h1", "blitz"), block("h1", "a1", 2), gfi, hurt("h1")) == {}


def test_a_defender_pushed_into_the_crowd_is_hurt_by_the_crowd_not_the_block() -> None:
    push = ("push", {"player": "a4", "frm": "A5", "to": None, "crowd": True})
    crowd = ("injury", {"purpose": "injury", "player": "a4", "result": "casualty", "crowd": True})
    assert found(action("h1", "block"), block("h1", "a4", 2), push, crowd) == {}


def test_a_foul_earns_no_spp() -> None:
    foul = ("foul", {"player": "a2", "target": "h2"})
    assert found(action("a2", "foul"), foul, hurt("h2")[1:]) == {}


def test_a_stab_earns_no_spp() -> None:
    # skills.json, Stab: "casualties from stabs earn no SPP" (a Stab is made instead of a block)
    stab = ("stab", {"player": "h9", "target": "a11"})
    assert found(action("h9", "blitz"), stab, hurt("a11")[1:]) == {}


def test_a_chainsaw_attack_and_its_kickback_earn_no_spp() -> None:
    # LRB5, Chainsaw: used "instead of making a block"; its casualties earn no SPP
    attack = ("chainsaw_attack", {"player": "a4", "target": "h9"})
    saw = ("chainsaw", {"purpose": "chainsaw", "player": "a4", "result": "success"})
    assert found(action("a4", "block"), attack, saw, hurt("h9")) == {}
    kickback = ("kickback", {"player": "a4"})
    assert found(action("a4", "block"), attack, kickback, hurt("a4")) == {}


def test_a_chainsaw_after_a_block_in_the_same_turn_does_not_inherit_the_block() -> None:
    attack = ("chainsaw_attack", {"player": "h3", "target": "a4"})
    events = (action("h1", "block"), block("h1", "a4", 3), action("h3", "block"), attack)
    assert found(*events, hurt("a4")) == {}


def test_ball_and_chain_blocks_count_but_a_team_mate_or_a_prone_player_pushed_do_not() -> None:
    roll = ("ball_and_chain", {"purpose": "ball_and_chain", "player": "a15", "faces": [5]})
    assert found(action("a15", "move"), roll, block("a15", "h5", 6), hurt("h5")) == {
        "a15": {"casualties": 1}
    }
    assert found(action("a15", "move"), roll, block("a15", "a3", 6), hurt("a3")) == {}
    shove = ("push", {"player": "h5", "frm": "M9", "to": "L10", "crowd": False})
    assert found(action("a15", "move"), roll, shove, hurt("h5")[1:]) == {}


def test_a_bomb_or_a_later_rock_on_the_blocked_player_earns_no_spp() -> None:
    explosion = [
        action("h14", "bomb"),
        ("bomb", {"player": "h14", "at": "I11"}),
        ("explosion", {"at": "I11"}),
    ]
    assert found(explosion, hurt("a3")) == {}
    rock = ("rock", {"player": "a4"})
    touchdown = ("touchdown", {"player": "h8", "team": "home", "at": "Z7"})
    events = (action("h1", "block"), block("h1", "a4", 2), touchdown, rock)
    assert found(*events, hurt("a4")) == {"h8": {"touchdowns": 1}}


def test_a_declaration_in_the_record_ends_the_block_before_it() -> None:
    declaration = ("declaration", {"actor": "home:captain", "declaration": {"player": "h3"}})
    assert found(action("h1", "block"), block("h1", "a4", 2), declaration, hurt("a4")) == {}


# -- the awards ----------------------------------------------------------------------------------


def test_the_mje_adds_five_and_the_pje_four_house_rule_4() -> None:
    assert spp.points({"touchdowns": 1}, spp.MJE) == 3 + 5
    assert spp.points({"casualties": 1}, spp.PJE) == 2 + 4
    assert spp.points({"completions": 2, "interceptions": 1}) == 4
    assert spp.points({}) == 0


# -- one count for the players' records and the season's leaders ---------------------------------


@dataclass(frozen=True)
class Stored:
    """An event as the database keeps it: numbered, typed, with its data."""

    number: int
    type: str
    data: dict[str, Any]


def _recorded(events: Iterable[Any], rng: random.Random) -> list[Stored]:
    """A random match's events numbered as the server records them, with now and then a GM's
    rewind that takes back the last few (they stay in the record, undone)."""
    out: list[Stored] = []
    for event in events:
        out.append(Stored(len(out) + 1, event.type, dict(event.data)))
        if event.type == "injury" and rng.random() < 0.1:
            undone = [e.number for e in out[-rng.randint(1, 6) :]]
            out.append(Stored(len(out) + 1, "rewind", {"undone": undone}))
    return out


def _records(stored: list[Stored]) -> dict[str, Counter[str]]:
    """What the post-match writes for each player (services._record_players)."""
    undone = undone_numbers(stored)
    return spp.achievements((e.type, e.data) for e in stored if e.number not in undone)


@pytest.mark.parametrize("seed", range(3))
def test_the_season_leaders_equal_the_sum_of_the_players_records(seed: int) -> None:
    rng = random.Random(seed)
    lines: dict[str, leagues.PlayerLine] = defaultdict(leagues.PlayerLine)
    records: Counter[str] = Counter()
    spp_records: Counter[str] = Counter()
    for m in range(12):
        played = play_match(FairDice(b"spp", f"{seed}-{m}"), rng)
        stored = _recorded(played.events, rng)
        # A player's id is the same in every match of this season (one roster per side).
        for pid, line in leagues.tally(stored).players.items():
            for what in spp.AWARDS:
                setattr(lines[pid], what, getattr(lines[pid], what) + getattr(line, what))
        for pid, counts in _records(stored).items():
            records.update({f"{pid}:{what}": n for what, n in counts.items()})
            spp_records[pid] += spp.points(counts)
    by_player = {
        pid: {what: records[f"{pid}:{what}"] for what in spp.AWARDS}
        for pid in {key.partition(":")[0] for key in records}
    }
    feats = {pid: {what: getattr(line, what) for what in spp.AWARDS} for pid, line in lines.items()}
    assert {pid: feats[pid] for pid, line in lines.items() if line.spp} == {
        pid: counts for pid, counts in by_player.items() if spp_records[pid]
    }
    assert {pid: line.spp for pid, line in lines.items() if line.spp} == {
        pid: n for pid, n in spp_records.items() if n
    }
    assert sum(spp_records.values()) > 0  # the matches gave the property something to hold on
    board = leagues.leaders(dict(lines), top=100)["spp"]
    assert [x.value for x in board] == sorted((x.value for x in board), reverse=True)
    assert {(x.player, x.value) for x in board} == {(p, n) for p, n in spp_records.items() if n}
