"""Random games (2,000, 2–4 players, with and without abatement) with invariants after every move."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.blazon import GAME
from engine.blazon.cards import EDITIONS
from engine.blazon.shield import TABLES
from engine.blazon.state import OVER, SPACES, BlazonState
from engine.bots import GreedyBot, RandomBot, play_game
from engine.core import Rng

TABLE = TABLES["reconstructed-1"]
EDITION = EDITIONS["reconstructed-1"]
ALL_CARDS = sorted(EDITION.cards)
TINCTURE_NAME = {n: c.name for n, c in EDITION.cards.items() if c.category == "tincture"}
GAMES = 2000
CHUNKS = 8


def cards_on_table(state: BlazonState) -> list[int]:
    found = [c for pile in (*state.decks.values(), *state.discards.values()) for c in pile]
    found += [c for c in state.display if c]
    for player in state.players:
        found += player.hand
        found += [c for c in player.shield if c]
    return found


def check_cards(state: BlazonState) -> None:
    cards = cards_on_table(state)
    assert len(cards) == len(ALL_CARDS) == len(set(cards)), "a card was lost or duplicated"
    for slot, card in enumerate(state.display):
        assert not card or EDITION.cards[card].category == ("device" if slot < 4 else "tincture")


def check_shield(state: BlazonState, seat: int) -> None:
    """The shield of the seat that just moved (no move changes another seat's shield)."""
    player = state.players[seat]
    for space in range(SPACES):
        card = player.shield[space]
        if card and space != player.abated_space:
            assert TABLE.fits[card, space, player.aligns[space]], "a card off its symbol"
        if card:
            assert TABLE.same_kind[card, space, player.aligns[space]]
    for group in TABLE.board.tincture_groups:
        tinctures = [TINCTURE_NAME[c] for s in group if (c := player.shield[s]) in TINCTURE_NAME]
        assert len(tinctures) == len(set(tinctures)), "identical tinctures in a group"
    if not state.pending_row or state.turn != seat:
        for members in TABLE.board.rows.values():
            aligns = {
                player.aligns[s] for s in members if player.shield[s] and s != player.abated_space
            }
            assert len(aligns) <= 1, "a row left in two alignments at the end of a turn"


def check_tokens(state: BlazonState, seat: int) -> None:
    """Token counts, and the distinction points and prestige of the seat that just moved."""
    assert state.herald_pile >= 0
    assert state.herald_pile + sum(p.heralds for p in state.players) <= 20
    assert sum(p.animals for p in state.players) == sum(1 for s in state.milestones if s >= 0)
    player = state.players[seat]
    points = 0
    for ident, seats in zip(state.distinctions, state.awards, strict=True):
        values = EDITION.distinction_by_id[ident].awards(len(state.players))
        assert len(seats) == len(set(seats)) <= len(values)
        if seat in seats:
            points += values[seats.index(seat)]
    assert player.distinction_points == points
    assert len(player.markers) == len(set(player.markers))
    assert player.prestige >= sum(TABLE.prestige[c] for c in player.shield if c)  # covered ones too
    assert player.abated_space < 0 or not player.abatement


def check(state: BlazonState, seat: int) -> None:
    check_cards(state)
    check_shield(state, seat)
    check_tokens(state, seat)


def run_game(index: int) -> BlazonState:
    players = 2 + index % 3
    abatement = index % 2 == 1
    state = GAME.new_game(players=players, seed=f"prop-{index}", options={"abatement": abatement})
    rng = Rng(f"prop-bot-{index}")
    for seat in range(players):
        check(state, seat)
    for _ in range(5000):
        seats = GAME.to_act(state)
        if not seats:
            break
        moves = GAME.legal_moves(state, seats[0])
        assert moves
        GAME.apply_in_place(state, seats[0], rng.choice(moves))
        check(state, seats[0])
        if state.turn != seats[0]:
            assert len(state.players[seats[0]].hand) <= 7, "a turn ended above the hand limit"
    assert state.phase == OVER, "the game did not end"
    result = GAME.result(state)
    assert result is not None
    assert min(result.ranks) == 1
    assert state.trigger
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    triggers = Counter(
        run_game(index).trigger for index in range(chunk, GAMES, CHUNKS)
    )  # fmt: skip
    assert triggers["prestige"] > 0


def test_greedy_bots_beat_random_bots() -> None:
    wins = 0
    for k in range(20):
        played = play_game(GAME, [GreedyBot(f"g{k}"), RandomBot(f"r{k}")], seed=f"gr-{k}")
        result = GAME.result(played.state)  # type: ignore[arg-type]
        assert result is not None
        wins += result.ranks[0] == 1
    assert wins >= 15
