"""The referee's pages of a live match and the players' phone pages. Thin: every change goes
through matches.live.services."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches.live import game, labels, quick, services
from matches.live.game import LiveError
from matches.live.models import LiveMatch
from rules.live import throwing
from rules.live.levels import KINDS
from teams.models import League, Team

EVENTS_SHOWN = 40


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _key(request: HttpRequest) -> str:
    return str(request.POST.get("key", ""))[: services.KEY_LENGTH + 1]


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    if request.user.pk != league.gm_id:
        messages.error(request, _("Only the league's game master starts a live match."))
        return redirect("gm:league", league.pk)
    teams = list(league.teams.order_by("name", "pk"))
    if request.method == "POST":
        try:
            home, away = _side(request, teams, "home"), _side(request, teams, "away")
            match = services.start_live_match(request.user, league, home, away)
        except quick.QuickRosterError as wrong:
            messages.error(request, str(wrong))
        except LiveError as refused:
            messages.error(request, refused.message)
        else:
            return redirect(match)
    return render(
        request, "live/new.html", {"league": league, "teams": teams, "form": request.POST}
    )


def _side(request: HttpRequest, teams: list[Team], side: str) -> services.Side:
    """A team of the league, or a quick roster typed at the field ("quick")."""
    chosen = request.POST.get(side, "")
    if chosen == "quick":
        return quick.parse(
            request.POST.get(f"{side}_name", ""), request.POST.get(f"{side}_roster", "")
        )
    for team in teams:
        if str(team.pk) == chosen:
            return team
    raise LiveError("bad_teams", _("Pick two different teams of the league."))


@require_POST
@login_required
def counts(request: HttpRequest, league_id: int) -> HttpResponse:
    try:
        services.set_live_matches_count(league_id, request.user, request.POST.get("count") == "1")
    except League.DoesNotExist:
        raise Http404 from None
    except LiveError as refused:
        messages.error(request, refused.message)
    return redirect("gm:league", league_id)


def _player_rows(state: game.State, side: str, phones_url: str) -> list[dict[str, Any]]:
    rows = []
    for pid, player in state["players"].items():
        if player["team"] != side:
            continue
        c = game.condition(state, pid)
        rows.append(
            {
                "id": pid,
                "number": player["number"],
                "name": player["name"],
                "position": player["position"],
                "state": labels.STATES[c.state],
                "state_code": c.state,
                "out": labels.OUT.get(c.out, ""),
                "carrier": state["ball"]["carrier"] == pid,
                "dagger": player.get("weapon") == game.DAGGER,
                "bomb": player.get("weapon") == game.BOMB,
                "big": throwing.is_big(player.get("skills", [])),
                "small": throwing.is_small(player.get("skills", [])),
                "levels": [
                    (str(kind), labels.KINDS[str(kind)], player["levels"].get(str(kind), 0))
                    for kind in KINDS
                ],
                "modifier": c.modifier,
                "phone": f"{phones_url}{player['token']}/",
            }
        )
    return sorted(rows, key=lambda row: row["number"])


def _tie_lines(state: game.State, ch: dict[str, Any]) -> list[str]:
    lines = []
    for attacker in ch["attackers"]:
        rule = game.tie_rule(ch, attacker)
        pair = f"{labels.name(state, attacker)} / {labels.name(state, ch['defender'])}: "
        if rule["tie"] == "nothing":
            lines.append(pair + _("no levels; a tie is not thrown again and does nothing."))
        elif rule["tie"] == "again":
            lines.append(pair + _("equal levels: a tie is thrown again until one wins."))
        elif rule["redo"] is None:
            lines.append(pair + _("%(who)s wins a tie.") % {"who": labels.name(state, rule["tie"])})
        else:
            lines.append(
                pair
                + _(
                    "%(who)s wins a tie and throws a lost throw again once; in the redo a "
                    "tie goes to %(redo_tie)s."
                )
                % {
                    "who": labels.name(state, rule["redo"]),
                    "redo_tie": labels.name(state, rule["redo_tie"]),
                }
            )
    return lines


def _challenge_view(state: game.State, ch: dict[str, Any] | None) -> dict[str, Any] | None:
    if ch is None:
        return None
    levels = game.effective_levels(ch)
    due = game.expected(ch)
    return {
        "n": ch["n"],
        "purpose": labels.PURPOSES[ch["purpose"]],
        "purpose_code": ch["purpose"],
        "dodging": ch["dodging"],
        "phones": ch["phones"],
        "damage": ch.get("damage", 0),
        "participants": [
            {
                "id": pid,
                "name": labels.name(state, pid),
                "level": levels.get(pid),
                "attacker": pid in ch["attackers"],
            }
            for pid in game.participants(ch)
        ],
        "ties": _tie_lines(state, ch),
        "due": [
            {"id": pid, "name": labels.name(state, pid), "in": pid in ch["hidden"]} for pid in due
        ],
        "ref_due": game.REF in due and game.REF not in ch["hidden"],
    }


def _last_view(state: game.State) -> dict[str, Any] | None:
    last = state.get("last")
    if not last:
        return None
    rounds = []
    for item in last["throws"]:
        pairs = (
            list(item.items())
            if isinstance(item, dict)
            else list(zip([last["attackers"][0], last["defender"]], item, strict=True))
        )
        rounds.append([(labels.name(state, p), labels.THROWS[t]) for p, t in pairs])
    winners = [labels.name(state, w) if w != "tie" else _("tie") for w in last["result"].values()]
    return {
        "n": last["n"],
        "purpose": labels.PURPOSES[last["purpose"]],
        "rounds": rounds,
        "winners": winners,
    }


def _context(request: HttpRequest, match: LiveMatch) -> dict[str, Any]:
    state = match.state
    phones_url = request.build_absolute_uri(reverse("live:phone", args=[match.pk, "x"]))[:-2]
    events = list(match.events.order_by("-number")[:EVENTS_SHOWN])
    return {
        "match": match,
        "state": state,
        "is_referee": request.user.pk == match.referee_id,
        "phase": labels.PHASES[state["phase"]],
        "sides": [
            (
                side,
                state["teams"][side],
                state["score"][side],
                _player_rows(state, side, phones_url),
            )
            for side in game.SIDES
        ],
        "carrier": labels.name(state, state["ball"]["carrier"])
        if state["ball"]["carrier"]
        else None,
        "challenge": _challenge_view(state, state["challenge"]),
        "last": _last_view(state),
        "log": [(e.number, labels.describe(e.type, e.data, state)) for e in events],
        "purposes": [(p, labels.PURPOSES[p]) for p in game.STARTED],
        "throws": list(labels.THROWS.items()),
        "rulings": list(labels.RULINGS.items()),
        "landings": list(labels.LANDINGS.items()),
        "bomb": _bomb_view(state),
        "flight": _flight_view(state),
        "choose": [
            (pid, labels.name(state, pid)) for pid in (state.get("choose") or {}).get("winners", [])
        ],
        "big": [
            (pid, labels.name(state, pid))
            for pid, p in state["players"].items()
            if throwing.is_big(p.get("skills", [])) and not game.condition(state, pid).out
        ],
        "small": [
            (pid, labels.name(state, pid))
            for pid, p in state["players"].items()
            if throwing.is_small(p.get("skills", [])) and not game.condition(state, pid).out
        ],
    }


def _bomb_view(state: game.State) -> dict[str, Any] | None:
    bomb = state.get("bomb")
    if not bomb:
        return None
    return {"bomber": labels.name(state, bomb["bomber"]), "thrown": bomb["thrown"]}


def _flight_view(state: game.State) -> dict[str, Any] | None:
    flight = state.get("flight")
    if not flight:
        return None
    return {
        "thrower": labels.name(state, flight["thrower"]),
        "small": labels.name(state, flight["small"]),
        "small_id": flight["small"],
    }


@require_GET
def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(LiveMatch.objects.select_related("league"), pk=pk)
    if _htmx(request) and request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    template = "live/match.html#panel" if _htmx(request) else "live/match.html"
    return render(request, template, _context(request, match))


ACTIONS = {
    "kick_off": lambda r, pk, key: services.do_kick_off(pk, r.user, r.POST.get("kicking", ""), key),
    "next_phase": lambda r, pk, key: services.do_next_phase(pk, r.user, key),
    "end_half": lambda r, pk, key: services.do_end_half(pk, r.user, key),
    "finish": lambda r, pk, key: services.do_finish(pk, r.user, key),
    "ball_out": lambda r, pk, key: services.do_ball_out(pk, r.user, key),
    "touchdown": lambda r, pk, key: services.do_touchdown(
        pk, r.user, r.POST.get("player", ""), key
    ),
    "ruling": lambda r, pk, key: services.do_ruling(
        pk,
        r.user,
        r.POST.get("ruling", ""),
        r.POST.get("player", ""),
        key,
        overrule=r.POST.get("overrule") == "1",
    ),
    "level": lambda r, pk, key: services.do_adjust_level(
        pk,
        r.user,
        r.POST.get("player", ""),
        r.POST.get("kind", ""),
        1 if r.POST.get("delta") == "+1" else -1,
        key,
    ),
    "challenge": lambda r, pk, key: services.do_start_challenge(
        pk,
        r.user,
        r.POST.get("purpose", ""),
        r.POST.getlist("attackers"),
        r.POST.get("defender", ""),
        dodging=r.POST.get("dodging") == "1",
        phones=r.POST.get("phones") == "1",
        overrule=r.POST.get("overrule") == "1",
        key=key,
    ),
    "throw": lambda r, pk, key: services.do_throw(
        pk,
        r.user,
        {k[len("throw-") :]: v for k, v in r.POST.items() if k.startswith("throw-")},
        key,
    ),
    "cancel": lambda r, pk, key: services.do_cancel_challenge(pk, r.user, key),
    "injurer": lambda r, pk, key: services.do_choose_injurer(
        pk, r.user, r.POST.get("player", ""), key
    ),
    "light_bomb": lambda r, pk, key: services.do_light_bomb(
        pk, r.user, r.POST.get("player", ""), key
    ),
    "throw_bomb": lambda r, pk, key: services.do_throw_bomb(pk, r.user, key),
    "blast": lambda r, pk, key: services.do_blast(pk, r.user, r.POST.getlist("hit"), key),
    "throw_player": lambda r, pk, key: services.do_throw_player(
        pk,
        r.user,
        r.POST.get("thrower", ""),
        r.POST.get("small", ""),
        willing=r.POST.get("unwilling") != "1",
        phones=r.POST.get("phones") == "1",
        key=key,
    ),
    "land": lambda r, pk, key: services.do_land(
        pk, r.user, r.POST.get("where", ""), r.POST.get("on") or None, key
    ),
}


@require_POST
@login_required
def act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    match = get_object_or_404(LiveMatch, pk=pk)
    handler = ACTIONS.get(action)
    error = None
    if handler is None:
        error = _("No such action.")
    else:
        try:
            match = handler(request, pk, _key(request))
        except LiveError as refused:
            error = refused.message
    match.refresh_from_db()
    if not _htmx(request):
        if error:
            messages.error(request, error)
        return redirect(match)
    context = {**_context(request, match), "error": error}
    return render(request, "live/match.html#panel", context)


def _phone_context(request: HttpRequest, match: LiveMatch, token: str) -> dict[str, Any]:
    state = match.state
    pid = services.player_of(state, token)
    ch = state["challenge"]
    mine = None
    if pid is not None and ch is not None and ch["phones"] and pid in game.participants(ch):
        view = _challenge_view(state, ch)
        assert view is not None
        mine = {
            **view,
            "due_me": pid in game.expected(ch) and pid not in ch["hidden"],
            "my_throw": labels.THROWS[ch["hidden"][pid]] if pid in ch["hidden"] else None,
            "my_level": game.effective_levels(ch).get(pid),
        }
    return {
        "match": match,
        "token": token,
        "me": labels.name(state, pid) if pid else None,
        "mine": mine,
        "last": _last_view(state),
        "throws": list(labels.THROWS.items()),
    }


@require_http_methods(["GET", "POST"])
def phone(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """A player's own phone: his throw, hidden from everyone until every throw is in."""
    match = get_object_or_404(LiveMatch, pk=pk)
    error = None
    if request.method == "POST":
        try:
            match = services.do_commit_throw(
                pk, token, request.POST.get("throw", ""), _key(request)
            )
        except LiveError as refused:
            error = refused.message
        match.refresh_from_db()
        if not _htmx(request):
            if error:
                messages.error(request, error)
            return redirect("live:phone", pk, token)
    elif _htmx(request) and request.GET.get("v") == str(match.version):
        return HttpResponse(status=204)
    context = {**_phone_context(request, match, token), "error": error}
    if context["me"] is None:
        return HttpResponse(status=404)
    template = "live/phone.html#phone" if _htmx(request) else "live/phone.html"
    return render(request, template, context)
