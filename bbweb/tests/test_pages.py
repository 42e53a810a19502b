import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_home_page_speaks_english_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Blood Bowl leagues, played by web" in response.content.decode()


def test_the_home_page_speaks_spanish_when_the_browser_asks(client: Client) -> None:
    response = client.get("/", headers={"accept-language": "es"})
    assert "Ligas de Blood Bowl, jugadas por web" in response.content.decode()


def test_the_language_switch_remembers_the_choice(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/"}, follow=True)
    assert '<html lang="es">' in response.content.decode()
    assert "Registrarse" in response.content.decode()


def test_every_script_carries_the_nonce_of_the_content_security_policy(client: Client) -> None:
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None
    assert "unsafe-inline" not in policy
    scripts = re.findall(r"<script[^>]*>", response.content.decode())
    assert scripts
    assert all(f'nonce="{nonce.group(1)}"' in tag for tag in scripts)


def test_the_health_check_answers_plainly(client: Client) -> None:
    assert client.get("/healthz").content == b"ok"
