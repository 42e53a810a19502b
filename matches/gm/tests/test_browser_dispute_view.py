"""In the browser: the GM opens a dispute from the GM panel of the match page and lands on it,
the disputed roll highlighted among the posts around it (not in a dump of the whole record);
the ruling form shows only the fields of the ruling chosen, and all of them without
JavaScript."""

import random
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Dispute, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-passphrase"
FIELDSETS = ("fields-event", "fields-correct", "fields-hours", "fields-award")


def _gm_page(
    browser: Browser, server: LiveServer, gm: User, then: str, *, scripts: bool = True
) -> Page:
    gm.set_password(PASSWORD)
    gm.save()
    viewport = ViewportSize(width=1366, height=900)
    page = browser.new_context(viewport=viewport, java_script_enabled=scripts).new_page()
    page.goto(f"{server.url}/accounts/login/?next={then}")
    page.get_by_label("Username").fill(gm.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


def _disputed(match: Match, coaches: dict[str, User], alice: User) -> tuple[Dispute, int]:
    play(match, coaches, random.Random(2), 30)
    match.refresh_from_db()
    roll = first_roll(match, 20)
    dispute = services.raise_dispute(
        match.pk, alice, reason="The dodge ignored the tackle zone on K7.", event_number=roll
    )
    return dispute, roll


def _only_shown(page: Page, form_id: str, shown: tuple[str, ...]) -> None:
    form = page.get_by_test_id(form_id)
    for fieldset in FIELDSETS:
        if fieldset in shown:
            expect(form.get_by_test_id(fieldset)).to_be_visible()
        else:
            expect(form.get_by_test_id(fieldset)).to_be_hidden()


def test_the_gm_lands_on_the_disputed_roll_and_sees_only_the_chosen_rulings_fields(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    coaches: dict[str, User],
    alice: User,
    gm: User,
) -> None:
    dispute, roll = _disputed(match, coaches, alice)
    match_url = reverse("matches:detail", args=[match.pk])
    page = _gm_page(browser, live_server, gm, match_url)

    panel = page.get_by_test_id("gm-panel")
    expect(panel.get_by_test_id("gm-disputes")).to_have_text("1 open dispute on this match")
    panel.get_by_test_id("gm-disputes").click()
    expect(page).to_have_url(
        live_server.url + reverse("gm:match_disputes", args=[match.pk]) + f"#dispute-{dispute.pk}"
    )
    shown = page.get_by_test_id(f"dispute-{dispute.pk}")
    expect(shown).to_be_in_viewport()
    expect(shown).to_contain_text("tackle zone on K7")

    # The roll stands out among the posts around it; its link anchors it.
    context = page.get_by_test_id(f"context-{dispute.pk}")
    disputed = context.get_by_test_id(f"context-event-{roll}")
    expect(disputed).to_have_class(re.compile(r"\bdisputed\b"))
    expect(disputed).to_contain_text("disputed")
    expect(context.locator("li.post")).not_to_have_count(0)
    context.get_by_role("link", name="Go to the disputed roll").click()
    expect(page).to_have_url(f"{page.url.split('#')[0]}#disputed-{dispute.pk}")
    expect(disputed).to_be_in_viewport()

    # The whole record waits for a click instead of filling the page.
    record = page.get_by_test_id("record")
    expect(record.locator("li.post")).to_have_count(0)
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"disputes page height with the record folded: {height} px")

    # Rewind: the event to rewind to and the warning of what it undoes, nothing else.
    form_id = f"rule-{dispute.pk}"
    form = page.get_by_test_id(form_id)
    form.get_by_test_id("ruling-choice").select_option("rewind")
    _only_shown(page, form_id, ("fields-event",))
    expect(form.get_by_test_id(f"rewind-warning-{dispute.pk}")).to_be_visible()
    form.get_by_test_id("ruling-choice").select_option("award")
    _only_shown(page, form_id, ("fields-award",))
    # Dismiss: only the note.
    form.get_by_test_id("ruling-choice").select_option("dismiss")
    _only_shown(page, form_id, ())
    expect(form.get_by_test_id("ruling-note")).to_be_visible()
    form.get_by_test_id("ruling-note").fill("The tackle zone was counted.")
    form.get_by_test_id("rule-submit").click()
    expect(page.get_by_text("Ruled: Dismiss.")).to_be_visible()
    dispute.refresh_from_db()
    assert dispute.ruling == Dispute.Ruling.DISMISS
    assert dispute.note == "The tackle zone was counted."

    # The whole record is one click away, every post in it.
    page.get_by_test_id("show-record").click()
    expect(record.locator("li.post")).to_have_count(match.posts.count())
    expect(record.get_by_test_id(f"event-{roll}")).to_be_visible()


def test_without_javascript_the_ruling_form_shows_every_field_under_its_ruling(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    coaches: dict[str, User],
    alice: User,
    gm: User,
) -> None:
    dispute, _roll = _disputed(match, coaches, alice)
    disputes_url = reverse("gm:match_disputes", args=[match.pk])
    page = _gm_page(browser, live_server, gm, disputes_url, scripts=False)
    form_id = f"rule-{dispute.pk}"
    _only_shown(page, form_id, FIELDSETS)
    form = page.get_by_test_id(form_id)
    expect(form.get_by_test_id("fields-hours")).to_contain_text("For an extension")
    form.get_by_test_id("ruling-choice").select_option("extend_deadline")
    form.get_by_label("Hours").fill("24")
    form.get_by_test_id("rule-submit").click()
    expect(page.get_by_text("Ruled: Extend the deadline.")).to_be_visible()
    dispute.refresh_from_db()
    assert dispute.ruling == Dispute.Ruling.EXTEND_DEADLINE
