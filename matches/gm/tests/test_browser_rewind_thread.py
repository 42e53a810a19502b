"""In the browser: the GM rules a rewind from the match page, warned first which posts and dice
it replaces; the thread then marks the undone posts and says in words what the ruling did."""

import random

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-passphrase"


def _log_in(page: Page, base: str, user: User, then: str) -> None:
    user.set_password(PASSWORD)
    user.save()
    page.goto(f"{base}/accounts/login/?next={then}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_the_gm_rewinds_from_the_match_page_and_the_thread_shows_what_was_undone(
    live_server: LiveServer,
    page: Page,
    match: Match,
    coaches: dict[str, User],
    alice: User,
    gm: User,
) -> None:
    play(match, coaches, random.Random(2), 30)
    while services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
        play(match, coaches, random.Random(5), 1)
    match.refresh_from_db()
    roll = match.events.get(number=first_roll(match, 20))
    assert roll.post is not None
    dispute = services.raise_dispute(
        match.pk, alice, reason="The dodge ignored the tackle zone on K7.", event_number=roll.number
    )
    match_url = reverse("matches:detail", args=[match.pk])

    _log_in(page, live_server.url, gm, match_url)
    entry = page.get_by_test_id(f"dispute-{dispute.pk}")
    expect(entry).to_contain_text(f"post #{roll.post.number}")
    form = page.get_by_test_id(f"rule-{dispute.pk}")
    form.get_by_test_id("ruling-choice").select_option("rewind")
    warning = page.get_by_test_id(f"rewind-warning-{dispute.pk}")  # shown once rewind is chosen
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(f"#{roll.post.number}")
    expect(warning).to_contain_text("A rewind is, in effect, a new roll")
    form.get_by_test_id("ruling-note").fill("Right: the tackle zone counts.")
    form.get_by_test_id("rule-submit").click()
    expect(page.get_by_text("Ruled: Rewind to before the event.")).to_be_visible()

    # Back on the match page: the posts taken back are marked and link to the ruling.
    page.goto(live_server.url + match_url)
    ruling = match.posts.filter(summary__message="rewind").get()
    undone = list(match.posts.filter(undone_by=ruling).order_by("number"))
    assert undone and undone[0].number <= roll.post.number
    for post in undone:
        note = page.get_by_test_id(f"undone-{post.number}")
        expect(note).to_contain_text(f"post #{ruling.number}")
    page.get_by_test_id(f"undone-{undone[0].number}").get_by_role("link").click()
    expect(page).to_have_url(f"{live_server.url}{match_url}#post-{ruling.number}")
    said = page.get_by_test_id(f"post-{ruling.number}")
    expect(said).to_contain_text("Ruling on the dispute raised by alice")
    expect(said).to_contain_text("the GM rewinds the match to before post")
    expect(said).to_contain_text("Right: the tackle zone counts.")
    expect(said).to_contain_text("Play goes on with new dice")
    expect(page.get_by_test_id(f"post-{ruling.number - 1}")).not_to_contain_text("Undone by")
