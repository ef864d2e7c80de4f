"""What a seat may see of a game of 13 Couronnes, and moves in words.

Hidden: other seats' hands, the draw pile and the face-down discard pile; under the
``hidden_crowns`` option, other seats' crowns and the reserve until the game ends."""

from __future__ import annotations

from typing import Any

from engine.core.moves import Move
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

PHASE_WORDS = {
    "start": "apply the law, change the King or redo the hand",
    "paid": "play a card as the new King",
    "changed": "apply the new law or end the turn",
    "applied": "apply the law again with other cards or end the turn",
    "redo": "discard another card or draw up to 6",
    "drawn": "end the turn",
}


def view(state: CouronnesState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it: own hand, counts of the others, the King pile."""
    king = king_in_power(state)
    return {
        "seat": seat,
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
        "winner": None if state.winner == NOBODY else state.winner,
    }


def decision_words(state: CouronnesState) -> str:
    """What the seat to act is deciding now, in words (the client shows it)."""
    if state.phase == "over":
        return "the game is over"
    who = f"seat {state.current}"
    if state.pending:
        kind, _, amount = state.pending[0].partition(":")
        return f"{who} takes the reward: {kind} {amount}"
    return f"{who}: " + PHASE_WORDS[state.phase]


def _crowns_seen(state: CouronnesState, owner: int, viewer: int | None) -> int | None:
    if state.hidden_crowns and owner != viewer and state.phase != "over":
        return None
    return state.crowns[owner]


def describe(move: Move, seat: int) -> str:
    """One line for the audit log."""
    who = f"seat {seat}"
    if isinstance(move, (Reveal, Discard)):
        verb = "reveals" if isinstance(move, Reveal) else "discards"
        used = [*move.cards, *(f"joker {j}" for j in move.jokers),
                *(f"{b} blason" for b in move.blasons)]  # fmt: skip
        return f"{who} applies the law: {verb} {', '.join(used) or 'nothing'}"
    if isinstance(move, Claim):
        return f"{who} applies the once-per-turn law"
    if isinstance(move, ChangeKing):
        extra = f", announcing {move.announce}" if move.announce else ""
        return f"{who} makes {move.card} the King in power{extra}"
    if isinstance(move, PayGuard):
        return f"{who} gives {move.card} to the guard's owner to change the King"
    if isinstance(move, RedoDiscard):
        return f"{who} discards {move.card} to redo the hand"
    if isinstance(move, RedoDraw):
        return f"{who} draws up to 6 cards"
    if isinstance(move, TakeToken):
        drop = f" after giving back a {move.drop} token" if move.drop else ""
        return f"{who} takes the {move.token} token{drop}"
    if isinstance(move, (StealCrowns, StealCards)):
        what = "crown" if isinstance(move, StealCrowns) else "card"
        return f"{who} steals a {what} from " + ", ".join(f"seat {v}" for v in move.victims)
    if isinstance(move, EndTurn):
        return f"{who} ends the turn" + (", placing a guard" if move.guard else "")
    return f"{who} plays {move.to_json()}"


def public_move(move: Move, seat: int) -> dict[str, Any]:
    """Discarded cards are face down, and so is a card given for a guard."""
    data = move.to_json()
    if isinstance(move, Discard):
        data["cards"] = len(move.cards)
        data["jokers"] = len(move.jokers)
    elif isinstance(move, (RedoDiscard, PayGuard)):
        data["card"] = "hidden"
    return data
