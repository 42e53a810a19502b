"""The pre- and post-match steps of the thread in the reader's language: each step's post
stores figures only (``Post.summary``), and this writes them out when the page is read."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from bbweb import glossary
from matches.models import Match
from rules import gamedata
from teams.rosters import gp

SIDE_LABELS = {"captain": _("the captain's side"), "rival": _("the rival's side")}
WEATHER = {
    "sweltering_heat": _("Sweltering Heat"),
    "very_sunny": _("Very Sunny"),
    "nice": _("Nice"),
    "pouring_rain": _("Pouring Rain"),
    "blizzard": _("Blizzard"),
}
RESULTS = {"win": _("a win"), "draw": _("a draw"), "loss": _("a loss")}
INJURIES = {
    "badly_hurt": _("badly hurt"),
    "miss_next_game": _("misses the next game"),
    "niggling_injury": _("a niggling injury"),
    "minus_ma": _("-1 MA"),
    "minus_av": _("-1 AV"),
    "minus_ag": _("-1 AG"),
    "minus_st": _("-1 ST"),
    "dead": _("dead"),
}
INDUCEMENTS = {
    "bloodweiser_babes": _("Bloodweiser Babes"),
    "bribes": _("Bribes"),
    "extra_training": _("Extra Team Training"),
    "halfling_master_chef": _("Halfling Master Chef"),
    "igor": _("Igor"),
    "wandering_apothecary": _("Wandering Apothecaries"),
}


def team_name(match: Match, key: str | None) -> str:
    if key == "home":
        return match.home_team.name
    if key == "away":
        return match.away_team.name
    return ""


def stat_or_skill(name: str) -> str:
    if name in gamedata.STAT_INCREASES:
        return f"+1 {name[1:]}"
    try:
        return glossary.skill_name(gamedata.skill(name))
    except gamedata.UnknownSkill:
        return name


def order_text(order: Mapping[str, Any]) -> str:
    parts = [
        f"{count} x {INDUCEMENTS.get(item, item)}"
        for item, count in (order.get("counts") or {}).items()
    ]
    stars = {s.id: s.name for s in gamedata.star_players()}
    parts += [stars.get(star, star) for star in order.get("stars") or ()]
    for merc in order.get("mercenaries") or ():
        title = glossary.position_name(gamedata.position(merc["position"]))
        if merc.get("skill"):
            parts.append(
                gettext("a %(position)s mercenary with %(skill)s")
                % {"position": title, "skill": stat_or_skill(merc["skill"])}
            )
        else:
            parts.append(gettext("a %(position)s mercenary") % {"position": title})
    return ", ".join(parts) if parts else gettext("nothing")


def named(match: Match, row: Mapping[str, Any]) -> str:
    """A player of a step's summary as the thread names him ("#3 Gorbag"), the form that
    the ``player_links`` filter makes a link to his career; by his name alone when the
    line-up does not hold him (a summary written before it kept the ids)."""
    lineup = match.lineup
    info = lineup.get(row.get("id") or "")
    if info is None and row.get("player") is not None:
        info = next((i for i in lineup.values() if i.get("pk") == row["player"]), None)
    if info is None or "number" not in info:
        return str(row["name"])
    return f"#{info['number']} {info['name']}"


def _players(match: Match, rows: list[dict[str, Any]]) -> str:
    out = []
    for row in rows:
        bits = []
        for key, label in (
            ("completions", pgettext("SPP", "COMP")),
            ("touchdowns", pgettext("SPP", "TD")),
            ("casualties", pgettext("SPP", "CAS")),
            ("interceptions", pgettext("SPP", "INT")),
        ):
            if row.get(key):
                bits.append(f"{row[key]} {label}")
        if row.get("award") == "mje":
            bits.append(gettext("MVP"))
        elif row.get("award") == "pje":
            bits.append(gettext("second award"))
        out.append(
            gettext("%(name)s %(spp)d SPP (%(what)s)")
            % {"name": named(match, row), "spp": row["spp"], "what": ", ".join(bits)}
        )
    return "; ".join(out) if out else gettext("nobody")


def step_text(match: Match, summary: Mapping[str, Any]) -> str:
    """One step's post as a sentence (or a few) in the active language."""
    step = summary.get("step")
    s = summary
    by_default = gettext(" (by default: the deadline passed)") if s.get("default") else ""
    if step == "team_values":
        return gettext(
            "Team values: %(home)s %(home_value)s, %(away)s %(away_value)s. "
            "%(favourite)s decides first."
        ) % {
            "home": team_name(match, "home"),
            "home_value": gp(s["home"]),
            "away": team_name(match, "away"),
            "away_value": gp(s["away"]),
            "favourite": team_name(match, s["favourite"]),
        }
    if step == "petty_cash":
        return (
            gettext("Petty cash: %(side)s of %(team)s moves %(amount)s from its treasury.")
            % {
                "side": SIDE_LABELS.get(s["side"], s["side"]),
                "team": team_name(match, s["team"]),
                "amount": gp(s["amount"]),
            }
            + by_default
        )
    if step == "handicap":
        if not s.get("team"):
            return gettext("Handicap money: none, the teams are worth the same for this match.")
        return gettext(
            "Handicap money: %(team)s receives %(amount)s (values with petty cash: "
            "%(home_value)s and %(away_value)s)."
        ) % {
            "team": team_name(match, s["team"]),
            "amount": gp(s["amount"]),
            "home_value": gp(s["home"]),
            "away_value": gp(s["away"]),
        }
    if step == "inducements":
        text = gettext("Inducements of %(team)s: %(order)s, for %(cost)s.") % {
            "team": team_name(match, s["team"]),
            "order": order_text(s["order"]),
            "cost": gp(s["cost"]),
        }
        returned = s.get("returned") or {}
        if returned.get("captain") or returned.get("rival"):
            text += " " + gettext(
                "Petty cash back to the treasuries: %(captain)s to the captain's side, "
                "%(rival)s to the rival's side."
            ) % {"captain": gp(returned.get("captain", 0)), "rival": gp(returned.get("rival", 0))}
        if s.get("lost"):
            text += " " + gettext("Unspent handicap money lost: %(amount)s.") % {
                "amount": gp(s["lost"])
            }
        return text + by_default
    if step == "star_clash":
        stars = {p.id: p.name for p in gamedata.star_players()}
        return gettext(
            "Both teams induced %(stars)s: neither fields him, and he keeps both fees."
        ) % {"stars": ", ".join(stars.get(x, x) for x in s["stars"])}
    if step == "kick_off":
        return gettext("The pre-match sequence is over: %(count)d players take the field.") % {
            "count": s["lineup"]
        }
    if step == "weather":
        faces = s.get("dice") or s["faces"]  # "dice": rolled before the petty cash (seed 003)
        return gettext("Weather: %(a)d + %(b)d, %(weather)s.") % {
            "a": faces[0],
            "b": faces[1],
            "weather": WEATHER.get(s["result"], s["result"]),
        }
    if step == "fans":
        return " ".join(
            gettext(
                "%(team)s: 2D6 %(a)d + %(b)d + fan factor %(ff)d = %(fans)s fans, FAME %(fame)+d."
            )
            % {
                "team": team_name(match, key),
                "a": s[key]["faces"][0],
                "b": s[key]["faces"][1],
                "ff": s[key]["fan_factor"],
                "fans": f"{s[key]['fans']:,}",
                "fame": s[key]["fame"],
            }
            for key in ("home", "away")
        )
    if step == "result":
        score = s["score"]
        if s.get("winner"):
            return gettext("Final score %(home)d-%(away)d: %(winner)s wins.") % {
                "home": score["home"],
                "away": score["away"],
                "winner": team_name(match, s["winner"]),
            }
        return gettext("Final score %(home)d-%(away)d: a draw.") % {
            "home": score["home"],
            "away": score["away"],
        }
    if step == "winnings_dice":
        text = " ".join(
            gettext("%(team)s rolls %(die)d for its winnings.")
            % {"team": team_name(match, key), "die": s[key]["dice"][-1]}
            for key in ("home", "away")
        )
        if s.get("winner"):
            text += " " + gettext("The winner's captain may roll its die again once.")
        return text
    if step == "winnings_reroll":
        if s["reroll"]:
            return gettext("%(team)s rolls its winnings die again: %(die)d.") % {
                "team": team_name(match, s["team"]),
                "die": s["dice"][-1],
            }
        return (
            gettext("%(team)s keeps its winnings die.") % {"team": team_name(match, s["team"])}
            + by_default
        )
    if step == "mvp":
        return (
            gettext(
                "Awards to %(team)s, chosen by the opposing captain: MVP %(mje)s, "
                "second award %(pje)s."
            )
            % {
                "team": team_name(match, s["team"]),
                "mje": named(match, s["mje"]),
                "pje": named(match, s["pje"]),
            }
            + by_default
        )
    if step == "winnings":
        return gettext(
            "Winnings of %(team)s (%(result)s): (%(die)d + FAME %(fame)d%(bonus)s) x 10,000 = "
            "%(gross)s, less %(spiralling)s of spiralling expenses: %(winnings)s. Shared by the "
            "value of each side's players (%(captain_value)s and %(rival_value)s): "
            "%(captain_share)s to the captain's side, %(rival_share)s to the rival's side."
        ) % {
            "team": team_name(match, s["team"]),
            "result": RESULTS.get(s["result"], s["result"]),
            "die": s["die"],
            "fame": s["fame"],
            "bonus": " + 1" if s["result"] in ("win", "draw") else "",
            "gross": gp(s["gross"]),
            "spiralling": gp(s["spiralling"]),
            "winnings": gp(s["winnings"]),
            "captain_value": gp(s["captain_value"]),
            "rival_value": gp(s["rival_value"]),
            "captain_share": gp(s["captain_share"]),
            "rival_share": gp(s["rival_share"]),
        }
    if step == "fan_factor":
        return gettext(
            "Fan factor of %(team)s: rolls %(dice)s = %(total)d against %(before)d: %(change)+d."
        ) % {
            "team": team_name(match, s["team"]),
            "dice": " + ".join(str(d) for d in s["dice"]),
            "total": sum(s["dice"]),
            "before": s["before"],
            "change": s["change"],
        }
    if step == "spp":
        return " ".join(
            gettext("SPP of %(team)s: %(players)s.")
            % {"team": team_name(match, key), "players": _players(match, s[key])}
            for key in ("home", "away")
        )
    if step == "injuries":
        parts = []
        for key in ("home", "away"):
            rows = [
                f"{named(match, row)}: {INJURIES.get(row['injury'], row['injury'])}"
                + (gettext(" (does not last)") if row.get("ignored") else "")
                for row in s[key]
            ]
            parts.append(
                gettext("Injuries of %(team)s: %(list)s.")
                % {
                    "team": team_name(match, key),
                    "list": "; ".join(rows) if rows else gettext("none"),
                }
            )
        return " ".join(parts)
    if step == "improvement_rolls":
        return gettext("Improvement rolls: %(list)s.") % {
            "list": "; ".join(
                f"{named(match, row)} {row['dice'][0]} + {row['dice'][1]}"
                + (gettext(" (a double)") if row["dice"][0] == row["dice"][1] else "")
                for row in s["rolls"]
            )
        }
    if step == "advancement":
        return (
            gettext("%(name)s (%(a)d + %(b)d) takes %(choice)s; now worth %(value)s.")
            % {
                "name": named(match, s),
                "a": s["dice"][0],
                "b": s["dice"][1],
                "choice": stat_or_skill(s["choice"]),
                "value": gp(s["value"]),
            }
            + by_default
        )
    if step == "team_values_after":
        return gettext("Team values now: %(home)s %(home_value)s, %(away)s %(away_value)s.") % {
            "home": team_name(match, "home"),
            "home_value": gp(s["home"]),
            "away": team_name(match, "away"),
            "away_value": gp(s["away"]),
        }
    if step == "journeymen":
        names = [named(match, row) for key in ("home", "away") for row in s[key]]
        return gettext("Journeymen who may be hired for good: %(names)s.") % {
            "names": ", ".join(names)
        }
    return str(step)
