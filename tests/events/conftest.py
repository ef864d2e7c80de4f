"""Fixtures of the event store's tests: the toy game registered, users in each role, clients."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from engine import registry
from events.models import Stream
from events.services import stream_append_move, stream_open
from events.states import current_state, state_cache
from tests.events import toy_game
from tests.users import make_user as _make_user
from tests.users import token_for


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """Hash test passwords cheaply: the default hasher takes most of a second per user here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def toy() -> Iterator[toy_game.ToyDraw]:
    """The toy game in the engine registry for each test; the state cache starts empty."""
    state_cache.clear()
    with toy_game.registered() as game:
        yield game
    state_cache.clear()


@pytest.fixture
def real_games_only(toy: toy_game.ToyDraw) -> None:
    """The registry without the toy game, for a test whose demo plays every registered game
    (the server and worker processes know only the real ones). Popped, not removed with
    ``monkeypatch.delitem``: that undo runs after this module's ``toy`` teardown and would put
    the toy back for the rest of the session, where a later demo played it and the worker,
    which cannot replay it, opened automatic disputes on those games."""
    registry._registry.pop(toy.id, None)


def make_user(username: str, *, groups: tuple[str, ...] = (), staff: bool = False) -> User:
    """A user whose password is ``pw-<username>`` (the API tests log in with it)."""
    return _make_user(username, groups=groups, staff=staff, password="pw-" + username)


@pytest.fixture
def players(db: None) -> list[User]:
    return [make_user(f"player{i}") for i in range(4)]


@pytest.fixture
def arbiter(db: None) -> User:
    return make_user("arbiter", groups=("arbiters",))


@pytest.fixture
def organiser(db: None) -> User:
    return make_user("organiser", groups=("organisers",))


@pytest.fixture
def outsider(db: None) -> User:
    return make_user("outsider")


def client_for(user: User | None) -> APIClient:
    """An API client authenticated with the user's token (anonymous for None)."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def open_stream(players: list[User]) -> Callable[..., Stream]:
    """Open a toy stream for the first ``n`` players."""

    def open_(n: int = 2, turns: int = 12, **kwargs: Any) -> Stream:
        return stream_open(
            game_id="toy-draw", seats=players[:n], options={"turns": turns}, **kwargs
        )

    return open_


def play_one(toy: Any, stream: Stream, *, key: str | None = None) -> Any:
    """Play the first legal move of the seat to act; returns the outcome.

    ``stream`` is read again before the move and after it (its version, whether it finished).
    """
    stream.refresh_from_db()
    state = current_state(stream)
    seat = toy.to_act(state)[0]
    move = toy.legal_moves(state, seat)[0].to_json()
    outcome = stream_append_move(
        stream_id=stream.pk, seat=seat, move=move, expected_version=stream.version,
        idempotency_key=key,
    )  # fmt: skip
    stream.refresh_from_db()
    return outcome
