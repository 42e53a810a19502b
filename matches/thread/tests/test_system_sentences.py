"""Every system post of a whole match (the pre-match sequence, the play, the post-match
sequence) is a sentence with its data, in the reader's language, never a bare label."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import translation

from matches import services
from matches.models import Fixture, Match, Post
from matches.thread.page import headline
from matches.thread.sentences import Names
from tools.demo_matches import concede, settle_post_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_system_post_of_the_finished_demo_match_is_a_sentence(language: str) -> None:
    call_command("load_demo", stdout=StringIO())
    finished = Match.objects.get(status=Match.Status.FINISHED)
    names = Names(finished)
    posts = list(finished.posts.filter(kind=Post.Kind.SYSTEM).order_by("number"))
    assert len(posts) > 10
    with translation.override(language):
        said = {post.number: headline(names, post) for post in posts}
    for number, text in said.items():
        assert text.endswith((".", ":")) or "SHA-256" in text or "seed" in text, (number, text)
        assert "_" not in text, (number, text)
    sentences = " ".join(said.values())
    for label in ("sequence result", "sequence mvp", "deadline passed", "blitz contest"):
        assert label not in sentences
    if language == "es":
        assert "Resultado:" in sentences
    else:
        assert "Result:" in sentences


def test_a_league_match_s_weather_post_shows_the_dice_the_pre_match_rolled() -> None:
    """The pre-match rolls the weather first and keeps its dice as "dice" (the kick-off's
    weather as "faces"): the sentence read only "faces" and said "Weather: , Nice."."""
    call_command("load_demo", stdout=StringIO())
    in_play = Match.objects.get(status=Match.Status.IN_PLAY)
    concede(in_play)
    settle_post_match(in_play)  # the teams are free: the GM opens the return fixture
    waiting = services.start_fixture(Fixture.objects.get().pk, User.objects.get(username="gm"))
    weather = waiting.posts.get(summary__step="weather")
    faces = weather.summary["dice"]
    assert len(faces) == 2
    text = headline(Names(waiting), weather)
    assert text.startswith(f"Weather: {faces[0]}+{faces[1]}, "), text
