import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from bbweb.roles import is_game_master, make_game_master

pytestmark = pytest.mark.django_db


def _confirmation_link() -> str:
    found = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", str(mail.outbox[-1].body))
    assert found is not None, mail.outbox[-1].body
    return found.group(1)


def test_a_visitor_signs_up_confirms_the_address_and_is_logged_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "alice",
            "email": "alice@example.org",
            "password1": "a-long-and-unusual-passphrase",
            "password2": "a-long-and-unusual-passphrase",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert User.objects.filter(username="alice").exists()
    assert not response.context["user"].is_authenticated
    assert mail.outbox[-1].to == ["alice@example.org"]
    response = client.post(_confirmation_link(), follow=True)
    assert response.context["user"].username == "alice"
    assert "Welcome back" not in response.content.decode()


def test_a_sign_up_with_mismatched_passwords_creates_nobody(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "bob", "email": "b@example.org", "password1": "x" * 12, "password2": "y" * 12},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="bob").exists()


def test_log_in_log_out_and_change_password(client: Client) -> None:
    User.objects.create_user("carol", password="first-secret-phrase")
    assert (
        client.post(
            reverse("login"), {"login": "carol", "password": "first-secret-phrase"}
        ).status_code
        == 302
    )
    response = client.post(
        reverse("account_change_password"),
        {
            "oldpassword": "first-secret-phrase",
            "password1": "second-secret-phrase",
            "password2": "second-secret-phrase",
        },
    )
    assert response.status_code == 302
    client.post(reverse("account_logout"))
    assert client.get(reverse("account_change_password")).status_code == 302
    assert client.login(username="carol", password="second-secret-phrase")


def test_the_game_master_role_is_granted_explicitly() -> None:
    dave = User.objects.create_user("dave")
    assert not is_game_master(dave)
    make_game_master(dave)
    assert is_game_master(dave)


def test_the_navigation_marks_a_game_master(client: Client) -> None:
    gm = User.objects.create_user("gm")
    make_game_master(gm)
    client.force_login(gm)
    assert 'class="badge"' in client.get("/").content.decode()


def _sign_up_data(username: str, email: str) -> dict[str, str]:
    return {
        "username": username,
        "email": email,
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
    }


def _sign_up(client: Client, username: str, email: str) -> str:
    return client.post(reverse("signup"), _sign_up_data(username, email)).content.decode()


def test_one_account_per_e_mail_address(client: Client) -> None:
    User.objects.create_user("alice", email="alice@example.org")
    client.post(reverse("signup"), _sign_up_data("mallory", "ALICE@example.org"))
    assert not User.objects.filter(username="mallory").exists()
    assert mail.outbox[-1].to == ["alice@example.org"]


@pytest.mark.parametrize(
    "name", ["\u0430lice", "Alice", "al1ce", "a_lice", "\uff41\uff4c\uff49\uff43\uff45"]
)
def test_a_name_that_looks_like_an_existing_one_is_refused(client: Client, name: str) -> None:
    User.objects.create_user("alice", email="alice@example.org")
    page = _sign_up(client, name, "other@example.org")
    # Django itself refuses a name that differs only in case
    assert "looks too much like another coach" in page or "already exists" in page
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name", ["admin", "Administrator", "r00t", "\uff53\uff54\uff41\uff46\uff46"]
)
def test_a_reserved_name_is_refused(client: Client, name: str) -> None:
    page = _sign_up(client, name, "new@example.org")
    assert "This name is reserved" in page
    assert not User.objects.exists()
    spanish = Client(headers={"accept-language": "es"})
    assert "Este nombre está reservado" in _sign_up(spanish, name, "new@example.org")


def test_a_name_is_stored_in_its_nfkc_form(client: Client) -> None:
    _sign_up(client, "\uff42\uff4f\uff42", "bob@example.org")
    assert User.objects.get(email="bob@example.org").username == "bob"
