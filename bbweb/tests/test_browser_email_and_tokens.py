"""From the profile: a coach adds an e-mail address, confirms it with the mailed link and
makes it the primary one; makes a named, expiring API token, sees its last use once a client
has used it, revokes it and sees the API refuse it. In English and Spanish."""

import re
import urllib.error
import urllib.request

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from bbweb.models import ApiToken
from bbweb.tests.account_pages import (
    coach_with_confirmed_address,
    log_in_from_home,
    mailed_link,
    page_in_language,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# (the profile's "never used", the lifetime chosen, the revoke button of the token "scores")
TOKEN_WORDS = {
    "en": ("Never used", "In 30 days", "Revoke the token scores"),
    "es": ("Nunca usado", "En 30 días", "Revocar el token scores"),
}


def _api_status(server: LiveServer, token: str) -> int:
    request = urllib.request.Request(
        server.url + "/api/matches/999999", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_coach_adds_an_address_confirms_it_and_makes_it_primary(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    coach = coach_with_confirmed_address("mira")
    page = page_in_language(browser, live_server, language)
    log_in_from_home(page, live_server, language, "mira")
    page.get_by_test_id("profile").click()
    page.get_by_test_id("profile-email").click()
    page.locator("main input[name=email][type=email]").fill("mira.new@example.org")
    page.locator("main button[name=action_add]").click()
    expect(page.locator("main")).to_contain_text("mira.new@example.org")
    assert mail.outbox[-1].to == ["mira.new@example.org"]
    added = EmailAddress.objects.get(email="mira.new@example.org")
    assert not added.verified and not added.primary

    page.goto(mailed_link("/accounts/confirm-email/"))
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/$"))  # a confirmation leads home
    added.refresh_from_db()
    assert added.verified and not added.primary
    page.get_by_test_id("profile").click()
    page.get_by_test_id("profile-email").click()

    page.locator("main input[type=radio][value='mira.new@example.org']").check()
    page.locator("main button[name=action_primary]").click()
    expect(page.locator("main input[type=radio][value='mira.new@example.org']")).to_be_checked()
    added.refresh_from_db()
    coach.refresh_from_db()
    assert added.primary
    assert coach.email == "mira.new@example.org"
    assert not EmailAddress.objects.get(email="mira@example.org").primary


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_coach_makes_uses_and_revokes_an_api_token(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    never_used, lifetime, revoke = TOKEN_WORDS[language]
    User.objects.create_user("other")
    coach_with_confirmed_address("ravi")
    page = page_in_language(browser, live_server, language)
    log_in_from_home(page, live_server, language, "ravi")
    page.get_by_test_id("profile").click()
    form = page.get_by_test_id("api-token-form")
    form.locator("input[name=name]").fill("scores")
    form.locator("select[name=lifetime]").select_option(label=lifetime)
    form.locator("button[type=submit]").click()
    token = page.get_by_test_id("api-token").inner_text()
    row = page.get_by_test_id("api-token-row").filter(has_text="scores")
    expect(row).to_contain_text(never_used)
    stored = ApiToken.objects.get(name="scores")
    assert stored.expires_at is not None
    assert 29 <= (stored.expires_at - stored.created_at).days <= 30

    assert _api_status(live_server, token) == 404  # past the token check: no such match
    page.reload()
    expect(page.get_by_test_id("api-token")).to_have_count(0)  # shown once only
    expect(row).not_to_contain_text(never_used)
    stored.refresh_from_db()
    assert stored.last_used_at is not None

    page.get_by_role("button", name=revoke).click()
    expect(page.get_by_test_id("api-token-row")).to_have_count(0)
    assert _api_status(live_server, token) == 401
    assert not ApiToken.objects.exists()
