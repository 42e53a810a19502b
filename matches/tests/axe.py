"""axe-core (4.14, bundled by the pinned pytest-playwright-axe) run over a page in a real
Chromium, WCAG 2.0 and 2.1, levels A and AA.

The page keeps its real Content-Security-Policy (scripts from our origin or with the response's
nonce): axe is not added as a <script> but evaluated through Playwright, that is the DevTools
protocol's Runtime.evaluate, which a page's CSP does not govern; the browser context is never
opened with ``bypass_csp``. ``assert_no_violations`` checks that the header was there."""

from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from pytest_playwright_axe import Axe

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
DESKTOP = ViewportSize(width=1366, height=900)
PHONE = ViewportSize(width=390, height=844)
AXE = Axe(use_minified_file=True)


def context_for(
    browser: Browser, server_url: str, user: User | None, *, phone: bool, language: str
) -> BrowserContext:
    """A browser in ``language`` (its Accept-Language), at desktop or phone size, logged in as
    ``user`` by a session cookie made on the server's side."""
    options: dict[str, Any] = {"viewport": PHONE if phone else DESKTOP, "locale": language}
    if phone:
        options.update(has_touch=True, is_mobile=True)
    context = browser.new_context(**options)
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": session, "url": server_url}])
    return context


def violations(page: Page) -> list[str]:
    """One line per axe violation on the page as it stands: rule, impact and the first nodes."""
    results = AXE.run(
        page,
        options={"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]},
        html_report_generated=False,
        json_report_generated=False,
    )
    assert results["testEngine"]["version"].startswith("4.14")
    lines = []
    for violation in results["violations"]:
        targets = [", ".join(map(str, node["target"])) for node in violation["nodes"][:3]]
        lines.append(
            f"{page.url}: {violation['id']} ({violation['impact']}, "
            f"{len(violation['nodes'])} nodes) {targets} {violation['nodes'][0]['html'][:300]} "
            f"{violation['nodes'][0].get('failureSummary', '')[:300]!r}"
        )
    return lines


def visit_with_real_csp(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.ok, f"{url}: {response and response.status}"
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self' 'nonce-" in policy, f"{url} lacks its CSP: {policy!r}"
    page.wait_for_load_state("load")
