"""Login limits that cannot be turned against a coach: wrong passwords count per account and
address and per address, and a browser that logged in to the account before (its signed device
cookie) is not held back by failures from elsewhere. The admin's login is the same door."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from bbweb import throttle
from bbweb.accounts import login_limits

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("carol")]
PASSWORD = "right-phrase-for-carol"
OWNER = "192.0.2.10"
ELSEWHERE = "198.51.100.66"


@pytest.fixture
def fast_hashing() -> Iterator[None]:
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def carol(fast_hashing: None) -> User:
    return User.objects.create_user("carol", email="carol@example.org", password=PASSWORD)


def _login(client: Client, password: str, login: str = "carol") -> int:
    return int(client.post(reverse("login"), {"login": login, "password": password}).status_code)


def _owner_s_browser() -> Client:
    """The coach's own browser: it logged in once (and got its device cookie), then out."""
    browser = Client(REMOTE_ADDR=OWNER)
    assert _login(browser, PASSWORD) == 302
    assert login_limits.COOKIE in browser.cookies
    browser.post(reverse("account_logout"))
    return browser


def test_100_wrong_passwords_from_another_address_leave_the_owner_s_browser_logging_in() -> None:
    browser = _owner_s_browser()
    attacker = Client(REMOTE_ADDR=ELSEWHERE)
    answers = [_login(attacker, f"guess-{n}") for n in range(100)]
    held = throttle.LIMITS["login_pair"][0]
    assert answers == [200] * held + [429] * (100 - held)
    assert _login(attacker, PASSWORD) == 429  # the attacker holds no cookie: still held back
    assert _login(browser, PASSWORD) == 302
    assert "_auth_user_id" in browser.session


def test_wrong_passwords_from_the_owner_s_own_address_leave_the_owner_s_browser_in() -> None:
    """A shared address (a club's network): the failures count against it, not the cookie."""
    browser = _owner_s_browser()
    neighbour = Client(REMOTE_ADDR=OWNER)
    answers = [_login(neighbour, f"guess-{n}") for n in range(100)]
    assert answers[-1] == 429
    assert _login(browser, PASSWORD) == 302


def test_20_wrong_passwords_from_the_owner_s_address_refuse_a_new_browser() -> None:
    for n in range(20):
        _login(Client(REMOTE_ADDR=OWNER), f"guess-{n}")
    new_browser = Client(REMOTE_ADDR=OWNER)
    response = new_browser.post(reverse("login"), {"login": "carol", "password": PASSWORD})
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 15 * 60 + 1
    assert "Too many attempts. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in new_browser.session


def test_a_device_cookie_of_another_account_or_forged_exempts_nothing() -> None:
    User.objects.create_user("dave", password=PASSWORD)
    daves_browser = Client(REMOTE_ADDR=ELSEWHERE)
    assert _login(daves_browser, PASSWORD, login="dave") == 302
    daves_browser.post(reverse("account_logout"))
    forged = Client(REMOTE_ADDR=ELSEWHERE)
    forged.cookies[login_limits.COOKIE] = "carol:forged-signature"
    for browser in (daves_browser, forged):
        answers = [_login(browser, f"guess-{n}") for n in range(12)]
        assert answers[-1] == 429, answers
        cache.clear()


def test_the_owner_s_browser_has_a_limit_of_its_own() -> None:
    browser = _owner_s_browser()
    held = throttle.LIMITS["login_device"][0]
    answers = [_login(browser, f"guess-{n}") for n in range(held + 1)]
    assert answers == [200] * held + [429]


def test_the_admin_s_login_is_the_site_s() -> None:
    response = Client().get("/admin/login/?next=/admin/")
    assert response.status_code == 301
    assert response["Location"] == "/accounts/login/?next=/admin/"
    staff = User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    browser = Client(REMOTE_ADDR=ELSEWHERE)
    for n in range(throttle.LIMITS["login_pair"][0]):
        _login(browser, f"guess-{n}", login=staff.username)
    assert _login(browser, PASSWORD, login=staff.username) == 429
