"""The match around the team turns: pre-match rolls, set-ups, the kick-off and its table,
the end of a drive, half time, overtime, the penalty shoot-out and conceding.

Every function here runs inside one resolution (``resolve``) with its ``Ctx``: dice are read
from the stream and decisions asked exactly as in the rest of the engine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import specials
from .actions import Declaration
from .ball import kick_arrive, touchback
from .board import D8, NAMES, NEIGHBOURS, on_pitch, parse_square, square, xy
from .context import Ctx
from .core import enemy_tz, in_half
from .injury import roll_injury
from .lineup import on_los, team_complete, wide_zone
from .state import OFF_PITCH, TEAMS, MatchState, Player, other

TURNS_PER_HALF = 8
WEATHER = {2: "sweltering_heat", 3: "very_sunny", 11: "pouring_rain", 12: "blizzard"}
KICKOFF_TABLE = {
    2: "get_the_ref",
    3: "riot",
    4: "perfect_defence",
    5: "high_kick",
    6: "cheering_fans",
    7: "changing_weather",
    8: "brilliant_coaching",
    9: "quick_snap",
    10: "blitz",
    11: "throw_a_rock",
    12: "pitch_invasion",
}


def _order(p: Player) -> tuple[int, str]:
    return (p.number if p.number is not None else 99, p.id)


def home_first(p: Player) -> tuple[bool, int, str]:
    """The order of rolls for every player: the home team first, each team by ``_order``."""
    return (p.team != "home", p.number if p.number is not None else 99, p.id)


def team_players(st: MatchState, team: str) -> list[Player]:
    return sorted([p for p in st.players.values() if p.team == team], key=_order)


def _d(ctx: Ctx, sides: int, purpose: str, **data: Any) -> int:
    face = ctx.roll(sides)
    ctx.ev(purpose, purpose=purpose, faces=[face], **data)
    return face


def _two(ctx: Ctx) -> tuple[int, int]:
    return ctx.roll(6), ctx.roll(6)


# ------------------------------------------------------------------------------------------
# Pre-match


def pregame_weather(ctx: Ctx) -> None:
    """The pre-match weather roll (2D6) on its own: seed 003 rolls the weather before the
    petty cash and the inducements; ``start_match`` then leaves the weather as it is."""
    st = ctx.st
    a, b = _two(ctx)
    st.weather = WEATHER.get(a + b, "nice")
    st.weather_rolled = True
    ctx.ev("weather", purpose="weather", faces=[a, b], total=a + b, result=st.weather)


def start_match(ctx: Ctx) -> None:
    """Weather (2D6, unless ``pregame_weather`` rolled it), the fans of each team (2D6 + fan
    factor, giving FAME), the coin toss (D6: 1-3 the away team wins it, 4-6 the home team) and
    the winner's choice to kick or receive. Before the match a team's ``fame`` holds its fan
    factor."""
    st = ctx.st
    if not st.weather_rolled:
        pregame_weather(ctx)
    fans: dict[str, int] = {}
    for t in TEAMS:
        a, b = _two(ctx)
        fans[t] = a + b + st.teams[t].fame
        ctx.ev("fans", purpose="fans", team=t, faces=[a, b], total=fans[t])
    for t in TEAMS:
        mine, theirs = fans[t], fans[other(t)]
        st.teams[t].fame = 2 if mine >= 2 * theirs else (1 if mine > theirs else 0)
    toss = ctx.roll(6)
    winner = "away" if toss <= 3 else "home"
    ctx.ev("coin_toss", purpose="coin_toss", faces=[toss], result=winner)
    choice = ctx.ask("kick_or_receive", ctx.rs.captain(winner), ["kick", "receive"], "receive")
    kicking = winner if choice == "kick" else other(winner)
    st.first_kick = kicking
    st.half = 1
    _begin_half(ctx, kicking)


def _begin_half(ctx: Ctx, kicking: str) -> None:
    st = ctx.st
    st.turn = {kicking: 0, other(kicking): 1}
    st.ref_gone = False
    ctx.ev("half_start", half=st.half, kicking=kicking)
    if st.half <= 2:
        master_chefs(ctx)
    new_drive(ctx, kicking)


def master_chefs(ctx: Ctx) -> None:
    """Halfling Master Chef (seed 003), at the start of each half (not overtime), home first:
    3D6 per chef; each 4+ gives the team one team reroll and takes one from the opponent if
    it has any left."""
    st = ctx.st
    for t in TEAMS:
        for _ in range(st.teams[t].chefs):
            faces = [ctx.roll(6) for _ in range(3)]
            hits = sum(1 for f in faces if f >= 4)
            mine, theirs = st.teams[t], st.teams[other(t)]
            taken = min(hits, theirs.rerolls)
            mine.rerolls += hits
            theirs.rerolls -= taken
            ctx.ev(
                "master_chef",
                purpose="master_chef",
                team=t,
                faces=faces,
                gained=hits,
                taken=taken,
            )


# ------------------------------------------------------------------------------------------
# Drives and set-ups


def new_drive(ctx: Ctx, kicking: str) -> None:
    """KO recovery (4+), then the set-up phase with ``kicking`` setting up first."""
    st = ctx.st
    for p in sorted([p for p in st.players.values() if p.state == "ko"], key=home_first):
        face = ctx.roll(6)
        babes = st.teams[p.team].babes
        ok = face != 1 and face + babes >= 4
        ctx.ev(
            "ko_recovery",
            purpose="ko_recovery",
            player=p.id,
            target=4,
            modifiers={"babes": babes} if babes else {},
            faces=[face],
            result="success" if ok else "failure",
        )
        if ok:
            ctx.mp(p.id).state = "reserves"
    st.kicking = kicking
    st.active = other(kicking)
    st.phase = "setup"
    st.kick_landing = None
    st.carrier = None
    st.ball_at = None
    for t in TEAMS:
        st.teams[t].posted = frozenset()
    ctx.ev("drive_start", kicking=kicking)


def clear_pitch(ctx: Ctx) -> None:
    """The end of a drive: sweltering heat (D6 per player on the pitch, 1 collapses), then
    every player on the pitch goes back to the reserves."""
    st = ctx.st
    specials.send_off_secret_weapons(ctx)
    players: Iterable[Player] = st.players.values()
    if st.weather == "sweltering_heat":  # (only the heat rolls need the order)
        players = sorted(players, key=home_first)
    for p in players:
        if p.played:
            ctx.mp(p.id).played = False
        if p.at is None:
            continue
        if st.weather == "sweltering_heat":
            face = ctx.roll(6)
            ctx.ev(
                "heat",
                purpose="heat",
                player=p.id,
                faces=[face],
                result="collapses" if face == 1 else "fine",
            )
            if face == 1:
                ctx.mp(p.id).collapsed = True
        ctx.place(p.id, None)
        mp = ctx.mp(p.id)
        mp.state = "reserves"
        mp.stunned_now = False
        mp.no_tz = False
        mp.rooted = False
    st.carrier = None
    st.ball_at = None
    st.kick_landing = None


def end_drive(ctx: Ctx, scorer: str | None) -> None:
    """After a touchdown (``scorer``) or when the turns of a half run out."""
    st = ctx.st
    if st.half == 3 and scorer is not None:
        clear_pitch(ctx)
        finish(ctx, "overtime")
        return
    clear_pitch(ctx)
    if st.turn["home"] >= TURNS_PER_HALF and st.turn["away"] >= TURNS_PER_HALF:
        end_half(ctx)
        return
    assert scorer is not None
    new_drive(ctx, scorer)


def end_half(ctx: Ctx) -> None:
    st = ctx.st
    ctx.ev("half_end", half=st.half, score=dict(st.score))
    if st.half == 1:
        st.half = 2
        for t in TEAMS:
            team = st.teams[t]
            team.rerolls = team.rerolls if team.base_rerolls is None else team.base_rerolls
            team.leader_used = False
        _reset_allowances(st)
        _begin_half(ctx, other(st.first_kick))
        return
    if st.half == 2:
        if st.score["home"] != st.score["away"] or not st.overtime:
            finish(ctx, "full_time")
            return
        if not st.knockout and _draw_agreed(ctx):
            finish(ctx, "agreed_draw")
            return
        st.half = 3
        _reset_allowances(st)
        toss = ctx.roll(6)
        winner = "away" if toss <= 3 else "home"
        ctx.ev("coin_toss", purpose="coin_toss", faces=[toss], result=winner)
        choice = ctx.ask("kick_or_receive", ctx.rs.captain(winner), ["kick", "receive"], "receive")
        _begin_half(ctx, winner if choice == "kick" else other(winner))
        return
    shoot_out(ctx)


def _draw_agreed(ctx: Ctx) -> bool:
    """Seed 000: a tie at full time "podrá declararse un empate si ambos entrenadores están de
    acuerdo", otherwise sudden-death overtime. Each team's captain is asked, home first; a
    no (or silence: the default) ends the asking."""
    for team in TEAMS:
        if not ctx.ask("agree_draw", ctx.rs.captain(team), [True, False], False):
            ctx.ev("draw_declined", team=team)
            return False
    ctx.ev("draw_agreed")
    return True


def _reset_allowances(st: MatchState) -> None:
    for t in TEAMS:
        team = st.teams[t]
        team.reroll_used = team.blitz_used = team.blitz_claimed = False
        team.pass_used = team.hand_off_used = False
        team.blitz_side = "captain"
        team.fouls_used = {"captain": 0, "rival": 0}
        team.ended = frozenset()


def shoot_out(ctx: Ctx) -> None:
    """D6 each + 1 per unused team reroll; ties are rolled again."""
    st = ctx.st
    while True:
        totals = {}
        for t in TEAMS:
            face = ctx.roll(6)
            totals[t] = face + st.teams[t].rerolls
            ctx.ev(
                "shoot_out",
                purpose="shoot_out",
                team=t,
                faces=[face],
                modifiers={"rerolls": st.teams[t].rerolls},
                total=totals[t],
            )
        if totals["home"] != totals["away"]:
            winner = "home" if totals["home"] > totals["away"] else "away"
            finish(ctx, "shoot_out", winner=winner, shoot_out=totals)
            return


def finish(
    ctx: Ctx, by: str, *, winner: str | None = None, shoot_out: dict[str, int] | None = None
) -> None:
    st = ctx.st
    if winner is None and st.score["home"] != st.score["away"]:
        winner = "home" if st.score["home"] > st.score["away"] else "away"
    st.phase = "finished"
    st.pending = None
    st.result = {"winner": winner, "score": dict(st.score), "by": by}
    if shoot_out is not None:
        st.result["shoot_out"] = shoot_out
    ctx.ev("final_whistle", **st.result)


def concede(ctx: Ctx, team: str) -> None:
    ctx.ev("concede", team=team)
    finish(ctx, "concession", winner=other(team))


# ------------------------------------------------------------------------------------------
# Set-up posts


def post_setup(ctx: Ctx, team: str, side: str, decl: Declaration) -> None:
    """Place (or, in a Quick Snap, step) the posting side's players; when the team's set-up is
    complete, move on (see ``setup_complete``)."""
    st = ctx.st
    wanted = {pid: parse_square(sq) for pid, sq in decl.placements}
    if st.phase == "quick_snap":
        for pid, sq in sorted(wanted.items()):
            ctx.place(pid, sq)
            ctx.ev("quick_snap_step", player=pid, to=NAMES[sq])
    else:
        for p in st.players.values():
            if p.at is not None and p.team == team and ctx.rs.side_of(p.side) == side:
                ctx.place(p.id, None)
                ctx.mp(p.id).state = "reserves"
        for pid, sq in sorted(wanted.items()):
            ctx.place(pid, sq)
            ctx.mp(pid).state = "standing"
    st.teams[team].posted = st.teams[team].posted | {side}
    ctx.ev("setup", team=team, side=side, players=len(wanted))
    if not team_complete(st, team, ctx.rs.sides()):
        return
    if st.phase == "setup":
        if team == st.kicking:
            return
        _setups_done(ctx)
    else:
        land_kick(ctx)


def _setups_done(ctx: Ctx) -> None:
    """Both teams are set up: a team with nobody on the pitch loses two turns for both, and
    the other (if it set anyone up) is awarded a touchdown."""
    st = ctx.st
    counts = {
        t: sum(1 for p in st.players.values() if p.team == t and p.at is not None) for t in TEAMS
    }
    if all(counts.values()):
        for p in st.players.values():
            if p.collapsed:
                ctx.mp(p.id).collapsed = False
            if p.at is not None:
                ctx.mp(p.id).played = True
        st.phase = "kickoff"
        for t in TEAMS:
            st.teams[t].posted = frozenset()
        ctx.ev("setup_complete")
        return
    ctx.ev("no_setup", players=counts)
    for t in TEAMS:
        st.turn[t] += 2
    for t in TEAMS:
        if counts[t]:
            st.score[t] += 1
            ctx.ev("touchdown", player=None, team=t, at=None, awarded=True)
    clear_pitch(ctx)
    if st.half == 3 and any(counts.values()):
        finish(ctx, "overtime")
    elif st.turn["home"] >= TURNS_PER_HALF and st.turn["away"] >= TURNS_PER_HALF:
        end_half(ctx)
    else:
        new_drive(ctx, st.kicking)


# ------------------------------------------------------------------------------------------
# The kick


def kick(ctx: Ctx, target: int) -> None:
    st = ctx.st
    kicking = st.kicking
    receiving = other(kicking)
    ctx.ev("kick", team=kicking, target=NAMES[target])
    d, n = ctx.roll(8), ctx.roll(6)
    dx, dy = D8[d - 1]
    landing = _kick_path(target, dx, dy, n)
    halved = False
    if _has_kicker(st, kicking) and n > 1:
        half = _kick_path(target, dx, dy, n // 2)
        outside = landing == OFF_PITCH or not in_half(receiving, landing)
        if outside and half != OFF_PITCH and in_half(receiving, half):
            landing, halved = half, True
    st.kick_landing = landing
    ctx.ev(
        "kick_scatter",
        purpose="kick_scatter",
        faces=[d, n],
        to=None if landing == OFF_PITCH else NAMES[landing],
        kick_skill=halved,
    )
    # LRB5: Kick-Off Return moves "after the ball has been scattered but before rolling on
    # the Kick-Off table", whatever the table then shows
    kick_off_return(ctx)
    a, b = _two(ctx)
    result = KICKOFF_TABLE[a + b]
    ctx.ev("kickoff_table", purpose="kickoff_table", faces=[a, b], total=a + b, result=result)
    if _apply_kickoff(ctx, result):
        land_kick(ctx)


def _kick_path(target: int, dx: int, dy: int, n: int) -> int:
    x, y = xy(target)
    for _ in range(n):
        x, y = x + dx, y + dy
        if not on_pitch(x, y):
            return OFF_PITCH
    return square(x, y)


def _has_kicker(st: MatchState, team: str) -> bool:
    return any(
        "Kick" in p.skills
        and p.team == team
        and p.at is not None
        and p.state == "standing"
        and not on_los(team, p.at)
        and wide_zone(p.at) is None
        for p in st.players.values()
    )


def _apply_kickoff(ctx: Ctx, result: str) -> bool:
    """Apply a kick-off table result; False when the ball stays in the air for a while (a
    phase of its own) or the half ended."""
    st = ctx.st
    kicking = st.kicking
    receiving = other(kicking)
    if result == "get_the_ref":
        st.ref_gone = True
    elif result == "riot":
        face = _d(ctx, 6, "riot")
        for t in TEAMS:
            if face <= 3:
                st.turn[t] += face
            else:
                st.turn[t] = max(st.turn[t] - 1, 1 if t == receiving else 0)
        if st.turn["home"] >= TURNS_PER_HALF and st.turn["away"] >= TURNS_PER_HALF:
            clear_pitch(ctx)
            end_half(ctx)
            return False
    elif result == "perfect_defence":
        st.phase = "perfect_defence"
        return False
    elif result == "high_kick":
        _high_kick(ctx)
    elif result in ("cheering_fans", "brilliant_coaching"):
        extra = "cheerleaders" if result == "cheering_fans" else "assistant_coaches"
        totals = {}
        for t in (kicking, receiving):
            team = st.teams[t]
            face = ctx.roll(3)
            totals[t] = face + fame(st, t) + getattr(team, extra)
            ctx.ev(result, purpose=result, team=t, faces=[face], total=totals[t])
        best = max(totals.values())
        for t in (kicking, receiving):
            if totals[t] == best:
                st.teams[t].rerolls += 1
                ctx.ev("extra_reroll", team=t)
    elif result == "changing_weather":
        a, b = _two(ctx)
        st.weather = WEATHER.get(a + b, "nice")
        ctx.ev("weather", purpose="weather", faces=[a, b], total=a + b, result=st.weather)
        if st.weather == "nice" and st.kick_landing not in (None, OFF_PITCH):
            assert st.kick_landing is not None
            d = ctx.roll(8)
            dx, dy = D8[d - 1]
            st.kick_landing = _kick_path(st.kick_landing, dx, dy, 1)
            ctx.ev("kick_scatter", purpose="breeze", faces=[d])
    elif result == "quick_snap":
        st.phase = "quick_snap"
        return False
    elif result == "blitz":
        _start_blitz(ctx)
        return False
    elif result == "throw_a_rock":
        totals = {}
        for t in (kicking, receiving):
            face = ctx.roll(6)
            totals[t] = face + fame(st, t)
            ctx.ev("rock_fans", purpose="throw_a_rock", team=t, faces=[face], total=totals[t])
        best = max(totals.values())
        for t in (kicking, receiving):
            if totals[t] == best:
                _rock(ctx, other(t))
    elif result == "pitch_invasion":
        for t in (kicking, receiving):
            for p in team_players(st, other(t)):
                if p.at is None:
                    continue
                face = ctx.roll(6)
                hit = face != 1 and face + fame(st, t) >= 6
                ctx.ev(
                    "pitch_invasion",
                    purpose="pitch_invasion",
                    player=p.id,
                    faces=[face],
                    modifiers={"fame": fame(st, t)},
                    result="stunned" if hit else "missed",
                )
                if hit:
                    mp = ctx.mp(p.id)
                    if "Ball & Chain" in p.skills:
                        sq = mp.at
                        ctx.place(p.id, None)
                        mp.state = "ko"
                        assert sq is not None
                    else:
                        mp.state = "stunned"
    for p in st.players.values():
        if p.stunned_now:
            ctx.mp(p.id).stunned_now = False
    return True


def fame(st: MatchState, team: str) -> int:
    """FAME for the kick-off table: +1 per Fan Favourite of the team on the pitch."""
    return st.teams[team].fame + sum(
        1
        for p in st.players.values()
        if "Fan Favourite" in p.skills and p.team == team and p.at is not None
    )


def _random_player(ctx: Ctx, players: list[Player]) -> Player | None:
    """One of ``players`` at random: a die with as many faces as players (by number)."""
    if not players:
        return None
    if len(players) == 1:
        return players[0]
    face = ctx.roll(len(players))
    ctx.ev("random_player", purpose="random_player", faces=[face], player=players[face - 1].id)
    return players[face - 1]


def _rock(ctx: Ctx, victim_team: str) -> None:
    st = ctx.st
    victims = [p for p in team_players(st, victim_team) if p.at is not None]
    p = _random_player(ctx, victims)
    if p is None:
        return
    ctx.ev("rock", player=p.id)
    roll_injury(ctx, p.id, {})


def _high_kick(ctx: Ctx) -> None:
    st = ctx.st
    sq = st.kick_landing
    receiving = other(st.kicking)
    if sq is None or sq == OFF_PITCH or not in_half(receiving, sq) or sq in st.board:
        return
    options = [
        p.id
        for p in team_players(st, receiving)
        if p.at is not None and p.state == "standing" and enemy_tz(st, p.at, p.team) == 0
    ]
    if not options:
        return
    choice = ctx.ask("high_kick", ctx.rs.captain(receiving), [*options, "none"], "none")
    if choice != "none":
        ctx.place(str(choice), sq)
        ctx.ev("high_kick", player=choice, to=NAMES[sq])


def _start_blitz(ctx: Ctx) -> None:
    """Blitz!: a free turn for the kicking team while the ball is in the air; its players in
    an opposing tackle zone may not act."""
    st = ctx.st
    kicking = st.kicking
    st.phase = "blitz"
    st.active = kicking
    _reset_allowances_of(st, kicking)
    for p in team_players(st, kicking):
        mp = ctx.mp(p.id)
        mp.used = frozenset()
        mp.acted = p.at is not None and enemy_tz(st, p.at, p.team) > 0
    ctx.ev("blitz_turn", team=kicking)


def _reset_allowances_of(st: MatchState, t: str) -> None:
    team = st.teams[t]
    team.reroll_used = team.blitz_used = team.blitz_claimed = False
    team.pass_used = team.hand_off_used = False
    team.blitz_side = "captain"
    team.fouls_used = {"captain": 0, "rival": 0}
    team.ended = frozenset()


def end_blitz_turn(ctx: Ctx) -> None:
    """The kicking team's free turn ends (all acted, ended, or a turnover): stunned players
    of that team turn prone as at the end of a turn, then the ball lands."""
    st = ctx.st
    kicking = st.kicking
    for p in team_players(st, kicking):
        if p.state == "stunned":
            mp = ctx.mp(p.id)
            if mp.stunned_now:
                mp.stunned_now = False
            else:
                mp.state = "prone"
        if p.acted:
            ctx.mp(p.id).acted = False
    st.teams[kicking].ended = frozenset()
    ctx.ev("end_turn", team=kicking, turnover=ctx.turnover, blitz=True)
    land_kick(ctx)


def kick_off_return(ctx: Ctx) -> None:
    """Kick-Off Return: one receiving player with the skill, off the line of scrimmage and in
    no opposing tackle zone, may move up to three empty squares in its own half (not when the
    kick is a touchback)."""
    st = ctx.st
    receiving = other(st.kicking)
    landing = st.kick_landing
    if landing is None or landing == OFF_PITCH or not in_half(receiving, landing):
        return
    options: list[str] = []
    returners = [p for p in st.players.values() if "Kick-Off Return" in p.skills]
    for p in sorted(returners, key=_order):
        if (
            p.team != receiving
            or p.at is None
            or p.state != "standing"
            or on_los(receiving, p.at)
            or enemy_tz(st, p.at, p.team) > 0
        ):
            continue
        seen = {p.at}
        frontier = [p.at]
        for _ in range(3):
            nxt = []
            for a in frontier:
                for b in NEIGHBOURS[a]:
                    if b not in seen and b not in st.board and in_half(receiving, b):
                        seen.add(b)
                        nxt.append(b)
                        options.append(f"{p.id}:{NAMES[b]}")
            frontier = nxt
    if not options:
        return
    choice = str(ctx.ask("kick_off_return", ctx.rs.captain(receiving), [*options, "none"], "none"))
    if choice != "none":
        pid, _, name = choice.partition(":")
        ctx.place(pid, parse_square(name))
        ctx.ev("kick_off_return", player=pid, to=name)


def land_kick(ctx: Ctx) -> None:
    """The ball comes down: a catch or a bounce in the receiving half, else a touchback; then
    the receiving team's turn begins."""
    st = ctx.st
    receiving = other(st.kicking)
    st.active = receiving
    st.phase = "play"
    sq = st.kick_landing
    st.kick_landing = None
    if sq is None or sq == OFF_PITCH or not in_half(receiving, sq):
        touchback(ctx)
    else:
        kick_arrive(ctx, sq, bounced=False)
    for t in TEAMS:
        st.teams[t].posted = frozenset()
    _reset_allowances_of(st, receiving)
    for p in st.players.values():
        if (p.acted or p.used) and p.team == receiving:
            mp = ctx.mp(p.id)
            mp.acted = False
            mp.used = frozenset()
    ctx.ev("turn_start", team=receiving, turn=st.turn[receiving])
