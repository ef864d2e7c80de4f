"""Shared helpers for the Les 7 Blasons tests: set a table up and play chosen cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import Move
from engine.sept_blasons import GAME
from engine.sept_blasons.moves import PlayCard
from engine.sept_blasons.state import POWER, SeptState, Token


def new_game(players: int = 5, seed: str = "t", leader: int = 0, **options: Any) -> SeptState:
    """A fresh game with a chosen first leader (the drawn one is overridden)."""
    state = GAME.new_game(players=players, seed=seed, options=options)
    state.leader = leader
    return state


def act(state: SeptState, move: Move) -> None:
    """Play ``move`` for the seat that must act now (validated like any move)."""
    seat = GAME.actor(state)
    assert seat is not None, "the game is over"
    GAME.apply_in_place(state, seat, move)


def play_cards(state: SeptState, ranks: Sequence[int]) -> None:
    """Each seat from the leader plays the card of the given rank (0 = malandrin)."""
    for rank in ranks:
        act(state, PlayCard(rank))


def first_legal(state: SeptState) -> Move:
    seat = GAME.actor(state)
    assert seat is not None
    move = GAME.legal_moves(state, seat)[0]
    act(state, move)
    return move


def resolve_until(state: SeptState, position: int) -> None:
    """Resolve powers with the first legal move until play position ``position`` is reached."""
    while state.phase == POWER and state.resolving < position:
        first_legal(state)


def legal(state: SeptState) -> list[Move]:
    seat = GAME.actor(state)
    assert seat is not None
    return GAME.legal_moves(state, seat)


def set_tokens(state: SeptState, fronts: Sequence[Sequence[tuple[int, bool]]],
               pile: Sequence[tuple[int, bool]] = ()) -> None:  # fmt: skip
    """Lay the tokens out by hand: ``(colour, face up)`` per slot (tests only)."""
    state.fronts = [[Token(c, up) for c, up in front] for front in fronts]
    state.pile = [Token(c, up) for c, up in pile]


def values(state: SeptState) -> list[int | None]:
    """The value each card of the current trick competes with (0 for ``*``)."""
    trick = state.trick
    return [None if c.value_from is None else trick[c.value_from].rank for c in trick]
