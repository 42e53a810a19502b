"""``make bench``: the cost of one deadline sweep with 10,000 pending deadlines, of which none,
100 and 1,000 have expired; ``--banks``: in a league with the time bank, each deadline the end
of the running banks (matches.services.banks). Runs in a throw-away test database of the
configured engine."""

import statistics
import time
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test.utils import override_settings
from django.utils import timezone

from bbweb.celery import app
from matches import services
from matches.models import Decision, Match, MatchEvent, Post
from rules.engine import MatchState
from teams import rosters
from teams import services as team_services
from teams.models import League
from tools.demo_teams import ORCLAND, REIKLAND

C, R = rosters.CAPTAIN, rosters.RIVAL
TEAMS = ("home", "away")


def _plan(race: str, players: list[tuple[str, str, str]]) -> rosters.TeamPlan:
    return rosters.TeamPlan(
        race=race,
        players=tuple(
            rosters.PlannedPlayer(p, s, n, name) for n, (p, s, name) in enumerate(players, 1)
        ),
        rerolls=2,
    )


def _in_play_state() -> dict[str, Any]:
    def player(pid: str, at: str) -> dict[str, Any]:
        side = C if int(pid[1:]) <= 6 else R
        team = "home" if pid[0] == "h" else "away"
        return {"id": pid, "team": team, "side": side, "ma": 6, "st": 3, "ag": 3, "av": 8, "at": at}

    return MatchState.from_setup(
        {
            "turn": {"home": 3, "away": 2},
            "teams": {"home": {"rerolls": 2}, "away": {"rerolls": 2}},
            "players": [player("h1", "K8"), player("h7", "K9"), player("a1", "L8")],
        }
    ).to_json(compact=True)


class Command(BaseCommand):
    help = __doc__ or ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pending", type=int, default=10_000)
        parser.add_argument("--expired", type=int, nargs="*", default=[0, 100, 1000])
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--banks", action="store_true", help="a league with the time bank")

    def handle(self, *args: Any, **options: Any) -> None:
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        # Tasks go to an in-memory broker: the sweep pays for queueing its notices, no more.
        app.conf.task_always_eager = False
        app.conf.broker_url = "memory://"
        try:
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
                self._run(options)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def _run(self, options: dict[str, Any]) -> None:
        gm = User.objects.create_user("gm")
        clock = League.Clock.BANK if options["banks"] else League.Clock.DEADLINES
        league = League.objects.create(name="Bench", gm=gm, clock=clock)
        teams = []
        for name, plan in (
            ("Reavers", _plan("human", REIKLAND)),
            ("Raiders", _plan("orc", ORCLAND)),
        ):
            captain = User.objects.create_user(f"{name}-c", email=f"{name}c@example.org")
            rival = User.objects.create_user(f"{name}-r", email=f"{name}r@example.org")
            team = team_services.create_team(
                captain, plan, name=name, league=league, rival_username=rival.username
            )
            team_services.accept_invitation(rival, team.invitations.get())
            teams.append(team)
        template = services.create_match(home=teams[0], away=teams[1], gm=gm, league=league)
        pending = options["pending"]
        vendor = connection.vendor
        kind = "time banks" if options["banks"] else "deadlines"
        self.stdout.write(
            f"Deadline sweep on {vendor}: {pending} pending {kind} "
            f"(half team turns, half open decisions); median of {options['repeat']} sweeps "
            "when none expired"
        )
        for expired in options["expired"]:
            self._fill(template, pending, expired, banked=options["banks"])
            runs = []
            repeats = options["repeat"] if expired == 0 else 1
            for _ in range(repeats):
                started = time.perf_counter()
                applied = services.expire_deadlines()
                runs.append(time.perf_counter() - started)
            took = statistics.median(runs) * 1000
            per = f", {took / applied:.2f} ms per deadline applied" if applied else ""
            self.stdout.write(
                f"  {expired:>5} expired: {applied:>5} applied in {took:8.1f} ms{per}"
            )

    def _fill(self, template: Match, pending: int, expired: int, *, banked: bool) -> None:
        """``pending`` deadlines: half team turns under way, half kick-or-receive decisions;
        ``expired`` of them (half of each kind) already passed. ``banked``: each the end of
        the banks that run (the turn's sides, the question's side)."""
        Post.objects.exclude(match=template).delete()
        MatchEvent.objects.exclude(match=template).delete()
        Decision.objects.exclude(match=template).delete()
        Match.objects.exclude(pk=template.pk).delete()
        now = timezone.now()
        past, future = now - timedelta(minutes=1), now + timedelta(hours=12)
        fields = template.fields_for_copies("turn_deadline_at", "state", "banks")
        turns, decisions = pending // 2, pending - pending // 2
        late_turns, late_decisions = expired // 2, expired - expired // 2
        in_play = _in_play_state()
        question = template.decisions.get()

        def banks(runners: list[str], end: datetime) -> dict[str, Any]:
            if not banked:
                return {}
            bank = timedelta(hours=72)
            since = (end - bank).isoformat()
            left = {f"{team}:{side}": bank.total_seconds() for team in TEAMS for side in (C, R)}
            return {"left": left, "since": dict.fromkeys(runners, since), "credited": "1:home:3"}

        turn_sides = ["home:captain", "home:rival"]
        Match.objects.bulk_create(
            Match(
                **fields,
                state=in_play,
                turn_deadline_at=(end := past if i < late_turns else future),
                banks=banks(turn_sides, end),
            )
            for i in range(turns)
        )
        asking = Match.objects.bulk_create(
            Match(
                **fields,
                state=template.state,
                turn_deadline_at=None,
                banks=banks([question.to], past if i < late_decisions else future),
            )
            for i in range(decisions)
        )
        Decision.objects.bulk_create(
            Decision(
                match=match,
                kind=question.kind,
                to=question.to,
                options=question.options,
                default=question.default,
                deadline_at=past if i < late_decisions else future,
            )
            for i, match in enumerate(asking)
        )
