"""A schemathesis run over the game API's part of /api/schema/, against the live server.

Bounded: a few generated requests per operation, authenticated as a seated player, aimed at
a real stream (generated stream ids would only meet 404s). Any 500 fails the test. (schemathesis' pytest plugin does not
run under this pytest; the operations' hypothesis strategies are driven directly.)
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from events.services import stream_open
from tests.users import token_for

pytestmark = [pytest.mark.services("postgres"), pytest.mark.django_db(transaction=True)]

GAME_API = r"^/api/v1/(auth/token|games|streams)"
EXAMPLES = 15


def test_no_input_makes_the_game_api_fail_with_a_500(live_server: Any, players: list[User]) -> None:
    stream = stream_open(game_id="toy-draw", seats=players[:2])
    token = token_for(players[0])
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")
    results: list[Any] = list(schema.include(path_regex=GAME_API).get_all_operations())
    operations = [result.ok() for result in results]
    assert len(operations) >= 9, [op.label for op in operations]
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES, deadline=None, database=None,
            suppress_health_check=list(HealthCheck),
        )  # fmt: skip
        def no_server_error(case: Any) -> None:
            if case.path_parameters and "stream_id" in case.path_parameters:
                case.path_parameters["stream_id"] = str(stream.pk)  # reach past the 404
            case.call_and_validate(
                base_url=live_server.url,
                headers={"Authorization": f"Token {token}"},
                checks=[not_a_server_error],
            )

        no_server_error()
