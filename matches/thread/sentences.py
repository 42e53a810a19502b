"""The system posts of the thread as sentences with their data, in the reader's language.

A system post stores what happened as data (its ``summary``: a ``message``, or the ``step``
of the pre- and post-match sequence); these functions say it in words at render time."""

import re
from collections.abc import Callable
from typing import Any

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bbweb import glossary
from matches import labels
from matches.labels import label
from matches.models import Match
from rules import gamedata

Facts = dict[str, Any]


class Names:
    """Players and teams by the engine's ids, for sentences. ``with_team`` names each player's
    team too, where both teams' players meet (the thread, the GM's forms): two teams of
    linemen both have a "#1 Lineman 1"."""

    def __init__(self, match: Match, *, with_team: bool = False) -> None:
        self.match = match
        self.lineup: dict[str, dict[str, Any]] = match.lineup or {}
        self.with_team = with_team

    def player(self, pid: Any) -> str:
        if not pid:
            return "—"
        info = self.lineup.get(str(pid))
        if info is None:
            return str(pid)
        name = f"#{info['number']} {info['name']}"
        if self.with_team:
            return f"{name} ({self.team(self.team_of(str(pid)))})"
        return name

    def team_of(self, pid: str) -> str:
        """The key (home, away) of a player's team: the engine's ids start with h or a."""
        return "home" if pid.startswith("h") else "away"

    def team(self, key: Any) -> str:
        if key == "home":
            return self.match.home_team.name
        if key == "away":
            return self.match.away_team.name
        return _("nobody")

    def actor(self, actor: str) -> str:
        team, _sep, side = actor.partition(":")
        side_label = _("captain") if side == "captain" else _("rival")
        return f"{self.team(team)} ({side_label})"


PLAYER_ID = re.compile(r"\b[ha]\d{1,2}\b")


def named(names: Names, text: str) -> str:
    """The engine's message with its player ids ("a3 has already acted") given as names
    ("#3 Gorbag has already acted"): the engine speaks in ids, a person reads names."""
    return PLAYER_ID.sub(
        lambda found: names.player(found[0]) if found[0] in names.lineup else found[0], text
    )


def _skill_name(name: str) -> str:
    try:
        return glossary.skill_name(gamedata.skill(name))
    except gamedata.UnknownSkill:
        return name


def choice_label(kind: str, choice: Any, names: Names) -> str:
    if kind == "block_die" and isinstance(choice, int):
        return f"{choice}: {label(labels.BLOCK_FACES, choice)}"
    if isinstance(choice, bool) or choice in labels.CHOICES:
        return label(labels.CHOICES, choice)
    text = str(choice)
    if text.startswith("skill:"):
        return _("Skill reroll (%(skill)s)") % {"skill": _skill_name(text[6:])}
    if ":" in text:  # PLAYER:SQUARE
        pid, _sep, square = text.partition(":")
        return f"{names.player(pid)} → {square}"
    if text in names.lineup:
        return names.player(text)
    return text


def gold(amount: Any) -> str:
    return _("%(n)s gp") % {"n": formats.number_format(amount or 0, force_grouping=True)}


def post_range(numbers: list[int]) -> str:
    """Post numbers as a reader writes them: "#40", "#40-#45", "#40-#45, #48"."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"#{r[0]}" if len(r) == 1 else f"#{r[0]}-#{r[-1]}" for r in runs)


def moment(value: Any) -> str:
    """A stored ISO date and time in the reader's locale and time zone."""
    parsed = parse_datetime(str(value or ""))
    if parsed is None:
        return str(value or "")
    return formats.date_format(timezone.localtime(parsed), "DATETIME_FORMAT")


def side_name(side: Any) -> str:
    return _("captain") if side == "captain" else _("rival")


def system_headline(names: Names, summary: Facts) -> str:
    """The sentence of a system post."""
    if "step" in summary and "message" not in summary:
        return _step(names, summary)
    message = str(summary.get("message", ""))
    say = _MESSAGES.get(message)
    if say is None:
        return label(labels.ACTIONS, message)
    return say(names, summary)


# -- what the GM and the server say --------------------------------------------------------------


def _ruling_prefix(summary: Facts) -> str:
    if summary.get("raised_by"):
        return _("Ruling on the dispute raised by %(user)s:") % {"user": summary["raised_by"]} + " "
    return ""


def _rewind(names: Names, s: Facts) -> str:
    text = _ruling_prefix(s) + _("the GM rewinds the match to before post %(post)s.") % {
        "post": f"#{s['to_post']}" if s.get("to_post") else "—"
    }
    undone = s.get("undone_posts") or []
    if undone:
        text += " " + _("Undone: post %(posts)s.") % {"posts": post_range(undone)}
    return (
        text
        + " "
        + _(
            "Play goes on with new dice: the undone rolls are not rolled again, the next "
            "rolls are new ones."
        )
    )


def _granted_reroll(names: Names, s: Facts) -> str:
    text = _ruling_prefix(s) + _(
        "the GM grants a re-roll of the roll in post %(post)s: it is rolled again with new "
        "dice, the rolls before it in the same action stand, what follows is resolved anew."
    ) % {"post": f"#{s['of_event_post']}" if s.get("of_event_post") else "—"}
    undone = s.get("undone_posts") or []
    if undone:
        text += " " + _("Replaced: post %(posts)s.") % {"posts": post_range(undone)}
    return text


def _correction(names: Names, s: Facts) -> str:
    changes = s.get("changes") or {}
    parts = []
    if changes.get("state"):
        parts.append(_("now %(state)s") % {"state": label(labels.STATES, changes["state"])})
    if changes.get("at"):
        parts.append(_("moved to %(square)s") % {"square": changes["at"]})
    return _ruling_prefix(s) + _("the GM corrects %(player)s: %(changes)s.") % {
        "player": names.player(s.get("player")),
        "changes": ", ".join(parts) or "—",
    }


def _award(names: Names, s: Facts) -> str:
    score = s.get("score") or {}
    return _ruling_prefix(s) + _(
        "the GM awards the match to %(team)s, %(home)s %(h)s-%(a)s %(away)s."
    ) % {
        "team": names.team(s.get("winner")),
        "home": names.team("home"),
        "away": names.team("away"),
        "h": score.get("home", 0),
        "a": score.get("away", 0),
    }


def _deadline_passed(names: Names, s: Facts) -> str:
    if s.get("deadline") == "decision":
        return _(
            "The deadline of %(who)s passed: the server answers %(question)s with the "
            "default, %(choice)s."
        ) % {
            "who": names.actor(str(s.get("to", ""))),
            "question": label(labels.DECISIONS, s.get("kind")),
            "choice": _choice(names, s.get("kind", ""), s.get("choice")),
        }
    sides = s.get("sides") or []
    if not sides:
        return _("The turn deadline of %(team)s passed; the GM decides what follows.") % {
            "team": names.team(s.get("team"))
        }
    return _("The turn deadline of %(team)s passed: the server ends the turn of %(sides)s.") % {
        "team": names.team(s.get("team")),
        "sides": ", ".join(side_name(side) for side in sides),
    }


def _choice(names: Names, kind: str, choice: Any) -> str:
    return choice_label(kind, choice, names)


def _blitz_contest(names: Names, s: Facts) -> str:
    if "rival_total" not in s:
        return _("The Blitz contest of %(team)s is rolled.") % {"team": names.team(s.get("team"))}
    return _(
        "Blitz contest of %(team)s: rival %(rival)s = %(rt)s against captain %(captain)s + 2 = "
        "%(ct)s. The Blitz goes to the %(winner)s."
    ) % {
        "team": names.team(s.get("team")),
        "rival": "+".join(str(d) for d in s.get("rival", [])),
        "captain": "+".join(str(d) for d in s.get("captain", [])),
        "rt": s.get("rival_total"),
        "ct": s.get("captain_total"),
        "winner": side_name(s.get("winner")),
    }


def _dispute_raised(names: Names, s: Facts) -> str:
    who = names.actor(str(s.get("actor", "")))
    if s.get("post"):
        return _("%(who)s disputes post #%(post)s and asks the GM to rule:") % {
            "who": who,
            "post": s["post"],
        }
    return _("%(who)s disputes a roll and asks the GM to rule:") % {"who": who}


def _plain(text: str) -> Callable[[Names, Facts], str]:
    return lambda names, s: _ruling_prefix(s) + _(text)


_MESSAGES: dict[str, Callable[[Names, Facts], str]] = {
    "created": lambda names, s: (
        _("The match is created. Dice commitment (SHA-256 of the seed): %(c)s")
        % {"c": s.get("commitment", "")}
    ),
    "closed": lambda names, s: (
        _("The match is closed. Its dice seed is public: %(seed)s") % {"seed": s.get("seed", "")}
    ),
    "match_closed": lambda names, s: _("The GM closes the match; its dice seed is public."),
    "match_ended": lambda names, s: _("The GM ends the match as it stands."),
    "vacation": lambda names, s: (
        _("%(user)s is away until %(until)s: its deadlines wait.")
        % {"user": s.get("user", ""), "until": moment(s.get("until"))}
    ),
    "deadline_passed": _deadline_passed,
    "bank_ran_out": lambda names, s: (
        _("The time bank of %(who)s ran out: the match is paused until the GM rules.")
        % {"who": ", ".join(names.actor(str(actor)) for actor in s.get("actors") or [])}
    ),
    "blitz_contest": _blitz_contest,
    "dispute_raised": _dispute_raised,
    "rewind": _rewind,
    "granted_reroll": _granted_reroll,
    "correction": _correction,
    "award": _award,
    "dismissed": lambda names, s: _ruling_prefix(s) + _("the GM dismisses it."),
    "upheld": lambda names, s: _ruling_prefix(s) + _("the GM upholds it."),
    "deadline_extended": lambda names, s: (
        _ruling_prefix(s)
        + ngettext(
            "the GM extends the deadline by %(n)s hour.",
            "the GM extends the deadline by %(n)s hours.",
            int(s.get("hours") or 0),
        )
        % {"n": s.get("hours")}
    ),
    "deadline_set": lambda names, s: (
        _("The GM sets the turn deadline to %(at)s.") % {"at": moment(s.get("at"))}
    ),
    "paused": lambda names, s: _ruling_prefix(s) + _("the GM pauses the match."),
    "resumed": lambda names, s: _("The GM resumes the match."),
    "locked": lambda names, s: _("The GM locks the match while a dispute is settled."),
    "unlocked": lambda names, s: (
        _("No dispute is open any more: the match is unlocked.")
        if s.get("automatic")
        else _("The GM unlocks the match.")
    ),
    "coach_replaced": lambda names, s: (
        _("The GM puts %(user)s in for %(side)s.")
        % {"user": s.get("username", ""), "side": names.actor(str(s.get("actor", "")))}
    ),
}


# -- the pre- and post-match sequence --------------------------------------------------------------


def _both(names: Names, s: Facts, say: Callable[[Any], str]) -> str:
    return "; ".join(f"{names.team(key)}: {say(s.get(key))}" for key in ("home", "away"))


def _dice(faces: Any) -> str:
    return "+".join(str(f) for f in faces or [])


def _step(names: Names, s: Facts) -> str:
    step = str(s.get("step"))
    team = names.team(s.get("team"))
    say = _STEPS.get(step)
    if say is None:
        return label({}, step)
    return say(names, s, team)


def _winnings_dice(rolled: Any) -> str:
    rolled = rolled or {}
    return _("winnings %(dice)s, fan factor %(fan)s") % {
        "dice": _dice(rolled.get("dice")),
        "fan": _dice(rolled.get("fan_factor_dice")),
    }


def _mvp(names: Names, s: Facts, team: str) -> str:
    return _("Most Valuable Player of %(team)s: %(mvp)s.") % {
        "team": team,
        "mvp": (s.get("mje") or {}).get("name") or (s.get("pje") or {}).get("name") or "—",
    }


def _result(names: Names, s: Facts, team: str) -> str:
    score = s.get("score") or {}
    final = _("Result: %(home)s %(h)s-%(a)s %(away)s.") % {
        "home": names.team("home"),
        "away": names.team("away"),
        "h": score.get("home", 0),
        "a": score.get("away", 0),
    }
    if s.get("winner") in ("home", "away"):
        if s.get("by") == "concession":
            return (
                final
                + " "
                + _("%(team)s wins: the other team conceded.") % {"team": names.team(s["winner"])}
            )
        return final + " " + _("%(team)s wins.") % {"team": names.team(s["winner"])}
    return final + " " + _("A draw.")


def _injuries(names: Names, s: Facts, team: str) -> str:
    def listed(rows: Any) -> str:
        if not rows:
            return _("none")
        return ", ".join(
            f"{row.get('name')} ({label(labels.RESULTS, row.get('injury'))})" for row in rows
        )

    return _("Injuries after the match. %(list)s.") % {"list": _both(names, s, listed)}


def _spp(names: Names, s: Facts, team: str) -> str:
    def listed(rows: Any) -> str:
        if not rows:
            return _("none")
        return ", ".join(f"{row.get('name')} {row.get('spp', 0)}" for row in rows)

    return _("Star Player Points earned. %(list)s.") % {"list": _both(names, s, listed)}


_STEPS: dict[str, Callable[[Names, Facts, str], str]] = {
    "team_values": lambda names, s, team: (
        _("Team values. %(list)s.") % {"list": _both(names, s, gold)}
    ),
    "team_values_after": lambda names, s, team: (
        _("Team values after the match. %(list)s.") % {"list": _both(names, s, gold)}
    ),
    "petty_cash": lambda names, s, team: (
        _("%(team)s (%(side)s) puts %(amount)s in petty cash.")
        % {"team": team, "side": side_name(s.get("side")), "amount": gold(s.get("amount"))}
    ),
    "handicap": lambda names, s, team: (
        _("Handicap: %(team)s gets %(amount)s for inducements.")
        % {"team": team, "amount": gold(s.get("amount"))}
        if s.get("team")
        else _("No handicap: the team values are equal.")
    ),
    "inducements": lambda names, s, team: (
        _("%(team)s buys inducements for %(cost)s.") % {"team": team, "cost": gold(s.get("cost"))}
    ),
    "star_clash": lambda names, s, team: (
        _("Both teams hired %(stars)s: neither gets them.")
        % {"stars": ", ".join(str(star) for star in s.get("stars") or [])}
    ),
    "kick_off": lambda names, s, team: (
        ngettext(
            "The teams take the pitch: %(n)s player.",
            "The teams take the pitch: %(n)s players.",
            int(s.get("lineup") or 0),
        )
        % {"n": s.get("lineup")}
    ),
    "weather": lambda names, s, team: (
        _("Weather: %(dice)s, %(weather)s.")
        % {
            # the pre-match's weather roll keeps its dice as "dice", the kick-off's as "faces"
            "dice": _dice(s.get("dice") or s.get("faces")),
            "weather": label(labels.WEATHER, s.get("result")),
        }
    ),
    "fans": lambda names, s, team: (
        _("Fans. %(list)s.")
        % {
            "list": _both(
                names,
                s,
                lambda f: (
                    _("%(dice)s, %(fans)s fans, FAME %(fame)s")
                    % {
                        "dice": _dice((f or {}).get("faces")),
                        "fans": (f or {}).get("fans"),
                        "fame": (f or {}).get("fame"),
                    }
                ),
            )
        }
    ),
    "result": _result,
    "winnings_dice": lambda names, s, team: (
        _("Winnings dice. %(list)s.") % {"list": _both(names, s, _winnings_dice)}
    ),
    "winnings_reroll": lambda names, s, team: (
        (
            _("%(team)s re-rolls its winnings die: %(dice)s.")
            if s.get("reroll")
            else _("%(team)s keeps its winnings die: %(dice)s.")
        )
        % {"team": team, "dice": _dice(s.get("dice"))}
    ),
    "mvp": _mvp,
    "winnings": lambda names, s, team: (
        _("Winnings of %(team)s: %(winnings)s (captain %(captain)s, rival %(rival)s).")
        % {
            "team": team,
            "winnings": gold(s.get("winnings")),
            "captain": gold(s.get("captain_share")),
            "rival": gold(s.get("rival_share")),
        }
    ),
    "fan_factor": lambda names, s, team: (
        _("Fan factor of %(team)s: %(dice)s, %(change)+d.")
        % {"team": team, "dice": _dice(s.get("dice")), "change": int(s.get("change") or 0)}
    ),
    "spp": _spp,
    "injuries": _injuries,
    "improvement_rolls": lambda names, s, team: (
        ngettext(
            "%(n)s player rolls for an improvement.",
            "%(n)s players roll for an improvement.",
            len(s.get("rolls") or []),
        )
        % {"n": len(s.get("rolls") or [])}
    ),
    "advancement": lambda names, s, team: (
        _("%(name)s rolls %(dice)s and takes %(choice)s.")
        % {"name": s.get("name", ""), "dice": _dice(s.get("dice")), "choice": s.get("choice", "")}
    ),
    "journeymen": lambda names, s, team: (
        _("Journeymen who may be hired. %(list)s.")
        % {
            "list": _both(
                names,
                s,
                lambda rows: ", ".join(str(r.get("name")) for r in rows or []) or _("none"),
            )
        }
    ),
}
