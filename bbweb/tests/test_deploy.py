import os
import re
import subprocess
import sys
from ipaddress import ip_address, ip_network
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


APP = ("web", "worker", "beat", "migrate")


def test_compose_runs_the_whole_deployment() -> None:
    services = _compose()["services"]
    assert set(services) == {"proxy", "postgres", "redis", "migrate", "web", "worker", "beat"}
    assert services["proxy"]["image"].startswith("nginx:")
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--no-input"]
    assert services["migrate"]["build"] == "."
    assert services["worker"]["command"][:4] == ["celery", "-A", "bbweb", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "bbweb", "beat"]
    for name in APP:
        assert services[name]["image"] == "bbweb:latest", name
    for name in ("proxy", "postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert set(_compose()["volumes"]) == {"postgres-data", "redis-data"}


def test_the_proxy_is_the_only_way_in() -> None:
    services = _compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert [port.split(":")[-1] for port in services["proxy"]["ports"]] == ["443", "80"]


def test_the_web_servers_wait_for_the_one_migration_and_never_migrate() -> None:
    services = _compose()["services"]
    assert "command" not in services["web"]  # the image's: gunicorn, nothing before it
    assert "gunicorn" in (ROOT / "Dockerfile").read_text().splitlines()[-1]
    assert services["migrate"]["restart"] == "no"
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }, name
    assert services["proxy"]["depends_on"]["web"] == {"condition": "service_healthy"}


def test_redis_keeps_its_queues_on_disk() -> None:
    redis = _compose()["services"]["redis"]
    command = " ".join(redis["command"])
    assert "--appendonly yes" in command
    assert redis["volumes"] == ["redis-data:/data"]


def test_the_app_trusts_the_proxy_s_address_only() -> None:
    services = _compose()["services"]
    address = services["proxy"]["networks"]["bbweb"]["ipv4_address"]
    for name in APP:
        assert services[name]["environment"]["BBWEB_TRUSTED_PROXIES"] == address, name
    subnet = _compose()["networks"]["bbweb"]["ipam"]["config"][0]["subnet"]
    default = ip_address(address.split(":-")[1].rstrip("}"))
    assert default in ip_network(subnet.split(":-")[1].rstrip("}"))


def test_the_proxy_is_configured_from_the_repository_s_template() -> None:
    proxy = _compose()["services"]["proxy"]
    mount = proxy["volumes"][0].split(":")
    assert mount[0] == "./deploy/nginx.conf.template"
    assert mount[1] == "/etc/nginx/templates/default.conf.template"
    template = (ROOT / "deploy" / "nginx.conf.template").read_text()
    placeholders = set(re.findall(r"\$\{(\w+)\}", template))
    assert placeholders == set(proxy["environment"])
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in template
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in template


def test_compose_gives_the_app_containers_the_variables_the_settings_read() -> None:
    services = _compose()["services"]
    settings_source = (ROOT / "bbweb" / "settings.py").read_text()
    for name in APP:
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


def test_the_image_is_built_by_the_one_recipe() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "deploy/build.sh" in dockerfile
    assert "manage.py" not in dockerfile and "pip install" not in dockerfile
    build = (ROOT / "deploy" / "build.sh").read_text()
    assert "export DJANGO_DEBUG=0" in build
    assert "pip install .  #" in build and "[dev]" not in build
    assert "compilemessages" in build and "collectstatic" in build


def test_secrets_and_local_state_stay_out_of_the_image() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    wanted = {".env", ".env.*", ".git", ".venv", "*.sqlite3", ".celery", "sent-mail"}
    assert wanted | {"staticfiles", "node_modules", "**/__pycache__", "certs"} <= ignored
