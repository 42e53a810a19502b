"""A match's replay: where everybody stood at every event of its record, rebuilt with the rules
engine, for the replay page to step through post by post and event by event.

The record is read as ``matches.record.folding.fold`` reads it (the events a GM's ruling undid are
skipped, rulings are applied): each declaration is resolved again from the dice stream with a
watcher that notes the pitch as each of its events is recorded, and its last event shows the
state the declaration left. Only what the record already shows is replayed: a question still
open is not on record, and the dice are read at the indexes the record names."""

from collections import deque
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from matches import labels
from matches.models import Match, MatchEvent
from matches.record import folding
from matches.services import core
from matches.thread.page import Line, declaration_text, describe
from matches.thread.sentences import Names, choice_label
from rules.engine import Event, MatchState, Watch
from rules.engine.board import NAMES

CACHE_SECONDS = 24 * 3600
# What the game master did, in words: the play around these events is on the pitch already.
GM_EVENTS = {
    "dispute_raised": gettext_lazy("A coach raises a dispute"),
    "dismissed": gettext_lazy("The game master dismisses the dispute"),
    "upheld": gettext_lazy("The game master upholds the dispute"),
    "rewind": gettext_lazy("The game master takes the play back"),
    "granted_reroll": gettext_lazy("The game master has the roll made again"),
    "correction": gettext_lazy("The game master corrects a player's place or state"),
    "award": gettext_lazy("The game master awards the match"),
    "match_ended": gettext_lazy("The game master ends the match"),
    "deadline_extended": gettext_lazy("The game master extends the deadline"),
    "deadline_set": gettext_lazy("The game master sets the deadline"),
    "paused": gettext_lazy("The game master pauses the match"),
    "resumed": gettext_lazy("The game master resumes the match"),
    "locked": gettext_lazy("The match is locked"),
    "unlocked": gettext_lazy("The match is unlocked"),
    "coach_replaced": gettext_lazy("The game master puts in another coach"),
    "match_closed": gettext_lazy("The game master closes the match"),
}

# A player on the pitch: [square, state, holds the ball, team]
Spot = tuple[str, str, bool, str]


@dataclass(frozen=True)
class View:
    """The pitch and the scoreboard at one moment."""

    spots: dict[str, Spot]
    ball: str | None  # a loose ball's square
    score: tuple[int, int]
    half: int
    turn: tuple[int, int]
    active: str


def view(state: MatchState) -> View:
    carrier = state.carrier
    spots = {
        pid: (NAMES[p.at], p.state, pid == carrier, p.team)
        for pid, p in state.players.items()
        if p.at is not None
    }
    loose = state.ball_at if carrier is None else None
    return View(
        spots,
        NAMES[loose] if loose is not None and 0 <= loose < len(NAMES) else None,
        (state.score["home"], state.score["away"]),
        state.half,
        (state.turn["home"], state.turn["away"]),
        state.active,
    )


@dataclass(frozen=True)
class Frame:
    event: int
    post: int | None
    text: str
    view: View


def frames(match: Match) -> list[Frame]:
    """One frame per event in play, in the record's order."""
    events = list(
        match.events.select_related("post").only("number", "type", "data", "post__number")
    )
    undone = folding.undone_numbers(events)
    dice = core.dice_for(match)  # read at call time: the tests' dice seam replaces it
    names = Names(match)
    state: MatchState | None = None
    queued: deque[tuple[str, View]] = deque()  # the views of an action's events to come
    out: list[Frame] = []
    for event in events:
        if event.number in undone or event.type.startswith("sequence_"):
            continue  # the pre- and post-match sequence is not on the pitch
        if event.type == "match_created":
            state = MatchState.from_json(event.data["state"])
            shown = view(state)
        elif state is None:
            continue
        elif event.type == "declaration" or event.type in folding.RULING_EVENTS:
            shown = view(state)
            seen: list[tuple[str, View]] = []
            watch = _watcher(seen)
            if event.type == "declaration":
                state = folding.resolve_recorded(state, event.data, dice, watch).state
            else:
                state = folding.apply_ruling(state, event, dice, watch)
                if not seen:
                    shown = view(state)
            if seen:
                seen[-1] = (seen[-1][0], view(state))
            queued = deque(seen)
        elif queued and queued[0][0] == event.type:
            shown = queued.popleft()[1]
        else:
            shown = view(state)
        post = event.post.number if event.post else None
        out.append(Frame(event.number, post, event_text(names, event), shown))
    return out


def _watcher(seen: list[tuple[str, View]]) -> Watch:
    def watch(happened: Event, now: MatchState) -> None:
        seen.append((happened.type, view(now)))

    return watch


def event_text(names: Names, event: MatchEvent) -> str:
    """The event in the reader's language, as the thread words it."""
    data = event.data
    if event.type == "match_created":
        return _("The match is on record: the players take the field")
    if event.type == "declaration":
        decl = data.get("declaration") or {}
        said = declaration_text(names, decl)
        actor = names.actor(data["actor"]) if decl.get("action") != "start_match" else ""
        return f"{actor}: {said}" if actor else said
    if event.type == "move":
        return _("%(p)s moves from %(frm)s to %(to)s") % {
            "p": names.player(data.get("player")),
            "frm": data.get("frm"),
            "to": data.get("to"),
        }
    if event.type in GM_EVENTS:
        return str(GM_EVENTS[event.type])
    if event.type == "action":
        return _("%(p)s begins: %(action)s") % {
            "p": names.player(data.get("player")),
            "action": labels.label(labels.ACTIONS, data.get("action")),
        }
    if event.type == "decision":
        question = labels.label(labels.DECISIONS, data.get("kind"))
        return f"{question} {choice_label(data.get('kind', ''), data.get('choice'), names)}"
    line = describe(names, event.type, data)
    return _plain(line) if line is not None else labels.event_name(event.type)


def _plain(line: Line) -> str:
    parts = [line.text]
    if line.faces:
        parts.append(" ".join(f"[{face}]" for face in line.faces))
    parts += [part for part in (line.target, *line.modifiers) if part]
    if line.result:
        parts.append(f"→ {line.result}")
    return " ".join(parts)


def replay_document(match: Match) -> dict[str, Any]:
    """The frames as the replay page reads them: the players once, then each frame with only
    the players that changed since the frame before (the first frame has everybody)."""
    # The chain's head names the history and the creation time the match: a database restored
    # or made again gives an id and a version to another history while the cache keeps these.
    made = match.created_at.timestamp()
    key = f"replay:{match.pk}:{made}:{match.version}:{match.last_event_hash}:{get_language()}"
    cached: dict[str, Any] | None = cache.get(key)
    if cached is not None:
        return cached
    document = _document(match, frames(match))
    cache.set(key, document, CACHE_SECONDS)
    return document


def _document(match: Match, shown: list[Frame]) -> dict[str, Any]:
    names = Names(match)
    players: dict[str, dict[str, Any]] = {}
    out = []
    before: dict[str, Spot] = {}
    for frame in shown:
        spots = frame.view.spots
        changes: dict[str, list[Any] | None] = {
            pid: list(spot) for pid, spot in spots.items() if before.get(pid) != spot
        }
        changes.update({pid: None for pid in before if pid not in spots})
        before = spots
        for pid in spots:
            players.setdefault(pid, _player(match, names, pid))
        out.append(
            {
                "event": frame.event,
                "post": frame.post,
                "text": frame.text,
                "changes": changes,
                "ball": frame.view.ball,
                "score": list(frame.view.score),
                "half": frame.view.half,
                "turn": list(frame.view.turn),
                "active": frame.view.active,
            }
        )
    return {"players": players, "frames": out}


def _player(match: Match, names: Names, pid: str) -> dict[str, Any]:
    info = (match.lineup or {}).get(pid, {})
    return {"number": info.get("number", pid), "label": names.player(pid)}
