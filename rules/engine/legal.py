"""Validation, kept apart from resolution: ``legal`` returns an IllegalAction or None."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Actor, Answer, Declaration, IllegalAction
from .board import NAMES, NEIGHBOURS, adjacent, distance, parse_square, pass_band
from .context import CAPTAIN_KINDS, offered
from .core import gfi_limit, in_half, move_budget
from .lineup import setup_problem, team_complete
from .ruleset import LRB5, ruleset_for
from .state import PLAY_PHASES, MatchState, Pending, Player, other

_E = IllegalAction


def _actor(actor: Actor | str) -> Actor:
    return Actor.parse(actor) if isinstance(actor, str) else actor


def legal(state: MatchState, actor: Actor | str, declaration: Declaration) -> IllegalAction | None:
    act = Actor.parse(actor) if isinstance(actor, str) else actor  # ``_actor``, inlined
    rs = ruleset_for(state)
    d = declaration
    action = d.action  # (the fields read more than once are read once: random play's hot path)
    if state.pending is not None:
        return _E(
            "decision_pending",
            f"A {state.pending.kind} decision awaits {state.pending.to}; answer it first.",
        )
    if state.phase not in PLAY_PHASES or action in MATCH_ACTIONS:
        return _match_legal(state, act, rs, d)
    if act.team != state.active:
        return _E("not_your_turn", f"It is the {state.active} team's turn.")
    team = state.teams[act.team]
    if rs.side_of(act.side) in team.ended:
        return _E("not_your_turn", f"The {act.side}'s side has already ended its turn.")
    if action == "end_turn":
        return None
    if action == "claim_blitz":
        if not rs.may_claim_blitz():
            return _E("player_cannot_act", "Claiming the Blitz is a split-team house rule.")
        if act.side != "rival":
            return _E("not_your_player", "The Blitz already belongs to the captain's side.")
        if team.blitz_used or team.blitz_claimed or team.blitz_side == "rival":
            return _E("blitz_used", "The Blitz of this team turn was already used or claimed.")
        return None
    p = None if d.player is None else state.players.get(d.player)
    if p is None:
        return _E("not_your_player", f"There is no player {d.player!r}.")
    if not rs.controls(act.team, act.side, p):
        if p.team != act.team:
            return _E("not_your_player", f"{p.id} plays for the {p.team} team.")
        return _E("not_your_player", f"{p.id} belongs to the {p.side}'s side.")
    if p.acted:
        return _E("player_cannot_act", f"{p.id} has already acted this turn.")
    at = p.at
    if at is None or (p.state != "standing" and p.state != "prone"):
        return _E("player_cannot_act", f"{p.id} is {p.state} and cannot act.")
    skills = p.skills
    if action == "block" and p.state != "standing" and "Jump Up" not in skills:
        return _E("player_cannot_act", f"{p.id} is prone and cannot block.")
    if action in _LIMITED:
        allowance = _allowance(rs, state, act, d)
        if allowance is not None:
            return allowance
    if (
        action == "bomb"
        or d.facings
        or d.target2 is not None
        or d.stab
        or d.gaze is not None
        or "Ball & Chain" in skills
    ):
        special = _part3(state, p, d)
        if special is not None or action == "bomb":
            return special
    path = d.path
    then = d.then
    if path:  # (an empty path is always fine)
        if action == "block":
            return _E("path_illegal", "A Block has no movement; declare a Blitz to move first.")
        err = _path(state, p, path)
        if err is not None:
            return err
    extra = (1 if action == "blitz" else 0) + len(then)
    if path and "Leap" in skills:
        extra += _leaps(p, path)
    if len(path) + extra > move_budget(p):
        return _E(
            "too_far",
            f"{p.id} can enter at most {move_budget(p)} squares "
            f"(MA {p.ma}{', standing up' if p.state == 'prone' else ''}).",
        )
    end = parse_square(path[-1]) if path else at
    if action in _TARGETED:
        return _target(state, p, d, end)
    if action == "pass":
        return _pass_target(state, p, d, end)
    if d.throw is not None:
        return _E("target_illegal", "Only a pass throws a team-mate.")
    if then:
        return _E("path_illegal", "Only a Blitz continues with 'then' squares.")
    if d.target is not None:
        return _E("target_illegal", f"A {action} has no target.")
    return None


_TARGETED = frozenset(("block", "blitz", "foul", "hand_off"))  # the ones ``_target`` checks
_LIMITED = frozenset(("blitz", "foul", "pass", "hand_off"))  # the ones ``_allowance`` limits
MATCH_ACTIONS = frozenset(("start_match", "pregame_weather", "setup", "kick", "concede"))


def _match_legal(state: MatchState, act: Actor, rs: LRB5, d: Declaration) -> IllegalAction | None:
    """Declarations outside the team turns: pregame_weather, start_match, setup, kick,
    concede."""
    phase = state.phase
    wanted = {
        "pregame": "start_match",
        "setup": "setup",
        "perfect_defence": "setup",
        "quick_snap": "setup",
        "kickoff": "kick",
        "play": "concede",
    }.get(phase)
    if phase == "pregame" and d.action == "pregame_weather":
        if state.weather_rolled:
            return _E("wrong_phase", "The pre-match weather was already rolled.")
        return None
    if phase == "finished" or d.action != wanted:
        return _E("wrong_phase", f"A {d.action} cannot be declared in the {phase} phase.")
    if d.action == "start_match":
        return None
    if d.action == "concede":
        tm = state.teams[act.team]
        if act.team != state.active:
            return _E("not_your_turn", "A team concedes at the start of one of its turns.")
        if rs.captain(act.team) != f"{act.team}:{rs.side_of(act.side)}":
            return _E("not_captain", "Only the captain concedes the match.")
        if tm.ended or any(p.acted for p in state.players.values() if p.team == act.team):
            return _E("wrong_phase", "A team concedes only at the start of its turn.")
        return None
    if d.action == "kick":
        if act.team != state.kicking:
            return _E("not_your_turn", f"The {state.kicking} team kicks off.")
        if rs.captain(act.team) != f"{act.team}:{rs.side_of(act.side)}":
            return _E("not_captain", "The captain places the kick.")
        try:
            sq = parse_square(d.target or "")
        except ValueError:
            return _E("target_illegal", "The kick is aimed at a square.")
        if not in_half(other(state.kicking), sq):
            return _E("target_illegal", "The kick must be aimed at the receiving half.")
        return None
    receiving = other(state.kicking)
    if phase == "setup":
        team = state.kicking if not team_complete(state, state.kicking, rs.sides()) else receiving
    elif phase == "perfect_defence":
        team = state.kicking
    else:
        team = receiving
    if act.team != team:
        return _E("not_your_turn", f"The {team} team sets up now.")
    side = rs.side_of(act.side)
    problem = setup_problem(state, team, side, d, rs.sides())
    if problem is not None:
        return _E("setup_illegal", problem)
    return None


def _allowance(rs: LRB5, state: MatchState, act: Actor, d: Declaration) -> IllegalAction | None:
    team = state.teams[act.team]
    if d.action == "blitz" and not rs.blitz_free(team, act.side):
        if team.blitz_used:
            return _E("blitz_used", "The team has already blitzed this turn.")
        return _E("blitz_used", f"The Blitz of this turn belongs to the {team.blitz_side}'s side.")
    if d.action == "foul" and not rs.foul_free(team, act.side):
        return _E("foul_used", "This side has already fouled this turn.")
    if d.action == "pass" and team.pass_used:
        return _E("pass_used", "The team has already passed this turn.")
    if d.action == "hand_off" and team.hand_off_used:
        return _E("hand_off_used", "The team has already handed off this turn.")
    return None


def _leaps(p: Player, path: tuple[str, ...]) -> int:
    """Leaps in a path (each costs one square more)."""
    if not path or p.at is None or "Leap" not in p.skills:
        return 0
    n = 0
    cur = p.at
    for name in path:
        try:
            sq = parse_square(name)
        except ValueError:
            return 0
        if distance(cur, sq) == 2:
            n += 1
        cur = sq
    return n


def _path(state: MatchState, p: Player, path: tuple[str, ...]) -> IllegalAction | None:
    assert p.at is not None
    if p.rooted and path:
        return _E("path_illegal", f"{p.id} has taken root and cannot move.")
    cur = p.at
    leapt = False
    board = state.board
    for name in path:
        try:
            sq = parse_square(name)
        except ValueError:
            return _E("path_illegal", f"{name!r} is not a square of the pitch.")
        if adjacent(cur, sq):
            pass
        elif "Leap" in p.skills and not leapt and distance(cur, sq) == 2:
            leapt = True
        else:
            return _E("path_illegal", f"{NAMES[sq]} is not next to {NAMES[cur]}.")
        occ = board.get(sq)
        if occ is not None and occ != p.id:
            return _E("path_illegal", f"{NAMES[sq]} is occupied by {occ}.")
        cur = sq
    return None


def _target(state: MatchState, p: Player, d: Declaration, end: int) -> IllegalAction | None:
    if d.target is None or d.target not in state.players:
        return _E("target_illegal", f"A {d.action} needs a target player.")
    t = state.players[d.target]
    if t.at is None or not adjacent(end, t.at):
        return _E("target_illegal", f"{d.target} is not next to {NAMES[end]}.")
    if d.action in ("block", "blitz"):
        if t.team == p.team or t.state != "standing":
            return _E("target_illegal", f"{d.target} is not a standing opponent.")
        if d.then:
            cur = None
            for name in d.then:
                try:
                    sq = parse_square(name)
                except ValueError:
                    return _E("path_illegal", f"{name!r} is not a square of the pitch.")
                if cur is None:
                    if not (adjacent(end, sq) or adjacent(t.at, sq) or sq == t.at):
                        return _E("path_illegal", f"{NAMES[sq]} cannot follow the block.")
                elif not adjacent(cur, sq):
                    return _E("path_illegal", f"{NAMES[sq]} is not next to {NAMES[cur]}.")
                cur = sq
        return None
    if d.then:
        return _E("path_illegal", "Only a Blitz continues with 'then' squares.")
    if d.action == "foul":
        if t.team == p.team or t.state not in ("prone", "stunned"):
            return _E("target_illegal", f"{d.target} is not an opponent on the ground.")
        return None
    if t.state != "standing" or t.id == p.id:
        return _E("target_illegal", f"{d.target} cannot take a hand-off.")
    return None


def _pass_target(state: MatchState, p: Player, d: Declaration, end: int) -> IllegalAction | None:
    if d.then:
        return _E("path_illegal", "Only a Blitz continues with 'then' squares.")
    if d.target is None:
        return _E("target_illegal", "A pass needs a target: a player or a square.")
    if d.throw is not None:
        return _throw_target(state, p, d, end)
    if d.target in state.players:
        t = state.players[d.target]
        if t.id == p.id or t.at is None:
            return _E("target_illegal", f"{d.target} cannot be passed to.")
        to = t.at
    else:
        try:
            to = parse_square(d.target)
        except ValueError:
            return _E("target_illegal", f"{d.target!r} is neither a player nor a square.")
        if to == end:
            return _E("target_illegal", "A pass cannot be aimed at the thrower's own square.")
    band = pass_band(end, to)
    if band is None:
        if "Hail Mary Pass" not in p.skills:
            return _E("too_far", f"{NAMES[to]} is beyond Long Bomb range.")
        if state.weather == "blizzard":
            return _E("too_far", "No Hail Mary Pass in a blizzard.")
        return None
    if state.weather == "blizzard" and band[0] not in ("quick", "short"):
        return _E("too_far", "Only Quick and Short passes in a blizzard.")
    return None


def _throw_target(state: MatchState, p: Player, d: Declaration, end: int) -> IllegalAction | None:
    assert d.throw is not None and d.target is not None
    if "Throw Team-Mate" not in p.skills:
        return _E("target_illegal", f"{p.id} has no Throw Team-Mate.")
    t = state.players.get(d.throw)
    if (
        t is None
        or t.team != p.team
        or t.id == p.id
        or "Right Stuff" not in t.skills
        or t.at is None
        or t.state != "standing"
        or not adjacent(end, t.at)
    ):
        return _E("target_illegal", f"{d.throw} cannot be thrown.")
    try:
        to = parse_square(d.target)
    except ValueError:
        return _E("target_illegal", "A thrown team-mate is aimed at a square.")
    band = pass_band(end, to)
    if band is None or band[0] not in ("quick", "short"):
        return _E("too_far", "A team-mate is thrown at Quick or Short range only.")
    return None


def check_answer(
    state: MatchState, pending: Pending | None, actor: Actor | str, answer: Answer
) -> IllegalAction | None:
    """May ``actor`` give ``answer`` to the pending decision?"""
    act = _actor(actor)
    if pending is None:
        return _E("no_decision_pending", "No decision is pending.")
    rs = ruleset_for(state)
    if not rs.accepts(pending.to, str(act)):
        to_team = pending.to.split(":")[0]
        if act.team == to_team and pending.kind in CAPTAIN_KINDS:
            return _E("not_captain", f"Only the captain answers a {pending.kind} decision.")
        return _E("not_your_player", f"This decision is for {pending.to}.")
    if answer.kind != pending.kind:
        return _E(
            "choice_illegal", f"The pending decision is a {pending.kind}, not a {answer.kind}."
        )
    if not offered(answer.choice, pending.options):
        return _E("choice_illegal", f"{answer.choice!r} is not one of {pending.options}.")
    return None


def legal_declarations(state: MatchState, actor: Actor | str) -> Iterator[Declaration]:
    """A lazy sample of legal declarations for random play: for each player, staying put,
    single-step paths and short walks, blocks, blitzes and fouls on neighbours; then
    claim_blitz and end_turn. Every yielded declaration passes ``legal``."""
    act = _actor(actor)
    if state.pending is not None or act.team != state.active:
        return
    for p in state.players.values():
        if p.team != act.team or p.at is None:
            continue
        for d in _player_candidates(state, p):
            if legal(state, act, d) is None:
                yield d
    claim = Declaration(None, "claim_blitz")
    if legal(state, act, claim) is None:
        yield claim
    yield Declaration(None, "end_turn")


def _player_candidates(state: MatchState, p: Player) -> Iterator[Declaration]:
    assert p.at is not None
    yield Declaration(p.id, "move")
    free = [s for s in NEIGHBOURS[p.at] if s not in state.board]
    for s in free:
        yield Declaration(p.id, "move", (NAMES[s],))
        for s2 in NEIGHBOURS[s]:
            if s2 not in state.board and s2 != p.at:
                yield Declaration(p.id, "move", (NAMES[s], NAMES[s2]))
                break
    for s in NEIGHBOURS[p.at]:
        oid = state.board.get(s)
        if oid is None:
            continue
        o = state.players[oid]
        if o.team == p.team:
            yield Declaration(p.id, "hand_off", (), oid)
            continue
        yield Declaration(p.id, "block", (), oid)
        yield Declaration(p.id, "blitz", (), oid)
        yield Declaration(p.id, "foul", (), oid)
    for s in free:
        for s2 in NEIGHBOURS[s]:
            oid = state.board.get(s2)
            if oid is not None and state.players[oid].team != p.team and s2 != p.at:
                yield Declaration(p.id, "blitz", (NAMES[s],), oid)
                yield Declaration(p.id, "foul", (NAMES[s],), oid)


def _part3(state: MatchState, p: Player, d: Declaration) -> IllegalAction | None:
    """The part-3 declaration fields (rules/scenarios/README.md): Ball & Chain's facings,
    Bombardier's bomb, Multiple Block's target2, Stab, Hypnotic Gaze."""
    assert p.at is not None
    if "Ball & Chain" in p.skills:
        if d.action != "move":
            return _E("player_cannot_act", f"{p.id} has a Ball & Chain: its only action is Move.")
        if d.path or d.gaze is not None:
            return _E("path_illegal", "A Ball & Chain player's squares are rolled, not chosen.")
        if d.facings:
            left = max(p.ma - (3 if p.state == "prone" else 0), 0)
            if not left <= len(d.facings) <= left + gfi_limit(p):
                return _E("too_far", f"{p.id} moves all its {left} squares, plus Going For It.")
        return None
    if d.facings:
        return _E("path_illegal", "Only a Ball & Chain player declares facings.")
    if d.action == "bomb":
        if "Bombardier" not in p.skills:
            return _E("player_cannot_act", f"{p.id} has no bombs.")
        if p.state != "standing" or d.path:
            return _E("path_illegal", "A Bombardier neither stands up nor moves to throw a bomb.")
        try:
            to = parse_square(d.target or "")
        except ValueError:
            return _E("target_illegal", "A bomb is thrown at a square.")
        band = pass_band(p.at, to)
        if to == p.at or band is None or band[0] not in ("quick", "short"):
            return _E("too_far", "A bomb is thrown at Quick or Short range.")
        return None
    if d.target2 is not None:
        if (
            d.action != "block"
            or "Multiple Block" not in p.skills
            or "Chainsaw" in p.skills
            or d.stab
        ):
            return _E("target_illegal", "Only a Multiple Block's Block has a second target.")
        if p.state != "standing":
            return _E("player_cannot_act", f"{p.id} must be standing for a Multiple Block.")
        t2 = state.players.get(d.target2)
        if (
            t2 is None
            or d.target2 == d.target
            or t2.team == p.team
            or t2.state != "standing"
            or t2.at is None
            or not adjacent(p.at, t2.at)
        ):
            return _E("target_illegal", f"{d.target2} is not a second standing opponent nearby.")
    if d.stab:
        if d.action not in ("block", "blitz") or "Stab" not in p.skills:
            return _E("target_illegal", f"{p.id} cannot stab.")
        if d.then:
            return _E("path_illegal", "A player who stabs moves no further.")
    if d.gaze is not None:
        if d.action != "move" or "Hypnotic Gaze" not in p.skills:
            return _E("target_illegal", "Only a Hypnotic Gaze player's Move ends with a gaze.")
        end = parse_square(d.path[-1]) if d.path and _path(state, p, d.path) is None else p.at
        g = state.players.get(d.gaze)
        if (
            g is None
            or g.team == p.team
            or g.state != "standing"
            or g.at is None
            or not adjacent(end, g.at)
        ):
            return _E(
                "target_illegal", f"{d.gaze} is not a standing opponent next to {NAMES[end]}."
            )
    return None
