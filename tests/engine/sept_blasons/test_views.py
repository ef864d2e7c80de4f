"""Ruling 7B-4 and hidden information: what each seat's view shows and hides."""

from __future__ import annotations

import json

import pytest

from engine.bots import RandomBot
from engine.sept_blasons import GAME
from engine.sept_blasons.cards import STANDARD
from engine.sept_blasons.moves import ConsultToken, Finish, PlayCard, RemoveToken, TakeToken
from engine.sept_blasons.state import BOURGEOISIE, SeptState
from engine.sept_blasons.testing import plant_hidden_markers
from tests.engine.sept_blasons.helpers import act, first_legal, new_game, play_cards, set_tokens


def _table(**options: object) -> SeptState:
    state = new_game(players=3, seed="views", **options)  # type: ignore[arg-type]
    set_tokens(state, [[(1, True), (2, False)], [(0, False)], [(0, True)]], pile=[(2, False)])
    return state


def _won_trick(state: SeptState) -> None:
    play_cards(state, [7, 6, 4])  # seat 0 wins, no power acts
    first_legal(state)  # free action


def test_a_face_down_tokens_colour_is_hidden_from_everyone_its_owner_included() -> None:
    state = _table()
    for viewer in (None, 0, 1, 2):
        tokens = GAME.view(state, viewer)["players"][0]["tokens"]
        assert tokens[0] == {"slot": 0, "face": "up", "colour": "Bellay"}
        assert tokens[1] == {"slot": 1, "face": "down"}


def test_the_draw_pile_shows_counts_and_face_up_colours_only() -> None:
    state = _table()
    state.pile[0].up = True
    assert GAME.view(state, 1)["pile"] == {"face_down": 0, "face_up": ["Contades"]}


def test_a_player_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    state = _table()
    act(state, PlayCard(3))
    view = GAME.view(state, 0)
    assert [c["rank"] for c in view["hand"]] == [0, 1, 2, 4, 5, 6, 7]
    assert [p["cards_in_hand"] for p in view["players"]] == [7, 8, 8]
    assert "hand" not in GAME.view(state, None)


def test_ruling_7B_4_a_player_sees_its_own_tricks_and_only_counts_of_the_others() -> None:
    state = _table()
    _won_trick(state)
    mine = GAME.view(state, 0)["players"][0]
    assert mine["tricks"] == 1
    assert len(mine["tricks_seen"][0]["cards"]) == 3
    theirs = GAME.view(state, 1)["players"][0]
    assert theirs["tricks"] == 1
    assert "tricks_seen" not in theirs
    assert "tricks_seen" not in GAME.view(state, None)["players"][0]


def test_ruling_7B_4_in_variant_1_a_player_does_not_see_its_own_tricks() -> None:
    state = _table(variants=[1])
    _won_trick(state)
    assert "tricks_seen" not in GAME.view(state, 0)["players"][0]


def test_variant_3_a_consulted_token_is_shown_to_the_consulter_and_its_owner_only() -> None:
    state = _table(variants=[3])
    state.bourgeoisie[1] = 1  # small: 2 consultations
    act(state, PlayCard(7))
    act(state, PlayCard(6, bourgeoisie=True))
    act(state, PlayCard(4))
    act(state, TakeToken(-1))  # seat 0's free action
    assert state.phase == BOURGEOISIE
    target = (0, 1)
    act(state, ConsultToken(*target))
    act(state, Finish())
    seat, index = target
    for viewer in (None, 0, 1, 2):
        token = GAME.view(state, viewer)["players"][seat]["tokens"][index]
        assert ("colour" in token) == (viewer in {1, seat}), viewer
        assert token["consulted_by"] == sorted({1, seat})


def test_a_consulted_token_put_into_the_pile_is_forgotten() -> None:
    state = _table(variants=[3])
    state.fronts[1][0].known_by = [1]
    play_cards(state, [3, 7, 6])
    act(state, RemoveToken(1, 0))
    assert all(not t.known_by for t in state.pile)


@pytest.mark.parametrize(
    ("players", "variants"), [(3, [1, 2, 3, 4]), (4, [1, 3]), (5, [2, 4]), (7, [1, 3])]
)
def test_hidden_markers_never_reach_a_view_in_any_variant(
    players: int, variants: list[int]
) -> None:
    state = GAME.new_game(players=players, seed="markers", options={"variants": variants})
    bot = RandomBot("markers")
    checked = 0
    while seats := GAME.to_act(state):
        if state.step % 2 == 0:
            for viewer in (None, *range(players)):
                planted = GAME.clone(state)
                markers = plant_hidden_markers(planted, viewer)
                text = json.dumps(GAME.view(planted, viewer))
                assert not [m for m in markers if m in text]
                checked += len(markers)
        move = bot.choose(GAME, state, seats[0], GAME.legal_moves(state, seats[0]))
        GAME.apply_in_place(state, seats[0], move)
    assert checked > 1000


def _finished(players: int = 4, seed: str = "over") -> SeptState:
    state = GAME.new_game(players=players, seed=seed)
    bot = RandomBot(seed)
    while seats := GAME.to_act(state):
        move = bot.choose(GAME, state, seats[0], GAME.legal_moves(state, seats[0]))
        GAME.apply_in_place(state, seats[0], move)
    return state


def test_at_the_end_face_down_tokens_and_every_trick_are_shown_to_everyone() -> None:
    state = _finished()
    down = [(s, i) for s, front in enumerate(state.fronts) for i, t in enumerate(front) if not t.up]
    assert down, "the seed leaves no face-down token at the end: pick another"
    colours = [t.colour for front in state.fronts for t in front if not t.up]
    for viewer in (None, 0, 3):
        view = GAME.view(state, viewer)
        shown = [view["players"][s]["tokens"][i] for s, i in down]
        assert all(t["revealed"] and t["face"] == "down" for t in shown)
        assert [GAME_COLOURS.index(t["colour"]) for t in shown] == colours
        for seat, player in enumerate(view["players"]):
            assert len(player.get("tricks_seen", [])) == len(state.tricks[seat])
    assert "face_down" in GAME.view(state, None)["pile"]


def test_while_the_game_runs_no_token_is_marked_revealed() -> None:
    running = new_game(players=4, seed="over")
    for viewer in (None, 0):
        tokens = [t for p in GAME.view(running, viewer)["players"] for t in p["tokens"]]
        assert [t for t in tokens if t["face"] == "down"]
        assert not [t for t in tokens if "revealed" in t or (t["face"] == "down" and "colour" in t)]


def test_each_round_is_told_as_colour_card_points_times_tokens() -> None:
    state = _finished(players=3, seed="lines")
    lines = GAME.view(state, 1)["round_lines"]
    assert len(lines) == len(state.round_scores) >= 3
    for scores, round_lines in zip(state.round_scores, lines, strict=True):
        assert [line["points"] for line in round_lines] == scores
        for seat, line in enumerate(round_lines):
            assert line["points"] == line["card_points"] * line["tokens"]
            assert (line["colour"] is None) == (line["points"] == 0)
            if line["colour"] is not None:
                assert line["colour"] != GAME_COLOURS[seat]  # one's own colour never counts


def test_a_snapshot_without_the_count_shows_no_round_lines() -> None:
    state = _finished(players=3, seed="lines")
    state.round_lines = state.round_lines[:-1]
    assert GAME.view(state, 0)["round_lines"] == []


GAME_COLOURS = list(STANDARD.colours)
