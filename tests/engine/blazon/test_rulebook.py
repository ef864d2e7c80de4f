"""The rulebook's worked examples, and the blazon of a shield ("Your Blazon")."""

from __future__ import annotations

import pytest

from engine.blazon import GAME, blazon_text
from engine.blazon.moves import Pay, Place
from engine.blazon.shield import TABLES, blazon_line, placement_problem, pluralize
from engine.blazon.state import BLAZON, PlayerState
from engine.core import IllegalMove
from tests.engine.blazon.helpers import CARDS, SPACE, fresh, give, n, play

TABLE = TABLES["reconstructed-1"]


def test_rulebook_example_placement() -> None:
    """Rulebook, "Placement Example": Nebuly, then not the Unicorn, then the Bend."""
    state = fresh()
    # Five cards: the blue Nebuly, the Unicorn, the magenta Bend, a card worth 3, a Per Fess.
    give(state, 0, "D074", "D085", "D057", "T016", "D042")
    assert [CARDS[n(i)].prestige for i in ("D074", "T016", "D057", "D042")] == [3, 3, 1, 2]
    # The Nebuly goes in the centre space, bottom alignment, paid with a card worth 3.
    play(state, Place(n("D074"), SPACE["r2c2"], "bottom"), Pay(n("T016")))
    assert state.players[0].prestige == 3
    assert state.phase == BLAZON
    # The Unicorn would need row 2's top alignment while the row is bottom.
    problem = placement_problem(
        state.players[0], TABLE, card=n("D085"), space=SPACE["r2c1"], align=0, abate=False,
        abatement_rule=False,
    )  # fmt: skip
    assert str(problem) == "row 2 already holds cards in the other alignment"
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, Place(n("D085"), SPACE["r2c1"], "top"))
    # The Bend fits r2c1 in the bottom alignment; the Per Fess (2) overpays by 1, no change.
    play(state, Place(n("D057"), SPACE["r2c1"], "bottom"), Pay(n("D042")))
    player = state.players[0]
    assert player.prestige == 4
    assert player.hand == [n("D085")]
    assert player.aligns[SPACE["r2c1"]] == player.aligns[SPACE["r2c2"]] == 1


def _shield(**placed: str) -> PlayerState:
    player = PlayerState(hand=[])
    for space, card in placed.items():
        player.shield[SPACE[space]] = n(card)
    return player


def test_blazon_reads_rows_left_to_right_top_to_bottom() -> None:
    """games/README.md: the real finished shield read as a blazon."""
    player = _shield(
        r1c1="D045", r1c2="T018", r1c3="T013",  # Per chevron, Azure, Gules
        r2c1="D060", r2c2="D078", r2c3="T038",  # a cross, dovetailed, countervair
        r3c1="D092", r3c3="T007",  # cross couped, argent
        cadency="D120",  # an octofoil
    )  # fmt: skip
    assert blazon_text(player, TABLE) == (
        "Per chevron, Azure, Gules / a cross, dovetailed, countervair / "
        "cross couped, argent / an octofoil"
    )


def test_blazon_moves_the_number_to_the_front_of_its_line() -> None:
    """Rulebook: "roundel four in bend argent" is written "four roundels in bend argent"."""
    line = [CARDS[n("D093")], CARDS[n("D108")], CARDS[n("T007")]]  # roundel, four in cross, Argent
    assert blazon_line(line, field=False) == "four roundels in cross argent"
    three = [CARDS[n("D092")], CARDS[n("D104")], CARDS[n("T007")]]
    assert blazon_line(three, field=False) == "three crosses couped two and one argent"
    plain = [CARDS[n("D093")], CARDS[n("D105")], CARDS[n("T007")]]  # "in bend": no number
    assert blazon_line(plain, field=False) == "roundel, in bend, argent"


def test_plural_of_charges() -> None:
    assert pluralize("lion rampant") == "lions rampant"
    assert pluralize("fleur-de-lis") == "fleurs-de-lis"
    assert pluralize("cross crosslet") == "crosses crosslet"


def test_the_blazon_is_in_views_and_in_the_result() -> None:
    state = fresh()
    give(state, 0, "D074", "T016")
    play(state, Place(n("D074"), SPACE["r2c2"], "bottom"), Pay(n("T016")))
    assert GAME.view(state, 1)["players"][0]["blazon"] == "nebuly"
    assert GAME.final_breakdown(state)[0]["blazon"] == "nebuly"
    assert blazon_text(PlayerState(hand=[]), TABLE) == ""
