"""Coaches post their turns while the worker sending the "your turn" notices is killed with -9
(each time while the mail server holds its reply to a notice) and every database connection
is terminated again and again. Afterwards every due notice was sent, none is left claimed and
none went twice: each notice is keyed when its turn starts, so the task a killed worker held
comes back to its own notice however far the match has moved on (README "Notices")."""

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from django.db import close_old_connections, connection

from bbweb.models import OutboxMessage
from matches import services
from matches.models import Match, Notice
from matches.notices.emails import recipients_for
from matches.services import jobs
from rules.engine.board import NAMES, square
from rules.engine.randomplay import random_setup
from tools import autoplay, faults

pytestmark = [
    pytest.mark.worker,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
TEAM_TURNS = 16
KILLS = 3


@pytest.fixture
def own_redis() -> Iterator[faults.OwnRedis]:
    if connection.vendor != "postgresql":
        faults.unavailable("needs PostgreSQL (DATABASE_URL): the worker shares the test database")
    try:
        server = faults.OwnRedis()
    except RuntimeError as error:
        faults.unavailable(str(error))
    server.start()
    yield server
    server.stop()


def _post_one(match_id: int, rng: random.Random) -> None:
    """The next post of the match: a question answered by default, a set-up, the kick, or a
    side ending its part of the team turn."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    state, people = services.load_state(match), autoplay.coaches(match)
    if state.pending is not None:
        services.answer(match_id, people[state.pending.to], state.pending.default)
    elif state.phase in ("setup", "perfect_defence", "quick_snap"):
        actor, setup = random_setup(state, rng)
        who = f"{actor.team}:{actor.side}"
        services.declare(match_id, people[who], setup.to_json(), side=actor.side)
    elif state.phase == "kickoff":
        kick = {"action": "kick", "target": NAMES[square(6 if state.kicking == "away" else 19, 7)]}
        services.declare(match_id, people[f"{state.kicking}:captain"], kick)
    else:
        side = "captain" if "captain" not in state.teams[state.active].ended else "rival"
        end = {"action": "end_turn"}
        services.declare(match_id, people[f"{state.active}:{side}"], end, side=side)


def _turns_started() -> int:
    return OutboxMessage.objects.filter(task=jobs.NOTIFY_TURN).count()


def _post_turns(match_id: int, errors: list[str]) -> None:
    rng = random.Random(35)
    while True:
        close_old_connections()
        try:
            if _turns_started() >= TEAM_TURNS:
                break
            _post_one(match_id, rng)
        except Exception as error:  # a terminated connection or a post the match moved past
            errors.append(type(error).__name__)
            connection.close()
        time.sleep(0.2)
    connection.close()


def _due(match: Match) -> set[tuple[int, str]]:
    """(user, key) of every "your turn" notice the started turns call for."""
    due = set()
    for pk, half, team, turn in OutboxMessage.objects.filter(task=jobs.NOTIFY_TURN).values_list(
        "args", flat=True
    ):
        assert pk == match.pk
        for user in recipients_for(match, f"{team}:captain") + recipients_for(
            match, f"{team}:rival"
        ):
            due.add((user.pk, f"turn:{pk}:{half}:{team}:{turn}"))
    return due


def test_turn_notices_survive_worker_kills_and_dropped_connections(
    match: Match, own_redis: faults.OwnRedis
) -> None:
    smtp = faults.FakeSmtp(accept_held=False)
    env = faults.worker_env(
        faults.database_url(connection.settings_dict), own_redis.url(), smtp.port
    )
    errors: list[str] = []
    poster = threading.Thread(target=_post_turns, args=(match.pk, errors))
    poster.start()
    kills = terminated = 0
    for _round in range(KILLS):
        worker = faults.Worker(env)
        smtp.hold()
        held = smtp.held.wait(90)
        worker.kill()
        smtp.release()
        kills += 1 if held else 0
        terminated += faults.terminate_backends(connection.settings_dict)
        connection.close()
        faults.after_a_kill(own_redis.url())
    last = faults.Worker(env)
    try:
        while poster.is_alive():
            terminated += faults.terminate_backends(connection.settings_dict)
            connection.close()
            time.sleep(1)
        poster.join()
        connection.close()
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        due = _due(match)
        turn_notices = Notice.objects.filter(match=match, kind="turn")

        def all_sent() -> bool:
            sent = set(turn_notices.filter(sent=True).values_list("user_id", "key"))
            return due <= sent

        assert faults.wait_for(all_sent, 240), "due notices never sent"
    finally:
        last.stop()
        smtp.close()
    assert kills == KILLS and terminated > 0, (kills, terminated)
    assert len(due) >= TEAM_TURNS  # two coaches a team turn, some turns queued twice
    assert not turn_notices.filter(sent=False).exists(), "a notice stayed claimed"
    copies = Counter(message_id for message_id, _to in smtp.received)
    assert len(copies) == turn_notices.count() + Notice.objects.exclude(kind="turn").count()
    assert [m for m, n in copies.items() if n > 1] == [], "a notice went twice"
