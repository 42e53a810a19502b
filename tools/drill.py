"""The fault drill (``manage.py fault_drill``): the real components under faults, bounded and on
loopback, and the counts that show what was lost or doubled.

It works in a database of its own on the configured PostgreSQL server (created, migrated and
dropped) with a Redis server of its own as the broker, a real Celery worker with beat and a mail
server on loopback (tools.faults). Four parts:

1. Deadlines and notices: matches whose decision deadline has passed, and notices put in the
   outbox; the worker applies and sends them while it is killed with -9 at a quarter, a half
   (while the mail server holds its reply to a notice) and three quarters of the way.
2. Posts: several clients post (each post sent twice with one key, as a client that did not
   hear the answer does) while the broker is stopped and started again and the database's
   backends are terminated every second; a post that fails is sent again with its key.
3. Forgeries: a match played to its end and exported, then tampered with in plain ways (the
   chain left or computed again) and rewritten as an alternative history from the seed, checked
   against a receipt taken before the end.
"""

import copy
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from celery import current_app
from django.contrib.auth.models import User
from django.db import close_old_connections, connection
from django.utils import timezone

from bbweb import outbox
from bbweb.models import OutboxMessage
from matches import services
from matches.models import Decision, Match, Notice, Post
from matches.verification import receipts
from matches.verification.exports import export_match, verify
from rules.engine.board import NAMES, square
from rules.engine.randomplay import random_setup
from tools import autoplay, faults, forgery

Doc = dict[str, Any]
NOTICE_KEY = "drill:notice"
PACE = 0.5  # seconds between two posts of a client: the traffic outlasts the broker's outage
DUMMY_MAIL = "django.core.mail.backends.dummy.EmailBackend"  # the mentions' mail goes nowhere
REPUBLISH_SECONDS = 15
WAIT_SECONDS = 180  # for the worker to finish the deadlines and notices
RESEND_WAIT_SECONDS = 1800  # the most ``--wait-resend`` waits for what is still pending


@dataclass
class Figures:
    deadlines_created: int = 0
    deadlines_applied: int = 0
    deadlines_doubled: int = 0
    worker_kills: int = 0
    notices_due: int = 0
    notices_sent: int = 0
    notices_doubled: int = 0
    notices_late: int = 0
    notices_lost: int = 0
    waited_seconds: float = 0.0
    tasks_sent_again: int = 0
    posts_attempted: int = 0
    posts_stored: int = 0
    posts_doubled: int = 0
    post_errors: int = 0
    broker_outage_seconds: float = 0.0
    backends_terminated: int = 0
    tasks_left_in_outbox: int = 0
    forgeries_tried: int = 0
    forgeries_caught: int = 0
    alternative_holds_before_the_change: bool = False
    uncaught: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"deadlines: {self.deadlines_created} created, {self.deadlines_applied} applied, "
            f"{self.deadlines_doubled} doubled ({self.worker_kills} worker kills with -9)",
            f"notices: {self.notices_due} due, {self.notices_sent} sent, "
            f"{self.notices_late} not delivered yet when the drill stopped waiting "
            f"({self.waited_seconds:.0f} s; their task or claim still pending), "
            f"{self.notices_doubled} doubled (each copy with the notice's one Message-ID: the "
            f"documented window of a kill after the mail server took the mail), "
            f"{self.notices_lost} lost (nothing left that would send them); "
            f"{self.tasks_sent_again} outbox tasks published again (not done within "
            f"{REPUBLISH_SECONDS} s: a worker killed, a message Redis lost, or a task that "
            f"waited its turn on a busy worker; each task is idempotent)",
            f"posts: {self.posts_attempted} attempted, {self.posts_stored} stored, "
            f"{self.posts_doubled} doubled ({self.post_errors} answered with an error and sent "
            f"again; broker down {self.broker_outage_seconds:.0f} s, "
            f"{self.backends_terminated} database backends terminated; "
            f"{self.tasks_left_in_outbox} tasks left in the outbox)",
            f"forgeries: {self.forgeries_tried} tried, {self.forgeries_caught} caught"
            + (f" (not caught: {', '.join(self.uncaught)})" if self.uncaught else "")
            + (
                "; the alternative history gives back a receipt taken before the changed "
                "declaration, as it must"
                if self.alternative_holds_before_the_change
                else ""
            ),
        ]


# -- 1. deadlines and notices ------------------------------------------------------------------


def _deadline_posts() -> Counter[int]:
    return Counter(
        Post.objects.filter(kind=Post.Kind.SYSTEM, summary__message="deadline_passed").values_list(
            "match_id", flat=True
        )
    )


def expired_decisions(template: Match, n: int) -> list[int]:
    """``n`` matches like ``template`` (the coin toss awaits its answer) whose decision
    deadline has passed."""
    fields = template.fields_for_copies()
    copies = Match.objects.bulk_create([Match(**fields) for _ in range(n)])
    question = template.decisions.get(answered_at__isnull=True)
    Decision.objects.bulk_create(
        Decision(
            match=copy,
            kind=question.kind,
            to=question.to,
            options=question.options,
            default=question.default,
            deadline_at=timezone.now() - timedelta(seconds=1),
        )
        for copy in copies
    )
    return [copy.pk for copy in copies]


def _notices_due(match: Match, coaches: list[User], n: int) -> list[tuple[int, str]]:
    """``n`` notices to each coach, put in the outbox as a request would; (user, key) each."""
    due = []
    for i in range(n):
        key = f"{NOTICE_KEY}:{i}"
        OutboxMessage.objects.create(
            task="matches.tasks.notify",
            args=["turn", match.pk, ["home:captain", "away:captain"], key, {}],
        )
        due += [(user.pk, key) for user in coaches]
    return due


def deadlines_and_notices(
    figures: Figures,
    template: Match,
    env: dict[str, str],
    broker: str,
    size: int,
    *,
    wait_resend: bool = False,
) -> None:
    ids = expired_decisions(template, size)
    coaches = [template.home_team.captain, template.away_team.captain]
    due = _notices_due(template, coaches, max(4, size // 10))
    figures.deadlines_created, figures.notices_due = len(ids), len(due)
    smtp = faults.FakeSmtp(accept_held=True)
    env = {**env, **faults.worker_env(env["DATABASE_URL"], broker, smtp.port)}
    # A kill can land after Redis handed a worker a message and before the worker recorded it
    # as unacknowledged: the outbox sends such a task again, here within seconds.
    env["BBWEB_OUTBOX_REPUBLISH_SECONDS"] = str(REPUBLISH_SECONDS)

    def applied() -> int:
        return len(_deadline_posts())

    def done() -> bool:
        sent = Notice.objects.filter(key__startswith=NOTICE_KEY, sent=True).count()
        return applied() >= size and sent >= len(due)

    for share in (0.25, 0.5, 0.75):
        worker = faults.Worker(env)
        if share == 0.5:
            smtp.hold()  # the kill lands while the mail server holds its reply
            reached = smtp.held.wait(60)
        else:
            reached = faults.wait_for(lambda share=share: applied() >= share * size, 60)  # type: ignore[misc]
        worker.kill()
        smtp.release()
        figures.worker_kills += 1 if reached else 0
        faults.after_a_kill(broker)
    worker = faults.Worker(env)
    started = time.monotonic()
    faults.wait_for(done, WAIT_SECONDS)
    if wait_resend:  # while a task or a claim is pending, the outbox or the sweep sends it
        faults.wait_for(lambda: done() or not _pending_keys(), RESEND_WAIT_SECONDS)
    figures.waited_seconds = time.monotonic() - started
    worker.stop()
    smtp.close()
    counts = _deadline_posts()
    figures.deadlines_applied = sum(1 for pk in ids if counts[pk])
    figures.deadlines_doubled = sum(1 for pk in ids if counts[pk] > 1)
    count_notices(figures, due, smtp)
    figures.tasks_sent_again = OutboxMessage.objects.filter(attempts__gt=1).count()


def count_notices(figures: Figures, due: list[tuple[int, str]], smtp: faults.FakeSmtp) -> None:
    notices = {
        f"<notice-{pk}@": (user, key)
        for pk, user, key in Notice.objects.filter(key__startswith=NOTICE_KEY).values_list(
            "pk", "user_id", "key"
        )
    }
    copies: Counter[tuple[int, str]] = Counter()
    for message_id, _to in smtp.received:
        found = notices.get(message_id.split("@")[0] + "@")
        if found is not None:
            copies[found] += 1
    figures.notices_sent = Notice.objects.filter(key__startswith=NOTICE_KEY, sent=True).count()
    # Every mail counts here, the deadlines' own notices too (the held one may be one of them).
    every = Counter(message_id for message_id, _to in smtp.received)
    figures.notices_doubled = sum(n - 1 for n in every.values() if n > 1)
    pending = _pending_keys()
    missing = [(user, key) for user, key in due if not copies[(user, key)]]
    figures.notices_late = sum(1 for _user, key in missing if key in pending)
    figures.notices_lost = len(missing) - figures.notices_late


def _pending_keys() -> set[str]:
    """The drill's notices something will still send: a notice task in the outbox that has not
    run to its end (the relay publishes it again), or a notice claimed or unsent (its task
    retries, or the sweep queues it again once its lease ends)."""
    tasks = OutboxMessage.objects.filter(task="matches.tasks.notify", done_at__isnull=True)
    keys = {str(args[3]) for args in tasks.values_list("args", flat=True)}
    unsent = Notice.objects.filter(key__startswith=NOTICE_KEY, sent=False)
    return (keys | set(unsent.values_list("key", flat=True))) - {""}


# -- 2. posts under a broker outage and dropped connections -----------------------------------


def _post_all(match_id: int, user: User, keys: list[str], mention: str, errors: list[int]) -> None:
    for key in keys:
        for _sent in range(2):  # the client did not hear the first answer: the same key again
            for _attempt in range(10):
                close_old_connections()  # as a request begins: a dropped connection is replaced
                try:
                    services.write_post(
                        match_id, user, kind="ooc", text=f"{key} @{mention}", idempotency_key=key
                    )
                    break
                except Exception:  # the database dropped us mid-write: sent again
                    errors.append(1)
                    connection.close()
                    time.sleep(0.1)
        time.sleep(PACE)
    connection.close()


def posts_under_faults(
    figures: Figures, match: Match, own: faults.OwnRedis, env: dict[str, str], clients: int,
    posts: int,
) -> None:  # fmt: skip
    people = [match.home_team.captain, match.away_team.captain, match.gm]
    people += [u for u in (match.home_team.rival, match.away_team.rival) if u is not None]
    keys = [[f"drill:{c}:{p}" for p in range(posts)] for c in range(clients)]
    errors: list[int] = []
    worker = faults.Worker({**env, "DJANGO_EMAIL_BACKEND": DUMMY_MAIL})
    threads = [
        threading.Thread(
            target=_post_all,
            args=(
                match.pk,
                people[c % len(people)],
                keys[c],
                people[(c + 1) % len(people)].username,
                errors,
            ),
        )
        for c in range(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1)
    stopped = time.monotonic()
    own.stop()
    while any(t.is_alive() for t in threads) or time.monotonic() - stopped < 4:
        figures.backends_terminated += faults.terminate_backends(connection.settings_dict)
        time.sleep(1)
        if own.process is None and time.monotonic() - stopped >= 4:
            figures.broker_outage_seconds = time.monotonic() - stopped
            own.start()
    for thread in threads:
        thread.join()
    connection.close()
    # A relay that dies between its claim and its mark leaves the rows to the next one once
    # the claim expires (one whose connection only dropped marks them on a new one): the
    # outbox promises them within that lease.
    unsent = OutboxMessage.objects.filter(sent_at=None)
    faults.wait_for(lambda: not unsent.exists(), outbox.LEASE.total_seconds() + 30)
    worker.stop()
    every = [key for some in keys for key in some]
    stored = Counter(
        Post.objects.filter(idempotency_key__in=every).values_list("idempotency_key", flat=True)
    )
    figures.posts_attempted = len(every)
    figures.posts_stored = sum(1 for key in every if stored[key])
    figures.posts_doubled = sum(1 for key in every if stored[key] > 1)
    figures.post_errors = len(errors)
    figures.tasks_left_in_outbox = OutboxMessage.objects.filter(sent_at=None).count()


def _other(people: list[User], c: int) -> str:
    """Whom client ``c`` mentions: each post queues a task, which waits while the broker is
    down."""
    return people[(c + 1) % len(people)].username


# -- 3. forgeries ------------------------------------------------------------------------------


def played_to_the_end() -> Doc:
    """A demo match played to its end (set-ups drawn, every team turn ended at once, every
    question answered by default, the post-match sequence by its defaults), exported."""
    match = autoplay.demo_match()
    rng = random.Random(0)
    for _ in range(3000):
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        if match.status != Match.Status.IN_PLAY:
            break
        _play_one(match, rng)
    for _ in range(20):
        if match.status == Match.Status.FINISHED:
            break
        services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
        match.refresh_from_db()
    return export_match(match)


def _play_one(match: Match, rng: random.Random) -> None:
    state, people = services.load_state(match), autoplay.coaches(match)
    if state.pending is not None:
        services.answer(match.pk, people[state.pending.to], state.pending.default)
    elif state.phase in ("setup", "perfect_defence", "quick_snap"):
        actor, setup = random_setup(state, rng)
        who = f"{actor.team}:{actor.side}"
        services.declare(match.pk, people[who], setup.to_json(), side=actor.side)
    elif state.phase == "kickoff":
        column = 6 if state.kicking == "away" else 19
        kick = {"player": None, "action": "kick", "target": NAMES[square(column, 7)]}
        services.declare(match.pk, people[f"{state.kicking}:captain"], kick)
    else:
        side = "captain" if "captain" not in state.teams[state.active].ended else "rival"
        end = {"player": None, "action": "end_turn"}
        services.declare(match.pk, people[f"{state.active}:{side}"], end, side=side)


def _step(doc: Doc, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e["data"] for e in doc["events"] if e["type"] == name)
    return found


def _plain(doc: Doc) -> dict[str, Callable[[Doc], object]]:
    """Tamperings, each on a copy of ``doc``; the ones marked so compute the chain again."""
    roll = next(e for e in doc["events"] if e["data"].get("faces"))
    return {
        "a roll's face": lambda d: d["events"][roll["number"] - 1]["data"]["faces"].__setitem__(
            0, roll["data"]["faces"][0] % 6 + 1
        ),
        "an event removed": lambda d: d["events"].pop(len(d["events"]) // 2),
        "two events swapped": lambda d: d["events"].insert(3, d["events"].pop(4)),
        "a post's text": lambda d: d["posts"][1].__setitem__("text", "not what was said"),
        "a team's name": lambda d: d["teams"]["home"].__setitem__("name", "Someone Else"),
        "the seed": lambda d: d["dice"].__setitem__("seed", "00" * 32),
        "rechained: winnings": lambda d: _step(d, "sequence_winnings").__setitem__(
            "winnings", _step(d, "sequence_winnings")["winnings"] + 10_000
        ),
        "rechained: a team value": lambda d: _step(d, "sequence_team_values_after").__setitem__(
            "home", _step(d, "sequence_team_values_after")["home"] + 50_000
        ),
        "rechained: the score": lambda d: _step(d, "sequence_result")["score"].__setitem__(
            "home", 3
        ),
        "rechained: a roll's face": lambda d: d["events"][roll["number"] - 1]["data"][
            "faces"
        ].__setitem__(0, roll["data"]["faces"][0] % 6 + 1),
    }


def forgeries(figures: Figures) -> None:
    doc = played_to_the_end()
    if verify(doc).problems:
        raise RuntimeError(f"the genuine export does not verify: {verify(doc).problems}")
    held = doc["receipt"]
    for name, tamper in _plain(doc).items():
        tampered: Doc = copy.deepcopy(doc)
        tamper(tampered)
        if name.startswith("rechained"):
            forgery.rechain(tampered)
            tampered["receipt"] = receipts.of_export(tampered)
        _tried(figures, name, tampered, None)
    alternative, changed = forgery.kick_elsewhere(doc)
    _tried(figures, "an alternative history, without a receipt", alternative, None)
    _tried(figures, "an alternative history, against the final receipt", alternative, held)
    posts = max(p["number"] for p in doc["posts"] if p["number"] < _post_of(doc, changed))
    before = receipts.at(doc, changed - 1, posts)
    figures.alternative_holds_before_the_change = not verify(alternative, head=before).problems


def _post_of(doc: Doc, event: int) -> int:
    return int(next(e["post"] for e in doc["events"] if e["number"] == event))


def _tried(figures: Figures, name: str, doc: Doc, head: str | None) -> None:
    figures.forgeries_tried += 1
    if verify(doc, head=head).problems:
        figures.forgeries_caught += 1
    else:
        figures.uncaught.append(name)


def configure_broker(url: str) -> None:
    """This process publishes to the drill's broker, never to the configured one."""
    current_app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
