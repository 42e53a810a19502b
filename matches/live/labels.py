"""What the live companion's codes read as, in the user's language."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from matches.live import limits

PHASES = {
    "kickoff": gettext_lazy("Kick-off"),
    "move": gettext_lazy("Move (3 seconds)"),
    "stride": gettext_lazy("Stride"),
    "bash": gettext_lazy("Bash"),
    "throw": gettext_lazy("Throw"),
}
STATES = {
    "standing": gettext_lazy("standing"),
    "down": gettext_lazy("down"),
    "stunned": gettext_lazy("stunned"),
    "injured": gettext_lazy("injured"),
    "seriously_injured": gettext_lazy("seriously injured"),
    "critically_injured": gettext_lazy("critically injured"),
    "dead": gettext_lazy("dead"),
}
OUT = {
    "dead": gettext_lazy("dead"),
    "carried_off": gettext_lazy("carried off"),
    "yellow": gettext_lazy("yellow card"),
    "red": gettext_lazy("red card"),
    "crowd": gettext_lazy("sent off by the crowd"),
}
PURPOSES = {
    "bash": gettext_lazy("Bash"),
    "stride": gettext_lazy("Stride and tackle"),
    "kick": gettext_lazy("Kick a player on the ground"),
    "crowd": gettext_lazy("The crowd beats a player who ran off the field"),
    "red_card": gettext_lazy("Red card challenge (kicking)"),
    "injury": gettext_lazy("Injury test"),
    "hold_ball": gettext_lazy("Holding the ball"),
    "hold_weapon": gettext_lazy("Holding the weapon"),
    "land": gettext_lazy("A thrown small player lands"),
    "blast": gettext_lazy("The bomb's blast (+1 against strength only)"),
    "throw_player": gettext_lazy("Throwing an unwilling small player"),
}
KINDS = {
    "bash": gettext_lazy("bash"),
    "dodge": gettext_lazy("dodge"),
    "tackle": gettext_lazy("tackle"),
    "stride": gettext_lazy("stride"),
    "hold_ball": gettext_lazy("hold the ball"),
    "hold_weapon": gettext_lazy("hold a weapon"),
    "land": gettext_lazy("land"),
    "blast": gettext_lazy("withstand a bomb"),
}
THROWS = {
    "rock": gettext_lazy("Rock"),
    "paper": gettext_lazy("Paper"),
    "scissors": gettext_lazy("Scissors"),
}
RULINGS = {
    "yellow": gettext_lazy("Yellow card"),
    "red": gettext_lazy("Red card"),
    "bribe": gettext_lazy("Bribe (lift the card)"),
    "stand_up": gettext_lazy("Stands up"),
    "fall": gettext_lazy("Falls"),
    "treat": gettext_lazy("Treated"),
    "give_ball": gettext_lazy("Has the ball"),
    "drop_ball": gettext_lazy("Drops the ball"),
    "dagger": gettext_lazy("Poisoned dagger (give or take)"),
    "bomb": gettext_lazy("Bomb (give or take)"),
}
LANDINGS = {
    "field": gettext_lazy("On an empty spot"),
    "player": gettext_lazy("On a player"),
    "out": gettext_lazy("Out of the field"),
}
SIDES = {"home": gettext_lazy("home"), "away": gettext_lazy("away")}


def name(state: dict[str, Any], pid: str) -> str:
    if pid == "ref":
        return _("the referee")
    player = state["players"].get(pid)
    return f"#{player['number']} {player['name']}" if player else pid


def describe(event_type: str, data: dict[str, Any], state: dict[str, Any]) -> str:
    """One line of the log."""
    who = name(state, data["player"]) if "player" in data else ""
    if event_type == "started":
        return _("Live match started: %(home)s v %(away)s") % data
    if event_type == "kick_off":
        return _("Kick-off: half %(half)s, drive %(drive)s, %(side)s kicks") % {
            **data,
            "side": SIDES[data["kicking"]],
        }
    if event_type == "phase":
        return pgettext("live game", "Round %(round)s: %(phase)s") % {
            **data,
            "phase": PHASES[data["phase"]],
        }
    if event_type == "challenge":
        names = ", ".join(name(state, p) for p in data["attackers"])
        return _("Challenge %(n)s, %(purpose)s: %(attackers)s against %(defender)s") % {
            "n": data["n"],
            "purpose": PURPOSES[data["purpose"]],
            "attackers": names,
            "defender": name(state, data["defender"]),
        }
    if event_type == "throw_committed":
        return _("%(who)s has thrown (hidden)") % {"who": who}
    if event_type == "throws":
        shown = ", ".join(f"{name(state, p)}: {THROWS[t]}" for p, t in data["throws"].items())
        return _("Throws: %(throws)s") % {"throws": shown}
    if event_type == "decided":
        winners = ", ".join(
            name(state, pair["winner"]) if pair["winner"] != "tie" else _("tie")
            for pair in data["pairs"].values()
        )
        return _("Challenge %(n)s won by %(winners)s") % {"n": data["n"], "winners": winners}
    if event_type == "condition":
        state_label = OUT.get(data["out"]) or STATES[data["state"]]
        return _("%(who)s: %(state)s") % {"who": who, "state": state_label}
    if event_type == "injury":
        return _("%(who)s: %(levels)s damage level(s) in this attack") % {
            "who": who,
            "levels": data["levels"],
        }
    if event_type == "ball_carrier":
        return _("%(who)s has the ball") % {"who": who}
    if event_type == "ball_dropped":
        return _("%(who)s drops the ball") % {"who": who}
    if event_type == "ball_out":
        return _("The ball is out of the field")
    if event_type == "ball_in":
        return _("The ball is kicked back in")
    if event_type == "touchdown":
        return _("Touchdown by %(who)s! %(home)s-%(away)s") % {"who": who, **data["score"]}
    if event_type == "half_over":
        return _("End of half %(half)s") % data
    if event_type == "finished":
        return str(_("Full time: %(home)s-%(away)s") % data["score"])
    if event_type == "overrule":
        return _("Seed 002 overruled by the referee for %(who)s: %(limit)s") % {
            "who": who,
            "limit": limits.NAMES[data["limit"]],
        }
    if event_type == "ruling":
        return _("Ruling: %(ruling)s for %(who)s") % {
            "ruling": RULINGS[data["action"]],
            "who": who,
        }
    if event_type == "kick":
        return _("%(attacker)s kicks %(victim)s") % {
            "attacker": name(state, data["attacker"]),
            "victim": name(state, data["victim"]),
        }
    if event_type == "weapon":
        if data["weapon"] == "bomb":
            return _("%(who)s carries a bomb") % {"who": who}
        if data["weapon"]:
            return _("%(who)s carries a poisoned dagger") % {"who": who}
        return _("%(who)s has no weapon") % {"who": who}
    if event_type == "weapon_dropped":
        return _("%(who)s drops his weapon") % {"who": who}
    if event_type == "bomb_lit":
        return _("%(who)s lights a bomb") % {"who": who}
    if event_type == "bomb_thrown":
        return _("%(who)s throws the bomb") % {"who": who}
    if event_type == "blast":
        hit = ", ".join(name(state, p) for p in data["players"]) or _("nobody")
        if data["in_hands"]:
            return _("The bomb explodes in the bomber's hands: %(hit)s") % {"hit": hit}
        return _("The bomb explodes: %(hit)s") % {"hit": hit}
    if event_type == "choose_injurer":
        return _("Several attackers won challenge %(n)s: they choose who injures") % data
    if event_type == "injurer":
        return _("%(who)s makes the injury tests") % {"who": who}
    if event_type == "thrown":
        return _("%(thrower)s throws %(who)s") % {
            "thrower": name(state, data["thrower"]),
            "who": who,
        }
    if event_type == "landing":
        if "on" in data:
            return _("%(who)s lands on %(other)s") % {"who": who, "other": name(state, data["on"])}
        return _("%(who)s lands: %(where)s") % {"who": who, "where": LANDINGS[data["where"]]}
    if event_type == "cancelled":
        return _("Challenge %(n)s called off") % data
    if event_type == "level":
        return _("%(who)s: %(kind)s level now %(level)s") % {
            "who": who,
            "kind": KINDS[data["kind"]],
            "level": data["level"],
        }
    return event_type
