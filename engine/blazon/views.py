"""What a seat may see of a game of Blazon, and moves in words.

Hidden: other seats' hands (the drawn, not yet kept cards are part of the hand) and the order
of both decks. Discard piles, the display and shields are face up."""

from __future__ import annotations

from typing import Any

from engine.blazon import scoring
from engine.blazon.cards import (
    EDITIONS,
    Card,
    Distinction,
)
from engine.blazon.moves import (
    Claim,
    Discard,
    Draw,
    EndTurn,
    Exchange,
    Finish,
    HeraldDiscardPile,
    HeraldDraw,
    HeraldRefresh,
    HeraldTake,
    Keep,
    Pass,
    Pay,
    PayCards,
    Place,
    Refresh,
)
from engine.blazon.shield import (
    TABLES,
    blazon_text,
)
from engine.blazon.state import ALIGNS, DECKS, SPACES, BlazonState
from engine.blazon.words import ALIGN_WORDS, DECK_NAMES, DISCARD_NAMES
from engine.core.moves import Move
from engine.core.text import Seat, Text, _

_DEFAULT = EDITIONS[next(iter(EDITIONS))]
CARD_NAMES = {number: card.name for number, card in _DEFAULT.cards.items()}
CARD_PRESTIGE = {number: card.prestige for number, card in _DEFAULT.cards.items()}
SPACE_NAMES = tuple(space.name for space in _DEFAULT.board.spaces)
FIXED_WORDS: dict[type[Move], str] = {
    Keep: _("{seat} keeps the drawn cards").msgid,
    Finish: _("{seat} finishes the Blazon action").msgid,
    HeraldRefresh: _("{seat} uses a herald to discard and refill the display").msgid,
    Refresh: _("{seat} refreshes the display").msgid,
    EndTurn: _("{seat} ends the turn").msgid,
    Pass: _("{seat} passes (nothing to draw or place)").msgid,
}
#: A placement in words, by (herald, abate).
PLACE_WORDS = {
    (False, False): _("{seat} places {card} ({worth}) on {space} ({align})").msgid,
    (True, False): _(
        "{seat} places {card} ({worth}) on {space} ({align}) with the Herald action"
    ).msgid,
    (False, True): _(
        "{seat} places {card} ({worth}) on {space} ({align}) using the abatement token"
    ).msgid,
    (True, True): _(
        "{seat} places {card} ({worth}) on {space} ({align}) with the Herald action using the "
        "abatement token"
    ).msgid,
}


def describe(move: Move, seat: int) -> Text:
    """One line a person reads in the audit log."""
    who = Seat(seat)
    if isinstance(move, Pay):
        return _("{seat} pays with {card}", seat=who, card=_card_name(move.card))
    if isinstance(move, PayCards):
        return _(
            "{seat} pays with {cards}", seat=who, cards=tuple(_card_name(n) for n in move.cards)
        )
    if isinstance(move, Place):
        space = SPACE_NAMES[move.space] if 0 <= move.space < SPACES else f"space {move.space}"
        worth = CARD_PRESTIGE.get(move.card, "?")
        align = ALIGN_WORDS.get(move.align, move.align)
        return Text(
            PLACE_WORDS[bool(move.herald), bool(move.abate)],
            {"seat": who, "card": _card_name(move.card), "worth": worth, "space": space,
             "align": align},
        )  # fmt: skip
    if isinstance(move, Draw):
        return _("{seat} draws from {deck}", seat=who, deck=_deck(move.deck))
    if isinstance(move, Exchange):
        return _(
            "{seat} exchanges {card} for display slot {slot}",
            seat=who, card=_card_name(move.card), slot=move.slot,
        )  # fmt: skip
    if isinstance(move, Discard):
        return _("{seat} discards {card} (hand limit)", seat=who, card=_card_name(move.card))
    if isinstance(move, HeraldTake):
        return _("{seat} uses a herald to take display slot {slot}", seat=who, slot=move.slot)
    if isinstance(move, HeraldDraw):
        return _("{seat} uses a herald to draw from {deck}", seat=who, deck=_deck(move.deck))
    if isinstance(move, HeraldDiscardPile):
        pile = DISCARD_NAMES.get(move.deck) or f"the {move.deck} discard pile"
        return _("{seat} uses a herald to take the top of {pile}", seat=who, pile=pile)
    if isinstance(move, Claim):
        return _(
            "{seat} claims distinction {distinction}",
            seat=who, distinction=distinction_name(move.distinction, _DEFAULT.name),
        )  # fmt: skip
    fixed = FIXED_WORDS.get(type(move))
    if fixed is None:
        return _("{seat} {move}", seat=who, move=move.TYPE)
    return Text(fixed, {"seat": who})


def _deck(deck: str) -> Text | str:
    """A deck in words (a malformed move's unknown deck as it was written)."""
    return DECK_NAMES.get(deck) or f"the {deck} deck"


def view(state: BlazonState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see now."""
    tables = TABLES[state.edition]
    edition = tables.edition

    def card(number: int) -> dict[str, Any]:
        return _card_json(edition.cards[number])

    players = []
    for index, p in enumerate(state.players):
        shown: dict[str, Any] = {
            "seat": index,
            "hand_count": len(p.hand),
            "shield": [
                {
                    "space": tables.board.spaces[s].name,
                    "align": ALIGNS[p.aligns[s]],
                    "card": card(p.shield[s]),
                    "abated": s == p.abated_space,
                }
                if p.shield[s]
                else None
                for s in range(SPACES)
            ],
            "blazon": blazon_text(p, tables),
            "prestige": p.prestige,
            "heralds": p.heralds,
            "animals": p.animals,
            "abatement_token": p.abatement,
            "distinctions": p.markers[:],
        }
        if index == seat:
            shown["hand"] = [card(n) for n in p.hand]
        players.append(shown)
    view: dict[str, Any] = {
        "edition": state.edition,
        "options": {"abatement": state.abatement_rule},
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase,
        "players": players,
        "display": [card(n) if n else None for n in state.display],
        "decks": {d: len(state.decks[d]) for d in DECKS},
        "discards": {d: [card(n) for n in state.discards[d]] for d in DECKS},
        "distinctions": [
            {
                **_distinction_json(edition.distinction_by_id[d], len(state.players)),
                "markers": taken[:],
            }
            for d, taken in zip(state.distinctions, state.awards, strict=True)
        ],
        "herald_pile": state.herald_pile,
        "milestones": {
            str(m): s for m, s in zip(tables.board.milestones, state.milestones, strict=True)
        },
        "herald_action_used": state.herald_used,
        "refresh_used": state.refresh_used,
        "pay_due": state.pay_due,
        "drawn_count": len(state.drawn),
        "claimable": state.claimable[:],
        "end_trigger": {"trigger": state.trigger, "seat": state.trigger_seat}
        if state.trigger
        else None,
        "last_effects": [e.public_json(seat) for e in state.effects],
    }
    if seat == state.turn:
        view["drawn"] = [card(n) for n in state.drawn]
    result = scoring.result(state)
    if result is not None:
        view["result"] = result.to_json()
    return view


def _card_name(number: int) -> str:
    return CARD_NAMES.get(number, f"card {number}")


def card_name(number: int, edition: str) -> str:
    """A card in a sentence as the table and the last moves write it: its name ("card 999" for
    a number no card has, a malformed move's)."""
    card = EDITIONS[edition].cards.get(number) if edition in EDITIONS else None
    return card.name if card is not None else _card_name(number)


def distinction_name(distinction: str, edition: str) -> str:
    """A Distinction card in a sentence: its name (an id no card has, as it was written)."""
    found = EDITIONS[edition].distinction_by_id.get(distinction) if edition in EDITIONS else None
    return found.name if found is not None else str(distinction)


def _card_json(card: Card) -> dict[str, Any]:
    return {
        "number": card.number,
        "id": card.id,
        "category": card.category,
        "type": card.type,
        "name": card.name,
        "augmentation": card.augmentation,
        "prestige": card.prestige,
    }


def _distinction_json(distinction: Distinction, players: int) -> dict[str, Any]:
    return {
        "id": distinction.id,
        "category": distinction.category,
        "name": distinction.name,
        "requirement": distinction.requirement,
        "awards": list(distinction.awards(players)),
    }
