"""Every page that names a player links the name to the player's career: after a season
played through the services, the league page (leaders and awards), the records, the team
pages, each match's page (its thread and dugouts), post-match page and record of disputes
are read, and no player's name is left as plain text outside a link to that player's page
(the pitch's tokens and the options of a form's lists excepted: they are controls)."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from teams.models import Player

pytestmark = pytest.mark.django_db

SKIPPED = {"svg", "option", "title", "script", "style", "textarea", "template"}


class PlainText(HTMLParser):
    """The page's text outside links, controls and the pitch, and each link's text by
    target."""

    def __init__(self) -> None:
        super().__init__()
        self.plain: list[str] = []
        self.links: dict[str, list[str]] = {}
        self.open: list[str] = []
        self.href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.open.append(tag)
        elif tag == "a":
            self.href = dict(attrs).get("href") or ""
            self.links.setdefault(self.href, []).append("")

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()
        elif tag == "a":
            self.href = None

    def handle_data(self, data: str) -> None:
        if self.open:
            return
        if self.href is not None:
            self.links[self.href][-1] += data
        else:
            self.plain.append(data)


def read(page: str) -> PlainText:
    parser = PlainText()
    parser.feed(page)
    return parser


def unlinked_names(page: str, players: list[Player], *, numbered: bool = False) -> list[str]:
    """The players named in the page's text but not in a link to their own page (with
    ``numbered``, only where named with the shirt number, "#3 Gorbag")."""
    text = read(page)
    plain = " ".join(text.plain)
    missing = []
    for player in players:
        name = f"#{player.number} {player.name}" if numbered else player.name
        named = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", plain)
        if named:
            missing.append(player.name)
    for href, texts in text.links.items():
        found = re.fullmatch(r"/players/(\d+)/", href)
        if href.startswith("/matches/") or "/advancements/" in href:
            continue  # a match's or a roll's link may carry a name: it goes elsewhere on purpose
        for label in texts:
            for player in players:
                if player.name in label and (found is None or int(found[1]) != player.pk):
                    missing.append(f"{player.name} -> {href}")
    return missing


def test_every_page_that_names_a_player_links_the_name(
    season: list[Match], cast: dict[str, User]
) -> None:
    league = season[0].league
    assert league is not None
    services.close_season(league.pk, cast["gm"])  # the awards are named on the league page
    players = list(Player.objects.filter(team__in={m.home_team_id for m in season}))
    players += list(Player.objects.filter(team__in={m.away_team_id for m in season}))
    gm = Client()
    gm.force_login(cast["gm"])
    urls = [
        reverse("gm:league", args=[league.pk]),
        reverse("history:records", args=[league.pk]),
    ]
    for match in season:
        urls += [
            reverse("matches:detail", args=[match.pk]),
            reverse("sequence:postmatch", args=[match.pk]),
            reverse("gm:match_disputes", args=[match.pk]),
        ]
    for team_id in {p.team_id for p in players}:
        urls += [reverse("teams:detail", args=[team_id]), reverse("history:team", args=[team_id])]
    named = 0
    for url in urls:
        answer = gm.get(url)
        assert answer.status_code == 200, url
        page = answer.content.decode()
        named += sum(f'href="/players/{p.pk}/"' in page for p in players)
        # The thread's posts are the coaches' and the sequence's own words: a name in them is
        # linked where it comes with its number, as the rolls and declarations write it.
        # So are the post-match steps' sentences (the same as the thread's system posts);
        # every player of the match is linked in its table below them.
        thread = url.startswith("/matches/") and url.count("/") == 3
        page = re.sub(r'<ol class="steps">.*?</ol>', "", page, flags=re.S)
        assert unlinked_names(page, players, numbered=thread) == [], url
    assert named > len(players)  # the pages did name players, and linked them
