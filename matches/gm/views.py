"""The GM's pages and the coaches' side of disputes: the dispute queue, a match's disputes
and rulings, match control.
Every change goes through matches.services; these views only read forms and show results."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from bbweb.roles import is_game_master
from matches import labels, services
from matches.acting import act, back_to, forbidden, form_errors
from matches.gm import dispute_record
from matches.gm.forms import (
    PLAYER_STATES,
    ControlForm,
    DisputeForm,
    RulingForm,
)
from matches.models import Dispute, Match, MatchEvent
from matches.record import folding
from matches.thread.page import describe as thread_describe
from matches.thread.sentences import Names, post_range

CONTROLS = ("pause", "resume", "lock", "unlock", "extend", "deadline", "replace", "end")

# -- access helpers ------------------------------------------------------------------------------


def _match(request: HttpRequest, pk: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("home_team", "away_team"), pk=pk)
    user = request.user
    insider = services.actors_for(match, user) or services.is_match_gm(match, user)
    if not match.is_public and not insider:
        raise Http404
    return match


# -- the disputes of a match ---------------------------------------------------------------------


def describe(event: MatchEvent, names: Names, post_number: int | None) -> str:
    """One line for an event in the thread's notation, led by the number of the post that
    holds it (the number a person reads): "post #40 · Dodge · #6 Hans Richter [3] 4+ → failure"."""
    line = thread_describe(names, event.type, event.data)
    text = line.plain() if line is not None else labels.event_name(event.type)
    if post_number is None:
        return text
    return _("post #%(number)s") % {"number": post_number} + " · " + text


def _post_numbers(match: Match, events: list[MatchEvent]) -> dict[int, int]:
    """The post number of each event's post, by the post's id (an event read with its
    ``post_number`` needs no query)."""
    known = {e.post_id: e.post_number for e in events if hasattr(e, "post_number")}
    ids = {e.post_id for e in events if e.post_id and e.post_id not in known}
    if ids:  # order_by(): the posts' default order would join the match for nothing
        known.update(match.posts.filter(pk__in=ids).order_by().values_list("pk", "number"))
    return {pk: number for pk, number in known.items() if pk is not None}


DISPUTABLE_ROLLS = 40  # the latest live rolls are offered for a dispute, newest first


def _latest_live_rolls(match: Match) -> list[MatchEvent]:
    """The latest rolls no ruling took back, newest first, in one query: the rewinds and
    re-rolls come with them, and one always follows the events it undoes, so walking back
    from the newest meets it before them. A roll taken back costs its place in the list."""
    latest = (
        match.events.filter(Q(data__has_key="faces") | Q(type__in=folding.UNDOING_EVENTS))
        .only("number", "type", "data", "post_id")
        .annotate(post_number=F("post__number"))
        .order_by("-number")[: DISPUTABLE_ROLLS * 2]
    )
    undone: set[int] = set()
    rolls: list[MatchEvent] = []
    for event in latest:
        if event.type in folding.UNDOING_EVENTS:
            undone.update(folding.undone_numbers([event]))
        elif event.data.get("faces") and event.number not in undone:
            rolls.append(event)
    return rolls[:DISPUTABLE_ROLLS]


def disputes_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """The context of matches/_disputes.html, for any page that includes it."""
    coaching = bool(services.actors_for(match, request.user))
    is_gm = services.is_match_gm(match, request.user)
    rolls: list[MatchEvent] = []
    if coaching or is_gm:  # only they see the list of rolls to dispute
        rolls = _latest_live_rolls(match)
    names = Names(match)
    with_teams = Names(match, with_team=True)  # both rosters in one list
    shown, numbers = _shown_disputes(match, names, is_gm, rolls)
    return {
        "match": match,
        "disputes": shown,
        "can_dispute": _may_dispute(match, coaching),
        "is_gm": is_gm,
        "dispute_targets": [(e.number, _line(e, names, numbers)) for e in rolls],
        "players": sorted(
            ((pid, with_teams.player(pid)) for pid in match.lineup),
            key=lambda item: (item[0][0] != "h", int(item[0][1:])),
        ),
        "rulings": Dispute.Ruling.choices,
        "player_states": PLAYER_STATES,
        "next": request.get_full_path(),
    }


def disputes_summary(match: Match, coaching: bool) -> dict[str, Any]:
    """The context of matches/_disputes_summary.html: the match page lists the
    disputes and leads to the disputes page, where they are raised and ruled with the rolls
    in context (the 40 latest rolls and each rewind's preview are read there only)."""
    shown, _numbers = _shown_disputes(match, Names(match), False, [])
    return {"match": match, "disputes": shown, "can_dispute": _may_dispute(match, coaching)}


def _shown_disputes(
    match: Match, names: Names, is_gm: bool, rolls: list[MatchEvent]
) -> tuple[list["ShownDispute"], dict[int, int]]:
    """The match's disputes as shown, and the post numbers of their events and of ``rolls``
    (one query for both)."""
    disputes = list(match.disputes.select_related("raised_by", "event", "post"))
    numbers = _post_numbers(match, rolls + [d.event for d in disputes if d.event is not None])
    return [_shown_dispute(match, names, numbers, d, is_gm) for d in disputes], numbers


def _may_dispute(match: Match, coaching: bool) -> bool:
    return coaching and match.status != Match.Status.FINISHED


@dataclass
class ShownDispute:
    dispute: Dispute
    event_line: str  # the disputed roll in the thread's notation
    rewind: dict[str, Any] | None  # for the GM: what a rewind would undo
    # on the disputes page: the disputed post and the events around the roll
    context: list[dispute_record.RecordPost] | None = None


def _shown_dispute(
    match: Match, names: Names, numbers: dict[int, int], dispute: Dispute, is_gm: bool
) -> ShownDispute:
    event = dispute.event
    if event is None:
        return ShownDispute(dispute, "", None)
    warning = None
    if is_gm and dispute.is_open:
        warning = _rewind_warning(match, names, event.number)
    return ShownDispute(dispute, _line(event, names, numbers), warning)


def _line(event: MatchEvent, names: Names, numbers: dict[int, int]) -> str:
    return describe(event, names, numbers.get(event.post_id or 0))


def _rewind_warning(match: Match, names: Names, event_number: int) -> dict[str, Any] | None:
    """What a rewind to before the disputed event would undo: its posts and its dice."""
    preview = services.rewind_preview(match, event_number)
    if preview is None:
        return None
    numbers = {post.pk: post.number for post in preview.posts}
    numbers.update(_post_numbers(match, preview.rolls))
    return {
        "posts": post_range([post.number for post in preview.posts]),
        "rolls": [_line(e, names, numbers) for e in preview.rolls],
    }


@require_GET
def match_disputes(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    context = disputes_context(request, match)
    # Each dispute leads with its roll in context; the whole record only when asked for.
    for shown in context["disputes"]:
        shown.context = dispute_record.dispute_context(match, shown.dispute)
    whole = request.GET.get("record") == "all"
    context["record"] = dispute_record.whole_record(match) if whole else None
    context["record_size"] = dispute_record.record_size(match)
    return render(request, "matches/disputes.html", context)


@login_required
@require_POST
def raise_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(request, pk)
    back = back_to(request, reverse("gm:match_disputes", args=[match.pk]))
    form = DisputeForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(back)
    return act(
        request,
        back,
        lambda: services.raise_dispute(
            match.pk,
            request.user,
            reason=form.cleaned_data["reason"],
            event_number=form.cleaned_data["event"],
            post_number=form.cleaned_data["post"],
        ),
        _("Your dispute is with the GM."),
    )


@login_required
@require_POST
def rule(request: HttpRequest, pk: int, dispute_id: int) -> HttpResponse:
    match = _match(request, pk)
    back = back_to(request, reverse("gm:match_disputes", args=[match.pk]))
    if not services.is_match_gm(match, request.user):
        return forbidden(request, _("Only the match's game master rules on disputes."), back)
    form = RulingForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(back)
    ruling = form.cleaned_data["ruling"]
    return act(
        request,
        back,
        lambda: services.rule_on_dispute(
            match.pk, request.user, dispute_id, ruling, **form.service_arguments()
        ),
        _("Ruled: %(ruling)s.") % {"ruling": Dispute.Ruling(ruling).label},
    )


@login_required
@require_POST
def control(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    match = _match(request, pk)
    back = back_to(request, reverse("gm:match_disputes", args=[match.pk]))
    if action not in CONTROLS:
        raise Http404
    if not services.is_match_gm(match, request.user):
        return forbidden(request, _("Only the match's game master controls it."), back)
    form = ControlForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(back)
    data, user, note = form.cleaned_data, request.user, form.cleaned_data["note"]
    calls: dict[str, Callable[[], Any]] = {
        "pause": lambda: services.pause_match(match.pk, user, note=note),
        "resume": lambda: services.resume_match(match.pk, user, note=note),
        "lock": lambda: services.lock_match(match.pk, user, note=note),
        "unlock": lambda: services.unlock_match(match.pk, user, note=note),
        "extend": lambda: services.extend_deadline(match.pk, user, data["hours"] or 0, note=note),
        "deadline": lambda: services.set_deadline(match.pk, user, data["at"], note=note),
        "replace": lambda: services.replace_coach(
            match.pk, user, data["actor"], data["username"], note=note
        ),
        "end": lambda: services.end_match(match.pk, user, note=note),
    }
    return act(request, back, calls[action], _("Done."))


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    """The GM's open disputes across the matches it runs, oldest first."""
    user = request.user
    if not isinstance(user, User) or not is_game_master(user):
        return forbidden(request, _("The dispute queue is for game masters."), reverse("home"))
    disputes = (
        Dispute.objects.filter(match__gm=user, status=Dispute.Status.OPEN)
        .select_related("match__home_team", "match__away_team", "raised_by", "event__post", "post")
        .order_by("created_at", "pk")
    )
    return render(request, "matches/gm_queue.html", {"disputes": disputes})
