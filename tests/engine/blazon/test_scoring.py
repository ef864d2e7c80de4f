"""Prestige, milestones and heralds (BZ-4), distinctions (BZ-3), end and final scoring (BZ-5)."""

from __future__ import annotations

import pytest

from engine.blazon import GAME
from engine.blazon.cards import EDITIONS
from engine.blazon.moves import Claim, Draw, EndTurn, Finish, Keep, Pay, Place
from engine.blazon.shield import TABLES, requirement_met, shield_facts
from engine.blazon.state import CLAIM, OVER, BlazonState, PlayerState
from engine.core import IllegalMove, Termination
from tests.engine.blazon.helpers import SPACE, fresh, give, n, play, put

EDITION = EDITIONS["reconstructed-1"]
TABLE = TABLES["reconstructed-1"]
ORDER = ("r1c1", "r1c2", "r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3", "cadency")


def shield(*ids: str, **placed: str) -> PlayerState:
    """A shield holding ``ids`` on the first free spaces and ``placed`` on named spaces."""
    player = PlayerState(hand=[])
    for space, card in placed.items():
        player.shield[SPACE[space]] = n(card)
    free = [s for s in ORDER if not player.shield[SPACE[s]]]
    for space, card in zip(free, ids, strict=False):
        player.shield[SPACE[space]] = n(card)
    return player


def meets(ident: str, player: PlayerState) -> bool:
    return requirement_met(EDITION.distinction_by_id[ident].clauses, shield_facts(player, TABLE))


ROW1_CASTLES = {"r1c1": "D042", "r1c2": "T002", "r1c3": "T014"}
ROW1_MIXED = {"r1c1": "D041", "r1c2": "T002", "r1c3": "T015"}
SEVEN_TYPES = ("T001", "T013", "T033", "D041", "D055", "D071", "D083")

# Each distinction: a shield that meets it and a close one that does not.
DISTINCTION_CASES: dict[str, tuple[PlayerState, PlayerState]] = {
    "A1": (shield("T002", "T008", "D042"), shield("T002", "T008", "D041")),
    "A2": (shield("T003", "T009", "D043"), shield("T003", "T009")),
    "A3": (shield("T005", "T011", "D045"), shield("T005", "T011")),
    "A4": (shield("T004", "T010", "D044"), shield("T004", "T010")),
    "A5": (shield("T001", "T007", "D041"), shield("T001", "T007")),
    "B1": (shield("T001", "T002", "T003", "T004"), shield("T001", "T002", "T003", "T007")),
    "B2": (shield("T001", "T002", "T003", "T004", "T005"), shield("T001", "T002", "T003", "T004")),
    "B3": (shield(**ROW1_CASTLES), shield(r1c1="D042", r1c2="T002", r1c3="T013")),
    "B4": (shield(**ROW1_MIXED), shield(r1c1="D041", r1c2="T002", r1c3="T014")),
    "B5": (shield("T001", "T007", "T002", "T008"), shield("T001", "T007", "T002", "T003")),
    "C1": (shield("T001", "T013", "T033"), shield("T001", "T013", "T007")),
    "C2": (shield("T033", "T035"), shield("T033", "T001")),
    "C3": (shield("T001", "T007", "T013", "T017"), shield("T001", "T002", "T013", "T017")),
    "C4": (shield("T001", "T007", "T002"), shield("T001", "T007", "T013")),
    "C5": (shield("T013", "T017", "T021"), shield("T013", "T017", "T001")),
    "D1": (shield("D083", "D084"), shield("D083", "D103")),
    "D2": (shield("D041", "D055", "D083"), shield("D041", "D055", "D071")),
    "D3": (shield("D071", "D072"), shield("D071", "D083")),
    "D4": (shield("D103", "D104"), shield("D103", "D071")),
    "D5": (shield(*SEVEN_TYPES), shield(*SEVEN_TYPES[:6], "T002")),
    "E1": (shield(r1c1="D041", r1c2="T001", r1c3="T013"), shield(r1c1="D041", r1c2="T001")),
    "E2": (shield(r2c1="D083", r2c2="D103", r2c3="T001"), shield(r2c1="D083", r2c3="T001")),
    "E3": (shield(r3c1="D055", r3c2="D071", r3c3="T013"), shield(r3c2="D071", r3c3="T013")),
    "E4": (shield(cadency="D113"), shield("D041")),
    "E5": (
        shield(*("T001", "T013", "T033", "D041", "D055", "D071", "D083", "D103")),
        shield(*SEVEN_TYPES),
    ),
}


@pytest.mark.parametrize("ident", sorted(EDITION.distinction_by_id))
def test_ruling_BZ_3_each_distinction_requirement(ident: str) -> None:
    met, unmet = DISTINCTION_CASES[ident]
    assert meets(ident, met), EDITION.distinction_by_id[ident].requirement
    assert not meets(ident, unmet), EDITION.distinction_by_id[ident].requirement


def test_ruling_BZ_3_a_wild_counts_as_any_single_augmentation() -> None:
    assert meets("A1", shield("T002", "T008", "T006"))  # two castles and a wild
    assert not meets("A1", shield("T002", "T006"))  # one wild counts once
    assert meets("B2", shield("T001", "T002", "T003", "T004", "T012"))
    assert meets("B5", shield("T001", "T007", "T002", "T006"))  # the wild pairs the castle
    assert not meets("B5", shield("T001", "T007", "T006"))  # one wild alone makes no pair
    assert meets("B5", shield("T001", "T007", "T006", "T012"))  # two wilds make a pair
    assert meets("B3", shield(r1c1="D042", r1c2="T002", r1c3="T006"))
    assert meets("B4", shield(r1c1="D041", r1c2="T006", r1c3="T012"))
    assert not meets("B4", shield(r1c1="D041", r1c2="T001", r1c3="T006"))


def test_ruling_BZ_3_a_card_counts_for_several_clauses() -> None:
    both = shield("T001", "T013", "T033")  # also three different tinctures, a metal...
    assert meets("C1", both)
    assert not meets("C3", both)
    assert meets("C3", shield("T001", "T013", "T033", "T017"))


def _with_distinctions(state: BlazonState, *idents: str) -> BlazonState:
    state.distinctions = list(idents)
    state.awards = [[] for _ in idents]
    state.players[0].heralds = 0
    return state


def _blazon_turn(state: BlazonState, card: str, space: str, align: str, payment: str) -> None:
    give(state, state.turn, card, payment)
    play(state, Place(n(card), SPACE[space], align), Pay(n(payment)), Finish())


def test_ruling_BZ_3_a_met_distinction_is_claimed_at_the_end_of_the_turn() -> None:
    state = _with_distinctions(fresh(), "A1", "B1", "C1", "D1", "E4")
    _blazon_turn(state, "D113", "cadency", "top", "T034")
    assert state.players[0].markers == ["E4"]
    assert state.players[0].distinction_points == 3  # leftmost award space, 2-3 players
    assert state.players[1].heralds == 2  # the first claimer gives the others a herald
    assert state.turn == 1


def test_ruling_BZ_3_one_marker_per_turn_the_other_waits_for_a_later_turn() -> None:
    state = _with_distinctions(fresh(), "A1", "B1", "C1", "D1", "E4")
    put(state, 0, "D083", "r2c1", "top")
    put(state, 0, "D084", "r3c1", "bottom")
    _blazon_turn(state, "D113", "cadency", "top", "T034")
    play(state, Claim("D1"))
    assert state.players[0].markers == ["D1"]
    assert state.turn == 1
    state.players[1].heralds = 0
    play(state, Draw("device"), Draw("device"), Keep())
    assert state.turn == 0
    play(state, Draw("device"), Draw("device"), Keep())
    _end_turn(state, 0)
    assert state.players[0].markers == ["D1", "E4"]  # E4 at the end of the next turn


def _end_turn(state: BlazonState, seat: int) -> None:
    if state.turn == seat and state.phase != OVER:
        play(state, EndTurn())


def test_ruling_BZ_3_choice_between_several_distinctions() -> None:
    state = _with_distinctions(fresh(), "A1", "B1", "C1", "D1", "E4")
    put(state, 0, "D083", "r2c1", "top")
    put(state, 0, "D084", "r3c1", "bottom")
    _blazon_turn(state, "D113", "cadency", "top", "T034")
    assert state.phase == CLAIM
    assert state.claimable == ["D1", "E4"]
    with pytest.raises(
        IllegalMove, match="you cannot claim Order of the Castle: claimable are Bestiary, "
    ):
        GAME.apply(state, 0, Claim("A1"))
    play(state, Claim("E4"))
    assert state.players[0].markers == ["E4"]
    assert state.turn == 1


def test_ruling_BZ_3_markers_take_the_leftmost_free_space_and_full_cards_close() -> None:
    state = _with_distinctions(fresh(3), "A1", "B1", "C1", "D1", "E4")
    for seat in range(3):
        put(state, seat, ("D113", "D114", "D115")[seat], "cadency")
        state.players[seat].heralds = 0
    for seat in range(3):
        assert state.turn == seat
        play(state, Draw("device"), Draw("device"), Keep())
        if state.turn == seat:
            play(state, EndTurn())
    assert [p.distinction_points for p in state.players] == [3, 2, 0]  # E4 awards "3 2"
    assert state.players[2].markers == []  # no free award space left for the third seat
    assert [p.heralds for p in state.players] == [0, 1, 1]  # only the first claim gives heralds


def test_ruling_BZ_4_the_first_to_a_milestone_takes_an_animal_the_others_a_herald() -> None:
    state = fresh(3)
    state.players[0].prestige = 8
    _blazon_turn(state, "D074", "r2c2", "bottom", "T034")  # 8 + 3 = 11
    assert state.players[0].animals == 1
    assert state.milestones[0] == 0
    assert [p.heralds for p in state.players] == [1, 2, 2]
    play(state, EndTurn())
    state.players[1].prestige = 9
    give(state, 1, "D057", "T001")
    play(state, Place(n("D057"), SPACE["r2c1"], "bottom"), Pay(n("T001")))
    assert state.players[1].animals == 0  # 10 was reached first by seat 0


def test_ruling_BZ_4_heralds_are_given_while_the_pile_lasts() -> None:
    state = fresh(3)
    state.players[0].prestige = 18
    state.herald_pile = 1
    _blazon_turn(state, "D085", "r2c1", "top", "T034")  # 18 + 4 = 22: milestone 20
    assert state.players[0].animals == 1
    assert state.milestones == [-1, 0, -1, -1, -1]
    assert state.herald_pile == 0
    assert [p.heralds for p in state.players] == [1, 2, 1]


def test_ruling_BZ_5_fifty_prestige_gives_every_other_player_one_final_turn() -> None:
    state = fresh(3)
    state.players[0].heralds = state.players[1].heralds = state.players[2].heralds = 0
    state.turn = 1
    state.players[1].prestige = 48
    _blazon_turn(state, "D074", "r2c2", "bottom", "T034")
    assert state.trigger == "prestige"
    assert state.trigger_seat == 1
    assert state.turn == 2
    _blazon_turn(state, "D057", "r2c1", "bottom", "T036")
    _end_turn(state, 2)
    assert state.turn == 0
    _blazon_turn(state, "D055", "r3c1", "top", "T035")
    _end_turn(state, 0)
    assert state.phase == OVER
    assert GAME.to_act(state) == []
    result = GAME.result(state)
    assert result is not None
    assert result.details["trigger"] == "prestige"
    assert result.termination is Termination.PRESTIGE


def test_ruling_BZ_5_a_full_shield_triggers_the_end() -> None:
    state = fresh(2)
    state.players[0].heralds = 0
    for space, card, align in [
        ("r1c1", "T001", "bottom"), ("r1c2", "T007", "bottom"), ("r1c3", "T013", "bottom"),
        ("r2c1", "D083", "top"), ("r2c2", "D103", "top"), ("r2c3", "T017", "top"),
        ("r3c1", "D055", "top"), ("r3c2", "D071", "top"), ("r3c3", "T021", "top"),
    ]:  # fmt: skip
        put(state, 0, card, space, align)
    _blazon_turn(state, "D113", "cadency", "top", "T034")
    assert state.trigger == "full-shield"
    assert GAME.final_breakdown(state)[0]["full_shield"] == 2


def test_ruling_BZ_5_claiming_the_last_distinction_triggers_the_end() -> None:
    state = _with_distinctions(fresh(2), "A1", "B1", "C1", "D1", "E4")
    player = state.players[0]
    player.markers = ["A1", "B1", "C1", "D1"]
    for index in range(4):
        state.awards[index] = [0]
    _blazon_turn(state, "D113", "cadency", "top", "T034")
    assert player.markers[-1] == "E4"
    assert state.trigger == "distinctions"
    assert state.trigger_seat == 0


def _scored(players: int, augs: list[list[str]]) -> list[dict[str, object]]:
    state = fresh(players)
    for seat, cards in enumerate(augs):
        for space, card in zip(ORDER, cards, strict=False):
            put(state, seat, card, space)
    return GAME.final_breakdown(state)


def test_ruling_BZ_5_augmentation_majorities() -> None:
    castles = ["T002", "T008", "D042", "D048", "D053"]
    rows = _scored(3, [castles[:2], castles[2:3], []])
    assert [r["augmentations_won"] for r in rows] == [["castle"], [], []]
    rows = _scored(3, [castles[:1], castles[1:2], ["T001"]])  # two tied for castle: both
    assert [r["augmentations"] for r in rows] == [2, 2, 2]  # (and seat 2 alone has a fleur)
    rows = _scored(3, [castles[:1], castles[1:2], castles[2:3]])  # three tied: nobody
    assert [r["augmentations"] for r in rows] == [0, 0, 0]
    rows = _scored(2, [castles[:1], castles[1:2]])  # two players tied: nobody
    assert [r["augmentations"] for r in rows] == [0, 0]
    rows = _scored(2, [["T006", "T012"], ["T001"]])  # wild symbols never count
    assert [r["augmentations_won"] for r in rows] == [[], ["fleur-de-lis"]]


def test_ruling_BZ_5_final_scoring_adds_every_line() -> None:
    state = fresh(2)
    p = state.players[0]
    p.prestige, p.distinction_points, p.heralds, p.animals = 30, 7, 3, 2
    row = GAME.final_breakdown(state)[0]
    assert (row["track"], row["distinctions"], row["heralds"], row["animals"]) == (30, 7, 3, 4)
    assert row["total"] == 30 + 7 + 3 + 4


def test_ruling_BZ_5_tie_breaks_distinctions_then_hand_prestige_then_shared() -> None:
    state = fresh(3)
    for p in state.players:
        p.prestige, p.heralds = 20, 0
    state.players[0].distinction_points = 4
    state.players[1].prestige = 24  # same total as seat 0, but no distinctions
    state.phase = OVER
    result = GAME.result(state)
    assert result is not None
    assert result.ranks == (1, 2, 3)
    state.players[1].prestige, state.players[1].distinction_points = 20, 4
    give(state, 1, "T034")
    assert GAME.result(state).ranks == (2, 1, 3)  # type: ignore[union-attr]
    give(state, 0, "T036")
    assert GAME.result(state).ranks == (1, 1, 3)  # type: ignore[union-attr]
