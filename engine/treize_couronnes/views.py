"""What a seat may see of a game of 13 Couronnes, and moves in words.

Hidden: other seats' hands, the draw pile and the face-down discard pile; under the
``hidden_crowns`` option, other seats' crowns and the reserve until the game ends."""

from __future__ import annotations

from typing import Any

from engine.core.game import GAME_OVER
from engine.core.moves import Move
from engine.core.text import Seat, Text, _
from engine.treize_couronnes.moves import (
    ChangeKing,
    Claim,
    Discard,
    EndTurn,
    PayGuard,
    RedoDiscard,
    RedoDraw,
    Reveal,
    StealCards,
    StealCrowns,
    TakeToken,
)
from engine.treize_couronnes.state import (
    NOBODY,
    CouronnesState,
    king_in_power,
    showing_reward,
    showing_through,
)
from engine.treize_couronnes.words import (
    COLOUR_WORDS,
    REWARD_WORDS,
    TOKEN_WORDS,
    card_words,
    word,
)

PHASE_WORDS = {
    "start": _("{seat}: apply the law, change the King or redo the hand").msgid,
    "paid": _("{seat}: play a card as the new King").msgid,
    "changed": _("{seat}: apply the new law or end the turn").msgid,
    "applied": _("{seat}: apply the law again with other cards or end the turn").msgid,
    "redo": _("{seat}: discard another card or draw up to 6").msgid,
    "drawn": _("{seat}: end the turn").msgid,
}


def view(state: CouronnesState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it: own hand, counts of the others, the King pile."""
    king = king_in_power(state)
    return {
        "seat": seat,
        "edition": state.edition,  # the card list the ids name (public, as the stream's)
        "players": state.players,
        "current": state.current,
        "phase": state.phase,
        "turn": state.turns,
        "max_turns": state.max_turns,
        "king": {
            "card": king.id,
            "colour": king.colour,
            "law": king.law,
            "announced": state.announced or None,
            "guard": None if state.guard_owner == NOBODY else state.guard_owner,
            "reward_from": showing_through(state),
            "reward": "+".join(f"{r.kind}:{r.amount}" for r in showing_reward(state)),
        },
        "kings": list(state.kings),
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "crowns": [_crowns_seen(state, s, seat) for s in range(state.players)],
        "guards": list(state.guards),
        "blasons": [list(b) for b in state.blasons],
        "reserve": {
            "crowns": None if state.hidden_crowns else state.reserve_crowns,
            "guards": state.reserve_guards,
            "blasons": dict(state.reserve_blasons),
        },
        "draw_count": len(state.draw),
        "discard_count": len(state.discard),
        "revealed": list(state.revealed),
        "pending": state.pending[0] if state.pending else None,
        "decision": decision_words(state),
        "decision_message": decision_text(state).to_json(),
        "winner": None if state.winner == NOBODY else state.winner,
    }


def decision_words(state: CouronnesState) -> str:
    """What the seat to act is deciding now, in words (the client shows it)."""
    return str(decision_text(state))


def decision_text(state: CouronnesState) -> Text:
    """:func:`decision_words` as a template and parameters."""
    if state.phase == "over":
        return GAME_OVER
    who = Seat(state.current)
    if state.pending:
        kind, _sep, amount = state.pending[0].partition(":")
        return _(
            "{seat} takes the reward: {kind} {amount}", seat=who, kind=word(REWARD_WORDS, kind),
            amount=amount,
        )  # fmt: skip
    return Text(PHASE_WORDS[state.phase], {"seat": who})


def _crowns_seen(state: CouronnesState, owner: int, viewer: int | None) -> int | None:
    if state.hidden_crowns and owner != viewer and state.phase != "over":
        return None
    return state.crowns[owner]


def describe(move: Move, seat: int) -> Text:
    """One line for the audit log."""
    who = Seat(seat)
    if isinstance(move, (Reveal, Discard)):
        used: tuple[Text | str, ...] = (
            *(card_words(c) for c in move.cards),
            *(_("{card}, standing in", card=card_words(j)) for j in move.jokers),
            *(_("{colour} blason", colour=word(COLOUR_WORDS, b)) for b in move.blasons),
        )
        if isinstance(move, Reveal):
            return _("{seat} applies the law: reveals {used}", seat=who, used=used or NOTHING)
        return _("{seat} applies the law: discards {used}", seat=who, used=used or NOTHING)
    if isinstance(move, Claim):
        return _("{seat} applies the once-per-turn law", seat=who)
    if isinstance(move, ChangeKing):
        if move.announce:
            return _(
                "{seat} puts {card} in power, announcing {colour}", seat=who,
                card=card_words(move.card), colour=word(COLOUR_WORDS, move.announce),
            )  # fmt: skip
        return _("{seat} puts {card} in power", seat=who, card=card_words(move.card))
    if isinstance(move, PayGuard):
        if move.card == HIDDEN:
            return _("{seat} gives a card to the guard's owner to change the King", seat=who)
        return _(
            "{seat} gives {card} to the guard's owner to change the King",
            seat=who,
            card=card_words(move.card),
        )
    if isinstance(move, RedoDiscard):
        if move.card == HIDDEN:  # as the others see it (public_move): face down
            return _("{seat} discards a card face down to redo the hand", seat=who)
        return _("{seat} discards {card} to redo the hand", seat=who, card=card_words(move.card))
    if isinstance(move, RedoDraw):
        return _("{seat} draws up to 6 cards", seat=who)
    if isinstance(move, TakeToken):
        token = word(TOKEN_WORDS, move.token)
        if move.drop:
            return _(
                "{seat} takes the {token} token after giving back a {drop} token", seat=who,
                token=token, drop=word(TOKEN_WORDS, move.drop),
            )  # fmt: skip
        return _("{seat} takes the {token} token", seat=who, token=token)
    if isinstance(move, (StealCrowns, StealCards)):
        victims = tuple(Seat(v) for v in move.victims)
        if isinstance(move, StealCrowns):
            return _("{seat} steals a crown from {victims}", seat=who, victims=victims)
        return _("{seat} steals a card from {victims}", seat=who, victims=victims)
    if isinstance(move, EndTurn):
        if move.guard:
            return _("{seat} ends the turn, placing a guard", seat=who)
        return _("{seat} ends the turn", seat=who)
    return _("{seat} plays {move}", seat=who, move=str(move.to_json()))


NOTHING = _("nothing")
HIDDEN = "hidden"  # the card of a move as others see it (public_move)


def public_move(move: Move, seat: int) -> dict[str, Any]:
    """Discarded cards are face down, and so is a card given for a guard."""
    data = move.to_json()
    if isinstance(move, Discard):
        data["cards"] = len(move.cards)
        data["jokers"] = len(move.jokers)
    elif isinstance(move, (RedoDiscard, PayGuard)):
        data["card"] = HIDDEN
    return data
