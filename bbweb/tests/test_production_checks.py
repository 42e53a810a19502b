"""Production (DJANGO_DEBUG=0) refuses to start, saying why, without a real secret key,
REDIS_URL or the site's hosts: manage.py's checks, gunicorn, the worker and beat."""

import os
import subprocess
import sys
from pathlib import Path

from django.test import override_settings

from bbweb.checks import check_production_settings

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "production-check-only:Q7v!rT2#kL9@pW4$zX8%mN1^bC6&hJ3*fD5(gS0)"
production = override_settings(
    DEBUG=False,
    PRODUCTION=True,
    SECRET_KEY=GOOD_KEY,
    REDIS_URL="redis://redis:6379/0",
    ALLOWED_HOSTS=["bbweb.example.org"],
)


def _ids() -> list[str]:
    return [str(message.id) for message in check_production_settings()]


@production
def test_a_complete_production_configuration_passes() -> None:
    assert _ids() == []


@production
def test_production_needs_a_secret_key_a_redis_and_hosts() -> None:
    with override_settings(SECRET_KEY="", REDIS_URL="", ALLOWED_HOSTS=[]):
        assert _ids() == ["bbweb.E001", "bbweb.E003", "bbweb.E004"]


@production
def test_a_short_or_development_secret_key_is_refused() -> None:
    from django.conf import settings

    for key in ("short", settings.DEV_SECRET_KEY):
        with override_settings(SECRET_KEY=key):
            assert _ids() == ["bbweb.E002"]


def test_development_needs_none_of_them() -> None:
    with override_settings(
        DEBUG=True, PRODUCTION=False, SECRET_KEY="x", REDIS_URL="", ALLOWED_HOSTS=[]
    ):
        assert _ids() == []


def _production_env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=GOOD_KEY,
        DJANGO_ALLOWED_HOSTS="bbweb.example.org",
        REDIS_URL="redis://127.0.0.1:1/0",  # never connected to by these commands
    )
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _run(*command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_manage_py_check_fails_without_redis_and_says_so() -> None:
    result = _run(sys.executable, "manage.py", "check", env=_production_env(REDIS_URL=None))
    assert result.returncode != 0
    assert "REDIS_URL must be set when DJANGO_DEBUG=0" in result.stderr


def test_the_wsgi_application_refuses_to_load_without_hosts() -> None:
    env = _production_env(DJANGO_ALLOWED_HOSTS=None)
    result = _run(sys.executable, "-c", "import bbweb.wsgi", env=env)
    assert result.returncode != 0
    assert "bbweb refuses to start in production" in result.stderr
    assert "DJANGO_ALLOWED_HOSTS must name the site's host names" in result.stderr
    assert _run(sys.executable, "-c", "import bbweb.wsgi", env=_production_env()).returncode == 0


def test_beat_refuses_to_start_without_a_secret_key() -> None:
    celery = str(Path(sys.executable).parent / "celery")
    env = _production_env(DJANGO_SECRET_KEY=None)
    result = _run(celery, "-A", "bbweb", "beat", "--schedule", os.devnull, env=env)
    assert result.returncode == 1
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0" in result.stdout + result.stderr
