"""The only write path of a live match (3-LIVE-BB): every change goes through a function here,
not through matches/services (the board game's). Each takes the live match's row FOR UPDATE,
changes its state with matches.live.game, appends the events and bumps the version. A form
posted again with an idempotency key already used (a retry after a dropped connection) is
applied once: the second time changes nothing."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from bbweb import push
from matches.live import game, quick, weapons
from matches.live.game import LiveError
from matches.live.models import LiveEvent, LiveMatch
from matches.models import AuditEntry
from rules.live.levels import base_levels
from teams.models import League, Player, Team

AnyUser = AbstractBaseUser | AnonymousUser
KEY_LENGTH = 64  # LiveEvent.idempotency_key


def roster(team: Team, side: str) -> list[dict[str, Any]]:
    """The players who may take the field: a team's roster, with their levels and phone links."""
    prefix = side[0]
    players = []
    for player in team.players.filter(status__in=Player.ON_ROSTER, miss_next_game=False):
        skills = [*player.position_data.skills, *player.gained]
        levels = base_levels(player.stat("ST"), player.stat("AG"), skills)
        players.append(
            {
                "id": f"{prefix}{player.number}",
                "team": side,
                "number": player.number,
                "name": player.name,
                "position": player.position_data.title,
                "pk": player.pk,
                "skills": skills,
                "levels": {str(kind): value for kind, value in levels.items()},
                "token": secrets.token_urlsafe(12),
            }
        )
    return players


Side = Team | quick.QuickRoster


def start_live_match(user: AnyUser, league: League, home: Side, away: Side) -> LiveMatch:
    """The league's GM (the referee at the field) starts a live match between two of its teams,
    or with a quick roster typed at the field for either side."""
    if not user.is_authenticated or user.pk != league.gm_id:
        raise LiveError("not_referee", _("Only the league's game master starts a live match."))
    teams = [t for t in (home, away) if isinstance(t, Team)]
    if any(t.league_id != league.pk for t in teams) or (
        len(teams) == 2 and teams[0].pk == teams[1].pk
    ):
        raise LiveError("bad_teams", _("Pick two different teams of the league."))
    players = _side(home, "home") + _side(away, "away")
    with transaction.atomic():
        match = LiveMatch.objects.create(
            league=league,
            home_team=home if isinstance(home, Team) else None,
            away_team=away if isinstance(away, Team) else None,
            home_name=home.name,
            away_name=away.name,
            referee_id=user.pk,
            state=game.new_state(players, home.name, away.name),
        )
        _append(match, [("started", {"home": home.name, "away": away.name})], "")
    return match


def _side(team: Side, side: str) -> list[dict[str, Any]]:
    if isinstance(team, Team):
        return roster(team, side)
    return quick.players(team, side, lambda: secrets.token_urlsafe(12))


def _append(match: LiveMatch, events: game.Events, key: str) -> None:
    last = match.events.aggregate(n=Max("number"))["n"] or 0
    LiveEvent.objects.bulk_create(
        LiveEvent(
            match=match,
            number=last + i,
            type=kind,
            data=data,
            idempotency_key=key if i == 1 else "",
        )
        for i, (kind, data) in enumerate(events, 1)
    )


def _change(
    match_id: int, key: str, change: Callable[[game.State], game.Events], *, user: AnyUser | None
) -> LiveMatch:
    """Lock, replay check, change, save. ``user`` None: a player's phone (the token checked)."""
    if len(key) > KEY_LENGTH:
        raise LiveError("malformed", _("An idempotency key has at most 64 characters."))
    with transaction.atomic():
        match = LiveMatch.objects.select_for_update().get(pk=match_id)
        if user is not None and (not user.is_authenticated or user.pk != match.referee_id):
            raise LiveError("not_referee", _("Only the referee runs the match."))
        if key and match.events.filter(idempotency_key=key).exists():
            return match
        state = match.state
        events = change(state)
        if not events:
            return match
        match.state = state
        match.version += 1
        fields = ["state", "version"]
        if state["result"] is not None and match.status != LiveMatch.Status.FINISHED:
            match.status = LiveMatch.Status.FINISHED
            match.finished_at = timezone.now()
            fields += ["status", "finished_at"]
        match.save(update_fields=fields)
        _append(match, events, key)
        push.publish("live", match.pk, {"v": match.version})  # its screens, once committed
    return match


def do_kick_off(match_id: int, user: AnyUser, kicking: str, key: str = "") -> LiveMatch:
    return _change(match_id, key, lambda s: game.kick_off(s, kicking), user=user)


def do_next_phase(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, game.next_phase, user=user)


def do_touchdown(match_id: int, user: AnyUser, player: str, key: str = "") -> LiveMatch:
    return _change(match_id, key, lambda s: game.touchdown(s, player), user=user)


def do_end_half(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, game.end_half, user=user)


def do_finish(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, game.finish, user=user)


def do_ball_out(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, game.ball_out, user=user)


def do_ruling(
    match_id: int, user: AnyUser, action: str, player: str, key: str = "", *, overrule: bool = False
) -> LiveMatch:
    """A ruling; ``overrule``: the referee confirmed he overrules seed 002's limit (logged)."""
    return _change(
        match_id, key, lambda s: game.ruling(s, action, player, overrule=overrule), user=user
    )


def do_adjust_level(
    match_id: int, user: AnyUser, player: str, kind: str, delta: int, key: str = ""
) -> LiveMatch:
    return _change(match_id, key, lambda s: game.adjust_level(s, player, kind, delta), user=user)


def do_start_challenge(
    match_id: int,
    user: AnyUser,
    purpose: str,
    attackers: list[str],
    defender: str,
    *,
    dodging: bool = False,
    phones: bool = False,
    overrule: bool = False,
    key: str = "",
) -> LiveMatch:
    return _change(
        match_id,
        key,
        lambda s: game.start_challenge(
            s, purpose, attackers, defender, dodging=dodging, phones=phones, overrule=overrule
        ),
        user=user,
    )


def do_throw(match_id: int, user: AnyUser, thrown: dict[str, object], key: str = "") -> LiveMatch:
    """The referee enters the throws he saw (or, with phones, his own as the referee)."""

    def change(state: game.State) -> game.Events:
        ch = state["challenge"]
        if ch is not None and ch["phones"]:
            if set(thrown) != {game.REF}:
                raise LiveError("phones", _("The players throw on their phones."))
            return game.commit(state, game.REF, thrown[game.REF])
        return game.throw(state, thrown)

    return _change(match_id, key, change, user=user)


def do_commit_throw(match_id: int, token: str, value: str, key: str = "") -> LiveMatch:
    """A player's throw from his own phone (his link's token says who he is)."""

    def change(state: game.State) -> game.Events:
        pid = player_of(state, token)
        if pid is None:
            raise LiveError("bad_token", _("This link is not a player's of this match."))
        ch = state["challenge"]
        if ch is None or not ch["phones"]:
            raise LiveError("no_challenge", _("No challenge waits for your throw."))
        return game.commit(state, pid, value)

    return _change(match_id, key, change, user=None)


def do_cancel_challenge(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, game.cancel_challenge, user=user)


def do_choose_injurer(match_id: int, user: AnyUser, player: str, key: str = "") -> LiveMatch:
    return _change(match_id, key, lambda s: weapons.choose_injurer(s, player), user=user)


def do_light_bomb(match_id: int, user: AnyUser, player: str, key: str = "") -> LiveMatch:
    return _change(match_id, key, lambda s: weapons.light_bomb(s, player), user=user)


def do_throw_bomb(match_id: int, user: AnyUser, key: str = "") -> LiveMatch:
    return _change(match_id, key, weapons.throw_bomb, user=user)


def do_blast(match_id: int, user: AnyUser, victims: list[str], key: str = "") -> LiveMatch:
    return _change(match_id, key, lambda s: weapons.blast(s, victims), user=user)


def do_throw_player(
    match_id: int,
    user: AnyUser,
    thrower: str,
    small: str,
    *,
    willing: bool,
    phones: bool = False,
    key: str = "",
) -> LiveMatch:
    return _change(
        match_id,
        key,
        lambda s: weapons.throw_player(s, thrower, small, willing=willing, phones=phones),
        user=user,
    )


def do_land(
    match_id: int, user: AnyUser, where: str, on: str | None = None, key: str = ""
) -> LiveMatch:
    return _change(match_id, key, lambda s: weapons.land(s, where, on), user=user)


def player_of(state: game.State, token: str) -> str | None:
    for pid, player in state["players"].items():
        # As bytes: compare_digest refuses a str with a character past ASCII.
        if secrets.compare_digest(player["token"].encode(), token.encode("utf-8", "replace")):
            return str(pid)
    return None


def set_live_matches_count(league_id: int, user: AnyUser, count: bool) -> League:
    """The league's GM says whether finished live matches go into the standings."""
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league_id)
        if not user.is_authenticated or user.pk != league.gm_id:
            raise LiveError("not_gm", _("Only the league's game master changes its settings."))
        if league.live_matches_count != count:
            league.live_matches_count = count
            league.save(update_fields=["live_matches_count"])
            AuditEntry.objects.create(
                league=league,
                gm_id=user.pk,
                action="league_updated",
                data={"changed": ["live_matches_count"]},
            )
    return league
