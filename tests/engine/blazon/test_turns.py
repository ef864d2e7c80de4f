"""Turn structure: setup, Acquire, Herald actions, refresh, hand limit, empty decks."""

from __future__ import annotations

import pytest

from engine.blazon import GAME
from engine.blazon.cards import EDITIONS
from engine.blazon.moves import (
    Claim,
    Discard,
    Draw,
    EndTurn,
    Exchange,
    HeraldDiscardPile,
    HeraldDraw,
    HeraldRefresh,
    HeraldTake,
    Keep,
    Pass,
    Pay,
    Place,
    Refresh,
)
from engine.blazon.state import DRAW, END, EXCHANGE, MAIN, OVER
from engine.core import BadMove, IllegalMove, Termination
from tests.engine.blazon.helpers import CARDS, SPACE, all_cards, fresh, give, n, play, show


def refused(state: object, move: object, words: str, seat: int = 0) -> None:
    with pytest.raises(IllegalMove, match=words):
        GAME.apply(state, seat, move)  # type: ignore[arg-type]


# -- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_the_display_hands_heralds_and_five_distinctions(players: int) -> None:
    state = GAME.new_game(players=players, seed=f"setup-{players}")
    kinds = [CARDS[c].category for c in state.display]
    assert kinds == ["device"] * 4 + ["tincture"] * 2
    assert sorted(all_cards(state)) == sorted(CARDS)
    for player in state.players:
        assert [CARDS[c].category for c in player.hand].count("tincture") == 2
        assert len(player.hand) == 4
        assert sum(CARDS[c].prestige for c in player.hand) > 5
        assert player.heralds == 1
    assert state.herald_pile == 20 - players
    assert [d[0] for d in state.distinctions] == ["A", "B", "C", "D", "E"]
    assert state.turn == 0
    assert state.phase == MAIN


def test_setup_redraws_a_starting_hand_worth_five_or_less() -> None:
    redrawn = 0
    for k in range(40):
        state = GAME.new_game(players=4, seed=f"redraw-{k}")
        redrawn += sum(1 for e in state.effects if e.kind == "redraw")
        for player in state.players:
            assert sum(CARDS[c].prestige for c in player.hand) > 5
    assert redrawn > 0  # the rule was exercised


def test_setup_takes_each_distinction_from_the_bottom_of_its_shuffled_category() -> None:
    seen = {GAME.new_game(players=2, seed=f"d-{k}").distinctions[0] for k in range(30)}
    assert len(seen) > 1  # drawn at random, not always the same card
    assert seen <= {d.id for d in EDITIONS["reconstructed-1"].distinctions["A"]}


def test_abatement_option_gives_each_player_a_token() -> None:
    assert all(
        p.abatement for p in GAME.new_game(players=3, seed="a", options={"abatement": True}).players
    )
    assert not any(p.abatement for p in GAME.new_game(players=3, seed="a").players)


# -- Acquire ----------------------------------------------------------------------------------


def test_acquire_draws_two_cards_seen_only_by_the_drawer() -> None:
    state = fresh()
    top = state.decks["tincture"][-1]
    play(state, Draw("tincture"))
    assert state.phase == DRAW
    assert state.drawn == [top]
    chance = [e for e in state.effects if e.kind == "chance"]
    assert chance[0].visible_to == [0]
    assert chance[0].data == {"card": top}
    assert "data" not in chance[0].public_json(1)
    play(state, Draw("device"))
    assert state.phase == EXCHANGE
    assert len(state.players[0].hand) == 2


def test_acquire_exchanges_like_for_like_with_the_display_after_both_draws() -> None:
    state = fresh()
    show(state, "D041", "D042", "D043", "D044", "T001", "T002")
    refused(state, Exchange(n("T001"), 4), "you exchange only the cards drawn")
    play(state, Draw("tincture"), Draw("tincture"))
    first, second = state.drawn
    refused(state, Exchange(first, 0), "like for like")
    play(state, Exchange(first, 4))
    assert state.display[4] == first
    assert n("T001") in state.players[0].hand
    refused(state, Exchange(first, 5), "not a card you just drew")
    refused(state, Exchange(n("T001"), 5), "^Or is not a card you just drew")  # by its name
    play(state, Exchange(second, 5))  # nothing left to keep: the Acquire is over
    assert set(state.players[0].hand) == {n("T001"), n("T002")}
    assert state.phase == END
    refused(state, Keep(), "no drawn cards to keep")


def test_acquire_may_keep_both_cards() -> None:
    state = fresh()
    play(state, Draw("device"), Draw("device"), Keep())
    assert len(state.players[0].hand) == 2
    assert state.phase == END


def test_an_empty_deck_is_rebuilt_from_its_discard_pile() -> None:
    state = fresh()
    pile = state.decks["tincture"]
    state.discards["tincture"] = pile[:-1]
    state.decks["tincture"] = []
    play(state, Draw("tincture"))
    assert state.discards["tincture"] == []
    shuffle = [e for e in state.effects if "shuffled into a new deck" in e.text]
    assert shuffle
    assert shuffle[0].visible_to == []


def test_with_both_decks_and_piles_empty_the_game_goes_on_without_drawing() -> None:
    state = fresh()
    for deck in ("tincture", "device"):
        state.players[1].hand += state.decks[deck] + state.discards[deck]
        state.decks[deck], state.discards[deck] = [], []
    refused(state, Draw("device"), "both empty")
    assert GAME.legal_moves(state, 0)[0] == Pass()
    play(state, Pass())
    assert state.turn == 1 or state.phase == END


def test_a_round_where_nobody_can_draw_or_place_ends_the_game() -> None:
    state = fresh()
    for deck in ("tincture", "device"):
        state.decks[deck], state.discards[deck] = [], []
    for player in state.players:
        player.heralds = 0
    state.display = [0] * 6
    play(state, Pass(), Pass())
    assert state.phase == OVER
    assert state.trigger == "stalled"
    result = GAME.result(state)
    assert result is not None
    assert result.termination is Termination.STALLED


# -- Herald actions ---------------------------------------------------------------------------


def test_herald_takes_a_display_card_and_the_display_is_refilled() -> None:
    state = fresh()
    show(state, "D041", "D042", "D043", "D044", "T001", "T002")
    play(state, HeraldTake(0))
    assert n("D041") in state.players[0].hand
    assert state.display[0] not in (0, n("D041"))
    assert state.players[0].heralds == 0
    assert state.herald_pile == 18


def test_herald_draws_the_top_of_a_deck_or_of_a_discard_pile() -> None:
    state = fresh()
    top = state.decks["device"][-1]
    play(state, HeraldDraw("device"))
    assert top in state.players[0].hand
    state = fresh()
    state.discards["tincture"] = [n("T001"), n("T002")]
    state.decks["tincture"].remove(n("T001"))
    state.decks["tincture"].remove(n("T002"))
    play(state, HeraldDiscardPile("tincture"))
    assert n("T002") in state.players[0].hand


def test_herald_refresh_discards_the_whole_display() -> None:
    state = fresh()
    old = list(state.display)
    play(state, HeraldRefresh())
    assert set(old) <= set(state.discards["device"] + state.discards["tincture"])
    assert all(state.display)


def test_a_herald_action_once_per_turn_and_only_with_a_token() -> None:
    state = fresh()
    state.players[0].heralds = 2
    play(state, HeraldDraw("device"))
    refused(state, HeraldDraw("device"), "already took a Herald action this turn")
    state = fresh()
    state.players[0].heralds = 0
    refused(state, HeraldDraw("device"), "no herald token")


# -- refresh and hand limit -------------------------------------------------------------------


def test_refresh_needs_three_display_cards_sharing_a_symbol_once_per_turn() -> None:
    state = fresh()
    show(state, "D041", "D055", "D071", "D085", "T005", "T014")  # no type or symbol thrice
    refused(state, Refresh(), "no three cards sharing")
    show(state, "D041", "D042", "D043", "D083", "T001", "T013")  # three divisions
    play(state, Refresh())
    assert state.refresh_used
    show(state, "D041", "D042", "D043", "D083", "T001", "T013")
    refused(state, Refresh(), "already refreshed this turn")


def test_refresh_also_counts_a_shared_augmentation() -> None:
    state = fresh()
    show(state, "D041", "D058", "D075", "D083", "T001", "T013")  # three fleurs-de-lis
    play(state, Refresh())


def test_hand_limit_discards_down_to_seven_at_the_end_of_the_turn() -> None:
    state = fresh()
    state.players[0].heralds = 0
    give(state, 0, "T001", "T002", "T003", "T007", "T008", "T009", "T013")
    play(state, Draw("device"), Draw("device"), Keep())
    assert state.phase == END
    assert len(state.players[0].hand) == 9
    refused(state, EndTurn(), "discard down to 7")
    play(state, Discard(n("T001")))
    refused(state, Discard(n("T001")), "^Or is not in your hand$")  # by its name, no number
    play(state, Discard(n("T002")))  # at 7 with nothing else to do, the turn ends
    assert n("T002") in state.discards["tincture"]
    assert state.turn == 1
    assert len(state.players[0].hand) == 7


def test_other_seats_cannot_act() -> None:
    state = fresh()
    refused(state, Draw("device"), "not to act", seat=1)
    assert GAME.legal_moves(state, 1) == []


def test_describe_reads_like_a_sentence() -> None:
    move = Place(n("D074"), SPACE["r2c2"], "bottom")
    assert GAME.describe(move, 2) == "seat 2 places nebuly (3) on r2c2 (bottom)"
    assert GAME.describe(Draw("tincture"), 0) == "seat 0 draws from the tincture deck"


def test_views_show_counts_of_what_is_hidden() -> None:
    state = fresh()
    give(state, 0, "T001", "D074")
    give(state, 1, "T002")
    play(state, Draw("device"))
    mine, theirs, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert [c["id"] for c in mine["players"][0]["hand"]][:2] == ["T001", "D074"]
    assert len(mine["drawn"]) == 1
    assert "hand" not in theirs["players"][0]
    assert theirs["players"][0]["hand_count"] == 3
    assert "drawn" not in theirs
    assert "drawn" not in spectator
    assert [c["id"] for c in theirs["players"][1]["hand"]] == ["T002"]
    assert spectator["decks"] == {d: len(state.decks[d]) for d in ("tincture", "device")}
    assert "seed" not in str(spectator)
    assert state.rng.seed not in str(spectator)


def test_the_fast_move_decoder_agrees_with_the_generic_one() -> None:
    samples = [Draw("device"), Exchange(3, 4), Keep(), Place(74, 4, "bottom", True, False), Pay(1),
               Discard(2), HeraldTake(1), HeraldDiscardPile("tincture"), Claim("A1"), Pass()]  # fmt: skip
    for move in samples:
        assert GAME.decode_move(move.to_json()) == GAME.moves.decode(move.to_json()) == move
    for bad in ({"type": "pay", "card": True}, {"type": "pay", "card": "1"}, {"type": "pay"},
                {"type": "place", "card": 1, "space": 1, "align": "top", "herald": 0, "abate": False},
                {"type": "pay", "card": 1, "extra": 2}):  # fmt: skip
        with pytest.raises(BadMove):
            GAME.decode_move(bad)
