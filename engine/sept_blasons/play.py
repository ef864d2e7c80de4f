"""Carrying out validated moves and moving the game on: powers, trick, free action, rounds.

Every function here trusts its input (``SeptBlasons.check`` has validated the move) and
mutates the state. After each move, :func:`_advance_powers` walks the powers in play order and
stops at the next decision; impossible powers and actions are skipped with an effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.game import GAME_OVER, rules_since
from engine.core.text import Seat, Text, _
from engine.sept_blasons import legality
from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import EDITIONS, MALANDRIN, RANKS_PER_COLOUR, STANDARD
from engine.sept_blasons.legality import TRICK_CODE
from engine.sept_blasons.rules import trick_winner
from engine.sept_blasons.scoring import MAX_TIE_BREAK_ROUNDS, best_colour
from engine.sept_blasons.state import (
    BOURGEOISIE,
    FREE,
    OVER,
    PLAY,
    POWER,
    Played,
    SeptState,
    Token,
)

if TYPE_CHECKING:
    from engine.core import Move

NAMES = tuple(c.name for c in STANDARD.characters)


#: The two things a malandrin may take, in words.
STEAL_WORDS = {"value": _("value"), "power": _("power")}


def colour_name(state: SeptState, colour: int) -> str:
    """The player-card name of a colour."""
    return EDITIONS[state.edition].colours[colour]


def carry_out(state: SeptState, seat: int, move: Move) -> None:
    """Play a validated move and advance to the next decision."""
    phase = state.phase
    if phase == PLAY:
        assert isinstance(move, mv.PlayCard)
        _play_card(state, seat, move)
    elif phase == POWER:
        _use_power(state, seat, move)
    elif phase == FREE:
        _free_action(state, seat, move)
        _collect(state)
        _close_trick(state)
    else:
        _bourgeoisie_action(state, seat, move)


# -- cards and powers --------------------------------------------------------------------------
def _play_card(state: SeptState, seat: int, move: mv.PlayCard) -> None:
    state.hands[seat].remove(move.rank)
    position = len(state.trick)
    state.trick.append(Played(seat, move.rank, position, position, position))
    if move.bourgeoisie:
        state.activated.append(seat)
        state.b_used[seat] = True
        state.note("bourgeoisie", _("{seat} activates its bourgeoisie card", seat=Seat(seat)))
    if len(state.trick) == state.players:
        state.phase, state.resolving = POWER, 0
        _advance_powers(state)


def _advance_powers(state: SeptState) -> None:
    """Stop at the next power that needs a decision; after the last, settle the trick."""
    trick = state.trick
    while state.resolving < len(trick):
        card = trick[state.resolving]
        if not card.used and legality.powered(state, card.rank):
            actor = trick[card.power_by].seat
            if legality.power_possible(state, card.rank, actor) and legality.choice_possible(
                state, card
            ):
                return
            card.used = True
            state.note(
                "skip",
                _(
                    "the power of the {character} in play position {position} "
                    "({seat}) is impossible now and is skipped",
                    character=NAMES[card.rank],
                    position=card.position,
                    seat=Seat(actor),
                ),
            )
        state.resolving += 1
    _settle_trick(state)


def _power_done(state: SeptState) -> None:
    state.trick[state.resolving].used = True
    state.resolving += 1
    state.picked_seat = state.picked_slot = -1
    _advance_powers(state)


def _use_power(state: SeptState, seat: int, move: Move) -> None:
    if isinstance(move, mv.Steal):
        _steal(state, move)
    elif isinstance(move, mv.ChooseToken):
        state.picked_seat, state.picked_slot = move.seat, move.slot
        return
    else:
        _token_power(state, seat, move)
    _power_done(state)


def _token_power(state: SeptState, seat: int, move: Move) -> None:
    """A power acting on tokens; its effect names the seat using it ("seat 2 (magistrat)": it
    may be a malandrin that stole the power). That name is built here only, not for a steal
    or a first choice, which name no one."""
    who = _(
        "{seat} ({character})", seat=Seat(seat), character=NAMES[state.trick[state.resolving].rank]
    )
    if isinstance(move, mv.TakeToken):
        state.fronts[seat].append(_take_from_pile(state, move.pick, who))
    elif isinstance(move, mv.TurnUp):
        _turn_up(state, move, who)
    elif isinstance(move, mv.RemoveToken):
        token = state.fronts[move.seat].pop(move.slot)
        _into_pile(state, token)
        state.note("token", _("{who} puts {token} of {seat} into the draw pile", who=who,
                              token=_token_words(state, token), seat=Seat(move.seat)))  # fmt: skip
    elif isinstance(move, mv.ExchangeWith):
        _exchange(state, who, move)
    else:
        assert isinstance(move, mv.MoveTo)
        token = state.fronts[state.picked_seat].pop(state.picked_slot)
        state.fronts[move.seat].append(token)
        state.note("token", _("{who} moves {token} from {source} to {target}", who=who,
                              token=_token_words(state, token), source=Seat(state.picked_seat),
                              target=Seat(move.seat)))  # fmt: skip


def _steal(state: SeptState, move: mv.Steal) -> None:
    """The malandrin's choice (ruling 7B-1): a card's value or a later card's power slot."""
    trick = state.trick
    chooser = trick[trick[state.resolving].power_by]
    target = trick[move.card]
    if move.mode == "value":
        for card in trick:
            if card.value_from == move.card:
                card.value_from = None
        chooser.value_from = move.card
        chooser.note = f"value of position {move.card}"
    else:
        target.power_by = chooser.position
        if target.rank == MALANDRIN and target.value_from == target.position:
            target.value_from = None  # robbed of its choice, it has no value left
        chooser.value_from = None
        chooser.note = f"power of position {move.card}"
    state.note(
        "malandrin",
        _(
            "{seat}'s malandrin takes the {mode} of the {character} of {owner} "
            "(play position {position})",
            seat=Seat(chooser.seat),
            mode=STEAL_WORDS.get(move.mode, move.mode),
            character=NAMES[target.rank],
            owner=Seat(target.seat),
            position=move.card,
        ),
    )


def _token_words(state: SeptState, token: Token) -> Text:
    if token.up:
        return _("a face-up {colour} token", colour=colour_name(state, token.colour))
    return _("a face-down token")


def _into_pile(state: SeptState, token: Token) -> None:
    """A token keeps its face in the pile; who had consulted it can no longer follow it."""
    token.known_by.clear()
    state.pile.append(token)


def _take_from_pile(state: SeptState, pick: int, who: Text) -> Token:
    """Remove a token from the pile 'as it is': a face-up one by colour, or a random face-down."""
    pile = state.pile
    if pick == mv.FACE_DOWN:
        down = [i for i, t in enumerate(pile) if not t.up]
        index = down[state.rng.randbelow(len(down))]
        token = pile.pop(index)
        state.note("chance", _("{who} takes a face-down token from the draw pile", who=who),
                   {"colour": token.colour}, visible_to=[])  # fmt: skip
        return token
    index = next(i for i, t in enumerate(pile) if t.up and t.colour == pick)
    token = pile.pop(index)
    state.note(
        "token",
        _(
            "{who} takes the face-up {colour} token of the pile",
            who=who, colour=colour_name(state, pick),
        ),
    )  # fmt: skip
    return token


def _turn_up(state: SeptState, move: mv.TurnUp, who: Text) -> None:
    if move.seat == mv.PILE:
        down = [t for t in state.pile if not t.up]
        token = down[state.rng.randbelow(len(down))]
        token.up = True
        name = colour_name(state, token.colour)
        state.note("chance", _("{who} turns up a token of the draw pile: {colour}", who=who,
                                colour=name),
                   {"colour": token.colour})  # fmt: skip
        return
    token = state.fronts[move.seat][move.slot]
    token.up = True
    token.known_by.clear()
    state.note("token", _("{who} turns up token slot {slot} of {seat}: {colour}", who=who,
                          slot=move.slot, seat=Seat(move.seat),
                          colour=colour_name(state, token.colour)))  # fmt: skip


def _exchange(state: SeptState, who: Text, move: mv.ExchangeWith) -> None:
    first_seat, first_slot = state.picked_seat, state.picked_slot
    first = state.fronts[first_seat][first_slot]
    if move.seat == mv.PILE:
        incoming = _take_from_pile(state, move.slot, who)
        state.fronts[first_seat][first_slot] = incoming
        _into_pile(state, first)
        state.note("token", _("{who} exchanges token slot {slot} of {seat} with the draw pile",
                              who=who, slot=first_slot, seat=Seat(first_seat)))  # fmt: skip
        return
    other = state.fronts[move.seat][move.slot]
    state.fronts[first_seat][first_slot], state.fronts[move.seat][move.slot] = other, first
    state.note("token", _("{who} exchanges token slot {slot} of {seat} with token slot "
                          "{other_slot} of {other}", who=who, slot=first_slot,
                          seat=Seat(first_seat), other_slot=move.slot,
                          other=Seat(move.seat)))  # fmt: skip


def shuffle_unseen_tokens(state: SeptState) -> None:
    """Shuffle, with ``state.rng``, the colours of every face-down token no seat has consulted.

    Those are the draw pile's face-down tokens and the face-down tokens in front of players
    that nobody looked at (``known_by`` empty): no seat knows their colours (hands owe nothing
    to chance: every round deals all seven characters to each player). Each goes
    back to the slot it came from, face down, so every view stays the same. Face-up tokens and
    consulted ones stay as they are.
    """
    unseen = [t for t in state.pile if not t.up]
    unseen += [t for front in state.fronts for t in front if not t.up and not t.known_by]
    colours = [t.colour for t in unseen]
    state.rng.shuffle(colours)
    for token, colour in zip(unseen, colours, strict=True):
        token.colour = colour
    state.note(
        "reshuffle",
        _(
            "the arbiter shuffles the {tokens} face-down tokens nobody has looked at (in the "
            "draw pile and in front of the players) and puts them back face down in their places",
            tokens=len(unseen),
        ),
        {"tokens": len(unseen)},
    )


# -- the end of a trick ------------------------------------------------------------------------
#: The rulebook's trick (6, *, 6, 6, *), in play order: "the trick is set aside, whatever
#: choice either malandrin makes" (engine 1.2.0; games set up before keep 7B-1/7B-2 alone).
DOUBLE_MALANDRIN_SIXES = (6, MALANDRIN, 6, 6, MALANDRIN)
DOUBLE_MALANDRIN_SET_ASIDE = "1.2.0"


def _rulebook_double_malandrin_trick(state: SeptState) -> bool:
    """Whether the trick is the rulebook's (6, *, 6, 6, *), set aside whatever the choices."""
    trick = state.trick
    if len(trick) != len(DOUBLE_MALANDRIN_SIXES):  # most tricks: no need to look further
        return False
    ranks = tuple(card.rank for card in trick)
    return ranks == DOUBLE_MALANDRIN_SIXES and rules_since(state, DOUBLE_MALANDRIN_SET_ASIDE)


def _settle_trick(state: SeptState) -> None:
    """Decide the winner (7B-2); the winner takes the free action, or the trick is set aside."""
    position = trick_winner(state.trick, state.tie_rule)
    if _rulebook_double_malandrin_trick(state):
        position = None
    state.stats.tricks += 1
    if position is None:
        state.winner = None
        state.stats.nobody += 1
        state.set_aside += [card.seat * RANKS_PER_COLOUR + card.rank for card in state.trick]
        state.note("trick", _("the values cancel out: nobody wins the trick, it is set aside"))
        _close_trick(state)
        return
    card = state.trick[position]
    state.winner = card.seat
    if card.rank == MALANDRIN:
        state.stats.malandrin_wins += 1
    state.note(
        "trick",
        _(
            "{seat} wins the trick with its {character}",
            seat=Seat(card.seat), character=NAMES[card.rank],
        ),
    )  # fmt: skip
    if legality.free_possible(state):
        state.phase = FREE
        return
    state.note("skip", _("{seat} has no free action possible: it is skipped", seat=Seat(card.seat)))
    _collect(state)
    _close_trick(state)


def _free_action(state: SeptState, seat: int, move: Move) -> None:
    who = _("{seat} (free action)", seat=Seat(seat))
    if isinstance(move, mv.TakeToken):
        state.fronts[seat].append(_take_from_pile(state, move.pick, who))
    else:
        assert isinstance(move, mv.TurnUp)
        _turn_up(state, move, who)


def _collect(state: SeptState) -> None:
    assert state.winner is not None
    codes = [card.seat * RANKS_PER_COLOUR + card.rank for card in state.trick]
    state.tricks[state.winner].append(codes)


def _close_trick(state: SeptState) -> None:
    """The trick is off the table; the winner leads next (the same leader when nobody won)."""
    if state.winner is not None:
        state.leader = state.winner
    state.trick, state.resolving, state.winner = [], 0, None
    if state.activated:
        state.phase = BOURGEOISIE
        state.b_kind, state.b_other, state.b_count = 0, -1, 0
        return
    _next_trick(state)


def _next_trick(state: SeptState) -> None:
    state.trick_no += 1
    if state.trick_no == RANKS_PER_COLOUR:
        _end_round(state)
    else:
        state.phase = PLAY


# -- bourgeoisie -------------------------------------------------------------------------------
def _bourgeoisie_action(state: SeptState, seat: int, move: Move) -> None:
    limit = legality.bourgeoisie_card(state, seat).consult
    if isinstance(move, mv.ConsultTrick):
        _consult_trick(state, seat, move)
    elif isinstance(move, mv.ConsultToken):
        _consult_token(state, seat, move)
    elif isinstance(move, mv.TakeCard):
        _take_card(state, seat, move)
        limit = 0
    if isinstance(move, mv.Finish) or state.b_count >= limit:
        state.activated.pop(0)
        state.b_kind, state.b_other, state.b_count = 0, -1, 0
        if not state.activated:
            _next_trick(state)


def _consulted(state: SeptState, seat: int, owner: int, kind: int) -> None:
    state.b_kind = kind
    state.b_count += 1
    if owner != seat:
        state.b_other = owner


def _consult_trick(state: SeptState, seat: int, move: mv.ConsultTrick) -> None:
    _consulted(state, seat, move.seat, 1)
    code = move.seat * TRICK_CODE + move.trick
    for viewer in {seat, move.seat}:
        if code not in state.seen_tricks[viewer]:
            state.seen_tricks[viewer].append(code)
    state.note(
        "consult",
        _("{seat} consults trick {trick} of {owner}", seat=Seat(seat), trick=move.trick,
          owner=Seat(move.seat)),
        {"cards": list(state.tricks[move.seat][move.trick])}, visible_to=sorted({seat, move.seat}),
    )  # fmt: skip


def _consult_token(state: SeptState, seat: int, move: mv.ConsultToken) -> None:
    _consulted(state, seat, move.seat, 3)
    token = state.fronts[move.seat][move.slot]
    for viewer in sorted({seat, move.seat}):
        if viewer not in token.known_by:
            token.known_by.append(viewer)
    state.note(
        "consult",
        _("{seat} looks at face-down token slot {slot} of {owner}", seat=Seat(seat),
          slot=move.slot, owner=Seat(move.seat)),
        {"colour": token.colour}, visible_to=sorted({seat, move.seat}),
    )  # fmt: skip


def _take_card(state: SeptState, seat: int, move: mv.TakeCard) -> None:
    rank = legality.bourgeoisie_card(state, seat).takes
    code = move.colour * RANKS_PER_COLOUR + rank
    trick = next(t for t in state.tricks[move.seat] if code in t)
    trick.remove(code)
    state.tricks[seat].append([code])
    state.b_kind = 2
    state.note("bourgeoisie", _("{seat} takes the {character} of {colour} from {owner}'s tricks",
                                seat=Seat(seat), character=NAMES[rank],
                                colour=colour_name(state, move.colour),
                                owner=Seat(move.seat)))  # fmt: skip


# -- rounds ------------------------------------------------------------------------------------
def deal(state: SeptState) -> None:
    """Shuffle every token face down into the draw pile and deal them (rulebook, Setup)."""
    n, edition = state.players, EDITIONS[state.edition]
    tokens = [Token(c, False) for c in range(n) for _ in range(edition.tokens_per_colour)]
    state.rng.shuffle(tokens)
    state.note(
        "chance",
        _("round {round}: the {tokens} blason tokens are shuffled", round=state.round,
          tokens=len(tokens)),
        {"order": [t.colour for t in tokens]}, visible_to=[],
    )  # fmt: skip
    down, up = edition.deal[n]
    state.fronts = []
    for seat in range(n):
        front = [tokens.pop(0) for _ in range(down + up)]
        for token in front[down:]:
            token.up = True
        state.fronts.append(front)
        shown = tuple(edition.colours[t.colour] for t in front[down:])
        state.note(
            "chance",
            _("{seat} takes {down} token(s) face down and turns up {shown}", seat=Seat(seat),
              down=down, shown=shown),
            {"seat": seat, "face_up": [t.colour for t in front[down:]]},
        )  # fmt: skip
    state.pile = tokens
    state.hands = [list(range(RANKS_PER_COLOUR)) for _ in range(n)]
    state.tricks = [[] for _ in range(n)]
    state.set_aside = []
    state.seen_tricks = [[] for _ in range(n)]
    state.b_used = [False] * n
    state.trick, state.trick_no, state.resolving, state.phase = [], 0, 0, PLAY


def _end_round(state: SeptState) -> None:
    """Score the round (7B-3), then end the game or deal the next round."""
    n, edition = state.players, EDITIONS[state.edition]
    best = [best_colour(state.tricks[s], state.fronts[s], s, n) for s in range(n)]
    scores = [points for _colour, _cards, _tokens, points in best]
    state.round_scores.append(scores)
    state.round_colours.append([colour if points else -1 for colour, _c, _t, points in best])
    state.round_lines.append(
        [
            [colour, cards, tokens] if points else [-1, 0, 0]
            for colour, cards, tokens, points in best
        ]
    )
    state.totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
    state.stats.rounds += 1
    state.note("score", _("round {round} scores: {scores}; totals: {totals}", round=state.round,
                          scores=str(scores), totals=str(state.totals)),
               {"scores": scores, "totals": list(state.totals)})  # fmt: skip
    top = max(state.totals)
    if state.round >= edition.rounds and (
        state.totals.count(top) == 1 or state.round >= edition.rounds + MAX_TIE_BREAK_ROUNDS
    ):
        state.phase = OVER
        state.note("end", GAME_OVER)
        return
    if state.round < edition.rounds and any(v in state.variants for v in (1, 2, 3)):
        _assign_bourgeoisie(state)
    if state.round >= edition.rounds:
        state.note("tie", _("the top total {top} is tied: a tie-break round is played", top=top))
    state.round += 1
    deal(state)


def _assign_bourgeoisie(state: SeptState) -> None:
    """Cards go by cumulative ranking, highest card first; tied players pass it on."""
    cards = EDITIONS[state.edition].bourgeoisie_for(state.players)
    totals = state.totals
    order = sorted(range(state.players), key=lambda s: -totals[s])
    untied = [s for s in order if totals.count(totals[s]) == 1]
    state.bourgeoisie = [0] * state.players
    for card, seat in zip(cards, untied, strict=False):
        state.bourgeoisie[seat] = card.level
    held = tuple(
        _("{seat}: {card}", seat=Seat(s), card=c.name) for c, s in zip(cards, untied, strict=False)
    )
    state.note(
        "bourgeoisie",
        _("bourgeoisie cards for round {round}: {held}", round=state.round + 1,
          held=held or _("none")),
    )  # fmt: skip
