"""2,000 random games of 2–5 players, checking the table's invariants after every move."""

from __future__ import annotations

from collections import Counter

from engine.bots import RandomBot
from engine.treize_couronnes import GAME
from engine.treize_couronnes.cards import COLOURS, KINGS
from engine.treize_couronnes.state import CouronnesState

GAMES = 2000
DECK = sorted(KINGS["reconstructed-1"])


def check_invariants(state: CouronnesState) -> None:
    """What must hold after every move: nothing created or lost that the rules keep."""
    cards = [c for hand in state.hands for c in hand] + state.draw + state.discard + state.kings
    assert sorted(cards) == DECK, "every card is in exactly one place"
    assert all(hand == sorted(hand) for hand in state.hands)
    assert sum(state.crowns) + state.reserve_crowns == 65, "crowns are moved, never made"
    assert min(state.crowns) >= 0
    assert state.reserve_crowns >= 0
    on_king = 1 if state.guard_owner >= 0 else 0
    assert sum(state.guards) + state.reserve_guards + on_king == 4, "4 guards in all"
    held = Counter(c for tokens in state.blasons for c in tokens)
    assert all(held[c] + state.reserve_blasons[c] == 2 for c in COLOURS), "2 blasons a colour"
    assert all(state.tokens(s) <= 2 for s in range(state.players)), "2 tokens at most"
    assert set(state.revealed) <= set(state.hands[state.current]), "revealed cards stay in hand"
    gained = sum(state.law_crowns.values())
    assert gained >= sum(state.crowns) - sum(range(state.players)), "crowns come from laws"
    if state.phase == "over":
        assert state.winner >= 0 or state.turns >= state.max_turns
        assert state.pending == []
    else:
        assert max(state.crowns) < 13, "13 crowns end the game at once"
    if state.winner >= 0:
        assert state.crowns[state.winner] >= 13
        assert state.phase == "over"


def play_checked(players: int, seed: str, hidden: bool) -> CouronnesState:
    state = GAME.new_game(players=players, seed=seed, options={"hidden_crowns": hidden})
    bots = [RandomBot(f"{seed}/{s}") for s in range(players)]
    check_invariants(state)
    while seats := GAME.to_act(state):
        seat = seats[0]
        moves = GAME.legal_moves(state, seat)
        assert moves, "a seat to act always has a move"
        GAME.apply_in_place(state, seat, bots[seat].choose(GAME, state, seat, moves))
        check_invariants(state)
    return state


def test_property_2000_random_games_keep_every_invariant() -> None:
    ends: Counter[str] = Counter()
    for k in range(GAMES):
        state = play_checked(2 + k % 4, f"property-{k}", hidden=k % 5 == 0)
        result = GAME.result(state)
        assert result is not None
        assert min(result.ranks) == 1
        ends[str(result.details["ended_by"])] += 1
    assert sum(ends.values()) == GAMES
    assert ends["13 crowns"] > 0, "random games can be won"
