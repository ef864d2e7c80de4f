"""The engine contract every game implements (DESIGN.md, "Engine contract").

A game is a :class:`Game` subclass: plain data in, plain data out. Its state is a dataclass
tree deriving from :class:`GameState` (the RNG and the effects of the last step live there), its
moves are :class:`~engine.core.moves.Move` dataclasses. Callers use:

- ``new_game(players=, options=, edition=, seed=)`` → the initial state (validates everything);
- ``to_act(state)`` → seats that must decide now (empty when the game is over);
- ``legal_moves(state, seat)`` → every legal move, exactly;
- ``apply(state, seat, move)`` → a new state (the input is untouched), or :class:`IllegalMove`;
- ``view(state, seat | None)`` → what that seat (or a spectator) may see;
- ``result(state)`` → the :class:`Result` once the game is over;
- ``describe(move, seat)`` → one line for the audit log (``describe_text``: the same as a
  translatable :class:`~engine.core.text.Text`);
- ``reshuffle_unseen(state, seed)`` → a fresh RNG and every zone no seat has seen shuffled with
  it (an arbiter's "replay from move n" ruling; see :meth:`Game.reshuffle_unseen`).

Subclasses implement the abstract hooks; ``apply_in_place`` is the fast path used by replay.
"""

from __future__ import annotations

import copy
import enum
import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.core.codec import from_plain, to_plain
from engine.core.errors import IllegalMove, InvalidOptions
from engine.core.moves import Move, MoveSet
from engine.core.options import Option, normalize_options, options_schema
from engine.core.rng import Rng
from engine.core.text import Seat, Text, _, as_text, untranslated
from engine.core.versions import replay_compatible, version_at_least

PUBLIC = None  # ``Effect.visible_to`` value for an effect everyone sees

_new = object.__new__


@dataclass(slots=True)
class Effect:
    """Something a step caused beyond the move itself: a chance outcome, a skipped power, a score.

    ``text`` is what everyone may read. ``data`` holds the details, seen only by the seats in
    ``visible_to`` (``None``: everyone; ``[]``: nobody until the game ends). Chance outcomes have
    ``kind == "chance"``; a replay recomputes them and the event store compares.
    ``message`` is ``text`` as a template and parameters (engine/core/text.py), for the apps to
    translate; it is not stored (the stored record and the state's plain data keep ``text``)
    nor part of equality; ``note`` sets it.

    Slotted, as a game notes an effect on most moves: ``_text`` holds ``text`` (read through
    the property below), so it is set before ``text`` in ``__init__``; it is not an
    ``__init__`` argument, nor part of equality, ``repr`` or the codec's plain data.
    """

    kind: str
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: list[int] | None = PUBLIC
    message: Text | None = field(default=None, compare=False, init=False, repr=False)

    @classmethod
    def noted(cls, kind: str, message: Text, data: dict[str, Any],
              visible_to: list[int] | None) -> Effect:  # fmt: skip
        """The effect of a ``note``: its English ``text`` is written from ``message`` when it
        is first read, not now (a replay notes thousands of effects nobody reads)."""
        effect = _new(cls)
        effect.kind, effect._text, effect.data = kind, None, data
        effect.visible_to, effect.message = visible_to, message
        return effect

    def visible_for(self, seat: int | None) -> bool:
        """True when ``seat`` (None: a spectator) may see ``data``."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        """The whole effect, as the event store keeps it: with ``visible_to``, so that a reader
        can withhold ``data`` from the seats that may not see it."""
        return {
            "kind": self.kind,
            "text": self.text,
            "data": to_plain(self.data),
            "visible_to": self.visible_to,
        }

    def public_json(self, seat: int | None) -> dict[str, Any]:
        """The effect as ``seat`` may see it: data withheld unless visible to that seat."""
        shown: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.message is not None:
            shown["message"] = self.message.to_json()
        if self.visible_for(seat):
            shown["data"] = to_plain(self.data)
        return shown


@dataclass(kw_only=True)
class GameState:
    """Fields every game state has. Game states subclass it (``@dataclass(kw_only=True)``)."""

    rng: Rng
    effects: list[Effect] = field(default_factory=list)
    step: int = 0
    #: The engine version the game was set up under (its stream's recorded version; ``""`` in
    #: states made before the field existed, read as the running version). A rule that changes
    #: how a game replays keeps the old behaviour for a state set up under an older version,
    #: so a recorded game replays as it was played (engine/core/versions.py). Not part of
    #: equality: two states of the same position are equal whatever version set them up
    #: (a game's hand-written ``clone`` that predates the field leaves it out).
    engine_version: str = field(default="", compare=False)

    def note(self, kind: str, text: Text | str, data: Mapping[str, Any] | None = None,
             visible_to: Sequence[int] | None = PUBLIC) -> None:  # fmt: skip
        """Record an effect of the current step (``text``: its sentence, see engine/core/text)."""
        # Effect.noted, written out: games note an effect on most moves
        effect = _new(Effect)
        effect.kind, effect._text, effect.data = kind, None, dict(data) if data else {}
        effect.visible_to = None if visible_to is None else list(visible_to)
        effect.message = text if type(text) is Text else as_text(text)
        self.effects.append(effect)


def _effect_text(effect: Effect) -> str:
    text = effect._text
    if text is None:  # noted with its message only: the sentence is written on first read
        text = effect._text = str(effect.message)
    return text


def _set_effect_text(effect: Effect, text: str) -> None:
    effect._text = text


#: ``Effect.text`` stays a dataclass field (in ``__init__``, equality, ``repr`` and the codec's
#: plain data) read through this property, so that :meth:`Effect.noted` can leave it unwritten.
Effect.text = property(_effect_text, _set_effect_text)  # type: ignore[assignment,misc]


def rules_since(state: GameState, version: str) -> bool:
    """True when ``state`` plays under the rules of engine ``version`` or later: its game was
    set up under that version or a later one. A state without a version (made before states
    carried one) plays the running engine's rules, which include every rule in the code."""
    return not state.engine_version or version_at_least(state.engine_version, version)


class Termination(enum.Enum):
    """Why a game ended, one vocabulary for every game (like python-chess's
    ``Outcome.termination``). The values are stable words a client may show or switch on."""

    THIRTEEN_CROWNS = "thirteen-crowns"  # 13 Couronnes: a seat holds 13 crowns and wins at once
    TURN_LIMIT = "turn-limit"  # 13 Couronnes: the ``max_turns`` option was reached
    PRESTIGE = "prestige"  # Blazon: a seat reached the last prestige milestone (50)
    FULL_SHIELD = "full-shield"  # Blazon: a seat filled its shield
    DISTINCTIONS = "distinctions"  # Blazon: a seat has a marker on every distinction in play
    STALLED = "stalled"  # Blazon: for a whole round nobody could draw or place a card
    ROUNDS_PLAYED = "rounds-played"  # Les 7 Blasons: the rounds (and any tie-break) are played
    TIE_BREAK_LIMIT = "tie-break-limit"  # Les 7 Blasons: still tied after the last tie-break

    @property
    def text(self) -> Text:
        """Why the game ended, in a sentence a person reads."""
        return TERMINATION_TEXTS[self]


TERMINATION_TEXTS: dict[Termination, Text] = {
    Termination.THIRTEEN_CROWNS: _("a player holds 13 crowns and wins at once"),
    Termination.TURN_LIMIT: _("the game reached its turn limit"),
    Termination.PRESTIGE: _("a player reached the last prestige milestone"),
    Termination.FULL_SHIELD: _("a player filled their shield"),
    Termination.DISTINCTIONS: _("a player has a marker on every distinction in play"),
    Termination.STALLED: _("for a whole round nobody could draw or place a card"),
    Termination.ROUNDS_PLAYED: _("every round (and any tie-break) is played"),
    Termination.TIE_BREAK_LIMIT: _("still tied after the last tie-break round"),
}


@dataclass(frozen=True)
class Result:
    """Final scores and ranks (1-based, ties share a rank) with the tie-break details.

    ``termination`` says why the game ended. It is NOT part of :meth:`to_json` (nor of
    equality): stored ``GameEnded`` results are compared with a replay's ``to_json()``, so the
    JSON keeps the exact form it has always had. A stored result gets it back by a replay (or
    reads the game's own ``details``: ``ended_by`` in 13 Couronnes, ``trigger`` in Blazon).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    details: dict[str, Any] = field(default_factory=dict)
    termination: Termination | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``{"scores", "ranks", "details"}``, JSON-ready (``termination`` is left out)."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "details": to_plain(self.details),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """The inverse of :meth:`to_json`."""
        return cls(tuple(data["scores"]), tuple(data["ranks"]), dict(data.get("details", {})))


def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks (1, 1, 3) from sort keys where a larger key is better.

    >>> ranks_from_keys([10, 30, 10, 20])
    (3, 1, 3, 2)
    """
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def is_competition_ranking(ranks: Sequence[int]) -> bool:
    """Whether ``ranks`` are competition ranks: 1 the best, ties sharing a place and the next
    place skipped (1, 1, 3), as ``ranks_from_keys`` makes them.

    >>> is_competition_ranking([1, 1, 3]), is_competition_ranking([1, 1, 2])
    (True, False)
    """
    return tuple(ranks) == ranks_from_keys([-rank for rank in ranks])


@dataclass(frozen=True)
class GameInfo:
    """What the registry says about a game."""

    id: str
    name: str
    min_players: int
    max_players: int
    engine_version: str
    editions: tuple[str, ...]
    options: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "engine_version": self.engine_version,
            "editions": list(self.editions),
            "options": self.options,
        }


S = TypeVar("S", bound=GameState)

#: The key of the effects' messages in a state's plain data (``Game.state_to_json``).
EFFECT_MESSAGES = "effect_messages"

#: The refusal of any move once the game is over.
GAME_OVER = _("the game is over")


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the hooks."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    engine_version: ClassVar[str]
    editions: ClassVar[tuple[str, ...]]  # the first is the default
    options: ClassVar[tuple[Option, ...]] = ()
    moves: ClassVar[MoveSet]
    state_type: ClassVar[type[GameState]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's own ``clone`` (written out for speed) keeps the state's ``engine_version``
        even if it was written before states carried one: it is set on the copy here."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("clone")
        if own is None or getattr(own, "_keeps_engine_version", False):
            return

        @functools.wraps(own)
        def clone(self: Game[Any], state: Any) -> Any:
            copied = own(self, state)
            copied.engine_version = state.engine_version
            return copied

        clone._keeps_engine_version = True  # type: ignore[attr-defined]
        cls.clone = clone  # type: ignore[method-assign]

    # -- registry information -------------------------------------------------------------
    def info(self) -> GameInfo:
        """Id, name, player range, engine version, editions and options schema."""
        return GameInfo(
            id=self.id,
            name=self.name,
            min_players=self.min_players,
            max_players=self.max_players,
            engine_version=self.engine_version,
            editions=self.editions,
            options=options_schema(self.options),
        )

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated options with every default filled in."""
        return normalize_options(self.options, options)

    def check_setup(self, players: int, edition: str | None) -> str:
        """Validate the player count and edition; return the edition to use."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptions(_("the number of players must be a whole number"))
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                _(
                    "{game} is for {low} to {high} players, not {players}",
                    game=self.name, low=self.min_players, high=self.max_players, players=players,
                )
            )  # fmt: skip
        chosen = edition or self.editions[0]
        if chosen not in self.editions:
            raise InvalidOptions(
                _(
                    "{game} has no edition {edition}; editions: {editions}",
                    game=self.name, edition=repr(chosen), editions=self.editions,
                )
            )  # fmt: skip
        return chosen

    # -- the contract ---------------------------------------------------------------------
    def new_game(self, *, players: int, seed: str, options: Mapping[str, Any] | None = None,
                 edition: str | None = None, engine_version: str | None = None) -> S:  # fmt: skip
        """Validate players, options and edition, then set the game up from ``seed``.

        ``engine_version`` is the version a recorded game was played under (a replay passes
        its stream's); a new game leaves it out and is set up under the running version. The
        state keeps it, so rules changed since then play as they did (:meth:`rules_since`).
        """
        chosen = self.check_setup(players, edition)
        version = engine_version or self.engine_version
        if not replay_compatible(version, self.engine_version):
            raise InvalidOptions(
                _(
                    "{game} engine {running} cannot play a game recorded with engine {version}",
                    game=self.name, running=self.engine_version, version=version,
                )
            )  # fmt: skip
        state = self.setup(players, self.normalize_options(options), chosen, Rng(seed))
        state.engine_version = version
        return state

    @abstractmethod
    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Rng) -> S:
        """The initial state; chance outcomes go into ``state.effects``."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Seats that must decide now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[Move]:
        """Every move ``seat`` may make now (empty if the seat is not to act)."""

    def check(self, state: S, seat: int, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal. Games override for speed/words."""
        if seat not in self.to_act(state):
            raise IllegalMove(self.not_your_turn(state, seat))
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(_("{move} is not allowed now", move=self.describe_text(move, seat)))

    def not_your_turn(self, state: S, seat: int) -> Text:
        """The sentence for a seat that is not to act."""
        if self.result(state) is not None:
            return GAME_OVER
        waiting = tuple(Seat(s) for s in self.to_act(state))
        return _(
            "{seat} is not to act now (waiting for {waiting})", seat=Seat(seat), waiting=waiting
        )

    def apply(self, state: S, seat: int, move: Move) -> S:
        """A new state after ``seat`` plays ``move``; ``state`` itself is never changed."""
        new = self.clone(state)
        self.apply_in_place(new, seat, move)
        return new

    def apply_in_place(self, state: S, seat: int, move: Move) -> None:
        """Validate then play ``move`` on ``state`` itself (replay's fast path).

        On :class:`IllegalMove` the state is untouched: validation happens before any change.
        """
        self.check(state, seat, move)
        state.effects = []
        state.step += 1
        self.play(state, seat, move)

    @abstractmethod
    def play(self, state: S, seat: int, move: Move) -> None:
        """Carry out a move already validated by :meth:`check`, mutating ``state``."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see now, JSON-ready; nothing hidden from it."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The final result, or None while the game goes on."""

    def describe(self, move: Move, seat: int) -> str:
        """One line a person reads in the audit log, e.g. "seat 2 plays the magistrat (3)"."""
        return str(self.describe_text(move, seat))

    def describe_text(self, move: Move, seat: int) -> Text:
        """:meth:`describe` as a template and parameters, for the apps to translate. Every game
        overrides this one (a game that overrides only ``describe`` is shown untranslated)."""
        if type(self).describe is Game.describe:
            raise NotImplementedError(f"{type(self).__name__} implements neither describe")
        return untranslated(self.describe(move, seat))

    # -- an arbiter's replay from move n --------------------------------------------------
    def reshuffle_unseen(self, state: S, seed: str) -> None:
        """Give ``state`` a fresh RNG from ``seed`` and shuffle with it what no seat has seen.

        A game continued by a "replay from move n" ruling is dealt with the old game's seed,
        which became public when the old game ended: without this, anyone replaying the old
        game would know the draw pile and every later chance outcome. Cards a seat has seen
        (its hand, face-up cards, anything revealed or consulted) stay where they are, so
        every seat's view is the same before and after, apart from the last step's effects:
        they are replaced by the reshuffle's own, public text (no card identities). The step
        count does not change: no move was made. In place; deterministic for a given seed.
        """
        state.effects = []
        state.rng = Rng(seed)
        self.shuffle_unseen(state)

    @abstractmethod
    def shuffle_unseen(self, state: S) -> None:
        """Shuffle, with ``state.rng`` (already the fresh one), every zone no seat has seen, and
        note a public effect saying what was shuffled. Called by :meth:`reshuffle_unseen`."""

    # -- optional hooks -------------------------------------------------------------------
    def public_move(self, move: Move, seat: int) -> dict[str, Any]:
        """What players other than ``seat`` may see of the move (default: all of it)."""
        return move.to_json()

    def estimate(self, state: S, seat: int) -> float:
        """A score estimate for ``seat`` (greedy bots maximise it); higher is better."""
        return 0.0

    # -- plain data -----------------------------------------------------------------------
    def decode_move(self, data: Any) -> Move:
        """A move from its JSON form (raises BadMove when malformed)."""
        return self.moves.decode(data)

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The full state as plain data (seed included: for snapshots and audits only).

        The last step's effect messages (not state fields) ride along as ``effect_messages``,
        so a state read back from a snapshot can still be shown in the viewer's language.
        """
        plain: dict[str, Any] = to_plain(state)
        messages = [None if e.message is None else e.message.to_json() for e in state.effects]
        if any(messages):
            plain[EFFECT_MESSAGES] = messages
        return plain

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """The inverse of :meth:`state_to_json`."""
        fields = dict(data)
        messages = fields.pop(EFFECT_MESSAGES, None) or []
        state: S = from_plain(self.state_type, fields)
        for effect, message in zip(state.effects, messages, strict=False):
            if message is not None:
                effect.message = Text.from_json(message)
        return state

    def clone(self, state: S) -> S:
        """An independent copy of ``state``."""
        return copy.deepcopy(state)
