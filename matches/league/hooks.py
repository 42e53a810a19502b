"""The league's webhooks, the GM's page: add one, switch it off or on, give it a new secret,
remove it, and read each hook's delivery log."""

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches import services
from matches.acting import act, forbidden, form_errors
from matches.league.forms import HookForm
from matches.models import HookAttempt, HookDelivery, LeagueHook
from teams.models import League

LOG_LENGTH = 20  # the latest deliveries shown for each hook


def _log(hook: LeagueHook) -> list[HookDelivery]:
    attempts = Prefetch("attempts", queryset=HookAttempt.objects.order_by("pk"))
    latest = hook.deliveries.order_by("-pk").prefetch_related(attempts)
    return list(latest[:LOG_LENGTH])


@login_required
@require_http_methods(["GET", "POST"])
def league_hooks(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    back = reverse("gm:hooks", args=[league.pk])
    if request.user.pk != league.gm_id:
        message = _("Only the league's game master manages its webhooks.")
        return forbidden(request, message, reverse("gm:league", args=[league.pk]))
    form = HookForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            form_errors(request, form)
        else:
            data = form.cleaned_data
            return act(
                request,
                back,
                lambda: services.add_hook(
                    league.pk,
                    request.user,
                    kind=data["kind"],
                    url=data["url"],
                    events=data["events"],
                    language=data["language"],
                ),
                _("The webhook is added."),
            )
    hooks = [
        {
            "hook": hook,
            "events": [LeagueHook.Event(event).label for event in hook.events],
            "log": _log(hook),
        }
        for hook in league.hooks.all()
    ]
    context = {"league": league, "form": form, "hooks": hooks}
    return render(request, "leagues/hooks.html", context)


def _hook_action(request: HttpRequest, hook_id: int, action: str) -> HttpResponse:
    hook = get_object_or_404(LeagueHook, pk=hook_id)
    back = reverse("gm:hooks", args=[hook.league_id])
    user = request.user
    if action == "remove":
        return act(request, back, lambda: services.remove_hook(hook.pk, user), _("Removed."))
    if action == "secret":
        done = _("The webhook has a new secret: give it to its receiver.")
        return act(request, back, lambda: services.new_secret(hook.pk, user), done)
    on = action == "on"
    done = _("The webhook is switched on.") if on else _("The webhook is switched off.")
    return act(request, back, lambda: services.switch_hook(hook.pk, user, on=on), done)


@login_required
@require_POST
def hook_switch(request: HttpRequest, hook_id: int) -> HttpResponse:
    return _hook_action(request, hook_id, "on" if request.POST.get("on") == "1" else "off")


@login_required
@require_POST
def hook_secret(request: HttpRequest, hook_id: int) -> HttpResponse:
    return _hook_action(request, hook_id, "secret")


@login_required
@require_POST
def hook_remove(request: HttpRequest, hook_id: int) -> HttpResponse:
    return _hook_action(request, hook_id, "remove")
