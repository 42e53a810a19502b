"""Resolution: a declaration, the answers given so far and the dice -> a new state, the events
and maybe a pending decision. Nothing half-done is ever stored: when a decision is needed the
returned state is the input state (a copy) with only ``pending`` set; the caller resolves the
same declaration again from the same state with one more answer, reading the same dice.

Here: the entry point, a player's activation and action, the end of a team turn. The engine
stands in layers, each importing only from those below it (the import-linter contract in
pyproject.toml keeps it so): ``resolve`` over ``flow`` (the match around the team turns, with
``lineup`` for the set-ups) over the actions (``foul``, ``specials``, ``blocking``, ``moving``
and ``passing``) over ``injury``, ``ball`` and ``context`` (one resolution's dice, decisions
and rerolls)."""

from __future__ import annotations

from . import flow, specials
from .actions import Actor, Answer, Declaration, IllegalAction, Resolution
from .ball import flush_loose
from .board import NAMES, NEIGHBOURS, adjacent, parse_square, parse_squares, xy
from .context import Ctx, InvalidAnswer, Mover, Policy, Stop, Watch, d6_roll, offer_reroll
from .core import end_zone_of_opponent
from .dice import Dice
from .foul import foul
from .injury import fall
from .moving import need_square, stand_up, walk
from .passing import hand_off_ball, pass_ball, throw_team_mate
from .state import PLAY_PHASES, MatchState, Player, other

# ------------------------------------------------------------------------------------------
# Actions


_ACTIVATION = frozenset(("Bone-Head", "Really Stupid", "Wild Animal", "Take Root", "Blood Lust"))


def _activation(ctx: Ctx, p: Player, decl: Declaration) -> bool:
    """Bone-Head, Really Stupid, Wild Animal, Take Root, Blood Lust. False when the action is
    lost."""
    if p.skills.isdisjoint(_ACTIVATION):
        return True
    if "Bone-Head" in p.skills and not d6_roll(ctx, "bone_head", p, 2, {}, agility=False):
        ctx.mp(p.id).no_tz = True
        return False
    if "Really Stupid" in p.skills:
        helper = p.at is not None and any(
            (q := ctx.st.players[ctx.st.board[s]]).team == p.team
            and q.state == "standing"
            and "Really Stupid" not in q.skills
            for s in NEIGHBOURS[p.at]
            if s in ctx.st.board
        )
        if not d6_roll(ctx, "really_stupid", p, 2 if helper else 4, {}, agility=False):
            ctx.mp(p.id).no_tz = True
            return False
    if "Wild Animal" in p.skills:
        mods = {"block": 2} if decl.action in ("block", "blitz") else {}
        if not d6_roll(ctx, "wild_animal", p, 4, mods, agility=False):
            return False
    if "Blood Lust" in p.skills and not d6_roll(ctx, "blood_lust", p, 2, {}, agility=False):
        ctx.feed = p.id  # the action goes on; the Vampire must feed at its end
    if "Take Root" in p.skills and not p.rooted:
        face = ctx.roll(6)
        rooted = face == 1
        ctx.ev(
            "take_root",
            purpose="take_root",
            player=p.id,
            target=2,
            modifiers={},
            faces=[face],
            result="failure" if rooted else "success",
        )
        if rooted and offer_reroll(ctx, ctx.st.players[p.id], "take_root"):
            face = ctx.roll(6)
            rooted = face == 1
            ctx.ev(
                "take_root",
                purpose="take_root",
                player=p.id,
                target=2,
                modifiers={},
                faces=[face],
                result="failure" if rooted else "success",
                reroll=True,
            )
        if rooted:
            ctx.mp(p.id).rooted = True
            if decl.action == "blitz":  # LRB5: "he may not block that turn"
                return False
    return True


def _do_player_action(ctx: Ctx, decl: Declaration) -> None:
    st = ctx.st
    assert decl.player is not None
    pid = decl.player
    ctx.acting = pid
    team = st.teams[st.players[pid].team]
    p = ctx.mp(pid)
    p.acted = True
    p.no_tz = False
    action = decl.action
    if action == "move":  # (the usual action: no allowance to count)
        pass
    elif action == "blitz":
        team.blitz_used = True
    elif action == "foul":
        key = ctx.rs.foul_key(p.side)
        team.fouls_used[key] = team.fouls_used.get(key, 0) + 1
    elif action == "hand_off":
        team.hand_off_used = True
    elif action == "pass":
        team.pass_used = True
    if ctx.record:
        ctx.ev("action", player=pid, action=action)
    if not _activation(ctx, p, decl):
        return
    _act(ctx, decl)
    if ctx.feed is not None:
        specials.feed(ctx)


def _act(ctx: Ctx, decl: Declaration) -> None:
    st = ctx.st
    assert decl.player is not None
    pid = decl.player
    action = decl.action
    mv = Mover(pid)
    ctx.mover = mv
    me = st.players[pid]
    if action == "bomb":
        assert decl.target is not None
        specials.bomb(ctx, pid, parse_square(decl.target))
        return
    if action == "block" and me.state == "prone" and "Jump Up" in me.skills:
        if not specials.jump_up_block(ctx, me):
            return
    elif not stand_up(ctx, mv):
        return
    if "Ball & Chain" in st.players[pid].skills:
        specials.ball_and_chain(ctx, mv, decl.facings)
        return
    path = parse_squares(decl.path)
    if st.players[pid].rooted and path:
        return
    if not walk(ctx, mv, path):
        return
    if action == "block" or action == "blitz":
        assert decl.target is not None
        tgt = st.players[decl.target]
        me = st.players[pid]
        if (
            tgt.at is None
            or me.at is None
            or not adjacent(me.at, tgt.at)
            or tgt.state != "standing"
        ):
            return
        if action == "blitz":
            paid = need_square(ctx, mv)
            if paid == "fell":
                fall(ctx, [pid])
            if paid != "ok":
                return
        if not specials.attack(ctx, pid, decl):
            return
        if action == "blitz" and decl.then and not decl.stab:
            walk(ctx, mv, parse_squares(decl.then))
    elif action == "move":
        if decl.gaze is not None:
            specials.hypnotic_gaze(ctx, pid, decl.gaze)
    elif action == "foul":
        assert decl.target is not None
        foul(ctx, pid, decl.target)
    elif ctx.feed is not None and not specials.feed(ctx):
        return
    elif action == "hand_off":
        assert decl.target is not None
        hand_off_ball(ctx, pid, decl.target)
    elif action == "pass":
        assert decl.target is not None
        if decl.throw is not None:
            throw_team_mate(ctx, pid, decl.throw, decl.target)
        else:
            pass_ball(ctx, pid, decl.target)


def _claim_blitz(ctx: Ctx) -> None:
    st = ctx.st
    team_name = ctx.actor.team
    team = st.teams[team_name]
    team.blitz_claimed = True
    ctx.ev("claim_blitz", team=team_name, by=str(ctx.actor))
    choice = ctx.ask("blitz_claim", ctx.rs.captain(team_name), ["grant", "contest"], "contest")
    if choice == "grant":
        team.blitz_side = "rival"
        ctx.ev("blitz_granted", team=team_name)
        return
    rival = [ctx.roll(6) for _ in range(3)]
    captain = [ctx.roll(6) for _ in range(3)]
    winner = contest_winner(rival, captain)
    ctx.ev(
        "blitz_contest",
        purpose="blitz_contest",
        team=team_name,
        faces=rival + captain,
        rival=rival,
        captain=captain,
        rival_total=sum(rival),
        captain_total=sum(captain) + 2,
        modifiers={"captain": 2},
        result=winner,
    )
    if winner == "rival":
        team.blitz_side = "rival"


def contest_winner(rival: list[int], captain: list[int]) -> str:
    """House rule 1: the rival wins only if 3D6 beats the captain's 3D6 + 2; on equal totals
    both sets sorted high to low, the first higher die wins."""
    r, c = sum(rival), sum(captain) + 2
    if r != c:
        return "rival" if r > c else "captain"
    for a, b in zip(sorted(rival, reverse=True), sorted(captain, reverse=True), strict=True):
        if a != b:
            return "rival" if a > b else "captain"
    return "captain"


# ------------------------------------------------------------------------------------------
# Turns


def _check_touchdown(ctx: Ctx) -> None:
    st = ctx.st
    if st.carrier is None or st.phase not in PLAY_PHASES:
        return
    p = st.players[st.carrier]
    if p.at is None or p.state != "standing":
        return
    if xy(p.at)[0] == end_zone_of_opponent(p.team):
        st.score[p.team] += 1
        ctx.ev("touchdown", player=p.id, team=p.team, at=NAMES[p.at])
        st.carrier = None
        st.ball_at = None
        ctx.turnover = True
        ctx.scored = p.team


def _stunned_turn_prone(ctx: Ctx, team: str) -> None:
    for pid, p in ctx.st.players.items():
        if p.state == "stunned" and p.team == team:  # (the rarer test first)
            _stunned_turn_over(ctx.mp(pid))


def _stunned_turn_over(p: Player) -> None:
    """A stunned player at the end of its team's turn: prone, or still stunned once if it was
    stunned in that very turn."""
    if p.stunned_now:
        p.stunned_now = False
    else:
        p.state = "prone"


def _end_team_turn(ctx: Ctx, nxt: str | None = None) -> None:
    """The active team's turn ends; ``nxt`` (the other team by default) begins its turn,
    unless both teams have played their turns of the half (``ctx.half_over``)."""
    st = ctx.st
    team = st.active
    nxt = other(team) if nxt is None else nxt
    half_over = st.turn["home"] >= 8 and st.turn["away"] >= 8
    # one pass over the players, at every turn (so the team is told apart first): the ending
    # team's stunned players turn prone (as ``_stunned_turn_prone``), the next team's players
    # are ready to act again (the next team is the ending one after a touchdown scored in the
    # other team's turn)
    mp = ctx.mp
    for p in st.players.values():
        if p.team == nxt:
            if nxt == team and p.state == "stunned":
                _stunned_turn_over(mp(p.id))
            if not half_over and (p.acted or p.used or p.stunned_now):
                q = mp(p.id)
                q.acted = False
                q.used = frozenset()
                q.stunned_now = False
        elif p.state == "stunned" and p.team == team:
            _stunned_turn_over(mp(p.id))
    if ctx.record:
        ctx.ev("end_turn", team=team, turnover=ctx.turnover)
    if half_over:
        ctx.half_over = True
        return
    st.active = nxt
    st.turn[nxt] += 1
    t = st.teams[nxt]
    t.reroll_used = t.blitz_used = t.blitz_claimed = t.pass_used = t.hand_off_used = False
    t.blitz_side = "captain"
    t.fouls_used = {"captain": 0, "rival": 0}
    t.ended = frozenset()
    if ctx.record:
        ctx.ev("turn_start", team=nxt, turn=st.turn[nxt])


def _after_action(ctx: Ctx) -> None:
    """Touchdowns, turnovers and the end of the team turn, the drive or the half."""
    st = ctx.st
    if ctx.turnover and ctx.scored is None:
        st.turnover = True
        ctx.ev("turnover", team=st.active)
    elif ctx.turnover:
        st.turnover = True
    if st.phase == "blitz":
        if ctx.scored is None and (ctx.turnover or ctx.rs.turn_over(st, st.active)):
            flow.end_blitz_turn(ctx)
        return
    scorer = ctx.scored
    if scorer is not None:
        if st.half == 3:
            flow.end_drive(ctx, scorer)
            return
        if scorer != st.active:
            st.turn[scorer] += 1
            _end_team_turn(ctx, nxt=st.active)
        else:
            _end_team_turn(ctx)
        flow.end_drive(ctx, scorer)
        return
    if ctx.turnover or ctx.rs.turn_over(st, st.active):
        _end_team_turn(ctx)
        if ctx.half_over:
            flow.clear_pitch(ctx)
            flow.end_half(ctx)


_NOT_PLAYER_ACTIONS = frozenset(
    ("end_turn", "claim_blitz", "start_match", "pregame_weather", "setup", "kick", "concede")
)


def resolve(
    state: MatchState,
    actor: Actor | str,
    declaration: Declaration,
    answers: tuple[Answer, ...],
    dice: Dice,
    policy: Policy | None = None,
    *,
    in_place: bool = False,
    keep_events: bool = True,
    watch: Watch | None = None,
) -> Resolution:
    """Resolve a (legal) declaration. See the module docstring for pending decisions.

    ``policy(pending) -> Answer | None`` is consulted whenever the engine would stop for a
    decision that ``answers`` does not cover: an answer goes on inline, None stops as usual
    (``pending.answers`` then holds the given answers and the policy's). The result is the
    one that stopping and resolving again with the same answers gives: same state, events and
    dice. The policy sees ``kind``, ``to``, ``options``, ``default`` and ``actor`` (the
    declaration is the one passed here).

    ``in_place``: change ``state`` and its players themselves instead of copies, for a caller
    that drops the state it passes (random play). Only with a policy that answers every
    decision: a stop would leave the state half-resolved (RuntimeError). ``keep_events``
    False: no event is kept (``events`` is empty), for a caller that would drop them.
    ``watch(event, state)`` sees each event as it is recorded, with the state at that moment
    (a replay steps through a declaration event by event with it)."""
    act = Actor.parse(actor) if isinstance(actor, str) else actor
    st = state if in_place else state.copy()
    st.pending = None
    st.turnover = False
    ctx = Ctx(st, dice, answers, act, policy, owned=in_place, record=keep_events, watch=watch)
    action = declaration.action
    try:
        if action not in _NOT_PLAYER_ACTIONS:  # a player's action: the usual case first
            _do_player_action(ctx, declaration)
            flush_loose(ctx)
            _check_touchdown(ctx)
            _after_action(ctx)
        elif action == "end_turn":
            team = st.teams[act.team]
            if ctx.rs.split_team:
                team.ended = team.ended | {act.side}
            else:
                team.ended = frozenset(ctx.rs.sides())
            if ctx.record:
                ctx.ev("end_side", team=act.team, side=act.side)
            _after_action(ctx)
        elif action == "claim_blitz":
            _claim_blitz(ctx)
            _after_action(ctx)
        elif action == "start_match":
            flow.start_match(ctx)
        elif action == "pregame_weather":
            flow.pregame_weather(ctx)
        elif action == "setup":
            flow.post_setup(ctx, act.team, ctx.rs.side_of(act.side), declaration)
        elif action == "kick":
            assert declaration.target is not None
            flow.kick(ctx, parse_square(declaration.target))
        else:  # "concede"
            flow.concede(ctx, act.team)
    except Stop as stop:
        if in_place:
            raise RuntimeError("a resolution in place stopped for a decision") from None
        pend = stop.pending
        pend.actor = str(act)
        pend.declaration = declaration.to_json()
        pend.answers = [a.to_json() for a in ctx.answers]
        out = state.copy()
        out.pending = pend
        st.pending = pend
        return Resolution(out, ctx.events, pend, partial=st)
    return Resolution(st, ctx.events, None)


def continue_with(
    state: MatchState, answer: Answer, dice: Dice, policy: Policy | None = None
) -> Resolution:
    """Answer the decision pending in ``state`` (as returned by ``resolve``); ``policy`` as in
    ``resolve`` for the decisions after it."""
    pend = state.pending
    if pend is None or pend.declaration is None:
        raise InvalidAnswer(IllegalAction("no_decision_pending", "No decision is pending."))
    answers = (*(Answer.from_json(a) for a in pend.answers), answer)
    decl = Declaration.from_json(pend.declaration)
    return resolve(state, pend.actor, decl, answers, dice, policy)
