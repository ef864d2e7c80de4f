"""The state of a 13 Couronnes game and its moves.

Cards are named by their id (``"B04"``); hands are kept sorted. The King pile is ``kings``,
bottom first: the last card is the King in power and nothing beneath it ever leaves (ruling
13C-2). ``pending`` holds the parts of a reward still to be taken, in order, when one of them
needs a decision (a blason's colour, a token to give up, whom to steal from).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.game import GameState
from engine.core.moves import Move, MoveSet, move_type

NOBODY = -1


@dataclass(kw_only=True)
class CouronnesState(GameState):
    """Everything about a game in progress. ``phase`` says what the seat to act may do:

    ``start`` (choose: apply the law, change the King, redo the hand), ``paid`` (a guard was
    paid for: change the King), ``changed`` (the King was
    changed: apply the new law or end the turn), ``applied`` (apply again or end the turn),
    ``redo`` (discard more or draw), ``drawn`` (end the turn), ``over``.
    """

    edition: str
    players: int
    max_turns: int
    hidden_crowns: bool
    hands: list[list[str]]
    draw: list[str]
    discard: list[str]
    kings: list[str]
    announced: str = ""
    guard_owner: int = NOBODY  # the seat whose guard stands on the King in power
    crowns: list[int]
    guards: list[int]
    blasons: list[list[str]]  # blason token colours held by each seat, sorted
    reserve_crowns: int
    reserve_guards: int
    reserve_blasons: dict[str, int]
    current: int = 0
    phase: str = "start"
    revealed: list[str] = field(default_factory=list)  # cards revealed this turn
    pending: list[str] = field(default_factory=list)  # reward parts awaiting a decision
    turns: int = 0
    winner: int = NOBODY
    law_crowns: dict[str, int] = field(default_factory=dict)  # crowns gained under each King

    def tokens(self, seat: int) -> int:
        """Guards plus blasons held by ``seat`` (never more than 2)."""
        return self.guards[seat] + len(self.blasons[seat])


@move_type("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """Apply a reveal law: reveal ``cards``, discarding ``jokers`` and ``blasons`` in place of
    missing cards."""

    cards: tuple[str, ...]
    jokers: tuple[str, ...] = ()
    blasons: tuple[str, ...] = ()


@move_type("discard")
@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Apply a discard law: discard ``cards`` (face down), ``jokers`` and ``blasons``."""

    cards: tuple[str, ...]
    jokers: tuple[str, ...] = ()
    blasons: tuple[str, ...] = ()


@move_type("claim")
@dataclass(frozen=True, slots=True)
class Claim(Move):
    """Apply a once-per-turn law (most cards of a colour, fewest crowns, exactly 4 cards)."""


@move_type("pay-guard")
@dataclass(frozen=True, slots=True)
class PayGuard(Move):
    """Give ``card`` to the owner of the guard on the King in power, sending the guard back to
    the reserve: the price of changing a King an opponent guards (a change must follow)."""

    card: str


@move_type("change-king")
@dataclass(frozen=True, slots=True)
class ChangeKing(Move):
    """Play ``card`` as the new King; ``announce`` names the colour of a ``reveal:announced``
    King ("" for any other)."""

    card: str
    announce: str = ""


@move_type("redo-discard")
@dataclass(frozen=True, slots=True)
class RedoDiscard(Move):
    """Redo the hand: discard one more card (face down)."""

    card: str


@move_type("redo-draw")
@dataclass(frozen=True, slots=True)
class RedoDraw(Move):
    """Redo the hand: stop discarding and draw up to 6 cards."""


@move_type("take-token")
@dataclass(frozen=True, slots=True)
class TakeToken(Move):
    """Take a token of a reward: ``token`` is "guard", a blason colour, or "none" to let it go;
    ``drop`` is the token given back first when already holding 2 ("" when not needed)."""

    token: str
    drop: str = ""


@move_type("steal-crowns")
@dataclass(frozen=True, slots=True)
class StealCrowns(Move):
    """Steal crowns: one entry per crown, naming the victim's seat (sorted)."""

    victims: tuple[int, ...]


@move_type("steal-cards")
@dataclass(frozen=True, slots=True)
class StealCards(Move):
    """Steal cards at random from hands: one entry per card, naming the victim's seat (sorted)."""

    victims: tuple[int, ...]


@move_type("end-turn")
@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """End the turn, placing one of one's guards on the King in power when ``guard``."""

    guard: bool = False


MOVES = MoveSet(
    Reveal, Discard, Claim, PayGuard, ChangeKing, RedoDiscard, RedoDraw, TakeToken, StealCrowns,
    StealCards, EndTurn,
)  # fmt: skip
