"""What the match page shows to one reader: the markers, who is awaited, what this reader may
do now (its mode), and the plan being built on the pitch with the engine's odds. Read only."""

import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches import labels
from matches.labels import label
from matches.models import Decision, Match, open_decision
from matches.play import pitch
from matches.services import actors_for, default_answer, is_match_gm, load_state
from matches.thread.page import describe, thread
from matches.thread.sentences import Names, choice_label, named
from rules.engine import Declaration, MatchState, legal, legal_actions, options, preview
from rules.engine.board import NAMES
from rules.engine.lineup import SETUP_PHASES, setups_awaited
from rules.engine.ruleset import ruleset_for

TEAM_ACTIONS = ("end_turn", "claim_blitz")


@dataclass
class Plan:
    """The declaration being built on the pitch (the hidden inputs pitch.js fills)."""

    player: str = ""
    action: str = ""
    path: list[str] = field(default_factory=list)
    target: str = ""
    placements: dict[str, str] = field(default_factory=dict)
    picked: str = ""

    def declaration(self, mode: str) -> Declaration:
        if mode == "setup":
            return Declaration(None, "setup", placements=tuple(sorted(self.placements.items())))
        if mode == "kick":
            return Declaration(None, "kick", target=self.target or None)
        return Declaration(self.player, self.action, tuple(self.path), self.target or None)

    def encoded_placements(self) -> str:
        return ",".join(f"{pid}:{sq}" for pid, sq in sorted(self.placements.items()))


def awaited(state: MatchState) -> list[tuple[str, str]]:
    """(TEAM:SIDE, what) pairs: who the match waits for, and for what."""
    if state.phase == "finished":
        return []
    if state.pending is not None:
        return [(state.pending.to, state.pending.kind)]
    rs = ruleset_for(state)
    if state.phase == "kickoff":
        return [(f"{state.kicking}:captain", "kick")]
    if state.phase in SETUP_PHASES:
        return [(f"{team}:{side}", "setup") for team, side in setups_awaited(state, rs.sides())]
    if state.phase in ("play", "blitz"):
        ended = state.teams[state.active].ended
        return [(f"{state.active}:{s}", "turn") for s in rs.sides() if s not in ended]
    return []


def mode_for(state: MatchState, actors: list[str], in_play: bool) -> tuple[str, list[str]]:
    """What this reader does now: decision, setup, kick, play or nothing (""), as whom."""
    if not in_play:
        return "", []
    mine = [(a, what) for a, what in awaited(state) if a in actors]
    if not mine:
        return "", []
    what = mine[0][1]
    acting = [a for a, w in mine if w == what]
    if state.pending is not None:
        return "decision", acting
    if what in ("setup", "kick"):
        return what, acting[:1]
    return "play", acting


def controller(state: MatchState, pid: str) -> str:
    p = state.players[pid]
    return f"{p.team}:{p.side if state.house_rules else 'captain'}"


def plan_view(
    state: MatchState, mode: str, actors: list[str], plan: Plan, names: Names
) -> dict[str, Any]:
    """The plan panel and the pitch overlay for this plan, with the engine's word on it, the
    players named as a person reads them."""
    out: dict[str, Any] = {"plan": plan, "mode": mode, "problem": "", "rolls": [], "overall": None}
    out["selected_name"] = names.player(plan.player) if plan.player else ""
    out["target_name"] = names.player(plan.target) if plan.target in names.lineup else plan.target
    out["picked_name"] = names.player(plan.picked) if plan.picked else ""
    out["key"] = secrets.token_hex(8)
    # The side the set-up is posted for: a captain who also holds the rival's side (no rival
    # coach) posts each side's set-up in turn, the one the match waits for.
    out["setup_side"] = actors[0].partition(":")[2] if actors and mode == "setup" else ""
    if mode == "setup":
        return {**out, **_setup_view(state, actors[0], plan)}
    if mode == "kick":
        if plan.target:
            problem = legal(state, actors[0], plan.declaration(mode))
            out["problem"] = named(names, problem.message) if problem else ""
        out["ready"] = bool(plan.target) and not out["problem"]
        out["marks"] = _marks([], plan.target)
        return out
    if mode != "play" or plan.player not in state.players:
        out["marks"] = []
        return out
    actor = controller(state, plan.player)
    if actor not in actors:
        out["problem"] = str(labels.ERRORS["not_your_player"])
        out["marks"] = []
        return out
    actions = legal_actions(state, actor, plan.player)
    if plan.action not in actions:
        plan.action = actions[0] if actions else ""
        plan.path, plan.target = (plan.path if plan.action == "move" else []), ""
    out["actions"] = [(a, label(labels.ACTIONS, a)) for a in actions]
    out["actor"] = actor
    if not plan.action:
        out["problem"] = str(labels.ERRORS["player_cannot_act"])
        out["marks"] = []
        return out
    decl = plan.declaration(mode)
    entries = preview(state, actor, decl)
    rolls = [e for e in entries if e["roll"] != "overall"]
    out["rolls"] = [_roll_entry(e) for e in rolls]
    out["overall"] = round(100 * entries[-1]["chance"])
    problem = legal(state, actor, decl)
    if problem is not None and (plan.path or plan.target):
        out["problem"] = named(names, problem.message)
        out["problem_code"] = label(labels.ERRORS, problem.code)
    out["ready"] = problem is None
    out["marks"] = _marks(plan.path, plan.target, state, rolls)
    if not plan.path and not plan.target:
        out["marks"] = _reach_marks(state, actor, plan) + out["marks"]
    return out


# The shades of a reachable square by the chance of its safest path: sure, likely, even, long.
RISK = ((0.999, "sure"), (0.8, "likely"), (0.5, "even"), (0.0, "long"))


def _reach_marks(state: MatchState, actor: str, plan: Plan) -> list[dict[str, Any]]:
    """Before any click: the squares the selected player can reach, shaded by the chance of
    the safest path there, and for a Block or Blitz its targets with their block dice (a
    minus sign: the defender's coach chooses the die)."""
    po = options(state, actor).player(plan.player)
    me = state.players[plan.player]
    own = NAMES[me.at] if me.at is not None else ""
    marks = []
    if po.reach is not None and plan.action in ("move", "blitz", "foul", "pass", "hand_off"):
        for sq, chance in po.reach.squares.items():
            if sq == own:
                continue
            risk = next(name for floor, name in RISK if chance >= floor)
            x, y = pitch.square_xy(sq)
            odds = f"{round(chance * 100)}%"  # what a screen reader hears of the square
            marks.append(
                {"square": sq, "x": x, "y": y, "kind": f"reach {risk}", "step": None, "odds": odds}
            )
    targets = {"block": po.block, "blitz": po.blitz}.get(plan.action, ())
    for t in targets:
        at = state.players[t.player].at
        if at is None:
            continue
        sq = NAMES[at]
        x, y = pitch.square_xy(sq)
        dice = f"{'-' if t.chooser == 'defender' else ''}{t.dice}D"
        said = _("%(n)s dice, %(who)s chooses") % {  # the target token's spoken name adds it
            "n": t.dice,
            "who": _("attacker") if t.chooser == "attacker" else _("defender"),
        }
        mark = {"square": sq, "x": x, "y": y, "kind": "dice", "step": None, "dice": dice}
        marks.append(mark | {"dice_said": said})
    return marks


def _roll_entry(e: dict[str, Any]) -> dict[str, Any]:
    mods = sum((e.get("modifiers") or {}).values())
    if e["roll"] == "block":
        need = _("%(n)s dice, %(who)s chooses") % {
            "n": e["dice"],
            "who": _("attacker") if e["chooser"] == "attacker" else _("defender"),
        }
    elif e["roll"] == "armour":
        need = _("%(target)s+ vs AV %(av)s") % {"target": e["target"], "av": e["target"] - 1}
        need += f" ({mods:+d})" if mods else ""
    else:
        need = f"{e['target']}+" + (f" ({mods:+d})" if mods else "")
    return {
        "square": e.get("square") or "",
        "roll": label(labels.PURPOSES, e["roll"]),
        "need": need,
        "chance": round(100 * e["chance"]),
        "meaning": str(CHANCE_MEANS.get(e["roll"], "")),
        "sent_off": round(100 * e["sent_off"]) if "sent_off" in e else None,
    }


# What a roll's chance is the chance of, where "success" would not say it.
CHANCE_MEANS = {"block": gettext_lazy("no turnover"), "armour": gettext_lazy("armour broken")}


def _marks(
    path: list[str],
    target: str,
    state: MatchState | None = None,
    rolls: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Squares drawn on the overlay: the path (numbered, with the chance of its rolls) and the
    target."""
    marks = []
    for i, sq in enumerate(path, start=1):
        here = [r for r in rolls or [] if r.get("square") == sq and r["roll"] != "block"]
        chance = 1.0
        for r in here:
            chance *= r["chance"]
        x, y = pitch.square_xy(sq)
        marks.append(
            {
                "square": sq,
                "x": x,
                "y": y,
                "step": i,
                "kind": "step risky" if here else "step",
                "chance": round(100 * chance) if here else None,
            }
        )
    if target:
        sq = target
        if state is not None and target in state.players:
            at = state.players[target].at
            sq = "" if at is None else NAMES[at]
        if sq:
            x, y = pitch.square_xy(sq)
            marks.append({"square": sq, "x": x, "y": y, "kind": "target", "step": None})
    return marks


def _setup_view(state: MatchState, actor: str, plan: Plan) -> dict[str, Any]:
    team, _sep, side = actor.partition(":")
    split = state.house_rules
    mine = [
        p
        for p in sorted(state.players.values(), key=lambda p: p.number or 0)
        if p.team == team and (not split or p.side == side) and p.state != "casualty"
    ]
    if not plan.placements and not plan.picked:
        plan.placements = {p.id: NAMES[p.at] for p in mine if p.at is not None}
    available = [p for p in mine if p.state in ("reserves", "standing") and not p.collapsed]
    problem = legal(state, actor, plan.declaration("setup"))
    tokens = []
    for pid, sq in sorted(plan.placements.items()):
        if pid not in state.players:
            continue
        x, y = pitch.square_xy(sq)
        p = state.players[pid]
        tokens.append(
            {"id": pid, "number": p.number, "x": x + 15, "y": y + 15, "picked": pid == plan.picked}
        )
    return {
        "problem": problem.message if problem else "",
        "ready": problem is None,
        "reserves": [p for p in available if p.id not in plan.placements],
        "placed_count": len(plan.placements),
        "setup_tokens": tokens,
        "setup_team": team,
        "marks": [],
    }


def markers(match: Match, state: MatchState, names: Names) -> dict[str, Any]:
    teams = {}
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        t = state.teams[key]
        teams[key] = {
            "key": key,
            "team": team,
            "score": state.score[key],
            "turn": state.turn[key],
            "rerolls": t.rerolls,
            "reroll_used": t.reroll_used,
            "active": state.active == key and state.phase in ("play", "blitz"),
        }
    waiting = [
        {
            "who": names.actor(actor),
            "what": _waiting_label(what),
            "coach": _coach(match, actor),
        }
        for actor, what in awaited(state)
    ]
    return {
        "teams": [teams["home"], teams["away"]],
        "half": state.half,
        "weather": label(labels.WEATHER, state.weather),
        "phase": label(labels.PHASES, state.phase),
        "waiting": waiting,
    }


def _waiting_label(what: str) -> str:
    if what == "turn":
        return _("to play its turn")
    if what == "setup":
        return _("to set up")
    if what == "kick":
        return _("to kick off")
    return label(labels.DECISIONS, what)


def _coach(match: Match, actor: str) -> str:
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    user = team.captain if side == "captain" or team.rival is None else team.rival
    return user.username


def decision_view(
    match: Match,
    row: Decision | None,
    state: MatchState,
    names: Names,
    actors: list[str],
    is_gm: bool,
) -> dict[str, Any] | None:
    """The pending decision, for its addressee (with buttons) or the GM (to read)."""
    pending = state.pending
    if pending is None or not (pending.to in actors or is_gm):
        return None
    options = []
    for option in pending.options:
        square = ""
        if pending.kind == "push":
            square = str(option)
        options.append(
            {
                "value": option,
                "label": choice_label(pending.kind, option, names),
                "square": square,
                "face": option if pending.kind == "block_die" else None,
            }
        )
    rolled = []
    if row is not None:
        rolled = [
            line
            for e in row.preview
            if (line := describe(names, e["type"], {k: v for k, v in e.items() if k != "type"}))
        ]
    marks = []
    if pending.kind == "push":
        for option in pending.options:
            x, y = pitch.square_xy(str(option))
            marks.append({"square": option, "x": x, "y": y, "kind": "push", "step": None})
    return {
        "kind": pending.kind,
        "question": label(labels.DECISIONS, pending.kind),
        "to": names.actor(pending.to),
        "mine": pending.to in actors,
        "options": options,
        "default": choice_label(pending.kind, default_answer(match, pending), names),
        "deadline": row.deadline_at if row else None,
        "rolled": rolled,
        "marks": marks,
        "key": secrets.token_hex(8),
    }


def page_context(
    match: Match,
    user: Any,
    plan: Plan | None = None,
    *,
    before: int | None = None,
    since: int | None = None,
) -> dict[str, Any]:
    """Everything the live part of the match page needs, for this reader: the latest page of
    the thread, the page before post ``before``, or every post from ``since`` on."""
    state = load_state(match)
    actors = actors_for(match, user)
    is_gm = is_match_gm(match, user)
    names = Names(match)
    mode, acting = mode_for(state, actors, match.status == Match.Status.IN_PLAY)
    row = open_decision(match)
    decision = decision_view(match, row, state, names, actors, is_gm)
    plan = plan or Plan()
    planned = plan_view(state, mode, acting, plan, names)
    hide = set(plan.placements) if mode == "setup" else set()
    team_names = {"home": match.home_team.name, "away": match.away_team.name}
    board = pitch.pitch_view(
        state.to_json(), actors, names.lineup, hide=hide, team_names=team_names
    )
    if mode == "play":
        board["tokens"] = [
            replace(t, actions=" ".join(legal_actions(state, controller(state, t.id), t.id)))
            if t.mine
            else t
            for t in board["tokens"]
        ]
    board["tokens_svg"] = pitch.tokens_svg(board["tokens"], plan.player)
    marks = planned.get("marks", []) + (decision["marks"] if decision and decision["mine"] else [])
    return {
        **planned,
        "match": match,
        "state": state,
        "actors": actors,
        "is_gm": is_gm,
        "mode": mode,
        "acting": acting,
        "team_actions": _team_actions(state, acting) if mode == "play" else [],
        "markers": markers(match, state, names),
        "pitch": board,
        "marks": marks,
        "dugouts": pitch.dugouts(state, names.lineup, match),
        "decision": decision,
        "open_decision": row,
        "thread": thread(match, before=before, since=since),
        "may_write": bool(actors) or is_gm,
    }


def _team_actions(state: MatchState, acting: list[str]) -> list[dict[str, str]]:
    out = []
    for actor in acting:
        side = actor.partition(":")[2]
        for action in TEAM_ACTIONS:
            if legal(state, actor, Declaration(None, action)) is None:
                out.append({"action": action, "side": side, "label": label(labels.ACTIONS, action)})
    return out
