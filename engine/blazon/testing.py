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
    """Game length (turns: average, median, max) and how often each end trigger fired."""
    if not finished:
        return ["no finished games"]
    turns = [int(result.details.get("turns", 0)) for _, result in finished]
    triggers = Counter(str(result.details.get("trigger", "")) for _, result in finished)
    count = len(finished)
    lines = [
        f"games: {count}; turns (all seats): average {statistics.mean(turns):.1f}, "
        f"median {statistics.median(turns):.0f}, max {max(turns)}; "
        f"rounds: average {statistics.mean(_rounds(s, t) for (s, _), t in zip(finished, turns, strict=True)):.1f}"
    ]
    for trigger in TRIGGERS:
        lines.append(
            f"ended by {trigger}: {triggers[trigger]} ({100 * triggers[trigger] / count:.1f}%)"
        )
    stalls = sum(1 for t in turns if t >= STALL_TURNS)
    lines.append(f"games of {STALL_TURNS}+ turns (stalling): {stalls}")
    lines.extend(_score_lines(finished))
    return lines


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
