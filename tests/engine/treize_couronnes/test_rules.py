"""13 Couronnes: every rule, ruling (13C-1..13C-3) and rulebook example as a named test."""

from __future__ import annotations

import json
import re

import pytest

from engine.core import IllegalMove, Move, Termination
from engine.treize_couronnes import GAME
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
from tests.engine.treize_couronnes.helpers import effects_text, law_moves, play, refused, table

# -- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_first_king_in_power_and_six_cards_each(players: int) -> None:
    state = GAME.new_game(players=players, seed="setup")
    assert state.kings == ["B03"]
    assert [len(h) for h in state.hands] == [6] * players
    assert len(state.draw) == 51 - 6 * players
    cards = [c for h in state.hands for c in h] + state.draw + state.kings
    assert sorted(cards) == sorted(set(cards))
    assert len(cards) == 52
    assert state.current == 0
    assert state.phase == "start"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_ruling_13C_3_seat_0_starts_and_the_others_take_compensation_crowns(players: int) -> None:
    state = GAME.new_game(players=players, seed="comp")
    assert state.crowns == list(range(players))  # 2nd player 1 crown, ..., 5th player 4
    assert state.reserve_crowns == 65 - sum(range(players))
    assert GAME.to_act(state) == [0]


def test_setup_reserve_has_65_crowns_4_guards_8_blasons() -> None:
    state = GAME.new_game(players=2, seed="reserve")
    assert state.reserve_crowns + sum(state.crowns) == 65
    assert state.reserve_guards == 4
    assert state.reserve_blasons == {"blue": 2, "orange": 2, "green": 2, "purple": 2}


def test_setup_shuffle_is_a_chance_outcome_nobody_sees_and_hands_only_their_owner() -> None:
    state = GAME.new_game(players=3, seed="chance")
    shuffle, *deals = [e for e in state.effects if e.kind == "chance"]
    assert shuffle.visible_to == []
    assert [d.visible_to for d in deals] == [[0], [1], [2]]


def test_options_max_turns_and_hidden_crowns_are_validated() -> None:
    assert GAME.normalize_options(None) == {"max_turns": 200, "hidden_crowns": False}
    with pytest.raises(ValueError, match="at least 1"):
        GAME.normalize_options({"max_turns": 0})
    with pytest.raises(ValueError, match="true or false"):
        GAME.normalize_options({"hidden_crowns": "yes"})


# -- a turn is one of three choices ---------------------------------------------------------


def test_a_turn_starts_with_one_of_the_three_choices_never_a_bare_end() -> None:
    state = table(hands=[["B01", "B02", "O03"], ["G01"]])
    kinds = {m.TYPE for m in GAME.legal_moves(state, 0)}
    assert kinds == {"reveal", "change-king", "redo-discard", "redo-draw"}
    assert "cannot end yet" in refused(state, EndTurn())


def test_only_the_seat_to_act_has_moves() -> None:
    state = table(hands=[["B01", "B02"], ["G01", "G02"]])
    assert GAME.legal_moves(state, 1) == []
    assert "seat 0's turn" in refused(state, RedoDraw(), seat=1)


# -- applying the law (13C-1) ---------------------------------------------------------------


def test_rulebook_example_reveal_blue_and_orange_for_a_crown_and_a_guard() -> None:
    state = table(hands=[["B05", "O03", "G02"], ["P01"]], kings=["B01"])
    assert law_moves(state) == [Reveal(("B05", "O03"))]
    after = play(state, Reveal(("B05", "O03")))
    assert after.crowns[0] == 1
    assert after.guards[0] == 1
    assert after.reserve_guards == 3
    assert after.hands[0] == ["B05", "G02", "O03"]  # revealed cards return to the hand
    assert after.revealed == ["B05", "O03"]


def test_rulebook_example_discard_a_blason_to_steal_a_crown() -> None:
    state = table(hands=[["B05"], ["P01"]], kings=["B06"], crowns=[0, 3], blasons=[["green"], []])
    assert law_moves(state) == [Discard((), (), ("green",))]
    after = play(state, Discard((), (), ("green",)))
    assert after.blasons[0] == []
    assert after.reserve_blasons["green"] == 2
    assert GAME.legal_moves(after, 0) == [StealCrowns((1,))]
    after = play(after, StealCrowns((1,)))
    assert after.crowns == [1, 2]
    assert after.reserve_crowns == state.reserve_crowns  # stolen, not taken from the reserve


def test_rulebook_example_three_blue_cards_and_the_blue_blason_for_four_crowns() -> None:
    hand = ["B01", "B02", "B05", "O03", "G02", "P02"]
    state = table(hands=[hand, ["P01"]], kings=["B04"], blasons=[["blue"], []])
    move = Reveal(("B01", "B02", "B05"), (), ("blue",))
    assert law_moves(state) == [move]
    after = play(state, move)
    assert after.crowns[0] == 4
    assert after.blasons[0] == []
    assert after.reserve_blasons["blue"] == 2
    assert after.hands[0] == sorted(hand)  # the three blue cards were only revealed


def test_ruling_13C_1_law_applies_again_with_different_cards_each_time() -> None:
    state = table(hands=[["B01", "B02", "O01", "O02", "G01"], ["P01"]], kings=["B03"])
    first = play(state, Reveal(("B01", "B02")))
    assert first.crowns[0] == 1
    assert first.phase == "applied"
    assert GAME.legal_moves(first, 0) == [Reveal(("O01", "O02")), EndTurn()]
    assert "not revealed yet this turn" in refused(first, Reveal(("B01", "B02")))
    second = play(first, Reveal(("O01", "O02")))
    assert second.crowns[0] == 2
    assert GAME.legal_moves(second, 0) == [EndTurn()]  # G01 alone makes no pair
    assert play(second, EndTurn()).revealed == []  # a new turn may reveal them again


def test_a_pair_may_be_of_any_colour_and_each_pair_is_listed_once() -> None:
    state = table(hands=[["B01", "B02", "B05", "O01"], ["P01"]])
    laws = law_moves(state)
    assert laws == [Reveal(("B01", "B02")), Reveal(("B01", "B05")), Reveal(("B02", "B05"))]


def test_reveal_of_one_card_of_each_listed_colour() -> None:
    state = table(hands=[["B01", "B05", "P01", "O01"], ["G01"]], kings=["B02"])  # blue+purple
    assert law_moves(state) == [Reveal(("B01", "P01")), Reveal(("B05", "P01"))]


def test_reveal_of_three_colours_for_three_crowns() -> None:
    state = table(hands=[["B01", "O01", "P01"], ["G01"]], kings=["B13"])
    assert play(state, Reveal(("B01", "O01", "P01"))).crowns[0] == 3


def test_discard_law_puts_the_cards_face_down_on_the_discard_pile() -> None:
    state = table(hands=[["O01", "O02", "O03", "B01"], ["G01"]], kings=["B05"])
    after = play(state, Discard(("O01", "O03")))
    assert after.crowns[0] == 2
    assert after.hands[0] == ["B01", "O02"]
    assert after.discard == ["O01", "O03"]
    assert GAME.public_move(Discard(("O01", "O03")), 0)["cards"] == 2
    assert "O01" not in json.dumps(GAME.view(after, 1))


def test_discard_law_needs_the_cards() -> None:
    state = table(hands=[["O01", "B01"], ["G01"]], kings=["B05"])
    assert not law_moves(state)
    assert "does not carry out" in refused(state, Discard(("O01",)))


def test_a_discard_law_is_applied_with_a_discard_move_not_a_reveal() -> None:
    state = table(hands=[["O01", "O02"], ["G01"]], kings=["B05"])
    assert "'discard' move" in refused(state, Reveal(("O01", "O02")))


def test_announced_colour_is_chosen_when_the_king_is_played_and_asked_by_its_law() -> None:
    state = table(hands=[["B07", "G01", "G02"], ["P01", "G03"]])
    changes = [m for m in GAME.legal_moves(state, 0) if m == ChangeKing("B07", "green")]
    assert changes
    assert "announce one of" in refused(state, ChangeKing("B07"))
    after = play(state, ChangeKing("B07", "green"))
    assert after.announced == "green"
    assert law_moves(after) == [
        Reveal(("G01",)),
        Reveal(("G02",)),
    ]


def test_announced_colour_stays_the_same_for_the_other_players() -> None:
    state = table(hands=[["B07", "G01"], ["P01", "G03"]])
    after = play(state, ChangeKing("B07", "green"), EndTurn())
    assert after.current == 1
    assert after.announced == "green"
    assert Reveal(("G03",)) in GAME.legal_moves(after, 1)
    assert Reveal(("P01",)) not in GAME.legal_moves(after, 1)


def test_a_king_without_announced_law_takes_no_announcement() -> None:
    state = table(hands=[["B01", "G01"], ["P01"]])
    assert "announce nothing" in refused(state, ChangeKing("B01", "blue"))


# -- jokers and blasons stand in for missing cards -----------------------------------------


def test_joker_stands_in_for_a_missing_card_and_is_discarded() -> None:
    state = table(hands=[["B05", "G13", "P01"], ["O02"]], kings=["B01"])  # blue + orange
    move = Reveal(("B05",), ("G13",))
    assert move in GAME.legal_moves(state, 0)
    after = play(state, move)
    assert after.crowns[0] == 1
    assert after.guards[0] == 1
    assert "G13" not in after.hands[0]
    assert after.discard == ["G13"]


def test_joker_cannot_replace_a_card_the_player_holds() -> None:
    state = table(hands=[["B05", "O01", "G13"], ["O02"]], kings=["B01"])
    assert law_moves(state) == [Reveal(("B05", "O01"))]
    assert "only stand in for a missing card" in refused(state, Reveal(("B05",), ("G13",)))


def test_rulebook_a_blason_replaces_a_card_of_its_colour_even_one_the_player_holds() -> None:
    """Rulebook: "When applying a law where you must reveal or discard cards, you may discard a
    Blason in your possession to replace 1 card of the same colour." Only the special card's
    sentence says "missing": a blue blason may stand in for a blue card the player holds
    (engine 1.3.0)."""
    state = table(hands=[["B05", "O01"], ["G01"]], kings=["B01"], blasons=[["blue"], []])
    moves = law_moves(state)
    assert Reveal(("O01",), (), ("blue",)) in moves
    assert Reveal(("B05", "O01")) in moves
    after = play(state, Reveal(("O01",), (), ("blue",)))
    assert after.crowns[0] == 1
    assert after.blasons[0] == []
    assert after.hands[0] == ["B05", "O01"]  # the blue card stays in hand, unrevealed
    assert after.revealed == ["O01"]


def test_a_game_set_up_under_1_2_keeps_the_blason_for_a_missing_card_only() -> None:
    """Engine 1.2.0's rule (a blason for a missing card only) for a game recorded under it."""
    state = table(
        hands=[["B05", "O01"], ["G01"]], kings=["B01"], blasons=[["blue"], []],
        engine_version="1.2.0",
    )  # fmt: skip
    assert law_moves(state) == [Reveal(("B05", "O01"))]
    assert "that is missing" in refused(state, Reveal(("O01",), (), ("blue",)))


def test_a_special_card_counts_as_its_own_colour_too() -> None:
    state = table(hands=[["B13", "O01"], ["G01"]], kings=["B01"])  # blue + orange
    assert law_moves(state) == [Reveal(("B13", "O01"))]


def test_two_jokers_make_a_pair() -> None:
    state = table(hands=[["G13", "P13"], ["B01"]])
    assert Reveal((), ("G13", "P13")) in GAME.legal_moves(state, 0)
    after = play(state, Reveal((), ("G13", "P13")))
    assert after.hands[0] == []
    assert after.crowns[0] == 1


def test_blason_stands_in_only_for_a_card_of_its_colour() -> None:
    state = table(hands=[["B05", "G01"], ["P01"]], kings=["B01"], blasons=[["green"], []])
    assert not law_moves(state)
    assert "does not carry out" in refused(state, Reveal(("B05",), (), ("green",)))
    orange = table(hands=[["B05", "G01"], ["P01"]], kings=["B01"], blasons=[["orange"], []])
    assert Reveal(("B05",), (), ("orange",)) in GAME.legal_moves(orange, 0)


def test_blason_may_fill_a_missing_discard_card() -> None:
    state = table(hands=[["O01", "B01"], ["G01"]], kings=["B05"], blasons=[["orange"], []])
    assert law_moves(state) == [Discard(("O01",), (), ("orange",))]
    after = play(state, Discard(("O01",), (), ("orange",)))
    assert after.crowns[0] == 2
    assert after.blasons[0] == []
    assert after.discard == ["O01"]


def test_discard_blason_law_takes_any_colour_and_no_joker() -> None:
    state = table(hands=[["B13"], ["G01"]], kings=["B06"], crowns=[0, 2])
    assert not law_moves(state)
    assert "does not carry out" in refused(state, Discard((), ("B13",)))


# -- once-per-turn laws ---------------------------------------------------------------------


def test_once_hand_exactly_4_only_with_4_cards_and_once_per_turn() -> None:
    four = table(hands=[["B01", "B02", "O01", "G01"], ["P01"]], kings=["B10"])
    after = play(four, Claim())
    assert after.crowns[0] == 2
    assert GAME.legal_moves(after, 0) == [EndTurn()]
    assert "only once per turn" in refused(after, Claim())
    five = table(hands=[["B01", "B02", "O01", "G01", "G02"], ["P01"]], kings=["B10"])
    assert Claim() not in GAME.legal_moves(five, 0)
    assert "does not meet the condition" in refused(five, Claim())


def test_once_fewest_crowns_needs_strictly_fewer_than_each_opponent() -> None:
    fewest = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=[1, 2, 3])
    after = play(fewest, Claim())
    assert after.guards[0] == 1  # guard:1 taken at once, then a blason colour to choose
    assert after.pending == ["blason:1"]
    assert {m.token for m in GAME.legal_moves(after, 0) if isinstance(m, TakeToken)} == {
        "blue",
        "orange",
        "green",
        "purple",
    }
    after = play(after, TakeToken("purple"))
    assert after.blasons[0] == ["purple"]
    assert after.reserve_blasons["purple"] == 1
    tied = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=[1, 1, 3])
    assert Claim() not in GAME.legal_moves(tied, 0)


def test_once_most_colour_with_strictly_more_cards_gains() -> None:
    state = table(3, hands=[["B01", "B02", "O01"], ["B05"], ["G01"]], kings=["B08"])
    after = play(state, Claim())
    assert after.crowns[0] == 2
    assert "seat 0 reveals 2 blue" in effects_text(after)
    assert "seat 1 reveals" not in effects_text(after)


def test_ruling_13C_1_once_most_colour_tie_reveals_both_and_nobody_gains() -> None:
    state = table(3, hands=[["B01", "B02"], ["B05", "B06", "O01"], ["G01"]], kings=["B08"])
    after = play(state, Claim())
    assert after.crowns == [0, 0, 0]
    text = effects_text(after)
    assert "seat 0 reveals 2 blue" in text
    assert "seat 1 reveals 2 blue" in text
    assert "seat 2 reveals" not in text
    revealed = [e.data["cards"] for e in after.effects if e.kind == "reveal"]
    assert revealed == [["B01", "B02"], ["B05", "B06"]]
    assert "only once per turn" in refused(after, Claim())  # the attempt used the law


def test_once_most_colour_needs_a_card_of_the_colour_to_attempt() -> None:
    state = table(hands=[["O01"], ["G01"]], kings=["B08"])
    assert Claim() not in GAME.legal_moves(state, 0)


# -- rewards: reserve, token limit, steals --------------------------------------------------


def test_reward_crowns_partly_lost_when_the_reserve_runs_short() -> None:
    state = table(hands=[["O01", "O02"], ["G01"]], kings=["B05"], reserve_crowns=1)
    after = play(state, Discard(("O01", "O02")))
    assert after.crowns[0] == 1
    assert after.reserve_crowns == 0
    short = next(e for e in after.effects if "crowns are lost" in e.text)
    assert short.data == {"lost": 1}


def test_reward_guard_lost_when_the_reserve_has_none() -> None:
    state = table(hands=[["B05", "O01"], ["G01"]], kings=["B01"], reserve_guards=0)
    after = play(state, Reveal(("B05", "O01")))
    assert after.crowns[0] == 1
    assert after.guards[0] == 0
    assert after.pending == []
    assert "cannot take guard" in effects_text(after)


def test_reward_blason_offers_only_colours_left_and_is_lost_when_none() -> None:
    state = table(
        3,
        hands=[["B01"], ["P01"], ["G01"]],
        kings=["B09"],
        crowns=[0, 1, 1],
        blasons=[[], ["blue", "orange"], ["blue", "orange"]],
    )
    state.reserve_blasons.update({"green": 0})
    after = play(state, Claim())
    assert GAME.legal_moves(after, 0) == [TakeToken("purple")]
    state.reserve_blasons.update({"purple": 0})
    after = play(state, Claim())
    assert after.guards[0] == 1
    assert after.pending == []
    assert after.phase == "applied"
    assert "cannot take blason" in effects_text(after)


def test_token_limit_a_third_token_means_giving_one_back_first() -> None:
    state = table(hands=[["B05", "O01"], ["G01"]], kings=["B01"], blasons=[["blue", "green"], []])
    after = play(state, Reveal(("B05", "O01")))
    assert after.pending == ["guard:1"]
    assert GAME.legal_moves(after, 0) == [
        TakeToken("none"),
        TakeToken("guard", "blue"),
        TakeToken("guard", "green"),
    ]
    assert "must first take" in refused(after, EndTurn())
    assert GAME.view(after, 1)["decision"] == "seat 0 takes the reward: guard 1"
    took = play(after, TakeToken("guard", "green"))
    assert took.guards[0] == 1
    assert took.blasons[0] == ["blue"]
    assert took.reserve_blasons["green"] == 2
    assert took.tokens(0) == 2
    kept = play(after, TakeToken("none"))
    assert kept.guards[0] == 0
    assert kept.blasons[0] == ["blue", "green"]


def test_token_limit_holding_two_guards_a_third_guard_is_lost() -> None:
    state = table(hands=[["B05", "O01"], ["G01"]], kings=["B01"], guards=[2, 0])
    after = play(state, Reveal(("B05", "O01")))
    assert after.guards[0] == 2
    assert after.pending == []


def test_steal_cards_split_among_opponents_at_random() -> None:
    hands = [["P01", "P02"], ["B01", "B02"], ["G01"]]
    state = table(3, hands=hands, kings=["B11"])
    after = play(state, Discard(("P01", "P02")))
    assert GAME.legal_moves(after, 0) == [
        StealCards((1, 1)),
        StealCards((1, 2)),
    ]  # seat 2 has only one card: (2, 2) is impossible
    stolen = play(after, StealCards((1, 2)))
    assert len(stolen.hands[0]) == 2
    assert len(stolen.hands[1]) == 1
    assert stolen.hands[2] == []
    chance = [e for e in stolen.effects if e.kind == "chance"]
    assert [e.visible_to for e in chance] == [[0, 1], [0, 2]]
    assert chance[1].data == {"card": "G01"}
    view = json.dumps(GAME.view(stolen, 2))
    assert chance[0].data["card"] not in view


def test_steal_crowns_only_from_opponents_who_have_crowns_and_lost_otherwise() -> None:
    state = table(3, hands=[[], ["P01"], ["G01"]], kings=["B06"], crowns=[0, 0, 2])
    state.blasons[0] = ["blue"]
    state.reserve_blasons["blue"] = 1
    after = play(state, Discard((), (), ("blue",)))
    assert GAME.legal_moves(after, 0) == [StealCrowns((2,))]
    nobody = table(3, hands=[[], ["P01"], ["G01"]], kings=["B06"], blasons=[["blue"], [], []])
    after = play(nobody, Discard((), (), ("blue",)))
    assert after.pending == []
    assert "cannot take steal-crowns" in effects_text(after)


# -- changing the King -----------------------------------------------------------------------


def test_change_king_then_apply_the_new_law() -> None:
    state = table(hands=[["B04", "O01", "O02"], ["G01"]])
    after = play(state, ChangeKing("B04"))
    assert after.kings == ["B03", "B04"]
    assert after.phase == "changed"
    assert "B04" not in after.hands[0]
    assert GAME.legal_moves(after, 0) == [EndTurn()]  # no 4 blue cards: only end
    state = table(hands=[["B05", "O01", "O02"], ["G01"]])
    after = play(state, ChangeKing("B05"), Discard(("O01", "O02")))
    assert after.crowns[0] == 2


def test_the_king_cannot_be_changed_after_applying_the_law() -> None:
    state = table(hands=[["B01", "B02", "B05"], ["G01"]])
    after = play(state, Reveal(("B01", "B02")))
    assert "first choice" in refused(after, ChangeKing("B05"))
    assert "first choice" in refused(after, RedoDraw())


def test_hole_king_shows_the_reward_of_the_king_beneath() -> None:
    state = table(hands=[["O12", "G01", "G02"], ["P01"]], kings=["B03", "B04"])
    after = play(state, ChangeKing("O12"))
    assert GAME.showing_through(after) == "B04"
    after = play(after, Reveal(("G01", "G02")))  # the hole King's action: a pair
    assert after.crowns[0] == 4  # ...and B04's reward: 4 crowns


def test_hole_kings_show_through_recursively() -> None:
    state = table(hands=[["G12", "P01", "P02"], ["B01"]], kings=["B03", "B13", "O12"])
    after = play(state, ChangeKing("G12"), Reveal(("P01", "P02")))
    assert GAME.showing_through(after) == "B13"
    assert after.crowns[0] == 3
    assert GAME.view(after, 0)["king"]["reward_from"] == "B13"
    assert GAME.view(after, 0)["king"]["reward"] == "crowns:3"


def test_rulebook_example_a_green_hole_king_covers_the_orange_king_whose_reward_shows() -> None:
    # "The former King in power (orange card) is replaced by the new King in power (green card)"
    state = table(hands=[["G12", "B01", "B02"], ["P01"]], kings=["B03", "O04"])
    after = play(state, ChangeKing("G12"))
    assert GAME.king(after).id == "G12"
    assert GAME.showing_through(after) == "O04"
    assert play(after, Reveal(("B01", "B02"))).crowns[0] == 4  # O04's 4 crowns through the hole


# -- guards (13C-2) ----------------------------------------------------------------------


def test_ruling_13C_2_guard_placed_at_end_of_turn_one_per_king() -> None:
    state = table(hands=[["B01", "B02"], ["G01"]], guards=[1, 1])
    after = play(state, Reveal(("B01", "B02")))
    assert GAME.legal_moves(after, 0) == [EndTurn(False), EndTurn(True)]
    after = play(after, EndTurn(True))
    assert after.guard_owner == 0
    assert after.guards[0] == 0
    after = play(after, RedoDraw())
    assert EndTurn(True) not in GAME.legal_moves(after, 1)
    assert "already has a guard" in refused(after, EndTurn(True))


def test_ruling_13C_2_changing_a_guarded_king_costs_a_card_given_to_the_guard_owner() -> None:
    state = table(hands=[["B01"], ["G01", "G02", "P05"]], current=1, guard_owner=0)
    changes = [m for m in GAME.legal_moves(state, 1) if m.TYPE in ("change-king", "pay-guard")]
    assert changes == [PayGuard("G01"), PayGuard("G02"), PayGuard("P05")]
    assert "first give them a card" in refused(state, ChangeKing("G01"))
    paid = play(state, PayGuard("P05"))
    assert paid.hands == [["B01", "P05"], ["G01", "G02"]]
    assert paid.guard_owner == -1
    assert paid.reserve_guards == 4
    gift = next(e for e in paid.effects if e.data.get("card") == "P05")
    assert gift.visible_to == [1, 0]
    assert GAME.public_move(PayGuard("P05"), 1) == {"type": "pay-guard", "card": "hidden"}
    assert GAME.legal_moves(paid, 1) == [ChangeKing("G01"), ChangeKing("G02")]  # must follow
    assert "first choice" in refused(paid, RedoDraw())
    after = play(paid, ChangeKing("G01"))
    assert after.kings == ["B03", "G01"]
    assert after.hands[1] == ["G02"]


def test_ruling_13C_2_a_guarded_king_cannot_be_changed_with_a_single_card() -> None:
    state = table(hands=[["B01"], ["G01"]], current=1, guard_owner=0)
    assert not [m for m in GAME.legal_moves(state, 1) if m.TYPE in ("change-king", "pay-guard")]
    assert "no card to play" in refused(state, PayGuard("G01"))


def test_ruling_13C_2_the_guard_owner_changes_freely_and_the_guard_returns() -> None:
    state = table(hands=[["B01", "B02"], ["G01"]], guard_owner=0)
    assert ChangeKing("B01") in GAME.legal_moves(state, 0)
    after = play(state, ChangeKing("B01"))
    assert after.hands[1] == ["G01"]
    assert after.guard_owner == -1
    assert after.reserve_guards == 4
    assert "no card is owed" in refused(state, PayGuard("B02"))


# -- redoing the hand --------------------------------------------------------------------


def test_redo_hand_discards_any_number_then_draws_to_six() -> None:
    state = table(hands=[["B01", "B02", "O01"], ["G01"]], draw=["P01", "P02", "P03", "P04", "P05"])
    after = play(state, RedoDiscard("B01"), RedoDiscard("O01"))
    assert after.phase == "redo"
    assert after.discard == ["B01", "O01"]
    after = play(after, RedoDraw())
    assert after.hands[0] == ["B02", "P01", "P02", "P03", "P04", "P05"]
    assert after.crowns[0] == 0
    assert GAME.legal_moves(after, 0) == [EndTurn()]


def test_rulebook_example_the_player_completes_their_hand_to_6_cards() -> None:
    state = table(hands=[["B01", "O01", "G01", "P01"], ["B02"]], draw=["P02", "P03", "P04"])
    after = play(state, RedoDiscard("G01"), RedoDraw())
    assert after.hands[0] == ["B01", "O01", "P01", "P02", "P03", "P04"]
    assert len(after.hands[0]) == 6


def test_redo_hand_with_no_discard_just_draws() -> None:
    state = table(hands=[["B01"], ["G01"]])
    after = play(state, RedoDraw())
    assert len(after.hands[0]) == 6
    assert after.discard == []


def test_rulebook_the_empty_draw_pile_is_reformed_from_discarded_and_played_cards() -> None:
    """Rulebook: "If the draw pile is empty, it is reformed by shuffling all discarded and
    played cards, except the King in power." The Kings the King in power covers are played
    cards: they go into the new pile (engine 1.3.0; ruling 13C-2 first kept them out)."""
    state = table(
        hands=[["B01"], ["G01"]], kings=["B03", "B04"], discard=["P01", "P02", "P03"], draw=["O01"]
    )
    after = play(state, RedoDraw())
    assert sorted(after.hands[0]) == ["B01", "B03", "O01", "P01", "P02", "P03"]
    assert after.kings == ["B04"]
    assert after.discard == []
    assert after.draw == []
    chance = [e for e in after.effects if e.kind == "chance"]
    assert chance[0].visible_to == []
    assert "discarded and played cards" in chance[0].text
    assert sorted(chance[0].data["order"]) == ["B03", "P01", "P02", "P03"]


def test_a_hole_king_in_power_keeps_the_king_whose_reward_shows_through() -> None:
    """Rulebook: "If the King in power is a card with a hole, also keep the card whose reward
    is visible through the hole": a reshuffle leaves it under the hole King."""
    state = table(hands=[["B01"], ["G01"]], kings=["B03", "B04", "B12"], discard=[], draw=[])
    after = play(state, RedoDraw())  # B12 has a hole: B04's reward shows through
    assert after.kings == ["B04", "B12"]
    assert sorted(after.hands[0]) == ["B01", "B03"]


def test_played_kings_alone_reform_the_pile_when_nothing_was_discarded() -> None:
    state = table(hands=[["B01"], ["G01"]], kings=["B03", "B04"], discard=[], draw=[])
    after = play(state, RedoDraw())
    assert sorted(after.hands[0]) == ["B01", "B03"]
    assert after.kings == ["B04"]


def test_ruling_13C_2_a_game_set_up_under_1_2_reshuffles_the_discards_never_the_kings() -> None:
    """Engine 1.2.0's rule (ruling 13C-2 as first written) for a game recorded under it: the
    covered Kings stay, so a recorded game replays as it was played."""
    state = table(
        hands=[["B01"], ["G01"]], kings=["B03", "B04"], discard=["P01", "P02", "P03"],
        draw=["O01"], engine_version="1.2.0",
    )  # fmt: skip
    after = play(state, RedoDraw())
    assert sorted(after.hands[0]) == ["B01", "O01", "P01", "P02", "P03"]
    assert after.kings == ["B03", "B04"]
    assert after.discard == []
    assert after.draw == []
    chance = [e for e in after.effects if e.kind == "chance"]
    assert chance
    assert chance[0].visible_to == []
    assert "no card is left" in effects_text(after)


# -- the end (13C-3) ---------------------------------------------------------------------


def test_ruling_13C_3_the_13th_crown_wins_at_once() -> None:
    state = table(hands=[["B05", "O01", "P01"], ["G01"]], kings=["B01"], crowns=[12, 3])
    after = play(state, Reveal(("B05", "O01")))
    assert after.phase == "over"
    assert after.winner == 0
    assert after.guards[0] == 0  # the rest of the reward is not taken: the game is over
    assert GAME.to_act(after) == []
    result = GAME.result(after)
    assert result is not None
    assert result.ranks == (1, 2)
    assert result.details["ended_by"] == "13 crowns"
    assert result.termination is Termination.THIRTEEN_CROWNS
    assert "the game is over" in refused(after, EndTurn())


def test_ruling_13C_3_stealing_the_13th_crown_wins() -> None:
    state = table(hands=[[], ["G01"]], kings=["B06"], crowns=[12, 5], blasons=[["blue"], []])
    after = play(state, Discard((), (), ("blue",)), StealCrowns((1,)))
    assert after.winner == 0
    assert after.crowns == [13, 4]


def test_ruling_13C_3_ranking_by_crowns_then_fewer_cards_in_hand_ties_shared() -> None:
    state = table(
        4,
        hands=[["B01"], ["G01", "G02"], ["P01", "P02"], ["O01"]],
        crowns=[5, 7, 7, 5],
        max_turns=1,
    )
    after = play(state, RedoDraw(), EndTurn())
    result = GAME.result(after)
    assert result is not None
    assert result.details["ended_by"] == "max_turns"
    assert result.termination is Termination.TURN_LIMIT
    # seat 0 drew up to 6 cards: more cards than seat 3, so below it
    assert result.ranks == (4, 1, 1, 3)
    assert result.scores == (5.0, 7.0, 7.0, 5.0)


def test_max_turns_ends_the_game_after_that_many_turns() -> None:
    state = table(3, hands=[["B01"], ["G01"], ["P01"]], max_turns=3)
    for _ in range(3):
        assert GAME.result(state) is None
        state = play(state, RedoDraw(), EndTurn())
    assert state.turns == 3
    assert state.phase == "over"
    assert GAME.result(state) is not None


def test_hidden_crowns_hides_other_counts_from_players_and_spectators() -> None:
    state = table(3, hands=[["B01"], ["G01"], ["P01"]], crowns=[4, 5, 6], hidden_crowns=True)
    assert GAME.view(state, 1)["crowns"] == [None, 5, None]
    assert GAME.view(state, None)["crowns"] == [None, None, None]
    assert GAME.view(state, 1)["reserve"]["crowns"] is None
    public = table(3, hands=[["B01"], ["G01"], ["P01"]], crowns=[4, 5, 6])
    assert GAME.view(public, None)["crowns"] == [4, 5, 6]


def test_hidden_crowns_crown_gains_are_seen_only_by_the_gainer() -> None:
    state = table(hands=[["B01", "B02"], ["G01"]], hidden_crowns=True)
    after = play(state, Reveal(("B01", "B02")))
    gain = next(e for e in after.effects if e.kind == "crowns")
    assert gain.visible_to == [0]


# -- views, words, moves -------------------------------------------------------------------


def test_view_shows_own_hand_and_only_counts_of_the_others() -> None:
    state = table(hands=[["B01", "B02"], ["G01", "G02", "G03"]])
    view = GAME.view(state, 0)
    assert view["hand"] == ["B01", "B02"]
    assert view["hand_counts"] == [2, 3]
    assert "G01" not in json.dumps(view)
    assert GAME.view(state, None)["hand"] is None
    assert view["king"]["card"] == "B03"
    assert view["king"]["law"] == "reveal:pair -> crowns:1"
    assert view["king"]["reward"] == "crowns:1"
    assert view["decision"] == "seat 0: apply the law, change the King or redo the hand"


def test_public_move_hides_redo_discards() -> None:
    assert GAME.public_move(RedoDiscard("B01"), 0) == {"type": "redo-discard", "card": "hidden"}
    assert GAME.public_move(Reveal(("B01", "B02")), 0)["cards"] == ["B01", "B02"]


def test_describe_reads_as_a_sentence() -> None:
    # Cards by their colour and law, as on the table, never by the edition's ids.
    assert GAME.describe(Reveal(("B05",), ("G13",)), 1) == (
        "seat 1 applies the law: reveals the blue King (discard 2 orange cards → 2 crowns), "
        "the green King, joker (reveal 1 green card, 1 purple card and 1 orange card → 3 crowns)"
        ", standing in"
    )
    assert GAME.describe(ChangeKing("B07", "green"), 0) == (
        "seat 0 puts the blue King (reveal 1 card of the colour announced when this King was "
        "played → 1 crown) in power, announcing green"
    )
    assert GAME.describe(RedoDiscard("P10"), 0) == (
        "seat 0 discards the purple King (have exactly 4 cards in hand → 2 crowns) to redo the hand"
    )


def test_illegal_moves_say_why_in_words() -> None:
    state = table(hands=[["B01"], ["G01"]])
    assert "does not hold B99" in refused(state, RedoDiscard("B99"))  # no card: as written
    assert "does not hold B99" in refused(state, ChangeKing("B99"))
    assert "not allowed now" in refused(state, TakeToken("guard"))
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, StealCards((1,)))


def test_estimate_prefers_crowns() -> None:
    state = table(hands=[["B01", "B02"], ["G01"]])
    after = play(state, Reveal(("B01", "B02")))
    assert GAME.estimate(after, 0) > GAME.estimate(state, 0)


# -- hidden crowns: the legal moves must not tell the others' crowns ------------------------


def _hidden_positions(crowns: list[int]) -> tuple[list[Move], list[Move], list[str]]:
    """Seat 0's legal moves at a fewest-crowns King and while a crown theft waits, with the
    given crowns (seat 0 holds 1), under hidden crowns."""
    fewest = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=crowns,
                   hidden_crowns=True)  # fmt: skip
    steal = table(3, hands=[[], ["P01"], ["G01"]], kings=["B06"], crowns=crowns,
                  blasons=[["blue"], [], []], hidden_crowns=True)  # fmt: skip
    waiting = play(steal, Discard((), (), ("blue",)))
    return GAME.legal_moves(fewest, 0), GAME.legal_moves(waiting, 0), waiting.pending


def test_hidden_crowns_legal_moves_do_not_depend_on_opponents_crowns() -> None:
    seen = [_hidden_positions([1, other, 3]) for other in (0, 1, 2, 5)]
    seen += [_hidden_positions([1, 2, other]) for other in (0, 1, 9)]
    assert all(moves == seen[0] for moves in seen)
    fewest, steal, pending = seen[0]
    assert Claim() in fewest
    assert steal == [StealCrowns((1,)), StealCrowns((2,))]
    assert pending == ["steal-crowns:1"]  # never lost at once: that would tell nobody has any
    public = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=[1, 0, 3])
    assert Claim() not in GAME.legal_moves(public, 0)  # public crowns: offered only when it holds


def test_hidden_crowns_steal_from_an_opponent_without_crowns_takes_nothing() -> None:
    state = table(3, hands=[[], ["P01"], ["G01"]], kings=["B06"], crowns=[0, 0, 2],
                  blasons=[["blue"], [], []], hidden_crowns=True)  # fmt: skip
    waiting = play(state, Discard((), (), ("blue",)))
    empty = play(waiting, StealCrowns((1,)))
    assert empty.crowns == [0, 0, 2]
    assert empty.pending == []
    assert empty.phase == "applied"
    lost = next(e for e in empty.effects if e.kind == "reward")
    assert lost.text == "seat 0 takes no crown from seat 1: that crown of the reward is lost"
    assert lost.data == {"lost": 1}
    assert "2" not in effects_text(empty)  # nothing about seat 2's crowns
    taken = play(waiting, StealCrowns((2,)))
    assert taken.crowns == [1, 0, 1]
    twice = table(3, hands=[[], ["P01"], ["G01"]], kings=["B06"], crowns=[0, 1, 0],
                  hidden_crowns=True)  # fmt: skip
    twice.pending = ["steal-crowns:2"]
    assert StealCrowns((1, 1)) in GAME.legal_moves(twice, 0)
    after = play(twice, StealCrowns((1, 1)))
    assert after.crowns == [1, 0, 0]  # the second crown is lost
    assert "takes no crown from seat 1" in effects_text(after)


def test_hidden_crowns_fewest_crowns_attempt_fails_and_uses_the_once_per_turn_law() -> None:
    tied = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=[1, 1, 3],
                 hidden_crowns=True)  # fmt: skip
    assert Claim() in GAME.legal_moves(tied, 0)
    after = play(tied, Claim())
    assert after.guards == [0, 0, 0]
    assert after.pending == []
    assert after.phase == "applied"
    assert "seat 0 does not have strictly the fewest crowns: no reward" in effects_text(after)
    assert Claim() not in GAME.legal_moves(after, 0)
    assert "only once per turn" in refused(after, Claim())
    fewest = table(3, hands=[["B01"], ["P01"], ["G01"]], kings=["B09"], crowns=[1, 2, 3],
                   hidden_crowns=True)  # fmt: skip
    won = play(fewest, Claim())
    assert won.guards[0] == 1
    assert won.pending == ["blason:1"]


# -- refusals name cards as the table does ----------------------------------------------------


def test_refusals_name_a_card_by_its_colour_and_law_never_by_its_id() -> None:
    """A person reads a refusal on the table: a card is named as the last moves name it (the
    blue King (…)), never by the edition's id ("B07") or law code."""
    state = table(hands=[["B01", "B07"], ["P01"]], kings=["B03"])
    missing = refused(state, ChangeKing("O04"))
    assert missing == "seat 0 does not hold the orange King (reveal 4 orange cards → 4 crowns)"
    asks = refused(state, ChangeKing("B07"))
    assert asks.startswith(
        "the blue King (reveal 1 card of the colour announced when this King was played → "
        "1 crown) asks for a colour: announce one of blue, orange, green, purple"
    )
    assert refused(state, ChangeKing("B01", "blue")).startswith(
        "the blue King (reveal 1 blue card and 1 orange card → 1 crown and 1 guard) does not "
        "ask for a colour"
    )
    assert "does not hold the purple King" in refused(state, RedoDiscard("P01"))
    law = refused(state, Discard(("B01",)))
    assert law == (
        "the law of the blue King (reveal 2 cards of the same colour → 1 crown) is applied with "
        "a 'reveal' move"
    )
    once = table(hands=[["B01", "B02", "O01", "G01", "G02"], ["P01"]], kings=["B10"])
    assert refused(once, Claim()) == (
        "seat 0 does not meet the condition of the blue King (have exactly 4 cards in hand → "
        "2 crowns)"
    )
    for words in (missing, asks, law, refused(once, Claim())):
        assert not re.search(r"\b[BOGP]\d\d\b", words), words
        assert "->" not in words, words  # no law code ("reveal:blue*4 -> crowns:4")
