"""The referee's weapons and throws in a live match: who makes the injury tests when several
attackers win, the bomb (lit, thrown, its blast) and a small player thrown by a big one with his
landing. Plain functions over the state, as game.py's; the rules are ``rules.live``'s (bomb.py,
throwing.py) and the choices where the seed is silent are in rules/live/README.md."""

from __future__ import annotations

from django.utils.translation import gettext as _

from matches.live.game import (
    BOMB,
    REF,
    Events,
    LiveError,
    State,
    condition,
    dagger,
    hold,
    idle,
    injury,
    knock_down,
    known_player,
    open,
    playing,
    run_queue,
)
from rules.live import bomb as bombs
from rules.live import throwing

# -- the choice of the injurer, the bomb, throwing a small player ---------------------------------


def choose_injurer(state: State, pid: object) -> Events:
    """Several attackers won a bash: the one they choose makes the injury tests."""
    playing(state)
    choose = state.get("choose")
    if not choose:
        raise LiveError("no_choice", _("No attackers wait for a choice."))
    if pid not in choose["winners"]:
        raise LiveError("not_a_winner", _("Pick one of the attackers who won."))
    who = str(pid)
    state["choose"] = None
    events: Events = [("injurer", {"player": who, "victim": choose["victim"]})]
    state["queue"].insert(0, injury(who, choose["victim"], tie_to=dagger(state, who)))
    run_queue(state, choose["phones"], events)
    return events


_BOMB_REFUSED = {
    "not_move_phase": lambda: _("The bomb is lit in the move phase."),
    "out": lambda: _("That player is off the field."),
    "cannot_light": lambda: _("A stunned player or one on the ground cannot light a bomb."),
    "cannot_use_weapon": lambda: _("A seriously injured player cannot use a weapon."),
    "carries_ball": lambda: _("The ball carrier cannot use a secret weapon."),
}


def light_bomb(state: State, pid: object) -> Events:
    """The bomber spends the move phase standing still, lighting his bomb."""
    idle(state)
    who = known_player(state, pid)
    if state["players"][who].get("weapon") != BOMB:
        raise LiveError("no_bomb", _("That player has no bomb."))
    if state.get("bomb"):
        raise LiveError("bomb_lit", _("A bomb is lit already."))
    try:
        bombs.check_light(
            condition(state, who),
            phase=state["phase"],
            carries_ball=state["ball"]["carrier"] == who,
        )
    except bombs.BombRefused as refused:
        raise LiveError(refused.code, _BOMB_REFUSED[refused.code]()) from None
    state["bomb"] = {"bomber": who, "thrown": False}
    return [("bomb_lit", {"player": who})]


def throw_bomb(state: State) -> Events:
    """The bomber throws the lit bomb in the move phase (others may throw it on: the referee
    follows it with his eyes; it explodes where it lies at the end of the bash phase)."""
    idle(state)
    bomb = state.get("bomb")
    if not bomb or bomb["thrown"]:
        raise LiveError("no_bomb", _("No lit bomb waits to be thrown."))
    if state["phase"] != "move":
        raise LiveError("not_move_phase", _("The bomb is thrown in the move phase."))
    bomb["thrown"] = True
    state["players"][bomb["bomber"]]["weapon"] = ""
    return [("bomb_thrown", {"player": bomb["bomber"]})]


def blast(state: State, victims: list[str]) -> Events:
    """The bomb explodes: the referee stands where it lies and names every player he reaches.
    Thrown, it explodes at the end of the bash phase; not thrown, in the bomber's hands (he is
    in the blast). Each player standing is bashed by the bomb (+1 against his strength), each
    one on the ground takes the injury tests at once (+1)."""
    idle(state)
    bomb = state.get("bomb")
    if not bomb:
        raise LiveError("no_bomb", _("No bomb is lit."))
    if bomb["thrown"] and state["phase"] != "bash":
        raise LiveError("not_yet", _("A thrown bomb explodes at the end of the bash phase."))
    hit = list(dict.fromkeys(known_player(state, pid) for pid in victims))
    if not bomb["thrown"]:
        state["players"][bomb["bomber"]]["weapon"] = ""
        if bomb["bomber"] not in hit:
            hit.insert(0, bomb["bomber"])
    state["bomb"] = None
    events: Events = [("blast", {"players": hit, "in_hands": not bomb["thrown"]})]
    for pid in hit:
        effect = bombs.blast_on(condition(state, pid))
        if effect is None:
            continue
        if effect.kind == "injury":
            knock_down(state, pid, events)
            state["queue"].append(injury(REF, pid, bonus=effect.injury_bonus))
        else:
            state["queue"].append(
                {
                    "purpose": "blast",
                    "kind": "levels",
                    "attackers": [REF],
                    "defender": pid,
                    "dodging": False,
                    "throws": [],
                    "damage": 0,
                }
            )
    run_queue(state, False, events)
    return events


_THROW_REFUSED = {
    "not_big": lambda: _("Only a big player (Throw Team-Mate) throws a small player."),
    "not_small": lambda: _("Only a small player (Right Stuff) is thrown."),
    "thrower_cannot": lambda: _("A stunned player or one on the ground cannot throw anyone."),
    "out": lambda: _("That player is off the field."),
    "unwilling": lambda: _(
        "A small player on his feet who does not want to be thrown is not thrown."
    ),
}


def throw_player(
    state: State, thrower: object, small: object, *, willing: bool, phones: bool = False
) -> Events:
    """Instead of bashing, a big player throws a small team-mate he reaches: at once if the
    small one is willing; a stunned or fallen one who is not, only by winning a challenge."""
    idle(state)
    big, tiny = known_player(state, thrower), known_player(state, small)
    if state["phase"] != "bash":
        raise LiveError("not_bash_phase", _("A small player is thrown instead of a bash."))
    if big == tiny or state["players"][big]["team"] != state["players"][tiny]["team"]:
        raise LiveError("not_team_mates", _("A big player throws a small team-mate."))
    try:
        challenge = throwing.needs_challenge(
            condition(state, big),
            condition(state, tiny),
            willing=willing,
            thrower_skills=state["players"][big].get("skills", []),
            small_skills=state["players"][tiny].get("skills", []),
        )
    except throwing.ThrowRefused as refused:
        raise LiveError(refused.code, _THROW_REFUSED[refused.code]()) from None
    events: Events = []
    if challenge:
        ch = {
            "purpose": "throw_player",
            "kind": "levels",
            "attackers": [big],
            "defender": tiny,
            "dodging": False,
            "throws": [],
            "damage": 0,
        }
        open(state, ch, phones, events)
        return events
    state["flight"] = {"thrower": big, "small": tiny}
    return [("thrown", {"thrower": big, "player": tiny})]


def land(state: State, where: str, on: object = None, *, phones: bool = False) -> Events:
    """Where the thrown small player came down: an empty spot (the landing challenge against
    the referee, agility), on a player (both fall, both take the injury tests without
    modifiers) or out of the field (the crowd beats him)."""
    playing(state)
    flight = state.get("flight")
    if not flight or state["challenge"] is not None:
        raise LiveError("not_flying", _("No small player is in the air."))
    if where not in set(throwing.Landing):
        raise LiveError("bad_landing", _("He lands on an empty spot, on a player or out."))
    small = flight["small"]
    events: Events = [("landing", {"player": small, "where": where})]
    if where == throwing.Landing.PLAYER:
        other = known_player(state, on)
        if other == small or condition(state, other).out:
            raise LiveError("bad_players", _("Pick the player he landed on."))
        events[0][1]["on"] = other
        for pid in (small, other):
            knock_down(state, pid, events)
            state["queue"].append(injury(REF, pid))
        carrier = state["ball"]["carrier"]
        if carrier in (small, other):
            state["queue"].append(hold(carrier))
    elif where == throwing.Landing.OUT:
        state["queue"].append(
            {
                "purpose": "crowd",
                "kind": "levelless",
                "attackers": [REF],
                "defender": small,
                "victim": small,
                "injurer": REF,
                "dodging": False,
                "throws": [],
                "damage": 0,
            }
        )
    else:
        state["queue"].append(
            {
                "purpose": "land",
                "kind": "levels",
                "attackers": [REF],
                "defender": small,
                "dodging": False,
                "throws": [],
                "damage": 0,
            }
        )
    state["flight"] = None
    run_queue(state, phones, events)
    return events
