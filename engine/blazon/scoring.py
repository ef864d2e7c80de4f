"""Blazon's final scoring (rulebook Final Scoring), the result with its tie-breaks, and the
estimate greedy bots maximise."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.blazon.cards import (
    AUGMENTATIONS,
    EDITIONS,
    WILD,
)
from engine.blazon.shield import (
    TABLES,
    blazon_text,
    shield_full,
)
from engine.blazon.state import OVER, BlazonState
from engine.core.game import Result, Termination, ranks_from_keys

ABATEMENT_PENALTY = 8
TERMINATIONS = {  # ``state.trigger`` (kept in the result's details as "trigger") → the reason
    "prestige": Termination.PRESTIGE,
    "full-shield": Termination.FULL_SHIELD,
    "distinctions": Termination.DISTINCTIONS,
    "stalled": Termination.STALLED,
}


def augmentation_awards(state: BlazonState) -> list[dict[str, int]]:
    """Per seat, the augmentations it scores 2 for (rulebook Final Scoring, step 1)."""
    cards = EDITIONS[state.edition].cards
    counts = [
        Counter(cards[n].augmentation for n in p.shield if n and cards[n].augmentation != WILD)
        for p in state.players
    ]
    awards: list[dict[str, int]] = [{} for _ in state.players]
    for aug in AUGMENTATIONS:
        best = max(c[aug] for c in counts)
        leaders = [seat for seat, c in enumerate(counts) if c[aug] == best]
        if best == 0 or len(leaders) > 2 or (len(leaders) == 2 and len(counts) == 2):
            continue
        for seat in leaders:
            awards[seat][aug] = 2
    return awards


def final_breakdown(state: BlazonState) -> list[dict[str, Any]]:
    """Per seat, each line of the final scoring and the total."""
    tables = TABLES[state.edition]
    augs = augmentation_awards(state)
    rows = []
    for seat, p in enumerate(state.players):
        line = {
            "track": p.prestige,
            "augmentations": sum(augs[seat].values()),
            "distinctions": p.distinction_points,
            "heralds": p.heralds,
            "animals": 2 * p.animals,
            "full_shield": 2 if shield_full(p) else 0,
            "abatement": -ABATEMENT_PENALTY if p.abated_space >= 0 else 0,
        }
        rows.append({
            **line,
            "total": sum(line.values()),
            "augmentations_won": sorted(augs[seat]),
            "hand_prestige": sum(tables.prestige[n] for n in p.hand),
            "blazon": blazon_text(p, tables),
        })  # fmt: skip
    return rows


def result(state: BlazonState) -> Result | None:
    """The final result once the game is over: totals, then distinction prestige, then hand."""
    if state.phase != OVER:
        return None
    rows = final_breakdown(state)
    keys = [(r["total"], r["distinctions"], r["hand_prestige"]) for r in rows]
    return Result(
        scores=tuple(float(r["total"]) for r in rows),
        ranks=ranks_from_keys(keys),
        termination=TERMINATIONS.get(state.trigger),
        details={
            "players": rows,
            "trigger": state.trigger,
            "trigger_seat": state.trigger_seat,
            "turns": state.turn_number,
            "tie_breaks": "total prestige, then prestige from distinctions, then prestige of the cards in hand; still tied: shared",
        },
    )


def estimate(state: BlazonState, seat: int) -> float:
    """What greedy bots maximise: prestige so far and a fifth of the hand's prestige."""
    player = state.players[seat]
    hand = sum(TABLES[state.edition].prestige[n] for n in player.hand)
    penalty = ABATEMENT_PENALTY if player.abated_space >= 0 else 0
    return (
        player.prestige + player.distinction_points + player.heralds + 2 * player.animals
        + 0.2 * hand - penalty
    )  # fmt: skip
