"""The cast of the post-match tests and a season played through the services
(matches/sequence/tests), in place of the GM tests' cast of the folder above: a league's
export is made of a league that has played."""

from matches.sequence.tests.conftest import *  # noqa: F403
from matches.sequence.tests.test_league_season import season  # noqa: F401
