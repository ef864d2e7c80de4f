"""Engine benchmark: per game and player count, on one core.

Prints complete random games per second, replay throughput (validated events per second,
replaying a recorded log through ``engine.core.replay``), and the cost of ``legal_moves`` +
``apply`` per decision. Then a bot-vs-bot simulation (greedy bots against random bots) whose
figures each game's ``testing.summarize`` reports (game length, end triggers, ...).

    python bench/engine.py                      # every game, short runs
    python bench/engine.py --game blazon --simulate 1000
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

import engine  # noqa: E402
from engine.bots import GreedyBot, RandomBot, play_game  # noqa: E402
from engine.core import Game, Result, SetupRecord, replay  # noqa: E402
from engine.core.game import GameState  # noqa: E402
from engine.registry import GAME_MODULES  # noqa: E402


def _timed(work: Callable[[], int], min_seconds: float) -> tuple[int, float]:
    """Run ``work`` (returns a count) until ``min_seconds`` have passed; (count, seconds)."""
    count, start = 0, time.perf_counter()
    while True:
        count += work()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return count, elapsed


def random_games_per_second(game: Game[Any], players: int, seconds: float) -> float:
    """Complete random-bot games per second."""
    counter = iter(range(10**9))

    def one() -> int:
        k = next(counter)
        bots = [RandomBot(f"g{k}/s{s}") for s in range(players)]
        play_game(game, bots, seed=f"bench-{k}")
        return 1

    games, elapsed = _timed(one, seconds)
    return games / elapsed


def replay_events_per_second(game: Game[Any], players: int, seconds: float) -> tuple[float, int]:
    """Validated events per second replaying recorded logs (JSON moves, as the store keeps them)."""
    logs = []
    for k in range(5):
        bots = [RandomBot(f"r{k}/s{s}") for s in range(players)]
        played = play_game(game, bots, seed=f"replay-{k}")
        setup = SetupRecord(
            game.id, game.editions[0], players, game.normalize_options(None), f"replay-{k}"
        )
        logs.append((setup, [(seat, move.to_json()) for seat, move in played.log]))
    index = iter(range(10**9))

    def one() -> int:
        setup, moves = logs[next(index) % len(logs)]
        replay(game, setup, moves)
        return len(moves)

    events, elapsed = _timed(one, seconds)
    return events / elapsed, sum(len(m) for _, m in logs) // len(logs)


def decision_cost_us(game: Game[Any], players: int, seconds: float) -> float:
    """Microseconds for one ``legal_moves`` + ``apply_in_place`` along random games."""
    counter = iter(range(10**9))

    def one() -> int:
        k = next(counter)
        state = game.new_game(players=players, seed=f"decide-{k}")
        bot = RandomBot(f"decide-{k}")
        steps = 0
        while seats := game.to_act(state):
            moves = game.legal_moves(state, seats[0])
            game.apply_in_place(state, seats[0], bot.choose(game, state, seats[0], moves))
            steps += 1
        return steps

    decisions, elapsed = _timed(one, seconds)
    return elapsed / decisions * 1e6


def simulate(game: Game[Any], count: int) -> list[str]:
    """Bot-vs-bot games (greedy in even seats, random in odd ones) summarised by the game."""
    module = next(m for m in GAME_MODULES if importlib.import_module(m).GAME is game)
    testing = importlib.import_module(f"{module}.testing")
    finished: list[tuple[GameState, Result]] = []
    greedy_wins = seats_total = 0
    players_range = range(game.min_players, game.max_players + 1)
    for k in range(count):
        players = players_range[k % len(players_range)]
        bots = [
            GreedyBot(f"sim{k}/{s}") if s % 2 == 0 else RandomBot(f"sim{k}/{s}")
            for s in range(players)
        ]
        played = play_game(game, bots, seed=f"sim-{k}")
        result = game.result(played.state)
        assert result is not None
        finished.append((played.state, result))
        winners = [s for s, rank in enumerate(result.ranks) if rank == 1]
        greedy_wins += sum(1 for s in winners if s % 2 == 0)
        seats_total += len(winners)
    lines: list[str] = list(testing.summarize(finished))
    lines.append(f"greedy bots' share of wins: {greedy_wins / max(seats_total, 1):.0%}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", help="game id (repeatable); default: all")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--simulate", type=int, default=200, help="bot-vs-bot games per game")
    args = parser.parse_args()
    chosen = [engine.get(g) for g in args.game] if args.game else engine.games()
    for game in chosen:
        print(f"\n## {game.name} ({game.id}, engine {game.engine_version})")
        print(
            f"{'players':>7} {'games/s':>9} {'replay ev/s':>12} {'moves/game':>10} {'µs/decision':>12}"
        )
        rates = []
        for players in range(game.min_players, game.max_players + 1):
            gps = random_games_per_second(game, players, args.seconds)
            eps, length = replay_events_per_second(game, players, args.seconds)
            cost = decision_cost_us(game, players, args.seconds)
            rates.append(eps)
            print(f"{players:>7} {gps:>9.1f} {eps:>12,.0f} {length:>10} {cost:>12.1f}")
        print(
            f"replay, median over player counts: {statistics.median(rates):,.0f} validated events/s (aim: 50,000)"
        )
        if args.simulate:
            print(f"simulation of {args.simulate} games (greedy vs random bots):")
            for line in simulate(game, args.simulate):
                print(f"  {line}")


if __name__ == "__main__":
    main()
