"""Property tests: thousands of random games across 3–7 players and every option combination.

After every move: tokens and cards are conserved, scores add up, the seat to act has moves,
the phase is consistent. Plus exactness of legal moves under every variant, and the greedy
bot beating random ones.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.bots import Bot, GreedyBot, RandomBot, play_game
from engine.core import IllegalMove, Move, SetupRecord, replay
from engine.sept_blasons import GAME
from engine.sept_blasons.state import PLAY, POWER, SeptState

VARIANT_SETS = [list(c) for r in range(5) for c in itertools.combinations([1, 2, 3, 4], r)]
OPTION_SETS = [
    {"variants": v, "tie_rule": rule} for v in VARIANT_SETS for rule in ("cascade", "strict")
]
GAMES = 2000


def _check_invariants(state: SeptState) -> None:
    n = state.players
    colours = Counter(t.colour for front in state.fronts for t in front)
    colours.update(t.colour for t in state.pile)
    assert colours == Counter(dict.fromkeys(range(n), 4)), "tokens are conserved"
    assert all(not t.known_by for t in state.pile), "nobody follows a token in the pile"
    cards = [seat * 8 + rank for seat, hand in enumerate(state.hands) for rank in hand]
    cards += [code for tricks in state.tricks for trick in tricks for code in trick]
    cards += [card.seat * 8 + card.rank for card in state.trick] + state.set_aside
    assert sorted(cards) == list(range(8 * n)), "cards are conserved within a round"
    assert state.totals == [sum(r[s] for r in state.round_scores) for s in range(n)]
    assert all(score >= 0 for r in state.round_scores for score in r)
    sources = [c.value_from for c in state.trick if c.value_from is not None]
    assert len(sources) == len(set(sources)), "a card's value is carried by one card at most"
    if state.phase == PLAY:
        assert len(state.trick) < n
    if state.phase == POWER:
        card = state.trick[state.resolving]
        assert not card.used
        assert GAME.powered(state, card.rank)


def _play_checked(players: int, options: dict[str, Any], seed: str) -> SeptState:
    state = GAME.new_game(players=players, seed=seed, options=options)
    bot = RandomBot(f"{seed}/bot")
    while seats := GAME.to_act(state):
        moves = GAME.legal_moves(state, seats[0])
        assert 0 < len(moves) <= 100, "the seat to act has a few legal moves, never none"
        GAME.apply_in_place(state, seats[0], bot.choose(GAME, state, seats[0], moves))
        _check_invariants(state)
    return state


def test_property_random_games_keep_every_invariant() -> None:
    rounds = Counter[int]()
    for index in range(GAMES):
        players = 3 + index % 5
        options = OPTION_SETS[index % len(OPTION_SETS)]
        state = _play_checked(players, options, f"prop-{index}")
        result = GAME.result(state)
        assert result is not None
        assert min(result.ranks) == 1
        assert state.round >= 3
        top = max(state.totals)
        assert state.totals.count(top) == 1 or state.round == 8, "a tie-break round decides"
        rounds[state.round] += 1
    assert rounds[3] > GAMES // 2


def _mutations(move: Move) -> Iterator[Move]:
    for field in dataclasses.fields(move):
        value = getattr(move, field.name)
        if isinstance(value, bool):
            yield dataclasses.replace(move, **{field.name: not value})
        elif isinstance(value, int):
            for delta in (-2, -1, 1, 2, 7, 1000):
                yield dataclasses.replace(move, **{field.name: value + delta})
        elif isinstance(value, str):
            yield dataclasses.replace(move, **{field.name: value + "x"})


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: f"variants{v}")
def test_legal_moves_are_exact_under_every_variant(variants: list[int]) -> None:
    state = GAME.new_game(players=4, seed=f"exact-{variants}", options={"variants": variants})
    bot = RandomBot("exact")
    while seats := GAME.to_act(state):
        seat = seats[0]
        legal = GAME.legal_moves(state, seat)
        assert len(set(legal)) == len(legal)
        for move in legal:
            GAME.apply(state, seat, move)
        nearby = {m for good in legal for m in _mutations(good)} - set(legal)
        for wrong in nearby:
            with pytest.raises(IllegalMove):
                GAME.check(state, seat, wrong)
        GAME.apply_in_place(state, seat, bot.choose(GAME, state, seat, legal))


def test_clone_is_a_full_independent_copy() -> None:
    state = GAME.new_game(players=5, seed="clone", options={"variants": [1, 2, 3, 4]})
    bot = RandomBot("clone")
    for _ in range(150):
        copy = GAME.clone(state)
        assert GAME.state_to_json(copy) == GAME.state_to_json(state)
        seat = GAME.to_act(state)[0]
        move = bot.choose(GAME, state, seat, GAME.legal_moves(state, seat))
        before = GAME.state_to_json(state)
        GAME.apply_in_place(copy, seat, move)
        assert GAME.state_to_json(state) == before


def test_the_greedy_bot_beats_random_bots() -> None:
    wins = 0
    games = 30
    for k in range(games):
        bots: list[Bot] = [GreedyBot(f"g{k}")]
        bots += [RandomBot(f"r{k}{seat}") for seat in range(1, 4)]
        played = play_game(GAME, bots, seed=f"greedy-{k}")
        assert isinstance(played.state, SeptState)
        result = GAME.result(played.state)
        assert result is not None
        wins += result.ranks[0] == 1
    assert wins > games * 0.35, f"greedy won {wins} of {games}; chance alone gives 25%"


@pytest.mark.parametrize("variants", [[1, 2, 3, 4], [1, 3], [2, 4]], ids=str)
def test_a_logged_variant_game_replays_and_a_snapshot_resumes_identically(
    variants: list[int],
) -> None:
    options = GAME.normalize_options({"variants": variants, "tie_rule": "strict"})
    bots: list[Bot] = [RandomBot(f"snap{seat}") for seat in range(5)]
    played = play_game(GAME, bots, seed="snap", options=options)
    assert isinstance(played.state, SeptState)
    setup = SetupRecord(GAME.id, "standard", 5, options, "snap")
    logged = [(seat, json.loads(json.dumps(move.to_json()))) for seat, move in played.log]
    state, _ = replay(GAME, setup, logged)
    assert isinstance(state, SeptState)
    assert GAME.state_to_json(state) == GAME.state_to_json(played.state)
    half = len(logged) // 2
    partial, _ = replay(GAME, setup, logged, until=half)
    assert isinstance(partial, SeptState)
    restored = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(partial))))
    for seat, raw in logged[half:]:
        GAME.apply_in_place(restored, seat, GAME.decode_move(raw))
    assert GAME.state_to_json(restored) == GAME.state_to_json(played.state)
