"""Which Blazon moves are legal now, and why a move is refused (every refusal matches
``legal_moves``): placements (ruling BZ-1, the row change of an override), paying, the Herald
action, the free refresh, drawing and exchanging."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.blazon.cards import (
    EDITIONS,
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
    Tables,
    can_finish_row_change,
    placement_problem,
    row_conflicts,
    row_shift,
    tincture_clash,
)
from engine.blazon.state import (
    ALIGNS,
    BLAZON,
    CLAIM,
    DECKS,
    DEVICE_SLOTS,
    DRAW,
    END,
    EXCHANGE,
    HAND_LIMIT,
    MAIN,
    OVER,
    PAY,
    SPACES,
    TINCTURE_SLOTS,
    BlazonState,
    PlayerState,
)
from engine.blazon.views import card_name, distinction_name
from engine.blazon.words import ALIGN_WORDS, DECK_NAMES
from engine.core.game import rules_since
from engine.core.moves import Move
from engine.core.text import Text, _

HERALD_PHASES = (MAIN, BLAZON, END)
_DRAW_PHASES = (MAIN, DRAW)
SLOT_DECK = ("device",) * len(DEVICE_SLOTS) + ("tincture",) * len(TINCTURE_SLOTS)
#: An alignment's index by its word (``ALIGNS.index`` as one lookup).
ALIGN_INDEX = {word: index for index, word in enumerate(ALIGNS)}


#: From this engine version a Herald placement may start a row change (BZ-E5).
HERALD_ROW_CHANGE = "1.2.0"
#: From this engine version a placed card may be paid in one move, ``pay_cards``.
PAY_CARDS = "1.3.0"


def legal_moves(state: BlazonState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, exactly (empty when it is not to act)."""
    if state.phase == OVER or seat != state.turn:
        return []
    phase = state.phase
    player = state.players[seat]
    moves: list[Move] = []
    if phase == PAY:
        moves = [Pay(card) for card in player.hand if _pay_problem(state, player, card) is None]
        return moves + payments(state, player) if rules_since(state, PAY_CARDS) else moves
    if phase == CLAIM:
        return [Claim(d) for d in state.claimable]
    if phase == EXCHANGE:
        moves.extend(
            Exchange(card, slot)
            for card in state.drawn
            for slot, shown in enumerate(state.display)
            if shown and SLOT_DECK[slot] == TABLES[state.edition].category[card]
        )
        moves.append(Keep())
        return moves
    if phase == DRAW:
        return [Draw(deck) for deck in DECKS if can_draw(state, deck)]
    if state.pending_row:
        if phase in (MAIN, BLAZON):
            # In main a cover is a normal placement that starts the Blazon action.
            moves.extend(_placements(state, player, herald=False))
        if herald_ready(state, player):
            moves.extend(_placements(state, player, herald=True))
        return moves
    if phase == MAIN:
        moves.extend(Draw(deck) for deck in DECKS if can_draw(state, deck))
    if phase in (MAIN, BLAZON):
        moves.extend(_placements(state, player, herald=False))
    if phase == MAIN and not moves:
        moves.append(Pass())
    if herald_ready(state, player):
        moves.extend(_herald_moves(state, player))
    if not state.refresh_used and refresh_allowed(state):
        moves.append(Refresh())
    if phase == BLAZON:
        moves.append(Finish())
    if phase == END:
        if len(player.hand) > HAND_LIMIT:
            moves.extend(Discard(card) for card in player.hand)
        else:
            moves.append(EndTurn())
    return moves


def _placements(state: BlazonState, player: PlayerState, *, herald: bool) -> list[Move]:
    """Every legal placement; candidates come from the precomputed spots of each card."""
    tables = TABLES[state.edition]
    found: list[Move] = []
    pending = state.pending_row
    abating = state.abatement_rule and player.abatement and not pending
    for card in player.hand:
        if not _affordable(tables, player, card, herald=herald):
            continue
        for space, align in tables.fit_spots[card]:
            if (not pending and plainly_fits(tables, player, card, space, align)) or (
                _placement_refusal(
                    state, player, card=card, space=space, align=align, herald=herald,
                    abate=False,
                ) is None
            ):  # fmt: skip
                found.append(Place(card, space, ALIGNS[align], herald, False))
        if abating:
            for space, align in tables.kind_spots[card]:
                problem = _placement_refusal(
                    state, player, card=card, space=space, align=align, herald=herald, abate=True
                )
                if problem is None:
                    found.append(Place(card, space, ALIGNS[align], herald, True))
    return found


def _herald_moves(state: BlazonState, player: PlayerState) -> list[Move]:
    moves: list[Move] = list(_placements(state, player, herald=True))
    moves.extend(HeraldTake(slot) for slot, card in enumerate(state.display) if card)
    moves.extend(HeraldDraw(deck) for deck in DECKS if can_draw(state, deck))
    moves.extend(HeraldDiscardPile(deck) for deck in DECKS if state.discards[deck])
    if any(state.display) or any(can_draw(state, d) for d in DECKS):
        moves.append(HeraldRefresh())
    return moves


def _affordable(tables: Tables, player: PlayerState, card: int, *, herald: bool) -> bool:
    """The rest of the hand can pay for ``card`` (1 with the Herald action)."""
    if herald:
        return len(player.hand) >= 2
    prestige = tables.prestige
    rest = sum(map(prestige.__getitem__, player.hand)) - prestige[card]
    return rest >= prestige[card]


def can_draw(state: BlazonState, deck: str) -> bool:
    """A card can be drawn from ``deck``: it or its discard pile (reshuffled then) holds one."""
    return bool(state.decks[deck] or state.discards[deck])


def herald_ready(state: BlazonState, player: PlayerState) -> bool:
    """The seat to act may take its Herald action now (a token left, not used this turn)."""
    return state.phase in HERALD_PHASES and player.heralds > 0 and not state.herald_used


def refresh_allowed(state: BlazonState) -> bool:
    """Three display cards share an element type or an augmentation symbol."""
    if state.phase not in HERALD_PHASES:
        return False
    return display_refreshable(state.edition, state.display)


def problem(state: BlazonState, player: PlayerState, move: Move) -> Text | None:
    """Why ``move`` is refused now, or None. Every branch matches ``legal_moves``.

    The refusals come in a fixed order: a move of another step than the one the turn is in is
    refused for that step first (paying, claiming, the second draw, the exchange), then the
    move's own rules apply. Each move class's rule is found by its type in :data:`RULES` (a
    replay checks every move, and one dict lookup beats testing the classes in turn).
    """
    kind = type(move)
    rule = RULES.get(kind) or rule_of(kind)
    refused_in, check = rule
    phase = state.phase
    if phase in refused_in:
        return STEP_REFUSALS[phase](state)
    return check(state, player, move)


def _paying_refusal(state: BlazonState) -> Text:
    return _("first finish paying: {due} more prestige of cards to discard", due=state.pay_due)


def _claiming_refusal(state: BlazonState) -> Text:
    return _("choose the distinction to claim: {claimable}", claimable=_claimable(state))


def _drawing_refusal(state: BlazonState) -> Text:
    return _("draw your second card first")


def _exchanging_refusal(state: BlazonState) -> Text:
    return _("exchange a drawn card or keep them")


#: The refusal of a move made in a step that does not take it, by step.
STEP_REFUSALS: dict[str, Callable[[BlazonState], Text]] = {
    PAY: _paying_refusal,
    CLAIM: _claiming_refusal,
    DRAW: _drawing_refusal,
    EXCHANGE: _exchanging_refusal,
}
_NONE: frozenset[str] = frozenset()
_DURING_CLAIM = frozenset({PAY})
_DURING_DRAW = frozenset({PAY, CLAIM})
_DURING_EXCHANGE = frozenset({PAY, CLAIM, DRAW})
_DURING_TURN = frozenset({PAY, CLAIM, DRAW, EXCHANGE})


def _pay_cards_check(state: BlazonState, player: PlayerState, move: PayCards) -> Text | None:
    return _pay_cards_problem(state, player, move.cards)


def _pay_check(state: BlazonState, player: PlayerState, move: Pay) -> Text | None:
    if state.phase != PAY:
        return _("there is nothing to pay for now")
    return _pay_problem(state, player, move.card)


def _claim_check(state: BlazonState, player: PlayerState, move: Claim) -> Text | None:
    if state.phase != CLAIM:
        return _("distinctions are claimed at the end of the turn")
    if move.distinction not in state.claimable:
        return _(
            "you cannot claim {distinction}: claimable are {claimable}",
            distinction=distinction_name(move.distinction, state.edition)
            if move.distinction in EDITIONS[state.edition].distinction_by_id
            else repr(move.distinction),
            claimable=_claimable(state),
        )  # fmt: skip
    return None


def _draw_check(state: BlazonState, player: PlayerState, move: Draw) -> Text | None:
    if state.pending_row:
        # An Acquire action would leave no placement to finish the row change with.
        return _pending_refusal(state, _pending_conflicts(state, player))
    deck = move.deck
    if (
        state.phase in _DRAW_PHASES
        and deck in DECKS
        and (state.decks[deck] or state.discards[deck])
    ):
        return None  # the common, legal draw, without _draw_problem's call
    return _draw_problem(state, deck)


def _keep_check(state: BlazonState, player: PlayerState, move: Keep) -> Text | None:
    return None if state.phase == EXCHANGE else _("there are no drawn cards to keep")


def _after_row_change(
    check: Callable[[BlazonState, PlayerState, Any], Text | None],
) -> Callable[[BlazonState, PlayerState, Any], Text | None]:
    """``check``, once no row change is pending: only its covering placements are taken then."""

    def checked(state: BlazonState, player: PlayerState, move: Move) -> Text | None:
        if state.pending_row:
            return _pending_refusal(state, _pending_conflicts(state, player))
        return check(state, player, move)

    return checked


def _refresh_check(state: BlazonState, player: PlayerState, move: Refresh) -> Text | None:
    if state.refresh_used:
        return _("the display was already refreshed this turn")
    if not refresh_allowed(state):
        return _("the display has no three cards sharing an element or augmentation symbol")
    return None


def _finish_check(state: BlazonState, player: PlayerState, move: Finish) -> Text | None:
    return None if state.phase == BLAZON else _("you are not taking a Blazon action")


def _discard_check(state: BlazonState, player: PlayerState, move: Discard) -> Text | None:
    if state.phase != END or len(player.hand) <= HAND_LIMIT:
        return _("you discard only at the end of your turn, above 7 cards")
    return None if move.card in player.hand else _not_in_hand(state, move.card)


def _end_turn_check(state: BlazonState, player: PlayerState, move: EndTurn) -> Text | None:
    phase = state.phase
    if phase != END:
        return (
            _("take an Acquire or a Blazon action first")
            if phase == MAIN
            else _("finish the Blazon action first")
        )
    if len(player.hand) > HAND_LIMIT:
        return _(
            "discard down to {limit} cards first ({held} in hand)",
            limit=HAND_LIMIT, held=len(player.hand),
        )  # fmt: skip
    return None


def _pass_check(state: BlazonState, player: PlayerState, move: Pass) -> Text | None:
    if state.phase != MAIN:
        return _("you can pass only instead of your action")
    if any(can_draw(state, d) for d in DECKS) or _placements(state, player, herald=False):
        return _("you may pass only when no card can be drawn or placed")
    return None


def _foreign_check(state: BlazonState, player: PlayerState, move: Move) -> Text | None:
    return _("{move} is not a Blazon move", move=type(move).__name__)


#: A move check: the steps that refuse the move before its own rules, and those rules.
Rule = tuple[frozenset[str], Callable[[BlazonState, PlayerState, Any], Text | None]]


def rule_of(kind: type[Move]) -> Rule:
    """The rule of a subclass of a Blazon move (its nearest Blazon base's), or of a move that
    is no Blazon move (refused in words)."""
    for base in kind.__mro__:
        rule = RULES.get(base)
        if rule is not None:
            return rule
    return _FOREIGN


def _draw_problem(state: BlazonState, deck: str) -> Text | None:
    if deck not in DECKS:
        return _("there is no {deck} deck: draw from tincture or device", deck=repr(deck))
    if state.phase not in (MAIN, DRAW):
        return _("you draw only as your Acquire action, at the start of the turn")
    if not (state.decks[deck] or state.discards[deck]):  # can_draw
        return _("{deck} and its discard pile are both empty", deck=DECK_NAMES[deck])
    return None


def _exchange_problem(state: BlazonState, player: PlayerState, move: Exchange) -> Text | None:
    if state.phase != EXCHANGE:
        return _("you exchange only the cards drawn by an Acquire action")
    if move.card not in state.drawn:
        return _(
            "{card} is not a card you just drew (or it was exchanged already)",
            card=card_name(move.card, state.edition),
        )
    if not 0 <= move.slot < len(state.display) or not state.display[move.slot]:
        return _("display slot {slot} holds no card", slot=move.slot)
    if SLOT_DECK[move.slot] != TABLES[state.edition].category[move.card]:
        return _("exchange like for like: a tincture for a tincture, a device for a device")
    return None


def _place_problem(state: BlazonState, player: PlayerState, move: Place) -> Text | None:
    tables = TABLES[state.edition]
    if move.herald:
        if not herald_ready(state, player):
            return _herald_refusal(state, player)
    elif state.phase not in (MAIN, BLAZON):
        return _("your action is over: a further placement needs the Herald action")
    if move.card not in player.hand:
        return _not_in_hand(state, move.card)
    if not 0 <= move.space < SPACES:
        return _(
            "there is no space {space} (spaces are 0..{last})", space=move.space, last=SPACES - 1
        )
    if move.align not in ALIGNS:
        return _("alignment {align} must be top or bottom", align=repr(move.align))
    if not _affordable(tables, player, move.card, herald=move.herald):
        return _("the rest of your hand cannot pay for this card")
    align = ALIGN_INDEX[move.align]
    if not move.abate and not state.pending_row and plainly_fits(tables, player, move.card,
                                                                 move.space, align):  # fmt: skip
        return None
    return _placement_refusal(
        state, player, card=move.card, space=move.space, align=align,
        herald=move.herald, abate=move.abate,
    )  # fmt: skip


def plainly_fits(tables: Tables, player: PlayerState, card: int, space: int, align: int) -> bool:
    """True when a placement that is not abated, with no row change pending, is legal without
    a row change: the symbol rules allow it, it repeats no tincture and leaves its row in one
    alignment. False says nothing: :func:`_placement_refusal` decides (and words the refusal).

    This is the common placement, checked for every move a replay validates and for every
    candidate ``legal_moves`` lists, in a few lookups instead of the full rules.
    """
    return (
        (space, align) in tables.fit_sets[card]
        and player.shield[space] != card
        and (
            not tables.tincture_names[card]
            or tincture_clash(tables, player.shield, card, space) < 0
        )
        and row_shift(player, tables, space, align)[0]
    )


def _placement_refusal(
    state: BlazonState,
    player: PlayerState,
    *,
    card: int,
    space: int,
    align: int,
    herald: bool,
    abate: bool,
) -> Text | None:
    """The placement rules (ruling BZ-1), with the override's row change within a turn.

    A placement that is not abated may leave its row in two alignments if the hand can still
    cover the cards left in the other alignment before the turn ends; until then only those
    covers may be placed (normal or Herald placements, no abatement). A Herald placement may
    start such a change from engine 1.2.0 on ("using the usual placement rules") before or
    during the Blazon action, whose normal placements then make the covers (in ``main`` the
    first cover starts the action); after the action no placement is left to cover with, so
    there it is refused. A game set up under an earlier version keeps the refusal of every
    Herald placement that starts a change (ruling BZ-E5 as first written).
    """
    tables = TABLES[state.edition]
    if state.pending_row:
        conflicts = _pending_conflicts(state, player)
        if abate or space not in conflicts or align != state.pending_align:
            return _pending_refusal(state, conflicts)
    remaining = row_conflicts(player, tables, space, align)
    problem = placement_problem(
        player, tables, card=card, space=space, align=align, abate=abate,
        abatement_rule=state.abatement_rule,
        row_change=not abate and (
            bool(state.pending_row) or not herald or rules_since(state, HERALD_ROW_CHANGE)
        ),
        row_ok=not remaining,
    )  # fmt: skip
    if problem is not None or abate:
        return problem
    if not remaining:
        return None
    if herald and state.phase not in (MAIN, BLAZON):
        return _(
            "row {row} would be left in two alignments: your action is over, "
            "so no placement is left this turn to cover {spaces}",
            row=tables.row_of[space], spaces=tuple(tables.board.spaces[t].name for t in remaining),
        )  # fmt: skip
    hand = list(player.hand)
    hand.remove(card)
    shield = list(player.shield)
    shield[space] = card
    if can_finish_row_change(
        tables,
        shield=tuple(shield),
        hand=tuple(hand),
        due=1 if herald else tables.prestige[card],
        conflicts=remaining,
        align=align,
        herald=not herald and player.heralds > 0 and not state.herald_used,
    ):
        return None
    return _(
        "row {row} would be left in two alignments: your hand cannot "
        "cover {spaces} in the {align} alignment this turn",
        row=tables.row_of[space], spaces=tuple(tables.board.spaces[t].name for t in remaining),
        align=ALIGN_WORDS[ALIGNS[align]],
    )  # fmt: skip


def _pending_conflicts(state: BlazonState, player: PlayerState) -> tuple[int, ...]:
    """Spaces of the row being changed that are still in the other alignment."""
    row = TABLES[state.edition].board.rows.get(state.pending_row, ())
    return tuple(
        t
        for t in row
        if player.shield[t] and t != player.abated_space and player.aligns[t] != state.pending_align
    )


def _pending_refusal(state: BlazonState, conflicts: tuple[int, ...]) -> Text:
    spaces = TABLES[state.edition].board.spaces
    return _(
        "first finish changing row {row} to the {align} alignment: cover {spaces}",
        row=state.pending_row, align=ALIGN_WORDS[ALIGNS[state.pending_align]],
        spaces=tuple(spaces[t].name for t in conflicts),
    )  # fmt: skip


def _pay_problem(state: BlazonState, player: PlayerState, card: int) -> Text | None:
    if card not in player.hand:
        return _not_in_hand(state, card)
    if not state.pending_row:
        return None
    tables = TABLES[state.edition]
    hand = list(player.hand)
    hand.remove(card)
    if can_finish_row_change(
        tables,
        shield=tuple(player.shield),
        hand=tuple(hand),
        due=state.pay_due - tables.prestige[card],
        conflicts=_pending_conflicts(state, player),
        align=state.pending_align,
        herald=player.heralds > 0 and not state.herald_used,
    ):
        return None
    return _(
        "paying with {card} would leave too little to finish changing row {row} this turn",
        card=card_name(card, state.edition), row=state.pending_row,
    )  # fmt: skip


def payment_order(edition: str, cards: tuple[int, ...]) -> list[int]:
    """The order ``pay_cards`` discards its cards in: the smallest prestige first (then by
    number), so the largest, the one that completes the payment, goes last (on top)."""
    if len(cards) < 2:  # most payments are one card
        return list(cards)
    prestige = TABLES[edition].prestige
    return sorted(cards, key=lambda n: (prestige[n], n))


def payments(state: BlazonState, player: PlayerState) -> list[Move]:
    """Every ``pay_cards`` legal now: each set of hand cards that covers ``pay_due`` with no
    card needed for nothing (the rest without its largest card stays below what is due)."""
    tables = TABLES[state.edition]
    due = state.pay_due
    # The largest first: the first card of a set is its largest, so each set is found once.
    cards = sorted(player.hand, key=lambda n: (-tables.prestige[n], n))
    found: list[PayCards] = []

    def extend(chosen: list[int], rest: int, start: int, top: int) -> None:
        # ``rest``: the prestige of the chosen cards but the largest (``top``), below ``due``.
        if rest + top >= due:
            found.append(PayCards(tuple(sorted(chosen))))
        for index in range(start, len(cards)):
            worth = tables.prestige[cards[index]]
            if rest + worth < due:
                extend([*chosen, cards[index]], rest + worth, index + 1, top)

    for index, card in enumerate(cards):
        extend([card], 0, index + 1, tables.prestige[card])
    return [m for m in found if _payment_refusal(state, player, m.cards) is None]


def _pay_cards_problem(
    state: BlazonState, player: PlayerState, cards: tuple[int, ...]
) -> Text | None:
    if state.phase != PAY:
        return _("there is nothing to pay for now")
    if not rules_since(state, PAY_CARDS):
        return _("this game was set up under an earlier engine: pay one card at a time")
    if not cards:
        return _("choose the cards that pay")
    if list(cards) != sorted(set(cards)):
        return _("list each card once, in increasing number")
    for card in cards:
        if card not in player.hand:
            return _not_in_hand(state, card)
    worth = TABLES[state.edition].prestige.__getitem__
    total = sum(map(worth, cards))
    if total < state.pay_due:
        return _("these cards are worth {total}: {due} is due", total=total, due=state.pay_due)
    if total - max(map(worth, cards)) >= state.pay_due:
        return _(
            "these cards are worth {total} and {due} is due: leave out a card that is not needed",
            total=total, due=state.pay_due,
        )  # fmt: skip
    return _payment_refusal(state, player, cards)


def _payment_refusal(
    state: BlazonState, player: PlayerState, cards: tuple[int, ...]
) -> Text | None:
    """What ``pay`` refuses along the payment's order (the row change still to be finished)."""
    if not state.pending_row:
        return None
    tables = TABLES[state.edition]
    hand = list(player.hand)
    due = state.pay_due
    conflicts = _pending_conflicts(state, player)
    for card in payment_order(state.edition, cards):
        hand.remove(card)
        due -= tables.prestige[card]
        if not can_finish_row_change(
            tables,
            shield=tuple(player.shield),
            hand=tuple(hand),
            due=due,
            conflicts=conflicts,
            align=state.pending_align,
            herald=player.heralds > 0 and not state.herald_used,
        ):
            return _(
                "paying with {card} would leave too little to finish changing row {row} this turn",
                card=card_name(card, state.edition), row=state.pending_row,
            )  # fmt: skip
    return None


def _herald_problem(state: BlazonState, player: PlayerState, move: Move) -> Text | None:
    if not herald_ready(state, player):
        return _herald_refusal(state, player)
    if isinstance(move, HeraldTake):
        if not 0 <= move.slot < len(state.display) or not state.display[move.slot]:
            return _("display slot {slot} holds no card", slot=move.slot)
    elif isinstance(move, HeraldDraw):
        if move.deck not in DECKS or not can_draw(state, move.deck):
            return _("no card can be drawn from {deck}", deck=repr(move.deck))
    elif isinstance(move, HeraldDiscardPile):
        if move.deck not in DECKS or not state.discards[move.deck]:
            return _("there is no {deck} discard pile with a card on top", deck=repr(move.deck))
    elif not (any(state.display) or any(can_draw(state, d) for d in DECKS)):
        return _("there is no display to refresh")
    return None


def _herald_refusal(state: BlazonState, player: PlayerState) -> Text:
    if state.herald_used:
        return _("you already took a Herald action this turn")
    if player.heralds <= 0:
        return _("you have no herald token")
    return _("a Herald action is taken between steps, not now")


def _not_in_hand(state: BlazonState, card: int) -> Text:
    return _("{card} is not in your hand", card=card_name(card, state.edition))


def _claimable(state: BlazonState) -> tuple[str, ...]:
    """The distinctions that may be claimed now, by their names."""
    return tuple(distinction_name(d, state.edition) for d in state.claimable)


#: Symbol counters (``Tables.symbol_counters``) hold up to 15 in 4 bits: adding 5 to each sets
#: its top bit exactly when it holds 3 or more, for a display of up to 10 cards.
_PLUS_FIVE = sum(5 << 4 * i for i in range(16))
_TOP_BITS = sum(8 << 4 * i for i in range(16))


def display_refreshable(edition: str, display: Sequence[int]) -> bool:
    """Three display cards share an element type or an augmentation symbol (wild included).

    Asked at every end step and by ``legal_moves``, for a display that changes with most
    exchanges (so a cache by display seldom hits): each card's symbols are counters packed in
    one int, summed, and every counter tested for 3 at once.
    """
    if len(display) > 10:  # more than the counters hold: count them one by one
        cards = EDITIONS[edition].cards
        shown = [cards[n] for n in display if n]
        types = Counter(c.type for c in shown)
        augs = Counter(c.augmentation for c in shown)
        return max(types.values(), default=0) >= 3 or max(augs.values(), default=0) >= 3
    total = sum(map(TABLES[edition].symbol_counters.__getitem__, display))
    return bool((total + _PLUS_FIVE) & _TOP_BITS)


#: Each move class's rule (:func:`problem`).
RULES: dict[type[Move], Rule] = {
    PayCards: (_NONE, _pay_cards_check),
    Pay: (_NONE, _pay_check),
    Claim: (_DURING_CLAIM, _claim_check),
    Draw: (_DURING_DRAW, _draw_check),
    Exchange: (_DURING_EXCHANGE, _exchange_problem),
    Keep: (_DURING_EXCHANGE, _keep_check),
    Place: (_DURING_TURN, _place_problem),
    **dict.fromkeys(
        (HeraldTake, HeraldDraw, HeraldDiscardPile, HeraldRefresh),
        (_DURING_TURN, _after_row_change(_herald_problem)),
    ),
    Refresh: (_DURING_TURN, _after_row_change(_refresh_check)),
    Finish: (_DURING_TURN, _after_row_change(_finish_check)),
    Discard: (_DURING_TURN, _after_row_change(_discard_check)),
    EndTurn: (_DURING_TURN, _after_row_change(_end_turn_check)),
    Pass: (_DURING_TURN, _after_row_change(_pass_check)),
}
_FOREIGN: Rule = (_DURING_TURN, _after_row_change(_foreign_check))
