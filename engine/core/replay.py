"""Replay: rebuild a game from its setup record and its logged moves, validating each one.

``replay(game, setup, moves, until=n)`` stops after move ``n`` — the arbiter's audit view.
The trail keeps, for each step, who moved, the move, its line in words and its effects
(chance outcomes included), so a caller can compare them with what was recorded.

A game continued by an arbiter's "replay from move n" ruling has two seeds: ``deal_seed`` (the
old game's, public) sets it up so its first n moves replay as they were played, then
``reshuffle_after=n`` gives it its own secret ``seed`` and shuffles what no seat has seen
(:meth:`Game.reshuffle_unseen`). In the trail that reshuffle is a step without a seat or a
move whose ``step`` is the number of moves played before it (``n``): ``step`` always counts
moves, so move k is still the step numbered k.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine.core.errors import BadMove, IllegalMove, ReplayError
from engine.core.game import Effect, Game, GameState
from engine.core.moves import Move

#: The direct decoders of a game that decodes moves its own way: none.
_NO_DECODERS: dict[str, Callable[[dict[str, Any]], Move | None]] = {}

RESHUFFLE_TEXT = "the cards no seat has seen are shuffled again with this game's own seed"


@dataclass(frozen=True)
class SetupRecord:
    """Everything needed to set a game up again: game, edition, players, options, seed.

    ``deal_seed``, when set, deals the game instead of ``seed`` (a continued game: the old
    game's seed); ``seed`` is then the game's own, used from the reshuffle on.
    ``engine_version``, when set, is the version the game was recorded with (its
    ``GameCreated`` record's): the game is set up under it, so a rule changed since then
    plays as it did (``Game.rules_since``); empty means the running version.
    """

    game: str
    edition: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = ""
    deal_seed: str = ""
    engine_version: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain data; ``deal_seed`` and ``engine_version`` only when set, so older records
        keep their exact form."""
        data: dict[str, Any] = {
            "game": self.game,
            "edition": self.edition,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.deal_seed:
            data["deal_seed"] = self.deal_seed
        if self.engine_version:
            data["engine_version"] = self.engine_version
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SetupRecord:
        """The inverse of :meth:`to_json`; records without ``seed``/``deal_seed`` are read too."""
        return cls(
            game=str(data["game"]),
            edition=str(data["edition"]),
            players=int(data["players"]),
            options=dict(data.get("options") or {}),
            seed=str(data.get("seed", "")),
            deal_seed=str(data.get("deal_seed", "")),
            engine_version=str(data.get("engine_version", "")),
        )


class TrailStep:
    """One replayed step: step 0 is the setup, then one per move (and the reshuffle, if any).

    ``text`` is the step in words. A replayed move's is written by ``describe`` when it is
    first read (:meth:`described`): the event store's replays read the effects, rarely the
    words. Steps compare by value (``step, seat, move, text, effects``) and are not changed.
    """

    __slots__ = ("_describe", "_text", "effects", "move", "seat", "step")

    def __init__(
        self, step: int, seat: int | None, move: Move | None, text: str,
        effects: tuple[Effect, ...],
    ) -> None:  # fmt: skip
        self.step = step
        self.seat = seat
        self.move = move
        self.effects = effects
        self._text: str | None = text
        self._describe: Callable[[Move, int], str] | None = None

    @classmethod
    def described(
        cls, step: int, seat: int, move: Move, effects: tuple[Effect, ...],
        describe: Callable[[Move, int], str],
    ) -> TrailStep:  # fmt: skip
        """The step of ``seat`` playing ``move``, its words ``describe(move, seat)`` when read."""
        made = cls.__new__(cls)
        made.step, made.seat, made.move, made.effects = step, seat, move, effects
        made._text, made._describe = None, describe
        return made

    @property
    def text(self) -> str:
        """The step in words (the audit log's line)."""
        text = self._text
        if text is None:
            assert self._describe is not None
            assert self.move is not None
            assert self.seat is not None
            text = self._text = self._describe(self.move, self.seat)
        return text

    def _key(self) -> tuple[Any, ...]:
        return (self.step, self.seat, self.move, self.text, self.effects)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not TrailStep:
            return NotImplemented
        assert isinstance(other, TrailStep)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"TrailStep(step={self.step!r}, seat={self.seat!r}, move={self.move!r}, "
            f"text={self.text!r}, effects={self.effects!r})"
        )


def start(game: Game[Any], setup: SetupRecord) -> GameState:
    """The initial state of a logged game (options validated as at creation), dealt with
    ``deal_seed`` when the record has one, else with ``seed``, under the record's engine
    version when it has one."""
    state: GameState = game.new_game(
        players=setup.players,
        seed=setup.deal_seed or setup.seed,
        options=setup.options,
        edition=setup.edition,
        engine_version=setup.engine_version or None,
    )
    return state


def reshuffle_step(game: Game[Any], state: GameState, setup: SetupRecord, after: int) -> TrailStep:
    """Reshuffle what no seat has seen with the game's own seed; the trail step saying so."""
    game.reshuffle_unseen(state, setup.seed)
    return TrailStep(after, None, None, RESHUFFLE_TEXT, tuple(state.effects))


class Replay:
    """A logged game replayed one step at a time: :meth:`move` for each logged move,
    :meth:`reshuffle` where the log reshuffles. ``state`` is the state after the last step
    (read it, or its ``effects``, between steps: the game may keep changing the objects it
    noted) and ``trail`` the steps so far, the setup first. :func:`replay` is built on it."""

    def __init__(self, game: Game[Any], setup: SetupRecord) -> None:
        if setup.game != game.id:
            raise ReplayError(0, f"the log is a {setup.game!r} game, not {game.id!r}")
        self.game = game
        self.setup = setup
        self.state = start(game, setup)
        self.moves = 0  # moves replayed so far
        self.trail = [TrailStep(0, None, None, "the game is set up", tuple(self.state.effects))]
        # The game's methods, looked up once: a replay calls them for every move.
        self._decode = game.decode_move
        self._apply = game.apply_in_place
        self._describe = game.describe
        # A game that keeps the contract's own ``decode_move`` and ``apply_in_place`` is
        # replayed by :meth:`advance` without those two wrappers: it calls the move set's
        # decoder and the game's ``check`` and ``play`` itself, exactly as they would.
        kind = type(game)
        self._plain_decode = kind.decode_move is Game.decode_move
        self._plain_apply = kind.apply_in_place is Game.apply_in_place

    def move(self, seat: int, raw: Move | Mapping[str, Any]) -> TrailStep:
        """Validate and apply the next logged move; raises :class:`ReplayError` naming it."""
        index = self.moves + 1
        if isinstance(raw, Move):
            move = raw
        else:
            try:
                move = self._decode(raw)
            except BadMove as exc:
                raise ReplayError(index, str(exc)) from exc
        state = self.state
        try:
            self._apply(state, seat, move)
        except IllegalMove as exc:
            raise ReplayError(index, f"seat {seat}: {exc}") from exc
        self.moves = index
        step = TrailStep.described(index, seat, move, tuple(state.effects), self._describe)
        self.trail.append(step)
        return step

    def advance(self, moves: Iterable[tuple[int, Move | Mapping[str, Any]]]) -> None:
        """Replay every ``(seat, move)`` of ``moves`` in turn: :meth:`move` for each, in one loop.

        This is replay's hot path (issue #19: a whole game is replayed to rebuild one state),
        so the per-move work is written out here with everything it uses bound to locals: the
        same decoding, validation, state changes and trail steps as :meth:`move`, and the same
        :class:`ReplayError` for the first move that does not replay (``moves`` then counts the
        moves replayed before it).
        """
        game, state, describe = self.game, self.state, self._describe
        decode = game.moves.decode if self._plain_decode else self._decode
        # MoveSet.decode's first try, written out: a logged move is a well-formed JSON object
        decoders = game.moves.direct_decoders if self._plain_decode else _NO_DECODERS
        direct = decoders.get
        check, play = game.check, game.play
        apply = None if self._plain_apply else self._apply
        append, new_step, trail_step = self.trail.append, object.__new__, TrailStep
        index = self.moves
        for seat, raw in moves:
            index += 1
            move: Move | None = None
            if raw.__class__ is dict:
                kind = raw.get("type")
                if kind.__class__ is str:
                    decoder = direct(kind)
                    if decoder is not None:
                        move = decoder(raw)
            if move is None:
                if isinstance(raw, Move):
                    move = raw
                else:
                    try:
                        move = decode(raw)
                    except BadMove as exc:
                        self.moves = index - 1
                        raise ReplayError(index, str(exc)) from exc
            try:
                if apply is None:  # Game.apply_in_place, written out
                    check(state, seat, move)
                    state.effects = []
                    state.step += 1
                    play(state, seat, move)
                else:
                    apply(state, seat, move)
            except IllegalMove as exc:
                self.moves = index - 1
                raise ReplayError(index, f"seat {seat}: {exc}") from exc
            # TrailStep.described, written out (one call fewer per move)
            step = new_step(trail_step)
            step.step, step.seat, step.move, step.effects = index, seat, move, tuple(state.effects)
            step._text, step._describe = None, describe
            append(step)
        self.moves = index

    def reshuffle(self) -> TrailStep:
        """Reshuffle what no seat has seen with the game's own seed, after the moves so far."""
        step = reshuffle_step(self.game, self.state, self.setup, self.moves)
        self.trail.append(step)
        return step


def replay(
    game: Game[Any],
    setup: SetupRecord,
    moves: Iterable[tuple[int, Move | Mapping[str, Any]]],
    *,
    until: int | None = None,
    reshuffle_after: int | None = None,
) -> tuple[GameState, list[TrailStep]]:
    """Rebuild the state after the logged ``(seat, move)`` pairs, validating every move.

    Moves may be :class:`Move` values or their JSON form. Stops after move ``until`` when given.
    ``reshuffle_after=n`` reshuffles what no seat has seen, with ``setup.seed``, right after
    move ``n`` (0: before the first move); it belongs to the state after move ``n``, so it is
    done when ``until == n`` too. Raises :class:`ReplayError` naming the first step that does
    not replay (or a reshuffle point the moves never reach).
    """
    run = Replay(game, setup)
    pairs = iter(moves)
    if until is not None:
        pairs = islice(pairs, max(until, 0))
    if reshuffle_after is not None and reshuffle_after >= 0:
        # the moves up to the reshuffle point, the reshuffle if they reach it, then the rest
        run.advance(islice(pairs, reshuffle_after))
        if run.moves == reshuffle_after:
            run.reshuffle()
    run.advance(pairs)
    _check_reshuffle_reached(reshuffle_after, run.moves, until)
    return run.state, run.trail


def _check_reshuffle_reached(reshuffle_after: int | None, played: int, until: int | None) -> None:
    """A reshuffle point must be a move the log reaches (unless ``until`` stopped before it)."""
    if reshuffle_after is None or (until is not None and until < reshuffle_after):
        return
    if reshuffle_after < 0 or reshuffle_after > played:
        raise ReplayError(
            played,
            f"the reshuffle is recorded after move {reshuffle_after}, "
            f"but the log has {played} moves",
        )


def chance_outcomes(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The chance outcomes among ``effects``, as plain data to compare with a record."""
    return [{"text": e.text, "data": e.data} for e in effects if e.kind == "chance"]
