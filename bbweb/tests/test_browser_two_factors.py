"""A coach turns on two factors from the profile: reads the secret the page shows (as an
authenticator app would from the QR code), answers with its code, keeps the recovery codes,
then logs in with password and code, and once with a recovery code, in English and Spanish."""

import re

import pytest
from allauth.mfa.models import Authenticator
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from bbweb.tests.account_pages import (
    PASSPHRASE,
    coach_with_confirmed_address,
    fresh_totp,
    log_in_from_home,
    log_out,
    page_in_language,
    totp,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# the two-factor page's heading at login, in each language
SECOND_STEP = {"en": "Two-Factor Authentication", "es": "Autenticación de doble factor"}


def test_the_codes_are_those_of_rfc_6238() -> None:
    """The appendix's SHA-1 vectors, on their last six digits."""
    secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # "12345678901234567890"
    assert totp(secret, 59) == "287082"
    assert totp(secret, 1111111109) == "081804"
    assert totp(secret, 1234567890) == "005924"
    assert totp(secret, 20000000000) == "353130"


def _answer_second_step(page: Page, language: str, code: str) -> None:
    expect(page).to_have_url(re.compile(r"/accounts/2fa/authenticate/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(SECOND_STEP[language])
    page.locator("input[name=code]").fill(code)
    page.locator("main form button[type=submit]").first.click()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_coach_turns_on_two_factors_and_logs_in_with_them(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    coach = coach_with_confirmed_address("tessa")
    page = page_in_language(browser, live_server, language)
    log_in_from_home(page, live_server, language, "tessa")
    page.get_by_test_id("profile").click()
    page.get_by_test_id("profile-mfa").click()
    page.locator("main a[href='/accounts/2fa/totp/activate/']").click()

    # The secret is the value of a disabled field (and the QR code's text), not the page's
    # text; every GET of this page draws a new one, so it is read once, from this page.
    # allauth asks for the password again before any change to the factors, however
    # recent the login: a login is not a reauthentication
    expect(page).to_have_url(re.compile(r"/accounts/reauthenticate/\?next="))
    page.locator("#id_password").fill(PASSPHRASE)
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/totp/activate/$"))
    secret = page.locator("#authenticator_secret").input_value()
    assert re.fullmatch(r"[A-Z2-7]{32}", secret), secret
    wrong_code = f"{(int(fresh_totp(secret)) + 1) % 10**6:06d}"  # the right one, off by one
    page.locator("input[name=code]").fill(wrong_code)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main .errorlist, main [role=alert]").first).to_be_visible()
    assert not Authenticator.objects.filter(user=coach).exists()
    # a refused code keeps the secret: the page shows the same one
    assert page.locator("#authenticator_secret").input_value() == secret
    page.locator("input[name=code]").fill(fresh_totp(secret))
    page.locator("main form button[type=submit]").click()

    expect(page).to_have_url(re.compile(r"/accounts/2fa/recovery-codes/$"))
    recovery_codes = page.locator("#recovery_codes").input_value().split()
    assert len(recovery_codes) == 10, recovery_codes
    kinds = set(Authenticator.objects.filter(user=coach).values_list("type", flat=True))
    assert kinds == {Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES}

    log_out(page, language)
    log_in_from_home(page, live_server, language, "tessa")
    _answer_second_step(page, language, fresh_totp(secret))
    expect(page.get_by_test_id("profile")).to_have_text("tessa")

    log_out(page, language)
    log_in_from_home(page, live_server, language, "tessa")
    _answer_second_step(page, language, recovery_codes[0])
    expect(page.get_by_test_id("profile")).to_have_text("tessa")
    codes = Authenticator.objects.get(user=coach, type=Authenticator.Type.RECOVERY_CODES)
    assert recovery_codes[0] not in codes.wrap().get_unused_codes()
    assert len(codes.wrap().get_unused_codes()) == 9
