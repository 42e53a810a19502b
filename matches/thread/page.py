"""The match thread for the page: posts grouped by half and turn, each with its dice and
events described in the reader's language (from the stored data, never from stored text)."""

import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db.models import F, OuterRef, Subquery
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from matches import labels
from matches.labels import label
from matches.models import Match, MatchEvent, Post
from matches.record.folding import AROUND_PLAY, UNDOING_EVENTS
from matches.record.markup import render_markdown
from matches.record.mentions import match_people
from matches.thread import sentences
from matches.thread.sentences import Names, choice_label

logger = logging.getLogger(__name__)

HIDDEN_EVENTS = frozenset(
    ("move", "action", "decision", "blitz_turn", "declaration", "match_created")
)
# What a system post's sentence already says: the GM's actions and the sequence's steps.
SAID_BY_THE_POST = AROUND_PLAY | UNDOING_EVENTS | {"correction", "award", "match_ended"}
KICK_OFF_POSTS = frozenset(("setup", "kick", "kick_or_receive", "touchback", "high_kick"))
KINDS = dict(Post.Kind.choices)
LOUD = {"turnover": "turnover", "touchdown": "touchdown", "final_whistle": "touchdown"}


@dataclass
class Line:
    text: str
    css: str = ""
    faces: list[str] = field(default_factory=list)
    target: str = ""
    modifiers: list[str] = field(default_factory=list)
    result: str = ""

    def plain(self) -> str:
        """The line as text, the dice in the forum's brackets: "Dodge [3] 4+ → failure"."""
        parts = [self.text, "".join(f"[{f}]" for f in self.faces), self.target, *self.modifiers]
        text = " ".join(part for part in parts if part)
        return f"{text} → {self.result}" if self.result else text

    def html(self) -> SafeString:
        """The line as a list item, every part escaped. Written here rather than in a template:
        a long thread has hundreds of lines and a template include each costs ten times more."""
        faces = format_html_join("", '<span class="die">{}</span>', ((f,) for f in self.faces))
        return format_html(
            '<li class="line {}">{}{}{}{}{}</li>',
            self.css,
            self.text,
            format_html(' <span class="faces">{}</span>', faces) if self.faces else "",
            format_html(' <span class="need">{}</span>', self.target) if self.target else "",
            format_html_join("", ' <span class="mod">{}</span>', ((m,) for m in self.modifiers)),
            format_html(" → <strong>{}</strong>", self.result) if self.result else "",
        )


@dataclass
class PostView:
    """What a post shows, the same for every reader: the fragment matches/_post.html
    is rendered from it."""

    post: Post
    lines: list[Line]
    headline: str
    edited: bool
    kind: str
    original: str = ""  # the first text of an edited post, as safe HTML
    undone_by: int | None = None  # the number of the ruling's post that undid this one


@dataclass
class ShownPost:
    """A post on the page: its fragment, and what the page needs to offer its author the
    edit form (the only part of a post that differs between readers)."""

    number: int
    kind: str
    html: SafeString
    author_id: int | None
    text: str
    created_at: datetime

    @classmethod
    def of(cls, post: Post, html: SafeString) -> "ShownPost":
        return cls(post.number, post.kind, html, post.author_id, post.text, post.created_at)


@dataclass
class TurnGroup:
    title: str
    team: str
    posts: list[ShownPost]
    slug: str = ""  # the turn as matches.thread.forum_facts.TurnKey writes it: ``1-3-home``


@dataclass
class ThreadPage:
    """A stretch of the thread, newest at the bottom; ``earlier`` is the number of its first
    post when posts come before it (the page before ends just above that number)."""

    groups: list[TurnGroup]
    earlier: int | None
    before: int | None = None
    keep: int | None = None  # the first post a poll must still show: earlier pages were read
    key: str = ""  # what the page was cached under: its HTML is cached under it too


PAGE_SIZE = 40


def thread(
    match: Match, *, before: int | None = None, since: int | None = None, size: int = PAGE_SIZE
) -> ThreadPage:
    """The latest ``size`` posts, or the ``size`` posts before post number ``before``, or
    every post from number ``since`` on (what a reader who loaded earlier pages shows).

    A page of the thread reads the same for every reader of one language and time zone until
    the match changes, and every write to a match moves its version on: the page is cached
    by version, so the readers of one version (the coaches' and spectators' polls, a reload)
    read the posts once between them. Uncached, it costs two queries however long the
    thread: the posts, then the events of those whose fragment is not cached."""
    key = _page_key(match, before, since, size)
    cached = _cache_get_many([key], PAGE_SECONDS).get(key)
    if isinstance(cached, ThreadPage):
        return cached
    page = _read_page(match, before, since, size)
    page.key = key
    _cache_set_many({key: page}, PAGE_SECONDS)
    return page


def per_version_html(match: Match, name: str, facts: list[Any], render: Callable[[], str]) -> str:
    """A part of the match page that reads the same for every reader with the same ``facts``
    until the match changes: rendered once per version (every write moves the version on)."""
    digest = json.dumps([_reader_context(match), match.dice_commitment, match.version, *facts])
    return cached_html(f"{name}:{match.pk}:{_digest(digest)}", render)


def cached_html(key: str, render: Callable[[], str]) -> SafeString:
    """HTML rendered once for ``key`` (whose facts say all it depends on), then read from the
    caches the thread's pages use; rendered anew when they are down."""
    key = f"html:{key}"
    cached = _cache_get_many([key], PAGE_SECONDS).get(key)
    if isinstance(cached, str):
        return mark_safe(cached)
    html = render()
    _cache_set_many({key: str(html)}, PAGE_SECONDS)
    return mark_safe(html)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _page_key(match: Match, before: int | None, since: int | None, size: int) -> str:
    # The dice commitment tells this match from one of another database with the same id.
    facts = [_reader_context(match), match.dice_commitment, match.version, before, since, size]
    digest = hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:32]
    return f"thread:{match.pk}:{digest}"


def _read_page(match: Match, before: int | None, since: int | None, size: int) -> ThreadPage:
    # A post's last event says whether events were appended to it since it was cached. Of
    # its author and of the post that undid it, only a name and a number are shown.
    last_event = MatchEvent.objects.filter(post=OuterRef("pk")).order_by("-number")
    posts_qs = match.posts.annotate(
        last_event=Subquery(last_event.values("number")[:1]),
        author_name=F("author__username"),
        undone_by_number=F("undone_by__number"),
    )
    if since is not None:
        posts_qs = posts_qs.filter(number__gte=since).order_by("number")
    else:
        if before is not None:
            posts_qs = posts_qs.filter(number__lt=before)
        posts_qs = posts_qs.order_by("-number")[:size]
    posts: list[Post] = list(posts_qs)
    if since is None:
        posts.reverse()
    first = posts[0].number if posts else None
    # Posts are numbered from 1 without gaps: the first one shown says whether any are earlier.
    earlier = first if first is not None and first > 1 else None
    keep = first if since is not None or before is not None else None
    return ThreadPage(_grouped(match, posts), earlier, before, keep)


def _grouped(match: Match, posts: list[Post]) -> list[TurnGroup]:
    names = Names(match, with_team=True)
    fragments = _fragments(match, names, posts)
    groups: list[TurnGroup] = []
    key: tuple[int, int, str] | None = None
    for post in posts:
        d = post.declaration or {}
        kick_off = not post.turn or (d.get("action") or d.get("kind")) in KICK_OFF_POSTS
        here = (post.half, 0 if kick_off else post.turn, "" if kick_off else post.team)
        if here != key:
            key = here
            slug = f"{here[0]}-{here[1]}-{here[2]}"
            groups.append(TurnGroup(_group_title(names, *here), here[2], [], slug))
        groups[-1].posts.append(ShownPost.of(post, fragments[post.pk]))
    return groups


# -- post fragments ---------------------------------------------------------------------------
# A post reads the same for every reader of one language and time zone, and only changes when
# it is edited or when the events of its declaration are appended (a question answered), so
# its HTML is cached. The key holds everything the fragment is made from, the number of the
# post's last event included (events are only appended), and the source of the code and the
# template that make it: a changed post, a renamed team or a new release never shows a stale
# fragment.

FRAGMENT_TEMPLATE = "matches/_post.html"
FRAGMENT_SECONDS = 30 * 24 * 3600
PAGE_SECONDS = 3600  # the readers of a version (polls, reloads) come within the hour; an idle
# match is read from the database once an hour, and a version gone by takes no room for long
_HERE = Path(__file__).resolve()
_MATCHES = _HERE.parents[1]
_SOURCES = (
    _HERE,
    _MATCHES / "labels.py",
    _MATCHES / "thread" / "sentences.py",
    _MATCHES / "thread" / "templates" / FRAGMENT_TEMPLATE,
)
RELEASE = hashlib.sha256(b"".join(path.read_bytes() for path in _SOURCES)).hexdigest()[:12]

EventFacts = tuple[str, dict[str, Any]]


def _fragments(match: Match, names: Names, posts: list[Post]) -> dict[int, SafeString]:
    context = _reader_context(match)
    keys = {post.pk: _fragment_key(post, context) for post in posts}
    found = _cache_get_many(list(keys.values()))
    missing = [post for post in posts if keys[post.pk] not in found]
    made: dict[str, str] = {}
    events = _events_by_post(missing)
    for post in missing:
        view = _view(names, post, events[post.pk])
        made[keys[post.pk]] = render_to_string(FRAGMENT_TEMPLATE, {"pv": view, "match": match})
    _cache_set_many(made)
    every = {**found, **made}
    return {post.pk: mark_safe(every[keys[post.pk]]) for post in posts}  # rendered escaped


def _reader_context(match: Match) -> str:
    """What every fragment of this page depends on besides its post (a ruling that changes
    the game moves the thread's version on)."""
    people = ",".join(sorted(user.username for user in match_people(match)))
    return "|".join(
        (
            RELEASE,
            get_language() or "",
            timezone.get_current_timezone_name(),
            names_digest(match),
            people,
            str(match.thread_version),
        )
    )


def names_digest(match: Match) -> str:
    names = [match.home_team.name, match.away_team.name, match.lineup or {}]
    return hashlib.sha256(json.dumps(names, sort_keys=True).encode()).hexdigest()[:16]


def _fragment_key(post: Post, context: str) -> str:
    facts = [
        context,
        post.pk,
        post.number,
        post.created_at.isoformat(),
        post.kind,
        getattr(post, "author_name", None) or "",
        post.declaration,
        post.summary,
        post.html,
        getattr(post, "last_event", None),
        _undone_by(post),
    ]
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
    return f"post:{post.pk}:{digest[:32]}"


def _events_by_post(posts: list[Post]) -> dict[int, list[EventFacts]]:
    """Each post's events as (type, data), in order: plain rows, only these two fields."""
    by_post: dict[int, list[EventFacts]] = {post.pk: [] for post in posts}
    if not posts:
        return by_post
    rows = (
        MatchEvent.objects.filter(post__in=[post.pk for post in posts])
        .order_by("number")
        .values_list("post_id", "type", "data")
    )
    for post_id, type_, data in rows:
        by_post[post_id].append((type_, data))
    return by_post


def _undone_by(post: Post) -> int | None:
    return getattr(post, "undone_by_number", None)  # annotated by _read_page


def _view(names: Names, post: Post, events: list[EventFacts]) -> PostView:
    return PostView(
        post,
        [line for type_, data in events if (line := describe(names, type_, data))],
        headline(names, post),
        "edited_at" in (post.summary or {}),
        str(KINDS.get(post.kind, post.kind)),
        _original(post),
        _undone_by(post),
    )


class Recent:
    """The fragments and pages this process read or made last, in front of the shared cache
    (Redis: a round trip and an unpickling per page). Their keys name their content, so a
    copy is never wrong; it is kept no longer than the shared cache keeps it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        now, found = time.monotonic(), {}
        with self._lock:
            for key in keys:
                item = self._items.get(key)
                if item is not None and item[0] > now:
                    self._items.move_to_end(key)
                    found[key] = item[1]
        return found

    def set_many(self, values: dict[str, Any], seconds: float) -> None:
        until = time.monotonic() + seconds
        with self._lock:
            for key, value in values.items():
                self._items[key] = (until, value)
                self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


RECENT = Recent(size=4000)  # a few pages of every match being played: some megabytes


def _cache_get_many(keys: list[str], seconds: int = FRAGMENT_SECONDS) -> dict[str, Any]:
    found = RECENT.get_many(keys)
    missing = [key for key in keys if key not in found]
    if not missing:
        return found
    # The cache only saves time: if it is down, the page is rendered without it.
    try:
        shared = dict(cache.get_many(missing))
    except Exception:  # any backend's error
        logger.warning("post fragments: cache unavailable", exc_info=True)
        return found
    RECENT.set_many(shared, min(seconds, PAGE_SECONDS))  # their time left there is unknown
    return found | shared


def _cache_set_many(values: dict[str, Any], seconds: int = FRAGMENT_SECONDS) -> None:
    if not values:
        return
    RECENT.set_many(values, seconds)
    try:
        cache.set_many(values, seconds)
    except Exception:  # any backend's error
        logger.warning("post fragments: cache unavailable", exc_info=True)


def _original(post: Post) -> str:
    original = (post.summary or {}).get("original")
    if "edited_at" not in (post.summary or {}) or not original:
        return ""
    return mark_safe(render_markdown(original))  # sanitised by render_markdown


def _group_title(names: Names, half: int, turn: int, team: str) -> str:
    half_label = _("Overtime") if half >= 3 else _("Half %(half)s") % {"half": half}
    if not turn:
        return _("%(half)s: set-up and kick-off") % {"half": half_label}
    return _("%(half)s, turn %(turn)s of %(team)s") % {
        "half": half_label,
        "turn": turn,
        "team": names.team(team),
    }


def headline(names: Names, post: Post) -> str:
    """The first line of a post: what it declares or answers, or what the system says."""
    d = post.declaration or {}
    if post.kind == Post.Kind.SYSTEM:
        return sentences.system_headline(names, post.summary or {})
    if post.kind == Post.Kind.DECISION:
        choice = choice_label(d.get("kind", ""), d.get("choice"), names)
        text = _("%(who)s: %(question)s %(choice)s") % {
            "who": names.actor(post.actor),
            "question": label(labels.DECISIONS, d.get("kind")),
            "choice": choice,
        }
        if d.get("default"):
            text += " " + _("(the deadline passed: the default answer)")
        elif d.get("standing_order"):
            text += " " + _("(answered by the standing orders, without asking)")
        return text
    if post.kind == Post.Kind.DECLARATION:
        return declaration_text(names, d)
    return ""


def declaration_text(names: Names, d: dict[str, Any]) -> str:
    action = d.get("action", "")
    parts = [label(labels.ACTIONS, action)]
    if d.get("player"):
        parts.insert(0, names.player(d["player"]))
    if d.get("path"):
        parts.append("→ " + "-".join(d["path"]))
    target = d.get("target")
    if target:
        parts.append("· " + (names.player(target) if target in names.lineup else target))
    if action == "setup":
        parts.append(
            _("%(n)s players") % {"n": len(d.get("placements") or {})},
        )
    return " ".join(str(p) for p in parts)


def _modifiers(mods: dict[str, int]) -> list[str]:
    return [f"{value:+d} {label(labels.MODIFIERS, name)}" for name, value in mods.items() if value]


def describe(names: Names, type_: str, data: dict[str, Any]) -> Line | None:
    """One event as a line of the thread; None for the ones the declaration already says."""
    if type_ in HIDDEN_EVENTS or type_ in SAID_BY_THE_POST or type_.startswith("sequence_"):
        return None
    if "faces" in data and data.get("faces") and "purpose" in data:
        return _roll(names, type_, data)
    who = names.player(data.get("player"))
    team = names.team(data.get("team"))
    text = {
        "push": lambda: _("%(p)s is pushed to %(to)s") % {"p": who, "to": data.get("to")},
        "knocked_down": lambda: _("%(p)s is knocked down") % {"p": who},
        "placed_prone": lambda: _("%(p)s is placed prone") % {"p": who},
        "turnover": lambda: _("Turnover! %(team)s loses the turn.") % {"team": team},
        "touchdown": lambda: _("Touchdown for %(team)s! %(p)s") % {"team": team, "p": who},
        "end_turn": lambda: _("End of the turn of %(team)s") % {"team": team},
        "end_side": lambda: (
            _("%(team)s (%(side)s) ends its part of the turn")
            % {"team": team, "side": _("captain") if data.get("side") == "captain" else _("rival")}
        ),
        "turn_start": lambda: (
            _("%(team)s starts turn %(turn)s") % {"team": team, "turn": data.get("turn")}
        ),
        "kick": lambda: _("%(team)s kicks towards %(sq)s") % {"team": team, "sq": data["target"]},
        "setup": lambda: (
            _("%(team)s (%(side)s) sets up %(n)s players")
            % {
                "team": team,
                "side": _("captain") if data.get("side") == "captain" else _("rival"),
                "n": data.get("players"),
            }
        ),
        "setup_complete": lambda: _("Both teams are set up."),
        "drive_start": lambda: (
            _("New drive: %(team)s kicks off") % {"team": names.team(data.get("kicking"))}
        ),
        "half_start": lambda: _("Half %(half)s starts") % {"half": data.get("half")},
        "half_end": lambda: _("End of half %(half)s") % {"half": data.get("half")},
        "final_whistle": lambda: (
            _("Final whistle: %(home)s %(h)s-%(a)s %(away)s")
            % {
                "home": names.team("home"),
                "away": names.team("away"),
                "h": (data.get("score") or {}).get("home"),
                "a": (data.get("score") or {}).get("away"),
            }
        ),
        "follow_up": lambda: _("%(p)s follows up to %(to)s") % {"p": who, "to": data.get("to")},
        "reroll": lambda: (
            (_("Reroll (%(source)s) used") if data.get("result") == "used" else _("Reroll denied"))
            % {"source": choice_label("reroll", data.get("source"), names)}
        ),
        "sent_off": lambda: _("%(p)s is sent off by the referee!") % {"p": who},
        "foul": lambda: _("%(p)s fouls %(t)s") % {"p": who, "t": names.player(data.get("target"))},
        "hand_off": lambda: _("%(p)s hands the ball off") % {"p": who},
        "block_result": lambda: (
            _("Block die: %(face)s") % {"face": label(labels.BLOCK_FACES, data.get("face"))}
        ),
        "apothecary": lambda: _("The apothecary treats %(p)s") % {"p": who},
        "claim_blitz": lambda: _("%(team)s: the rival's side claims the Blitz") % {"team": team},
        "blitz_granted": lambda: _("The captain grants the Blitz"),
        "touchback": lambda: _("Touchback: %(p)s gets the ball") % {"p": who},
        "high_kick": lambda: _("High Kick: %(p)s moves under the ball") % {"p": who},
        "stand_up": lambda: _("%(p)s stands up") % {"p": who},
        "concede": lambda: _("%(team)s concedes") % {"team": team},
        "no_setup": lambda: _("A team had nobody to set up."),
        "draw_agreed": lambda: _("Both captains agree: the match is a draw."),
        "draw_declined": lambda: (
            _("The captain of %(team)s does not agree to a draw: sudden-death overtime.")
            % {"team": team}
        ),
        "stand_firm": lambda: _("%(p)s stands firm") % {"p": who},
        "interception": lambda: _("%(p)s intercepts!") % {"p": who},
    }.get(type_)
    if text is None:
        return Line(labels.event_name(type_) + (f" ({who})" if data.get("player") else ""), "muted")
    return Line(text(), LOUD.get(type_, ""))


def _roll(names: Names, type_: str, data: dict[str, Any]) -> Line:
    purpose = data.get("purpose", type_)
    title = label(labels.PURPOSES, purpose)
    if data.get("player"):
        title = f"{title} · {names.player(data['player'])}"
    elif data.get("team"):
        title = f"{title} · {names.team(data['team'])}"
    faces = [str(f) for f in data.get("faces", [])]
    result = str(data.get("result", ""))
    css = "success" if result in ("success", "broken", "fine", "held") else ""
    if result in ("failure", "collapses"):
        css = "failure"
    shown = label(labels.RESULTS, result) if result else ""
    if purpose == "block":
        faces = [f"{f} {label(labels.BLOCK_FACES, f)}" for f in data.get("faces", [])]
    elif purpose == "weather":
        shown = label(labels.WEATHER, result)
    elif purpose == "kickoff_table":
        shown = label(labels.KICKOFF, result)
    elif purpose == "coin_toss":
        shown = _("won by %(team)s") % {"team": names.team(result)}
    elif purpose in ("bounce", "scatter", "throw_in", "kick_scatter"):
        shown = str(data.get("to") or _("off the pitch"))
    elif purpose == "random_player":
        shown = names.player(data.get("player"))
    elif "total" in data and not result:
        shown = str(data["total"])
    needed = against(purpose, data)
    modifiers = _modifiers(data.get("modifiers") or {})
    if purpose == "blitz_contest":  # the totals say it all, the captain's +2 included
        faces, modifiers = [], []
        shown = _("to the %(side)s") % {"side": sentences.side_name(result)}
    return Line(
        title,
        css or "roll",
        faces,
        needed,
        modifiers,
        shown + (" · " + _("rerolled") if data.get("reroll") else ""),
    )


def against(purpose: str, data: dict[str, Any]) -> str:
    """What a roll was up against, as the forum writes it: "4+", "9 vs AV 8", "= 9", the
    Blitz contest's two totals. Shared by the thread, the pending question and the disputes."""
    target = data.get("target")
    total = data.get("total")
    if purpose == "armour" and isinstance(target, int):
        shown = total if isinstance(total, int) else sum(data.get("faces") or [])
        return _("%(total)s vs AV %(av)s") % {"total": shown, "av": target - 1}
    if purpose == "blitz_contest":
        return _("rival %(rival)s = %(rt)s vs captain %(captain)s + 2 = %(ct)s") % {
            "rival": "+".join(str(d) for d in data.get("rival", [])),
            "rt": data.get("rival_total"),
            "captain": "+".join(str(d) for d in data.get("captain", [])),
            "ct": data.get("captain_total"),
        }
    if purpose in ("injury", "casualty") and isinstance(total or data.get("roll"), int):
        return f"= {total or data.get('roll')}"
    if isinstance(target, int):
        return f"{target}+"
    return ""
