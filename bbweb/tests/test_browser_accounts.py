"""A newcomer from the home page: signs up, follows the mailed link, is greeted as new, logs
out and in again, and resets a forgotten password, in English and in Spanish."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSPHRASE = "a-long-and-unusual-passphrase"
NEW_PASSPHRASE = "another-long-unusual-passphrase"
# (language, the home page's sign-up, log in, the form's button, the greeting, log out)
LANGUAGES = {
    "en": ("Sign up", "Log in", "Create my account", "Welcome to bbweb", "Log out"),
    "es": ("Registrarse", "Entrar", "Crear mi cuenta", "Bienvenido a bbweb", "Salir"),
}


def _link(path: str) -> str:
    found = re.search(r"https?://\S+" + re.escape(path) + r"\S*", str(mail.outbox[-1].body))
    assert found is not None, mail.outbox[-1].body
    return found.group(0)


def _in_language(browser: Browser, server: LiveServer, language: str) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    return context.new_page()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_newcomer_signs_up_confirms_logs_in_and_resets_the_password(
    live_server: LiveServer, browser: Browser, language: str
) -> None:
    sign_up, log_in, create, greeting, log_out = LANGUAGES[language]
    page = _in_language(browser, live_server, language)
    page.goto(live_server.url + "/")
    page.get_by_role("main").get_by_role("link", name=sign_up).click()
    page.locator("#id_username").fill("newcoach")
    page.locator("#id_email").fill("newcoach@example.org")
    page.locator("#id_password1").fill(PASSPHRASE)
    page.locator("#id_password2").fill(PASSPHRASE)
    page.get_by_role("button", name=create).click()
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    assert mail.outbox[-1].to == ["newcoach@example.org"]

    page.goto(_link("/accounts/confirm-email/"))
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(greeting)

    page.get_by_role("button", name=log_out).click()
    page.get_by_role("main").get_by_role("link", name=log_in).click()
    page.locator("#id_login").fill("newcoach")
    page.locator("#id_password").fill("not-the-passphrase")
    page.get_by_role("button", name=log_in).click()
    expect(page.locator(".errorlist, [role=alert], .error").first).to_be_visible()
    page.locator("a[href='/accounts/password/reset/']").first.click()
    page.locator("#id_email").fill("newcoach@example.org")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/password/reset/done/$"))

    page.goto(_link("/accounts/password/reset/key/"))
    page.locator("#id_password1").fill(NEW_PASSPHRASE)
    page.locator("#id_password2").fill(NEW_PASSPHRASE)
    page.locator("main form button[name=action]").click()
    expect(page).to_have_url(re.compile(r"/accounts/password/reset/key/done/$"))
    assert User.objects.get(username="newcoach").check_password(NEW_PASSPHRASE)
