"""Placement rules (ruling BZ-1), paying (BZ-2), the override and the abatement option."""

from __future__ import annotations

import pytest

from engine.blazon import GAME
from engine.blazon.moves import Draw, EndTurn, Finish, Keep, Pay, PayCards, Place
from engine.blazon.state import BLAZON, END, MAIN, PAY
from engine.core import IllegalMove
from tests.engine.blazon.helpers import SPACE, fresh, give, n, play, put


def place(card: str, space: str, align: str, *, herald: bool = False, abate: bool = False) -> Place:
    return Place(n(card), SPACE[space], align, herald, abate)


def refused(state: object, move: object, words: str) -> None:
    with pytest.raises(IllegalMove, match=words):
        GAME.apply(state, 0, move)  # type: ignore[arg-type]


def test_ruling_BZ_1_a_card_fits_the_symbol_of_its_own_type() -> None:
    state = fresh()
    give(state, 0, "D074", "T034")  # nebuly (line, 3); ermine pays 4
    GAME.apply(state, 0, place("D074", "r2c2", "bottom"))  # r2c2 bottom shows line
    refused(
        state, place("D074", "r2c2", "top"), "nebuly is a line; r2c2 \\(top\\) shows arrangement"
    )
    refused(state, place("D074", "r3c1", "top"), "shows ordinary")


def test_ruling_BZ_1_the_wild_tincture_symbol_takes_any_tincture() -> None:
    state = fresh()
    give(state, 0, "T033", "T034")  # ermine (fur) and another fur to pay
    GAME.apply(state, 0, place("T033", "r1c2", "top"))  # wild tincture symbol
    GAME.apply(state, 0, place("T033", "r2c3", "bottom"))
    refused(
        state, place("T033", "r1c2", "bottom"), "Ermine is a fur; r1c2 \\(bottom\\) shows metal"
    )
    refused(state, place("T033", "r3c3", "top"), "shows colour")


def test_ruling_BZ_1_a_tincture_never_goes_on_a_device_symbol() -> None:
    state = fresh()
    give(state, 0, "T001", "T034")
    refused(
        state, place("T001", "r2c1", "top"), "Or is a tincture card; r2c1 \\(top\\) shows a device"
    )
    refused(state, place("T001", "r1c1", "top"), "shows a device symbol")
    GAME.apply(state, 0, place("T001", "r1c1", "bottom"))


def test_ruling_BZ_1_every_card_of_a_row_shares_one_alignment() -> None:
    state = fresh()
    put(state, 0, "D085", "r2c1", "top")  # unicorn, charge, top
    give(state, 0, "D074", "T034", "T036")
    refused(state, place("D074", "r2c2", "bottom"), "row 2 would be left in two alignments")
    put(state, 0, "D106", "r2c2", "top")  # in chief: the row is top
    refused(state, place("T034", "r2c3", "bottom"), "row 2")
    GAME.apply(state, 0, place("T034", "r2c3", "top"))


def test_ruling_BZ_1_a_lone_tincture_shifts_to_the_alignment_of_the_row() -> None:
    state = fresh()
    put(state, 0, "T017", "r2c3", "top")  # azure on the tincture/tincture space, alone
    give(state, 0, "D057", "T034")  # a bend (ordinary) fits r2c1 bottom
    play(state, place("D057", "r2c1", "bottom"))
    assert state.players[0].aligns[SPACE["r2c3"]] == 1
    assert any(e.kind == "shift" for e in state.effects)


def test_ruling_BZ_1_a_metal_on_r1c2_may_shift_but_not_once_the_row_has_two_cards() -> None:
    state = fresh()
    put(state, 0, "T001", "r1c2", "bottom")  # Or on the metal symbol: fits both alignments
    give(state, 0, "D041", "T034", "T036")  # per pale (division) fits r1c1 top only
    shifted = GAME.apply(state, 0, place("D041", "r1c1", "top"))
    assert shifted.players[0].aligns[SPACE["r1c2"]] == 0
    put(state, 0, "T013", "r1c3", "bottom")  # gules: now two cards in bottom alignment
    refused(state, place("D041", "r1c1", "top"), "row 1 would be left in two alignments")


def test_ruling_BZ_1_identical_tinctures_may_not_share_the_first_row() -> None:
    state = fresh()
    put(state, 0, "T001", "r1c2", "bottom")  # Or
    give(state, 0, "T002", "T007", "T034")  # another Or, an Argent
    refused(
        state, place("T002", "r1c1", "bottom"), "an identical tincture \\(Or\\) is already on r1c2"
    )
    GAME.apply(state, 0, place("T007", "r1c1", "bottom"))
    GAME.apply(state, 0, place("T002", "r2c3", "top"))  # another row: allowed


def test_ruling_BZ_1_identical_tinctures_may_not_share_r2c3_and_r3c3() -> None:
    state = fresh()
    put(state, 0, "T013", "r3c3", "top")  # Gules on colour
    give(state, 0, "T014", "T017", "T034")
    refused(
        state, place("T014", "r2c3", "top"), "identical tincture \\(Gules\\) is already on r3c3"
    )
    GAME.apply(state, 0, place("T017", "r2c3", "top"))


def test_ruling_BZ_1_the_cadency_space_has_one_alignment() -> None:
    state = fresh()
    give(state, 0, "D113", "T034")
    GAME.apply(state, 0, place("D113", "cadency", "top"))
    refused(state, place("D113", "cadency", "bottom"), "single alignment")
    refused(state, place("D113", "r1c1", "top"), "a label is a cadency")


def test_ruling_BZ_1_override_covers_a_card_and_the_new_card_scores() -> None:
    state = fresh()
    put(state, 0, "D073", "r2c2", "bottom")  # wavy
    give(state, 0, "D074", "T034")
    play(state, place("D074", "r2c2", "bottom"), Pay(n("T034")))
    player = state.players[0]
    assert player.shield[SPACE["r2c2"]] == n("D074")
    assert player.prestige == 3
    assert n("D073") in state.discards["device"]


def test_ruling_BZ_1_override_changes_a_row_alignment_within_the_turn() -> None:
    state = fresh()
    put(state, 0, "D057", "r2c1", "bottom")  # a bend, ordinary, bottom
    put(state, 0, "D073", "r2c2", "bottom")  # wavy, line, bottom
    give(state, 0, "D085", "D106", "T034", "T001")  # unicorn 4, in chief 1; pay 4 and 1
    play(state, place("D085", "r2c1", "top"))
    assert state.pending_row == 2
    # Only the ermine keeps the change possible: after paying with Or or in chief, nothing is
    # left to pay for (or to be) the arrangement that must cover r2c2.
    assert GAME.legal_moves(state, 0) == [Pay(n("T034")), PayCards((n("T034"),))]
    refused(state, Pay(n("T001")), "too little to finish changing row 2")
    play(state, Pay(n("T034")))
    assert state.phase == BLAZON
    legal = GAME.legal_moves(state, 0)
    assert legal == [place("D106", "r2c2", "top"), place("D106", "r2c2", "top", herald=True)]
    refused(state, Finish(), "first finish changing row 2 to the top alignment: cover r2c2")
    play(state, place("D106", "r2c2", "top"), Pay(n("T001")))
    assert state.pending_row == 0
    assert [state.players[0].aligns[SPACE[s]] for s in ("r2c1", "r2c2")] == [0, 0]


def test_rulebook_a_herald_placement_may_start_a_row_change() -> None:
    """Rulebook: the Herald places a card "using the usual placement rules", and the override
    "allows you to change a row from one alignment to another in a single turn if the entire
    row is legal by the end of your turn". Engine 1.2.0: a Herald placement may start the
    change (ruling BZ-E5 refused it), paid 1, with the covers still to be placed and paid."""
    state = fresh()
    put(state, 0, "D057", "r2c1", "bottom")  # a bend, ordinary, bottom
    put(state, 0, "D073", "r2c2", "bottom")  # wavy, line, bottom
    give(state, 0, "D085", "D106", "T034", "T001")  # unicorn 4, in chief 1; ermine 4, Or 1
    herald = place("D085", "r2c1", "top", herald=True)
    assert herald in GAME.legal_moves(state, 0)
    play(state, herald, Pay(n("T001")))
    assert (state.phase, state.pending_row) == (MAIN, 2)
    cover = place("D106", "r2c2", "top")
    assert GAME.legal_moves(state, 0) == [cover]  # the cover starts the Blazon action
    refused(state, Finish(), "first finish changing row 2")
    refused(state, Draw("device"), "first finish changing row 2")  # no Acquire now
    play(state, cover, Pay(n("T034")))
    assert (state.phase, state.pending_row) == (BLAZON, 0)
    assert [state.players[0].aligns[SPACE[s]] for s in ("r2c1", "r2c2")] == [0, 0]


def test_after_the_action_a_herald_placement_cannot_start_a_row_change() -> None:
    """After the action no placement is left to cover the rest of the row with (the Herald's
    was the turn's last), so "legal by the end of your turn" cannot hold: refused."""
    state = fresh()
    put(state, 0, "D057", "r2c1", "bottom")
    put(state, 0, "D073", "r2c2", "bottom")
    give(state, 0, "D085", "D106", "T034", "T001")
    play(state, Draw("device"), Draw("device"), Keep())
    assert state.phase == END
    herald = place("D085", "r2c1", "top", herald=True)
    assert herald not in GAME.legal_moves(state, 0)
    refused(state, herald, "your action is over, so no placement is left this turn")


def test_a_game_set_up_under_1_1_refuses_a_herald_placement_starting_a_row_change() -> None:
    """Engine 1.1.0's rule (BZ-E5 as first written) for a game recorded under it."""
    state = fresh()
    state.engine_version = "1.1.0"
    put(state, 0, "D057", "r2c1", "bottom")
    put(state, 0, "D073", "r2c2", "bottom")
    give(state, 0, "D085", "D106", "T034", "T001")
    herald = place("D085", "r2c1", "top", herald=True)
    assert herald not in GAME.legal_moves(state, 0)
    refused(state, herald, "alignment")


def test_ruling_BZ_1_a_row_change_the_hand_cannot_finish_is_refused() -> None:
    state = fresh()
    put(state, 0, "D057", "r2c1", "bottom")
    put(state, 0, "D073", "r2c2", "bottom")
    give(state, 0, "D085", "T034", "T001")  # no arrangement to cover r2c2 in the top alignment
    refused(state, place("D085", "r2c1", "top"), "cannot cover r2c2 in the top alignment")


def test_ruling_BZ_2_each_card_is_paid_separately_without_change() -> None:
    state = fresh()
    give(state, 0, "D057", "D106", "T034", "T001")  # bend 1, in chief 1; ermine 4, Or 1
    play(state, place("D057", "r2c1", "bottom"))
    assert state.phase == PAY
    assert state.pay_due == 1
    play(state, Pay(n("T034")))  # overpays by 3: no change
    assert state.phase == BLAZON
    play(state, place("D106", "r3c2", "bottom"))
    assert state.pay_due == 1  # the second card is paid again
    play(state, Pay(n("T001")))
    assert state.players[0].prestige == 2
    assert state.players[0].hand == []


def test_ruling_BZ_2_a_card_the_rest_of_the_hand_cannot_pay_is_refused() -> None:
    state = fresh()
    give(state, 0, "D085", "T034")  # unicorn costs 4; ermine is worth 4: fine
    GAME.apply(state, 0, place("D085", "r2c1", "top"))
    state = fresh()
    give(state, 0, "D085", "T001")
    refused(state, place("D085", "r2c1", "top"), "cannot pay for this card")


def test_ruling_BZ_2_paying_stops_once_the_cost_is_met() -> None:
    state = fresh()
    give(state, 0, "D074", "T001", "T002", "T003", "T007")  # nebuly 3 paid by four 1s
    play(state, place("D074", "r2c2", "bottom"), Pay(n("T001")), Pay(n("T002")))
    assert state.pay_due == 1
    play(state, Pay(n("T003")))
    assert state.phase == BLAZON
    assert state.players[0].hand == [n("T007")]


def test_the_blazon_action_needs_a_placement_and_ends_with_finish() -> None:
    state = fresh()
    give(state, 0, "D057", "T034")
    refused(state, Finish(), "not taking a Blazon action")
    play(state, place("D057", "r2c1", "bottom"), Pay(n("T034")), Finish())
    assert state.phase == END  # a herald token is left: the player may still use it
    play(state, EndTurn())
    assert state.turn == 1
    state = fresh()
    state.players[0].heralds = 0
    give(state, 0, "D057", "T034")
    play(state, place("D057", "r2c1", "bottom"), Pay(n("T034")), Finish())
    assert state.turn == 1  # nothing else to do: the turn ended by itself


# -- abatement (optional rule) ----------------------------------------------------------------


def test_abatement_lets_a_card_ignore_the_symbol_but_not_the_category() -> None:
    state = fresh(abatement=True)
    give(state, 0, "D085", "T034", "T001")
    refused(
        state, place("D085", "r2c2", "top"), "unicorn is a charge; r2c2 \\(top\\) shows arrangement"
    )
    play(state, place("D085", "r2c2", "top", abate=True), Pay(n("T034")))
    player = state.players[0]
    assert player.abated_space == SPACE["r2c2"]
    assert not player.abatement
    assert player.prestige == 4
    give(state, 0, "D074", "T036")
    refused(state, place("D074", "r2c1", "top", abate=True), "already on your shield")


def test_abatement_breaks_the_row_alignment_rule() -> None:
    state = fresh(abatement=True)
    put(state, 0, "D085", "r2c1", "top")
    put(state, 0, "D106", "r2c2", "top")
    give(state, 0, "T017", "T034")
    play(state, place("T017", "r2c3", "bottom", abate=True))
    assert state.players[0].aligns[SPACE["r2c3"]] == 1


def test_abatement_refusals_in_words() -> None:
    state = fresh(abatement=False)
    give(state, 0, "D085", "T034")
    refused(state, place("D085", "r2c2", "top", abate=True), "option abatement is off")
    state = fresh(abatement=True)
    give(state, 0, "D085", "T034", "T001")
    refused(state, place("D085", "r2c1", "top", abate=True), "legal without the abatement token")
    refused(state, place("T001", "r2c1", "top", abate=True), "tincture card")
    put(state, 0, "D057", "r2c1", "bottom")
    refused(state, place("D085", "r2c2", "top", abate=True), "breaks two")


def test_abatement_covering_the_abated_card_correctly_returns_the_token() -> None:
    state = fresh(abatement=True)
    put(state, 0, "D085", "r2c2", "top")
    state.players[0].abatement, state.players[0].abated_space = False, SPACE["r2c2"]
    give(state, 0, "D106", "T001")
    play(state, place("D106", "r2c2", "top"), Pay(n("T001")))
    player = state.players[0]
    assert player.abatement
    assert player.abated_space == -1
    assert n("D085") in state.discards["device"]


def test_abatement_token_still_in_use_costs_8_at_the_end() -> None:
    state = fresh(abatement=True)
    put(state, 0, "D085", "r2c2", "top")
    state.players[0].abatement, state.players[0].abated_space = False, SPACE["r2c2"]
    rows = GAME.final_breakdown(state)
    assert rows[0]["abatement"] == -8
    assert rows[1]["abatement"] == 0


def test_a_herald_placement_costs_one_and_keeps_the_action_open() -> None:
    state = fresh()
    give(state, 0, "D085", "T001")  # unicorn 4, paid with Or 1 through the herald
    play(state, place("D085", "r2c1", "top", herald=True))
    assert state.pay_due == 1
    play(state, Pay(n("T001")))
    player = state.players[0]
    assert player.prestige == 4
    assert player.heralds == 0
    assert state.herald_used
    assert state.phase == "main"  # the Acquire or Blazon action is still to take


def test_a_placement_after_the_action_needs_the_herald() -> None:
    state = fresh()
    give(state, 0, "D057", "T034", "D106", "T001", "T002")
    play(state, place("D057", "r2c1", "bottom"), Pay(n("T034")), Finish())
    assert state.phase == END
    refused(state, place("D106", "r2c2", "bottom"), "needs the Herald action")
    play(state, place("D106", "r3c2", "bottom", herald=True), Pay(n("T001")))
