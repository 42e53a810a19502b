"""Who is registered does not leak: sign-up and password reset answer the same page for a taken
and a free address, and a mail goes out in both cases (to the address given). Names that look
like a taken or reserved one are refused (Unicode TR39 confusables)."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from bbweb.accounts import names

pytestmark = pytest.mark.django_db
PASSPHRASE = "a-long-and-unusual-passphrase"


@pytest.fixture(autouse=True)
def alice() -> User:
    return User.objects.create_user("alice", email="alice@example.org", password=PASSPHRASE)


def _sign_up(username: str, email: str) -> tuple[int, str, str]:
    data = {"username": username, "email": email, "password1": PASSPHRASE, "password2": PASSPHRASE}
    response = Client().post(reverse("signup"), data, follow=True)
    page = response.content.decode().replace(email, "ADDRESS")
    return response.status_code, response.request["PATH_INFO"], page


def test_sign_up_answers_the_same_page_for_a_taken_and_a_free_address() -> None:
    taken = _sign_up("mallory", "alice@example.org")
    free = _sign_up("newcomer", "newcomer@example.org")
    assert taken[:2] == free[:2] == (200, reverse("account_email_verification_sent"))
    assert _without_tokens(taken[2]) == _without_tokens(free[2])
    assert "already" not in taken[2]
    assert not User.objects.filter(username="mallory").exists()
    to_alice, to_newcomer = mail.outbox
    assert to_alice.to == ["alice@example.org"] and to_newcomer.to == ["newcomer@example.org"]
    assert "already" in str(to_alice.body)  # the owner learns someone tried
    assert "/accounts/confirm-email/" in str(to_newcomer.body)


def test_password_reset_answers_the_same_page_for_a_known_and_an_unknown_address() -> None:
    answers = []
    for email in ("alice@example.org", "nobody@example.org"):
        response = Client().post(reverse("account_reset_password"), {"email": email}, follow=True)
        page = _without_tokens(response.content.decode().replace(email, "ADDRESS"))
        answers.append((response.status_code, response.redirect_chain, page))
    assert answers[0] == answers[1]
    known, unknown = mail.outbox
    assert known.to == ["alice@example.org"] and unknown.to == ["nobody@example.org"]
    assert "/accounts/password/reset/key/" in str(known.body)
    assert "/accounts/password/reset/key/" not in str(unknown.body)


def _without_tokens(page: str) -> str:
    """The page less its CSRF tokens and script nonces, new in every response."""
    return re.sub(r'(value="|X-CSRFToken": "|Nonce": "|nonce=")[-\w]+', r"\1", page)


# A name and the name (taken or reserved) it would pass for.
CONFUSABLES = [
    ("\u0251lice", "alice"),  # Latin small letter alpha
    ("\u0299ob", "bob"),  # small capital B
    ("\u0261m", "gm"),  # Latin small letter script g, against a reserved name
    ("\u0430lice", "alice"),  # Cyrillic a
    ("\u03b1lice", "alice"),  # Greek alpha
    ("\uff41lice", "alice"),  # fullwidth a
    ("al1ce", "alice"),  # digit one for l... and i
    ("ALICE", "alice"),
    ("a_lice", "alice"),
    ("\u1d00lice", "alice"),  # small capital A
    ("b\u043eb", "bob"),  # Cyrillic o
    ("b0b", "bob"),  # digit zero
    ("rnallory", "mallory"),  # r n drawn as m
    ("h\u0435lp", "help"),  # Cyrillic ie, against a reserved name
    ("\u0455upport", "support"),  # Cyrillic dze
    ("\u00e1lice", "alice"),  # an accent
]


@pytest.mark.parametrize(("name", "like"), CONFUSABLES)
def test_a_name_that_passes_for_a_taken_or_reserved_one_is_refused(name: str, like: str) -> None:
    assert names.skeletons(name) & names.skeletons(like)
    for taken in ("bob", "mallory"):
        User.objects.create_user(taken)
    status, where, page = _sign_up(name, "someone@example.org")
    assert status == 200
    assert where == reverse("signup")
    refusals = ("looks too much like another coach", "This name is reserved", "already exists")
    assert any(refusal in page for refusal in refusals)
    assert not User.objects.filter(email="someone@example.org").exists()


@pytest.mark.parametrize("name", ["alicia", "bobby", "gmx", "carol", "d\u00e9j\u00e0vu"])
def test_names_that_only_resemble_in_spelling_are_welcome(name: str) -> None:
    User.objects.create_user("bob")
    _status, where, _page = _sign_up(name, "someone@example.org")
    assert where == reverse("account_email_verification_sent")
    assert User.objects.filter(username=name).exists()
