"""The cast of the GM's tests (matches/gm/tests/conftest.py): the league's pages are the GM's
work too."""

from matches.gm.tests.conftest import *  # noqa: F403
