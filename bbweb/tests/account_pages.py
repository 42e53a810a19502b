"""What the browser tests of the accounts share: a phone-sized page in a language, the link
of the last mail sent, a login from the home page, and a code from an authenticator app."""

import base64
import hashlib
import hmac
import re
import struct
import time

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

PASSPHRASE = "a-long-and-unusual-passphrase"
# (the home page's log in, the log out button) in each language the tests use
LOG_IN_AND_OUT = {"en": ("Log in", "Log out"), "es": ("Entrar", "Salir")}
TOTP_PERIOD = 30
TOTP_DIGITS = 6


def page_in_language(browser: Browser, server: LiveServer, language: str) -> Page:
    """A new phone-sized browser whose language cookie is ``language``."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    return context.new_page()


def mailed_link(path: str) -> str:
    """The address in the last mail sent that leads to ``path``."""
    found = re.search(r"https?://\S+" + re.escape(path) + r"\S*", str(mail.outbox[-1].body))
    assert found is not None, mail.outbox[-1].body
    return found.group(0)


def coach_with_confirmed_address(name: str) -> User:
    user = User.objects.create_user(name, email=f"{name}@example.org", password=PASSPHRASE)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def log_in_from_home(page: Page, server: LiveServer, language: str, name: str) -> None:
    """From the home page, the login form filled and sent (a second factor may follow)."""
    page.goto(server.url + "/")
    page.get_by_role("main").get_by_role("link", name=LOG_IN_AND_OUT[language][0]).click()
    page.locator("#id_login").fill(name)
    page.locator("#id_password").fill(PASSPHRASE)
    page.locator("main form button[type=submit]").click()


def log_out(page: Page, language: str) -> None:
    page.get_by_role("button", name=LOG_IN_AND_OUT[language][1]).click()
    expect(page.get_by_test_id("profile")).to_have_count(0)


def totp(secret: str, at: float) -> str:
    """RFC 6238's code for a base32 ``secret`` at the Unix time ``at`` (HMAC-SHA1, 30-second
    steps, six digits: what authenticator apps compute from the QR code's secret)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = struct.pack(">Q", int(at) // TOTP_PERIOD)
    digest = hmac.new(key, counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 10**TOTP_DIGITS:0{TOTP_DIGITS}d}"


def fresh_totp(secret: str, margin: float = 10) -> str:
    """The current code, taken in a time step with at least ``margin`` seconds left: the site
    accepts the current step's code only, and a code read at its end would reach the server
    in the next step."""
    left = TOTP_PERIOD - time.time() % TOTP_PERIOD
    if left < margin:
        time.sleep(left)
    return totp(secret, time.time())
