"""The deployment's walk (.ci/prod_smoke runs it): the site as built by deploy/build.sh, served
with DJANGO_DEBUG=0 by gunicorn behind Debian's nginx configured from deploy/nginx.conf.template.

    python .ci/deploy_walk.py plan > plan.json        (inside Django: what to walk)
    python .ci/deploy_walk.py walk URL plan.json CA SETUP_JSON   (HTTP only, standard library)

``plan`` lists every page of the URLconf that takes no argument (from the resolver) and the
demo's pages (its matches in play and finished: the match, post-match, league with the
return fixture a team can open once its match in play has finished, teams, replay, verify,
and a live companion's pages). ``walk`` goes over
them as an anonymous visitor and as a logged-in coach (alice), fails on any 5xx, checks that
every static file a page names is served under its hashed name, then shows that one client's
21 failed logins (and 21 bad API tokens) leave another client's login (and token) working:
the clients are 127.0.0.2 and 127.0.0.1, which Linux routes to the loopback, and nginx writes
each one's address in X-Forwarded-For."""

import functools
import http.client
import http.cookiejar
import json
import re
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

PASSWORD = "bbweb-demo"
COACH = "alice"
ATTACKER = "127.0.0.2"
CLIENT = "127.0.0.1"
# ManifestStaticFilesStorage's names: name.<12 hex digits>.ext
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
STATIC = re.compile(r"""(?:src|href)=["'](/static/[^"'?#]+)""")


def plan() -> dict[str, Any]:
    import os

    import django

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tree, as manage.py
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
    django.setup()
    from django.contrib.auth.models import User
    from django.urls import URLPattern, URLResolver, get_resolver, reverse

    from matches.live import services as live
    from matches.live.models import LiveMatch
    from matches.models import Match
    from teams.models import League
    from tools.demo_teams import DEMO_LEAGUE

    def argumentless(patterns: list[Any], namespace: str, prefix: str) -> list[str]:
        found = []
        for entry in patterns:
            route = str(entry.pattern)
            if getattr(entry.pattern, "converters", None) or "<" in route or "(?P" in route:
                continue
            if isinstance(entry, URLResolver):
                inner = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
                found += argumentless(entry.url_patterns, inner.strip(":"), prefix + route)
            elif isinstance(entry, URLPattern):
                if entry.name:
                    found.append(reverse(f"{namespace}:{entry.name}".strip(":")))
                elif "^" in prefix + route:
                    raise SystemExit(f"a page without a name, by regex: {prefix}{route}")
                else:
                    found.append(f"/{prefix}{route}")
        return found

    # A stream of live push never ends: prod_smoke opens one on its own, for a few seconds.
    pages = sorted(
        page
        for page in set(argumentless(get_resolver().url_patterns, "", ""))
        if not page.endswith("/stream/")
    )

    league = League.objects.get(name=DEMO_LEAGUE)
    gm = User.objects.get(username="gm")
    statuses = Match.Status
    in_play = Match.objects.filter(league=league, status=statuses.IN_PLAY).order_by("pk").first()
    finished = Match.objects.filter(league=league, status=statuses.FINISHED).first()
    assert in_play and finished, "the demo's two matches"
    teams = list(league.teams.order_by("pk"))
    companion = LiveMatch.objects.filter(league=league).first()
    if companion is None:
        companion = live.start_live_match(gm, league, teams[0], teams[1])
    player = next(iter(companion.state["players"].values()))
    demo = [
        reverse("gm:league", args=[league.pk]),
        *(reverse("teams:detail", args=[team.pk]) for team in teams),
        *(reverse("teams:export", args=[team.pk]) for team in teams),
        reverse("sequence:postmatch", args=[finished.pk]),
        reverse("live:match", args=[companion.pk]),
        reverse("live:phone", args=[companion.pk, player["token"]]),
    ]
    for match in (in_play, finished):
        for name in ("detail", "verify", "forum", "thread", "replay", "replay_frames", "live"):
            demo.append(reverse(f"matches:{name}", args=[match.pk]))
        demo.append(reverse("gm:match_disputes", args=[match.pk]))
        demo.append(reverse("deadlines:deadlines", args=[match.pk]))
    return {"pages": pages, "demo": demo}


class _Bound(urllib.request.HTTPSHandler):
    """HTTPS from a chosen source address (a loopback address of its own per client)."""

    def __init__(self, context: ssl.SSLContext, source: str) -> None:
        super().__init__(context=context)
        self.source = source

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = functools.partial(http.client.HTTPSConnection, source_address=(self.source, 0))
        return self.do_open(connection, req, context=self._context)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """One client: its own address, cookies and CSRF token; redirects are not followed."""

    def __init__(self, base: str, context: ssl.SSLContext, source: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            _Bound(context, source),
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirects(),
        )

    def request(
        self, path: str, data: dict[str, str] | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        url = urllib.parse.urljoin(self.base, path)
        body = None if data is None else urllib.parse.urlencode(data).encode()
        sent = dict(headers or {})
        if data is not None:  # as a browser posts a form: its origin and page
            sent |= {"Origin": self.base.rstrip("/"), "Referer": url, "X-CSRFToken": self.csrf()}
        request = urllib.request.Request(url, data=body, headers=sent)
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as answer:
            return answer.code, dict(answer.headers), answer.read()

    def csrf(self) -> str:
        for cookie in self.jar:
            if cookie.name == "csrftoken":
                return str(cookie.value)
        self.request("/accounts/login/")
        return next(str(c.value) for c in self.jar if c.name == "csrftoken")

    def login(self, username: str, password: str) -> int:
        status, _headers, _body = self.request(
            "/accounts/login/", {"login": username, "password": password}
        )
        return status


class Failure(Exception):
    pass


def _walk_as(browser: Browser, paths: list[str], statics: set[str], who: str) -> Counter[int]:
    statuses: Counter[int] = Counter()
    for path in paths:
        status, headers, body = browser.request(path)
        statuses[status] += 1
        if status >= 500:
            raise Failure(f"{who}: {status} from {path}: {body[:300]!r}")
        if status == 200 and headers.get("Content-Type", "").startswith("text/html"):
            statics.update(STATIC.findall(body.decode("utf-8", "replace")))
    return statuses


def walk(base: str, planned: dict[str, Any], cafile: str, setup: dict[str, Any]) -> None:
    started = time.monotonic()
    context = ssl.create_default_context(cafile=cafile)
    paths = planned["pages"] + planned["demo"]
    statics: set[str] = set()

    anonymous = _walk_as(Browser(base, context, CLIENT), paths, statics, "anonymous")
    coach = Browser(base, context, CLIENT)
    if coach.login(COACH, PASSWORD) != 302:
        raise Failure("the coach could not log in through the proxy")
    logged_in = _walk_as(coach, paths, statics, COACH)
    status, headers, _body = coach.request("/accounts/profile/")
    if status != 200:
        raise Failure(f"the coach's session did not last the walk: {status} {headers}")
    print(
        f"walked {len(paths)} pages ({len(planned['pages'])} without arguments, "
        f"{len(planned['demo'])} of the demo) twice: anonymous {dict(anonymous)}, "
        f"{COACH} {dict(logged_in)}"
    )

    if not statics:
        raise Failure("no page named a static file")
    plain = sorted(s for s in statics if not HASHED.search(s))
    if plain:
        raise Failure(f"static files named without their hash: {plain}")
    for path in sorted(statics):
        status, _headers, _body = coach.request(path)
        if status != 200:
            raise Failure(f"{status} from {path}")
    print(f"static files: {len(statics)} named by the pages, all hashed, all served")

    attacker = Browser(base, context, ATTACKER)
    answers = [attacker.login(f"nobody{n}", "wrong") for n in range(21)]
    if answers[-1] != 429 or 302 in answers:
        raise Failure(f"21 failed logins from {ATTACKER} answered {answers}")
    if Browser(base, context, CLIENT).login("bob", PASSWORD) != 302:
        raise Failure(f"after {ATTACKER}'s failed logins, a login from {CLIENT} was refused")
    if attacker.login("bob", PASSWORD) != 429:
        raise Failure(f"{ATTACKER} was not held back")
    print(f"21 failed logins from {ATTACKER}: the last answered 429; a login from {CLIENT} works")

    api = f"/api/matches/{setup['match']}"
    for n in range(21):
        attacker.request(api, headers={"Authorization": f"Bearer bbw_wrong{n}"})
    token = {"Authorization": f"Bearer {setup['tokens']['home:captain']}"}
    status, _headers, _body = Browser(base, context, CLIENT).request(api, headers=token)
    if status != 200:
        raise Failure(f"after {ATTACKER}'s 21 bad tokens, a good one from {CLIENT}: {status}")
    status, _headers, _body = attacker.request(api, headers=token)
    if status != 429:
        raise Failure(f"{ATTACKER}'s good token after 21 bad ones answered {status}, not 429")
    print(f"21 bad API tokens from {ATTACKER}: it answers 429; a token from {CLIENT} works")
    print(f"deploy walk passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "plan":
        print(json.dumps(plan()))
    elif command == "walk":
        with open(sys.argv[3]) as planned:
            try:
                walk(sys.argv[2], json.load(planned), sys.argv[4], json.loads(sys.argv[5]))
            except Failure as failure:
                raise SystemExit(f"deploy walk failed: {failure}") from None
    else:
        raise SystemExit(f"unknown command {command}")
