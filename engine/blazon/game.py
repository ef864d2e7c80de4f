"""Blazon (2–4 players) on the engine contract: turns as small moves, exact legal moves.

A turn: Acquire (``draw`` twice, ``exchange``/``keep``) or Blazon (``place`` + ``pay``..., then
``finish``); a Herald action at any step between them, once per turn; the free ``refresh``;
then ``discard`` down to 7, ``end_turn``, and a ``claim`` when several distinctions are met.
docs/rules/blazon.md gives the rulebook's words, the rulings and the tests that pin them.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from engine.blazon.cards import (
    AUGMENTATIONS,
    DISTINCTION_CATEGORIES,
    EDITIONS,
    WILD,
    Card,
    Distinction,
)
from engine.blazon.shield import (
    TABLES,
    Tables,
    blazon_text,
    can_finish_row_change,
    placement_problem,
    requirement_met,
    row_conflicts,
    row_shift,
    shield_facts,
    shield_full,
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
    MOVES,
    OVER,
    PAY,
    SPACES,
    TINCTURE_SLOTS,
    BlazonState,
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
    Place,
    PlayerState,
    Refresh,
)
from engine.core.errors import IllegalMove
from engine.core.game import Game, Result, Termination, ranks_from_keys
from engine.core.moves import Move
from engine.core.options import Option
from engine.core.rng import Rng
from engine.core.seats import next_seat, seats_after

HERALD_PHASES = (MAIN, BLAZON, END)
SLOT_DECK = ("device",) * len(DEVICE_SLOTS) + ("tincture",) * len(TINCTURE_SLOTS)
WEAK_HAND = 5  # a starting hand worth this much or less is redrawn
MAX_REDRAWS = 50  # a bound on the starting-hand redraw (never reached with 120 cards)
ABATEMENT_PENALTY = 8
TERMINATIONS = {  # ``state.trigger`` (kept in the result's details as "trigger") → the reason
    "prestige": Termination.PRESTIGE,
    "full-shield": Termination.FULL_SHIELD,
    "distinctions": Termination.DISTINCTIONS,
    "stalled": Termination.STALLED,
}


class BlazonGame(Game[BlazonState]):
    """Blazon, the reconstructed edition (games/README.md, rulings BZ-1..BZ-5)."""

    id = "blazon"
    name = "Blazon"
    min_players = 2
    max_players = 4
    engine_version = "1.1.0"
    editions = tuple(EDITIONS)
    options = (
        Option(
            "abatement",
            "boolean",
            False,
            "Abatement tokens: each player may break one placement rule, -8 at the end if still in use",
        ),
    )
    moves = MOVES
    state_type = BlazonState

    # -- setup --------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Rng) -> BlazonState:
        tables = TABLES[edition]
        cards = tables.edition.cards
        decks = {
            deck: rng.shuffled(sorted(n for n, c in cards.items() if c.category == deck))
            for deck in DECKS
        }
        # Each category is shuffled and its bottom card (index 0: tops are at the end) is used.
        chosen = [
            rng.shuffled(tables.edition.distinctions[c])[0].id for c in DISTINCTION_CATEGORIES
        ]
        state = BlazonState(
            rng=rng,
            edition=edition,
            abatement_rule=bool(options["abatement"]),
            players=[
                PlayerState(hand=[], abatement=bool(options["abatement"])) for _ in range(players)
            ],
            decks=decks,
            discards={deck: [] for deck in DECKS},
            display=[0] * len(SLOT_DECK),
            herald_pile=tables.board.herald_tokens - players,
            milestones=[-1] * len(tables.board.milestones),
            distinctions=chosen,
            awards=[[] for _ in chosen],
        )
        for deck in DECKS:
            state.note("chance", f"the {deck} deck is shuffled", {"order": decks[deck][:]}, [])
        state.note(
            "chance", "distinctions in play: " + ", ".join(chosen), {"distinctions": chosen[:]}
        )
        self._refill_display(state)
        for seat in range(players):
            self._deal_starting_hand(state, tables, seat)
        return state

    def _deal_starting_hand(self, state: BlazonState, tables: Tables, seat: int) -> None:
        """2 tinctures + 2 devices; a hand worth 5 or less goes to the bottoms and is redrawn."""
        hand = state.players[seat].hand
        for attempt in range(MAX_REDRAWS):
            for deck in DECKS:
                hand.extend(state.decks[deck].pop() for _ in range(2))
            worth = sum(tables.prestige[n] for n in hand)
            state.note("chance", f"seat {seat} draws a starting hand", {"hand": hand[:]}, [seat])
            if worth > WEAK_HAND or attempt == MAX_REDRAWS - 1:
                return
            state.note("redraw", f"seat {seat}'s starting hand is worth {worth}: redrawn")
            for deck in DECKS:
                returned = [n for n in hand if tables.category[n] == deck]
                state.decks[deck][:0] = returned
                state.seen_at_bottom[deck] = state.seen_at_bottom.get(deck, 0) + len(returned)
            hand.clear()

    # -- who acts -----------------------------------------------------------------------------
    def to_act(self, state: BlazonState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def clone(self, state: BlazonState) -> BlazonState:
        return state.copy()

    # -- legal moves --------------------------------------------------------------------------
    def legal_moves(self, state: BlazonState, seat: int) -> list[Move]:
        if state.phase == OVER or seat != state.turn:
            return []
        phase = state.phase
        player = state.players[seat]
        moves: list[Move] = []
        if phase == PAY:
            return [
                Pay(card) for card in player.hand if self._pay_problem(state, player, card) is None
            ]
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
            return [Draw(deck) for deck in DECKS if self._can_draw(state, deck)]
        if state.pending_row:
            moves.extend(self._placements(state, player, herald=False))
            if self._herald_ready(state, player):
                moves.extend(self._placements(state, player, herald=True))
            return moves
        if phase == MAIN:
            moves.extend(Draw(deck) for deck in DECKS if self._can_draw(state, deck))
        if phase in (MAIN, BLAZON):
            moves.extend(self._placements(state, player, herald=False))
        if phase == MAIN and not moves:
            moves.append(Pass())
        if self._herald_ready(state, player):
            moves.extend(self._herald_moves(state, player))
        if not state.refresh_used and self._refresh_allowed(state):
            moves.append(Refresh())
        if phase == BLAZON:
            moves.append(Finish())
        if phase == END:
            if len(player.hand) > HAND_LIMIT:
                moves.extend(Discard(card) for card in player.hand)
            else:
                moves.append(EndTurn())
        return moves

    def _placements(self, state: BlazonState, player: PlayerState, *, herald: bool) -> list[Move]:
        """Every legal placement; candidates come from the precomputed spots of each card."""
        tables = TABLES[state.edition]
        found: list[Move] = []
        abating = state.abatement_rule and player.abatement and not state.pending_row
        for card in player.hand:
            if not self._affordable(tables, player, card, herald=herald):
                continue
            spots = [(sa, False) for sa in tables.fit_spots[card]]
            if abating:
                spots += [(sa, True) for sa in tables.kind_spots[card]]
            for (space, align), abate in spots:
                problem = self._placement_refusal(
                    state, player, card=card, space=space, align=align, herald=herald, abate=abate
                )
                if problem is None:
                    found.append(Place(card, space, ALIGNS[align], herald, abate))
        return found

    def _herald_moves(self, state: BlazonState, player: PlayerState) -> list[Move]:
        moves: list[Move] = list(self._placements(state, player, herald=True))
        moves.extend(HeraldTake(slot) for slot, card in enumerate(state.display) if card)
        moves.extend(HeraldDraw(deck) for deck in DECKS if self._can_draw(state, deck))
        moves.extend(HeraldDiscardPile(deck) for deck in DECKS if state.discards[deck])
        if any(state.display) or any(self._can_draw(state, d) for d in DECKS):
            moves.append(HeraldRefresh())
        return moves

    @staticmethod
    def _affordable(tables: Tables, player: PlayerState, card: int, *, herald: bool) -> bool:
        """The rest of the hand can pay for ``card`` (1 with the Herald action)."""
        if herald:
            return len(player.hand) >= 2
        rest = sum(tables.prestige[n] for n in player.hand) - tables.prestige[card]
        return rest >= tables.prestige[card]

    @staticmethod
    def _can_draw(state: BlazonState, deck: str) -> bool:
        return bool(state.decks[deck] or state.discards[deck])

    @staticmethod
    def _herald_ready(state: BlazonState, player: PlayerState) -> bool:
        return state.phase in HERALD_PHASES and player.heralds > 0 and not state.herald_used

    @staticmethod
    def _refresh_allowed(state: BlazonState) -> bool:
        """Three display cards share an element type or an augmentation symbol."""
        if state.phase not in HERALD_PHASES:
            return False
        return display_refreshable(state.edition, tuple(state.display))

    # -- validation ---------------------------------------------------------------------------
    def check(self, state: BlazonState, seat: int, move: Move) -> None:
        if state.phase == OVER:
            raise IllegalMove("the game is over")
        if seat != state.turn:
            raise IllegalMove(f"seat {seat} is not to act now (waiting for seat {state.turn})")
        problem = self._problem(state, state.players[seat], move)
        if problem is not None:
            raise IllegalMove(problem)

    def _problem(self, state: BlazonState, player: PlayerState, move: Move) -> str | None:
        """Why ``move`` is refused now, or None. Every branch matches ``legal_moves``."""
        phase = state.phase
        if isinstance(move, Pay):
            if phase != PAY:
                return "there is nothing to pay for now"
            return self._pay_problem(state, player, move.card)
        if phase == PAY:
            return f"first finish paying: {state.pay_due} more prestige of cards to discard"
        if isinstance(move, Claim):
            if phase != CLAIM:
                return "distinctions are claimed at the end of the turn"
            if move.distinction not in state.claimable:
                return f"you cannot claim {move.distinction!r}: claimable are {', '.join(state.claimable)}"
            return None
        if phase == CLAIM:
            return "choose the distinction to claim: " + ", ".join(state.claimable)
        if isinstance(move, Draw):
            return self._draw_problem(state, move.deck)
        if phase == DRAW:
            return "draw your second card first"
        if isinstance(move, Exchange):
            return self._exchange_problem(state, move)
        if isinstance(move, Keep):
            return None if phase == EXCHANGE else "there are no drawn cards to keep"
        if phase == EXCHANGE:
            return "exchange a drawn card or keep them"
        return self._turn_problem(state, player, move)

    def _turn_problem(self, state: BlazonState, player: PlayerState, move: Move) -> str | None:
        """Moves of the phases main, blazon and end."""
        phase = state.phase
        if isinstance(move, Place):
            return self._place_problem(state, player, move)
        if state.pending_row:
            return self._pending_refusal(state, self._pending_conflicts(state, player))
        if isinstance(move, (HeraldTake, HeraldDraw, HeraldDiscardPile, HeraldRefresh)):
            return self._herald_problem(state, player, move)
        if isinstance(move, Refresh):
            if state.refresh_used:
                return "the display was already refreshed this turn"
            if not self._refresh_allowed(state):
                return "the display has no three cards sharing an element or augmentation symbol"
            return None
        if isinstance(move, Finish):
            return None if phase == BLAZON else "you are not taking a Blazon action"
        if isinstance(move, Discard):
            if phase != END or len(player.hand) <= HAND_LIMIT:
                return "you discard only at the end of your turn, above 7 cards"
            return None if move.card in player.hand else self._not_in_hand(move.card)
        if isinstance(move, EndTurn):
            if phase != END:
                return (
                    "take an Acquire or a Blazon action first"
                    if phase == MAIN
                    else "finish the Blazon action first"
                )
            if len(player.hand) > HAND_LIMIT:
                return f"discard down to {HAND_LIMIT} cards first ({len(player.hand)} in hand)"
            return None
        if isinstance(move, Pass):
            if phase != MAIN:
                return "you can pass only instead of your action"
            if any(self._can_draw(state, d) for d in DECKS) or self._placements(
                state, player, herald=False
            ):
                return "you may pass only when no card can be drawn or placed"
            return None
        return f"{type(move).__name__} is not a Blazon move"

    def _draw_problem(self, state: BlazonState, deck: str) -> str | None:
        if deck not in DECKS:
            return f"there is no {deck!r} deck: draw from tincture or device"
        if state.phase not in (MAIN, DRAW):
            return "you draw only as your Acquire action, at the start of the turn"
        if not self._can_draw(state, deck):
            return f"the {deck} deck and its discard pile are both empty"
        return None

    def _exchange_problem(self, state: BlazonState, move: Exchange) -> str | None:
        if state.phase != EXCHANGE:
            return "you exchange only the cards drawn by an Acquire action"
        if move.card not in state.drawn:
            return f"card {move.card} is not a card you just drew (or it was exchanged already)"
        if not 0 <= move.slot < len(state.display) or not state.display[move.slot]:
            return f"display slot {move.slot} holds no card"
        if SLOT_DECK[move.slot] != TABLES[state.edition].category[move.card]:
            return "exchange like for like: a tincture for a tincture, a device for a device"
        return None

    def _place_problem(self, state: BlazonState, player: PlayerState, move: Place) -> str | None:
        tables = TABLES[state.edition]
        if move.herald:
            if not self._herald_ready(state, player):
                return self._herald_refusal(state, player)
        elif state.phase not in (MAIN, BLAZON):
            return "your action is over: a further placement needs the Herald action"
        if move.card not in player.hand:
            return self._not_in_hand(move.card)
        if not 0 <= move.space < SPACES:
            return f"there is no space {move.space} (spaces are 0..{SPACES - 1})"
        if move.align not in ALIGNS:
            return f"alignment {move.align!r} must be top or bottom"
        if not self._affordable(tables, player, move.card, herald=move.herald):
            return "the rest of your hand cannot pay for this card"
        return self._placement_refusal(
            state, player, card=move.card, space=move.space, align=ALIGNS.index(move.align),
            herald=move.herald, abate=move.abate,
        )  # fmt: skip

    def _placement_refusal(
        self,
        state: BlazonState,
        player: PlayerState,
        *,
        card: int,
        space: int,
        align: int,
        herald: bool,
        abate: bool,
    ) -> str | None:
        """The placement rules (ruling BZ-1), with the override's row change within a turn.

        A normal placement may leave its row in two alignments if the hand can still cover the
        cards left in the other alignment before the turn ends; until then only those covers
        may be placed (normal or Herald placements, no abatement).
        """
        tables = TABLES[state.edition]
        if state.pending_row:
            conflicts = self._pending_conflicts(state, player)
            if abate or space not in conflicts or align != state.pending_align:
                return self._pending_refusal(state, conflicts)
        remaining = row_conflicts(player, tables, space, align)
        problem = placement_problem(
            player, tables, card=card, space=space, align=align, abate=abate,
            abatement_rule=state.abatement_rule,
            row_change=not abate and (bool(state.pending_row) or not herald),
            row_ok=not remaining,
        )  # fmt: skip
        if problem is not None or abate:
            return problem
        if not remaining:
            return None
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
        names = ", ".join(tables.board.spaces[t].name for t in remaining)
        return (
            f"row {tables.row_of[space]} would be left in two alignments: your hand cannot "
            f"cover {names} in the {ALIGNS[align]} alignment this turn"
        )

    def _pending_conflicts(self, state: BlazonState, player: PlayerState) -> tuple[int, ...]:
        """Spaces of the row being changed that are still in the other alignment."""
        row = TABLES[state.edition].board.rows.get(state.pending_row, ())
        return tuple(
            t
            for t in row
            if player.shield[t]
            and t != player.abated_space
            and player.aligns[t] != state.pending_align
        )

    def _pending_refusal(self, state: BlazonState, conflicts: tuple[int, ...]) -> str:
        spaces = TABLES[state.edition].board.spaces
        names = ", ".join(spaces[t].name for t in conflicts)
        return (
            f"first finish changing row {state.pending_row} to the "
            f"{ALIGNS[state.pending_align]} alignment: cover {names}"
        )

    def _pay_problem(self, state: BlazonState, player: PlayerState, card: int) -> str | None:
        if card not in player.hand:
            return self._not_in_hand(card)
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
            conflicts=self._pending_conflicts(state, player),
            align=state.pending_align,
            herald=player.heralds > 0 and not state.herald_used,
        ):
            return None
        return (
            f"paying with card {card} would leave too little to finish changing row "
            f"{state.pending_row} this turn"
        )

    def _herald_problem(self, state: BlazonState, player: PlayerState, move: Move) -> str | None:
        if not self._herald_ready(state, player):
            return self._herald_refusal(state, player)
        if isinstance(move, HeraldTake):
            if not 0 <= move.slot < len(state.display) or not state.display[move.slot]:
                return f"display slot {move.slot} holds no card"
        elif isinstance(move, HeraldDraw):
            if move.deck not in DECKS or not self._can_draw(state, move.deck):
                return f"no card can be drawn from {move.deck!r}"
        elif isinstance(move, HeraldDiscardPile):
            if move.deck not in DECKS or not state.discards[move.deck]:
                return f"there is no {move.deck!r} discard pile with a card on top"
        elif not (any(state.display) or any(self._can_draw(state, d) for d in DECKS)):
            return "there is no display to refresh"
        return None

    @staticmethod
    def _herald_refusal(state: BlazonState, player: PlayerState) -> str:
        if state.herald_used:
            return "you already took a Herald action this turn"
        if player.heralds <= 0:
            return "you have no herald token"
        return "a Herald action is taken between steps, not now"

    @staticmethod
    def _not_in_hand(card: int) -> str:
        return f"card {card} is not in your hand"

    # -- playing ------------------------------------------------------------------------------
    def play(self, state: BlazonState, seat: int, move: Move) -> None:
        player = state.players[seat]
        if isinstance(move, Draw):
            self._play_draw(state, seat, move.deck)
        elif isinstance(move, Exchange):
            self._play_exchange(state, player, move)
        elif isinstance(move, Keep):
            state.drawn.clear()
            state.phase = END
        elif isinstance(move, Place):
            self._play_place(state, seat, move)
        elif isinstance(move, Pay):
            self._play_pay(state, player, move.card)
        elif isinstance(move, Finish):
            state.phase = END
        elif isinstance(move, Discard):
            player.hand.remove(move.card)
            self._discard(state, move.card)
        elif isinstance(move, Claim):
            self._claim(state, seat, move.distinction)
            self._next_turn(state)
        elif isinstance(move, EndTurn):
            self._end_turn(state, seat)
        elif isinstance(move, Pass):
            state.passes += 1
            state.note("pass", f"seat {seat} can neither draw nor place a card")
            state.phase = END
        else:
            self._play_free_action(state, seat, move)
        self._settle(state)

    def _play_free_action(self, state: BlazonState, seat: int, move: Move) -> None:
        player = state.players[seat]
        if isinstance(move, Refresh):
            state.refresh_used = True
            self._refresh_display(state, "seat {seat} refreshes the display")
            return
        state.herald_used = True
        player.heralds -= 1
        if isinstance(move, HeraldTake):
            player.hand.append(state.display[move.slot])
            state.display[move.slot] = 0
            self._refill_display(state)
        elif isinstance(move, HeraldDraw):
            player.hand.append(self._draw_card(state, move.deck, seat))
        elif isinstance(move, HeraldDiscardPile):
            player.hand.append(state.discards[move.deck].pop())
        elif isinstance(move, HeraldRefresh):
            self._refresh_display(state, f"seat {seat} discards and refills the display")

    def _play_draw(self, state: BlazonState, seat: int, deck: str) -> None:
        card = self._draw_card(state, deck, seat)
        state.players[seat].hand.append(card)
        state.drawn.append(card)
        state.draws += 1
        state.passes = 0
        state.phase = DRAW if state.draws < 2 else EXCHANGE

    def _play_exchange(self, state: BlazonState, player: PlayerState, move: Exchange) -> None:
        taken = state.display[move.slot]
        state.display[move.slot] = move.card
        player.hand.remove(move.card)
        player.hand.append(taken)
        state.drawn.remove(move.card)

    def _play_place(self, state: BlazonState, seat: int, move: Place) -> None:
        tables = TABLES[state.edition]
        player = state.players[seat]
        space, align = move.space, ALIGNS.index(move.align)
        _, shifted = row_shift(player, tables, space, align)
        conflicts = () if move.abate else row_conflicts(player, tables, space, align)
        state.pending_row = tables.row_of[space] if conflicts else 0
        state.pending_align = align if conflicts else 0
        if shifted >= 0:
            player.aligns[shifted] = align
            state.note(
                "shift",
                f"seat {seat}'s card on {tables.board.spaces[shifted].name} shifts to {move.align}",
            )
        covered = player.shield[space]
        if covered:
            self._discard(state, covered)
            state.note(
                "override",
                f"seat {seat} covers {tables.edition.cards[covered].name}; it goes to the discard pile",
            )
            if player.abated_space == space:
                player.abated_space = -1
                player.abatement = True
                state.note("abatement", f"seat {seat} takes the abatement token back")
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
        self._score(state, seat, tables.prestige[move.card])
        if shield_full(player):
            self._trigger_end(state, seat, "full-shield")

    def _play_pay(self, state: BlazonState, player: PlayerState, card: int) -> None:
        player.hand.remove(card)
        self._discard(state, card)
        state.pay_due -= TABLES[state.edition].prestige[card]
        if state.pay_due <= 0:
            state.pay_due = 0
            state.phase = state.after_pay

    def _settle(self, state: BlazonState) -> None:
        """Skip steps that offer no choice (a second draw from nothing, an empty end step)."""
        if state.phase == DRAW and not any(self._can_draw(state, d) for d in DECKS):
            state.note("skip", "no card is left to draw: the Acquire takes one card")
            state.phase = EXCHANGE
        if state.phase == EXCHANGE and not state.drawn:
            state.phase = END
        if state.phase == END:
            player = state.players[state.turn]
            free = self._herald_ready(state, player) or (
                not state.refresh_used and self._refresh_allowed(state)
            )
            if not free and len(player.hand) <= HAND_LIMIT:
                state.note("turn", f"seat {state.turn} has nothing left to do: the turn ends")
                self._end_turn(state, state.turn)

    # -- cards moving -------------------------------------------------------------------------
    def _draw_card(self, state: BlazonState, deck: str, seat: int) -> int:
        """The top card of a deck (reshuffling its discard pile when empty), seen by ``seat``."""
        self._reshuffle_if_empty(state, deck)
        card = state.decks[deck].pop()
        state.note("chance", f"seat {seat} draws a {deck} card", {"card": card}, [seat])
        return card

    def _reshuffle_if_empty(self, state: BlazonState, deck: str) -> None:
        if state.decks[deck] or not state.discards[deck]:
            return
        pile = state.discards[deck]
        state.decks[deck] = state.rng.shuffled(pile)
        state.discards[deck] = []
        state.seen_at_bottom[deck] = 0  # the cards seen at the bottom were all drawn
        state.note(
            "chance",
            f"the {deck} discard pile ({len(pile)} cards) is shuffled into a new deck",
            {"order": state.decks[deck][:]},
            [],
        )

    def shuffle_unseen(self, state: BlazonState) -> None:
        """Shuffle each deck again, but for the redrawn starting-hand cards a seat saw go to its
        bottom (they stay there while the deck lasts). Hands, the display, the discard piles
        and shields are seen and stay as they are."""
        for deck in DECKS:
            cards = state.decks[deck]
            kept = min(state.seen_at_bottom.get(deck, 0), len(cards))
            unseen = cards[kept:]
            state.rng.shuffle(unseen)
            cards[kept:] = unseen
            at_bottom = f"; the {kept} seen at its bottom stay there" if kept else ""
            state.note(
                "reshuffle",
                f"the arbiter shuffles the {deck} deck again ({len(unseen)} cards{at_bottom})",
                {"deck": deck, "cards": len(unseen), "kept_at_bottom": kept},
            )

    def _discard(self, state: BlazonState, card: int) -> None:
        state.discards[TABLES[state.edition].category[card]].append(card)

    def _refill_display(self, state: BlazonState) -> None:
        for slot, card in enumerate(state.display):
            deck = SLOT_DECK[slot]
            if card or not self._can_draw(state, deck):
                continue
            self._reshuffle_if_empty(state, deck)
            state.display[slot] = state.decks[deck].pop()
            state.note(
                "chance",
                f"display slot {slot} shows {EDITIONS[state.edition].cards[state.display[slot]].name}",
                {"slot": slot, "card": state.display[slot]},
            )

    def _refresh_display(self, state: BlazonState, text: str) -> None:
        state.note("refresh", text.format(seat=state.turn))
        for slot, card in enumerate(state.display):
            if card:
                self._discard(state, card)
                state.display[slot] = 0
        self._refill_display(state)

    # -- prestige, heralds, distinctions, end -------------------------------------------------
    def _score(self, state: BlazonState, seat: int, points: int) -> None:
        player = state.players[seat]
        before = player.prestige
        player.prestige += points
        milestones = TABLES[state.edition].board.milestones
        for index, mark in enumerate(milestones):
            if before < mark <= player.prestige and state.milestones[index] < 0:
                state.milestones[index] = seat
                player.animals += 1
                state.note("milestone", f"seat {seat} is first to {mark} prestige: an animal token")
                self._give_heralds(state, seat)
        if player.prestige >= milestones[-1]:
            self._trigger_end(state, seat, "prestige")

    def _give_heralds(self, state: BlazonState, seat: int) -> None:
        """Every other player takes a herald token, in turn order, while the pile lasts."""
        for other in seats_after(seat, len(state.players)):
            if state.herald_pile <= 0:
                state.note("heralds", "the herald pile is empty")
                return
            state.herald_pile -= 1
            state.players[other].heralds += 1

    def _trigger_end(self, state: BlazonState, seat: int, trigger: str) -> None:
        if state.trigger:
            return
        state.trigger, state.trigger_seat = trigger, seat
        state.note(
            "end",
            f"seat {seat} triggers the end ({trigger}): every other player takes one final turn",
        )

    def _end_turn(self, state: BlazonState, seat: int) -> None:
        """End of turn: the distinction check (ruling BZ-3), then the next seat."""
        state.claimable = self.claimable(state, seat)
        if len(state.claimable) > 1:
            state.phase = CLAIM
            return
        if state.claimable:
            self._claim(state, seat, state.claimable[0])
        self._next_turn(state)

    def claimable(self, state: BlazonState, seat: int) -> list[str]:
        """Distinctions ``seat`` meets now, has no marker on, and which have a free award space."""
        tables = TABLES[state.edition]
        by_id = tables.edition.distinction_by_id
        count = len(state.players)
        open_cards = [
            ident
            for ident, taken in zip(state.distinctions, state.awards, strict=True)
            if seat not in taken and len(taken) < len(by_id[ident].awards(count))
        ]
        if not open_cards:
            return []
        met = distinctions_met(tables, tuple(state.players[seat].shield))
        return [ident for ident in open_cards if ident in met]

    def _claim(self, state: BlazonState, seat: int, ident: str) -> None:
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
            "distinction", f"seat {seat} earns {distinction.name} ({value} prestige at the end)"
        )
        if first:
            self._give_heralds(state, seat)
        if len(player.markers) == len(state.distinctions):
            self._trigger_end(state, seat, "distinctions")

    def _next_turn(self, state: BlazonState) -> None:
        count = len(state.players)
        following = next_seat(state.turn, count)
        stalled = state.passes >= count
        if following == state.trigger_seat or stalled:
            if stalled and not state.trigger:
                state.trigger = "stalled"
                state.note(
                    "end", "no player could draw or place a card for a whole round: the game ends"
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

    # -- results ------------------------------------------------------------------------------
    def augmentation_awards(self, state: BlazonState) -> list[dict[str, int]]:
        """Per seat, the augmentations it scores 2 for (rulebook Final Scoring, step 1)."""
        cards = EDITIONS[state.edition].cards
        counts = [
            Counter(cards[n].augmentation for n in p.shield if n and cards[n].augmentation != WILD)
            for p in state.players
        ]
        awards: list[dict[str, int]] = [{} for _ in state.players]
        for aug in AUGMENTATIONS:
            best = max(c[aug] for c in counts)
            leaders = [seat for seat, c in enumerate(counts) if c[aug] == best]
            if best == 0 or len(leaders) > 2 or (len(leaders) == 2 and len(counts) == 2):
                continue
            for seat in leaders:
                awards[seat][aug] = 2
        return awards

    def final_breakdown(self, state: BlazonState) -> list[dict[str, Any]]:
        """Per seat, each line of the final scoring and the total."""
        tables = TABLES[state.edition]
        augs = self.augmentation_awards(state)
        rows = []
        for seat, p in enumerate(state.players):
            line = {
                "track": p.prestige,
                "augmentations": sum(augs[seat].values()),
                "distinctions": p.distinction_points,
                "heralds": p.heralds,
                "animals": 2 * p.animals,
                "full_shield": 2 if shield_full(p) else 0,
                "abatement": -ABATEMENT_PENALTY if p.abated_space >= 0 else 0,
            }
            rows.append({
                **line,
                "total": sum(line.values()),
                "augmentations_won": sorted(augs[seat]),
                "hand_prestige": sum(tables.prestige[n] for n in p.hand),
                "blazon": blazon_text(p, tables),
            })  # fmt: skip
        return rows

    def result(self, state: BlazonState) -> Result | None:
        if state.phase != OVER:
            return None
        rows = self.final_breakdown(state)
        keys = [(r["total"], r["distinctions"], r["hand_prestige"]) for r in rows]
        return Result(
            scores=tuple(float(r["total"]) for r in rows),
            ranks=ranks_from_keys(keys),
            termination=TERMINATIONS.get(state.trigger),
            details={
                "players": rows,
                "trigger": state.trigger,
                "trigger_seat": state.trigger_seat,
                "turns": state.turn_number,
                "tie_breaks": "total prestige, then prestige from distinctions, then prestige of the cards in hand; still tied: shared",
            },
        )

    def estimate(self, state: BlazonState, seat: int) -> float:
        player = state.players[seat]
        hand = sum(TABLES[state.edition].prestige[n] for n in player.hand)
        penalty = ABATEMENT_PENALTY if player.abated_space >= 0 else 0
        return (
            player.prestige + player.distinction_points + player.heralds + 2 * player.animals
            + 0.2 * hand - penalty
        )  # fmt: skip

    # -- words and views ----------------------------------------------------------------------
    def describe(self, move: Move, seat: int) -> str:
        return f"seat {seat} {self._describe_action(move)}"

    def _describe_action(self, move: Move) -> str:
        if isinstance(move, Pay):
            return f"pays with {_card_name(move.card)}"
        if isinstance(move, Place):
            space = SPACE_NAMES[move.space] if 0 <= move.space < SPACES else f"space {move.space}"
            how = " with the Herald action" if move.herald else ""
            how += " using the abatement token" if move.abate else ""
            worth = CARD_PRESTIGE.get(move.card, "?")
            return f"places {_card_name(move.card)} ({worth}) on {space} ({move.align}){how}"
        if isinstance(move, Draw):
            return f"draws from the {move.deck} deck"
        if isinstance(move, Exchange):
            return f"exchanges {_card_name(move.card)} for display slot {move.slot}"
        if isinstance(move, Discard):
            return f"discards {_card_name(move.card)} (hand limit)"
        if isinstance(move, HeraldTake):
            return f"uses a herald to take display slot {move.slot}"
        if isinstance(move, HeraldDraw):
            return f"uses a herald to draw from the {move.deck} deck"
        if isinstance(move, HeraldDiscardPile):
            return f"uses a herald to take the top of the {move.deck} discard pile"
        if isinstance(move, Claim):
            return f"claims distinction {move.distinction}"
        return FIXED_WORDS.get(type(move), move.TYPE)

    def view(self, state: BlazonState, seat: int | None) -> dict[str, Any]:
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
        result = self.result(state)
        if result is not None:
            view["result"] = result.to_json()
        return view


@functools.lru_cache(maxsize=4096)
def display_refreshable(edition: str, display: tuple[int, ...]) -> bool:
    """Three display cards share an element type or an augmentation symbol (wild included)."""
    cards = EDITIONS[edition].cards
    shown = [cards[n] for n in display if n]
    types = Counter(c.type for c in shown)
    augs = Counter(c.augmentation for c in shown)
    return max(types.values(), default=0) >= 3 or max(augs.values(), default=0) >= 3


@functools.lru_cache(maxsize=16384)
def distinctions_met(tables: Tables, shield: tuple[int, ...]) -> frozenset[str]:
    """Ids of the edition's distinctions whose requirement this shield meets."""
    facts = shield_facts(PlayerState(hand=[], shield=list(shield)), tables)
    return frozenset(
        ident
        for ident, distinction in tables.edition.distinction_by_id.items()
        if requirement_met(distinction.clauses, facts)
    )


_DEFAULT = EDITIONS[next(iter(EDITIONS))]
CARD_NAMES = {number: card.name for number, card in _DEFAULT.cards.items()}
CARD_PRESTIGE = {number: card.prestige for number, card in _DEFAULT.cards.items()}
SPACE_NAMES = tuple(space.name for space in _DEFAULT.board.spaces)
FIXED_WORDS: dict[type[Move], str] = {
    Keep: "keeps the drawn cards",
    Finish: "finishes the Blazon action",
    HeraldRefresh: "uses a herald to discard and refill the display",
    Refresh: "refreshes the display",
    EndTurn: "ends the turn",
    Pass: "passes (nothing to draw or place)",
}


def _card_name(number: int) -> str:
    return CARD_NAMES.get(number, f"card {number}")


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
