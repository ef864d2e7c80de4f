"""legal_moves is exact with the abatement option and during row changes (beyond the contract)."""

from __future__ import annotations

import itertools

import pytest

from engine.blazon import GAME
from engine.blazon.moves import Draw, Pay, PayCards, Place
from engine.blazon.state import ALIGNS, DECKS, SPACES, BlazonState
from engine.core import IllegalMove, Move, Rng


def accepted(state: BlazonState, seat: int, move: Move) -> bool:
    try:
        GAME.check(state, seat, move)
    except IllegalMove:
        return False
    return True


def every_candidate(state: BlazonState, seat: int) -> list[Move]:
    """Every placement, payment (card by card, or in one move with up to 3 cards) and draw a
    player could try with the cards in hand."""
    hand = state.players[seat].hand
    places: list[Move] = [
        Place(card, space, align, herald, abate)
        for card, space, align, herald, abate in itertools.product(
            hand, range(SPACES), ALIGNS, (False, True), (False, True)
        )
    ]
    payments: list[Move] = [
        PayCards(cards)
        for size in (1, 2, 3)
        for cards in itertools.combinations(sorted(hand), size)
    ]
    return [*places, *(Pay(card) for card in hand), *payments, *(Draw(deck) for deck in DECKS)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_placement_is_legal_exactly_when_listed(players: int) -> None:
    pending_seen = 0
    for k in range(3):
        state = GAME.new_game(
            players=players, seed=f"exact-{players}-{k}", options={"abatement": True}
        )
        rng = Rng(f"exact-bot-{players}-{k}")
        step = 0
        while seats := GAME.to_act(state):
            seat = seats[0]
            legal = GAME.legal_moves(state, seat)
            if step % 3 == 0 or state.pending_row:
                pending_seen += bool(state.pending_row)
                listed = set(legal)
                for move in every_candidate(state, seat):
                    assert accepted(state, seat, move) == (move in listed), move
                for move in legal:
                    GAME.apply(state, seat, move)  # plays without error on a copy
            GAME.apply_in_place(state, seat, rng.choice(legal))
            step += 1
    assert pending_seen > 0  # row changes happened and were checked
