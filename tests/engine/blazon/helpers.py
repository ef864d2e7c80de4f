"""Helpers that build Blazon positions by moving real cards around (cards stay conserved)."""

from __future__ import annotations

from engine.blazon import GAME
from engine.blazon.cards import EDITIONS
from engine.blazon.state import ALIGNS, DECKS, BlazonState, PlayerState
from engine.core import Move

CARDS = EDITIONS["reconstructed-1"].cards
SPACE = {s.name: s.index for s in EDITIONS["reconstructed-1"].board.spaces}


def n(card_id: str) -> int:
    """The number of a card id (``"D074"`` → 74)."""
    number = int(card_id[1:])
    assert CARDS[number].id == card_id
    return number


def fresh(players: int = 2, *, abatement: bool = False, seed: str = "test") -> BlazonState:
    """A new game whose seat 0 is to play, hands emptied back into the decks."""
    state = GAME.new_game(players=players, seed=seed, options={"abatement": abatement})
    for player in state.players:
        for card in player.hand:
            state.decks[CARDS[card].category].insert(0, card)
        player.hand.clear()
    return state


def take(state: BlazonState, card: int) -> None:
    """Remove ``card`` from wherever it is (deck, discard, display, hand, shield)."""
    for pile in (*state.decks.values(), *state.discards.values()):
        if card in pile:
            pile.remove(card)
            return
    if card in state.display:
        state.display[state.display.index(card)] = 0
        return
    for player in state.players:
        if card in player.hand:
            player.hand.remove(card)
            return
        if card in player.shield:
            player.shield[player.shield.index(card)] = 0
            return
    raise AssertionError(f"card {card} is nowhere")


def give(state: BlazonState, seat: int, *ids: str) -> list[int]:
    """Put these cards in ``seat``'s hand; returns their numbers."""
    numbers = [n(i) for i in ids]
    for number in numbers:
        take(state, number)
        state.players[seat].hand.append(number)
    return numbers


def put(state: BlazonState, seat: int, card_id: str, space: str, align: str = "top") -> int:
    """Put a card straight onto ``seat``'s shield (setting up a position, no scoring)."""
    number = n(card_id)
    take(state, number)
    player: PlayerState = state.players[seat]
    player.shield[SPACE[space]] = number
    player.aligns[SPACE[space]] = ALIGNS.index(align)
    return number


def show(state: BlazonState, *ids: str) -> None:
    """Set the display: device ids fill slots 0-3, tincture ids slots 4-5 (old cards to decks)."""
    devices = [i for i in ids if i.startswith("D")]
    tinctures = [i for i in ids if i.startswith("T")]
    for slot, card in enumerate(state.display):
        if card:
            state.decks[CARDS[card].category].insert(0, card)
            state.display[slot] = 0
    for slot, card_id in zip((0, 1, 2, 3), devices, strict=False):
        take(state, n(card_id))
        state.display[slot] = n(card_id)
    for slot, card_id in zip((4, 5), tinctures, strict=False):
        take(state, n(card_id))
        state.display[slot] = n(card_id)


def play(state: BlazonState, *moves: Move, seat: int | None = None) -> BlazonState:
    """Apply moves in place for the seat to act (or ``seat``) and return the state."""
    for move in moves:
        GAME.apply_in_place(state, state.turn if seat is None else seat, move)
    return state


def all_cards(state: BlazonState) -> list[int]:
    """Every card number somewhere on the table (for conservation checks)."""
    found = [c for deck in DECKS for c in state.decks[deck] + state.discards[deck]]
    found += [c for c in state.display if c]
    for player in state.players:
        found += player.hand + [c for c in player.shield if c]
    return found
