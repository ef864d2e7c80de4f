"""Bad input to the game API is a 4xx with a sentence, never a 500 (issue #12).

Each case here once answered 500 (the debug page): superscript digits pass ``str.isdigit`` but
not ``int``; JSON nested thousands deep makes Python's parser raise RecursionError; JSON nested
hundreds deep passed the parser and then broke the engine or the canonical JSON.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from events.models import Event, Stream
from tests.api import error_body
from tests.events.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "value", ["²", "¹²", "١٢", "12 ", " 1", "+1", "-1", "1_0", "0x1", "1" * 40]
)
@pytest.mark.parametrize("name", ["after", "at"])
def test_a_query_number_that_is_not_ascii_digits_is_a_400(
    open_stream: Callable[..., Stream], players: list[User], arbiter: User, name: str, value: str
) -> None:
    stream = open_stream()
    path = "events" if name == "after" else "audit"
    response = client_for(arbiter).get(f"/api/v1/streams/{stream.pk}/{path}", {name: value})
    body = error_body(response, 400)
    assert name in body["detail"]


def _nested(depth: int, *, kind: str = "list") -> str:
    if kind == "list":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("depth", "kind"), [(5000, "list"), (100_000, "list"), (900, "object"), (33, "list")]
)
def test_a_move_nested_too_deep_is_a_400_and_appends_nothing(
    open_stream: Callable[..., Stream], players: list[User], depth: int, kind: str
) -> None:
    stream = open_stream()
    body = '{"move": ' + _nested(depth, kind=kind) + ', "expected_version": 1}'
    response = client_for(players[0]).post(
        f"/api/v1/streams/{stream.pk}/moves", body, content_type="application/json"
    )
    error_body(response, 400)
    assert response.json()["error"] in {"invalid", "malformed_json"}
    assert Event.objects.filter(stream=stream).count() == 1


def test_json_nested_past_the_parser_s_recursion_limit_is_malformed_json(
    open_stream: Callable[..., Stream], players: list[User]
) -> None:
    stream = open_stream()
    response = client_for(players[0]).post(
        f"/api/v1/streams/{stream.pk}/moves", _nested(100_000), content_type="application/json"
    )
    error_body(response, 400, "malformed_json")


def test_json_with_too_many_items_is_a_400(
    open_stream: Callable[..., Stream], players: list[User]
) -> None:
    stream = open_stream()
    body = '{"move": [' + ",".join(["0"] * 20_000) + '], "expected_version": 1}'
    response = client_for(players[0]).post(
        f"/api/v1/streams/{stream.pk}/moves", body, content_type="application/json"
    )
    error_body(response, 400, "invalid")


def test_a_nul_character_in_a_json_body_is_a_400(
    open_stream: Callable[..., Stream], players: list[User], organiser: User
) -> None:
    response = client_for(organiser).post(
        "/api/v1/streams",
        {"game": "toy-draw", "seats": ["player0", "player1"], "options": {"a\u0000": "b\u0000"}},
        format="json",
    )
    error_body(response, 400, "invalid")


def test_a_stream_path_that_is_not_a_uuid_is_a_json_404(players: list[User]) -> None:
    for path in ("/api/v1/streams/not-a-uuid", "/api/v1/streams/not-a-uuid/events"):
        error_body(client_for(players[0]).get(path), 404, "not_found")
