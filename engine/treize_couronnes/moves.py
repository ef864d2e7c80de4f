"""The moves of 13 Couronnes: small frozen dataclasses, one per decision of a turn. Cards are
named by their id (``"B04"``); a reward's choices name tokens, colours and victims' seats."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.moves import Move, MoveSet, move_type


@move_type("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """Apply a reveal law: reveal ``cards``, discarding ``jokers`` in place of missing cards
    and ``blasons`` in place of cards of their colour."""

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
