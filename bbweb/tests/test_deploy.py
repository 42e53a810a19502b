import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_reports_nothing_in_production_mode() -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "deploy-check-only:Q7v!rT2#kL9@pW4$zX8%mN1^bC6&hJ3*fD5(gS0)",
        "DJANGO_ALLOWED_HOSTS": "bbweb.example.org",
        "REDIS_URL": "redis://redis:6379/0",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_mode_without_a_secret_key_does_not_start() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env["DJANGO_DEBUG"] = "0"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def _compose() -> dict[str, Any]:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return compose


def test_compose_runs_the_five_services_of_the_deployment() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert "migrate" in " ".join(services["web"]["command"])
    assert "gunicorn bbweb.wsgi:application" in " ".join(services["web"]["command"])
    assert services["worker"]["command"][:4] == ["celery", "-A", "bbweb", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "bbweb", "beat"]
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert set(_compose()["volumes"]) == {"postgres-data", "redis-data"}


def test_compose_gives_the_app_containers_the_variables_the_settings_read() -> None:
    services = _compose()["services"]
    settings_source = (ROOT / "bbweb" / "settings.py").read_text()
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DJANGO_DEBUG"] == "0"
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert (
            env["DATABASE_URL"].startswith("postgres://")
            and "@postgres:5432/" in env["DATABASE_URL"]
        )
        for variable in env:
            assert f'"{variable}"' in settings_source, f"{variable} is not read by the settings"


def test_no_secret_is_written_in_the_compose_file() -> None:
    env = _compose()["services"]["web"]["environment"]
    assert env["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?")
    assert "${POSTGRES_PASSWORD:?" in env["DATABASE_URL"]
