"""Fixtures of the ratings tests: the toy game registered, players, an arbiter, finished games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.events.conftest import toy  # noqa: F401  (the same autouse toy game, shared)
from tests.ratings.games import play_to_end
from tests.users import make_user


@pytest.fixture
def seated(db: None) -> list[User]:
    return [make_user(f"seated{i}") for i in range(6)]


@pytest.fixture
def arbiter(db: None) -> User:
    return make_user("arbiter", groups=("arbiters",))


@pytest.fixture
def finished(seated: list[User]) -> Callable[..., Any]:
    """Play a toy game to the end among ``seated[first:first + n]``; returns the stream."""

    def play(n: int = 4, *, first: int = 0, turns: int = 8, bot_seed: str = "bots") -> Any:
        return play_to_end(seated[first : first + n], turns=turns, bot_seed=bot_seed)

    return play
