"""The moves of Les 7 Blasons. A decision is split into small moves.

Tokens are addressed by position: ``(seat, slot)`` in front of a player, or ``seat == -1`` for
the draw pile, where ``slot == -1`` means "a face-down token, at random" and ``slot == c``
means "a face-up token of colour c".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Move, MoveSet, move_type

PILE = -1
FACE_DOWN = -1


@move_type("play")
@dataclass(frozen=True, slots=True)
class PlayCard(Move):
    """Play the card of this rank (0 = malandrin); ``bourgeoisie``: activate one's card too."""

    rank: int
    bourgeoisie: bool = False


@move_type("steal")
@dataclass(frozen=True, slots=True)
class Steal(Move):
    """The malandrin's choice: the ``value`` or the ``power`` of the card at play position."""

    card: int
    mode: str


@move_type("take-token")
@dataclass(frozen=True, slots=True)
class TakeToken(Move):
    """Take a token from the draw pile (manant, or the winner's free action)."""

    pick: int


@move_type("turn-up")
@dataclass(frozen=True, slots=True)
class TurnUp(Move):
    """Turn a face-down token face up (ménétrier, or the winner's free action)."""

    seat: int
    slot: int


@move_type("remove-token")
@dataclass(frozen=True, slots=True)
class RemoveToken(Move):
    """Magistrat: put a token of another player's game into the draw pile."""

    seat: int
    slot: int


@move_type("choose-token")
@dataclass(frozen=True, slots=True)
class ChooseToken(Move):
    """Intendant or religieux, first step: the token to exchange or move."""

    seat: int
    slot: int


@move_type("exchange-with")
@dataclass(frozen=True, slots=True)
class ExchangeWith(Move):
    """Intendant, second step: the token (or draw pile token) it is exchanged with."""

    seat: int
    slot: int


@move_type("move-to")
@dataclass(frozen=True, slots=True)
class MoveTo(Move):
    """Religieux (variant 4), second step: the player whose game receives the token."""

    seat: int


@move_type("consult-trick")
@dataclass(frozen=True, slots=True)
class ConsultTrick(Move):
    """Variant 1: look at one trick of oneself or of a single other player."""

    seat: int
    trick: int


@move_type("take-card")
@dataclass(frozen=True, slots=True)
class TakeCard(Move):
    """Variant 2: take the card of one's bourgeoisie character and colour from a player's tricks."""

    seat: int
    colour: int


@move_type("consult-token")
@dataclass(frozen=True, slots=True)
class ConsultToken(Move):
    """Variant 3: look at a face-down token of oneself or of a single other player."""

    seat: int
    slot: int


@move_type("finish")
@dataclass(frozen=True, slots=True)
class Finish(Move):
    """End one's bourgeoisie action."""


MOVES = MoveSet(
    PlayCard, Steal, TakeToken, TurnUp, RemoveToken, ChooseToken, ExchangeWith, MoveTo,
    ConsultTrick, TakeCard, ConsultToken, Finish,
)  # fmt: skip
