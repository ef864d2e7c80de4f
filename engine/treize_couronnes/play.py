"""Carrying out validated 13 Couronnes moves: the law and its reward, the King and its guard,
the hand and the deck, crowns and the end of the game.

Every function here trusts its input (``legality`` has validated the move) and mutates the
state."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any

from engine.core.game import rules_since
from engine.core.moves import Move
from engine.core.seats import next_seat
from engine.core.text import Seat, _
from engine.treize_couronnes import legality
from engine.treize_couronnes.cards import (
    ActionKind,
)
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
    CROWNS_TO_WIN,
    GUARD,
    HAND_SIZE,
    NO_TOKEN,
    NOBODY,
    PLAYED_KINGS_RESHUFFLED,
    TOKEN_LIMIT,
    CouronnesState,
    count_colour,
    kept_kings,
    king_in_power,
    of_colour,
    opponents,
    showing_reward,
)
from engine.treize_couronnes.words import COLOUR_WORDS, REWARD_WORDS, TOKEN_WORDS, word


def carry_out(state: CouronnesState, seat: int, move: Move) -> None:
    """Carry out a validated move (``legality.check`` accepts only the classes of ``_PLAYS``)."""
    _PLAYS[move.__class__](state, seat, move)


def _play_claim_move(state: CouronnesState, seat: int, move: Claim) -> None:
    _play_claim(state, seat)


def _play_redo_discard(state: CouronnesState, seat: int, move: RedoDiscard) -> None:
    _discard_card(state, seat, move.card)
    state.phase = "redo"


def _play_redo_draw(state: CouronnesState, seat: int, move: RedoDraw) -> None:
    _draw_up(state, seat)
    state.phase = "drawn"


def _play_law(state: CouronnesState, seat: int, move: Reveal | Discard) -> None:
    if isinstance(move, Reveal):
        state.revealed.extend(move.cards)
        state.note(
            "reveal",
            _("{seat} reveals {cards}", seat=Seat(seat), cards=tuple(move.cards) or _("no card")),
        )
    else:
        for card in move.cards:
            _discard_card(state, seat, card)
    for card in move.jokers:
        _discard_card(state, seat, card)
    for colour in move.blasons:
        state.blasons[seat].remove(colour)
        state.reserve_blasons[colour] += 1
    _start_reward(state, seat)


def _play_claim(state: CouronnesState, seat: int) -> None:
    action = king_in_power(state).action
    state.phase = "applied"
    if action.kind is ActionKind.ONCE_MOST and not _most_holds(state, seat, action.colour):
        return
    if action.kind is ActionKind.ONCE_FEWEST_CROWNS and not legality.fewest_holds(state, seat):
        # offered regardless only under hidden crowns; the failed attempt uses the turn's one
        state.note(
            "law", _("{seat} does not have strictly the fewest crowns: no reward", seat=Seat(seat))
        )
        return
    _start_reward(state, seat)


def _most_holds(state: CouronnesState, seat: int, colour: str) -> bool:
    """Reveal the claimant's cards of ``colour`` and those of every opponent with as many."""
    mine = count_colour(state, seat, colour)
    shown = {seat: of_colour(state, seat, colour)}
    for other in opponents(state, seat):
        if count_colour(state, other, colour) >= mine:
            shown[other] = of_colour(state, other, colour)
    for who, cards in shown.items():
        state.note(
            "reveal",
            _("{seat} reveals {count} {colour} card(s)", seat=Seat(who), count=len(cards),
              colour=word(COLOUR_WORDS, colour)),
            {"cards": cards},
        )  # fmt: skip
    if len(shown) > 1:
        state.note(
            "law",
            _("{seat} does not have strictly the most {colour}: no reward", seat=Seat(seat),
              colour=word(COLOUR_WORDS, colour)),
        )  # fmt: skip
        return False
    return True


def _play_pay_guard(state: CouronnesState, seat: int, move: PayGuard) -> None:
    owner = state.guard_owner
    state.hands[seat].remove(move.card)
    bisect.insort(state.hands[owner], move.card)
    state.note("guard", _("{seat} gives {owner} a card for the guard", seat=Seat(seat),
                          owner=Seat(owner)),
               {"card": move.card}, visible_to=[seat, owner])  # fmt: skip
    _release_guard(state)
    state.phase = "paid"


def _release_guard(state: CouronnesState) -> None:
    if state.guard_owner != NOBODY:
        state.note(
            "guard", _("the guard of {owner} returns to the reserve", owner=Seat(state.guard_owner))
        )
        state.reserve_guards += 1
        state.guard_owner = NOBODY


def _play_change(state: CouronnesState, seat: int, move: ChangeKing) -> None:
    state.hands[seat].remove(move.card)
    _release_guard(state)  # the owner's own guard: ignored and discarded
    state.kings.append(move.card)
    state.announced = move.announce
    state.phase = "changed"


def _play_take_token(state: CouronnesState, seat: int, move: TakeToken) -> None:
    state.pending.pop(0)
    if move.drop:
        _return_token(state, seat, move.drop)
    if move.token == GUARD:
        state.guards[seat] += 1
        state.reserve_guards -= 1
    elif move.token != NO_TOKEN:
        bisect.insort(state.blasons[seat], move.token)
        state.reserve_blasons[move.token] -= 1
    state.note("reward", _("{seat} takes {token} token", seat=Seat(seat),
                           token=word(TOKEN_WORDS, move.token)) if move.token != NO_TOKEN
               else _("{seat} lets the token go", seat=Seat(seat)))  # fmt: skip
    _continue_reward(state, seat)


def _return_token(state: CouronnesState, seat: int, token: str) -> None:
    if token == GUARD:
        state.guards[seat] -= 1
        state.reserve_guards += 1
    else:
        state.blasons[seat].remove(token)
        state.reserve_blasons[token] += 1
    state.note(
        "reward",
        _("{seat} gives back a {token} token to hold at most 2", seat=Seat(seat),
          token=word(TOKEN_WORDS, token)),
    )  # fmt: skip


def _play_steal(state: CouronnesState, seat: int, move: StealCrowns | StealCards) -> None:
    state.pending.pop(0)
    for victim in move.victims:
        if state.phase == "over":
            break  # the 13th crown ends the game at once
        if isinstance(move, StealCrowns):
            _steal_crown(state, seat, victim)
        else:
            _steal_card(state, seat, victim)
    if state.phase != "over":
        _continue_reward(state, seat)


def _steal_crown(state: CouronnesState, seat: int, victim: int) -> None:
    """Take one crown from ``victim``; one who has none (only offered under hidden crowns)
    gives nothing and that crown of the reward is lost, as the thief sees at the table."""
    if state.crowns[victim] == 0:
        state.note("reward", _("{seat} takes no crown from {victim}: that crown of the reward "
                               "is lost", seat=Seat(seat), victim=Seat(victim)),
                   {"lost": 1})  # fmt: skip
        return
    state.crowns[victim] -= 1
    _gain_crowns(state, seat, 1, victim)


def _steal_card(state: CouronnesState, seat: int, victim: int) -> None:
    hand = state.hands[victim]
    card = hand.pop(state.rng.randbelow(len(hand)))
    bisect.insort(state.hands[seat], card)
    state.note("chance", _("{seat} steals a random card from {victim}", seat=Seat(seat),
                           victim=Seat(victim)),
               {"card": card}, visible_to=[seat, victim])  # fmt: skip


def _play_end(state: CouronnesState, seat: int, move: EndTurn) -> None:
    if move.guard:
        state.guards[seat] -= 1
        state.guard_owner = seat
        state.note(
            "guard", _("{seat} places a guard on {king}", seat=Seat(seat), king=state.kings[-1])
        )
    state.turns += 1
    state.revealed = []
    state.current = next_seat(seat, state.players)
    state.phase = "over" if state.turns >= state.max_turns else "start"
    if state.phase == "over":
        state.note("end", _("the game reaches its limit of {turns} turns", turns=state.max_turns))


def _start_reward(state: CouronnesState, seat: int) -> None:
    """Queue the parts of the reward showing on the King pile and take what needs no choice."""
    if state.phase != "over":
        state.phase = "applied"
    for reward in showing_reward(state):
        if reward.kind in (GUARD, "blason"):
            state.pending.extend([f"{reward.kind}:1"] * reward.amount)
        else:
            state.pending.append(f"{reward.kind}:{reward.amount}")
    _continue_reward(state, seat)


def _continue_reward(state: CouronnesState, seat: int) -> None:
    """Take the queued reward parts in order until one needs a choice or the game ends."""
    while state.pending and state.phase != "over":
        kind, _sep, amount = state.pending[0].partition(":")
        if kind == "crowns":
            state.pending.pop(0)
            _gain_crowns(state, seat, int(amount), None)
        elif _reward_lost(state, seat, kind, int(amount)):
            state.pending.pop(0)
            state.note(
                "reward",
                _("{seat} cannot take {kind} {amount}: it is lost", seat=Seat(seat),
                  kind=word(REWARD_WORDS, kind), amount=amount),
            )  # fmt: skip
        elif kind == GUARD and state.tokens(seat) < TOKEN_LIMIT:
            state.pending.pop(0)
            state.guards[seat] += 1
            state.reserve_guards -= 1
            state.note("reward", _("{seat} takes a guard", seat=Seat(seat)))
        else:
            return  # a choice is needed: the legal moves list it
    if state.phase == "over":
        state.pending.clear()


def _reward_lost(state: CouronnesState, seat: int, kind: str, amount: int) -> bool:
    """A part nobody can give (empty reserve, nothing to steal) or not worth any choice."""
    if kind in (GUARD, "blason"):
        choices = list(legality.token_moves(state, seat, kind))
        return choices in ([], [TakeToken(NO_TOKEN, "")])
    return legality.victim_choices(state, seat, kind, amount) == [()]


def _gain_crowns(state: CouronnesState, seat: int, amount: int, victim: int | None) -> None:
    """``seat`` gains crowns from the reserve (``victim`` None) or stolen from ``victim``."""
    private = [seat] if state.hidden_crowns else None
    if victim is None:
        taken = min(amount, state.reserve_crowns)
        state.reserve_crowns -= taken
        if taken < amount:
            state.note("reward", _("the reserve is short: crowns are lost"),
                       {"lost": amount - taken}, private)  # fmt: skip
        source = _("{seat} gains crowns from the reserve", seat=Seat(seat))
    else:
        taken = amount
        source = _("{seat} gains crowns from {victim}", seat=Seat(seat), victim=Seat(victim))
    state.crowns[seat] += taken
    key = state.kings[-1]
    state.law_crowns[key] = state.law_crowns.get(key, 0) + taken
    state.note("crowns", source, {"crowns": taken}, private)
    if state.crowns[seat] >= CROWNS_TO_WIN:
        state.winner = seat
        state.phase = "over"
        state.note("end", _("{seat} holds 13 crowns and wins at once", seat=Seat(seat)))


def _discard_card(state: CouronnesState, seat: int, card: str) -> None:
    state.hands[seat].remove(card)
    state.discard.append(card)


def _draw_up(state: CouronnesState, seat: int) -> None:
    """Draw to 6 cards, reshuffling the discards into a new draw pile when it runs out."""
    hand = state.hands[seat]
    drawn = []
    while len(hand) < HAND_SIZE:
        if not state.draw and not _reshuffle(state):
            state.note("deck", _("no card is left to draw"))
            break
        card = state.draw.pop()
        drawn.append(card)
        bisect.insort(hand, card)
    if drawn:
        state.note(
            "draw",
            _("{seat} draws {count} card(s)", seat=Seat(seat), count=len(drawn)),
            {"cards": drawn},
            [seat],
        )


def _reshuffle(state: CouronnesState) -> bool:
    """Reform the empty draw pile: "by shuffling all discarded and played cards, except the
    King in power" (engine 1.3.0). Games set up under an earlier version shuffle the discards
    only, as they were played (the covered Kings stayed under the King in power)."""
    if not rules_since(state, PLAYED_KINGS_RESHUFFLED):
        return _reshuffle_discards_only(state)
    keep = kept_kings(state)
    played = state.kings[: len(state.kings) - keep]
    if not state.discard and not played:
        return False
    state.draw = state.rng.shuffled(sorted([*state.discard, *played]))
    state.discard = []
    del state.kings[: len(played)]
    state.note("chance", _("the {count} discarded and played cards are shuffled into a new "
                           "draw pile", count=len(state.draw)),
               {"order": list(state.draw)}, visible_to=[])  # fmt: skip
    return True


def _reshuffle_discards_only(state: CouronnesState) -> bool:
    """The reshuffle of engines before 1.3.0 (ruling 13C-2 as first written)."""
    if not state.discard:
        return False
    state.draw = state.rng.shuffled(sorted(state.discard))
    state.discard = []
    state.note("chance", _("the {count} discarded cards are shuffled into a new draw pile",
                           count=len(state.draw)),
               {"order": list(state.draw)}, visible_to=[])  # fmt: skip
    return True


def shuffle_unseen(state: CouronnesState) -> None:
    """Shuffle the draw pile again: its order is the one thing no seat has seen. Hands,
    the King pile and the revealed cards are seen; the discard pile stays too (face down,
    but each card in it was seen by the seat that discarded it)."""
    state.rng.shuffle(state.draw)
    state.note(
        "reshuffle",
        _("the arbiter shuffles the draw pile again ({count} cards)", count=len(state.draw)),
        {"cards": len(state.draw)},
    )


#: How each kind of move is carried out, looked up by its class (one lookup per move of a
#: replay rather than a chain of ``isinstance`` tests).
_PLAYS: dict[type[Move], Callable[[CouronnesState, int, Any], None]] = {
    Reveal: _play_law,
    Discard: _play_law,
    Claim: _play_claim_move,
    ChangeKing: _play_change,
    PayGuard: _play_pay_guard,
    RedoDiscard: _play_redo_discard,
    RedoDraw: _play_redo_draw,
    TakeToken: _play_take_token,
    StealCrowns: _play_steal,
    StealCards: _play_steal,
    EndTurn: _play_end,
}
