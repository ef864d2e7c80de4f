"""Ruling 7B-3 and the rulebook's scoring example; rounds, tie-break rounds and the result."""

from __future__ import annotations

from engine.core import Termination
from engine.sept_blasons import GAME
from engine.sept_blasons.moves import PlayCard, Steal, TakeToken
from engine.sept_blasons.scoring import MAX_TIE_BREAK_ROUNDS, colour_scores, round_score
from engine.sept_blasons.state import OVER, PLAY, SeptState, Token
from tests.engine.sept_blasons.helpers import act, first_legal, new_game, play_cards, set_tokens

BELLAY, GRANDBOIS, GUILLOUX = 1, 3, 4  # indices in the edition's colour list


def _cards(colour: int, *ranks: int) -> list[int]:
    return [colour * 8 + rank for rank in ranks]


def _tokens(*spec: tuple[int, bool]) -> list[Token]:
    return [Token(colour, up) for colour, up in spec]


def test_rulebook_example_scoring_three_players_guilloux_wins_the_round() -> None:
    grandbois = round_score(
        _cards(GRANDBOIS, 7, 6, 4) + _cards(BELLAY, 7, 6) + _cards(GUILLOUX, 7, 5),
        _tokens((BELLAY, True), (GUILLOUX, True), (GUILLOUX, False)),
        GRANDBOIS, 7,
    )  # fmt: skip
    guilloux = round_score(
        _cards(GRANDBOIS, 5, 1) + _cards(BELLAY, 5, 3) + _cards(GUILLOUX, 3),
        _tokens((BELLAY, True), (BELLAY, True), (GUILLOUX, True), (GUILLOUX, True)),
        GUILLOUX, 7,
    )  # fmt: skip
    bellay = round_score(
        _cards(GRANDBOIS, 3, 2) + _cards(BELLAY, 4, 2, 1) + _cards(GUILLOUX, 6, 4, 2, 1),
        _tokens((GRANDBOIS, True), (GRANDBOIS, True), (GRANDBOIS, True), (BELLAY, True)),
        BELLAY, 7,
    )  # fmt: skip
    assert (grandbois, guilloux, bellay) == (13, 16, 15)
    assert max((grandbois, "Grandbois"), (guilloux, "Guilloux"), (bellay, "Bellay"))[1] == (
        "Guilloux"
    )


def test_ruling_7B_3_only_the_best_colour_counts_and_each_line_is_points_times_tokens() -> None:
    lines = colour_scores(
        _cards(BELLAY, 7, 5) + _cards(GUILLOUX, 6),
        _tokens((BELLAY, True), (BELLAY, True), (GUILLOUX, True)),
        GRANDBOIS, 7,
    )  # fmt: skip
    assert (lines[BELLAY].card_points, lines[BELLAY].tokens, lines[BELLAY].points) == (12, 2, 24)
    assert lines[GUILLOUX].points == 6
    assert max(line.points for line in lines) == 24


def test_ruling_7B_3_own_colour_and_face_down_tokens_count_for_nothing() -> None:
    cards = _cards(GRANDBOIS, 7, 6) + _cards(BELLAY, 5)
    assert round_score(cards, _tokens((GRANDBOIS, True), (BELLAY, False)), GRANDBOIS, 7) == 0
    assert round_score(cards, _tokens((BELLAY, True)), GRANDBOIS, 7) == 5


def test_ruling_7B_3_the_malandrin_scores_zero() -> None:
    assert round_score(_cards(BELLAY, 0, 0), _tokens((BELLAY, True)), GRANDBOIS, 7) == 0


def _last_trick_of_round(state: SeptState, ranks: list[int]) -> None:
    state.trick_no = 7
    play_cards(state, ranks)
    while state.phase not in (PLAY, OVER) or state.trick:
        first_legal(state)


def test_each_round_has_eight_tricks_and_scores_add_up() -> None:
    state = new_game(players=3, seed="rounds")
    for _ in range(8 * 3):
        act(state, PlayCard(max(state.hands[GAME.actor(state) or 0])))
        while state.phase != PLAY:
            first_legal(state)
        if state.round == 2:
            break
    assert state.round == 2
    assert state.trick_no == 0
    assert len(state.round_scores) == 1
    assert state.totals == state.round_scores[0]
    assert all(len(hand) == 8 for hand in state.hands), "every player takes its 8 cards back"
    assert sorted(len(front) for front in state.fronts) == [3, 3, 3], "tokens are redealt"


def test_the_winner_of_the_last_trick_leads_the_next_round() -> None:
    state = new_game(players=3, seed="leader", leader=1)
    _last_trick_of_round(state, [5, 7, 6])  # seat 1: 5, seat 2: 7, seat 0: 6
    assert state.round == 2
    assert state.leader == 2


def test_when_nobody_wins_the_last_trick_its_leader_leads_the_next_round() -> None:
    state = new_game(players=3, seed="leader", leader=1)
    _last_trick_of_round(state, [7, 7, 7])
    assert state.round == 2
    assert state.leader == 1


def test_when_nobody_wins_a_trick_the_same_leader_leads_again() -> None:
    state = new_game(players=3, seed="leader", leader=2)
    play_cards(state, [6, 6, 6])
    assert state.phase == PLAY
    assert state.leader == 2
    assert state.trick_no == 1


def test_three_rounds_then_the_highest_total_wins() -> None:
    state = new_game(players=3, seed="end")
    state.round = 3
    state.totals = [10, 30, 20]
    _last_trick_of_round(state, [7, 7, 7])
    assert state.phase == OVER
    result = GAME.result(state)
    assert result is not None
    assert result.ranks == (3, 1, 2)
    assert result.scores == (10.0, 30.0, 20.0)
    assert result.termination is Termination.ROUNDS_PLAYED


def test_a_tied_top_total_after_three_rounds_plays_a_tie_break_round() -> None:
    state = new_game(players=3, seed="tie")
    state.round = 3
    state.totals = [30, 30, 20]
    _last_trick_of_round(state, [7, 7, 7])
    assert state.phase == PLAY
    assert state.round == 4
    assert GAME.result(state) is None
    assert any(e.kind == "tie" for e in state.effects)
    state.totals = [31, 30, 20]
    _last_trick_of_round(state, [7, 7, 7])
    result = GAME.result(state)
    assert result is not None
    assert result.ranks == (1, 2, 3)
    assert result.details["tie_break_rounds"] == 1
    assert result.termination is Termination.ROUNDS_PLAYED  # the tie-break settled it


def test_tie_break_rounds_stop_at_the_safety_bound_and_the_tie_shares_the_rank() -> None:
    state = new_game(players=3, seed="tie")
    state.round = 3 + MAX_TIE_BREAK_ROUNDS
    state.totals = [30, 30, 20]
    _last_trick_of_round(state, [7, 7, 7])
    result = GAME.result(state)
    assert result is not None
    assert result.ranks == (1, 1, 3)
    assert result.termination is Termination.TIE_BREAK_LIMIT


def test_a_round_that_is_won_is_scored_into_the_totals() -> None:
    state = new_game(players=3, seed="score")
    set_tokens(state, [[(1, True), (2, True)], [(0, True)], [(0, True)]])
    state.trick_no = 7
    play_cards(state, [7, 6, 4])  # seat 0 wins; no power acts and no free action is possible
    assert state.round == 2
    assert state.round_scores[0] == [max(6 * 1, 4 * 1), 0, 0]
    assert state.totals == [6, 0, 0]


def test_the_result_explains_each_players_rounds_and_the_tie_breaks() -> None:
    state = new_game(players=3, seed="details")
    set_tokens(state, [[(1, True), (2, True)], [(0, True)], [(0, True)]])
    state.trick_no = 7
    play_cards(state, [7, 6, 4])
    state.round = 3
    state.totals = [6, 1, 0]
    _last_trick_of_round(state, [7, 7, 7])
    result = GAME.result(state)
    assert result is not None
    assert result.details["rounds"] == [[6, 0, 0], [0, 0, 0]]
    seat0 = result.details["players"][0]
    assert seat0["colour"] == "Aubigny"
    assert seat0["rounds"][0] == {"score": 6, "scored_with": "Bellay"}
    assert seat0["rounds"][1] == {"score": 0, "scored_with": None}
    assert result.details["tie_break_rounds"] == 0
    assert "best colour" in result.details["rule"]


def test_moves_read_as_sentences() -> None:
    assert GAME.describe(PlayCard(3), 2) == "seat 2 plays the magistrat (3)"
    assert GAME.describe(PlayCard(0, True), 1) == (
        "seat 1 plays the malandrin (*) and activates its bourgeoisie card"
    )
    assert GAME.describe(Steal(2, "value"), 0) == (
        "seat 0's malandrin takes the value of the card in play position 2"
    )
    assert (
        GAME.describe(TakeToken(1), 4) == "seat 4 takes the face-up Bellay token from the draw pile"
    )
