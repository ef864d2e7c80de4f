"""The plain data the pairing engines read and return.

Nothing here knows about Django: the tournament services turn ORM rows into these values and
the results back into rows. Every value is a frozen dataclass of ids and numbers, so a draw can
be computed, compared and tested without a database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a sentence template for translation (``makemessages`` extracts ``gettext_noop``);
    the pure layer keeps English, the Django side translates when it renders."""
    return message


class PairingError(ValueError):
    """A draw, bracket or standing cannot be made; the message says why, for a person to read."""


class PairingBug(RuntimeError):
    """Something that cannot happen did: a defect in the pairing engine, not in the input."""


@dataclass(frozen=True)
class Entrant:
    """One active player as the pairing sees them.

    ``seat_counts[s]`` is how many times the player sat in seat ``s`` (seat 0 first). When it is
    empty the engines count seats from :class:`History` instead.
    """

    id: int
    points: float = 0.0
    seed: int = 0
    byes: int = 0
    seat_counts: tuple[int, ...] = ()


@dataclass(frozen=True)
class History:
    """What happened in earlier rounds.

    ``tables`` holds every earlier table as entrant ids in seat order. ``round_numbers``, when
    given, is parallel to ``tables`` (the round each table was played in) and only serves to
    name the round in warnings.
    """

    tables: tuple[tuple[int, ...], ...] = ()
    round_numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableRule:
    """Table sizes allowed by the game and the tournament, e.g. preferred 4, allowed (3, 4, 5)."""

    preferred: int
    allowed: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.allowed or min(self.allowed) < 1:
            raise PairingError("A table rule needs at least one allowed table size of 1 or more.")
        if self.preferred not in self.allowed:
            raise PairingError(
                f"The preferred table size {self.preferred} is not among the allowed sizes "
                f"{', '.join(str(size) for size in sorted(self.allowed))}."
            )

    @property
    def smallest(self) -> int:
        """The smallest allowed table."""
        return min(self.allowed)

    @property
    def largest(self) -> int:
        """The largest allowed table."""
        return max(self.allowed)


@dataclass(frozen=True)
class DrawWarning:
    """One rule a draw breaks, structured so the Django side can name the players.

    ``code`` is one of ``repeat``, ``second_bye``, ``extra_bye``, ``table_size``,
    ``seated_twice``, ``missing``, ``unknown``, ``seat_balance``, ``results_missing``.
    ``template`` is a sentence with ``{0}``, ``{1}``... standing for ``entrants`` in order;
    :meth:`render` fills in names, ``str()`` fills in "entrant <id>". ``table`` is the
    1-based table number the warning is about, when there is one.
    """

    code: str
    entrants: tuple[int, ...]
    template: str
    table: int | None = None
    #: Named values of the template besides the entrants (numbers, a list of sizes).
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def render(self, names: Mapping[int, str], translate: Callable[[str], str] = str) -> str:
        """The sentence with each entrant id replaced by its name (or "entrant <id>"), its
        template first passed through ``translate`` (the Django side's ``gettext``)."""
        shown = (names.get(e, f"entrant {e}") for e in self.entrants)
        return translate(self.template).format(*shown, **self.params)

    @property
    def message(self) -> str:
        """The sentence with entrant ids, for logs and the pure layer."""
        return self.render({})

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Pairing:
    """A drawn round: tables of entrant ids in seat order (seat 0 first), byes, quality figures.

    ``quality`` always has ``repeat_pairs`` (pairs of entrants seated together again),
    ``max_score_spread`` and ``mean_score_spread`` (highest minus lowest points at a table),
    ``seat_imbalance`` (over seated entrants, the largest gap between the seat they used most
    and least, this round included), ``floaters`` (entrants seated outside their score group),
    ``tables`` and ``byes``. ``warnings`` are the rules the draw had to break.
    """

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    quality: Mapping[str, float]
    warnings: tuple[DrawWarning, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """One finished, counted game, or a bye (``table=(entrant,)``, ``ranks=(1,)``, ``bye=True``).

    ``ranks`` gives the finishing rank per seat, 1-based; tied players share a rank.
    ``scores`` is the game score per seat (e.g. prestige), or empty. A round a late entrant
    missed has the shape of a bye with ``late_entry=True`` instead: it earns the rule's
    ``late_entry_points`` and is counted apart from the byes the draw gave.
    """

    table: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] = ()
    round_number: int = 0
    bye: bool = False
    late_entry: bool = False


@dataclass(frozen=True)
class StandingRule:
    """How standings are counted.

    ``points_by_rank[r]`` is awarded for finishing rank ``r + 1``; tied players split the points
    of the places they occupy (the average). Ranks past the end of the tuple earn 0.
    ``tiebreakers`` are applied in order, from ``opponents_points`` (the multiplayer Buchholz),
    ``game_score``, ``head_to_head`` and ``wins``. ``late_entry_points`` is what a late entrant
    earns for each round played before they entered (0: nothing, today's default).
    """

    points_by_rank: tuple[float, ...]
    bye_points: float = 0.0
    tiebreakers: tuple[str, ...] = ()
    late_entry_points: float = 0.0


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; ``rank`` is 1-based and tied entrants share it.

    ``byes`` are the byes the draw gave; ``late_byes`` the rounds missed before a late entry.
    """

    entrant: int
    rank: int
    points: float
    tiebreaks: Mapping[str, float]
    games: int
    wins: int
    byes: int
    late_byes: int = 0


@dataclass(frozen=True)
class Route:
    """Where a finisher of a match goes next: the match id and the slot index in it."""

    match: str
    slot: int


@dataclass(frozen=True)
class Match:
    """One table of a bracket.

    ``slots`` holds entrant ids in seat order, ``None`` while still to be decided or for a bye;
    ``bye_slots`` lists the slot indices that are byes (never filled). ``routes[r]`` says where
    the finisher of rank ``r + 1`` goes (``None``: out of the bracket, or champion for the
    final). ``advance`` is how many top finishers stay in contention (1 for two players; K in a
    top-K knockout). ``result`` is the finishing order (entrant ids, winner first) once known; a match
    whose entrants are all known and no more than the places that advance is settled as a bye.
    ``section`` is ``winners``, ``losers``, ``final`` or ``knockout``; ``round`` is 1-based
    within its section.
    """

    id: str
    section: str
    round: int
    slots: tuple[int | None, ...]
    routes: tuple[Route | None, ...]
    advance: int = 1
    bye_slots: tuple[int, ...] = ()
    result: tuple[int, ...] | None = None

    @property
    def entrants(self) -> tuple[int, ...]:
        """The entrants already placed in this match."""
        return tuple(e for e in self.slots if e is not None)

    @property
    def is_bye(self) -> bool:
        """True when the match is settled without being played."""
        return bool(self.bye_slots) and len(self.slots) - len(self.bye_slots) <= self.advance

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict a page can draw."""
        return {
            "id": self.id,
            "section": self.section,
            "round": self.round,
            "slots": list(self.slots),
            "bye_slots": list(self.bye_slots),
            "advance": self.advance,
            "routes": [
                None if r is None else {"match": r.match, "slot": r.slot} for r in self.routes
            ],
            "result": None if self.result is None else list(self.result),
        }


@dataclass(frozen=True)
class Bracket:
    """A whole bracket: ``kind`` is ``single_elimination``, ``double_elimination`` or
    ``knockout``; ``matches`` are in playing order (section, then round, then position)."""

    kind: str
    matches: tuple[Match, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def match(self, match_id: str) -> Match:
        """The match with this id; :class:`PairingError` if there is none."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise PairingError(f"The bracket has no match {match_id!r}.")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict a page can draw: kind, matches grouped into rounds, meta."""
        rounds: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for m in self.matches:
            rounds.setdefault((m.section, m.round), []).append(m.to_json())
        return {
            "kind": self.kind,
            "rounds": [
                {"section": section, "round": number, "matches": matches}
                for (section, number), matches in rounds.items()
            ],
            "meta": dict(self.meta),
        }
