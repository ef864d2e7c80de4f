"""Bots that choose legal moves through the generic contract, for any game.

- :class:`RandomBot` picks uniformly among the legal moves.
- :class:`GreedyBot` plays the move with the best immediate ``game.estimate`` for its seat.

Both are seeded from their own seed (never the game's) and deterministic. :func:`play_game`
runs a whole game between bots and returns the final state and the move log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.game import Game, GameState
from engine.core.moves import Move
from engine.core.rng import Rng


class Bot(Protocol):
    """Anything that picks one of the legal moves for a seat."""

    def choose(self, game: Game[Any], state: GameState, seat: int, moves: Sequence[Move]) -> Move:
        """One of ``moves`` (never empty)."""
        ...


@dataclass
class RandomBot:
    """Picks uniformly among the legal moves, from its own seed."""

    seed: str = "random-bot"
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.rng = Rng(self.seed)

    def choose(self, game: Game[Any], state: GameState, seat: int, moves: Sequence[Move]) -> Move:
        return self.rng.choice(moves)


@dataclass
class GreedyBot:
    """Plays the move whose result ``game.estimate`` rates best for its seat.

    It looks one step ahead on a copy of the state whose RNG is re-seeded from the bot's own
    seed, so the look-ahead never peeks at the game's real chance outcomes. Ties are broken at
    random. ``max_candidates`` bounds the look-ahead on very wide decisions.
    """

    seed: str = "greedy-bot"
    max_candidates: int = 64
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.rng = Rng(self.seed)

    def choose(self, game: Game[Any], state: GameState, seat: int, moves: Sequence[Move]) -> Move:
        candidates = list(moves)
        if len(candidates) > self.max_candidates:
            candidates = [self.rng.choice(moves) for _ in range(self.max_candidates)]
        best: list[Move] = []
        best_score = float("-inf")
        for move in candidates:
            score = self._score(game, state, seat, move)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)

    def _score(self, game: Game[Any], state: GameState, seat: int, move: Move) -> float:
        trial = game.clone(state)
        trial.rng = Rng(f"{self.seed}/{self.rng.counter}")
        game.apply_in_place(trial, seat, move)
        return game.estimate(trial, seat)


@dataclass
class PlayedGame:
    """A finished bot game: its final state and the ``(seat, move)`` log that led there."""

    state: GameState
    log: list[tuple[int, Move]]


def play_game(
    game: Game[Any],
    bots: Sequence[Bot],
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    edition: str | None = None,
    max_steps: int = 100_000,
) -> PlayedGame:
    """Play one game between ``bots`` (one per seat) to the end."""
    state = game.new_game(players=len(bots), seed=seed, options=options, edition=edition)
    log: list[tuple[int, Move]] = []
    for _ in range(max_steps):
        seats = game.to_act(state)
        if not seats:
            return PlayedGame(state, log)
        seat = seats[0]
        move = bots[seat].choose(game, state, seat, game.legal_moves(state, seat))
        game.apply_in_place(state, seat, move)
        log.append((seat, move))
    raise RuntimeError(f"{game.id}: no end after {max_steps} steps")
