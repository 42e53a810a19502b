"""Log in with Discord end to end, against a stand-in for Discord's OAuth2 server that the test
starts (no internet): its authorize page sends the browser back with a code, its token endpoint
trades the code for a token, and ``users/@me`` names the Discord user. A new account is opened,
and an existing one links its Discord account."""

import http.client
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from allauth.socialaccount.providers.discord.views import DiscordOAuth2Adapter
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

DISCORD_USER = {
    "id": "80351110224678912",
    "username": "nelly",
    "global_name": "Nelly",
    "email": "nelly@example.com",
    "verified": True,
}


class _StandIn(BaseHTTPRequestHandler):
    codes: dict[str, str] = {}  # code -> the redirect_uri it was given for

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _json(self, body: dict[str, Any], status: int = 200) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/api/oauth2/authorize":
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            assert query["client_id"] == "stand-in-client" and query["response_type"] == "code"
            self.codes["the-code"] = query["redirect_uri"]
            back = urlencode({"code": "the-code", "state": query["state"]})
            self.send_response(302)
            self.send_header("Location", f"{query['redirect_uri']}?{back}")
            self.end_headers()
        elif url.path == "/api/users/@me":
            if self.headers.get("Authorization") != "Bearer the-token":
                self._json({"message": "401: Unauthorized"}, 401)
            else:
                self._json(DISCORD_USER)
        else:
            self._json({"message": "404"}, 404)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        known = form.get("code") in self.codes and form.get("client_secret") == "stand-in-secret"
        if urlsplit(self.path).path != "/api/oauth2/token" or not known:
            self._json({"error": "invalid_grant"}, 400)
            return
        self._json({"access_token": "the-token", "token_type": "Bearer", "expires_in": 600})


@pytest.fixture
def discord(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _StandIn)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    monkeypatch.setattr(DiscordOAuth2Adapter, "authorize_url", f"{base}/api/oauth2/authorize")
    monkeypatch.setattr(DiscordOAuth2Adapter, "access_token_url", f"{base}/api/oauth2/token")
    monkeypatch.setattr(DiscordOAuth2Adapter, "profile_url", f"{base}/api/users/@me")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    settings.SOCIALACCOUNT_PROVIDERS = {
        "discord": {
            "APPS": [{"client_id": "stand-in-client", "secret": "stand-in-secret"}],
            "SCOPE": ["identify", "email"],
        }
    }
    yield base
    server.shutdown()
    server.server_close()


def _through_discord(client: Client, base: str, **form: str) -> Any:
    """The login button's POST, Discord's authorize page, then the callback: the last answer."""
    start = client.post("/accounts/discord/login/", form)
    assert start.status_code == 302 and start["Location"].startswith(base), start
    authorize = urlsplit(start["Location"])
    connection = http.client.HTTPConnection(authorize.netloc)
    connection.request("GET", f"{authorize.path}?{authorize.query}")
    answer = connection.getresponse()
    assert answer.status == 302
    back = urlsplit(answer.getheader("Location", ""))
    assert back.path == "/accounts/discord/login/callback/"
    return client.get(f"{back.path}?{back.query}")


def test_discord_opens_a_new_account_and_logs_it_in(discord: str, client: Client) -> None:
    response = _through_discord(client, discord)
    assert response.status_code == 302
    account = SocialAccount.objects.get(provider="discord", uid=DISCORD_USER["id"])
    assert account.user.username == "nelly"
    assert EmailAddress.objects.get(user=account.user).verified  # Discord verified it
    assert client.get("/accounts/profile/").status_code == 200  # logged in
    # a second time logs the same account in, opening no other
    other = Client()
    assert _through_discord(other, discord).status_code == 302
    assert User.objects.filter(username="nelly").count() == 1
    assert other.get("/accounts/profile/").status_code == 200


def test_an_existing_account_links_its_discord_account_from_the_profile(
    discord: str, client: Client
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "a long passphrase 2026")
    EmailAddress.objects.create(user=alice, email="alice@example.com", verified=True, primary=True)
    client.force_login(alice)
    connections = client.get("/accounts/3rdparty/").content.decode()
    assert "/accounts/discord/login/" in connections
    response = _through_discord(client, discord, process="connect")
    assert response.status_code == 302
    account = SocialAccount.objects.get(provider="discord")
    assert account.user == alice
    assert not User.objects.filter(username="nelly").exists()
    client.logout()
    assert _through_discord(client, discord).status_code == 302  # Discord now logs alice in
    assert client.get("/accounts/profile/").context["user"] == alice
