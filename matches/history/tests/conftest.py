"""The cast of the post-match tests and a season played through the services
(matches/sequence/tests): careers, histories and records are read from it."""

from matches.sequence.tests.conftest import *  # noqa: F403
from matches.sequence.tests.test_league_season import season
