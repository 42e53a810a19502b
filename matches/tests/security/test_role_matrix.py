"""The role matrix: every URL pattern of the site (the admin's and the API's included), asked
by every role with a GET and with an empty POST, must answer as this table says. A new URL
without a row fails ``test_every_url_pattern_has_a_row``, so no page ships unchecked.

The world (bbweb/tests/matrix_world.py): a private match in play in the GM's league between
the captain's and rival's home team and the away team, with a post, a dispute, an
invitation, a move proposal, an improvement roll and a fixture. The spectator is a stranger
who reads the match once it is made public. Staff is a superuser (not a GM of the league).

Answers: "login" is a redirect to a login page; any other is the status code (302 is a
redirect elsewhere: a form's message, or the admin's "no such object"). A private match is
404 to whoever may not read it (never a hint that it exists) on the pages that name it.
"""

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client

from matches.models import Match
from matches.tests.security.matrix_world import (
    ROLES,
    World,
    answer,
    build_world,
    every_route,
    url_for,
)

pytestmark = pytest.mark.django_db

# route: (GET answers, POST answers), one per role in the order of ROLES:
# anonymous stranger spectator away_captain away_rival rival captain gm other_gm staff
MATRIX: dict[str, tuple[str, str]] = {
    # -- the site's pages, accounts and the JSON API
    "": ("200 200 200 200 200 200 200 200 200 200", "405 405 405 405 405 405 405 405 405 405"),
    "favicon.ico": (
        "301 301 301 301 301 301 301 301 301 301",
        "301 301 301 301 301 301 301 301 301 301",
    ),
    "healthz": (
        "200 200 200 200 200 200 200 200 200 200",
        "200 200 200 200 200 200 200 200 200 200",
    ),
    # -- the accounts (django-allauth; the old addresses answer 301 to the new ones)
    "accounts/login/": (
        "200 302 302 302 302 302 302 302 302 302",
        "200 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/signup/": (
        "200 302 302 302 302 302 302 302 302 302",
        "200 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/password/reset/": (
        "200 200 200 200 200 200 200 200 200 200",
        "200 200 200 200 200 200 200 200 200 200",
    ),
    "accounts/profile/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "accounts/discord/login/": (
        "404 404 404 404 404 404 404 404 404 404",
        "404 404 404 404 404 404 404 404 404 404",
    ),
    "accounts/discord/login/callback/": (
        "404 404 404 404 404 404 404 404 404 404",
        "404 404 404 404 404 404 404 404 404 404",
    ),
    "accounts/logout/": (
        "302 200 200 200 200 200 200 200 200 200",
        "302 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/inactive/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/reauthenticate/": (
        "login 403 403 403 403 403 403 403 403 403",
        "login 403 403 403 403 403 403 403 403 403",
    ),
    "accounts/reauthenticate/code/": (
        "login 403 403 403 403 403 403 403 403 403",
        "login 403 403 403 403 403 403 403 403 403",
    ),
    "accounts/reauthenticate/code/confirm/": (
        "login 302 302 302 302 302 302 302 302 302",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/email/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/confirm-email/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/password/change/": (
        "login 302 302 302 302 302 302 302 302 302",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/password/set/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "accounts/login/code/confirm/": (
        "login 302 302 302 302 302 302 302 302 302",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/^confirm-email/(?P<key>[-:\\w]+)/$": (
        "200 200 200 200 200 200 200 200 200 200",
        "404 404 404 404 404 404 404 404 404 404",
    ),
    "accounts/password/reset/key/done/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$": (
        "200 200 200 200 200 200 200 200 200 200",
        "200 200 200 200 200 200 200 200 200 200",
    ),
    "accounts/password/reset/done/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/2fa/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/2fa/authenticate/": (
        "login 302 302 302 302 302 302 302 302 302",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "accounts/2fa/reauthenticate/": (
        "login 403 403 403 403 403 403 403 403 403",
        "login 403 403 403 403 403 403 403 403 403",
    ),
    "accounts/2fa/totp/activate/": (
        "login 403 403 403 403 403 403 403 403 403",
        "login 403 403 403 403 403 403 403 403 403",
    ),
    "accounts/2fa/totp/deactivate/": (
        "login 404 404 404 404 404 404 404 404 404",
        "login 404 404 404 404 404 404 404 404 404",
    ),
    "accounts/2fa/recovery-codes/": (
        "login 404 404 404 404 404 404 404 404 404",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/2fa/recovery-codes/generate/": (
        "login 403 403 403 403 403 403 403 403 403",
        "login 403 403 403 403 403 403 403 403 403",
    ),
    "accounts/2fa/recovery-codes/download/": (
        "login 404 404 404 404 404 404 404 404 404",
        "login 404 404 404 404 404 404 404 404 404",
    ),
    "accounts/3rdparty/login/cancelled/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/3rdparty/login/error/": (
        "401 401 401 401 401 401 401 401 401 401",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/3rdparty/signup/": (
        "login login login login login login login login login login",
        "login login login login login login login login login login",
    ),
    "accounts/3rdparty/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "accounts/social/login/cancelled/": (
        "301 301 301 301 301 301 301 301 301 301",
        "301 301 301 301 301 301 301 301 301 301",
    ),
    "accounts/social/login/error/": (
        "301 301 301 301 301 301 301 301 301 301",
        "301 301 301 301 301 301 301 301 301 301",
    ),
    "accounts/social/signup/": (
        "301 301 301 301 301 301 301 301 301 301",
        "301 301 301 301 301 301 301 301 301 301",
    ),
    "accounts/social/connections/": (
        "301 301 301 301 301 301 301 301 301 301",
        "301 301 301 301 301 301 301 301 301 301",
    ),
    "accounts/password_reset/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/password_reset/done/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/reset/<str:uidb64>/<str:token>/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/reset/done/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/password_change/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/password_change/done/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "accounts/verify/<str:token>/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "i18n/setlang/": (
        "302 302 302 302 302 302 302 302 302 302",
        "302 302 302 302 302 302 302 302 302 302",
    ),
    "teams/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "teams/mine/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "teams/new/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "teams/new/totals/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "teams/<id:team_id>/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "teams/<id:team_id>/export.json": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "teams/<id:team_id>/hire/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "teams/<id:team_id>/buy/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 302 403 403 403",
    ),
    "teams/<id:team_id>/invite/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "teams/<id:team_id>/players/<id:player_id>/fire/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 302 403 403 403",
    ),
    "teams/<id:team_id>/players/<id:player_id>/rename/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "teams/<id:team_id>/players/<id:player_id>/move/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 302 403 403 403",
    ),
    "teams/invitations/<id:invitation_id>/accept/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 403 302 403",
    ),
    "teams/invitations/<id:invitation_id>/decline/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 403 302 403",
    ),
    "teams/moves/<id:proposal_id>/accept/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 302 403 403 403 403",
    ),
    "teams/moves/<id:proposal_id>/refuse/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 302 403 403 403 403",
    ),
    "matches/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/new/": (
        "login 403 403 403 403 403 403 200 200 200",
        "login 403 403 403 403 403 403 200 200 200",
    ),
    "matches/<id:pk>/": (
        "login 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/live/": (
        "403 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/replay/": (
        "login 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/replay/frames/": (
        "403 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/thread/": (
        "403 404 302 302 302 302 302 302 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/preview/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 200 200 200 200 200 403 403",
    ),
    "matches/<id:pk>/declare/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 302 403 403",
    ),
    "matches/<id:pk>/answer/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 302 403 403",
    ),
    "matches/<id:pk>/posts/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 302 403 403",
    ),
    "matches/<id:pk>/close/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 302 403 403",
    ),
    "matches/<id:pk>/posts/<id:number>/edit/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 302 403 403",
    ),
    "matches/<id:pk>/verify/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/forum/": (
        "login 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/export.json": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/prematch/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/prematch/petty-cash/": (
        "405 405 405 405 405 405 405 405 405 405",
        "404 404 302 302 302 302 302 302 404 404",
    ),
    "matches/<id:pk>/prematch/inducements/": (
        "405 405 405 405 405 405 405 405 405 405",
        "404 404 302 302 302 302 302 302 404 404",
    ),
    "matches/<id:pk>/postmatch/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/postmatch/reroll/": (
        "405 405 405 405 405 405 405 405 405 405",
        "404 404 302 302 302 302 302 302 404 404",
    ),
    "matches/<id:pk>/postmatch/mvp/": (
        "405 405 405 405 405 405 405 405 405 405",
        "404 404 302 302 302 302 302 302 404 404",
    ),
    "matches/<id:pk>/postmatch/journeymen/<id:player_id>/hire/": (
        "405 405 405 405 405 405 405 405 405 405",
        "404 404 403 403 403 403 302 403 404 404",
    ),
    "matches/advancements/<id:pk>/": (
        "404 404 200 200 200 200 200 200 404 404",
        "404 404 403 403 403 403 302 403 404 404",
    ),
    "matches/mine/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "matches/notifications/": (
        "login 200 200 200 200 200 200 200 200 200",
        "login 200 200 200 200 200 200 200 200 200",
    ),
    "matches/<id:pk>/deadlines/": (
        "403 403 200 200 200 200 200 200 403 403",
        "403 403 200 200 200 200 200 200 403 403",
    ),
    "matches/<id:pk>/standing-orders/": (
        "login 403 403 200 200 200 200 200 403 403",
        "login 403 403 200 200 200 200 200 403 403",
    ),
    "matches/<id:pk>/vacation/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 302 302 302 302 403 403 403",
    ),
    "api/openapi.json": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "api/matches/<id:pk>": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "api/matches/<id:pk>/events": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "api/matches/<id:pk>/declare": (
        "405 405 405 405 405 405 405 405 405 405",
        "401 400 400 400 400 400 400 400 400 400",
    ),
    "api/matches/<id:pk>/options": (
        "404 404 403 409 409 200 200 403 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "api/matches/<id:pk>/decide": (
        "405 405 405 405 405 405 405 405 405 405",
        "401 400 400 400 400 400 400 400 400 400",
    ),
    "api/^(?P<rest>.*)$": (
        "404 404 404 404 404 404 404 404 404 404",
        "404 404 404 404 404 404 404 404 404 404",
    ),
    "gm/disputes/": (
        "login 403 403 403 403 403 403 200 200 200",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/disputes/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/disputes/raise/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 404 302 302 302 302 302 302 404 404",
    ),
    "matches/<id:pk>/disputes/<id:dispute_id>/rule/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 404 403 403 403 403 403 302 404 404",
    ),
    "matches/<id:pk>/control/<str:action>/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 404 403 403 403 403 403 302 404 404",
    ),
    "leagues/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "leagues/new/": (
        "login 403 403 403 403 403 403 200 200 200",
        "login 403 403 403 403 403 403 200 200 200",
    ),
    "leagues/<id:league_id>/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    # -- careers, team histories and the league's records: public, like the standings
    "players/<id:player_id>/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "teams/<id:team_id>/history/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "leagues/<id:league_id>/records/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "leagues/<id:league_id>/edit/": (
        "login 403 403 403 403 403 403 200 403 403",
        "login 403 403 403 403 403 403 200 403 403",
    ),
    "leagues/<id:league_id>/join/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "leagues/<id:league_id>/schedule/": (
        "login 403 403 403 403 403 403 200 403 403",
        "login 403 403 403 403 403 403 302 403 403",
    ),
    "leagues/<id:league_id>/schedule/round-robin/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "leagues/<id:league_id>/season/": (
        "login 403 403 403 403 403 403 200 403 403",
        "login 403 403 403 403 403 403 302 403 403",
    ),
    "leagues/<id:league_id>/export.json": (
        "login 403 403 403 403 403 403 200 403 403",
        "login 405 405 405 405 405 405 405 405 405",
    ),
    "leagues/<id:league_id>/all-time/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    # -- the 3-LIVE-BB companion: the league's GM referees; a phone's secret link is its key
    "leagues/<id:league_id>/live/new/": (
        "login 302 302 302 302 302 302 200 302 302",
        "login 302 302 302 302 302 302 200 302 302",
    ),
    "leagues/<id:league_id>/live/counts/": (
        "405 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "live/<id:pk>/": (
        "200 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "live/<id:pk>/act/<slug:action>/": (
        "405 405 405 405 405 405 405 405 405 405",
        "login 302 302 302 302 302 302 302 302 302",
    ),
    "live/<id:pk>/phone/<token:token>/": (
        "404 404 404 404 404 404 404 404 404 404",
        "302 302 302 302 302 302 302 302 302 302",
    ),
    "fixtures/<id:fixture_id>/start/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 302 403 403",
    ),  # -- the admin: only staff enters; a GM sees the leagues, teams and players he runs
    "admin/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/login/": (
        "301 301 301 301 301 301 301 301 301 301",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "admin/account/emailaddress/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/account/emailaddress/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/account/emailaddress/<path:object_id>/history/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/account/emailaddress/<path:object_id>/delete/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/account/emailaddress/<path:object_id>/change/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/account/emailaddress/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/mfa/authenticator/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/mfa/authenticator/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/mfa/authenticator/<path:object_id>/history/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/mfa/authenticator/<path:object_id>/delete/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/mfa/authenticator/<path:object_id>/change/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/mfa/authenticator/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialapp/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialapp/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialapp/<path:object_id>/history/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialapp/<path:object_id>/delete/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialapp/<path:object_id>/change/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialapp/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialtoken/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialtoken/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialtoken/<path:object_id>/history/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialtoken/<path:object_id>/delete/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialtoken/<path:object_id>/change/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialtoken/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialaccount/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialaccount/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/socialaccount/socialaccount/<path:object_id>/history/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/socialaccount/socialaccount/<path:object_id>/delete/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialaccount/<path:object_id>/change/": (
        "login login login login login login login 403 403 302",
        "login login login login login login login 403 403 302",
    ),
    "admin/socialaccount/socialaccount/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/logout/": (
        "302 302 302 302 302 302 302 405 405 405",
        "302 302 302 302 302 302 302 302 302 302",
    ),
    "admin/password_change/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/password_change/done/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 405 405 405",
    ),
    "admin/autocomplete/": (
        "login login login login login login login 403 403 403",
        "login login login login login login login 405 405 405",
    ),
    "admin/jsi18n/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 405 405 405",
    ),
    "admin/r/<path:content_type_id>/<path:object_id>/": (
        "login login login login login login login 404 404 404",
        "login login login login login login login 404 404 404",
    ),
    "admin/auth/group/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/group/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/group/<path:object_id>/history/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/group/<path:object_id>/delete/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/group/<path:object_id>/change/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/group/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/auth/user/<id>/password/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/add/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/<path:object_id>/history/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/<path:object_id>/delete/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/<path:object_id>/change/": (
        "login login login login login login login 403 403 200",
        "login login login login login login login 403 403 200",
    ),
    "admin/auth/user/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/teams/league/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/league/add/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/league/<path:object_id>/history/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/league/<path:object_id>/delete/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/league/<path:object_id>/change/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/league/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/teams/team/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/team/add/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/team/<path:object_id>/history/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/team/<path:object_id>/delete/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/team/<path:object_id>/change/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/team/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/teams/player/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/player/add/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/player/<path:object_id>/history/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/player/<path:object_id>/delete/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/player/<path:object_id>/change/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/player/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/teams/invitation/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/invitation/add/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/invitation/<path:object_id>/history/": (
        "login login login login login login login 302 302 200",
        "login login login login login login login 302 302 200",
    ),
    "admin/teams/invitation/<path:object_id>/delete/": (
        "login login login login login login login 302 302 200",
        "login login login login login login login 302 302 200",
    ),
    "admin/teams/invitation/<path:object_id>/change/": (
        "login login login login login login login 302 302 200",
        "login login login login login login login 302 302 200",
    ),
    "admin/teams/invitation/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/teams/moveproposal/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/moveproposal/add/": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/teams/moveproposal/<path:object_id>/history/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/moveproposal/<path:object_id>/delete/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/moveproposal/<path:object_id>/change/": (
        "login login login login login login login 200 302 200",
        "login login login login login login login 200 302 200",
    ),
    "admin/teams/moveproposal/<path:object_id>/": (
        "login login login login login login login 302 302 302",
        "login login login login login login login 302 302 302",
    ),
    "admin/^(?P<app_label>auth|account|mfa|socialaccount|teams)/$": (
        "login login login login login login login 200 200 200",
        "login login login login login login login 200 200 200",
    ),
    "admin/(?P<url>.*)$": (
        "login login login login login login login 404 404 404",
        "login login login login login login login 404 404 404",
    ),
    # -- the league's webhooks (its GM only), the one-click unsubscribe (a signed token)
    "leagues/<id:league_id>/hooks/": (
        "login 403 403 403 403 403 403 200 403 403",
        "login 403 403 403 403 403 403 200 403 403",
    ),
    "hooks/<id:hook_id>/remove/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 302 403 403",
    ),
    "hooks/<id:hook_id>/secret/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 302 403 403",
    ),
    "hooks/<id:hook_id>/switch/": (
        "login 405 405 405 405 405 405 405 405 405",
        "login 403 403 403 403 403 403 302 403 403",
    ),
    "matches/notifications/unsubscribe/<str:token>/": (
        "404 404 404 404 404 404 404 404 404 404",
        "404 404 404 404 404 404 404 404 404 404",
    ),
    # -- live push: a stream opens to whoever may read what it follows, 404 to the rest (the
    # live table's to its referee, a phone's to the holder of its token)
    "matches/<id:pk>/stream/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/<id:pk>/watching/": (
        "404 404 200 200 200 200 200 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "matches/mine/stream/": (
        "404 200 200 200 200 200 200 200 200 200",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "live/<id:pk>/stream/": (
        "404 404 404 404 404 404 404 200 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
    "live/<id:pk>/phone/<token:token>/stream/": (
        "404 404 404 404 404 404 404 404 404 404",
        "405 405 405 405 405 405 405 405 405 405",
    ),
}


def test_every_url_pattern_has_a_row() -> None:
    routes = every_route()
    missing = sorted(set(routes) - set(MATRIX))
    stale = sorted(set(MATRIX) - set(routes))
    assert not missing, f"URL patterns with no row in the role matrix: {missing}"
    assert not stale, f"rows for URL patterns that no longer exist: {stale}"


def _ask(world: World, url: str, role: str, method: str) -> str:
    client = Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    cache.clear()  # no throttle counts carried from one role to the next
    with transaction.atomic():  # each request's writes are undone before the next role asks
        if role == "spectator":
            Match.objects.filter(pk=world.match.pk).update(is_public=True)
        got = answer(getattr(client, method)(url))
        transaction.set_rollback(True)
    return got


@pytest.mark.parametrize("route", sorted(MATRIX))
def test_each_role_gets_the_answer_the_matrix_gives(route: str) -> None:
    world = build_world()
    url = url_for(route, world)
    expected_get, expected_post = (answers.split() for answers in MATRIX[route])
    assert len(expected_get) == len(expected_post) == len(ROLES)
    wrong = []
    for method, expected in (("get", expected_get), ("post", expected_post)):
        for role, want in zip(ROLES, expected, strict=True):
            got = _ask(world, url, role, method)
            if got != want:
                wrong.append(f"{method.upper()} {url} as {role}: {got}, the matrix says {want}")
    assert not wrong, "\n".join(wrong)
