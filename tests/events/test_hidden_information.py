"""Hidden information through the API, for every game the engine has (and the toy game).

A game is played through the API by random choices among the legal moves it lists. Every few
steps, for each viewer, markers are planted in everything hidden from that viewer (the game's
``testing.plant_hidden_markers``) and in the seed, the planted state is put in the store's state
cache at the stream's version, and the viewer's ``/view`` and ``/events`` must show none of them.
``/events`` must also withhold every effect's data and every move's hidden part that belong to
other seats.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from django.contrib.auth.models import User

import engine
from engine.core import Game, Rng
from engine.registry import GAME_MODULES
from events.models import Stream
from events.services import stream_open
from events.states import current_state, state_cache
from tests.events import toy_game
from tests.events.conftest import client_for

pytestmark = pytest.mark.django_db

SEED_MARKER = "SEED-MARKER-7d2e"
MAX_STEPS = 40
CHECK_EVERY = 4


def _game_ids() -> list[str]:
    return sorted({game.id for game in engine.games()} | {toy_game.GAME.id})


def game_testing_module(game: Game[Any]) -> Any:
    if game is toy_game.GAME:
        return toy_game
    module = next(m for m in GAME_MODULES if importlib.import_module(m).GAME is game)
    return importlib.import_module(f"{module}.testing")


def plant(stream: Stream, game: Game[Any], viewer: int | None) -> list[str]:
    """Markers in what ``viewer`` may not see, in the state the API will read next."""
    planted = game.clone(current_state(stream))
    planted.rng.seed = SEED_MARKER
    markers = [*game_testing_module(game).plant_hidden_markers(planted, viewer), SEED_MARKER]
    state_cache.put(
        stream.pk, version=stream.version, engine_version=game.engine_version, state=planted
    )
    return markers


def check_view(stream: Stream, game: Game[Any], client: Any, viewer: int | None) -> int:
    markers = plant(stream, game, viewer)
    text = client.get(f"/api/v1/streams/{stream.pk}/view").content.decode()
    leaked = [marker for marker in markers if marker in text]
    assert not leaked, f"{game.id}: /view for seat {viewer} shows hidden {leaked}"
    state_cache.clear()
    return len(markers)


def check_events(stream: Stream, client: Any, viewer: int) -> None:
    response = client.get(f"/api/v1/streams/{stream.pk}/events")
    assert response.status_code == 200
    text = response.content.decode()
    assert stream.seed not in text, "the sealed seed leaked through /events"
    stored = {e.seq: e for e in stream.events.all()}
    for shown in response.json():
        original = stored[shown["seq"]].payload
        for effect, record in zip(shown["payload"].get("effects", []), original.get("effects", []), strict=True):  # fmt: skip
            visible = record["visible_to"] is None or viewer in record["visible_to"]
            assert ("data" in effect) == visible, f"event {shown['seq']}: {record['text']}"
        if shown["type"] == "MoveMade" and shown["seat"] != viewer:
            assert shown["payload"]["move"] == original["public_move"]


@pytest.mark.parametrize("game_id", _game_ids())
def test_players_and_spectators_see_no_hidden_information(
    game_id: str, players: list[User]
) -> None:
    game = engine.get(game_id)
    seated = [
        *players,
        *(User.objects.create_user(f"extra{i}") for i in range(game.min_players - len(players))),
    ][: game.min_players]
    stream = stream_open(game_id=game_id, seats=seated)
    clients = [client_for(user) for user in seated]
    spectator = client_for(None)
    chooser = Rng(f"hidden-{game_id}")
    checked = 0
    for step in range(MAX_STEPS):
        stream.refresh_from_db()
        if stream.is_finished:
            break
        if step % CHECK_EVERY == 0:
            for seat, client in enumerate(clients):
                checked += check_view(stream, game, client, seat)
                check_events(stream, client, seat)
            checked += check_view(stream, game, spectator, None)
        view = clients[0].get(f"/api/v1/streams/{stream.pk}/view").json()
        seat = view["to_act"][0]
        legal = clients[seat].get(f"/api/v1/streams/{stream.pk}/view").json()["legal_moves"]
        body = {"move": chooser.choice(legal), "expected_version": stream.version}
        response = clients[seat].post(
            f"/api/v1/streams/{stream.pk}/moves", json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 201, response.content
    assert checked > 0
