"""A live match's state, a JSON document, and every change the referee can make to it.

Plain functions over plain data (no database): services.py loads the state, calls one of these
and saves what they return with the events they list. The rules themselves (a challenge's
resolution, the condition ladder, the levels) are ``rules.live``'s; this module strings them
into a match: the phases of a round, the drives, the ball, and what follows a challenge
(knocked down, the injury tests, the ball held or dropped).

Choices where the seed is silent are written down in rules/live/README.md and here."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.utils.translation import gettext as _

from matches.live import limits
from rules.live import bomb as bombs
from rules.live import condition as cond
from rules.live.challenge import (
    ChallengeError,
    Decided,
    Outcome,
    Participant,
    Pending,
    check_throw,
    group_bonus,
    resolve_group,
    resolve_levelless,
    resolve_levels,
)
from rules.live.levels import KINDS, Kind

State = dict[str, Any]
Events = list[tuple[str, dict[str, Any]]]

REF = "ref"  # the referee, a participant in challenges against him
PHASES = ("move", "stride", "bash", "throw")
SIDES = ("home", "away")
REGULATION_HALVES = 2
# Challenges the referee starts; the others (injury, hold_ball, hold_weapon) follow from these.
STARTED = ("bash", "stride", "kick", "land", "crowd", "red_card")
DAGGER = "dagger"
BOMB = "bomb"


class LiveError(ValueError):
    """A change the match does not allow now; ``code`` names it for the page."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# -- the state ------------------------------------------------------------------------------------


def new_state(players: list[dict[str, Any]], home: str, away: str) -> State:
    """``players``: dicts with id (h<n>/a<n>), team, number, name, position, pk and levels."""
    return {
        "teams": {"home": home, "away": away},
        "half": 1,
        "drive": 0,
        "round": 0,
        "phase": "kickoff",
        "kicking": "away",
        "score": {"home": 0, "away": 0},
        "ball": {"carrier": None, "out": False},
        "players": {p["id"]: {**p, "c": _cond_json(cond.Condition())} for p in players},
        "challenge": None,
        "queue": [],
        "challenges": 0,
        "last": None,
        "result": None,
        "bomb": None,  # a lit bomb: {"bomber": pid, "thrown": bool}
        "flight": None,  # a thrown small player in the air: {"thrower": pid, "small": pid}
        "choose": None,  # several attackers won a bash: the referee picks who injures
    }


def condition(state: State, pid: str) -> cond.Condition:
    c = state["players"][pid]["c"]
    return cond.Condition(
        down=c["down"],
        stunned=c["stunned"],
        damage=cond.Damage(c["damage"]),
        card=cond.Card(c["card"]),
        crowd=c["crowd"],
    )


def _cond_json(c: cond.Condition) -> dict[str, Any]:
    data = asdict(c)
    data["damage"] = int(c.damage)
    data["card"] = str(c.card)
    return data


def _set(state: State, pid: str, c: cond.Condition, events: Events, why: str) -> None:
    before = condition(state, pid)
    state["players"][pid]["c"] = _cond_json(c)
    if before != c:
        events.append(("condition", {"player": pid, "state": c.state, "out": c.out, "why": why}))
    if c.out and state["ball"]["carrier"] == pid:
        state["ball"]["carrier"] = None
        events.append(("ball_dropped", {"player": pid, "why": "out"}))


def known_player(state: State, pid: object) -> str:
    if not isinstance(pid, str) or pid not in state["players"]:
        raise LiveError("unknown_player", _("No such player in this match."))
    return pid


def playing(state: State) -> None:
    if state["result"] is not None:
        raise LiveError("finished", _("The match is over."))


def idle(state: State) -> None:
    playing(state)
    if state["challenge"] is not None:
        raise LiveError("challenge_open", _("Finish the challenge under way first."))
    _nothing_pending(state)


def _nothing_pending(state: State) -> None:
    if state.get("choose"):
        raise LiveError("choose_injurer", _("Pick the attacker who makes the injury tests first."))
    if state.get("flight"):
        raise LiveError("in_flight", _("Say where the thrown small player landed first."))


def level(state: State, pid: str, kind: Kind) -> int:
    """A player's level in a challenge: his level for the kind plus -1 for an injury."""
    if pid == REF:
        return 0
    player = state["players"][pid]
    return int(player["levels"].get(str(kind), 0)) + condition(state, pid).modifier


# -- the clock: kick-off, phases, rounds, drives, halves ------------------------------------------


def kick_off(state: State, kicking: str) -> Events:
    idle(state)
    if state["phase"] != "kickoff":
        raise LiveError("not_kickoff", _("The ball is in play."))
    if kicking not in SIDES:
        raise LiveError("bad_side", _("The kicking team is home or away."))
    state.update(kicking=kicking, drive=state["drive"] + 1, round=1, phase="move")
    state["ball"] = {"carrier": None, "out": False}
    return [("kick_off", {"kicking": kicking, "half": state["half"], "drive": state["drive"]})]


def next_phase(state: State) -> Events:
    """Move, stride, bash, throw; after the throw phase the next round starts (stuns wear
    off: a stun lasts the round it happens in and the next)."""
    idle(state)
    if state["phase"] == "kickoff":
        raise LiveError("not_in_play", _("Kick off first."))
    bomb = state.get("bomb")
    if bomb and state["phase"] == "move" and not bomb["thrown"]:
        raise LiveError(
            "bomb_in_hands",
            _("The bomb was not thrown: it explodes in the bomber's hands. Mark who it hits."),
        )
    if bomb and state["phase"] == "bash" and bomb["thrown"]:
        raise LiveError(
            "bomb_explodes",
            _("The bomb explodes at the end of the bash phase: mark who it hits first."),
        )
    index = PHASES.index(state["phase"])
    if index < len(PHASES) - 1:
        state["phase"] = PHASES[index + 1]
        return [("phase", {"round": state["round"], "phase": state["phase"]})]
    events: Events = []
    for pid in state["players"]:
        _set(state, pid, cond.end_round(condition(state, pid)), events, "round_over")
    state["round"] += 1
    state["phase"] = PHASES[0]
    events.insert(0, ("phase", {"round": state["round"], "phase": state["phase"]}))
    if state["ball"]["out"]:
        events.append(("ball_in", {}))
        state["ball"]["out"] = False
    return events


def _end_drive(state: State, events: Events) -> None:
    for pid in state["players"]:
        _set(state, pid, cond.end_drive(condition(state, pid)), events, "stoppage")
    state["ball"] = {"carrier": None, "out": False}
    state["phase"] = "kickoff"
    state["round"] = 0
    state["bomb"] = None
    for pid, player in state["players"].items():
        # The bomber takes a new bomb at the start of the next drive.
        if player.get("bomber") and player.get("weapon") != BOMB and not condition(state, pid).out:
            player["weapon"] = BOMB
            events.append(("weapon", {"player": pid, "weapon": BOMB}))


def touchdown(state: State, pid: object) -> Events:
    """The ball carrier in the opponents' end zone (stunned, down or injured counts too)."""
    idle(state)
    scorer = known_player(state, pid)
    if state["ball"]["carrier"] != scorer:
        raise LiveError("not_carrier", _("Only the ball carrier scores."))
    team = state["players"][scorer]["team"]
    state["score"][team] += 1
    events: Events = [("touchdown", {"player": scorer, "team": team, "score": state["score"]})]
    _end_drive(state, events)
    state["kicking"] = team
    return events


def end_half(state: State) -> Events:
    """Half time, full time (a tie goes to overtime, a third half) or the end of overtime."""
    idle(state)
    events: Events = [("half_over", {"half": state["half"], "score": dict(state["score"])})]
    _end_drive(state, events)
    score = state["score"]
    if state["half"] >= REGULATION_HALVES and (
        score["home"] != score["away"] or state["half"] > REGULATION_HALVES
    ):
        events += finish(state)
        return events
    state["half"] += 1
    return events


def finish(state: State) -> Events:
    playing(state)
    score = state["score"]
    winner = (
        None
        if score["home"] == score["away"]
        else ("home" if score["home"] > score["away"] else "away")
    )
    casualties = {side: 0 for side in SIDES}
    for player in state["players"].values():
        if player["c"]["damage"] >= cond.Damage.CRITICALLY_INJURED:
            casualties[_other(player["team"])] += 1
    state["result"] = {"winner": winner, "score": dict(score), "casualties": casualties}
    state["challenge"] = None
    state["queue"] = []
    state.update(bomb=None, flight=None, choose=None)
    return [("finished", dict(state["result"]))]


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


# -- the ball and the referee's rulings -----------------------------------------------------------


def _within_limits(limit: str | None, overrule: bool, who: str) -> Events:
    """Seed 002's limit ``limit`` (None: none broken) refuses the change, unless the referee
    overrules it: then the overrule is logged."""
    if limit is None:
        return []
    if not overrule:
        raise LiveError(limit, limits.refusal(limit))
    return [("overrule", {"limit": limit, "player": who})]


def ruling(state: State, action: str, pid: object, *, overrule: bool = False) -> Events:
    idle(state)
    who = known_player(state, pid)
    c = condition(state, who)
    overruled = _within_limits(limits.ruling_breaks(state, action, who, c), overrule, who)
    events: Events = []
    try:
        if action == "yellow":
            _set(state, who, cond.show_card(c, cond.Card.YELLOW), events, "yellow")
        elif action == "red":
            _set(state, who, cond.show_card(c, cond.Card.RED), events, "red")
        elif action == "bribe":
            _set(state, who, cond.bribe(c), events, "bribe")
        elif action == "stand_up":
            _set(state, who, cond.stand_up(c), events, "stand_up")
        elif action == "fall":
            _set(state, who, cond.fall(c), events, "fall")
        elif action == "treat":
            _set(state, who, cond.treat(c), events, "treat")
        elif action == "give_ball":
            if c.out:
                raise LiveError("out", _("That player is off the field."))
            if "No Hands" in state["players"][who].get("skills", []):
                raise LiveError("no_hands", _("A player with No Hands never carries the ball."))
            state["ball"] = {"carrier": who, "out": False}
            events.append(("ball_carrier", {"player": who}))
        elif action in (DAGGER, BOMB):
            # A weapon is given or taken away (the seed's weapons list); one at a time. A
            # bomber keeps getting a new bomb at each drive until the bomb is taken away.
            player = state["players"][who]
            armed = player.get("weapon") == action
            if action == BOMB and state.get("bomb") and state["bomb"]["bomber"] == who:
                raise LiveError("bomb_lit", _("The bomb is lit already."))
            player["weapon"] = "" if armed else action
            player["bomber"] = action == BOMB and not armed
            events.append(("weapon", {"player": who, "weapon": player["weapon"]}))
        elif action == "drop_ball":
            if state["ball"]["carrier"] != who:
                raise LiveError("not_carrier", _("That player does not hold the ball."))
            state["ball"]["carrier"] = None
            events.append(("ball_dropped", {"player": who, "why": "ruling"}))
        else:
            raise LiveError("unknown_ruling", _("No such ruling."))
    except cond.IllegalChange:
        raise LiveError(
            "illegal",
            _(
                "The rules do not allow it now: a stunned or seriously injured player does "
                "not stand up, and the dead are not treated."
            ),
        ) from None
    return [*overruled, ("ruling", {"action": action, "player": who}), *events]


def ball_out(state: State) -> Events:
    """Out of bounds: the round is played out, the ball comes back in at the next round."""
    idle(state)
    state["ball"] = {"carrier": None, "out": True}
    return [("ball_out", {})]


# -- challenges -----------------------------------------------------------------------------------


def start_challenge(
    state: State,
    purpose: str,
    attackers: list[str],
    defender: str,
    *,
    dodging: bool = False,
    phones: bool = False,
    overrule: bool = False,
) -> Events:
    """The referee starts a challenge: a bash (the defender bashes back or only dodges), a
    stride (the strider is the defender, the tacklers the attackers), the crowd beating a
    player who ran off the field, the referee's red-card challenge, or a kick (straight to the
    injury test), a thrown small player landing (against the referee), the crowd, or the red
    card. Several attackers make a group challenge."""
    idle(state)
    if purpose not in STARTED:
        raise LiveError("bad_purpose", _("No such challenge."))
    if state["phase"] == "kickoff" and purpose in ("bash", "stride", "kick"):
        raise LiveError("not_in_play", _("Kick off first."))
    target = known_player(state, defender)
    if purpose in ("crowd", "red_card", "land"):
        attackers = [REF]
    attackers = list(dict.fromkeys(attackers))
    if not attackers or target in attackers:
        raise LiveError("bad_players", _("Pick the attackers and one defender."))
    for pid in attackers:
        if pid != REF:
            known_player(state, pid)
            if state["players"][pid]["team"] == state["players"][target]["team"]:
                raise LiveError("same_team", _("Team-mates do not challenge each other."))
            if not condition(state, pid).can_attack:
                raise LiveError("cannot_attack", _("That attacker cannot attack now."))
            if state["ball"]["carrier"] == pid and purpose in ("bash", "stride", "kick"):
                raise LiveError("carrier_attacks", _("The ball carrier cannot tackle or bash."))
    if condition(state, target).out:
        raise LiveError("out", _("That player is off the field."))
    if purpose == "kick":
        if len(attackers) != 1:
            raise LiveError("bad_players", _("One player kicks."))
        if not condition(state, target).lying:
            raise LiveError("not_lying", _("Only a player on the ground is kicked."))
        events: Events = [("kick", {"attacker": attackers[0], "victim": target})]
        knock_down(state, target, events)
        open(state, injury(attackers[0], target), phones, events)
        return events
    if purpose in ("bash", "stride") and condition(state, target).lying:
        raise LiveError("lying", _("A player on the ground is kicked, not bashed or tackled."))
    overruled = _within_limits(limits.challenge_breaks(state, purpose), overrule, target)
    ch: dict[str, Any] = {
        "purpose": purpose,
        "attackers": attackers,
        "defender": target,
        "dodging": purpose == "bash" and (dodging or condition(state, target).must_dodge),
        "throws": [],
        "damage": 0,
    }
    if purpose == "crowd":
        # The referee against the player: a levelless challenge, repeated while he wins.
        ch.update(kind="levelless", victim=target, injurer=REF)
    elif purpose == "red_card":
        ch.update(kind="levelless")
    else:
        ch["kind"] = "group" if len(attackers) > 1 else "levels"
        ch["levels"] = _levels(state, ch)
    events = overruled
    open(state, ch, phones, events)
    return events


def _levels(state: State, ch: dict[str, Any]) -> dict[str, int]:
    target = ch["defender"]
    if ch["purpose"] == "bash":
        own = {pid: level(state, pid, Kind.BASH) for pid in ch["attackers"]}
        if not ch["dodging"]:
            own[target] = level(state, target, Kind.BASH)
        elif condition(state, target).must_dodge:
            # The stunned dodge without their dodging skills: the injury's -1 only.
            own[target] = condition(state, target).modifier
        else:
            own[target] = level(state, target, Kind.DODGE)
        return own
    if ch["purpose"] == "stride":
        own = {pid: level(state, pid, Kind.TACKLE) for pid in ch["attackers"]}
        own[target] = level(state, target, Kind.STRIDE)
        return own
    if ch["purpose"] in ("hold_ball", "hold_weapon", "land"):
        return {REF: 0, target: level(state, target, Kind(ch["purpose"]))}
    if ch["purpose"] == "blast":
        # The bomb bashes at +1; the victim defends with his strength only, no skill.
        return {REF: bombs.BLAST_LEVEL, target: level(state, target, Kind.BLAST)}
    if ch["purpose"] == "throw_player":
        # An unwilling small player on the ground or stunned resists as one who dodges.
        thrower = ch["attackers"][0]
        c = condition(state, target)
        resist = c.modifier if c.must_dodge else level(state, target, Kind.DODGE)
        return {thrower: level(state, thrower, Kind.BASH), target: resist}
    return {}


def injury(
    injurer: str, victim: str, damage: int = 0, tie_to: str | None = None, bonus: int = 0
) -> dict[str, Any]:
    """The injury test: levelless, the attacker must win; repeated while he wins. ``tie_to``:
    the poisoned dagger wins the first test even on a tie. ``bonus`` (the bomb's +2, or +1 on
    one already on the ground): the test becomes a challenge with levels, the injurer at the
    bonus against 0 (a levelless test has no bonuses; README.md)."""
    return {
        "tie_to": tie_to,
        "bonus": bonus,
        "levels": {injurer: bonus, victim: 0},
        "purpose": "injury",
        "kind": "levels" if bonus else "levelless",
        "attackers": [injurer],
        "defender": victim,
        "injurer": injurer,
        "victim": victim,
        "damage": damage,
        "dodging": False,
        "throws": [],
    }


def hold(pid: str, purpose: str = "hold_ball") -> dict[str, Any]:
    """Holding the ball (knocked down or felled) or a weapon (injured): against the referee."""
    return {
        "purpose": purpose,
        "kind": "levels",
        "attackers": [REF],
        "defender": pid,
        "dodging": False,
        "throws": [],
        "damage": 0,
    }


def open(state: State, ch: dict[str, Any], phones: bool, events: Events) -> None:
    state["challenges"] += 1
    ch["n"] = state["challenges"]
    ch["phones"] = phones
    ch["hidden"] = {}
    if ch["purpose"] in ("hold_ball", "hold_weapon", "land", "blast", "throw_player"):
        # Counted when it starts: an injury from the tests just before already weighs -1.
        ch["levels"] = _levels(state, ch)
    state["challenge"] = ch
    events.append(
        (
            "challenge",
            {
                "n": ch["n"],
                "purpose": ch["purpose"],
                "kind": ch["kind"],
                "attackers": ch["attackers"],
                "defender": ch["defender"],
                "levels": effective_levels(ch),
                "dodging": ch["dodging"],
            },
        )
    )


def participants(ch: dict[str, Any]) -> list[str]:
    return [*ch["attackers"], ch["defender"]]


def effective_levels(ch: dict[str, Any]) -> dict[str, int]:
    """The levels the resolver compares: a group's attackers with their +1 per extra one."""
    if ch["kind"] == "levelless":
        return {}
    bonus = group_bonus(len(ch["attackers"])) if ch["kind"] == "group" else 0
    levels: dict[str, int] = ch["levels"]
    return {pid: levels[pid] + (bonus if pid in ch["attackers"] else 0) for pid in participants(ch)}


def outcome(ch: dict[str, Any]) -> dict[str, Outcome]:
    """Each pair's outcome by attacker id (one pair unless a group)."""
    d = ch["defender"]
    if ch["kind"] == "group":
        levels = ch["levels"]
        group = resolve_group(
            [Participant(a, levels[a]) for a in ch["attackers"]],
            Participant(d, levels[d]),
            ch["throws"],
        )
        return group.pairs
    a = ch["attackers"][0]
    pairs = [(item[0], item[1]) for item in ch["throws"]]
    if ch["kind"] == "levelless":
        return {a: resolve_levelless(a, d, pairs, tie_to=ch.get("tie_to"))}
    return {a: resolve_levels(a, ch["levels"][a], d, ch["levels"][d], pairs)}


def expected(ch: dict[str, Any]) -> list[str]:
    """Who throws next: everybody at first, then the first pair that throws again."""
    if not ch["throws"]:
        return participants(ch)
    for attacker, out in outcome(ch).items():
        if isinstance(out, Pending):
            return [attacker, ch["defender"]]
    return []


def tie_rule(ch: dict[str, Any], attacker: str) -> dict[str, Any]:
    """What a tie and a lost throw mean for one pair, for the page: ``tie`` is "again", a
    participant's id, or "nothing" (levelless); ``redo`` the one who redoes a lost throw."""
    d = ch["defender"]
    if ch["kind"] == "levelless":
        return {"tie": ch.get("tie_to") or "nothing", "redo": None, "redo_tie": None}
    levels = effective_levels(ch)
    diff = levels[attacker] - levels[d]
    if diff == 0:
        return {"tie": "again", "redo": None, "redo_tie": None}
    high, low = (attacker, d) if diff > 0 else (d, attacker)
    if abs(diff) == 1:
        return {"tie": high, "redo": None, "redo_tie": None}
    return {"tie": high, "redo": high, "redo_tie": low if abs(diff) == 2 else high}


def throw(state: State, thrown: dict[str, object]) -> Events:
    """The referee enters the throws of everyone expected (one item of the contract's list)."""
    ch = _current(state)
    due = expected(ch)
    if set(thrown) != set(due):
        raise LiveError("bad_throw", _("Enter a throw for each participant."))
    return _add_item(state, ch, {pid: _checked(thrown[pid]) for pid in due})


def commit(state: State, pid: str, value: object) -> Events:
    """A participant's own throw from his phone, hidden until every expected throw is in;
    then revealed together and added as one item."""
    ch = _current(state)
    due = expected(ch)
    if pid not in due:
        raise LiveError("not_your_throw", _("You do not throw now."))
    if pid in ch["hidden"]:
        raise LiveError("already_thrown", _("Your throw is in."))
    ch["hidden"][pid] = _checked(value)
    events: Events = [("throw_committed", {"n": ch["n"], "player": pid})]
    if set(ch["hidden"]) == set(due):
        item, ch["hidden"] = ch["hidden"], {}
        events += _add_item(state, ch, item)
    return events


def _checked(value: object) -> str:
    try:
        return check_throw(value)
    except ChallengeError:
        raise LiveError("bad_throw", _("A throw is rock, paper or scissors.")) from None


def _current(state: State) -> dict[str, Any]:
    playing(state)
    ch: dict[str, Any] | None = state["challenge"]
    if ch is None:
        raise LiveError("no_challenge", _("No challenge is under way."))
    return ch


def _add_item(state: State, ch: dict[str, Any], item: dict[str, str]) -> Events:
    if ch["kind"] == "group":
        ch["throws"].append(item)
    else:
        ch["throws"].append([item[ch["attackers"][0]], item[ch["defender"]]])
    events: Events = [("throws", {"n": ch["n"], "throws": item})]
    pairs = outcome(ch)
    if any(isinstance(out, Pending) for out in pairs.values()):
        return events
    decided = {a: out for a, out in pairs.items() if isinstance(out, Decided)}
    events.append(
        (
            "decided",
            {
                "n": ch["n"],
                "purpose": ch["purpose"],
                "pairs": {
                    a: {"winner": o.winner, "throws_used": o.throws_used}
                    for a, o in decided.items()
                },
            },
        )
    )
    state["last"] = {**ch, "result": {a: o.winner for a, o in decided.items()}}
    state["challenge"] = None
    _consequences(state, ch, decided, events)
    run_queue(state, ch["phones"], events)
    return events


def run_queue(state: State, phones: bool, events: Events) -> None:
    """Open the next follow-up, unless the referee has a choice to make first."""
    while state["challenge"] is None and state["queue"] and not state.get("choose"):
        follow = state["queue"].pop(0)
        # The ball may have left the carrier meanwhile (carried off after his injury tests).
        if follow["purpose"] != "hold_ball" or state["ball"]["carrier"] == follow["defender"]:
            open(state, follow, phones, events)


def knock_down(state: State, pid: str, events: Events) -> None:
    _set(state, pid, cond.knock_down(condition(state, pid)), events, "knocked_down")


def _consequences(
    state: State, ch: dict[str, Any], decided: dict[str, Decided], events: Events
) -> None:
    purpose, target = ch["purpose"], ch["defender"]
    carrier = state["ball"]["carrier"]
    follow: list[dict[str, Any]] = []
    if purpose == "bash":
        winners = [a for a, out in decided.items() if out.winner == a]
        if not ch["dodging"]:
            for attacker, out in decided.items():
                if out.winner == target:
                    knock_down(state, attacker, events)
                    follow.append(injury(target, attacker, tie_to=dagger(state, target)))
        if len(winners) == 1:
            knock_down(state, target, events)
            follow.insert(0, injury(winners[0], target, tie_to=dagger(state, winners[0])))
        elif winners:
            # Several attackers won: they choose who tries to injure (the seed), the referee
            # enters it (choose_injurer) before anything else follows.
            knock_down(state, target, events)
            state["choose"] = {"winners": winners, "victim": target, "phones": ch["phones"]}
            events.append(("choose_injurer", {"n": ch["n"], "winners": winners}))
        if carrier in participants(ch) and condition(state, carrier).down:
            follow.append(hold(carrier))
    elif purpose == "stride":
        if any(out.winner == a for a, out in decided.items()):
            _set(state, target, cond.fall(condition(state, target)), events, "tackled")
            limits.mark_tackled(state, target)
            if carrier == target:
                follow.append(hold(target))
    elif purpose == "hold_ball":
        if decided[REF].winner != target:
            state["ball"]["carrier"] = None
            events.append(("ball_dropped", {"player": target, "why": "challenge"}))
    elif purpose == "hold_weapon":
        if decided[REF].winner != target:
            state["players"][target]["weapon"] = ""
            events.append(("weapon_dropped", {"player": target}))
    elif purpose == "land":
        if decided[REF].winner == REF:
            # Not on his feet: he falls and the damage test follows, without modifiers.
            knock_down(state, target, events)
            follow.append(injury(REF, target))
            if carrier == target:
                follow.append(hold(target))
        else:
            c = condition(state, target)
            if c.down and not c.stunned and c.damage < cond.Damage.SERIOUSLY_INJURED:
                _set(state, target, cond.stand_up(c), events, "landed")
    elif purpose == "blast":
        if decided[REF].winner == REF:
            # Blown over: stunned, and the injury tests at +2.
            knock_down(state, target, events)
            follow.append(injury(REF, target, bonus=bombs.BLAST_INJURY_BONUS))
            if carrier == target:
                follow.append(hold(target))
    elif purpose == "throw_player":
        thrower = ch["attackers"][0]
        if decided[thrower].winner == thrower:
            state["flight"] = {"thrower": thrower, "small": target}
            events.append(("thrown", {"thrower": thrower, "player": target}))
    elif purpose == "red_card":
        if decided[REF].winner == REF:
            _set(
                state,
                target,
                cond.show_card(condition(state, target), cond.Card.RED),
                events,
                "red",
            )
    elif purpose in ("injury", "crowd"):
        follow += _injury_test(state, ch, decided[ch["attackers"][0]], events)
    # Follow-ups come before what was queued already (an injury chain runs to its end first).
    state["queue"][:0] = follow


def _injury_test(
    state: State, ch: dict[str, Any], out: Decided, events: Events
) -> list[dict[str, Any]]:
    victim, injurer = ch["victim"], ch["injurer"]
    damage = ch["damage"]
    if out.winner == injurer:
        damage += 1
        before = condition(state, victim).damage
        dead_now = damage >= 3 or (before == cond.Damage.CRITICALLY_INJURED and damage >= 2)
        if not dead_now:
            again = injury(injurer, victim, damage, bonus=ch.get("bonus", 0))
            if ch["purpose"] == "crowd":
                again.update(purpose="crowd", attackers=[REF])
            return [again]
    c = condition(state, victim)
    hurt = cond.beaten_by_the_crowd(c, damage) if ch["purpose"] == "crowd" else cond.hurt(c, damage)
    events.append(("injury", {"player": victim, "levels": damage, "state": hurt.state}))
    _set(state, victim, hurt, events, ch["purpose"])
    if ch["purpose"] == "crowd" and state["ball"]["carrier"] == victim:
        state["ball"] = {"carrier": None, "out": True}
        events.append(("ball_out", {}))
    armed = state["players"][victim].get("weapon")
    if damage and armed and not hurt.out and hurt.damage < cond.Damage.SERIOUSLY_INJURED:
        # Injured with a weapon: keep it only by winning a challenge against the referee
        # (seriously injured, he may carry it but not use it: no challenge then).
        return [hold(victim, "hold_weapon")]
    return []


def dagger(state: State, pid: str) -> str | None:
    """The poisoned dagger's bearer wins the first injury test on a tie, unless he is
    seriously injured (he can no longer use a weapon)."""
    armed = state["players"][pid].get("weapon") == DAGGER
    usable = condition(state, pid).damage < cond.Damage.SERIOUSLY_INJURED
    return pid if armed and usable else None


def cancel_challenge(state: State) -> Events:
    """The referee calls a challenge off (picked the wrong players); follow-ups go too."""
    ch = _current(state)
    state["challenge"] = None
    state["queue"] = []
    return [("cancelled", {"n": ch["n"]})]


def adjust_level(state: State, pid: object, kind: str, delta: int) -> Events:
    """The referee's adjustment of a player's level for one kind of challenge."""
    playing(state)
    who = known_player(state, pid)
    if kind not in {str(k) for k in KINDS} or delta not in (-1, 1):
        raise LiveError("bad_level", _("Adjust one kind of challenge by one."))
    levels = state["players"][who]["levels"]
    levels[kind] = levels.get(kind, 0) + delta  # a match started before a kind existed
    return [
        ("level", {"player": who, "kind": kind, "level": state["players"][who]["levels"][kind]})
    ]
