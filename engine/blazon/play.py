"""Carrying out validated Blazon moves: drawing and the display, placing and paying, prestige
and milestones, heralds, distinctions (ruling BZ-3) and the end of a turn and of the game.

Every function here trusts its input (``legality`` has validated the move) and mutates the
state."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine.blazon import legality
from engine.blazon.cards import (
    EDITIONS,
)
from engine.blazon.legality import ALIGN_INDEX, SLOT_DECK
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
    Tables,
    requirement_met,
    row_shift,
    shield_facts,
    shield_full,
)
from engine.blazon.state import (
    BLAZON,
    CLAIM,
    DECKS,
    DRAW,
    END,
    EXCHANGE,
    HAND_LIMIT,
    MAIN,
    OVER,
    PAY,
    BlazonState,
    PlayerState,
)
from engine.blazon.words import ALIGN_WORDS, CARD_KINDS, DECK_NAMES, DISCARD_NAMES
from engine.core.game import Effect
from engine.core.moves import Move
from engine.core.seats import next_seat, seats_after
from engine.core.text import Seat, Text, _

WEAK_HAND = 5  # a starting hand worth this much or less is redrawn
MAX_REDRAWS = 50  # a bound on the starting-hand redraw (never reached with 120 cards)
#: What triggered the end (``state.trigger``), in words.
TRIGGER_WORDS = {
    "prestige": _("prestige"),
    "full-shield": _("full-shield"),
    "distinctions": _("distinctions"),
}


def _note(
    state: BlazonState, kind: str, message: Text, data: dict[str, Any],
    visible_to: list[int] | None = None,
) -> None:  # fmt: skip
    """``state.note`` for the effects noted on most moves: ``message`` is already a
    :class:`Text` and ``data``/``visible_to`` fresh objects of their own, so the effect is
    built directly, as ``note`` builds it, without ``note``'s conversions and copies."""
    state.effects.append(Effect.noted(kind, message, data, visible_to))


# The sentences noted on most moves, made once per value: a Text is frozen, and one shared by
# many effects reads, compares and serialises as the one each would have built.


@functools.cache
def _draws_text(seat: int, deck: str) -> Text:
    return _("{seat} draws {card}", seat=Seat(seat), card=CARD_KINDS[deck])


@functools.cache
def _display_text(edition: str, slot: int, card: int) -> Text:
    name = EDITIONS[edition].cards[card].name
    return _("display slot {slot} shows {card}", slot=slot, card=name)


@functools.cache
def _refreshes_text(seat: int) -> Text:
    return _("{seat} refreshes the display", seat=Seat(seat))


@functools.cache
def _turn_over_text(seat: int) -> Text:
    return _("{seat} has nothing left to do: the turn ends", seat=Seat(seat))


@functools.cache
def _covers_text(edition: str, seat: int, card: int) -> Text:
    name = EDITIONS[edition].cards[card].name
    return _("{seat} covers {card}; it goes to the discard pile", seat=Seat(seat), card=name)


def deal_starting_hand(state: BlazonState, tables: Tables, seat: int) -> None:
    """2 tinctures + 2 devices; a hand worth 5 or less goes to the bottoms and is redrawn."""
    hand = state.players[seat].hand
    for attempt in range(MAX_REDRAWS):
        for deck in DECKS:
            hand.extend(state.decks[deck].pop() for _ in range(2))
        worth = sum(tables.prestige[n] for n in hand)
        state.note(
            "chance", _("{seat} draws a starting hand", seat=Seat(seat)), {"hand": hand[:]}, [seat]
        )
        if worth > WEAK_HAND or attempt == MAX_REDRAWS - 1:
            return
        state.note(
            "redraw",
            _("{seat}'s starting hand is worth {worth}: redrawn", seat=Seat(seat), worth=worth),
        )
        for deck in DECKS:
            returned = [n for n in hand if tables.category[n] == deck]
            state.decks[deck][:0] = returned
            state.seen_at_bottom[deck] = state.seen_at_bottom.get(deck, 0) + len(returned)
        hand.clear()


def carry_out(state: BlazonState, seat: int, move: Move) -> None:
    """Carry out a validated move, then skip the steps that offer no choice."""
    kind = type(move)
    play = PLAYS.get(kind) or play_of(kind)
    play(state, seat, move)
    settle(state)


def _keep(state: BlazonState, seat: int, move: Keep) -> None:
    state.drawn.clear()
    state.phase = END


def _pay(state: BlazonState, seat: int, move: Pay) -> None:
    _play_pay(state, state.players[seat], move.card)


def _pay_cards(state: BlazonState, seat: int, move: PayCards) -> None:
    player = state.players[seat]
    for card in legality.payment_order(state.edition, move.cards):
        _play_pay(state, player, card)


def _finish(state: BlazonState, seat: int, move: Finish) -> None:
    state.phase = END


def _discard_move(state: BlazonState, seat: int, move: Discard) -> None:
    state.players[seat].hand.remove(move.card)
    _discard(state, move.card)


def _claim_move(state: BlazonState, seat: int, move: Claim) -> None:
    _claim(state, seat, move.distinction)
    _next_turn(state)


def _end_turn_move(state: BlazonState, seat: int, move: EndTurn) -> None:
    _end_turn(state, seat)


def _pass(state: BlazonState, seat: int, move: Pass) -> None:
    state.passes += 1
    state.note("pass", _("{seat} can neither draw nor place a card", seat=Seat(seat)))
    state.phase = END


def _play_free_action(state: BlazonState, seat: int, move: Move) -> None:
    player = state.players[seat]
    if isinstance(move, Refresh):
        state.refresh_used = True
        _refresh_display(state, _refreshes_text(seat))
        return
    state.herald_used = True
    player.heralds -= 1
    if isinstance(move, HeraldTake):
        player.hand.append(state.display[move.slot])
        state.display[move.slot] = 0
        refill_display(state)
    elif isinstance(move, HeraldDraw):
        player.hand.append(_draw_card(state, move.deck, seat))
    elif isinstance(move, HeraldDiscardPile):
        player.hand.append(state.discards[move.deck].pop())
    elif isinstance(move, HeraldRefresh):
        _refresh_display(state, _("{seat} discards and refills the display", seat=Seat(seat)))


def _play_draw(state: BlazonState, seat: int, move: Draw) -> None:
    card = _draw_card(state, move.deck, seat)
    state.players[seat].hand.append(card)
    state.drawn.append(card)
    state.draws += 1
    state.passes = 0
    state.phase = DRAW if state.draws < 2 else EXCHANGE


def _play_exchange(state: BlazonState, seat: int, move: Exchange) -> None:
    player = state.players[seat]
    taken = state.display[move.slot]
    state.display[move.slot] = move.card
    player.hand.remove(move.card)
    player.hand.append(taken)
    state.drawn.remove(move.card)


def _play_place(state: BlazonState, seat: int, move: Place) -> None:
    tables = TABLES[state.edition]
    player = state.players[seat]
    space, align = move.space, ALIGN_INDEX[move.align]
    row_ok, shifted = row_shift(player, tables, space, align)
    # Not abated and the row not kept in one alignment: the row is left with conflicts
    # (shield.row_conflicts, not empty exactly then) to cover before the turn ends.
    changing = not move.abate and not row_ok
    state.pending_row = tables.row_of[space] if changing else 0
    state.pending_align = align if changing else 0
    if shifted >= 0:
        player.aligns[shifted] = align
        state.note(
            "shift",
            _(
                "{seat}'s card on {space} shifts to {align}",
                seat=Seat(seat),
                space=tables.board.spaces[shifted].name,
                align=ALIGN_WORDS[move.align],
            ),
        )
    covered = player.shield[space]
    if covered:
        _discard(state, covered)
        _note(state, "override", _covers_text(state.edition, seat, covered), {})
        if player.abated_space == space:
            player.abated_space = -1
            player.abatement = True
            state.note("abatement", _("{seat} takes the abatement token back", seat=Seat(seat)))
    player.hand.remove(move.card)
    player.shield[space] = move.card
    player.aligns[space] = align
    if move.abate:
        player.abatement = False
        player.abated_space = space
    if move.herald:
        state.herald_used = True
        player.heralds -= 1
    state.passes = 0
    state.after_pay = state.phase if move.herald else BLAZON
    state.pay_due = 1 if move.herald else tables.prestige[move.card]
    state.phase = PAY
    _score(state, seat, tables.prestige[move.card])
    if shield_full(player):
        _trigger_end(state, seat, "full-shield")


def _play_pay(state: BlazonState, player: PlayerState, card: int) -> None:
    player.hand.remove(card)
    _discard(state, card)
    state.pay_due -= TABLES[state.edition].prestige[card]
    if state.pay_due <= 0:
        state.pay_due = 0
        state.phase = state.after_pay


def settle(state: BlazonState) -> None:
    """Skip steps that offer no choice (a second draw from nothing, an empty end step)."""
    # Runs after every move: the tests are written out (no generators, no helper calls).
    phase = state.phase
    if phase == DRAW:
        decks, discards = state.decks, state.discards
        # legality.can_draw for both DECKS
        if not (decks["tincture"] or discards["tincture"] or decks["device"] or discards["device"]):
            state.note("skip", _("no card is left to draw: the Acquire takes one card"))
            phase = state.phase = EXCHANGE
    if phase == EXCHANGE and not state.drawn:
        phase = state.phase = END
    if phase == END:
        player = state.players[state.turn]
        # herald_ready and refresh_allowed in the end step
        free = (player.heralds > 0 and not state.herald_used) or (
            not state.refresh_used and legality.display_refreshable(state.edition, state.display)
        )
        if not free and len(player.hand) <= HAND_LIMIT:
            state.effects.append(Effect.noted("turn", _turn_over_text(state.turn), {}, None))
            _end_turn(state, state.turn)


def _draw_card(state: BlazonState, deck: str, seat: int) -> int:
    """The top card of a deck (reshuffling its discard pile when empty), seen by ``seat``."""
    if not state.decks[deck]:
        _reshuffle_if_empty(state, deck)
    card = state.decks[deck].pop()
    # _note written out (a draw is a quarter of the moves)
    state.effects.append(Effect.noted("chance", _draws_text(seat, deck), {"card": card}, [seat]))
    return card


def _reshuffle_if_empty(state: BlazonState, deck: str) -> None:
    if state.decks[deck] or not state.discards[deck]:
        return
    pile = state.discards[deck]
    state.decks[deck] = state.rng.shuffled(pile)
    state.discards[deck] = []
    state.seen_at_bottom[deck] = 0  # the cards seen at the bottom were all drawn
    state.note(
        "chance",
        _(
            "{pile} ({cards} cards) is shuffled into a new deck",
            pile=DISCARD_NAMES[deck],
            cards=len(pile),
        ),
        {"order": state.decks[deck][:]},
        [],
    )


def shuffle_unseen(state: BlazonState) -> None:
    """Shuffle each deck again, but for the redrawn starting-hand cards a seat saw go to its
    bottom (they stay there while the deck lasts). Hands, the display, the discard piles
    and shields are seen and stay as they are."""
    for deck in DECKS:
        cards = state.decks[deck]
        kept = min(state.seen_at_bottom.get(deck, 0), len(cards))
        unseen = cards[kept:]
        state.rng.shuffle(unseen)
        cards[kept:] = unseen
        shuffled = (
            _(
                "the arbiter shuffles {deck} again ({cards} cards; the {kept} seen at its bottom "
                "stay there)", deck=DECK_NAMES[deck], cards=len(unseen), kept=kept,
            )
            if kept
            else _("the arbiter shuffles {deck} again ({cards} cards)", deck=DECK_NAMES[deck],
                   cards=len(unseen))
        )  # fmt: skip
        state.note(
            "reshuffle",
            shuffled,
            {"deck": deck, "cards": len(unseen), "kept_at_bottom": kept},
        )


def _discard(state: BlazonState, card: int) -> None:
    state.discards[TABLES[state.edition].category[card]].append(card)


def refill_display(state: BlazonState) -> None:
    """Fill every empty display slot from its deck, while cards are left."""
    display = state.display
    for slot, card in enumerate(display):
        if card:
            continue
        deck = SLOT_DECK[slot]
        if not state.decks[deck]:
            if not state.discards[deck]:
                continue  # nothing left to draw from
            _reshuffle_if_empty(state, deck)
        shown = display[slot] = state.decks[deck].pop()
        _note(
            state, "chance", _display_text(state.edition, slot, shown),
            {"slot": slot, "card": shown},
        )  # fmt: skip


def _refresh_display(state: BlazonState, text: Text) -> None:
    state.note("refresh", text)
    display, discards = state.display, state.discards
    category = TABLES[state.edition].category
    for slot, card in enumerate(display):
        if card:
            discards[category[card]].append(card)  # _discard
            display[slot] = 0
    refill_display(state)


def _score(state: BlazonState, seat: int, points: int) -> None:
    player = state.players[seat]
    before = player.prestige
    player.prestige += points
    milestones = TABLES[state.edition].board.milestones
    for index, mark in enumerate(milestones):
        if before < mark <= player.prestige and state.milestones[index] < 0:
            state.milestones[index] = seat
            player.animals += 1
            state.note(
                "milestone",
                _(
                    "{seat} is first to {mark} prestige: an animal token",
                    seat=Seat(seat),
                    mark=mark,
                ),
            )
            _give_heralds(state, seat)
    if player.prestige >= milestones[-1]:
        _trigger_end(state, seat, "prestige")


def _give_heralds(state: BlazonState, seat: int) -> None:
    """Every other player takes a herald token, in turn order, while the pile lasts."""
    for other in seats_after(seat, len(state.players)):
        if state.herald_pile <= 0:
            state.note("heralds", _("the herald pile is empty"))
            return
        state.herald_pile -= 1
        state.players[other].heralds += 1


def _trigger_end(state: BlazonState, seat: int, trigger: str) -> None:
    if state.trigger:
        return
    state.trigger, state.trigger_seat = trigger, seat
    state.note(
        "end",
        _(
            "{seat} triggers the end ({trigger}): every other player takes one final turn",
            seat=Seat(seat),
            trigger=TRIGGER_WORDS[trigger],
        ),
    )


def _end_turn(state: BlazonState, seat: int) -> None:
    """End of turn: the distinction check (ruling BZ-3), then the next seat."""
    state.claimable = claimable(state, seat)
    if len(state.claimable) > 1:
        state.phase = CLAIM
        return
    if state.claimable:
        _claim(state, seat, state.claimable[0])
    _next_turn(state)


def claimable(state: BlazonState, seat: int) -> list[str]:
    """Distinctions ``seat`` meets now, has no marker on, and which have a free award space."""
    tables = TABLES[state.edition]
    # Checked at every end of turn: most shields meet no distinction at all (the answer is
    # cached per shield), and then there is nothing more to look at.
    met = distinctions_met(tables, tuple(state.players[seat].shield))
    if not met:
        return []
    spaces = _award_spaces(state.edition, len(state.players))
    return [
        ident
        for ident, taken in zip(state.distinctions, state.awards, strict=True)
        if ident in met and seat not in taken and len(taken) < spaces[ident]
    ]


@functools.cache
def _award_spaces(edition: str, players: int) -> dict[str, int]:
    """How many award spaces each distinction of ``edition`` has for this number of players."""
    return {
        ident: len(distinction.awards(players))
        for ident, distinction in EDITIONS[edition].distinction_by_id.items()
    }


def _claim(state: BlazonState, seat: int, ident: str) -> None:
    distinction = EDITIONS[state.edition].distinction_by_id[ident]
    taken = state.awards[state.distinctions.index(ident)]
    value = distinction.awards(len(state.players))[len(taken)]
    first = not taken
    taken.append(seat)
    player = state.players[seat]
    player.markers.append(ident)
    player.distinction_points += value
    state.claimable = []
    state.note(
        "distinction",
        _(
            "{seat} earns {distinction} ({value} prestige at the end)",
            seat=Seat(seat), distinction=distinction.name, value=value,
        ),
    )  # fmt: skip
    if first:
        _give_heralds(state, seat)
    if len(player.markers) == len(state.distinctions):
        _trigger_end(state, seat, "distinctions")


def _next_turn(state: BlazonState) -> None:
    count = len(state.players)
    following = next_seat(state.turn, count)
    stalled = state.passes >= count
    if following == state.trigger_seat or stalled:
        if stalled and not state.trigger:
            state.trigger = "stalled"
            state.note(
                "end", _("no player could draw or place a card for a whole round: the game ends")
            )
        state.phase = OVER
        return
    state.turn = following
    state.turn_number += 1
    state.phase = MAIN
    state.drawn.clear()
    state.draws = 0
    state.herald_used = state.refresh_used = False
    state.claimable = []


@functools.lru_cache(maxsize=16384)
def distinctions_met(tables: Tables, shield: tuple[int, ...]) -> frozenset[str]:
    """Ids of the edition's distinctions whose requirement this shield meets."""
    facts = shield_facts(PlayerState(hand=[], shield=list(shield)), tables)
    return frozenset(
        ident
        for ident, distinction in tables.edition.distinction_by_id.items()
        if requirement_met(distinction.clauses, facts)
    )


#: How each move class is carried out (:func:`carry_out`): one lookup by the move's type.
PLAYS: dict[type[Move], Callable[[BlazonState, int, Any], None]] = {
    Draw: _play_draw,
    Exchange: _play_exchange,
    Keep: _keep,
    Place: _play_place,
    Pay: _pay,
    PayCards: _pay_cards,
    Finish: _finish,
    Discard: _discard_move,
    Claim: _claim_move,
    EndTurn: _end_turn_move,
    Pass: _pass,
}


def play_of(kind: type[Move]) -> Callable[[BlazonState, int, Any], None]:
    """How a subclass of a Blazon move is carried out (its nearest Blazon base's); the free
    actions (refresh, herald) otherwise."""
    for base in kind.__mro__:
        play = PLAYS.get(base)
        if play is not None:
            return play
    return _play_free_action
