"""Blazon's moves: small frozen dataclasses, one per step of a turn (docs/rules/blazon.md,
"A turn as moves"). Cards are referred to by their number, shield spaces by their index."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.moves import Move, MoveSet, move_type


@move_type("draw")
@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Acquire: draw the top card of the tincture or device deck."""

    deck: str


@move_type("exchange")
@dataclass(frozen=True, slots=True)
class Exchange(Move):
    """Acquire: swap a card just drawn for the display card in ``slot`` of the same kind."""

    card: int
    slot: int


@move_type("keep")
@dataclass(frozen=True, slots=True)
class Keep(Move):
    """Acquire: keep the drawn cards (no more exchanges)."""


@move_type("place")
@dataclass(frozen=True, slots=True)
class Place(Move):
    """Put a hand card on a shield space in an alignment; then pay for it.

    ``herald``: the Herald action (costs a herald token, pay only 1). ``abate``: use the
    abatement token to break one placement rule (option ``abatement``).
    """

    card: int
    space: int
    align: str
    herald: bool = False
    abate: bool = False


@move_type("pay")
@dataclass(frozen=True, slots=True)
class Pay(Move):
    """Discard one hand card towards the cost of the card just placed."""

    card: int


@move_type("pay_cards")
@dataclass(frozen=True, slots=True)
class PayCards(Move):
    """Pay for the card just placed in one move: discard these hand cards (each listed once, in
    increasing number). Legal when their prestige covers what is due and none of them is
    needed for nothing (without its largest card the rest would not cover it); the same as
    ``pay`` with each of them, the smallest prestige first (engine 1.3.0)."""

    cards: tuple[int, ...]


@move_type("finish")
@dataclass(frozen=True, slots=True)
class Finish(Move):
    """End the Blazon action (no more placements this turn)."""


@move_type("herald_take")
@dataclass(frozen=True, slots=True)
class HeraldTake(Move):
    """Herald action: take the display card in ``slot``; the slot is refilled."""

    slot: int


@move_type("herald_draw")
@dataclass(frozen=True, slots=True)
class HeraldDraw(Move):
    """Herald action: take the top card of a deck."""

    deck: str


@move_type("herald_discard_pile")
@dataclass(frozen=True, slots=True)
class HeraldDiscardPile(Move):
    """Herald action: take the top card of a deck's discard pile."""

    deck: str


@move_type("herald_refresh")
@dataclass(frozen=True, slots=True)
class HeraldRefresh(Move):
    """Herald action: discard the whole display and refill it."""


@move_type("refresh")
@dataclass(frozen=True, slots=True)
class Refresh(Move):
    """Free refresh, once per turn, when three display cards share a symbol."""


@move_type("discard")
@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Hand limit: discard one card (end of turn, above 7 cards)."""

    card: int


@move_type("claim")
@dataclass(frozen=True, slots=True)
class Claim(Move):
    """Place a distinction marker on this distinction (when several are met)."""

    distinction: str


@move_type("end_turn")
@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """End the turn."""


@move_type("pass")
@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Acquire nothing: only when no card can be drawn and no card placed."""


MOVES = MoveSet(
    Draw,
    Exchange,
    Keep,
    Place,
    Pay,
    PayCards,
    Finish,
    HeraldTake,
    HeraldDraw,
    HeraldDiscardPile,
    HeraldRefresh,
    Refresh,
    Discard,
    Claim,
    EndTurn,
    Pass,
)
