"""Engine benchmark: per game and player count, on one core.

Prints complete random games per second, replay throughput (validated events per second,
replaying a recorded log through ``engine.core.replay``), and the cost of ``legal_moves`` +
``apply`` per decision. Then a bot-vs-bot simulation (greedy bots against random bots) whose
figures each game's ``testing.summarize`` reports (game length, end triggers, ...).

Replay is measured ``--repeat`` times (the median is shown) against the aim of issue #19,
150,000 validated events/s (OpenSpiel's pure-Python games' level), with "met" or "not met".
When ``open_spiel`` is importable (it is not a dependency: ``pip install open_spiel`` to
compare), its pure-Python Liar's Poker is replayed in the same process with its legality check
(each action checked against ``legal_actions()``, or the chance outcomes) and its figure is
printed beside ours with the ratio, which holds better than either figure on a busy machine.
Times are this process's CPU time (``time.process_time``): on a shared machine other load
counts less than in wall time; on a quiet one they are the same.

    python bench/engine.py                      # every game, short runs
    python bench/engine.py --game blazon --simulate 1000
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
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

#: Issue #19's aim for replay: validated events per second, every game and player count.
REPLAY_AIM = 150_000


def _timed(work: Callable[[], int], min_seconds: float) -> tuple[int, float]:
    """Run ``work`` (returns a count) until ``min_seconds`` of CPU time have passed;
    (count, seconds)."""
    count, start = 0, time.process_time()
    while True:
        count += work()
        elapsed = time.process_time() - start
        if elapsed >= min_seconds:
            return count, elapsed


def _rate(work: Callable[[], int], seconds: float) -> float:
    """``work``'s count per second over ``seconds``."""
    count, elapsed = _timed(work, seconds)
    return count / elapsed


def verdict(rate: float) -> str:
    """``met`` or ``not met`` against :data:`REPLAY_AIM`."""
    return "met" if rate >= REPLAY_AIM else "not met"


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


def replay_events_per_second(
    game: Game[Any],
    players: int,
    seconds: float,
    repeat: int = 1,
    reference: Callable[[], int] | None = None,
) -> tuple[float, int, float | None]:
    """Validated events per second replaying recorded logs (JSON moves, as the store keeps
    them), the median of ``repeat`` measurements; the mean log length; and the median rate of
    ``reference`` (OpenSpiel's replay), measured in turn with ours so both see the same load."""
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

    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(_rate(one, seconds))
        if reference is not None:
            theirs.append(_rate(reference, seconds))
    length = sum(len(m) for _, m in logs) // len(logs)
    return statistics.median(ours), length, statistics.median(theirs) if theirs else None


def openspiel_replay() -> Callable[[], int] | None:
    """One replay of OpenSpiel's pure-Python Liar's Poker (``python_liars_poker``) with its
    legality check, returning its validated events (actions, chance included); None without
    open_spiel.

    Random games are recorded first (a fixed seed), then each call replays the next one: each
    action is checked against ``legal_actions()`` (or the chance outcomes at a chance node)
    and applied.
    """
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games.liars_poker")  # registers the game
    except ImportError:
        return None
    spiel = pyspiel.load_game("python_liars_poker")
    chooser = random.Random(19)
    logs: list[list[int]] = []
    for _ in range(20):
        state, actions = spiel.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = chooser.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = chooser.choice(state.legal_actions())
            actions.append(action)
            state.apply_action(action)
        logs.append(actions)
    index = iter(range(10**9))

    def one() -> int:
        actions = logs[next(index) % len(logs)]
        state = spiel.new_initial_state()
        for action in actions:
            if state.is_chance_node():
                legal = [a for a, _ in state.chance_outcomes()]
            else:
                legal = state.legal_actions()
            if action not in legal:
                raise AssertionError(f"OpenSpiel refused its own recorded action {action}")
            state.apply_action(action)
        return len(actions)

    return one


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


def machine_speed(steps: int = 2_000_000) -> float:
    """Millions of steps a second of a bare Python loop on this machine now (best of 3). The
    aim is an absolute figure: on a day the shared machine runs Python at half its speed, the
    same engines replay at about half the rate, and this line says so."""
    best = math.inf
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for step in range(steps):
            total += step
        best = min(best, time.perf_counter() - started)
    return steps / best / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", help="game id (repeatable); default: all")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="replay measurements (median)")
    parser.add_argument("--simulate", type=int, default=200, help="bot-vs-bot games per game")
    args = parser.parse_args()
    chosen = [engine.get(g) for g in args.game] if args.game else engine.games()
    reference = openspiel_replay()
    if reference is None:
        print("OpenSpiel: open_spiel is not importable, no figure beside ours")
    else:
        print(
            "OpenSpiel ev/s: its pure-Python Liar's Poker replayed with its legality check, "
            "measured in turn with each row (ratio: ours / OpenSpiel's)"
        )
    print(f"replay aim (issue #19): {REPLAY_AIM:,} validated events/s for every row")
    print(f"this machine now: a bare Python loop at {machine_speed():.1f} million steps/s")
    for game in chosen:
        print(f"\n## {game.name} ({game.id}, engine {game.engine_version})")
        header = (
            f"{'players':>7} {'games/s':>9} {'replay ev/s':>12} {'aim':>8} {'':8}"
            f" {'moves/game':>10} {'µs/decision':>12}"
        )
        print(header + ("" if reference is None else f" {'OpenSpiel ev/s':>15} {'ratio':>6}"))
        rates = []
        for players in range(game.min_players, game.max_players + 1):
            gps = random_games_per_second(game, players, args.seconds)
            eps, length, theirs = replay_events_per_second(
                game, players, args.seconds, args.repeat, reference
            )
            cost = decision_cost_us(game, players, args.seconds)
            rates.append(eps)
            line = (
                f"{players:>7} {gps:>9.1f} {eps:>12,.0f} {REPLAY_AIM:>8,} {verdict(eps):8}"
                f" {length:>10} {cost:>12.1f}"
            )
            if theirs is not None:
                line += f" {theirs:>15,.0f} {eps / theirs:>6.2f}"
            print(line)
        worst = min(rates)
        print(
            f"replay, slowest player count: {worst:,.0f} validated events/s "
            f"(aim: {REPLAY_AIM:,}, {verdict(worst)})"
        )
        if args.simulate:
            print(f"simulation of {args.simulate} games (greedy vs random bots):")
            for line in simulate(game, args.simulate):
                print(f"  {line}")


if __name__ == "__main__":
    main()
