"""A tiny game for the event store's tests and benchmark: hidden hands, a shuffle, an end.

"Toy draw", 2 to 4 players. Setup shuffles a 20-card deck (values 1..10, twice) and deals each
seat a hand of three, face down to the others. In turn each seat plays one card of its hand
face up (scoring its value) and draws a new card at random (a chance outcome only that seat
sees). After ``turns`` plays the game ends; the highest score wins, ties share a rank.

The state stays the same size however long the game runs, so an append at move 10 and at move
1,000 cost the same (the benchmark relies on that).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.core import (
    Game,
    GameState,
    IllegalMove,
    Move,
    MoveSet,
    Option,
    Result,
    Rng,
    move_type,
    ranks_from_keys,
)

HAND_SIZE = 3
DECK = tuple(value for value in range(1, 11) for _ in range(2))


@move_type("play")
@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play one card of the hand, by value."""

    card: int


@dataclass(kw_only=True)
class ToyState(GameState):
    """Hands are hidden from the other seats; ``stock`` (the undealt deck) from everyone."""

    hands: list[list[int]]
    stock: list[int]
    scores: list[int]
    turn: int = 0
    plays: int = 0
    turns: int = 12
    last: int | None = None


class ToyDraw(Game[ToyState]):
    """The toy game (see the module docstring)."""

    id = "toy-draw"
    name = "Toy draw"
    min_players = 2
    max_players = 4
    engine_version = "toy-1"
    editions = ("basic", "other")
    options = (
        Option(
            "turns", "integer", 12, "how many cards are played in all", minimum=2, maximum=100_000
        ),
    )
    moves = MoveSet(Play)
    state_type = ToyState

    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Rng) -> ToyState:
        deck = rng.shuffled(DECK)
        state = ToyState(
            rng=rng,
            hands=[deck[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(players)],
            stock=deck[HAND_SIZE * players :],
            scores=[0] * players,
            turns=options["turns"],
        )
        state.note("chance", "the deck is shuffled", {"order": deck}, visible_to=[])
        for seat, hand in enumerate(state.hands):
            state.note(
                "chance", f"seat {seat} is dealt {HAND_SIZE} cards", {"hand": list(hand)}, [seat]
            )
        return state

    def clone(self, state: ToyState) -> ToyState:
        """Written out, as the real games do: bench/append.py plays this game, and
        ``copy.deepcopy`` cost more than everything else the engine does in an append."""
        return ToyState(
            rng=Rng(state.rng.seed, state.rng.counter), effects=list(state.effects),
            step=state.step, hands=[list(hand) for hand in state.hands], stock=list(state.stock),
            scores=list(state.scores), turn=state.turn, plays=state.plays, turns=state.turns,
            last=state.last,
        )  # fmt: skip

    def to_act(self, state: ToyState) -> list[int]:
        return [] if state.plays >= state.turns else [state.turn]

    def legal_moves(self, state: ToyState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [Play(card) for card in sorted(set(state.hands[seat]))]

    def check(self, state: ToyState, seat: int, move: Move) -> None:
        if seat not in self.to_act(state):
            raise IllegalMove(self.not_your_turn(state, seat))
        if not isinstance(move, Play) or move.card not in state.hands[seat]:
            raise IllegalMove(f"seat {seat} holds no card {getattr(move, 'card', '?')}")

    def play(self, state: ToyState, seat: int, move: Move) -> None:
        assert isinstance(move, Play)
        state.hands[seat].remove(move.card)
        state.scores[seat] += move.card
        state.last = move.card
        state.plays += 1
        drawn = 1 + state.rng.randbelow(10)
        state.hands[seat].append(drawn)
        state.note("chance", f"seat {seat} draws a card", {"card": drawn}, [seat])
        state.turn = (state.turn + 1) % len(state.hands)

    def shuffle_unseen(self, state: ToyState) -> None:
        """The stock is the one zone nobody has seen; draws are random values, so the fresh RNG
        is what changes the rest of the game."""
        state.rng.shuffle(state.stock)
        state.note("reshuffle", f"the arbiter shuffles the stock again ({len(state.stock)} cards)")

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        return {
            "hand": None if seat is None else sorted(state.hands[seat]),
            "hand_sizes": [len(hand) for hand in state.hands],
            "stock_size": len(state.stock),
            "scores": list(state.scores),
            "last": state.last,
            "plays": state.plays,
            "turns": state.turns,
        }

    def result(self, state: ToyState) -> Result | None:
        if state.plays < state.turns:
            return None
        return Result(tuple(float(s) for s in state.scores), ranks_from_keys(state.scores))

    def describe(self, move: Move, seat: int) -> str:
        return f"seat {seat} plays a {getattr(move, 'card', '?')}"


GAME = ToyDraw()


def plant_hidden_markers(state: ToyState, viewer: int | None) -> list[str]:
    """Write markers into everything hidden from ``viewer``: other hands and the stock."""
    markers: list[str] = []
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            for index in range(len(hand)):
                marker = f"MARKER-hand-{seat}-{index}"
                hand[index] = marker  # type: ignore[call-overload]
                markers.append(marker)
    for index in range(len(state.stock)):
        marker = f"MARKER-stock-{index}"
        state.stock[index] = marker  # type: ignore[call-overload]
        markers.append(marker)
    return markers


@contextmanager
def registered() -> Iterator[ToyDraw]:
    """The toy game in the engine registry for the duration of the block."""
    registry._load()
    registry._registry[GAME.id] = GAME
    try:
        yield GAME
    finally:
        registry._registry.pop(GAME.id, None)
