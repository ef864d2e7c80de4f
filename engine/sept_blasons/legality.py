"""Which moves are legal now, and why a move is not: the direct checks behind ``check``.

Each ``*_refusal`` returns the sentence saying why a move is refused, or "" when it is legal;
each ``*_moves`` lists exactly the moves its refusal accepts (the property tests check both).
"""

from __future__ import annotations

from engine.core import Move
from engine.core.text import Seat, Text, _
from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import (
    EDITIONS,
    INTENDANT,
    MAGISTRAT,
    MALANDRIN,
    MANANT,
    MENETRIER,
    RANKS_PER_COLOUR,
    RELIGIEUX,
    STANDARD,
    Bourgeoisie,
)
from engine.sept_blasons.state import BOURGEOISIE, FREE, PLAY, POWER, Played, SeptState

TRICK_CODE = 64  # seen_tricks entries are owner * 64 + trick index

_DEFAULT_POWERED = frozenset(
    c.rank for c in STANDARD.characters if c.power is not None and c.variant is None
)


def refusal(state: SeptState, seat: int, move: Move) -> Text | str:
    """Why ``move`` is not allowed for the seat to act, or "" when it is."""
    phase = state.phase
    if phase == PLAY:
        if isinstance(move, mv.PlayCard):
            return _play_refusal(state, seat, move)
        return _("{seat} must play a card now", seat=Seat(seat))
    if phase == POWER:
        return _power_refusal(state, seat, move)
    if phase == FREE:
        return _free_refusal(state, move)
    assert phase == BOURGEOISIE
    return _bourgeoisie_refusal(state, seat, move)


def legal_moves(state: SeptState, seat: int) -> list[Move]:
    """Every move of the seat to act, exactly."""
    phase = state.phase
    if phase == PLAY:
        return _play_moves(state, seat)
    if phase == POWER:
        return _power_moves(state, seat)
    if phase == FREE:
        return _free_moves(state)
    return _bourgeoisie_moves(state, seat)


def powered(state: SeptState, rank: int) -> bool:
    """Whether a character's power acts in this game (the religieux only in variant 4)."""
    return rank in _DEFAULT_POWERED or (rank == RELIGIEUX and 4 in state.variants)


# -- playing a card ----------------------------------------------------------------------------
def can_activate(state: SeptState, seat: int) -> bool:
    """Whether ``seat`` may activate its bourgeoisie card with the card it plays now."""
    return (
        state.bourgeoisie[seat] > 0
        and not state.b_used[seat]
        and state.trick_no < RANKS_PER_COLOUR - 1
    )


def _play_refusal(state: SeptState, seat: int, move: mv.PlayCard) -> Text | str:
    if move.rank not in state.hands[seat]:
        if 0 <= move.rank < RANKS_PER_COLOUR:
            name = STANDARD.characters[move.rank].name
            return _("{seat} has already played its {character}", seat=Seat(seat), character=name)
        return _("there is no card of rank {rank} (ranks run 0 to 7)", rank=move.rank)
    if move.bourgeoisie and not can_activate(state, seat):
        return _("{seat} cannot activate a bourgeoisie card now", seat=Seat(seat))
    return ""


def _play_moves(state: SeptState, seat: int) -> list[Move]:
    flags = (False, True) if can_activate(state, seat) else (False,)
    return [mv.PlayCard(rank, flag) for rank in sorted(state.hands[seat]) for flag in flags]


# -- powers ------------------------------------------------------------------------------------
def _power_refusal(state: SeptState, seat: int, move: Move) -> Text | str:
    card = state.trick[state.resolving]
    rank = card.rank
    name = STANDARD.characters[rank].name
    if rank == MALANDRIN:
        if isinstance(move, mv.Steal):
            return _steal_refusal(state, card, move)
    elif rank == MANANT:
        if isinstance(move, mv.TakeToken):
            return _pick_refusal(state, move.pick)
    elif rank == MENETRIER:
        if isinstance(move, mv.TurnUp):
            return _turn_up_refusal(state, move, pile_allowed=True)
    elif rank == MAGISTRAT:
        if isinstance(move, mv.RemoveToken):
            if move.seat == seat:
                return _("the magistrat removes a token of another player, not one's own")
            return _front_refusal(state, move.seat, move.slot)
    elif state.picked_seat < 0:
        if isinstance(move, mv.ChooseToken):
            return _choose_refusal(state, rank, move)
    elif rank == INTENDANT:
        if isinstance(move, mv.ExchangeWith):
            return _exchange_refusal(state, move)
    elif isinstance(move, mv.MoveTo):
        return _move_to_refusal(state, move)
    return _(
        "{seat} must now use the power of the {character} in play position {position}",
        seat=Seat(seat), character=name, position=card.position,
    )  # fmt: skip


def _steal_refusal(state: SeptState, card: Played, move: mv.Steal) -> Text | str:
    trick = state.trick
    if not 0 <= move.card < len(trick):
        return _("there is no card in play position {position}", position=move.card)
    if move.mode == "value":
        if _is_stolen_choice(card) and trick[move.card].rank == MALANDRIN:
            return _(
                "a stolen malandrin choice cannot take the value *: choosing itself is only "
                "for a malandrin making its own choice (ER-8)"
            )
        return ""
    if move.mode != "power":
        return _("the malandrin takes a 'value' or a 'power', not {mode}", mode=repr(move.mode))
    target = trick[move.card]
    if move.card <= card.position:
        return _("the malandrin can only take the power of a card later in play order")
    if not powered(state, target.rank):
        return _(
            "the {character} has no power to take", character=STANDARD.characters[target.rank].name
        )
    if target.power_by == card.power_by:
        return _("that power is already yours")
    return ""


def _is_stolen_choice(card: Played) -> bool:
    """True when a malandrin's choice is being made by the thief who took it (ER-8)."""
    return card.power_by != card.position


def _steal_moves(state: SeptState, card: Played) -> list[Move]:
    stolen = _is_stolen_choice(card)
    moves: list[Move] = [
        mv.Steal(target.position, "value")
        for target in state.trick
        if not (stolen and target.rank == MALANDRIN)
    ]
    for target in state.trick[card.position + 1 :]:
        if powered(state, target.rank) and target.power_by != card.power_by:
            moves.append(mv.Steal(target.position, "power"))
    return moves


def choice_possible(state: SeptState, card: Played) -> bool:
    """Whether a malandrin's choice has any option (a stolen one may have none, ER-8)."""
    if card.rank != MALANDRIN or not _is_stolen_choice(card):
        return True  # its own choice may always take the value of any card, itself included
    return bool(_steal_moves(state, card))


def _pick_refusal(state: SeptState, pick: int) -> Text | str:
    # loops rather than generators: asked for most token moves, over the whole pile
    if pick == mv.FACE_DOWN:
        for token in state.pile:
            if not token.up:
                return ""
        return _("the draw pile has no face-down token")
    for token in state.pile:
        if token.up and token.colour == pick:
            return ""
    return _("the draw pile has no face-up token of colour {colour}", colour=pick)


def pile_picks(state: SeptState) -> list[int]:
    """What may be taken from the pile: -1 (a random face-down token), face-up colours."""
    picks = sorted({t.colour for t in state.pile if t.up})
    if any(not t.up for t in state.pile):
        picks.insert(0, mv.FACE_DOWN)
    return picks


def _front_refusal(state: SeptState, seat: int, slot: int) -> Text | str:
    if not 0 <= seat < state.players:
        return _("there is no seat {number}", number=seat)
    if not 0 <= slot < len(state.fronts[seat]):
        return _("{seat} has no token in slot {slot}", seat=Seat(seat), slot=slot)
    return ""


def _turn_up_refusal(state: SeptState, move: mv.TurnUp, *, pile_allowed: bool) -> Text | str:
    if move.seat == mv.PILE and pile_allowed:
        if move.slot != mv.FACE_DOWN:
            return _("a token of the draw pile is turned up at random: use slot -1")
        return _pick_refusal(state, mv.FACE_DOWN)
    reason = _front_refusal(state, move.seat, move.slot)
    if reason:
        return reason
    if state.fronts[move.seat][move.slot].up:
        return _(
            "token slot {slot} of {seat} is already face up", slot=move.slot, seat=Seat(move.seat)
        )
    return ""


def _turn_up_moves(state: SeptState, *, pile_allowed: bool) -> list[Move]:
    moves: list[Move] = [
        mv.TurnUp(seat, slot)
        for seat, front in enumerate(state.fronts)
        for slot, token in enumerate(front)
        if not token.up
    ]
    if pile_allowed and any(not t.up for t in state.pile):
        moves.append(mv.TurnUp(mv.PILE, mv.FACE_DOWN))
    return moves


def _has_partner(state: SeptState, seat: int) -> bool:
    """Whether a token of ``seat`` has something to be exchanged with (intendant)."""
    return bool(state.pile) or any(f for s, f in enumerate(state.fronts) if s != seat)


def _choose_refusal(state: SeptState, rank: int, move: mv.ChooseToken) -> Text | str:
    reason = _front_refusal(state, move.seat, move.slot)
    if reason:
        return reason
    if rank == INTENDANT and not _has_partner(state, move.seat):
        return _("there is no other token to exchange that one with")
    return ""


def _exchange_refusal(state: SeptState, move: mv.ExchangeWith) -> Text | str:
    if move.seat == mv.PILE:
        return _pick_refusal(state, move.slot)
    if move.seat == state.picked_seat:
        return _("the intendant exchanges with another player's game or the draw pile")
    return _front_refusal(state, move.seat, move.slot)


def _move_to_refusal(state: SeptState, move: mv.MoveTo) -> Text | str:
    if not 0 <= move.seat < state.players:
        return _("there is no seat {number}", number=move.seat)
    if move.seat == state.picked_seat:
        return _("the token must move to another player's game")
    return ""


def _power_moves(state: SeptState, seat: int) -> list[Move]:
    card = state.trick[state.resolving]
    rank = card.rank
    if rank == MALANDRIN:
        return _steal_moves(state, card)
    if rank == MANANT:
        return [mv.TakeToken(pick) for pick in pile_picks(state)]
    if rank == MENETRIER:
        return _turn_up_moves(state, pile_allowed=True)
    if rank == MAGISTRAT:
        return [
            mv.RemoveToken(s, slot)
            for s, front in enumerate(state.fronts)
            if s != seat
            for slot in range(len(front))
        ]
    if state.picked_seat < 0:
        return [
            mv.ChooseToken(s, slot)
            for s, front in enumerate(state.fronts)
            if rank != INTENDANT or _has_partner(state, s)
            for slot in range(len(front))
        ]
    if rank == INTENDANT:
        moves: list[Move] = [
            mv.ExchangeWith(s, slot)
            for s, front in enumerate(state.fronts)
            if s != state.picked_seat
            for slot in range(len(front))
        ]
        return moves + [mv.ExchangeWith(mv.PILE, pick) for pick in pile_picks(state)]
    return [mv.MoveTo(s) for s in range(state.players) if s != state.picked_seat]


def power_possible(state: SeptState, rank: int, seat: int) -> bool:
    """Whether the power can be used at all now (else it is skipped, 'simply ignored')."""
    if rank == MANANT:
        return bool(state.pile)
    if rank == MENETRIER:
        return _any_face_down(state)
    if rank == MAGISTRAT:
        fronts = state.fronts
        return any(fronts[:seat]) or any(fronts[seat + 1 :])  # another seat has a token
    if rank == RELIGIEUX:
        return any(state.fronts)
    if rank == INTENDANT:
        with_tokens = len(state.fronts) - state.fronts.count([])
        return with_tokens >= 2 or (with_tokens == 1 and bool(state.pile))
    return True


def _any_face_down(state: SeptState) -> bool:
    """Whether a token is face down, in the draw pile or in front of a player (a loop, not
    generators: asked after most cards played)."""
    for token in state.pile:
        if not token.up:
            return True
    for front in state.fronts:
        for token in front:
            if not token.up:
                return True
    return False


# -- the winner's free action ------------------------------------------------------------------
def _free_refusal(state: SeptState, move: Move) -> Text | str:
    if isinstance(move, mv.TurnUp):
        return _turn_up_refusal(state, move, pile_allowed=False)
    if isinstance(move, mv.TakeToken):
        return _pick_refusal(state, move.pick)
    return _("the winner of the trick must turn a token face up or take one from the draw pile")


def _free_moves(state: SeptState) -> list[Move]:
    moves = _turn_up_moves(state, pile_allowed=False)
    return moves + [mv.TakeToken(pick) for pick in pile_picks(state)]


def free_possible(state: SeptState) -> bool:
    """Whether the winner has any free action (a face-down token to turn, or a pile)."""
    return bool(state.pile) or _any_face_down(state)


# -- bourgeoisie (variants 1-3) ----------------------------------------------------------------
def bourgeoisie_card(state: SeptState, seat: int) -> Bourgeoisie:
    """The bourgeoisie card ``seat`` holds (it must hold one)."""
    level = state.bourgeoisie[seat]
    return next(b for b in EDITIONS[state.edition].bourgeoisie if b.level == level)


def _kind_refusal(state: SeptState, kind: int) -> Text | str:
    if kind not in state.variants:
        return _("variant {variant} is not played in this game", variant=kind)
    if state.b_kind not in (0, kind):
        return _(
            "this bourgeoisie card is already used for variant {variant}", variant=state.b_kind
        )
    return ""


def _consult_refusal(state: SeptState, seat: int, owner: int, kind: int) -> Text | str:
    reason = _kind_refusal(state, kind)
    if reason:
        return reason
    if state.b_count >= bourgeoisie_card(state, seat).consult:
        return _("every consultation of this bourgeoisie card is used")
    if not 0 <= owner < state.players:
        return _("there is no seat {number}", number=owner)
    if owner != seat and state.b_other not in (-1, owner):
        return _(
            "only one other player may be consulted, and it is {seat}", seat=Seat(state.b_other)
        )
    return ""


def _bourgeoisie_refusal(state: SeptState, seat: int, move: Move) -> Text | str:
    if isinstance(move, mv.Finish):
        return ""
    if isinstance(move, mv.ConsultTrick):
        return _consult_refusal(state, seat, move.seat, 1) or _trick_refusal(state, seat, move)
    if isinstance(move, mv.ConsultToken):
        return _consult_refusal(state, seat, move.seat, 3) or _token_refusal(state, seat, move)
    if isinstance(move, mv.TakeCard):
        return _take_card_refusal(state, seat, move)
    return _("{seat} must use its bourgeoisie card or finish", seat=Seat(seat))


def _trick_refusal(state: SeptState, seat: int, move: mv.ConsultTrick) -> Text | str:
    tricks = state.tricks[move.seat]
    if not 0 <= move.trick < len(tricks) or not tricks[move.trick]:
        return _("{seat} has no trick {trick}", seat=Seat(move.seat), trick=move.trick)
    if move.seat * TRICK_CODE + move.trick in state.seen_tricks[seat]:
        return _("{seat} has already looked at that trick", seat=Seat(seat))
    return ""


def _token_refusal(state: SeptState, seat: int, move: mv.ConsultToken) -> Text | str:
    reason = _front_refusal(state, move.seat, move.slot)
    if reason:
        return reason
    token = state.fronts[move.seat][move.slot]
    if token.up:
        return _("that token is face up: everyone sees it")
    if seat in token.known_by:
        return _("{seat} already knows that token", seat=Seat(seat))
    return ""


def _take_card_refusal(state: SeptState, seat: int, move: mv.TakeCard) -> Text | str:
    reason = _kind_refusal(state, 2)
    if reason or state.b_kind == 2:
        return reason or _("the card is already taken")
    if not 0 <= move.seat < state.players or move.seat == seat:
        return _("the card is taken from another player's tricks")
    if not 0 <= move.colour < state.players:
        return _("there is no colour {colour} at this table", colour=move.colour)
    wanted = move.colour * RANKS_PER_COLOUR + bourgeoisie_card(state, seat).takes
    if any(wanted in trick for trick in state.tricks[move.seat]):
        return ""
    return _("{seat}'s tricks hold no such card", seat=Seat(move.seat))


def _bourgeoisie_moves(state: SeptState, seat: int) -> list[Move]:
    moves: list[Move] = [mv.Finish()]
    if not _consult_refusal(state, seat, seat, 1):
        moves += _trick_consultations(state, seat)
    if not _consult_refusal(state, seat, seat, 3):
        moves += _token_consultations(state, seat)
    if not _kind_refusal(state, 2) and state.b_kind == 0:
        rank = bourgeoisie_card(state, seat).takes
        moves += [
            mv.TakeCard(owner, colour)
            for owner in range(state.players)
            if owner != seat
            for colour in sorted(
                {c // RANKS_PER_COLOUR for t in state.tricks[owner] for c in t
                 if c % RANKS_PER_COLOUR == rank}
            )
        ]  # fmt: skip
    return moves


def _consultable(state: SeptState, seat: int) -> list[int]:
    return [o for o in range(state.players) if o == seat or state.b_other in (-1, o)]


def _trick_consultations(state: SeptState, seat: int) -> list[Move]:
    seen = state.seen_tricks[seat]
    return [
        mv.ConsultTrick(owner, index)
        for owner in _consultable(state, seat)
        for index, trick in enumerate(state.tricks[owner])
        if trick and owner * TRICK_CODE + index not in seen
    ]


def _token_consultations(state: SeptState, seat: int) -> list[Move]:
    return [
        mv.ConsultToken(owner, slot)
        for owner in _consultable(state, seat)
        for slot, token in enumerate(state.fronts[owner])
        if not token.up and seat not in token.known_by
    ]
