"""A turn of the thread, or the match report, written in a forum's own format: BBCode (phpBB)
or Markdown, to paste into the league's forum thread. Pure: it formats the plain facts it is
given (matches.thread.forum_facts reads them from a match, in the reader's language) and reads no
database.

What a coach or a team wrote is the coach's, not the format's: in BBCode every ``[`` that
could open a tag is followed by a zero-width space, so a ``[/quote]`` or ``[url=...]`` in a
post shows as written and cannot close the quote it sits in; in Markdown, names lose their
markup, and a post's own Markdown is kept but sits inside its blockquote line by line, with no
raw HTML."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

ZERO_WIDTH_SPACE = "\u200b"
_BBCODE_OPENING = re.compile(r"\[(?=/?[A-Za-z*])")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


@dataclass(frozen=True)
class ForumPost:
    number: int
    author: str  # the coach's username, "" for the system's posts
    headline: str  # what the post declares, answers or says
    lines: tuple[str, ...]  # its dice and events, one sentence each
    text: str  # what the coach wrote (Markdown), "" if nothing


@dataclass(frozen=True)
class ForumTurn:
    match: str  # "Reikland Reavers v Orcland Raiders"
    title: str  # "Half 1, turn 3 of Reikland Reavers"
    url: str  # the first post of the turn on the match page
    posts: tuple[ForumPost, ...]


@dataclass(frozen=True)
class ReportTeam:
    name: str
    score: int
    result: str  # "Win", "" while the match is played
    winnings: str  # "60,000 gp", "" before the post-match sequence


@dataclass(frozen=True)
class ReportPlayer:
    team: str
    name: str  # "#7 Hans Richter"
    achievements: str  # "1 TD, 1 CAS, MVP"
    spp: int
    injury: str


@dataclass(frozen=True)
class ForumReport:
    home: ReportTeam
    away: ReportTeam
    facts: tuple[str, ...]  # "League: Liga del Foro", "Game master: gm", "Weather: ..."
    players: tuple[ReportPlayer, ...]
    receipt: str
    url: str


def _link_words() -> str:
    return _("On the match page")


def _players_words() -> str:
    return _("Players")


def _receipt_words() -> str:
    return _("Receipt")


# -- escaping ----------------------------------------------------------------------------------


def bbcode_escape(text: str) -> str:
    """Text that phpBB shows as written: no tag can open (or close) in it."""
    return _BBCODE_OPENING.sub("[" + ZERO_WIDTH_SPACE, text)


def markdown_escape(text: str) -> str:
    """A name or a sentence shown as written: every Markdown mark is backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _markdown_quote(text: str) -> list[str]:
    """A coach's own Markdown, kept, as blockquote lines; raw HTML is shown, not run."""
    safe = text.replace("&", "&amp;").replace("<", "&lt;")
    return [f"> {line}".rstrip() for line in safe.strip().splitlines()]


# -- a turn ------------------------------------------------------------------------------------


def bbcode_turn(turn: ForumTurn) -> str:
    out = [
        f"[b]{bbcode_escape(turn.match)}[/b]",
        f"[size=120][b]{bbcode_escape(turn.title)}[/b][/size]",
        "",
    ]
    for post in turn.posts:
        out.extend(_bbcode_post(post))
    out.append(f"[url={_bbcode_url(turn.url)}]{bbcode_escape(_link_words())}[/url]")
    return "\n".join(out) + "\n"


def _bbcode_post(post: ForumPost) -> list[str]:
    author = post.author.replace('"', "'")
    opening = f'[quote="{bbcode_escape(author)}"]' if post.author else "[quote]"
    first = f"[b]#{post.number}[/b]"
    if post.headline:
        first += f" {bbcode_escape(post.headline)}"
    out = [opening + first]
    if post.lines:
        out.append("[list]")
        out.extend(f"[*]{bbcode_escape(line)}" for line in post.lines)
        out.append("[/list]")
    if post.text:
        out.append(bbcode_escape(post.text.strip()))
    out[-1] += "[/quote]"
    return out


def _bbcode_url(url: str) -> str:
    return url.replace("[", "%5B").replace("]", "%5D")


def markdown_turn(turn: ForumTurn) -> str:
    out = [f"**{markdown_escape(turn.match)}**", "", f"### {markdown_escape(turn.title)}", ""]
    for post in turn.posts:
        out.extend(_markdown_post(post))
        out.append("")
    out.append(f"[{markdown_escape(_link_words())}](<{_markdown_url(turn.url)}>)")
    return "\n".join(out) + "\n"


def _markdown_post(post: ForumPost) -> list[str]:
    first = f"> **#{post.number}**"
    if post.author:
        first += f" · *{markdown_escape(post.author)}*"
    if post.headline:
        first += f" · {markdown_escape(post.headline)}"
    out = [first]
    out.extend(f"> - {markdown_escape(line)}" for line in post.lines)
    if post.text:
        out.append(">")
        out.extend(_markdown_quote(post.text))
    return out


def _markdown_url(url: str) -> str:
    return url.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")


# -- the match report --------------------------------------------------------------------------


def _score_line(report: ForumReport) -> str:
    return f"{report.home.name} {report.home.score} - {report.away.score} {report.away.name}"


def _team_lines(teams: Iterable[ReportTeam]) -> list[str]:
    lines = []
    for team in teams:
        parts = [team.name]
        if team.result:
            parts.append(team.result)
        if team.winnings:
            parts.append(_("winnings %(gp)s") % {"gp": team.winnings})
        if len(parts) > 1:
            lines.append(": ".join([parts[0], ", ".join(parts[1:])]))
    return lines


def _player_line(player: ReportPlayer) -> str:
    parts = [f"{player.name} ({player.team})"]
    if player.achievements:
        parts.append(player.achievements)
    parts.append(_("%(spp)s SPP") % {"spp": player.spp})
    if player.injury:
        parts.append(player.injury)
    return ", ".join(parts)


def bbcode_report(report: ForumReport) -> str:
    out = [f"[size=150][b]{bbcode_escape(_score_line(report))}[/b][/size]"]
    out.extend(bbcode_escape(fact) for fact in report.facts)
    teams = _team_lines((report.home, report.away))
    if teams:
        out.extend(["", "[list]", *(f"[*]{bbcode_escape(line)}" for line in teams), "[/list]"])
    if report.players:
        out.extend(["", f"[b]{bbcode_escape(_players_words())}[/b]", "[list]"])
        out.extend(f"[*]{bbcode_escape(_player_line(p))}" for p in report.players)
        out.append("[/list]")
    out.extend(
        [
            "",
            f"{bbcode_escape(_receipt_words())}: {bbcode_escape(report.receipt)}",
            f"[url={_bbcode_url(report.url)}]{bbcode_escape(_link_words())}[/url]",
        ]
    )
    return "\n".join(out) + "\n"


def markdown_report(report: ForumReport) -> str:
    out = [f"## {markdown_escape(_score_line(report))}", ""]
    out.extend(f"{markdown_escape(fact)}  " for fact in report.facts)
    teams = _team_lines((report.home, report.away))
    if teams:
        out.extend(["", *(f"- {markdown_escape(line)}" for line in teams)])
    if report.players:
        out.extend(["", f"**{markdown_escape(_players_words())}**", ""])
        out.extend(f"- {markdown_escape(_player_line(p))}" for p in report.players)
    out.extend(
        [
            "",
            f"{markdown_escape(_receipt_words())}: `{report.receipt}`  ",
            f"[{markdown_escape(_link_words())}](<{_markdown_url(report.url)}>)",
        ]
    )
    return "\n".join(out) + "\n"
