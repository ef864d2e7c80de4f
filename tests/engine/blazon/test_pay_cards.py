"""``pay_cards`` (engine 1.3.0): the whole payment for a placed card in one move, legal exactly
when the rulebook allows that set of cards (ruling BZ-2), with the effect of the ``pay`` moves
it stands for (docs/rules/blazon.md, "Paying in one move")."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.blazon import GAME
from engine.blazon.legality import payment_order
from engine.blazon.moves import Pay, PayCards, Place
from engine.blazon.shield import TABLES
from engine.blazon.state import BLAZON, PAY, BlazonState
from engine.bots import RandomBot
from engine.core import IllegalMove, Move
from tests.engine.blazon.helpers import SPACE, fresh, give, n, play

PRESTIGE = TABLES["reconstructed-1"].prestige


def place(card: str, space: str, align: str) -> Place:
    return Place(n(card), SPACE[space], align)


def refused(state: BlazonState, move: Move, words: str) -> None:
    with pytest.raises(IllegalMove, match=words):
        GAME.apply(state, 0, move)


def accepted(state: BlazonState, seat: int, move: Move) -> bool:
    try:
        GAME.check(state, seat, move)
    except IllegalMove:
        return False
    return True


def comparable(state: BlazonState) -> dict[str, Any]:
    """The state as data but for the step count and the step's effects (one move or several)."""
    data = GAME.state_to_json(state)
    for key in ("step", "effects", "effect_messages"):
        data.pop(key, None)
    return data


def by_pays(state: BlazonState, seat: int, cards: tuple[int, ...]) -> BlazonState | None:
    """The state after ``pay`` with each card in some order that is legal all the way and ends
    the payment; None when no order does."""
    for order in itertools.permutations(cards):
        twin = GAME.clone(state)
        try:
            for card in order:
                GAME.apply_in_place(twin, seat, Pay(card))
        except IllegalMove:
            continue
        if twin.phase != PAY or twin.turn != seat:
            return twin
    return None


def test_rulebook_example_overpaying_gives_no_change() -> None:
    """The rulebook's example: a Bend (1) paid with the Per Fess (2): overpaid by 1, no change."""
    state = fresh()
    give(state, 0, "D074", "T001", "T002", "T003", "T007", "D057")
    play(state, place("D074", "r2c2", "bottom"))  # nebuly, 3 due
    assert state.pay_due == 3
    ones = tuple(sorted(n(i) for i in ("T001", "T002", "T003")))
    listed = [m for m in GAME.legal_moves(state, 0) if isinstance(m, PayCards)]
    assert PayCards(ones) in listed
    # Four 1s for a 3: the fourth is needed for nothing.
    four = tuple(sorted((*ones, n("T007"))))
    assert PayCards(four) not in listed
    refused(state, PayCards(four), "leave out a card that is not needed")
    refused(state, PayCards(ones[:2]), "worth 2: 3 is due")
    refused(state, PayCards(tuple(reversed(ones))), "in increasing number")
    refused(state, PayCards((n("D074"),)), "not in your hand")
    play(state, PayCards(ones))
    assert state.phase == BLAZON
    assert state.pay_due == 0
    assert sorted(state.players[0].hand) == sorted([n("T007"), n("D057")])


def test_the_payments_listed_are_the_sets_that_need_every_card() -> None:
    """A nebuly (3) with an Or (1), a tincture worth 2 and an Ermine (4) in hand: every set
    that covers 3 without a needless card, overpaying with its largest card included."""
    state = fresh()
    give(state, 0, "D074", "T001", "T004", "T034")
    play(state, place("D074", "r2c2", "bottom"))
    listed = {m for m in GAME.legal_moves(state, 0) if isinstance(m, PayCards)}
    one, two, four = n("T001"), n("T004"), n("T034")
    assert listed == {
        PayCards((one, two)),  # 1 + 2: exactly 3
        PayCards((four,)),  # 4: overpaid by 1, no change
        PayCards((one, four)),  # 1 then 4: overpaid
        PayCards((two, four)),  # 2 then 4: overpaid
    }
    refused(state, PayCards((one, two, four)), "leave out a card that is not needed")
    play(state, PayCards((one, four)))
    assert state.discards["tincture"][-2:] == [one, four]  # the smallest first, the 4 on top
    assert state.phase == BLAZON
    assert state.players[0].hand == [two]


def test_pay_cards_is_refused_outside_a_payment_and_in_older_games() -> None:
    state = fresh()
    give(state, 0, "D074", "T001", "T002", "T003")
    refused(state, PayCards((n("T001"),)), "nothing to pay for now")
    play(state, place("D074", "r2c2", "bottom"))
    state.engine_version = "1.2.0"  # a game set up before pay_cards: card by card, as recorded
    assert not any(isinstance(m, PayCards) for m in GAME.legal_moves(state, 0))
    ones = tuple(sorted(n(i) for i in ("T001", "T002", "T003")))
    refused(state, PayCards(ones), "pay one card at a time")


def _payment_states(seed: int, abatement: bool, count: int) -> list[BlazonState]:
    """Up to ``count`` states of one random game where a payment is due."""
    state = GAME.new_game(
        players=2 + seed % 3, seed=f"pay-{seed}", options={"abatement": abatement}
    )
    bot = RandomBot(f"pay-bot-{seed}")
    found: list[BlazonState] = []
    while (seats := GAME.to_act(state)) and len(found) < count:
        if state.phase == PAY:
            found.append(GAME.clone(state))
        moves = GAME.legal_moves(state, seats[0])
        GAME.apply_in_place(state, seats[0], bot.choose(GAME, state, seats[0], moves))
    return found


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000), abatement=st.booleans())
def test_pay_cards_is_the_sequence_of_pays(seed: int, abatement: bool) -> None:
    """At payments of random games: every set of hand cards (of up to 4) is listed as
    ``pay_cards`` exactly when some order of ``pay`` moves with those cards is legal and ends the
    payment, and playing it leaves the table as those ``pay`` moves do — in the order
    ``payment_order`` says, the smallest first, the one that completes the payment on top."""
    for state in _payment_states(seed, abatement, 3):
        seat = state.turn
        hand = sorted(state.players[seat].hand)
        listed = {m for m in GAME.legal_moves(state, seat) if isinstance(m, PayCards)}
        assert listed, "a started payment can always be finished in one move"
        for size in range(1, min(4, len(hand)) + 1):
            for cards in itertools.combinations(hand, size):
                move = PayCards(cards)
                some_order = by_pays(state, seat, cards) is not None
                assert (move in listed) == some_order == accepted(state, seat, move), cards
                if not some_order:
                    continue
                one = GAME.apply(state, seat, move)
                ordered = GAME.clone(state)
                for card in payment_order(state.edition, cards):
                    GAME.apply_in_place(ordered, seat, Pay(card))
                assert comparable(one) == comparable(ordered)
        for move in listed:  # larger sets too: each listed one plays like its pays
            if len(move.cards) > 4:
                assert by_pays(state, seat, move.cards) is not None
