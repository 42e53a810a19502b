"""The demo prints its e-mails on the console (``make demo``): a link copied out of the
terminal works, the sign-up's confirmation and the password reset's alike."""

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client, override_settings
from django.urls import reverse

from bbweb.mail import as_plain_text
from bbweb.models import email_verified

ROOT = Path(__file__).resolve().parents[2]
PASSPHRASE = "a-long-and-unusual-passphrase"
LINK = re.compile(r"https?://\S+")


def test_the_demo_prints_its_mails_with_this_backend() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_DEBUG", "DJANGO_EMAIL_BACKEND", "DJANGO_SETTINGS_MODULE")
    }
    code = "from bbweb import settings; print(settings.MAILERS['default']['BACKEND'])"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "bbweb.mail.ConsoleEmailBackend"


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the demo's terminal shows of its mails."""
    printed = io.StringIO()
    backend = {"BACKEND": "bbweb.mail.ConsoleEmailBackend", "OPTIONS": {"stream": printed}}
    with override_settings(MAILERS={"default": backend}):
        yield printed


def _link_in(printed: str, path: str) -> str:
    links = [link for link in LINK.findall(printed) if path in link]
    assert len(links) == 1, printed
    return str(urlsplit(links[0]).path)


@pytest.mark.django_db
def test_the_printed_confirmation_link_confirms_the_account(console: io.StringIO) -> None:
    client = Client()
    data = {"username": "newcoach", "email": "new@example.org"}
    response = client.post(
        reverse("signup"), {**data, "password1": PASSPHRASE, "password2": PASSPHRASE}
    )
    assert response.status_code == 302
    printed = console.getvalue()
    assert "Content-Transfer-Encoding: 8bit" in printed and "=\n" not in printed
    user = User.objects.get(username="newcoach")
    assert not email_verified(user)

    page = client.post(_link_in(printed, "/accounts/confirm-email/"), follow=True)

    assert "You have confirmed" in page.content.decode()
    assert email_verified(user)  # what creating or joining a team asks first


@pytest.mark.django_db
def test_the_printed_reset_link_sets_a_new_password(console: io.StringIO) -> None:
    User.objects.create_user("carol", email="carol@example.org", password="old-phrase-1")
    client = Client()
    response = client.post(reverse("account_reset_password"), {"email": "carol@example.org"})
    assert response.status_code == 302

    form = client.get(_link_in(console.getvalue(), "/accounts/password/reset/key/"), follow=True)
    assert form.status_code == 200 and "password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"password1": PASSPHRASE, "password2": PASSPHRASE}
    )

    assert done.status_code == 302
    assert Client().login(username="carol", password=PASSPHRASE)


def test_a_long_line_in_another_language_prints_as_written() -> None:
    link = "http://127.0.0.1:8000/accounts/verify/" + "x" * 120 + "/"
    message = EmailMessage("確認", f"リンクをたどってください:\n\n{link}\n", to=["a@example.org"])
    printed = as_plain_text(message)
    assert f"リンクをたどってください:\n\n{link}\n" in printed
    assert "Subject: =?utf-8?" in printed  # headers stay as they are sent
