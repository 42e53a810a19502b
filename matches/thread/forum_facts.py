"""The plain facts matches.thread.forum_export writes out: a match's turns (its thread's posts
grouped as the page groups them) and its report, in the reader's language. Read only."""

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from matches import labels
from matches.labels import label
from matches.models import Match, MatchEvent, PlayerMatchRecord, Post, TeamMatchRecord
from matches.services import load_state
from matches.thread.forum_export import ForumPost, ForumReport, ForumTurn, ReportPlayer, ReportTeam
from matches.thread.page import KICK_OFF_POSTS, Line, describe, headline
from matches.thread.sentences import Names
from matches.verification.receipts import for_match
from teams.rosters import gp


@dataclass(frozen=True)
class TurnKey:
    """A turn of the thread as the page groups it: the kick-off of a half is turn 0."""

    half: int
    turn: int
    team: str

    @classmethod
    def of(cls, post: Post) -> "TurnKey":
        d = post.declaration or {}
        if not post.turn or (d.get("action") or d.get("kind")) in KICK_OFF_POSTS:
            return cls(post.half, 0, "")  # before the first turn, whoever posts: the kick-off
        return cls(post.half, post.turn, post.team)

    @classmethod
    def parse(cls, text: str) -> "TurnKey | None":
        """``1-3-home``, ``1-0-`` (the kick-off); None when the text is not a turn."""
        half, _sep, rest = text.partition("-")
        turn, _sep, team = rest.partition("-")
        if not (half.isdigit() and turn.isdigit() and team in ("", "home", "away")):
            return None
        return cls(int(half), int(turn), team)

    def slug(self) -> str:
        return f"{self.half}-{self.turn}-{self.team}"

    def title(self, names: Names) -> str:
        half = _("Overtime") if self.half >= 3 else _("Half %(half)s") % {"half": self.half}
        if not self.turn:
            return _("%(half)s: set-up and kick-off") % {"half": half}
        return _("%(half)s, turn %(turn)s of %(team)s") % {
            "half": half,
            "turn": self.turn,
            "team": names.team(self.team),
        }


def line_text(line: Line) -> str:
    """A thread line as one sentence: what, the dice, the target, modifiers, the result."""
    parts = [line.text]
    if line.faces:
        parts.append(" ".join(f"[{face}]" for face in line.faces))
    if line.target:
        parts.append(line.target)
    parts.extend(line.modifiers)
    text = " ".join(parts)
    return f"{text} → {line.result}" if line.result else text


def _title(match: Match) -> str:
    return f"{match.home_team.name} {pgettext('versus', 'v')} {match.away_team.name}"


def turns(match: Match) -> list[tuple[TurnKey, str]]:
    """Every turn of the thread, in order, with its title."""
    names = Names(match, with_team=True)
    seen: dict[TurnKey, str] = {}
    for post in _standing(match).only("half", "turn", "team", "declaration").order_by("number"):
        key = TurnKey.of(post)
        if key not in seen:
            seen[key] = key.title(names)
    return list(seen.items())


def _standing(match: Match) -> QuerySet[Post]:
    """The posts that stand: those a GM's rewind took back are the thread's history, not the
    match's, and the forum reads the match (a rewound turn would be told twice)."""
    return match.posts.filter(undone_by__isnull=True)


def turn(match: Match, key: TurnKey, url: str) -> ForumTurn | None:
    """The posts of one turn with their lines; None when the thread has no such turn.
    ``url`` is the match page's address: the turn's first post is linked."""
    names = Names(match, with_team=True)
    posts = [
        post
        for post in _standing(match).select_related("author").order_by("number")
        if TurnKey.of(post) == key
    ]
    if not posts:
        return None
    events: dict[int, list[MatchEvent]] = {post.pk: [] for post in posts}
    for event in MatchEvent.objects.filter(post__in=posts).order_by("number"):
        events[event.post_id].append(event)  # type: ignore[index]
    shown = tuple(
        ForumPost(
            number=post.number,
            author=post.author.username if post.author else "",
            headline=headline(names, post),
            lines=tuple(
                line_text(line)
                for event in events[post.pk]
                if (line := describe(names, event.type, event.data))
            ),
            text=post.text,
        )
        for post in posts
    )
    return ForumTurn(_title(match), key.title(names), f"{url}#post-{posts[0].number}", shown)


def _achievements(record: PlayerMatchRecord) -> str:
    parts = []
    for count, short in (
        (record.touchdowns, pgettext("SPP", "TD")),
        (record.casualties, pgettext("SPP", "CAS")),
        (record.completions, pgettext("SPP", "COMP")),
        (record.interceptions, pgettext("SPP", "INT")),
    ):
        if count:
            parts.append(f"{count} {short}")
    if record.award == "mje":
        parts.append(str(_("MVP")))
    elif record.award == "pje":
        parts.append(str(_("second award")))
    return ", ".join(parts)


def report(match: Match, url: str) -> ForumReport:
    """The match report: the score, each team's result and winnings, what each player did."""
    state = load_state(match)
    records = {r.key: r for r in TeamMatchRecord.objects.filter(match=match)}
    teams = {}
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        record = records.get(key)
        teams[key] = ReportTeam(
            name=team.name,
            score=state.score[key],
            result=record.get_result_display() if record and record.result else "",
            winnings=gp(record.winnings) if record and record.winnings else "",
        )
    names = {match.home_team_id: match.home_team.name, match.away_team_id: match.away_team.name}
    players = tuple(
        ReportPlayer(
            team=names.get(record.team_id, ""),
            name=_player_name(match, record),
            achievements=_achievements(record),
            spp=record.spp,
            injury=label(labels.RESULTS, record.injury) if record.injury else "",
        )
        for record in PlayerMatchRecord.objects.filter(match=match).order_by("engine_id")
        if record.spp or record.injury
    )
    facts = [(_("Status"), match.get_status_display())]
    if match.league is not None:
        facts.append((_("League"), match.league.name))
    facts.append((_("Game master"), match.gm.username))
    facts.append((_("Weather"), label(labels.WEATHER, state.weather)))
    return ForumReport(
        teams["home"],
        teams["away"],
        tuple(f"{name}: {value}" for name, value in facts),
        players,
        for_match(match),
        url,
    )


def _player_name(match: Match, record: PlayerMatchRecord) -> str:
    facts = (match.lineup or {}).get(record.engine_id)
    return f"#{facts['number']} {record.name}" if facts else record.name
