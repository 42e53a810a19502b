"""In the browser: a coach disputes a roll, the GM rewinds to before it, play continues, and
the thread shows the whole story (the dispute, the ruling, the undone events, the new play)."""

import random

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Dispute, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-passphrase"


def _log_in(page: Page, base: str, user: User, then: str) -> None:
    user.set_password(PASSWORD)
    user.save()
    page.goto(f"{base}/accounts/login/?next={then}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_a_coach_disputes_a_roll_the_gm_rewinds_and_play_goes_on(
    live_server: LiveServer,
    page: Page,
    match: Match,
    coaches: dict[str, User],
    alice: User,
    gm: User,
) -> None:
    rng = random.Random(2)
    play(match, coaches, rng, 30)
    match.refresh_from_db()
    roll = match.events.get(number=first_roll(match, 20))
    match_url = reverse("matches:detail", args=[match.pk])

    # alice, the home captain, goes from the match page to its disputes and raises one there.
    _log_in(page, live_server.url, alice, match_url)
    expect(page.get_by_test_id("disputes")).to_contain_text("No disputes.")
    page.get_by_test_id("raise-dispute-link").click()
    expect(page.get_by_test_id("raise-dispute")).to_be_visible()
    page.get_by_test_id("dispute-event").select_option(str(roll.number))
    page.get_by_test_id("dispute-reason").fill("The dodge ignored the tackle zone on K7.")
    page.get_by_test_id("dispute-submit").click()
    expect(page.get_by_text("Your dispute is with the GM.")).to_be_visible()
    dispute = Dispute.objects.get()
    expect(page.get_by_test_id(f"dispute-{dispute.pk}")).to_contain_text("Open")
    # Her match page lists it too, and leads back to the disputes page.
    page.goto(live_server.url + match_url)
    listed = page.get_by_test_id("disputes").get_by_test_id(f"dispute-{dispute.pk}")
    expect(listed).to_contain_text("The dodge ignored the tackle zone on K7.")
    page.get_by_test_id("disputes-link").click()
    expect(page.get_by_test_id(f"dispute-{dispute.pk}")).to_contain_text("Open")
    page.get_by_role("button", name="Log out").click()

    # The GM finds it in the queue and rewinds to before the roll.
    _log_in(page, live_server.url, gm, reverse("gm:queue"))
    expect(page.get_by_test_id(f"queued-{dispute.pk}")).to_contain_text("tackle zone")
    page.get_by_test_id(f"queued-{dispute.pk}").get_by_role("link").click()
    form = page.get_by_test_id(f"rule-{dispute.pk}")
    form.get_by_test_id("ruling-choice").select_option("rewind")
    form.get_by_test_id("ruling-note").fill("Right: back to before that roll.")
    form.get_by_test_id("rule-submit").click()
    expect(page.get_by_text("Ruled: Rewind to before the event.")).to_be_visible()
    expect(page.get_by_test_id(f"dispute-{dispute.pk}")).to_contain_text(
        "Right: back to before that roll."
    )
    # the ruled dispute keeps its roll in context, now marked as undone
    context = page.get_by_test_id(f"context-{dispute.pk}")
    context.locator("summary").click()
    expect(context.get_by_test_id(f"context-event-{roll.number}")).to_contain_text("undone")

    # Play goes on from the rewound state (the coaches post through the services).
    match.refresh_from_db()
    rewound_at = match.events.order_by("-number").first()
    assert rewound_at is not None
    play(match, coaches, rng, 6)
    match.refresh_from_db()
    newest = match.events.order_by("-number").first()
    assert newest is not None and newest.number > rewound_at.number
    assert {**match.state, "pending": None} == services.fold(match).to_json(compact=True)

    # The thread tells the whole story, in order.
    page.reload()
    page.get_by_test_id("show-record").click()
    record = page.get_by_test_id("record")
    expect(record).to_contain_text("The dodge ignored the tackle zone on K7.")
    expect(record).to_contain_text("Dispute raised")
    expect(record).to_contain_text("Right: back to before that roll.")
    expect(record).to_contain_text("Play taken back")
    expect(record.locator("li.undone").first).to_be_visible()
    text = record.inner_text()
    assert text.index("tackle zone on K7") < text.index("Right: back to before that roll.")
    expect(record.get_by_test_id(f"event-{newest.number}")).not_to_contain_text("undone")

    # The GM's match page lists the dispute with its ruling.
    page.goto(live_server.url + reverse("matches:detail", args=[match.pk]))
    expect(page.locator("h1")).to_contain_text(str(match))
    listed = page.get_by_test_id("disputes").get_by_test_id(f"dispute-{dispute.pk}")
    expect(listed).to_contain_text("The dodge ignored the tackle zone on K7.")
    expect(listed.get_by_test_id("ruling")).to_contain_text("Right: back to before that roll.")
