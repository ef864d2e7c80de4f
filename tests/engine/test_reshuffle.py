"""``reshuffle_unseen`` (an arbiter's "replay from move n") and two-seed replay, for every game.

At several points of random bot games, the state is reshuffled with different seeds: every
seat's view and the public one stay the same (the last step's effects aside: they now say what
was shuffled), the unseen zone keeps its cards but not its order, the same seed gives the same
state, and the game then plays on to a legal end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.blazon.state import DECKS, BlazonState
from engine.bots import RandomBot, play_game
from engine.core import Game, GameState, Move, ReplayError, SetupRecord, replay
from engine.sept_blasons.state import SeptState
from engine.treize_couronnes.state import CouronnesState
from tests.events.toy_game import GAME as TOY
from tests.events.toy_game import ToyState

GAMES: dict[str, Game[Any]] = {game.id: game for game in [*engine.games(), TOY]}
CASES = [
    (gid, n, options)
    for gid, game in sorted(GAMES.items())
    for n in sorted({game.min_players, game.max_players})
    for options in ([None, {"variants": [1, 2, 3, 4]}] if gid == "les-7-blasons" else [None])
]
SEEDS = ("arbiter-a", "arbiter-b", "arbiter-c", "arbiter-d")


def unseen_zone(state: GameState) -> list[Any]:
    """What no seat has seen, in order: the part of the state a reshuffle may change."""
    if isinstance(state, SeptState):
        pile = [t.colour for t in state.pile if not t.up]
        fronts = [t.colour for f in state.fronts for t in f if not t.up and not t.known_by]
        return pile + fronts
    if isinstance(state, BlazonState):
        return [
            card
            for deck in DECKS
            for card in state.decks[deck][min(state.seen_at_bottom.get(deck, 0), len(state.decks[deck])) :]
        ]  # fmt: skip
    if isinstance(state, CouronnesState):
        return list(state.draw)
    assert isinstance(state, ToyState)
    return list(state.stock)


def views(game: Game[Any], state: GameState, players: int) -> list[dict[str, Any]]:
    """Every seat's view and the public one, without the last step's effects."""
    quiet = game.clone(state)
    quiet.effects = []
    return [game.view(quiet, seat) for seat in [None, *range(players)]]


def reshuffled(game: Game[Any], state: GameState, seed: str) -> GameState:
    copy = game.clone(state)
    game.reshuffle_unseen(copy, seed)
    return copy


def play_on(game: Game[Any], state: GameState, bot_seed: str) -> Any:
    """Bots play ``state`` to its end; returns the result (None would be a failure)."""
    bot = RandomBot(bot_seed)
    for _ in range(100_000):
        seats = game.to_act(state)
        if not seats:
            return game.result(state)
        moves = game.legal_moves(state, seats[0])
        game.apply_in_place(state, seats[0], bot.choose(game, state, seats[0], moves))
    raise AssertionError(f"{game.id}: no end after 100000 moves")


def states_along(game: Game[Any], players: int, options: Any, seed: str) -> list[GameState]:
    """The states at the start, a quarter, half and three quarters of a random game."""
    bots = [RandomBot(f"{seed}/bot{s}") for s in range(players)]
    log = play_game(game, bots, seed=seed, options=options).log
    points = sorted({0, len(log) // 4, len(log) // 2, 3 * len(log) // 4})
    state = game.new_game(players=players, seed=seed, options=options)
    found = []
    for index, (seat, move) in enumerate(log):
        if index in points:
            found.append(game.clone(state))
        game.apply_in_place(state, seat, move)
    return found


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_a_reshuffle_changes_only_what_nobody_has_seen(
    game_id: str, players: int, options: Any
) -> None:
    game = GAMES[game_id]
    for point, state in enumerate(states_along(game, players, options, f"rs-{players}")):
        results = [reshuffled(game, state, seed) for seed in SEEDS]
        for after in results:
            assert views(game, after, players) == views(game, state, players)
            assert sorted(unseen_zone(after)) == sorted(unseen_zone(state))
            assert after.step == state.step
            assert after.effects
            assert all(e.visible_to is None for e in after.effects)
            assert all(e.kind == "reshuffle" for e in after.effects)
        assert [r.rng.seed for r in results] == list(SEEDS)
        if len(set(unseen_zone(state))) >= 2:
            orders = {tuple(unseen_zone(r)) for r in results}
            assert len(orders) > 1, f"point {point}: four seeds gave one order"
        again = reshuffled(game, state, SEEDS[0])
        assert game.state_to_json(again) == game.state_to_json(results[0])
        assert play_on(game, results[point % len(SEEDS)], f"on-{point}") is not None


def test_blazon_keeps_a_redrawn_starting_hand_at_the_bottom_of_its_deck() -> None:
    game = GAMES["blazon"]
    state = next(
        s
        for s in (game.new_game(players=4, seed=f"weak-{k}") for k in range(300))
        if any(s.seen_at_bottom.values())
    )
    after = reshuffled(game, state, "arbiter")
    for deck in DECKS:
        kept = state.seen_at_bottom.get(deck, 0)
        assert after.decks[deck][:kept] == state.decks[deck][:kept]
    assert after.decks != state.decks


def test_sept_blasons_keeps_consulted_and_face_up_tokens_where_they_are() -> None:
    game = GAMES["les-7-blasons"]
    for state in states_along(game, 5, {"variants": [3]}, "consult"):
        after = reshuffled(game, state, "arbiter")
        for front, front_after in zip(state.fronts, after.fronts, strict=True):
            for token, token_after in zip(front, front_after, strict=True):
                if token.up or token.known_by:
                    assert token_after == token
        assert [t for t in after.pile if t.up] == [t for t in state.pile if t.up]


# -- replay with two seeds ----------------------------------------------------------------------


def continued_game(
    game: Game[Any], players: int, *, after: int, deal_seed: str, seed: str
) -> tuple[GameState, list[tuple[int, Move]]]:
    """A game dealt with ``deal_seed`` whose first ``after`` moves are an old game's, then
    reshuffled with ``seed`` and played on by bots to the end; its state and its moves."""
    bots = [RandomBot(f"{deal_seed}/bot{s}") for s in range(players)]
    old_log = play_game(game, bots, seed=deal_seed).log
    state = game.new_game(players=players, seed=deal_seed)
    for seat, move in old_log[:after]:
        game.apply_in_place(state, seat, move)
    game.reshuffle_unseen(state, seed)
    log = list(old_log[:after])
    bot = RandomBot(f"{seed}/on")
    while seats := game.to_act(state):
        move = bot.choose(game, state, seats[0], game.legal_moves(state, seats[0]))
        game.apply_in_place(state, seats[0], move)
        log.append((seats[0], move))
    return state, log


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("after", [0, 7])
def test_replay_reshuffles_with_the_games_own_seed_after_move_n(game_id: str, after: int) -> None:
    game = GAMES[game_id]
    players = game.min_players
    state, log = continued_game(game, players, after=after, deal_seed="old", seed="own")
    setup = SetupRecord(game_id, game.editions[0], players, {}, seed="own", deal_seed="old")
    replayed, trail = replay(game, setup, log, reshuffle_after=after)
    assert game.state_to_json(replayed) == game.state_to_json(state)
    assert game.result(replayed) == game.result(state)
    steps = [(s.step, s.move is None) for s in trail]
    assert steps[: after + 2] == [
        (0, True),
        *[(k, False) for k in range(1, after + 1)],
        (after, True),
    ]
    assert [s.step for s in trail if s.move is not None] == list(range(1, len(log) + 1))
    assert [e.kind for e in trail[after + 1].effects][:1] == ["reshuffle"]


def test_replay_until_the_reshuffle_point_includes_it_and_before_it_does_not() -> None:
    _, log = continued_game(TOY, 2, after=4, deal_seed="old", seed="own")
    setup = SetupRecord(TOY.id, "basic", 2, {}, seed="own", deal_seed="old")
    at_four, _ = replay(TOY, setup, log, until=4, reshuffle_after=4)
    at_three, _ = replay(TOY, setup, log, until=3, reshuffle_after=4)
    old_at_four, _ = replay(TOY, SetupRecord(TOY.id, "basic", 2, {}, seed="old"), log[:4])
    assert at_four.rng.seed == "own"
    assert at_three.rng.seed == "old"
    assert old_at_four.rng.seed == "old"
    assert TOY.view(at_four, 0)["hand"] == TOY.view(old_at_four, 0)["hand"]


def test_a_reshuffle_point_beyond_the_log_is_refused() -> None:
    _, log = continued_game(TOY, 2, after=4, deal_seed="old", seed="own")
    setup = SetupRecord(TOY.id, "basic", 2, {}, seed="own", deal_seed="old")
    with pytest.raises(ReplayError, match="after move 99"):
        replay(TOY, setup, log[:4], reshuffle_after=99)


@pytest.mark.parametrize(
    ("record", "check"),
    [
        ({"game": "g", "edition": "e", "players": 2}, lambda r: r.seed == r.deal_seed == ""),
        (
            {"game": "g", "edition": "e", "players": 2, "seed": "s"},
            lambda r: (r.seed, r.deal_seed) == ("s", ""),
        ),
        (
            {"game": "g", "edition": "e", "players": 2, "seed": "s", "deal_seed": "d"},
            lambda r: (r.seed, r.deal_seed) == ("s", "d"),
        ),
    ],
)
def test_setup_records_old_and_new_read_and_write_the_same(
    record: dict[str, Any], check: Callable[[SetupRecord], bool]
) -> None:
    read = SetupRecord.from_json(record)
    assert check(read)
    written = read.to_json()
    assert ("deal_seed" in written) == bool(read.deal_seed)
    assert SetupRecord.from_json(written) == read
