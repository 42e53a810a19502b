"""The thread comes in pages: the latest posts, then earlier ones on demand (htmx, or a plain
link without JavaScript), and a poll keeps what the reader has loaded."""

import random
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.models import Match
from matches.thread.page import PAGE_SIZE
from tools import autoplay

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def long_match() -> Match:
    match = autoplay.demo_match()
    autoplay.fill(match.pk, PAGE_SIZE + 15, random.Random(11), chat_share=0.8)
    return match


def _shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article [^>]*id="post-(\d+)"', html)]


def test_the_page_shows_the_latest_posts_and_a_link_to_the_earlier_ones(
    client: Client, long_match: Match
) -> None:
    last = long_match.posts.count()
    html = client.get(reverse("matches:detail", args=[long_match.pk])).content.decode()
    first = last - PAGE_SIZE + 1
    assert _shown(html) == list(range(first, last + 1))
    assert f'href="/matches/{long_match.pk}/?before={first}#thread"' in html
    assert f'hx-get="/matches/{long_match.pk}/thread/?before={first}"' in html
    assert f"Earlier posts ({first - 1} more)" in html


def test_without_javascript_the_link_opens_the_page_before(
    client: Client, long_match: Match
) -> None:
    html = client.get(reverse("matches:detail", args=[long_match.pk]) + "?before=20").content
    shown = _shown(html.decode())
    assert shown == list(range(1, 20))
    assert "earlier-posts" not in html.decode()  # nothing before post 1
    assert "Latest posts" in html.decode()


def test_htmx_gets_the_earlier_page_alone_and_the_poll_keeps_it(
    client: Client, long_match: Match
) -> None:
    last = long_match.posts.count()
    first = last - PAGE_SIZE + 1
    url = reverse("matches:thread", args=[long_match.pk]) + f"?before={first}"
    html = client.get(url, headers=HX).content.decode()
    assert _shown(html) == list(range(max(1, first - PAGE_SIZE), first))
    assert 'id="pitch"' not in html
    new_first = max(1, first - PAGE_SIZE)
    assert f'id="thread-since" name="since" value="{new_first}" hx-swap-oob="true"' in html
    live = reverse("matches:live", args=[long_match.pk]) + f"?since={new_first}"
    assert _shown(client.get(live, headers=HX).content.decode()) == list(range(new_first, last + 1))


def test_a_private_matchs_pages_are_not_read_by_outsiders(
    client: Client, long_match: Match
) -> None:
    Match.objects.filter(pk=long_match.pk).update(is_public=False)
    url = reverse("matches:thread", args=[long_match.pk]) + "?before=10"
    assert client.get(url).status_code == 403
    client.force_login(User.objects.create_user("outsider"))
    assert client.get(url).status_code == 404
    client.force_login(User.objects.get(username="alice"))
    assert client.get(url).status_code == 200


def test_after_a_post_the_page_still_shows_the_earlier_posts_the_reader_loaded(
    long_match: Match,
) -> None:
    client = Client()
    client.force_login(User.objects.get(username="carol"))
    url = reverse("matches:write", args=[long_match.pk])
    data = {"kind": "ooc", "text": "Back to the start", "key": "k", "since": "3"}
    html = client.post(url, data, headers=HX).content.decode()
    shown = _shown(html)
    assert shown[0] == 3 and shown[-1] == long_match.posts.count()
