"""prematch: creating a match and the pre-match sequence (seed 003) up to the kick-off.

the weather (2D6, the sequence's first roll) -> petty cash (the higher-value team first, each
side from its own treasury) -> handicap money for the lower team -> inducements (the
higher-value team buys first) -> the engine's start_match (fans and FAME, coin toss). Each
step is a system post whose summary carries the figures, so that the page writes it in the
reader's language. docs/house-rules.md gives the order and why.
"""

import secrets
from collections import Counter
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from matches.models import Match, Post, Season, Sequence, TeamMatchRecord
from matches.record import economy
from matches.record import values as team_values
from matches.rosters import lineup, team_sheet
from matches.services import core
from matches.services.actors import AnyUser
from matches.services.core import (
    SYSTEM_ACTOR,
    MatchError,
    append_event,
    load_state,
    locked_match,
    new_post,
    touch,
)
from matches.services.play import settle_resolution
from matches.services.sequence import (
    STAR_SIDE,
    check_captain_of,
    check_side_coach,
    give_gold,
    other,
    sequence,
    step_deadline,
    step_post,
    take_gold,
    team_of,
    team_records,
)
from rules import gamedata
from rules.engine import (
    Declaration,
    MatchState,
    PlayerSheet,
    Resolution,
    TeamSheet,
    commitment,
    new_match,
    resolve,
)
from teams import rosters
from teams import services as team_services
from teams.models import League, Player, Team

# -- creating a match ----------------------------------------------------------------------------


@transaction.atomic
def create_match(
    *,
    home: Team,
    away: Team,
    gm: User,
    league: League | None = None,
    house_rules: bool = True,
    prematch: bool = False,
    season: Season | None = None,
    knockout: bool = False,
) -> Match:
    """A new match. With ``prematch`` it opens the pre-match sequence (petty cash, handicap
    money, inducements) and the engine starts the match once both teams have bought."""
    if home.pk == away.pk:
        raise MatchError("same_team", "A team cannot play itself.")
    seed = secrets.token_bytes(32)
    if prematch:
        _prepare_rosters(home, away)
    state = new_match(
        team_sheet(home, "home"),
        team_sheet(away, "away"),
        house_rules=house_rules,
        knockout=knockout,
    )
    match = Match.objects.create(
        home_team=home,
        away_team=away,
        gm=gm,
        league=league,
        season=season,
        status=Match.Status.PRE_MATCH if prematch else Match.Status.IN_PLAY,
        state=state.to_json(compact=True),
        lineup={**lineup(home, "home"), **lineup(away, "away")},
        dice_seed=seed.hex(),
        dice_commitment=commitment(seed),
    )
    post = new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={"message": "created", "commitment": match.dice_commitment},
    )
    if prematch:
        _begin_pre_match(match, state)
        match.save(update_fields=Match.HEADS)
        return match
    _open_match(match, state, post)
    return match


def _open_match(match: Match, state: MatchState, post: Post) -> Resolution:
    """The engine's first state on record, then its start_match (weather, fans, coin toss).
    The league's reroll setting goes into the state: the record folds alike if it changes."""
    league = match.league
    state.rerolls_free = league is not None and league.rival_rerolls == League.RivalRerolls.FREE
    append_event(match, state, "match_created", {"state": state.to_json(compact=True)}, post)
    opening = resolve(
        state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), core.dice_for(match)
    )
    settle_resolution(
        match, state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), opening, post
    )
    return opening


PRE_MATCH_STEPS = (
    Sequence.Step.PETTY_CASH_FAVOURITE,
    Sequence.Step.PETTY_CASH_UNDERDOG,
    Sequence.Step.INDUCEMENTS_FAVOURITE,
    Sequence.Step.INDUCEMENTS_UNDERDOG,
)


def _prepare_rosters(*teams: Team) -> None:
    """Journeymen nobody hired leave; a team short of 11 players gets new ones for the match."""
    for team in teams:
        team_services.release_journeymen(team)
        team_services.add_journeymen(team)


def _begin_pre_match(match: Match, state: MatchState) -> None:
    values, items = {}, {}
    for key in ("home", "away"):
        team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
        values[key], items[key] = team.value, team_values.itemised(team)
        TeamMatchRecord.objects.create(match=match, team=team, key=key, value_before=team.value)
    favourite = economy.favourite(values["home"], values["away"])
    seq = Sequence.objects.create(
        match=match,
        step=Sequence.Step.PETTY_CASH_FAVOURITE,
        favourite=favourite,
        deadline_at=step_deadline(match),
    )
    _roll_weather(match, seq, state)
    step_post(
        match,
        "team_values",
        home=values["home"],
        away=values["away"],
        favourite=favourite,
        items=items,  # the values recomputed from the rules (matches.verification.figures)
    )


def _roll_weather(match: Match, seq: Sequence, state: MatchState) -> None:
    """Seed 003 rolls the weather first, before the petty cash and the inducements: the
    engine's pregame_weather, read from the sequence's own stream (the match's stream starts
    at the kick-off, whose new_match keeps this weather)."""
    if seq.dice_used:
        raise MatchError("wrong_step", "The weather is the sequence's first roll.")
    rolled = resolve(
        state,
        SYSTEM_ACTOR,
        Declaration(None, "pregame_weather"),
        (),
        core.sequence_dice(match),
    )
    faces = [f for e in rolled.events if e.type == "weather" for f in e.data["faces"]]
    at = list(range(seq.dice_used, seq.dice_used + len(faces)))
    seq.dice_used += len(faces)
    seq.save(update_fields=["dice_used"])
    weathered = replace(state, weather=rolled.state.weather, weather_rolled=True)
    match.state = weathered.to_json(compact=True)
    match.save(update_fields=["state"])
    step_post(match, "weather", dice=faces, dice_at=at, result=rolled.state.weather)


def pre_match_team(seq: Sequence, petty: bool) -> str:
    """The team whose turn the current step is (``petty``: a petty cash step is wanted)."""
    if petty and seq.step == Sequence.Step.PETTY_CASH_FAVOURITE:
        return seq.favourite
    if petty and seq.step == Sequence.Step.PETTY_CASH_UNDERDOG:
        return seq.underdog
    if not petty and seq.step == Sequence.Step.INDUCEMENTS_FAVOURITE:
        return seq.favourite
    if not petty and seq.step == Sequence.Step.INDUCEMENTS_UNDERDOG:
        return seq.underdog
    raise MatchError("wrong_step", "That is not the step the match is at.")


def transfer_petty_cash(match_id: int, user: AnyUser, *, side: str, amount: int) -> Post:
    """A side's coach moves gold from the side's own treasury into the team's petty cash
    (nothing is a choice too). The higher-value team's sides decide first."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.PRE_MATCH:
            raise MatchError("wrong_step", "The pre-match sequence is over.")
        seq = sequence(match)
        key = pre_match_team(seq, petty=True)
        team = Team.objects.select_for_update().get(pk=team_of(match, key).pk)
        check_side_coach(match, team, user, side)
        if amount < 0:
            raise MatchError("bad_amount", "An amount of gold is never negative.")
        record = team_records(match)[key]
        field = f"petty_cash_{side}"
        if getattr(record, field) is not None:
            raise MatchError("already_decided", "That side has already decided its petty cash.")
        take_gold(team, side, amount)
        setattr(record, field, amount)
        record.save(update_fields=[field])
        post = step_post(
            match,
            "petty_cash",
            author=user,
            actor=f"{key}:{side}",
            team=key,
            side=side,
            amount=amount,
        )
        after_petty_cash(match, seq)
        touch(match)
        return post


def after_petty_cash(match: Match, seq: Sequence, *, by_default: bool = False) -> None:
    records = team_records(match)
    key = pre_match_team(seq, petty=True)
    record = records[key]
    if record.petty_cash_captain is None or record.petty_cash_rival is None:
        return
    if seq.step == Sequence.Step.PETTY_CASH_FAVOURITE:
        seq.step = Sequence.Step.PETTY_CASH_UNDERDOG
    else:
        values = {k: r.value_before + r.petty_cash for k, r in records.items()}
        for k, r in records.items():
            r.handicap = economy.handicap(values[k], values[other(k)])
            r.save(update_fields=["handicap"])
        lower = next((k for k, r in records.items() if r.handicap), None)
        step_post(
            match,
            "handicap",
            team=lower,
            amount=records[lower].handicap if lower else 0,
            home=values["home"],
            away=values["away"],
        )
        seq.step = Sequence.Step.INDUCEMENTS_FAVOURITE
    seq.deadline_at = step_deadline(match)
    seq.save()


def _order_problems(team: Team, record: TeamMatchRecord, order: economy.Order) -> list[str]:
    roster = [p for p in team.players.all() if p.status in Player.ON_ROSTER]
    return economy.order_problems(
        team.race,
        order,
        budget=record.petty_cash + record.handicap,
        available_players=sum(1 for p in roster if not p.miss_next_game),
        position_counts=Counter(p.position for p in roster),
    )


def buy_inducements(match_id: int, user: AnyUser, order: dict[str, Any]) -> Post:
    """The captain buys the team's inducements with its petty cash and handicap money; what
    is left of the petty cash goes back to the sides that put it in."""
    try:
        wanted = economy.Order.from_json(order)
    except (KeyError, TypeError, ValueError) as error:
        raise MatchError("malformed", str(error)) from None
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.PRE_MATCH:
            raise MatchError("wrong_step", "The pre-match sequence is over.")
        seq = sequence(match)
        key = pre_match_team(seq, petty=False)
        team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
        check_captain_of(match, team, user)
        record = team_records(match)[key]
        problems = _order_problems(team, record, wanted)
        if problems:
            raise MatchError("illegal_inducements", " ".join(problems))
        post = record_inducements(match, seq, team, record, wanted, author=user)
        touch(match)
        return post


def record_inducements(
    match: Match,
    seq: Sequence,
    team: Team,
    record: TeamMatchRecord,
    order: economy.Order,
    *,
    author: AnyUser | None,
) -> Post:
    cost = economy.order_cost(team.race, order)
    back_captain, back_rival = economy.spend(
        cost,
        handicap_money=record.handicap,
        captain_cash=record.petty_cash_captain or 0,
        rival_cash=record.petty_cash_rival or 0,
    )
    give_gold(team, "captain", back_captain)
    give_gold(team, "rival", back_rival)
    record.inducements = order.to_json()
    record.inducements_cost = cost
    record.save(update_fields=["inducements", "inducements_cost"])
    post = step_post(
        match,
        "inducements",
        author=author,
        actor=f"{record.key}:captain" if author else "",
        team=record.key,
        order=order.to_json(),
        cost=cost,
        returned={"captain": back_captain, "rival": back_rival},
        lost=max(0, record.handicap - cost),
        default=author is None,
    )
    if seq.step == Sequence.Step.INDUCEMENTS_FAVOURITE:
        seq.step = Sequence.Step.INDUCEMENTS_UNDERDOG
        seq.deadline_at = step_deadline(match)
        seq.save()
    else:
        _kick_off(match, seq)
    return post


def _induced_sheet(
    team: Team, key: str, order: economy.Order, clashes: frozenset[str]
) -> tuple[TeamSheet, dict[str, dict[str, Any]]]:
    """The team sheet with the inducements, which the engine plays: star players and
    mercenaries join the roster, the rest are counts on the sheet."""
    sheet = team_sheet(team, key)
    entries = lineup(team, key)
    taken = {p.number for p in team.players.all()}
    free = (n for n in range(rosters.NUMBER_MAX, 0, -1) if n not in taken)
    extra: list[PlayerSheet] = []

    def add(
        number: int,
        kind: str,
        name: str,
        title: str,
        stats: tuple[int, ...],
        skills: tuple[str, ...],
    ) -> None:
        pid = f"{key[0]}{number}"
        ma, st, ag, av = stats
        extra.append(
            PlayerSheet(
                pid,
                number,
                ma,
                st,
                ag,
                av,
                skills,
                STAR_SIDE,
                name,
                kind,
                star=kind == "star",
                mercenary=kind == "mercenary",
            )
        )
        entries[pid] = {
            "pk": None,
            "name": name,
            "number": number,
            "position": title,
            "side": STAR_SIDE,
            "kind": kind,
        }

    for star_id in order.stars:
        if star_id in clashes:
            continue
        for star in economy.star_companions(star_id):
            add(
                next(free),
                "star",
                star.name,
                "Star Player",
                (star.ma, star.st, star.ag, star.av),
                star.skills,
            )
    for merc in order.mercenaries:
        pos = gamedata.position(merc.position)
        skills = (*pos.skills, *((gamedata.skill(merc.skill).name,) if merc.skill else ()))
        number = next(free)
        add(
            number,
            "mercenary",
            f"{pos.title} {number}",
            pos.title,
            (pos.ma, pos.st, pos.ag, pos.av),
            skills,
        )
    counts = order.counts
    sheet = replace(
        sheet,
        players=(*sheet.players, *extra),
        extra_training=counts.get("extra_training", 0),
        wandering_apothecaries=counts.get("wandering_apothecary", 0),
        babes=counts.get("bloodweiser_babes", 0),
        chefs=counts.get("halfling_master_chef", 0),
        bribes=counts.get("bribes", 0),
        igor=counts.get("igor", 0) > 0,
    )
    return sheet, entries


def _kick_off(match: Match, seq: Sequence) -> None:
    """Both teams bought: the engine's match begins with the induced team sheets."""
    records = team_records(match)
    orders = {k: economy.Order.from_json(r.inducements or {}) for k, r in records.items()}
    clashes = economy.star_clashes(orders["home"], orders["away"])
    if clashes:
        step_post(match, "star_clash", stars=sorted(clashes))
    sheets, entries = {}, {}
    for key in ("home", "away"):
        team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
        sheets[key], found = _induced_sheet(team, key, orders[key], clashes)
        entries.update(found)
    before = load_state(match)
    state = new_match(
        sheets["home"],
        sheets["away"],
        house_rules=before.house_rules,
        knockout=before.knockout,
        weather=before.weather if before.weather_rolled else None,
    )
    match.lineup = entries
    match.status = Match.Status.IN_PLAY
    match.state = state.to_json(compact=True)
    seq.step = Sequence.Step.PLAYING
    seq.deadline_at = None
    seq.save()
    post = step_post(match, "kick_off", lineup=len(entries))
    opening = _open_match(match, state, post)
    _post_opening_rolls(match, records, opening, state.dice_used)


def _post_opening_rolls(
    match: Match, records: dict[str, TeamMatchRecord], opening: Resolution, first_die: int
) -> None:
    """The weather and the fans, as the sequence shows them; ``first_die`` is the index in the
    match's stream of the opening's first roll."""
    fans: dict[str, dict[str, Any]] = {}
    index = first_die
    for event in opening.events:
        faces = list(event.data.get("faces", ()))
        at = list(range(index, index + len(faces)))
        index += len(faces)
        if event.type == "weather":
            step_post(match, "weather", faces=faces, faces_at=at, result=event.data["result"])
        elif event.type == "fans":
            fans[str(event.data["team"])] = {
                "faces": faces,
                "faces_at": at,
                "total": event.data["total"],
            }
    if len(fans) < 2:
        return
    for key, record in records.items():
        record.fans = fans[key]["total"] * 1_000
        record.fame = economy.fame(fans[key]["total"], fans[other(key)]["total"])
        fans[key].update(
            fans=record.fans, fame=record.fame, fan_factor=team_of(match, key).fan_factor
        )
        record.save(update_fields=["fans", "fame"])
    step_post(match, "fans", home=fans["home"], away=fans["away"])
