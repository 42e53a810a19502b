"""Each post's HTML is cached (matches.thread.page): the page must never show a stale post, and it
must still be served when the cache is down."""

import random
import re

import pytest
import redis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from matches import services
from matches.models import Decision, Match, Post
from matches.thread.page import Line, Recent
from teams.models import Team
from tools import autoplay

pytestmark = pytest.mark.django_db
OOC = Post.Kind.OUT_OF_CHARACTER


def article(client: Client, match: Match, number: int) -> str:
    page = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    found = re.search(rf'data-testid="post-{number}">(.*?)</article>', page, re.S)
    assert found is not None, f"post {number} is not on the page"
    return found.group(1)


def test_an_edited_post_shows_its_new_text(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    post = services.write_post(match.pk, cast["alice"], kind=OOC, text="Go *Reavers*")
    assert "<em>Reavers</em>" in article(clients["erin"], match, post.number)
    services.edit_post(post.pk, cast["alice"], text="Go **Reavers**!")
    shown = article(clients["erin"], match, post.number)
    assert "<strong>Reavers</strong>!" in shown and "edited" in shown


def test_a_page_of_the_thread_read_from_the_cache_offers_each_author_the_edit_of_its_own(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    mine = services.write_post(match.pk, cast["alice"], kind=OOC, text="Alice's plan")
    theirs = services.write_post(match.pk, cast["bob"], kind=OOC, text="Bob's plan")
    edit = reverse("matches:edit", args=[match.pk, mine.number])
    assert edit not in article(clients["bob"], match, mine.number)  # the page is cached now
    version = Match.objects.get(pk=match.pk).version
    for reader, editable, not_editable in (("alice", mine, theirs), ("bob", theirs, mine)):
        own = article(clients[reader], match, editable.number)
        assert reverse("matches:edit", args=[match.pk, editable.number]) in own, reader
        assert editable.text in own and "<textarea" in own
        other = article(clients[reader], match, not_editable.number)
        assert "<textarea" not in other, reader
    assert Match.objects.get(pk=match.pk).version == version  # one version, read three times


def test_a_post_shows_the_events_appended_when_its_question_is_answered() -> None:
    match = autoplay.demo_match()
    rng = random.Random(4)
    client = Client()
    for _ in range(300):
        match.refresh_from_db()
        if match.state.get("pending") is not None:
            break
        autoplay.step(match.pk, rng)
    else:
        pytest.fail("no question came up in 300 steps")
    asked = Decision.objects.get(match=match, answered_at__isnull=True).post
    assert asked is not None
    before = article(client, match, asked.number)
    autoplay.step(match.pk, rng)
    after = article(client, match, asked.number)
    assert after.count('<li class="line') > before.count('<li class="line')


def test_a_renamed_team_shows_in_the_posts_already_cached() -> None:
    match = autoplay.demo_match()
    rng = random.Random(5)
    client = Client()
    url = reverse("matches:detail", args=[match.pk])
    for _ in range(100):
        named = re.search(
            r'data-testid="post-(\d+)">((?:(?!</article>).)*Reikland Reavers)',
            client.get(url).content.decode(),
            re.S,
        )
        if named:
            break
        autoplay.step(match.pk, rng)
    else:
        pytest.fail("no post named the home team in 100 steps")
    number = int(named.group(1))
    Team.objects.filter(pk=match.home_team_id).update(name="Altdorf Avengers")
    shown = article(client, match, number)
    assert "Altdorf Avengers" in shown and "Reikland Reavers" not in shown


def test_each_language_has_its_own_posts(match: Match) -> None:
    url = reverse("matches:detail", args=[match.pk])
    english = Client(headers={"accept-language": "en"}).get(url).content.decode()
    spanish = Client(headers={"accept-language": "es"}).get(url).content.decode()
    assert "the server" in english and "the server" not in spanish
    assert "el servidor" in spanish


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
)
def test_the_page_is_served_when_the_cache_is_down(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    post = services.write_post(match.pk, cast["alice"], kind=OOC, text="Still here")
    with pytest.raises(redis.exceptions.ConnectionError):  # the cache really is unreachable
        cache.get("anything")
    assert "Still here" in article(clients["erin"], match, post.number)


def test_a_dice_line_escapes_every_part() -> None:
    line = Line("Dodge by <b>Grim</b>", "turnover", ["1"], "4+", ["-1 <tz>"], "fails & falls")
    assert line.html() == (
        '<li class="line turnover">Dodge by &lt;b&gt;Grim&lt;/b&gt; <span class="faces">'
        '<span class="die">1</span></span> <span class="need">4+</span> '
        '<span class="mod">-1 &lt;tz&gt;</span> → <strong>fails &amp; falls</strong></li>'
    )
    assert Line("Kick-off").html() == '<li class="line ">Kick-off</li>'


def test_a_page_read_again_in_one_process_is_not_asked_of_the_shared_cache(
    match: Match, cast: dict[str, User], clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    post = services.write_post(match.pk, cast["alice"], kind=OOC, text="Go *Reavers*")
    assert "<em>Reavers</em>" in article(clients["erin"], match, post.number)
    asked: list[str] = []

    def get_many(keys: list[str], *args: object, **kwargs: object) -> dict[str, object]:
        asked.extend(keys)
        return {}

    monkeypatch.setattr(cache, "get_many", get_many)
    assert "<em>Reavers</em>" in article(clients["erin"], match, post.number)
    assert not any(key.startswith(("thread:", "post:")) for key in asked)
    services.edit_post(post.pk, cast["alice"], text="Go **Reavers**!")  # a new version
    assert "<strong>Reavers</strong>" in article(clients["erin"], match, post.number)


def test_the_process_keeps_the_copies_used_last_and_none_past_its_time() -> None:
    recent = Recent(size=2)
    recent.set_many({"a": 1, "b": 2}, seconds=60)
    assert recent.get_many(["a"]) == {"a": 1}  # a is now the one used last
    recent.set_many({"c": 3}, seconds=60)
    assert recent.get_many(["a", "b", "c"]) == {"a": 1, "c": 3}
    recent.set_many({"d": 4}, seconds=-1)
    assert recent.get_many(["d"]) == {}
