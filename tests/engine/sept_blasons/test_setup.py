"""Setup: player counts, the token deal by player count, the first leader, options, data."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.core import BadMove, InvalidOptions
from engine.sept_blasons import GAME
from engine.sept_blasons.cards import DATA_DIR, STANDARD, DataError, edition_from_data, load_edition
from engine.sept_blasons.moves import MOVES, ExchangeWith, Finish, PlayCard, Steal


@pytest.mark.parametrize(("players", "down", "up"), [(3, 2, 1), (4, 2, 1), (5, 1, 1), (6, 1, 1),
                                                      (7, 1, 1)])  # fmt: skip
def test_tokens_are_dealt_by_player_count(players: int, down: int, up: int) -> None:
    state = GAME.new_game(players=players, seed="deal")
    for front in state.fronts:
        assert [t.up for t in front] == [False] * down + [True] * up
    assert len(state.pile) == 4 * players - (down + up) * players
    colours = [t.colour for f in state.fronts for t in f] + [t.colour for t in state.pile]
    assert sorted(colours) == sorted(c for c in range(players) for _ in range(4))
    assert all(not t.up for t in state.pile), "the draw pile starts face down"


def test_each_player_starts_with_the_eight_cards_of_its_colour() -> None:
    state = GAME.new_game(players=4, seed="cards")
    assert state.hands == [list(range(8))] * 4
    assert STANDARD.colours[:4] == ("Aubigny", "Bellay", "Contades", "Grandbois")


def test_the_first_leader_is_drawn_at_random_and_the_draw_is_public() -> None:
    leaders = {GAME.new_game(players=5, seed=f"lead-{k}").leader for k in range(40)}
    assert leaders == set(range(5))
    state = GAME.new_game(players=5, seed="lead")
    effect = state.effects[0]
    assert effect.kind == "chance"
    assert effect.visible_to is None
    assert effect.data == {"leader": state.leader}


def test_the_shuffle_is_a_chance_outcome_nobody_sees() -> None:
    state = GAME.new_game(players=3, seed="shuffle")
    hidden = [e for e in state.effects if e.kind == "chance" and e.visible_to == []]
    assert len(hidden) == 1
    assert len(hidden[0].data["order"]) == 12


@pytest.mark.parametrize("players", [2, 8])
def test_three_to_seven_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="3 to 7 players"):
        GAME.new_game(players=players, seed="x")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"tie_rule": "loose"}, "must be one of"),
        ({"variants": [5]}, "allows only"),
        ({"variants": [1, 1]}, "twice"),
        ({"colours": "fixed"}, "unknown option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOptions, match=words):
        GAME.new_game(players=3, seed="x", options=options)


def test_options_default_to_cascade_and_no_variant() -> None:
    assert GAME.normalize_options(None) == {"tie_rule": "cascade", "variants": []}


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / "standard.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("characters", 3, "value"), 4, r"characters\[3\]: value must be 3"),
        (("characters", 0, "value"), 0, r"characters\[0\]: value must be '\*'"),
        (("characters", 2, "power"), "fly", r"characters\[2\]: unknown power"),
        (("deal", 1, "players"), 3, r"deal\[1\]: 3 players listed twice"),
        (("bourgeoisie", 0, "takes"), "roi", r"bourgeoisie\[0\]: takes an unknown character"),
        (("colours", 6), "Aubigny", "colours must be distinct"),
    ],
)
def test_a_bad_data_file_raises_an_error_naming_the_row(
    path: tuple[Any, ...], value: Any, words: str
) -> None:
    raw = copy.deepcopy(_raw())
    target = raw
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DataError, match=words):
        edition_from_data("broken", raw)


def test_the_standard_data_file_loads() -> None:
    edition = load_edition("standard")
    assert next(c.name for c in edition.characters) == "malandrin"
    assert [b.name for b in edition.bourgeoisie_for(3)] == ["large", "medium", "small"]
    assert [b.name for b in edition.bourgeoisie_for(4)] == ["high", "large", "medium", "small"]


def test_the_fast_move_decoder_agrees_with_the_generic_one() -> None:
    for move in (PlayCard(3, True), Steal(2, "power"), ExchangeWith(-1, 4), Finish()):
        assert GAME.decode_move(move.to_json()) == MOVES.decode(move.to_json()) == move
    for bad in (
        {"type": "play", "rank": True, "bourgeoisie": False},
        {"type": "play", "rank": 3},
        {"type": "play", "rank": 3.0, "bourgeoisie": False},
        {"type": "steal", "card": 1, "mode": 2},
        {"type": "finish", "extra": 1},
    ):
        with pytest.raises(BadMove):
            GAME.decode_move(bad)
