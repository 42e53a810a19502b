import json
from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from bbweb.roles import is_game_master
from matches.models import Post
from matches.play.page import Plan
from matches.record.markup import POST_TEXT_MAX
from rules.engine import MatchState
from rules.engine.notation import NotationError, parse
from rules.engine.state import other
from teams.models import Team


class ScheduleForm(forms.Form):
    home = forms.ModelChoiceField(Team.objects.none(), label=_("Home team"))
    away = forms.ModelChoiceField(Team.objects.none(), label=_("Away team"))
    house_rules = forms.BooleanField(
        label=_("Split-team house rules"), required=False, initial=True
    )
    skip_prematch = forms.BooleanField(
        label=_("A friendly without the pre-match (straight to the kick-off)"),
        required=False,
        initial=False,
        help_text=_(
            "Teams of one league always play the pre-match: weather, petty cash, inducements."
        ),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = Team.objects.select_related("league").order_by("name")
        if not getattr(user, "is_superuser", False):
            in_no_league = Q(league=None) if is_game_master(user) else Q(pk__in=[])
            teams = teams.filter(Q(league__gm=user.pk) | in_no_league)
        for name in ("home", "away"):
            self.fields[name].queryset = teams  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("home") and data.get("home") == data.get("away"):
            raise forms.ValidationError(_("A team cannot play itself."))
        return data


def _squares(text: str) -> list[str]:
    return [s.strip().upper() for s in text.split(",") if s.strip()]


class PlanForm(forms.Form):
    """The hidden inputs pitch.js fills while a coach builds a declaration."""

    player = forms.CharField(required=False, max_length=8)
    action = forms.CharField(required=False, max_length=16)
    path = forms.CharField(required=False, max_length=200)
    target = forms.CharField(required=False, max_length=8)
    placements = forms.CharField(required=False, max_length=400)
    picked = forms.CharField(required=False, max_length=8)

    def plan(self) -> Plan:
        data = self.cleaned_data if self.is_valid() else {}
        placements = {}
        for item in (data.get("placements") or "").split(","):
            pid, _sep, square = item.strip().partition(":")
            if pid and square:
                placements[pid] = square.upper()
        return Plan(
            player=(data.get("player") or "").strip(),
            action=(data.get("action") or "").strip(),
            path=_squares(data.get("path") or ""),
            target=(data.get("target") or "").strip(),
            placements=placements,
            picked=(data.get("picked") or "").strip(),
        )


class DeclareForm(PlanForm):
    """A declaration from the pitch, or typed in the engine's notation, with optional text."""

    side = forms.ChoiceField(
        required=False, choices=[("", "-"), ("captain", "captain"), ("rival", "rival")]
    )
    notation = forms.CharField(required=False, max_length=200, label=_("Or type it"))
    text = forms.CharField(
        required=False,
        max_length=POST_TEXT_MAX,
        widget=forms.Textarea,
        label=_("Text (Markdown)"),
    )
    key = forms.CharField(required=False, max_length=64)

    def __init__(self, *args: Any, state: MatchState, actors: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.state = state
        self.actors = actors

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        notation = (data.get("notation") or "").strip()
        if notation:
            data["declaration"] = self._parse(notation)
            return data
        plan = self.plan()
        mode = {"setup": "setup", "kick": "kick"}.get(plan.action, "play")
        decl = plan.declaration(mode)
        if plan.action in ("end_turn", "claim_blitz", "concede"):
            data["declaration"] = {"player": None, "action": plan.action}
        else:
            data["declaration"] = decl.to_json()
        return data

    def _parse(self, text: str) -> dict[str, Any]:
        teams = [a.partition(":")[0] for a in self.actors] or [self.state.active]
        team = self.state.active if self.state.active in teams else teams[0]

        def numbers(key: str) -> dict[int, str]:
            players = self.state.players.values()
            return {p.number: p.id for p in players if p.team == key and p.number is not None}

        try:
            return parse(text, numbers(team), numbers(other(team))).to_json()
        except NotationError as error:
            raise forms.ValidationError(str(error), code="notation") from None


class AnswerForm(forms.Form):
    choice = forms.CharField(max_length=64)
    key = forms.CharField(required=False, max_length=64)

    def clean_choice(self) -> Any:
        raw = self.cleaned_data["choice"]
        try:
            return json.loads(raw)
        except ValueError:
            return raw


class PostForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            (Post.Kind.IN_CHARACTER, _("In character")),
            (Post.Kind.OUT_OF_CHARACTER, _("Out of character")),
        ],
        label=_("Kind"),
    )
    text = forms.CharField(
        max_length=POST_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Text (Markdown)"),
    )
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)


class EditForm(forms.Form):
    text = forms.CharField(
        max_length=POST_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Text (Markdown)"),
    )
