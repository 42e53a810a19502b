"""postmatch: the post-match sequence, from the final whistle to the teams' new values.

At the final whistle: each player's achievements and injury, both winnings dice and fan
factor rolls. The winner's captain may re-roll its winnings die once; each captain chooses
the MJE and the PJE of the opposing team (house rule 4). Then the gold is shared by side
value (house rule 3), SPP and injuries are written, improvement rolls wait for the coach of
the player's side, and finally the team values are recomputed and journeymen offered.
"""

from collections import Counter
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from matches.models import Advancement, Match, PlayerMatchRecord, Post, Sequence, TeamMatchRecord
from matches.record import economy, folding, spp
from matches.record import values as team_values
from matches.services import seasons
from matches.services.actors import AnyUser, actors_for
from matches.services.core import MatchError, locked_match, touch
from matches.services.sequence import (
    check_captain_of,
    coaches_in,
    give_gold,
    other,
    roll_sequence,
    sequence,
    step_deadline,
    step_post,
    team_of,
    team_records,
)
from rules.engine import MatchState
from teams import advancement
from teams.models import Player, Team


def begin_post_match(match: Match, state: MatchState) -> None:
    seq = Sequence.objects.select_for_update().filter(match=match).first()
    if seq is None:
        values = {}
        for key in ("home", "away"):
            team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
            values[key] = team.value
        seq = Sequence.objects.create(
            match=match,
            step=Sequence.Step.PLAYING,
            favourite=economy.favourite(values["home"], values["away"]),
        )
        for key in ("home", "away"):
            TeamMatchRecord.objects.create(
                match=match, team=team_of(match, key), key=key, value_before=values[key]
            )
    result = state.result or {}
    winner = result.get("winner")
    score = state.score
    records = team_records(match)
    for key, record in records.items():
        record.result = economy.result_for(key, winner)
        record.score_for, record.score_against = score[key], score[other(key)]
        record.fame = state.teams[key].fame
        winnings = roll_sequence(match, seq)
        record.winnings_dice, record.winnings_dice_at = winnings.faces, winnings.at
        record.winnings_reroll = None if record.result == economy.WIN else False
        team = team_of(match, key)
        fan_factor = roll_sequence(match, seq, economy.fan_factor_dice(record.result))
        record.fan_factor_dice, record.fan_factor_dice_at = fan_factor.faces, fan_factor.at
        record.fan_factor_change = economy.fan_factor_change(
            team.fan_factor, record.result, sum(fan_factor.faces)
        )
        record.save()
    _record_players(match, state)
    step_post(match, "result", winner=winner, score=dict(score), by=result.get("by", ""))
    step_post(
        match,
        "winnings_dice",
        home=_winnings_dice(records["home"]),
        away=_winnings_dice(records["away"]),
        winner=winner,
    )
    seq.step = Sequence.Step.AWARDS
    seq.deadline_at = step_deadline(match)
    seq.save()


def _winnings_dice(record: TeamMatchRecord) -> dict[str, Any]:
    """A team's dice at the final whistle: its winnings die and its fan factor dice (shown
    again once the winnings are shared)."""
    return {
        "dice": record.winnings_dice,
        "dice_at": record.winnings_dice_at,
        "fan_factor_dice": record.fan_factor_dice,
        "fan_factor_dice_at": record.fan_factor_dice_at,
        "fame": record.fame,
        "result": record.result,
    }


def _record_players(match: Match, state: MatchState) -> None:
    events = list(match.events.only("number", "type", "data").order_by("number"))
    undone = folding.undone_numbers(events)  # a rewound touchdown earns nobody anything
    found = spp.achievements((e.type, e.data) for e in events if e.number not in undone)
    for pid, entry in match.lineup.items():
        key = spp.team_of(pid)
        counts = found.get(pid, Counter())
        player = state.players.get(pid)
        PlayerMatchRecord.objects.create(
            match=match,
            team=team_of(match, key),
            player_id=entry.get("pk"),
            engine_id=pid,
            name=str(entry.get("name", pid)),
            kind=str(entry.get("kind", "player")),
            injury=(player.casualty or "") if player is not None else "",
            **{what: counts.get(what, 0) for what in spp.AWARDS},
        )


def reroll_winnings(match_id: int, user: AnyUser, *, reroll: bool) -> Post:
    """The winner's captain keeps the winnings die or rolls it again (the second stands)."""
    with transaction.atomic():
        match = locked_match(match_id)
        seq = _awards_sequence(match)
        records = team_records(match)
        key = next((k for k, r in records.items() if r.result == economy.WIN), None)
        if key is None:
            raise MatchError("no_winner", "Only the winner may re-roll its winnings.")
        check_captain_of(match, team_of(match, key), user)
        post = decide_reroll(match, seq, records[key], reroll, author=user)
        maybe_settle_awards(match, seq)
        touch(match)
        return post


def _awards_sequence(match: Match) -> Sequence:
    seq = sequence(match)
    if match.status != Match.Status.POST_MATCH or seq.step != Sequence.Step.AWARDS:
        raise MatchError("wrong_step", "The winnings and the awards are not being decided.")
    return seq


def decide_reroll(
    match: Match, seq: Sequence, record: TeamMatchRecord, reroll: bool, *, author: AnyUser | None
) -> Post:
    if record.winnings_reroll is not None:
        raise MatchError("already_decided", "The winnings die was already kept or re-rolled.")
    record.winnings_reroll = bool(reroll)
    if reroll:
        again = roll_sequence(match, seq)
        record.winnings_dice = [*record.winnings_dice, *again.faces]
        record.winnings_dice_at = [*record.winnings_dice_at, *again.at]
    record.save(update_fields=["winnings_reroll", "winnings_dice", "winnings_dice_at"])
    seq.save()
    return step_post(
        match,
        "winnings_reroll",
        author=author,
        actor=f"{record.key}:captain" if author else "",
        team=record.key,
        reroll=bool(reroll),
        dice=record.winnings_dice,
        dice_at=record.winnings_dice_at,
        default=author is None,
    )


def choose_mvp(match_id: int, user: AnyUser, *, team: str, mje: str, pje: str) -> Post:
    """House rule 4: the captain of the *opposing* team gives the MJE (5 SPP) and the PJE
    (4 SPP) to two players of ``team`` (home or away) who were in the match."""
    if team not in ("home", "away"):
        raise MatchError("malformed", "The awards go to the home or the away team.")
    with transaction.atomic():
        match = locked_match(match_id)
        opposing = team_of(match, other(team))
        if not coaches_in(match, opposing, "captain", user):
            if not actors_for(match, user):
                raise MatchError("not_in_match", "Only the opposing captain chooses the MVP.")
            raise MatchError(
                "not_opposing_captain", "Only the opposing team's captain chooses these awards."
            )
        seq = _awards_sequence(match)
        record = team_records(match)[team]
        if record.mvp_chosen:
            raise MatchError("already_decided", "These awards were already given.")
        eligible = mvp_eligible(match, team)
        if mje == pje or mje not in eligible or pje not in eligible:
            raise MatchError(
                "bad_choice", "Choose two different players of that team who were in the match."
            )
        post = give_awards(match, record, mje, pje, author=user)
        maybe_settle_awards(match, seq)
        touch(match)
        return post


def mvp_eligible(match: Match, team: str) -> list[str]:
    return sorted(
        (pid for pid in match.lineup if spp.team_of(pid) == team),
        key=lambda pid: (int(match.lineup[pid].get("number") or 0), pid),
    )


def give_awards(
    match: Match,
    record: TeamMatchRecord,
    mje: str,
    pje: str,
    *,
    author: AnyUser | None,
    drawn: dict[str, list[int]] | None = None,
) -> Post:
    record.mje, record.pje, record.mvp_chosen = mje, pje, True
    record.save(update_fields=["mje", "pje", "mvp_chosen"])
    PlayerMatchRecord.objects.filter(match=match, engine_id=mje).update(award=spp.MJE)
    PlayerMatchRecord.objects.filter(match=match, engine_id=pje).update(award=spp.PJE)
    names = {pid: match.lineup[pid].get("name", pid) for pid in (mje, pje)}
    return step_post(
        match,
        "mvp",
        author=author,
        actor=f"{other(record.key)}:captain" if author else "",
        team=record.key,
        mje={"id": mje, "name": names[mje]},
        pje={"id": pje, "name": names[pje]},
        default=author is None,
        **({"drawn": drawn} if drawn else {}),
    )


def maybe_settle_awards(match: Match, seq: Sequence) -> None:
    records = team_records(match)
    if all(r.mvp_chosen and r.winnings_reroll is not None for r in records.values()):
        _settle_awards(match, seq, records)


def _settle_awards(match: Match, seq: Sequence, records: dict[str, TeamMatchRecord]) -> None:
    for key, record in records.items():
        team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
        gross = economy.winnings_before_expenses(
            record.winnings_dice[-1], record.fame, record.result
        )
        record.spiralling_expenses = economy.spiralling_expenses(record.value_before)
        record.winnings = max(0, gross - record.spiralling_expenses)
        record.captain_value = team.side_value("captain")
        record.rival_value = team.side_value("rival")
        record.captain_share, record.rival_share = economy.split_winnings(
            record.winnings, record.captain_value, record.rival_value
        )
        record.save()
        give_gold(team, "captain", record.captain_share)
        give_gold(team, "rival", record.rival_share)
        step_post(
            match,
            "winnings",
            team=key,
            die=record.winnings_dice[-1],
            **_last_die_at(record),
            fame=record.fame,
            result=record.result,
            gross=gross,
            spiralling=record.spiralling_expenses,
            winnings=record.winnings,
            captain_value=record.captain_value,
            rival_value=record.rival_value,
            captain_share=record.captain_share,
            rival_share=record.rival_share,
            rounding=economy.LARGEST_REMAINDER,
            items=team_values.itemised(
                team
            ),  # the side values recomputed (matches.verification.figures)
        )
        if record.fan_factor_change:
            Team.objects.filter(pk=team.pk).update(
                fan_factor=F("fan_factor") + record.fan_factor_change
            )
        step_post(
            match,
            "fan_factor",
            team=key,
            dice=record.fan_factor_dice,
            dice_at=record.fan_factor_dice_at,
            before=team.fan_factor,
            change=record.fan_factor_change,
        )
    _apply_spp_and_injuries(match, seq)


def _last_die_at(record: TeamMatchRecord) -> dict[str, Any]:
    """Where the winnings die that stands was read (unknown for a match that reached its
    final whistle before the sequence's rolls were indexed)."""
    if len(record.winnings_dice_at) != len(record.winnings_dice):
        return {}
    return {"die_at": record.winnings_dice_at[-1]}


def _apply_spp_and_injuries(match: Match, seq: Sequence) -> None:
    played = {r.player_id for r in match.player_records.all() if r.player_id}
    for key in ("home", "away"):
        # Whoever sat this match out for an injury has now missed it.
        team_of(match, key).players.filter(miss_next_game=True).exclude(pk__in=played).update(
            miss_next_game=False
        )
    rows: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
    injuries: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
    rolls: list[dict[str, Any]] = []
    for record in match.player_records.select_related("player").order_by("engine_id"):
        counts = {what: getattr(record, what) for what in spp.AWARDS}
        key = spp.team_of(record.engine_id)
        earns = record.kind == "player"  # stars and mercenaries keep no SPP
        record.spp = spp.points(counts, record.award) if earns else 0
        record.save(update_fields=["spp"])
        if record.spp or record.award or any(counts.values()):
            rows[key].append(
                {
                    "id": record.engine_id,
                    "name": record.name,
                    **counts,
                    "award": record.award,
                    "spp": record.spp,
                }
            )
        player = record.player
        if player is None:
            if record.injury and record.injury != "badly_hurt":
                injuries[key].append(
                    {
                        "id": record.engine_id,
                        "name": record.name,
                        "injury": record.injury,
                        "ignored": True,
                    }
                )
            continue
        before = player.spp
        player.spp = before + record.spp
        if record.injury:
            _apply_injury(player, record.injury)
            injuries[key].append(
                {"id": record.engine_id, "name": record.name, "injury": record.injury}
            )
        player.save()
        if player.status == Player.Status.DEAD:
            continue
        for _ in range(advancement.rolls_due(before, player.spp)):
            rolls.append(_open_advancement(match, seq, player))
    step_post(match, "spp", home=rows["home"], away=rows["away"])
    step_post(match, "injuries", home=injuries["home"], away=injuries["away"])
    if rolls:
        step_post(match, "improvement_rolls", rolls=rolls)
        seq.step = Sequence.Step.ADVANCEMENT
        seq.deadline_at = step_deadline(match)
        seq.save()
    else:
        _finish_sequence(match, seq)


def _apply_injury(player: Player, casualty: str) -> None:
    change = advancement.injury_change(casualty)
    if change.dead:
        player.status = Player.Status.DEAD
        return
    player.miss_next_game = player.miss_next_game or change.miss_next_game
    player.niggling_injuries += change.niggling
    if change.stat:
        field = f"{change.stat.lower()}_loss"
        loss = getattr(player, field)
        if advancement.stat_loss_allowed(player.position_data, change.stat, player.gained, loss):
            setattr(player, field, loss + 1)


def _open_advancement(match: Match, seq: Sequence, player: Player) -> dict[str, Any]:
    """An improvement roll for the player; the options already count the rolls before it."""
    rolled = roll_sequence(match, seq, 2)
    pending = [a.choice for a in Advancement.objects.filter(player=player, match=match)]
    gained = [*player.gained, *[c for c in pending if c]]
    roll = advancement.ImprovementRoll(*rolled.faces)
    options = advancement.options(player.position_data, gained, roll)
    Advancement.objects.create(
        match=match,
        player=player,
        dice=rolled.faces,
        dice_at=rolled.at,
        options=options,
        deadline_at=step_deadline(match),
    )
    return {
        "player": player.pk,
        "name": player.name,
        "side": player.side,
        "dice": rolled.faces,
        "dice_at": rolled.at,
    }


def choose_advancement(advancement_id: int, user: AnyUser, choice: str) -> Post:
    """The coach of the player's side takes a skill or a characteristic the roll offers."""
    found = (
        Advancement.objects.select_related("player", "player__team")
        .filter(pk=advancement_id)
        .first()
    )
    if found is None:
        raise MatchError("no_advancement", "There is no such improvement roll.")
    with transaction.atomic():
        match = locked_match(found.match_id)
        adv = Advancement.objects.select_for_update().get(pk=advancement_id)
        player = Player.objects.select_related("team").get(pk=adv.player_id)
        if not coaches_in(match, player.team, player.side, user):
            if not player.team.is_coach(user):
                raise MatchError("not_in_match", "Only the coach of the player's side chooses.")
            raise MatchError("not_your_side", "Only the coach of the player's side chooses.")
        post = take_advancement(match, sequence(match), adv, player, choice, author=user)
        touch(match)
        return post


def take_advancement(
    match: Match,
    seq: Sequence,
    adv: Advancement,
    player: Player,
    choice: str,
    *,
    author: AnyUser | None,
    drawn: dict[str, list[int]] | None = None,
) -> Post:
    if adv.chosen_at is not None:
        raise MatchError("already_decided", "That improvement was already chosen.")
    if choice not in adv.options:
        raise MatchError("bad_choice", "The roll does not offer that.")
    adv.choice = choice
    adv.chosen_at = timezone.now()
    adv.chosen_by_id = author.pk if author is not None and author.is_authenticated else None
    adv.save()
    player.skills = [*player.gained, choice]
    player.save(update_fields=["skills"])
    post = step_post(
        match,
        "advancement",
        author=author,
        actor=f"{'home' if player.team_id == match.home_team_id else 'away'}:{player.side}"
        if author
        else "",
        player=player.pk,
        name=player.name,
        dice=adv.dice,
        dice_at=adv.dice_at,
        choice=choice,
        value=player.value,
        default=author is None,
        **({"drawn": drawn} if drawn else {}),
    )
    if not match.advancements.filter(chosen_at__isnull=True).exists():
        _finish_sequence(match, seq)
    return post


def _finish_sequence(match: Match, seq: Sequence) -> None:
    values, items = {}, {}
    journeymen: dict[str, list[dict[str, Any]]] = {}
    for key, record in team_records(match).items():
        team = Team.objects.prefetch_related("players").get(pk=team_of(match, key).pk)
        record.value_after = team.value
        record.treasury_after = team.captain_treasury + team.rival_treasury
        record.save(update_fields=["value_after", "treasury_after"])
        values[key], items[key] = team.value, team_values.itemised(team)
        journeymen[key] = [
            {
                "player": p.pk,
                "name": p.name,
                "number": p.number,
                "position": p.position,
                "side": p.side,
                "cost": p.position_data.cost,
            }
            for p in team.roster()
            if p.status == Player.Status.JOURNEYMAN
        ]
    step_post(match, "team_values_after", home=values["home"], away=values["away"], items=items)
    if journeymen["home"] or journeymen["away"]:
        step_post(match, "journeymen", home=journeymen["home"], away=journeymen["away"])
    seq.step = Sequence.Step.DONE
    seq.deadline_at = None
    seq.save()
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    seasons.after_finish(match)
