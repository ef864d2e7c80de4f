"""Bots play 13 Couronnes, hidden crowns never leak, and the simulation summary reads well."""

from __future__ import annotations

import json

import pytest

from engine.bots import Bot, GreedyBot, RandomBot, play_game
from engine.core import Result
from engine.treize_couronnes import GAME
from engine.treize_couronnes.state import CouronnesState
from engine.treize_couronnes.testing import plant_hidden_markers, summarize


def test_greedy_bot_beats_the_random_bot() -> None:
    greedy_wins = 0
    for k in range(20):
        greedy_seat = k % 2
        bots: list[Bot] = [RandomBot(f"r{k}"), RandomBot(f"r{k}")]
        bots[greedy_seat] = GreedyBot(f"g{k}")
        played = play_game(GAME, bots, seed=f"duel-{k}")
        assert isinstance(played.state, CouronnesState)
        result = GAME.result(played.state)
        assert result is not None
        greedy_wins += result.ranks[greedy_seat] == 1 and result.ranks[1 - greedy_seat] == 2
    assert greedy_wins >= 15


def test_hidden_crowns_markers_never_leak_into_any_view() -> None:
    state = GAME.new_game(players=3, seed="hidden-walk", options={"hidden_crowns": True})
    bot = RandomBot("hidden-walk")
    checked = 0
    while seats := GAME.to_act(state):
        for viewer in [None, 0, 1, 2]:
            planted = GAME.clone(state)
            markers = plant_hidden_markers(planted, viewer)
            assert any(m.startswith("98765") for m in markers), "crowns are planted"
            text = json.dumps(GAME.view(planted, viewer))
            assert not [m for m in markers if m in text]
            checked += 1
        seat = seats[0]
        move = bot.choose(GAME, state, seat, GAME.legal_moves(state, seat))
        GAME.apply_in_place(state, seat, move)
    assert checked > 20


def test_summarize_reports_length_max_turns_and_each_laws_share() -> None:
    finished: list[tuple[CouronnesState, Result]] = []
    for k in range(6):
        options = {"max_turns": 5} if k < 2 else None
        played = play_game(
            GAME, [RandomBot(f"s{k}/{s}") for s in range(3)], seed=f"sum-{k}", options=options
        )
        assert isinstance(played.state, CouronnesState)
        result = GAME.result(played.state)
        assert result is not None
        finished.append((played.state, result))
    lines = summarize(finished)
    assert lines[0].startswith("13 Couronnes: 6 games, turns mean")
    capped = sum(1 for state, _ in finished if state.winner < 0)
    assert capped >= 2  # the two games limited to 5 turns
    assert f"ended by max_turns: {capped} ({100 * capped / 6:.1f}%)" in lines[1]
    shares = [line for line in lines if line.lstrip().startswith("law ")]
    assert shares
    total = sum(float(line.rsplit(None, 1)[1].rstrip("%")) for line in shares)
    assert total == pytest.approx(100, abs=0.5)
