"""A declaration that stops for decisions keeps its dice under its own post: the answers'
posts say the answer only, and the thread reads in order."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Decision, Match, MatchEvent, Post
from matches.tests.positions import mid_turn, script_dice

pytestmark = pytest.mark.django_db


def test_the_dice_of_a_block_go_under_the_block_not_under_the_answers(
    match: Match, cast: dict[str, User], clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    block = services.declare(
        match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a5"}
    )
    assert block.decision is not None and block.decision.post == block.post
    answers = []
    while (pending := services.load_state(Match.objects.get(pk=match.pk)).pending) is not None:
        answers.append(services.answer(match.pk, cast[_user(pending.to)], pending.options[-1]).post)
    assert answers  # the block asked at least the block die
    assert not MatchEvent.objects.filter(post__in=answers).exists()
    events = MatchEvent.objects.filter(post=block.post)
    types = list(events.values_list("type", flat=True))
    assert types[0] == "declaration" and "block_result" in types
    assert all(d.post_id == block.post.pk for d in Decision.objects.filter(match=match))

    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    declared = _article(page, block.post.number)
    assert "Block die" in declared and 'class="dice"' in declared
    for post in answers:
        assert 'class="dice"' not in _article(page, post.number)


def test_a_decision_left_from_before_the_link_still_settles_under_the_answer(
    match: Match, cast: dict[str, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    block = services.declare(
        match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a5"}
    )
    Decision.objects.filter(match=match).update(post=None)  # asked before decisions had a post
    pending = services.load_state(Match.objects.get(pk=match.pk)).pending
    assert pending is not None
    outcome = services.answer(match.pk, cast[_user(pending.to)], pending.options[-1])
    if outcome.decision is None:
        assert MatchEvent.objects.filter(post=outcome.post, type="declaration").exists()
    else:
        assert outcome.decision.post == outcome.post
    assert not MatchEvent.objects.filter(post=block.post).exists()
    assert Post.objects.filter(match=match).count() >= 3


def _user(actor: str) -> str:
    return {"home:captain": "alice", "home:rival": "bob", "away:captain": "carol"}.get(
        actor, "dave"
    )


def _article(page: str, number: int) -> str:
    start = page.index(f'id="post-{number}"')
    return page[start : page.index("</article>", start)]
