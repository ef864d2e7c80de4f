"""The game API of API.md through Django's test client (token auth), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from events.models import Event, Stream
from events.states import state_cache
from tests.events.conftest import client_for

pytestmark = pytest.mark.django_db


def url(stream: Stream, tail: str = "") -> str:
    return f"/api/v1/streams/{stream.pk}{tail}"


def post_move(client: Any, stream: Stream, body: Any, key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url(stream, "/moves"), data, content_type="application/json", **headers)


def first_legal(client: Any, stream: Stream) -> tuple[dict[str, Any], int]:
    view = client.get(url(stream, "/view")).json()
    return view["legal_moves"][0], view["version"]


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert body["error"] == code
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return body


def test_token_from_username_and_password(players: list[User]) -> None:
    client = client_for(None)
    response = client.post(
        "/api/v1/auth/token", {"username": "player0", "password": "pw-player0"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    stream_client = client.get("/api/v1/games")
    assert stream_client.status_code == 200
    bad = client_for(None).post(
        "/api/v1/auth/token", {"username": "player0", "password": "nope"}, format="json"
    )
    assert_error(bad, 400, "invalid_credentials")


def test_games_lists_the_registered_games(db: None) -> None:
    games = {g["id"]: g for g in client_for(None).get("/api/v1/games").json()}
    toy = games["toy-draw"]
    assert (toy["min_players"], toy["max_players"], toy["editions"]) == (2, 4, ["basic", "other"])
    assert toy["options"]["properties"]["turns"]["default"] == 12


def test_organisers_open_streams_and_players_cannot(
    players: list[User], organiser: User, arbiter: User
) -> None:
    body = {"game": "toy-draw", "seats": ["player0", "player1"], "options": {"turns": 4}}
    response = client_for(organiser).post("/api/v1/streams", body, format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["status"] == "live"
    assert created["version"] == 1
    assert created["seats"] == ["player0", "player1"]
    assert created["options"] == {"turns": 4}
    assert created["edition"] == "basic"
    assert len(created["seed_commitment"]) == 64
    assert "seed" not in created
    assert client_for(arbiter).post("/api/v1/streams", body, format="json").status_code == 201
    assert_error(
        client_for(players[0]).post("/api/v1/streams", body, format="json"), 403, "forbidden"
    )
    assert_error(
        client_for(organiser).post("/api/v1/streams", {**body, "seats": ["ghost"]}, format="json"),
        400, "unknown_player",
    )  # fmt: skip
    assert_error(
        client_for(organiser).post("/api/v1/streams", {**body, "options": {"x": 1}}, format="json"),
        422, "invalid_options",
    )  # fmt: skip
    assert_error(
        client_for(organiser).post("/api/v1/streams", {**body, "game": "go"}, format="json"),
        400, "unknown_game",
    )  # fmt: skip
    assert Stream.objects.count() == 2


def test_view_per_seat_and_legal_moves_only_for_the_seat_to_act(
    open_stream: Callable[..., Stream], players: list[User], outsider: User
) -> None:
    stream = open_stream()
    mine = client_for(players[0]).get(url(stream, "/view")).json()
    assert (mine["seat"], mine["to_act"], mine["version"]) == (0, [0], 1)
    assert len(mine["view"]["hand"]) == 3
    assert mine["legal_moves"]
    other = client_for(players[1]).get(url(stream, "/view")).json()
    assert other["seat"] == 1
    assert "legal_moves" not in other
    spectator = client_for(outsider).get(url(stream, "/view")).json()
    assert spectator["seat"] is None
    assert spectator["view"]["hand"] is None
    assert "seat_views" not in spectator
    anonymous = client_for(None).get(url(stream, "/view"))
    assert anonymous.status_code == 200
    assert anonymous.json()["view"]["hand"] is None


def test_a_move_round_trip(open_stream: Callable[..., Stream], players: list[User]) -> None:
    stream = open_stream()
    client = client_for(players[0])
    move, version = first_legal(client, stream)
    response = post_move(client, stream, {"move": move, "expected_version": version}, key="a")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["version"] == 2
    event = body["event"]
    assert (event["seq"], event["type"], event["seat"]) == (2, "MoveMade", 0)
    assert event["payload"]["move"] == move
    assert "data" in event["payload"]["effects"][0]  # the card drawn, shown to its seat
    detail = client.get(url(stream)).json()
    assert detail["version"] == 2
    assert detail["head_hash"] == event["hash"]


def test_idempotent_retries_return_the_first_answer(
    open_stream: Callable[..., Stream], players: list[User]
) -> None:
    stream = open_stream()
    client = client_for(players[0])
    move, version = first_legal(client, stream)
    body = {"move": move, "expected_version": version}
    first = post_move(client, stream, body, key="same")
    again = post_move(client, stream, json.dumps(body, indent=2), key="same")
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    other = post_move(client, stream, {**body, "expected_version": 2}, key="same")
    assert_error(other, 409, "idempotency_conflict")
    assert Event.objects.filter(stream=stream).count() == 2


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{not json", 400, "malformed_json"),
        ('{"move": NaN, "expected_version": 1}', 400, "malformed_json"),
        ("[]", 400, "invalid"),
        ({"expected_version": 1}, 400, "invalid"),
        ({"move": {"type": "play", "card": 1}}, 400, "invalid"),
        ({"move": {"type": "play", "card": 1}, "expected_version": "one"}, 400, "invalid"),
        ({"move": {"type": "teleport"}, "expected_version": 1}, 400, "bad_move"),
        ({"move": {"type": "play"}, "expected_version": 1}, 400, "bad_move"),
        ({"move": {"type": "play", "card": "x"}, "expected_version": 1}, 400, "bad_move"),
        ({"move": "play", "expected_version": 1}, 400, "bad_move"),
        ({"move": {"type": "play", "card": 99}, "expected_version": 1}, 422, "illegal_move"),
        ({"move": {"type": "play", "card": 1}, "expected_version": 0}, 409, "version_conflict"),
        ({"move": {"type": "play", "card": 1}, "expected_version": 7}, 409, "version_conflict"),
        ({"move": {"type": "play", "card": 1}, "expected_version": -1}, 400, "invalid"),
    ],
)
def test_bad_input_is_a_4xx_with_the_contract_body_and_nothing_stored(
    open_stream: Callable[..., Stream], players: list[User], body: Any, status: int, code: str
) -> None:
    stream = open_stream()
    response = post_move(client_for(players[0]), stream, body)
    error = assert_error(response, status, code)
    if code == "version_conflict":
        assert error["current_version"] == 1
    assert Event.objects.filter(stream=stream).count() == 1


def test_wrong_seat_and_strangers_are_forbidden(
    open_stream: Callable[..., Stream], players: list[User], outsider: User, arbiter: User
) -> None:
    stream = open_stream()
    move, version = first_legal(client_for(players[0]), stream)
    body = {"move": move, "expected_version": version}
    assert_error(post_move(client_for(players[1]), stream, body), 403, "not_your_turn")
    assert_error(post_move(client_for(outsider), stream, body), 403, "forbidden")
    assert_error(post_move(client_for(arbiter), stream, body), 403, "forbidden")
    assert post_move(client_for(None), stream, body).status_code in {401, 403}
    assert Event.objects.filter(stream=stream).count() == 1


def test_huge_bodies_are_a_413(open_stream: Callable[..., Stream], players: list[User]) -> None:
    stream = open_stream()
    padding = "x" * (300 * 1024)
    body = {"move": {"type": "play", "card": 1, "pad": padding}, "expected_version": 1}
    assert_error(post_move(client_for(players[0]), stream, body), 413, "too_large")
    assert Event.objects.filter(stream=stream).count() == 1


def test_unknown_streams_are_a_404(players: list[User]) -> None:
    missing = "/api/v1/streams/00000000-0000-0000-0000-000000000000"
    for tail in ("", "/view", "/events", "/verify", "/audit?at=1"):
        assert_error(client_for(players[0]).get(missing + tail), 404, "not_found")
    body = {"move": {"type": "play", "card": 1}, "expected_version": 1}
    response = client_for(players[0]).post(missing + "/moves", body, format="json")
    assert_error(response, 404, "not_found")


def play_to_the_end(stream: Stream, players: list[User]) -> None:
    clients = [client_for(user) for user in players[: stream.players]]
    while True:
        view = clients[0].get(url(stream, "/view")).json()
        if view["status"] == "finished":
            return
        client = clients[view["to_act"][0]]
        move, version = first_legal(client, stream)
        response = post_move(client, stream, {"move": move, "expected_version": version})
        assert response.status_code == 201, response.content


def test_a_finished_stream_is_a_410_and_reveals_result_and_seed(
    open_stream: Callable[..., Stream], players: list[User], outsider: User
) -> None:
    stream = open_stream(turns=3)
    play_to_the_end(stream, players)
    stream.refresh_from_db()
    body = {"move": {"type": "play", "card": 1}, "expected_version": stream.version}
    assert_error(post_move(client_for(players[0]), stream, body), 410, "finished")
    detail = client_for(outsider).get(url(stream)).json()
    assert detail["status"] == "finished"
    assert detail["seed"] == stream.seed
    assert detail["result"]["ranks"]
    assert len(detail["result"]["scores"]) == 2
    events = client_for(outsider).get(url(stream, "/events")).json()
    assert events[-1]["type"] == "GameEnded"
    assert events[-1]["payload"]["seed"] == stream.seed
    assert client_for(outsider).get(url(stream, "/audit?at=2")).status_code == 200
    verify = client_for(None).get(url(stream, "/verify")).json()
    assert verify["ok"] is True
    assert set(verify["checks"]) == {
        "engine_version", "hash_chain", "seed_commitment", "replay", "result",
    }  # fmt: skip


def test_events_before_the_end_withhold_other_seats_secrets(
    open_stream: Callable[..., Stream], players: list[User], outsider: User, arbiter: User
) -> None:
    stream = open_stream(turns=6)
    client = client_for(players[0])
    for _ in range(2):
        move, version = first_legal(client, stream)
        post_move(client, stream, {"move": move, "expected_version": version})
        other = client_for(players[1])
        move, version = first_legal(other, stream)
        post_move(other, stream, {"move": move, "expected_version": version})
    mine = client.get(url(stream, "/events")).json()
    assert [e["seq"] for e in mine] == [1, 2, 3, 4, 5]
    shuffle, deal0, deal1 = mine[0]["payload"]["effects"]
    assert "data" not in shuffle
    assert "data" in deal0
    assert "data" not in deal1
    for event in mine[1:]:
        seen = "data" in event["payload"]["effects"][0]
        assert seen == (event["seat"] == 0)
    assert stream.seed not in json.dumps(mine)
    full = client_for(arbiter).get(url(stream, "/events")).json()
    assert all("data" in e for e in full[0]["payload"]["effects"])
    after = client.get(url(stream, "/events?after=3")).json()
    assert [e["seq"] for e in after] == [4, 5]
    assert_error(client_for(outsider).get(url(stream, "/events")), 403, "forbidden")
    assert_error(client.get(url(stream, "/audit?at=2")), 403, "forbidden")
    assert_error(client_for(arbiter).get(url(stream, "/audit?at=99")), 400, "invalid")
    assert_error(client_for(arbiter).get(url(stream, "/audit")), 400, "invalid")
    audit = client_for(arbiter).get(url(stream, "/audit?at=3")).json()
    assert audit["hash_ok"] is True
    assert audit["state"]["rng"]["seed"] == stream.seed
    assert client_for(arbiter).get(url(stream, "/view")).json()["seat_views"][1]["hand"]


def test_hot_endpoints_stay_within_a_query_budget(
    open_stream: Callable[..., Stream], players: list[User], django_assert_max_num_queries: Any
) -> None:
    stream = open_stream()
    client = client_for(players[0])
    move, version = first_legal(client, stream)
    with django_assert_max_num_queries(9):
        response = post_move(client, stream, {"move": move, "expected_version": version}, "q")
    assert response.status_code == 201
    with django_assert_max_num_queries(4):
        assert client.get(url(stream, "/view")).status_code == 200


def test_session_auth_works_for_the_browser(
    open_stream: Callable[..., Stream], players: list[User]
) -> None:
    stream = open_stream()
    client = APIClient()
    client.force_login(players[0])
    assert client.get(url(stream, "/view")).json()["seat"] == 0


def test_moves_use_the_state_cache_or_the_snapshot(
    toy: Any, open_stream: Callable[..., Stream], players: list[User]
) -> None:
    stream = open_stream()
    client = client_for(players[0])
    move, version = first_legal(client, stream)

    state_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        post_move(client, stream, {"move": move, "expected_version": version})
    assert not any("FROM \"events_event\"" in q["sql"] and "ORDER BY" in q["sql"]
                   for q in queries.captured_queries)  # fmt: skip


@pytest.mark.parametrize(
    "body",
    [
        '{"move": {"type": "play", "card": 9127963316691768}, "expected_version": 1}',
        '{"move": {"type": "play", "card": "\\udb2e"}, "expected_version": 1}',
        '{"move": {"type": "play", "card": 1, "x\\udc58": 1}, "expected_version": 1}',
    ],
)
def test_json_without_a_canonical_form_is_a_400(
    open_stream: Callable[..., Stream], players: list[User], body: str
) -> None:
    stream = open_stream()
    error = assert_error(post_move(client_for(players[0]), stream, body), 400, "malformed_json")
    assert "JSON" in error["detail"] or "Unicode" in error["detail"]
    assert Event.objects.filter(stream=stream).count() == 1


def test_options_without_a_canonical_form_are_refused(organiser: User, players: list[User]) -> None:
    body = {"game": "toy-draw", "seats": ["player0", "player1"], "options": {"turns": 2**60}}
    response = client_for(organiser).post("/api/v1/streams", body, format="json")
    assert response.status_code in {400, 422}
    assert not Stream.objects.exists()
