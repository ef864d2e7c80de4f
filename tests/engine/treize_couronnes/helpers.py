"""Build a 13 Couronnes table in a chosen position, and play moves on it, for unit tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import IllegalMove, Move
from engine.treize_couronnes import GAME
from engine.treize_couronnes.cards import COLOURS, KINGS
from engine.treize_couronnes.state import CouronnesState

EDITION = "reconstructed-1"
ALL_CARDS = sorted(KINGS[EDITION])


def table(
    players: int = 2,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    kings: Sequence[str] = ("B03",),
    discard: Sequence[str] = (),
    draw: Sequence[str] | None = None,
    crowns: Sequence[int] | None = None,
    guards: Sequence[int] | None = None,
    blasons: Sequence[Sequence[str]] | None = None,
    reserve_crowns: int | None = None,
    reserve_guards: int | None = None,
    current: int = 0,
    announced: str = "",
    guard_owner: int = -1,
    max_turns: int = 200,
    hidden_crowns: bool = False,
    engine_version: str | None = None,
) -> CouronnesState:
    """A state with exactly these cards and tokens; every other card is in the draw pile.
    ``engine_version``: a game set up under that (older) version, as a replay sets one up."""
    state = GAME.new_game(
        players=players,
        seed="unit",
        options={"max_turns": max_turns, "hidden_crowns": hidden_crowns},
        engine_version=engine_version,
    )
    state.effects = []
    state.hands = [sorted(h) for h in (hands or [[] for _ in range(players)])]
    state.kings = list(kings)
    state.discard = list(discard)
    placed_list = [c for h in state.hands for c in h] + list(kings) + list(discard)
    placed = set(placed_list)
    assert len(placed) == len(placed_list), f"a card is placed twice in {placed_list}"
    state.draw = list(draw) if draw is not None else [c for c in ALL_CARDS if c not in placed]
    state.crowns = list(crowns or [0] * players)
    state.guards = list(guards or [0] * players)
    state.blasons = [sorted(b) for b in (blasons or [[] for _ in range(players)])]
    in_play_guards = sum(state.guards) + (guard_owner >= 0)
    state.reserve_crowns = 65 - sum(state.crowns) if reserve_crowns is None else reserve_crowns
    state.reserve_guards = 4 - in_play_guards if reserve_guards is None else reserve_guards
    state.reserve_blasons = {c: 2 - sum(b.count(c) for b in state.blasons) for c in COLOURS}
    state.current = current
    state.announced = announced
    state.guard_owner = guard_owner
    return state


def play(state: CouronnesState, *moves: Move, seat: int | None = None) -> CouronnesState:
    """Apply ``moves`` in order (by the seat to act, or ``seat``) and return the new state."""
    for move in moves:
        state = GAME.apply(state, state.current if seat is None else seat, move)
    return state


def refused(state: CouronnesState, move: Move, seat: int | None = None) -> str:
    """The reason ``move`` is refused (fails the test when it is accepted)."""
    try:
        GAME.apply(state, state.current if seat is None else seat, move)
    except IllegalMove as exc:
        return str(exc)
    raise AssertionError(f"{move} was accepted")


def effects_text(state: CouronnesState) -> str:
    """All effect lines of the last step, joined."""
    return " | ".join(e.text for e in state.effects)


def law_moves(state: CouronnesState) -> list[Move]:
    """The legal ways to apply the law for the seat to act (no change, redo or end)."""
    kinds = ("reveal", "discard", "claim")
    return [m for m in GAME.legal_moves(state, state.current) if m.TYPE in kinds]
