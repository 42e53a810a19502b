"""With BBWEB_REQUIRE_GM_MFA on, a GM without an authenticator app logs in from the home page,
goes for the dispute open on a match of their league and tries to rule it: they are sent to
turn on two factors, told why, and the dispute stays open. They turn on the app, reading its
secret from the page, then go back from the navigation's dispute queue and rule it. In
English at desktop size and in Spanish on a phone (390 px)."""

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, pgettext
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from bbweb.tests.account_pages import PASSPHRASE, fresh_totp, log_in_from_home
from matches import services
from matches.models import Dispute, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS: dict[str, ViewportSize] = {
    "en": {"width": 1366, "height": 900},
    "es": {"width": 390, "height": 844},
}
REASON = "The weather roll is odd."
NOTE = "The weather was rolled as the rules say."
ACTIVATE_NEXT = re.escape("%2Faccounts%2F2fa%2Ftotp%2Factivate%2F") + "$"


def _words(language: str, match: Match) -> dict[str, str]:
    """What the GM reads, in their language."""
    with translation.override(language):
        return {
            "why": gettext("Turn on two factors before you rule, edit a league or open the admin."),
            "activate": gettext("Activate Authenticator App"),
            "match": f"{match.home_team.name} {pgettext('versus', 'v')} {match.away_team.name}",
            "ruled": gettext("Ruled: %(ruling)s.") % {"ruling": str(Dispute.Ruling.DISMISS.label)},
            "ruling": gettext("Ruling"),
        }


def _disputed(match: Match) -> Dispute:
    """The match past its coin toss, and a dispute of its home captain on the weather roll."""
    state = services.load_state(match)
    assert state.pending is not None
    side, role = state.pending.to.split(":")
    services.answer(match.pk, getattr(getattr(match, f"{side}_team"), role), "receive")
    weather = match.events.get(type="weather")
    return services.raise_dispute(
        match.pk, match.home_team.captain, reason=REASON, event_number=weather.number
    )


def _with_a_password(gm: User) -> None:
    gm.set_password(PASSPHRASE)
    gm.save()
    EmailAddress.objects.create(user=gm, email=gm.email, verified=True, primary=True)


def _screen(browser: Browser, server: LiveServer, language: str) -> Page:
    context = browser.new_context(viewport=SCREENS[language], is_mobile=language != "en")
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    # No server-sent events (the pages poll instead): under the live server's WSGI a stream
    # holds a thread that outlives the page, and the test process would wait for it at exit.
    context.route("**/stream/**", lambda route: route.abort())
    return context.new_page()


def _sent_to_turn_on_two_factors(page: Page, words: dict[str, str]) -> None:
    """Sent to the authenticator app's page, and told why; allauth asks for the password
    first, and comes back to it (a login is not a reauthentication)."""
    expect(page).to_have_url(re.compile(r"/accounts/reauthenticate/\?next=" + ACTIVATE_NEXT))
    expect(page.locator("ul.messages")).to_contain_text(words["why"])


@pytest.mark.parametrize("language", ["en", "es"], ids=["en-desktop", "es-phone"])
def test_a_gm_turns_on_two_factors_before_ruling_a_dispute(
    live_server: LiveServer,
    browser: Browser,
    gm: User,
    match: Match,
    language: str,
    settings: Any,
) -> None:
    settings.BBWEB_REQUIRE_GM_MFA = True
    _with_a_password(gm)
    dispute = _disputed(match)
    words = _words(language, match)
    if language != "en":  # the catalogue has them: the page is read in its language
        english = _words("en", match)
        assert all(words[key] != english[key] for key in ("why", "activate", "ruled")), words
    page = _screen(browser, live_server, language)

    log_in_from_home(page, live_server, language, gm.username)
    expect(page.get_by_test_id("profile")).to_contain_text(gm.username)
    expect(page.locator("html")).to_have_attribute("lang", language)

    # The queue is a ruling page: the navigation's link to it sends the GM to the app first.
    page.get_by_test_id("gm-queue").click()
    _sent_to_turn_on_two_factors(page, words)

    # The match's page is open to them, and its GM panel leads to the dispute and its ruling
    # form; the ruling sends them to turn on two factors, and the dispute stays open.
    page.get_by_test_id("nav-matches").click()
    page.get_by_test_id("mine").get_by_role("link", name=words["match"]).click()
    page.get_by_test_id("gm-panel").get_by_test_id("gm-disputes").click()
    expect(page.get_by_test_id(f"dispute-{dispute.pk}")).to_contain_text(REASON)
    form = page.get_by_test_id(f"rule-{dispute.pk}")
    form.get_by_test_id("ruling-choice").select_option("dismiss")
    form.get_by_test_id("ruling-note").fill(NOTE)
    form.get_by_test_id("rule-submit").click()
    _sent_to_turn_on_two_factors(page, words)
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.OPEN
    assert dispute.ruling == "" and dispute.note == "" and dispute.ruled_at is None

    # Turning on the app: the password again, then the code of the secret the page shows.
    page.locator("#id_password").fill(PASSPHRASE)
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/totp/activate/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(words["activate"])
    secret = page.locator("#authenticator_secret").input_value()
    assert re.fullmatch(r"[A-Z2-7]{32}", secret), secret
    page.locator("input[name=code]").fill(fresh_totp(secret))
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/recovery-codes/$"))
    assert Authenticator.objects.filter(user=gm, type=Authenticator.Type.TOTP).exists()

    # Back through the queue to the dispute, which they rule now.
    page.get_by_test_id("gm-queue").click()
    expect(page).to_have_url(live_server.url + reverse("gm:queue"))
    queued = page.get_by_test_id(f"queued-{dispute.pk}")
    expect(queued).to_contain_text(REASON)
    # the queue names the match as Match.__str__ does, in English whatever the language
    queued.get_by_role("link", name=str(match)).click()
    form = page.get_by_test_id(f"rule-{dispute.pk}")
    form.get_by_test_id("ruling-choice").select_option("dismiss")
    form.get_by_test_id("ruling-note").fill(NOTE)
    form.get_by_test_id("rule-submit").click()
    expect(page.locator("ul.messages")).to_contain_text(words["ruled"])
    ruling = page.get_by_test_id(f"dispute-{dispute.pk}").get_by_test_id("ruling")
    expect(ruling).to_contain_text(words["ruling"])
    expect(ruling).to_contain_text(NOTE)
    expect(page.get_by_test_id(f"rule-{dispute.pk}")).to_have_count(0)
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.DISMISSED
    assert dispute.ruling == Dispute.Ruling.DISMISS
    assert dispute.note == NOTE
