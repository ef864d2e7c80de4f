"""The result of a game of 13 Couronnes (crowns, then fewer cards in hand) and the estimate
greedy bots maximise."""

from __future__ import annotations

from engine.core.game import Result, Termination, ranks_from_keys
from engine.treize_couronnes.state import NOBODY, CouronnesState


def result(state: CouronnesState) -> Result | None:
    """Crowns decide (the 13-crown winner first), then fewer cards in hand; else tied."""
    if state.phase != "over":
        return None
    keys = [
        (s == state.winner, state.crowns[s], -len(state.hands[s])) for s in range(state.players)
    ]
    return Result(
        scores=tuple(float(c) for c in state.crowns),
        ranks=ranks_from_keys(keys),
        termination=Termination.THIRTEEN_CROWNS
        if state.winner != NOBODY
        else Termination.TURN_LIMIT,
        details={
            "ended_by": "13 crowns" if state.winner != NOBODY else "max_turns",
            "winner": None if state.winner == NOBODY else state.winner,
            "turns": state.turns,
            "crowns": list(state.crowns),
            "cards_in_hand": [len(h) for h in state.hands],
            "tie_breaks": "the 13-crown winner first, then most crowns, then fewest cards "
            "in hand; players equal on both share the rank",
            "law_crowns": dict(sorted(state.law_crowns.items())),
        },
    )


def estimate(state: CouronnesState, seat: int) -> float:
    """Crowns above all, then tokens, then cards in hand (the greedy bot's aim)."""
    if state.winner == seat:
        return 1000.0
    return 10.0 * state.crowns[seat] + 2.0 * state.tokens(seat) + min(len(state.hands[seat]), 8)
