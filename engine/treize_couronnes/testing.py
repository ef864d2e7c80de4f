"""Helpers for the contract suite and the bench: hidden-information markers and a summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import mean, median

from engine.core.game import GameState, Result
from engine.treize_couronnes.cards import KINGS
from engine.treize_couronnes.state import CouronnesState

_CROWN_MARKER_BASE = 987650001


def plant_hidden_markers(state: GameState, viewer: int | None) -> list[str]:
    """Write a unique marker into everything hidden from ``viewer`` and return the markers:
    other hands, the draw pile, the face-down discard pile, and hidden crown counts."""
    assert isinstance(state, CouronnesState)
    markers: list[str] = []

    def marker() -> str:
        markers.append(f"HIDDEN-{len(markers):04d}-13C")
        return markers[-1]

    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hand[:] = [marker() for _ in hand]
    state.draw[:] = [marker() for _ in state.draw]
    state.discard[:] = [marker() for _ in state.discard]
    if state.hidden_crowns and state.phase != "over":
        for seat in range(state.players):
            if seat != viewer:
                state.crowns[seat] = _CROWN_MARKER_BASE + seat
                markers.append(str(state.crowns[seat]))
        state.reserve_crowns = _CROWN_MARKER_BASE + 10
        markers.append(str(state.reserve_crowns))
    return markers


def _law_label(card: str, edition: str) -> str:
    """The law number shared by the four colours, with the blue card's law as the example."""
    number = card[1:]
    example = KINGS[edition].get(f"B{number}", KINGS[edition][card])
    return f"law {number} (e.g. {example.id} {example.law})"


def summarize(finished: Sequence[tuple[GameState, Result]]) -> list[str]:
    """Game length, how often ``max_turns`` ends the game, and each law's share of crowns."""
    states = [s for s, _ in finished if isinstance(s, CouronnesState)]
    if not states:
        return ["13 Couronnes: no finished game"]
    turns = [s.turns for s in states]
    capped = sum(1 for s in states if s.winner < 0)
    by_law: Counter[str] = Counter()
    for state in states:
        for card, crowns in state.law_crowns.items():
            by_law[_law_label(card, state.edition)] += crowns
    total = sum(by_law.values()) or 1
    lines = [
        f"13 Couronnes: {len(states)} games, turns mean {mean(turns):.1f}, median "
        f"{median(turns):.0f}, max {max(turns)}; steps mean {mean(s.step for s in states):.0f}",
        f"ended by max_turns: {capped} ({100 * capped / len(states):.1f}%); "
        f"won at 13 crowns: {len(states) - capped}",
        "share of crowns gained per law (the four colours of each law together):",
    ]
    for label, crowns in sorted(by_law.items(), key=lambda item: -item[1]):
        lines.append(f"  {label:<48} {crowns:>7}  {100 * crowns / total:5.1f}%")
    lines.extend(_wins_by_seat(states))
    return lines


def _wins_by_seat(states: Sequence[CouronnesState]) -> list[str]:
    """13-crown wins by seat for each player count: does the compensation even out seat 0's start?"""
    lines = ["13-crown wins by seat (seat 0 starts; seat s starts with s crowns):"]
    for players in sorted({s.players for s in states}):
        games = [s for s in states if s.players == players]
        wins = Counter(s.winner for s in games if s.winner >= 0)
        shares = ", ".join(f"{100 * wins[seat] / len(games):.0f}%" for seat in range(players))
        lines.append(f"  {players} players ({len(games)} games): {shares}")
    return lines
