"""The match page as people see it, desktop and phone, in every language the site offers:
small PNGs in docs/screenshots/, referenced from the README.

Run from the repository, with DATABASE_URL naming a scratch database (it is migrated and the
demo is loaded into it):

    DATABASE_URL=postgres://.../bbweb_screenshots .venv/bin/python docs/screenshots.py

It starts its own server on a free port, logs in as the captain whose turn it is in the demo
match in play, selects one of the captain's players and photographs the screen (Chromium at
/usr/bin/chromium).
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "bbweb-demo"  # the demo's
SCREENS = {
    # desktop: photographed at 3/4 scale to keep the file small
    "desktop": {"viewport": {"width": 1366, "height": 900}, "device_scale_factor": 0.75},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 1,
        "is_mobile": True,
        "has_touch": True,
    },
}


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
    env = {**os.environ, "CELERY_TASK_ALWAYS_EAGER": "1"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], check=True, env=env, cwd=ROOT)
    subprocess.run([*manage, "load_demo"], check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)

    import django

    django.setup()
    from django.conf import settings

    from matches.models import Match
    from matches.services import load_state

    match = Match.objects.filter(status=Match.Status.IN_PLAY).order_by("pk").first()
    if match is None:
        sys.exit("load_demo left no match in play")
    active = match.home_team if load_state(match).active == "home" else match.away_team
    port = _free_port()
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for(url)
        languages = [code for code, _name in settings.LANGUAGES]
        _photograph(
            url, match.pk, active.captain.username, languages, settings.LANGUAGE_COOKIE_NAME
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


def _photograph(url: str, match_id: int, user: str, languages: list[str], cookie: str) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for language in languages:
            for screen, options in SCREENS.items():
                context = browser.new_context(**options)  # type: ignore[arg-type]
                context.add_cookies([{"name": cookie, "value": language, "url": url}])
                page = context.new_page()
                page.goto(f"{url}/accounts/login/?next=/matches/{match_id}/")
                page.locator("#id_username").fill(user)
                page.locator("#id_password").fill(PASSWORD)
                page.locator("form button[type=submit]").last.click()
                page.wait_for_selector("#pitch")
                player = page.locator("#pitch .token.mine.can-act").first
                if player.count():
                    player.click()
                    page.wait_for_selector('[data-testid^="action-"]')
                page.wait_for_timeout(300)
                path = OUT / f"match-{language}-{screen}.png"
                page.screenshot(path=str(path))
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
                context.close()
        browser.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(url: str) -> None:
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the server at {url} did not answer")


if __name__ == "__main__":
    main()
