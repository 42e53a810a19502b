"""The pages of the pre- and post-match sequence and of an improvement roll. Thin: each POST
calls one service function; a refusal for who you are is a 403, any other a message."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from matches import services
from matches.access import may_read
from matches.models import Advancement, Match, PlayerMatchRecord, Post, Sequence
from matches.record import careers, economy
from rules import gamedata
from teams import services as team_services
from teams.models import Player

FORBIDDEN = {"not_in_match", "not_your_side", "not_captain", "not_opposing_captain"}


def _match(request: HttpRequest, pk: int) -> Match:
    """The match, when this user may read it: a private match's sequence is its coaches' and
    GM's, and answers as a match that does not exist to anybody else (no probing for ids)."""
    match = Match.objects.select_related("home_team", "away_team").filter(pk=pk).first()
    if match is None or not may_read(match, request.user):
        raise Http404
    return match


def _act(request: HttpRequest, back: str, action: Callable[[], Any]) -> HttpResponse:
    try:
        action()
    except services.MatchError as refused:
        if refused.code in FORBIDDEN:
            return render(request, "teams/forbidden.html", {"message": refused.message}, status=403)
        messages.error(request, refused.message)
    except team_services.TeamError as refused:
        if isinstance(refused, team_services.NotAllowed):
            return render(request, "teams/forbidden.html", {"message": refused.message}, status=403)
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Done."))
    return redirect(back)


def _step_posts(match: Match, *, after_the_match: bool) -> list[Post]:
    """The steps of one half of the sequence: the post-match starts with the result (a
    finished match's pre-match page shows what came before the kick-off, and only that)."""
    posts = [p for p in match.posts.filter(kind=Post.Kind.SYSTEM) if p.summary.get("step")]
    start = next((i for i, p in enumerate(posts) if p.summary["step"] == "result"), len(posts))
    return posts[start:] if after_the_match else posts[:start]


def _amount(request: HttpRequest, name: str) -> int:
    try:
        return int(str(request.POST.get(name, "0")).replace(",", "").replace(".", "") or 0)
    except ValueError:
        return -1


@require_GET
def prematch(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    seq = Sequence.objects.filter(match=match).first()
    records = {r.key: r for r in match.team_records.all()}
    mine = services.actors_for(match, request.user)
    turn = None
    if seq is not None and match.status == Match.Status.PRE_MATCH:
        petty = seq.step.startswith("petty_cash")
        turn = services.pre_match_team(seq, petty=petty)
    buyer = _team_for(match, turn) if turn else None
    context = {
        "match": match,
        "seq": seq,
        "records": records,
        "posts": _step_posts(match, after_the_match=False),
        "turn": turn,
        "petty_sides": _undecided_petty_sides(seq, records.get(turn or ""), mine),
        "can_buy": bool(
            seq is not None
            and seq.step.startswith("inducements")
            and buyer is not None
            and request.user.is_authenticated
            and request.user.pk == buyer.captain_id
        ),
        "inducements": [
            (i, i.cost_for(buyer.race))
            for i in gamedata.inducements_for(buyer.race)
            if i.id in economy.COUNTED
        ]
        if buyer
        else [],
        "stars": gamedata.star_players_for(buyer.race) if buyer else (),
        "mercenaries": [(pos, gamedata.mercenary_cost(pos)) for pos in buyer.race_data.positions]
        if buyer
        else [],
        "budget": (records[turn].petty_cash + records[turn].handicap) if turn in records else 0,
    }
    return render(request, "matches/prematch.html", context)


def _undecided_petty_sides(seq: Sequence | None, record: Any, mine: list[str]) -> list[str]:
    """The sides of this reader that still decide their petty cash: only at a petty cash step,
    on the team whose step it is, and not once the side has decided."""
    if seq is None or record is None or not seq.step.startswith("petty_cash"):
        return []
    team = record.key
    sides = [actor.partition(":")[2] for actor in mine if actor.partition(":")[0] == team]
    return [side for side in sides if getattr(record, f"petty_cash_{side}") is None]


def _team_for(match: Match, key: str | None) -> Any:
    return match.home_team if key == "home" else match.away_team if key == "away" else None


@require_POST
def petty_cash(request: HttpRequest, pk: int) -> HttpResponse:
    _match(request, pk)
    side = str(request.POST.get("side", ""))
    amount = _amount(request, "amount")
    return _act(
        request,
        reverse("sequence:prematch", args=[pk]),
        lambda: services.transfer_petty_cash(pk, request.user, side=side, amount=amount),
    )


@require_POST
def inducements(request: HttpRequest, pk: int) -> HttpResponse:
    _match(request, pk)
    counts = {
        item: int(request.POST.get(f"count_{item}") or 0)
        for item in (*economy.COUNTED, "wizard")
        if str(request.POST.get(f"count_{item}") or "0").isdigit()
    }
    mercenaries = []
    for line in str(request.POST.get("mercenaries", "")).splitlines():
        position, _sep, skill = line.strip().partition(":")
        if position:
            mercenaries.append({"position": position.strip(), "skill": skill.strip()})
    order = {
        "counts": counts,
        "stars": request.POST.getlist("stars"),
        "mercenaries": mercenaries,
    }
    return _act(
        request,
        reverse("sequence:prematch", args=[pk]),
        lambda: services.buy_inducements(pk, request.user, order),
    )


@require_GET
def postmatch(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    seq = Sequence.objects.filter(match=match).first()
    records = {r.key: r for r in match.team_records.all()}
    user = request.user
    awards_open = seq is not None and seq.step == Sequence.Step.AWARDS
    mvp_forms = []
    mine = services.actors_for(match, user)
    if awards_open:
        for key, record in records.items():
            opposing = "away" if key == "home" else "home"
            if f"{opposing}:captain" in mine and not record.mvp_chosen:
                mvp_forms.append(
                    {
                        "team": key,
                        "team_name": _team_for(match, key).name,
                        "players": [
                            (pid, match.lineup[pid]) for pid in services.mvp_eligible(match, key)
                        ],
                    }
                )
    winner = next((r for r in records.values() if r.result == economy.WIN), None)
    context = {
        "match": match,
        "seq": seq,
        "records": records,
        "posts": _step_posts(match, after_the_match=True),
        "mvp_forms": mvp_forms,
        "can_reroll": bool(
            awards_open
            and winner is not None
            and winner.winnings_reroll is None
            and f"{winner.key}:captain" in mine
        ),
        "advancements": match.advancements.select_related("player", "player__team"),
        "journeymen": _journeymen(match, user),
        "player_tables": _player_tables(match),
    }
    return render(request, "matches/postmatch.html", context)


def _player_tables(match: Match) -> list[tuple[Any, list[PlayerMatchRecord]]]:
    """Each team's players in the match, home first, by shirt number (as a number)."""
    records = sorted(
        PlayerMatchRecord.objects.filter(match=match),
        key=lambda record: careers.shirt_order(record.engine_id),
    )
    return [
        (team, [r for r in records if r.team_id == team.pk])
        for team in (match.home_team, match.away_team)
        if any(r.team_id == team.pk for r in records)
    ]


@require_POST
def reroll(request: HttpRequest, pk: int) -> HttpResponse:
    _match(request, pk)
    again = request.POST.get("reroll") == "yes"
    return _act(
        request,
        reverse("sequence:postmatch", args=[pk]),
        lambda: services.reroll_winnings(pk, request.user, reroll=again),
    )


@require_POST
def mvp(request: HttpRequest, pk: int) -> HttpResponse:
    _match(request, pk)
    team = str(request.POST.get("team", ""))
    mje, pje = str(request.POST.get("mje", "")), str(request.POST.get("pje", ""))
    return _act(
        request,
        reverse("sequence:postmatch", args=[pk]),
        lambda: services.choose_mvp(pk, request.user, team=team, mje=mje, pje=pje),
    )


def advance(request: HttpRequest, pk: int) -> HttpResponse:
    adv = get_object_or_404(
        Advancement.objects.select_related("player", "player__team", "match"), pk=pk
    )
    if not may_read(adv.match, request.user):
        raise Http404
    if request.method == "POST":
        choice = str(request.POST.get("choice", ""))
        return _act(
            request,
            reverse("sequence:advance", args=[pk]),
            lambda: services.choose_advancement(pk, request.user, choice),
        )
    player = adv.player
    context = {
        "adv": adv,
        "player": player,
        "can_choose": adv.chosen_at is None and player.team.controls(request.user, player.side),
        "history": PlayerMatchRecord.objects.filter(player=player).select_related("match"),
    }
    return render(request, "teams/advance.html", context)


def _journeymen(match: Match, user: Any) -> list[dict[str, Any]]:
    """The journeymen the two teams may still hire for good, with whether this user coaches
    the side that would pay."""
    players = Player.objects.filter(
        team__in=(match.home_team_id, match.away_team_id), status=Player.Status.JOURNEYMAN
    ).select_related("team")
    return [
        {
            "player": player,
            "price": player.position_data.cost,
            "treasury": player.team.treasury(player.side),
            "can_hire": player.team.controls(user, player.side),
        }
        for player in players.order_by("team__name", "number")
    ]


@require_POST
def hire_journeyman(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    match = _match(request, pk)
    player = get_object_or_404(
        Player.objects.select_related("team"),
        pk=player_id,
        team__in=(match.home_team_id, match.away_team_id),
    )
    return _act(
        request,
        reverse("sequence:postmatch", args=[pk]),
        lambda: team_services.hire_journeyman(request.user, player),
    )
