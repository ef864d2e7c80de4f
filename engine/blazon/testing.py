"""Test and bench helpers for Blazon: hidden-information markers and the simulation summary."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from engine.blazon.state import DECKS, BlazonState
from engine.core.game import GameState, Result

MARKER_BASE = 987650001
TRIGGERS = ("prestige", "full-shield", "distinctions", "stalled")
STALL_TURNS = 400  # a game this long (in turns) is reported as stalling


def plant_hidden_markers(state: GameState, viewer: int | None) -> list[str]:
    """Replace every card hidden from ``viewer`` by a unique marker number; return the markers.

    Hidden: other seats' hands (the drawn, not yet kept cards are part of the hand) and the
    order of both decks. Discard piles, the display and shields are face up.
    """
    assert isinstance(state, BlazonState)
    markers: list[str] = []

    def marker() -> int:
        value = MARKER_BASE + len(markers)
        markers.append(str(value))
        return value

    for seat, player in enumerate(state.players):
        if seat == viewer:
            continue
        replaced = {card: marker() for card in player.hand}
        player.hand = [replaced[c] for c in player.hand]
        if seat == state.turn:
            state.drawn = [replaced.get(c, c) for c in state.drawn]
    for deck in DECKS:
        state.decks[deck] = [marker() for _ in state.decks[deck]]
    return markers


def summarize(finished: list[tuple[GameState, Result]]) -> list[str]:
    """Game length (turns: average, median, max), end-trigger shares, stalls, per player count."""
    if not finished:
        return ["no finished games"]
    lines = [*_length_and_triggers("all", finished)]
    stalls = sum(
        1
        for _, result in finished
        if result.details.get("trigger") == "stalled"
        or int(result.details.get("turns", 0)) >= STALL_TURNS
    )
    lines.append(
        f"stalled games (no draw or placement for a round, or {STALL_TURNS}+ turns): {stalls}"
    )
    by_count: dict[int, list[tuple[GameState, Result]]] = {}
    for state, result in finished:
        assert isinstance(state, BlazonState)
        by_count.setdefault(len(state.players), []).append((state, result))
    for count in sorted(by_count):
        lines.extend(_length_and_triggers(f"{count} players", by_count[count]))
    lines.extend(_score_lines(finished))
    return lines


def _length_and_triggers(label: str, finished: list[tuple[GameState, Result]]) -> list[str]:
    turns = [int(result.details.get("turns", 0)) for _, result in finished]
    rounds = [_rounds(state, t) for (state, _), t in zip(finished, turns, strict=True)]
    triggers = Counter(str(result.details.get("trigger", "")) for _, result in finished)
    count = len(finished)
    shares = ", ".join(f"{t} {100 * triggers[t] / count:.1f}%" for t in TRIGGERS)
    return [
        f"{label}: {count} games; turns average {statistics.mean(turns):.1f}, median "
        f"{statistics.median(turns):.0f}, max {max(turns)}; rounds average "
        f"{statistics.mean(rounds):.1f}; ended by: {shares}"
    ]


def _rounds(state: GameState, turns: int) -> float:
    assert isinstance(state, BlazonState)
    return turns / len(state.players)


def _score_lines(finished: list[tuple[GameState, Result]]) -> list[str]:
    winners: list[float] = []
    parts: Counter[str] = Counter()
    for _, result in finished:
        winners.append(max(result.scores))
        players: list[dict[str, Any]] = result.details.get("players", [])
        for row in players:
            for key in (
                "track",
                "augmentations",
                "distinctions",
                "heralds",
                "animals",
                "full_shield",
                "abatement",
            ):
                parts[key] += int(row[key])
        parts["seats"] += len(players)
    seats = max(parts.pop("seats"), 1)
    breakdown = ", ".join(f"{k} {v / seats:.1f}" for k, v in parts.items())
    return [
        f"winning score: average {statistics.mean(winners):.1f}, max {max(winners):.0f}",
        f"average per seat: {breakdown}",
    ]
