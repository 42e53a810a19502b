import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from bbweb.models import ApiToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client) -> User:
    user = User.objects.create_user("alice")
    client.force_login(user)
    return user


def make_token(client: Client) -> str:
    response = client.post(reverse("profile"), {"action": "generate"})
    assert response.status_code == 200
    return str(response.context["new_token"])


def test_the_profile_page_needs_a_login(client: Client) -> None:
    assert client.get(reverse("profile")).status_code == 302


def test_a_token_is_shown_once_and_only_its_hash_is_stored(alice: User, client: Client) -> None:
    assert "You have no token." in client.get(reverse("profile")).content.decode()
    token = make_token(client)
    stored = ApiToken.objects.get(user=alice)
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert ApiToken.user_for(token) == alice
    page = client.get(reverse("profile")).content.decode()
    assert token not in page
    assert "You have a token" in page


def test_replacing_the_token_ends_the_old_one(alice: User, client: Client) -> None:
    old = make_token(client)
    new = make_token(client)
    assert new != old
    assert ApiToken.user_for(old) is None
    assert ApiToken.user_for(new) == alice
    assert ApiToken.objects.count() == 1


def test_a_revoked_token_opens_nothing(alice: User, client: Client) -> None:
    token = make_token(client)
    client.post(reverse("profile"), {"action": "revoke"})
    assert ApiToken.user_for(token) is None
    response = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(reverse("api:match", args=[1]))
    assert response.status_code == 401


def test_the_token_of_a_deactivated_user_opens_nothing(alice: User, client: Client) -> None:
    token = make_token(client)
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert ApiToken.user_for(token) is None


def test_a_password_reset_ends_the_api_token(alice: User, client: Client) -> None:
    token = make_token(client)
    other = User.objects.create_user("bob")
    bobs = ApiToken.issue(other)
    alice.set_password("a new secret 2026")
    alice.save()
    assert ApiToken.user_for(token) is None
    assert ApiToken.user_for(bobs) == other
    alice.last_name = "Smith"
    alice.save()
    fresh = ApiToken.issue(alice)
    alice.save(update_fields=["last_name"])
    assert ApiToken.user_for(fresh) == alice


def test_a_password_change_from_the_account_pages_ends_the_api_token(
    alice: User, client: Client
) -> None:
    alice.set_password("old secret 2026")
    alice.save()
    client.force_login(alice)
    token = make_token(client)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "old secret 2026",
            "new_password1": "a new secret 2026",
            "new_password2": "a new secret 2026",
        },
    )
    assert response.status_code == 302
    api = Client(headers={"authorization": f"Bearer {token}"})
    assert api.get("/api/matches/1").status_code == 401


def test_last_used_is_written_at_most_once_a_minute(
    alice: User, client: Client, django_assert_num_queries: Any
) -> None:
    token = make_token(client)
    with django_assert_num_queries(2):  # the token and its user, then last_used_at
        assert ApiToken.user_for(token) == alice
    first = ApiToken.objects.get(user=alice).last_used_at
    assert first is not None
    with django_assert_num_queries(1):
        assert ApiToken.user_for(token) == alice
    assert ApiToken.objects.get(user=alice).last_used_at == first
    ApiToken.objects.filter(user=alice).update(last_used_at=first - timedelta(seconds=61))
    with django_assert_num_queries(2):
        assert ApiToken.user_for(token) == alice
    later = ApiToken.objects.get(user=alice).last_used_at
    assert later is not None and later > first
