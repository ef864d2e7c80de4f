"""The scoring of Les 7 Blasons: what a round scores (7B-3), the result with its ranking and
each player's rounds, and the estimate greedy bots maximise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Result, Termination, ranks_from_keys
from engine.sept_blasons.cards import EDITIONS, RANKS_PER_COLOUR
from engine.sept_blasons.state import OVER, SeptState, Token

MAX_TIE_BREAK_ROUNDS = 5  # a safety bound: after it, a tie for the top stands (shared rank)


@dataclass(frozen=True)
class ColourScore:
    """One line of a round's score: a colour's card points times its counted tokens."""

    colour: int
    card_points: int
    tokens: int
    points: int


def colour_scores(cards: Sequence[int], front: Sequence[Token], own: int,
                  players: int) -> list[ColourScore]:  # fmt: skip
    """Per colour: the card values of that colour in the tricks × face-up tokens of it (7B-3).

    Own-colour and face-down tokens count for nothing; the malandrin (rank 0) scores 0.
    """
    points = [0] * players
    for code in cards:
        points[code // RANKS_PER_COLOUR] += code % RANKS_PER_COLOUR
    tokens = [0] * players
    for token in front:
        if token.up and token.colour != own:
            tokens[token.colour] += 1
    return [ColourScore(c, points[c], tokens[c], points[c] * tokens[c]) for c in range(players)]


def best_colour(tricks: Sequence[Sequence[int]], front: Sequence[Token], own: int,
                players: int) -> tuple[int, int, int, int]:  # fmt: skip
    """The round's best line as ``(colour, card_points, tokens, points)``: the first of
    :func:`colour_scores` (for the cards of ``tricks``) with the most points, counted without
    building every line (the end of each round asks it for every seat)."""
    points = [0] * players
    for trick in tricks:
        for code in trick:
            points[code // RANKS_PER_COLOUR] += code % RANKS_PER_COLOUR
    tokens = [0] * players
    for token in front:
        if token.up and token.colour != own:
            tokens[token.colour] += 1
    best = (0, points[0], tokens[0], points[0] * tokens[0])
    for colour in range(1, players):
        score = points[colour] * tokens[colour]
        if score > best[3]:
            best = (colour, points[colour], tokens[colour], score)
    return best


def round_score(cards: Sequence[int], front: Sequence[Token], own: int, players: int) -> int:
    """The round's score: the best colour's points only."""
    return max(line.points for line in colour_scores(cards, front, own, players))


def cards_won(tricks: Sequence[Sequence[int]]) -> list[int]:
    """Every card code in a player's tricks."""
    return [code for trick in tricks for code in trick]


def result(state: SeptState) -> Result | None:
    """The ranking by total over the rounds, with each player's rounds (None until over)."""
    if state.phase != OVER:
        return None
    edition = EDITIONS[state.edition]
    details: dict[str, Any] = {
        "rounds": [list(scores) for scores in state.round_scores],
        "tie_break_rounds": max(0, state.round - edition.rounds),
        "players": [breakdown(state, seat) for seat in range(state.players)],
        "rule": "highest total over the rounds wins; while the top total is tied after "
        f"{edition.rounds} rounds, another round is played (at most {MAX_TIE_BREAK_ROUNDS}; "
        "a tie that remains shares the rank); each round scores the player's best colour",
    }
    return Result(
        tuple(float(t) for t in state.totals),
        ranks_from_keys(state.totals),
        details,
        termination=termination(state),
    )


def termination(state: SeptState) -> Termination:
    """Rounds played, unless the top total is still tied after the last tie-break round."""
    still_tied = state.totals.count(max(state.totals)) > 1
    last_round = EDITIONS[state.edition].rounds + MAX_TIE_BREAK_ROUNDS
    if still_tied and state.round >= last_round:
        return Termination.TIE_BREAK_LIMIT
    return Termination.ROUNDS_PLAYED


def breakdown(state: SeptState, seat: int) -> dict[str, Any]:
    """One player's colour, total and, per round, the score and the colour that made it."""
    colours = EDITIONS[state.edition].colours
    return {
        "seat": seat,
        "colour": colours[seat],
        "total": state.totals[seat],
        "rounds": [
            {
                "score": scores[seat],
                "scored_with": colours[best[seat]] if best[seat] >= 0 else None,
            }
            for scores, best in zip(state.round_scores, state.round_colours, strict=True)
        ],
    }


def estimate(state: SeptState, seat: int) -> float:
    """Total so far plus what the current tricks and face-up tokens would score."""
    now = round_score(cards_won(state.tricks[seat]), state.fronts[seat], seat, state.players)
    return float(state.totals[seat] + now)
