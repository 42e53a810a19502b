from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import retarget

from matches import labels, services
from matches.access import may_read
from matches.deadlines.views import deadline_context
from matches.gm.panel import gm_panel_context
from matches.gm.views import disputes_context, disputes_summary
from matches.models import Match, Post
from matches.play import page
from matches.play.forms import AnswerForm, DeclareForm, EditForm, PlanForm, PostForm, ScheduleForm
from matches.play.pitch import grid_svg
from matches.play.replay import replay_document
from matches.services import MatchError
from matches.thread.page import PAGE_SIZE, ThreadPage, per_version_html, thread
from matches.thread.sentences import Names, named

# -- access helpers -------------------------------------------------------------------------------


def _matches() -> QuerySet[Match]:
    return Match.objects.select_related(
        "home_team__captain",
        "home_team__rival",
        "away_team__captain",
        "away_team__rival",
        "gm",
        "league",
    )


def _access_only() -> QuerySet[Match]:
    """Only what ``may_read`` and the match's version need: the poll asks this every few
    seconds, and mostly hears that nothing changed."""
    return Match.objects.select_related("home_team", "away_team").only(
        "version",
        "is_public",
        "gm",
        "substitutes",
        "home_team__captain",
        "home_team__rival",
        "away_team__captain",
        "away_team__rival",
    )


def _readable(
    request: HttpRequest, pk: int, matches: Callable[[], QuerySet[Match]] = _matches
) -> Match | None:
    """The match, or None when this reader must log in first: a private match is read by its
    coaches and its GM only, and does not exist for anybody else."""
    match = services.match_by_key(pk, matches)
    if match is None:
        raise Http404
    if may_read(match, request.user):
        return match
    if not request.user.is_authenticated:
        return None
    raise Http404


def _in_match(request: HttpRequest, pk: int) -> Match:
    """The match, for one of its coaches or its GM (403 for anyone else)."""
    match = get_object_or_404(_matches(), pk=pk)
    if not services.actors_for(match, request.user) and not services.is_match_gm(
        match, request.user
    ):
        raise PermissionDenied
    return match


def _live(request: HttpRequest, match: Match, **extra: Any) -> HttpResponse:
    match.refresh_from_db()
    return _live_part(request, match, **extra)


def _live_part(request: HttpRequest, match: Match, **extra: Any) -> HttpResponse:
    """The live part of the page, and out of band every other part that moves with the
    match (the deadlines and the fouls of the turn): one refresh for all of them. The
    pitch's squares never change: the page keeps the ones it has (hx-preserve), more than
    half of what the live part would weigh with them."""
    since = _post_number(request, "since")
    context = {**page.page_context(match, request.user, since=since), **extra, "grid_kept": True}
    response = render(request, "matches/detail.html#live", context)
    response.write(_deadlines_panel(request, match, context["open_decision"], oob=True))
    if context["is_gm"]:  # the GM panel (its open disputes) moves with the match too
        panel = {**context, "gm_panel": gm_panel_context(request, match), "oob": True}
        response.write(render_to_string("matches/_gm_panel.html", panel, request))
    return response


def _deadlines_panel(
    request: HttpRequest, match: Match, decision: Any, *, oob: bool = False
) -> str:
    context = {**deadline_context(match, request.user, decision), "oob": oob}
    return render_to_string("matches/_deadlines.html", context, request)


def _disputes_panel(request: HttpRequest, match: Match, is_gm: bool) -> str:
    """The GM rules on the match page, the rewind's preview at hand; anybody else reads the
    disputes there and raises one on the disputes page, where the latest rolls are listed in
    their context (reading them is most of what the full panel costs, on every page)."""
    if is_gm:
        context = {**disputes_context(request, match), "control_elsewhere": True}
        return render_to_string("matches/_disputes.html", context, request)
    coaching = bool(services.actors_for(match, request.user))
    return per_version_html(
        match,
        "disputes",
        [coaching],
        lambda: render_to_string(
            "matches/_disputes_summary.html", disputes_summary(match, coaching), request
        ),
    )


def _post_number(request: HttpRequest, name: str) -> int | None:
    """A post number from the query string or the form (``before``, ``since``); None if absent
    or not a number."""
    value = request.GET.get(name) or request.POST.get(name) or ""
    return int(value) if value.isdigit() and int(value) > 0 else None


def _write(
    request: HttpRequest, match: Match, action: Callable[[], Any], **extra: Any
) -> HttpResponse:
    """Run a service call; the live part of the page comes back, or the refusal alone."""
    try:
        action()
    except MatchError as refused:
        return _refused(request, match, refused.code, refused.message)
    if _htmx(request):
        return _live(request, match, **extra)
    return redirect("matches:detail", pk=match.pk)


def _refused(request: HttpRequest, match: Match, code: str, message: str) -> HttpResponse:
    message = named(Names(match), message)  # the engine's ids as the players' names
    context = {"error": {"message": message, "reason": labels.label(labels.ERRORS, code)}}
    if _htmx(request):
        return retarget(render(request, "matches/detail.html#flash", context), "#flash")
    messages.error(request, f"{context['error']['reason']} ({message})")
    return redirect("matches:detail", pk=match.pk)


def _htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _form_refused(request: HttpRequest, match: Match, form: Any) -> HttpResponse:
    error = form.errors.as_data()
    first = next(iter(error.values()))[0]
    return _refused(request, match, first.code or "malformed", " ".join(first.messages))


# -- reading --------------------------------------------------------------------------------------


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    user = request.user.pk
    mine = Q(home_team__captain=user) | Q(home_team__rival=user) | Q(away_team__captain=user)
    mine |= Q(away_team__rival=user) | Q(gm=user)
    visible = (
        _matches().filter(Q(is_public=True) | mine) if user else _matches().filter(is_public=True)
    )
    context = {
        "in_play": visible.filter(status=Match.Status.IN_PLAY),
        "scheduled": visible.filter(status__in=[Match.Status.SCHEDULED, Match.Status.PRE_MATCH]),
        "finished": visible.filter(status__in=[Match.Status.POST_MATCH, Match.Status.FINISHED]),
        "mine": visible.filter(mine) if user else [],
        "may_schedule": services.may_schedule_any(request.user),
    }
    return render(request, "matches/list.html", context)


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _readable(request, pk)
    if match is None:
        return redirect_to_login(request.get_full_path())
    context = page.page_context(match, request.user, before=_post_number(request, "before"))
    context["deadlines_panel"] = _deadlines_panel(request, match, context["open_decision"])
    context["disputes_panel"] = _disputes_panel(request, match, context["is_gm"])
    if context["is_gm"]:
        context["gm_panel"] = gm_panel_context(request, match)
    if isinstance(request.user, User):
        context["catch_up"] = _catch_up(match, request.user, context["thread"])
    return render(request, "matches/detail.html", context)


def _catch_up(match: Match, user: User, shown: ThreadPage) -> dict[str, Any]:
    """What is new since the reader's last visit, and where the link to it goes: the first
    unseen post on this page, or the page of the thread that holds it."""
    found = services.record_visit(match, user)
    context: dict[str, Any] = {"new": found.new, "first": found.first}
    if found.first is not None:
        numbers = [pv.number for group in shown.groups for pv in group.posts]
        on_page = bool(numbers) and min(numbers) <= found.first
        page = "" if on_page else f"?before={found.first + PAGE_SIZE}"
        context["href"] = f"{page}#post-{found.first}"
    if found.last_action is not None:
        context["replay"] = f"#event-{found.last_action}"
    return context


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The match stepped through post by post and event by event (the frames come from
    ``replay_frames``)."""
    match = _readable(request, pk)
    if match is None:
        return redirect_to_login(request.get_full_path())
    return render(request, "matches/replay.html", {"match": match, "grid": grid_svg()})


@require_GET
def replay_frames(request: HttpRequest, pk: int) -> HttpResponse:
    match = _readable(request, pk)
    if match is None:
        return HttpResponse(status=403)
    return JsonResponse(replay_document(match))


@require_GET
def thread_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A page of the thread: the posts before post ``before`` (the "earlier posts" link)."""
    match = _readable(request, pk)
    if match is None:
        return HttpResponse(status=403)
    before = _post_number(request, "before")
    if before is None:
        return redirect("matches:detail", pk=match.pk)
    context = {"match": match, "thread": thread(match, before=before), "oob": True}
    return render(request, "matches/detail.html#thread_page", context)


@require_GET
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """Polled every few seconds: 204 while the match's version is the one the page shows."""
    match = _readable(request, pk, _access_only)
    if match is None:
        return HttpResponse(status=403)
    if request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    return _live_part(request, get_object_or_404(_matches(), pk=pk))


@login_required
@require_POST
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The plan panel and the pitch overlay for the declaration being built (nothing is saved)."""
    match = _in_match(request, pk)
    context = page.page_context(match, request.user, PlanForm(request.POST).plan())
    return render(request, "matches/detail.html#preview", context)


# -- acting ---------------------------------------------------------------------------------------


@login_required
@require_POST
def declare(request: HttpRequest, pk: int) -> HttpResponse:
    match = _in_match(request, pk)
    state = services.load_state(match)
    actors = services.actors_for(match, request.user)
    form = DeclareForm(request.POST, state=state, actors=actors)
    if not form.is_valid():
        return _form_refused(request, match, form)
    data = form.cleaned_data
    return _write(
        request,
        match,
        lambda: services.declare(
            match.pk,
            request.user,
            data["declaration"],
            side=data.get("side") or None,
            text=data.get("text", ""),
            idempotency_key=data.get("key", ""),
        ),
    )


@login_required
@require_POST
def answer(request: HttpRequest, pk: int) -> HttpResponse:
    match = _in_match(request, pk)
    form = AnswerForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, match, form)
    choice, key = form.cleaned_data["choice"], form.cleaned_data.get("key", "")
    return _write(
        request, match, lambda: services.answer(match.pk, request.user, choice, idempotency_key=key)
    )


@login_required
@require_POST
def write(request: HttpRequest, pk: int) -> HttpResponse:
    match = _in_match(request, pk)
    form = PostForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, match, form)
    data = form.cleaned_data
    return _write(
        request,
        match,
        lambda: services.write_post(
            match.pk,
            request.user,
            kind=data["kind"],
            text=data["text"],
            idempotency_key=data["key"],
        ),
        refresh_post_form=True,
    )


@login_required
@require_POST
def edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = _in_match(request, pk)
    post = get_object_or_404(Post, match=match, number=number)
    form = EditForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, match, form)
    text = form.cleaned_data["text"]
    return _write(request, match, lambda: services.edit_post(post.pk, request.user, text=text))


@login_required
@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's GM closes it after the post-match sequence; the seed is revealed."""
    match = _in_match(request, pk)
    return _write(request, match, lambda: services.close_match(match.pk, request.user))


@login_required
@require_http_methods(["GET", "POST"])
def schedule(request: HttpRequest) -> HttpResponse:
    if not services.may_schedule_any(request.user):
        raise PermissionDenied
    form = ScheduleForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match = services.schedule_match(request.user, **data)
        except MatchError as refused:
            # A busy team is named: the service words that refusal in the reader's language.
            busy = refused.code == "team_busy"
            form.add_error(
                None, refused.message if busy else labels.label(labels.ERRORS, refused.code)
            )
        else:
            return redirect("matches:detail", pk=match.pk)
    return render(request, "matches/schedule.html", {"form": form})
