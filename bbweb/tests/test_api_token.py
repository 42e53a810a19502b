import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bbweb.models import ApiToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(client: Client) -> User:
    user = User.objects.create_user("alice")
    client.force_login(user)
    return user


def make_token(client: Client, name: str = "bot", lifetime: str = "") -> str:
    response = client.post(
        reverse("profile"), {"action": "make", "name": name, "lifetime": lifetime}
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {}
    return str(response.context["new_token"])


def revoke(client: Client, name: str) -> Any:
    pk = ApiToken.objects.get(name=name).pk
    return client.post(reverse("profile"), {"action": "revoke", "token": str(pk)}, follow=True)


def api_get(token: str) -> Any:
    return Client(headers={"authorization": f"Bearer {token}"}).get("/api/matches/1")


def test_the_profile_page_needs_a_login(client: Client) -> None:
    assert client.get(reverse("profile")).status_code == 302


def test_a_token_is_shown_once_and_only_its_hash_is_stored(alice: User, client: Client) -> None:
    assert "You have no token." in client.get(reverse("profile")).content.decode()
    token = make_token(client, "my bot")
    stored = ApiToken.objects.get(user=alice)
    assert stored.name == "my bot"
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert stored.expires_at is None
    page = client.get(reverse("profile")).content.decode()
    assert token not in page
    assert "my bot" in page and "Never used" in page
    assert ApiToken.user_for(token) == alice


def test_tokens_are_named_and_listed_with_their_last_use(alice: User, client: Client) -> None:
    first = make_token(client, "scores bot")
    make_token(client, "turn notifier")
    assert ApiToken.user_for(first) == alice
    page = client.get(reverse("profile"))
    assert [t.name for t in page.context["tokens"]] == ["scores bot", "turn notifier"]
    html = page.content.decode()
    assert html.count('data-testid="api-token-row"') == 2
    assert html.count("Never used") == 1  # the first was used just now


def test_a_second_token_of_the_same_name_is_refused_and_changes_nothing(
    alice: User, client: Client
) -> None:
    token = make_token(client, "bot")
    response = client.post(reverse("profile"), {"action": "make", "name": "bot"})
    assert response.context["new_token"] is None
    assert "You already have a token named bot" in response.content.decode()
    assert ApiToken.objects.count() == 1
    assert ApiToken.user_for(token) == alice


def test_an_empty_name_or_a_made_up_lifetime_is_refused(alice: User, client: Client) -> None:
    for data in ({"name": "  "}, {"name": "x", "lifetime": "9999"}, {"name": "y" * 61}):
        response = client.post(reverse("profile"), {"action": "make", **data})
        assert response.status_code == 200
        assert response.context["form"].errors
        assert response.context["new_token"] is None
    assert not ApiToken.objects.exists()


def test_an_account_has_at_most_ten_tokens(alice: User, client: Client) -> None:
    for n in range(10):
        make_token(client, f"bot {n}")
    response = client.post(reverse("profile"), {"action": "make", "name": "one more"})
    assert "You have 10 tokens" in response.content.decode()
    assert ApiToken.objects.count() == 10


def test_revoking_one_token_leaves_the_others(alice: User, client: Client) -> None:
    old = make_token(client, "old")
    kept = make_token(client, "kept")
    response = revoke(client, "old")
    assert "The token is revoked" in response.content.decode()
    assert ApiToken.user_for(old) is None
    assert ApiToken.user_for(kept) == alice
    assert api_get(old).status_code == 401


def test_nobody_revokes_another_users_token(alice: User, client: Client) -> None:
    bobs = ApiToken.issue(User.objects.create_user("bob"), "bob's")
    for pk in (str(ApiToken.objects.get().pk), "nonsense", "99999999999999999999"):
        response = client.post(reverse("profile"), {"action": "revoke", "token": pk}, follow=True)
        assert "You have no such token" in response.content.decode()
    assert ApiToken.user_for(bobs) is not None


def test_an_expiring_token_works_until_its_day_then_gets_a_clear_401(
    alice: User, client: Client
) -> None:
    token = make_token(client, "week", lifetime="7")
    stored = ApiToken.objects.get()
    assert stored.expires_at is not None
    assert timedelta(days=6, hours=23) < stored.expires_at - stored.created_at <= timedelta(days=7)
    assert api_get(token).status_code == 404  # past the token check: no such match
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1), last_used_at=None)
    response = api_get(token)
    assert response.status_code == 401
    body = response.json()
    assert body["error"] == "token_expired"
    assert "'week' expired at" in body["message"] and "profile page" in body["message"]
    assert ApiToken.user_for(token) is None
    assert ApiToken.objects.get().last_used_at is None  # a refused try is no use
    page = client.get(reverse("profile")).content.decode()
    assert "Expired" in page


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
        reverse("account_change_password"),
        {
            "oldpassword": "old secret 2026",
            "password1": "a new secret 2026",
            "password2": "a new secret 2026",
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
