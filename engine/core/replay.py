"""Replay: rebuild a game from its setup record and its logged moves, validating each one.

``replay(game, setup, moves, until=n)`` stops after move ``n`` — the arbiter's audit view.
The trail keeps, for each step, who moved, the move, its line in words and its effects
(chance outcomes included), so a caller can compare them with what was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import BadMove, IllegalMove, ReplayError
from engine.core.game import Effect, Game, GameState
from engine.core.moves import Move


@dataclass(frozen=True)
class SetupRecord:
    """Everything needed to set a game up again: game, edition, players, options, seed."""

    game: str
    edition: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "edition": self.edition,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SetupRecord:
        return cls(
            game=str(data["game"]),
            edition=str(data["edition"]),
            players=int(data["players"]),
            options=dict(data.get("options") or {}),
            seed=str(data.get("seed", "")),
        )


@dataclass(frozen=True)
class TrailStep:
    """One replayed step: step 0 is the setup, then one per move."""

    step: int
    seat: int | None
    move: Move | None
    text: str
    effects: tuple[Effect, ...]


def start(game: Game[Any], setup: SetupRecord) -> GameState:
    """The initial state of a logged game (options validated as at creation)."""
    state: GameState = game.new_game(
        players=setup.players, seed=setup.seed, options=setup.options, edition=setup.edition
    )
    return state


def replay(
    game: Game[Any],
    setup: SetupRecord,
    moves: Iterable[tuple[int, Move | Mapping[str, Any]]],
    *,
    until: int | None = None,
) -> tuple[GameState, list[TrailStep]]:
    """Rebuild the state after the logged ``(seat, move)`` pairs, validating every move.

    Moves may be :class:`Move` values or their JSON form. Stops after move ``until`` when given.
    Raises :class:`ReplayError` naming the first step that does not replay.
    """
    if setup.game != game.id:
        raise ReplayError(0, f"the log is a {setup.game!r} game, not {game.id!r}")
    state = start(game, setup)
    trail = [TrailStep(0, None, None, "the game is set up", tuple(state.effects))]
    for index, (seat, raw) in enumerate(moves, start=1):
        if until is not None and index > until:
            break
        move = _as_move(game, raw, index)
        try:
            game.apply_in_place(state, seat, move)
        except IllegalMove as exc:
            raise ReplayError(index, f"seat {seat}: {exc}") from exc
        trail.append(TrailStep(index, seat, move, game.describe(move, seat), tuple(state.effects)))
    return state, trail


def _as_move(game: Game[Any], raw: Move | Mapping[str, Any], index: int) -> Move:
    if isinstance(raw, Move):
        return raw
    try:
        return game.decode_move(raw)
    except BadMove as exc:
        raise ReplayError(index, str(exc)) from exc


def chance_outcomes(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The chance outcomes among ``effects``, as plain data to compare with a record."""
    return [{"text": e.text, "data": e.data} for e in effects if e.kind == "chance"]
