"""The cast and the clock of the deadline tests (matches/deadlines/tests/conftest.py): a notice
follows a turn, a question or a deadline."""

from matches.deadlines.tests.conftest import *  # noqa: F403
