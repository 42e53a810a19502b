"""absences: what a coach leaves for when away: standing orders (questions answered in
advance, such as rerolls and block dice) and vacations (deadlines pushed back)."""

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q, Sum

from matches.models import Decision, Match, Post, StandingOrders, Vacation
from matches.services import banks, buffer, core
from matches.services.actors import actors_for, coach_of
from matches.services.clockwork import warnings_already_due
from matches.services.core import MatchError, insert_row, load_state, locked_match, new_post, touch
from rules.engine import Actor, MatchState, Pending, Resolution
from teams.models import League

# -- standing orders ------------------------------------------------------------------------------

REROLL_ORDERS = {"dodge": "reroll_dodge", "pickup": "reroll_pickup", "gfi": "reroll_gfi"}
BLOCK_DIE_ORDERS = {"pushed": (2, 3), "both_down": (4,)}


def standing_answer(match: Match, resolution: Resolution) -> Any | None:
    """The answer the addressee's standing orders give to the pending decision, if any; a
    coach who never gave any is answered by the orders' defaults, as the form shows them."""
    pending = resolution.pending
    assert pending is not None
    owner = coach_of(match, pending.to)
    writes = buffer.current()
    if writes is not None:
        orders = writes.batch.orders.get((match.pk, owner))
    else:
        orders = (
            core.one_row(StandingOrders, match_id=match.pk, user_id=owner)
            if getattr(match, "has_standing_orders", True)
            else None
        )
    if orders is None:
        orders = StandingOrders(match=match, user_id=owner)
    events = [event.data | {"type": event.type} for event in resolution.events]
    if pending.kind == "reroll":
        failed = next((e for e in reversed(events) if "purpose" in e), None)
        if failed is not None and failed.get("purpose") == "block":
            return _block_reroll_answer(orders, pending, bool(failed.get("attacker_down")))
        field = REROLL_ORDERS.get(str(failed.get("purpose"))) if failed else None
        if field is not None and "team" in pending.options and getattr(orders, field):
            return "team"
    elif pending.kind == "reroll_approval" and orders.approve_rival_rerolls:
        return "approve"
    elif pending.kind == "block_die" and orders.block_die:
        block = next((e for e in reversed(events) if e["type"] == "block"), None)
        if block is None or block.get("chooser") != block.get("target"):
            return None  # the order is the defender's: the attacker's own choice is asked
        wanted = BLOCK_DIE_ORDERS.get(orders.block_die, ())
        return next((face for face in pending.options if face in wanted), pending.default)
    elif pending.kind == "wrestle":
        return _wrestle_answer(orders, pending, resolution.state, events)
    elif (
        pending.kind == "break_tackle" and orders.break_tackle == StandingOrders.BreakTackle.ALWAYS
    ):
        return True
    elif pending.kind == "intercept":
        if orders.intercept == StandingOrders.Intercept.NEVER:
            return "none"
        if (
            orders.intercept == StandingOrders.Intercept.ALWAYS
            and orders.intercept_player in pending.options
        ):
            return orders.intercept_player
    return None


def _block_reroll_answer(orders: StandingOrders, pending: Pending, attacker_down: bool) -> Any:
    """A reroll offered on the block dice (whatever they show): ``attacker_down`` when the
    chooser's best face puts the attacker down."""
    order = orders.block_reroll
    if order == StandingOrders.BlockReroll.NEVER:
        return "none"
    if order == StandingOrders.BlockReroll.ASK_WHEN_DOWN:
        return None if attacker_down else "none"
    if order == StandingOrders.BlockReroll.WHEN_DOWN:
        if not attacker_down:
            return "none"
        return "team" if "team" in pending.options else None
    return None


def _wrestle_answer(
    orders: StandingOrders, pending: Pending, state: MatchState, events: list[dict[str, Any]]
) -> Any:
    """Wrestle on a Both Down, for its owner: the block's attacker or target on the asked
    coach's team. He would go down unless he has Block; when he would not (both have Block,
    so nobody falls), wrestling is a choice of its own and is asked unless the order is never."""
    if orders.wrestle == StandingOrders.Wrestle.NEVER:
        return False
    if orders.wrestle != StandingOrders.Wrestle.ALWAYS:
        return None
    result = next((e for e in reversed(events) if e["type"] == "block_result"), None)
    if result is None:
        return None
    team = Actor.parse(pending.to).team
    ids = (str(result.get("player")), str(result.get("target")))
    owner = next(
        (state.players[i] for i in ids if i in state.players and state.players[i].team == team),
        None,
    )
    if owner is None or "Block" in owner.skills:
        return None
    return True


def record_standing_answer(
    match: Match, state: MatchState, pending: Pending, choice: Any, asked_in: Post
) -> None:
    """The decision arose and was answered at once: a row that says so, pointing to the
    declaration's post as every question of it does (written with it when it waits), and the
    thread's post (written with the match)."""
    owner = coach_of(match, pending.to)
    now = core.now()
    insert_row(
        Decision(
            match=match,
            kind=pending.kind,
            to=pending.to,
            options=list(pending.options),
            default=pending.default,
            deadline_at=None,
            answered_at=now,
            answer=choice,
            answered_by_id=owner,
            answered_how=Decision.AnsweredBy.STANDING_ORDER,
            post=asked_in,
        )
    )
    new_post(
        match,
        state,
        kind=Post.Kind.DECISION,
        author=User(pk=owner),  # its key is all the post keeps of it
        actor=pending.to,
        declaration={
            "kind": pending.kind,
            "choice": choice,
            "default": False,
            "standing_order": True,
        },
        with_match=True,
    )


def set_standing_orders(match_id: int, user: User, **orders: Any) -> StandingOrders:
    """A coach sets its own standing orders for a match (any field left out stays as it was)."""
    fields = {
        "reroll_dodge",
        "reroll_pickup",
        "reroll_gfi",
        "approve_rival_rerolls",
        "block_die",
        "intercept",
        "intercept_player",
        "block_reroll",
        "wrestle",
        "break_tackle",
    }
    unknown = set(orders) - fields
    if unknown:
        raise MatchError("malformed", f"Unknown standing orders: {sorted(unknown)}.")
    with transaction.atomic():
        match = locked_match(match_id)
        mine = actors_for(match, user)
        if not mine:
            raise MatchError("not_in_match", "Only the match's coaches give standing orders.")
        if orders.get("approve_rival_rerolls") and not any(a.endswith(":captain") for a in mine):
            raise MatchError("not_captain", "Only a captain approves the rival's rerolls.")
        if orders.get("block_die", "") not in StandingOrders.BlockDie.values:
            raise MatchError("malformed", "Unknown block-die preference.")
        if orders.get("intercept", "") not in StandingOrders.Intercept.values:
            raise MatchError("malformed", "Unknown interception order.")
        for name, choices in (
            ("block_reroll", StandingOrders.BlockReroll),
            ("wrestle", StandingOrders.Wrestle),
            ("break_tackle", StandingOrders.BreakTackle),
        ):
            if name in orders and orders[name] not in choices.values:
                raise MatchError("malformed", f"Unknown standing order for {name}.")
        player = orders.get("intercept_player", "")
        if orders.get("intercept") == StandingOrders.Intercept.ALWAYS and not player:
            raise MatchError("malformed", "Name the player who always intercepts.")
        if player and not _coaches_player(match, mine, player):
            raise MatchError("not_your_player", f"{player} is not one of your players.")
        current, _created = StandingOrders.objects.get_or_create(match=match, user_id=user.pk)
        for name, value in orders.items():
            setattr(current, name, value)
        current.save()
        return current


def _coaches_player(match: Match, actors: list[str], player: str) -> bool:
    facts = match.lineup.get(player)
    if facts is None:
        return False
    team = "home" if player.startswith("h") else "away"
    house = load_state(match).house_rules
    return any(
        actor.startswith(team + ":") and (not house or actor.endswith(":" + facts["side"]))
        for actor in actors
    )


# -- vacations ------------------------------------------------------------------------------------


def vacation_days_left(user: User, league: League, season: int) -> int:
    used = Vacation.objects.filter(user_id=user.pk, league=league, season=season).aggregate(
        days=Sum("days")
    )["days"]
    return max(league.vacation_days - (used or 0), 0)


def take_vacation(
    user: User, league: League, days: int, *, now: datetime | None = None
) -> Vacation:
    """A coach pauses its own deadlines in every match of the league for ``days`` days (at
    most the league's allowance per season, a season being a calendar year). Each deadline
    addressed to the coach moves back by the vacation's length; every such match is told."""
    now = now or core.now()
    if days <= 0:
        raise MatchError("malformed", "A vacation lasts at least one day.")
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update(of=("self",))
            .select_related("home_team", "away_team", "league")
            .filter(league=league, status=Match.Status.IN_PLAY)
            .filter(
                Q(home_team__captain_id=user.pk)
                | Q(home_team__rival_id=user.pk)
                | Q(away_team__captain_id=user.pk)
                | Q(away_team__rival_id=user.pk)
            )
            .order_by("pk")
        )
        season = now.year
        if days > vacation_days_left(user, league, season):
            raise MatchError("no_vacation_left", "Not that many vacation days are left.")
        running = Vacation.objects.filter(
            user_id=user.pk, league=league, ends_at__gt=now
        ).aggregate(until=Max("ends_at"))["until"]
        starts = max(now, running) if running else now
        length = timedelta(days=days)
        vacation = Vacation.objects.create(
            user_id=user.pk,
            league=league,
            season=season,
            starts_at=starts,
            ends_at=starts + length,
            days=days,
        )
        for match in matches:
            _push_back_deadlines(match, actors_for(match, user), length, now)
            new_post(
                match,
                load_state(match),
                kind=Post.Kind.SYSTEM,
                actor=actors_for(match, user)[0],
                summary={
                    "message": "vacation",
                    "user": user.get_username(),
                    "until": vacation.ends_at.isoformat(),
                },
            )
            touch(match)
        return vacation


def _push_back_deadlines(match: Match, mine: list[str], length: timedelta, now: datetime) -> None:
    if banks.uses_bank(match):
        banks.push_back(match, mine, length, now)
    for decision in match.decisions.filter(
        answered_at__isnull=True, contested_at__isnull=True, to__in=mine
    ):
        assert decision.deadline_at is not None
        decision.deadline_at += length
        decision.warnings_sent = warnings_already_due(decision.deadline_at - now)
        decision.save(update_fields=["deadline_at", "warnings_sent"])
    active = match.state.get("active", "home")
    if banks.uses_bank(match) or not any(actor.startswith(active + ":") for actor in mine):
        return  # a bank's turn deadline followed its banks
    if match.turn_deadline_at is not None:
        match.turn_deadline_at += length
        match.turn_warnings_sent = warnings_already_due(match.turn_deadline_at - now)
    elif match.turn_time_left is not None:
        match.turn_time_left += length
