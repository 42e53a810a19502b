"""Schemathesis over /api/openapi.json against a live server, with an API token: every
operation is called with data the schema allows (a bounded number of examples, under a minute
in all) and must answer without a server error and as the schema says.

Each run draws a seed for hypothesis and the match's dice, prints it, and names it in any
failure: ``BBWEB_FUZZ_SEED=<seed>`` runs the same examples again."""

import hashlib
import os
import random
import time
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from bbweb.models import ApiToken
from matches.api.schema import SCHEMA
from matches.tests.dice import use_dice
from rules.engine import FairDice
from tools import autoplay

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = 25  # per operation
BUDGET_SECONDS = 50


def fuzz_seed() -> int:
    """``BBWEB_FUZZ_SEED`` when set (a failure's, to run it again), else a fresh one."""
    given_seed = os.environ.get("BBWEB_FUZZ_SEED", "").strip()
    return int(given_seed) if given_seed else random.SystemRandom().randrange(2**32)


def test_schemathesis_finds_no_server_error_and_no_schema_violation(
    live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = fuzz_seed()
    again = (
        f"fuzz seed {drawn}; to run these examples again: BBWEB_FUZZ_SEED={drawn} "
        ".venv/bin/python -m pytest matches/tests/test_api_fuzz.py"
    )
    print(again)
    dice_seed = hashlib.sha256(f"bbweb-fuzz-{drawn}".encode()).digest()
    use_dice(monkeypatch, lambda match: FairDice(dice_seed, "fuzz"))  # the match, as it played
    match = autoplay.demo_match()
    captain = match.home_team.captain
    token = ApiToken.issue(captain)
    schema = schemathesis.openapi.from_dict(SCHEMA)
    started = time.monotonic()
    calls: list[int] = []
    failures: list[str] = []

    def fuzz(operation: Any) -> None:
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @seed(drawn)
        @given(case=operation.as_strategy())
        def call(case: Any) -> None:
            if time.monotonic() - started > BUDGET_SECONDS:
                return
            if "id" in (case.path_parameters or {}) and len(calls) % 2 == 0:
                case.path_parameters["id"] = match.pk  # half the calls reach the real match
            headers = {"Authorization": f"Bearer {token}"}
            response = case.call(base_url=live_server.url, headers=headers)
            calls.append(response.status_code)
            try:
                case.validate_response(
                    response,
                    checks=[
                        not_a_server_error,
                        response_schema_conformance,
                        content_type_conformance,
                    ],
                )
            except (FailureGroup, Failure) as failure:  # all are reported below
                failures.append(f"{operation.label}: {failure}")

        call()

    for result in schema.get_all_operations():
        fuzz(result.ok())  # type: ignore[union-attr]  # an invalid schema fails here, loudly

    answers = hashlib.sha256(repr(calls).encode()).hexdigest()[:12]  # the same for a seed again
    print(
        f"schemathesis: {len(calls)} requests, {sum(c >= 500 for c in calls)} server errors, "
        f"answers {answers}"
    )
    assert calls and time.monotonic() - started < 60, again
    assert not [c for c in calls if c >= 500], again
    assert not failures, "\n\n".join([again, *failures[:5]])
