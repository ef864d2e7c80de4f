"""Helpers for the contract suite and the bench: hidden-information markers and a summary."""

from __future__ import annotations

from engine.core import GameState, Result
from engine.sept_blasons.legality import TRICK_CODE
from engine.sept_blasons.state import OVER, SeptState

_MARKER_BASE = 987650001


def plant_hidden_markers(state: GameState, viewer: int | None) -> list[str]:
    """Write a unique marker into everything hidden from ``viewer``; return the markers.

    Hidden: the colour of face-down tokens (in front of players or in the pile) the viewer has
    not consulted, other players' hands, and the tricks the viewer may not look at. Once the
    game is over, only the draw pile's face-down tokens (the view gives their count alone).
    """
    assert isinstance(state, SeptState)
    if state.phase == OVER:
        return _plant_in_the_pile(state)
    counter = iter(range(_MARKER_BASE, _MARKER_BASE + 1_000_000))
    markers: list[str] = []

    def mark() -> int:
        value = next(counter)
        markers.append(str(value))
        return value

    for front in state.fronts:
        for token in front:
            if not token.up and (viewer is None or viewer not in token.known_by):
                token.colour = mark()
    for token in state.pile:
        if not token.up:
            token.colour = mark()
    for seat in range(state.players):
        if seat != viewer:
            state.hands[seat] = [mark() for _ in state.hands[seat]]
        for index, trick in enumerate(state.tricks[seat]):
            if not _trick_visible(state, seat, index, viewer):
                trick[:] = [mark() for _ in trick]
    return markers


def _plant_in_the_pile(state: SeptState) -> list[str]:
    markers = []
    for index, token in enumerate(state.pile):
        if not token.up:
            token.colour = _MARKER_BASE + index
            markers.append(str(token.colour))
    return markers


def _trick_visible(state: SeptState, owner: int, index: int, viewer: int | None) -> bool:
    if viewer is None:
        return False
    if owner == viewer and 1 not in state.variants:
        return True
    return owner * TRICK_CODE + index in state.seen_tricks[viewer]


def summarize(finished: list[tuple[GameState, Result]]) -> list[str]:
    """Bench lines: tricks awarded per round, tricks to nobody, malandrin wins, scores, ties."""
    states = [s for s, _ in finished if isinstance(s, SeptState)]
    if not states:
        return ["no finished games"]
    rounds = sum(s.stats.rounds for s in states)
    tricks = sum(s.stats.tricks for s in states)
    nobody = sum(s.stats.nobody for s in states)
    malandrin = sum(s.stats.malandrin_wins for s in states)
    tie_breaks = sum(1 for s in states if s.stats.rounds > 3)
    winning = [max(result.scores) for _, result in finished]
    return [
        f"games: {len(states)}, rounds: {rounds}",
        f"tricks awarded per round: {(tricks - nobody) / rounds:.2f} of {tricks / rounds:.0f}",
        f"tricks to nobody: {_percent(nobody, tricks)}",
        f"tricks won by a malandrin: {_percent(malandrin, tricks)}",
        f"average winning score: {sum(winning) / len(winning):.1f}",
        f"games needing a tie-break round: {_percent(tie_breaks, len(states))}",
    ]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


__all__ = ["plant_hidden_markers", "summarize"]
