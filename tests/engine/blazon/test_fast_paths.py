"""Blazon's replay fast paths (issue #19) agree with the plain rules they stand in for."""

from __future__ import annotations

from collections import Counter

import engine
from engine.blazon import legality
from engine.blazon.cards import EDITIONS
from engine.blazon.shield import TABLES
from engine.blazon.state import BlazonState
from engine.bots import RandomBot
from engine.core.rng import Rng

EDITION = "reconstructed-1"


def _counted(display: tuple[int, ...]) -> bool:
    cards = EDITIONS[EDITION].cards
    shown = [cards[n] for n in display if n]
    types = Counter(c.type for c in shown)
    augs = Counter(c.augmentation for c in shown)
    return max(types.values(), default=0) >= 3 or max(augs.values(), default=0) >= 3


def test_the_packed_symbol_counters_refresh_exactly_when_three_cards_share_a_symbol() -> None:
    rng = Rng("refreshable")
    numbers = [0] * 20 + sorted(EDITIONS[EDITION].cards)
    for _ in range(20_000):
        display = tuple(rng.choice(numbers) for _ in range(rng.randbelow(12)))
        assert legality.display_refreshable(EDITION, display) == _counted(display), display


def test_a_placement_plainly_fitting_is_one_the_full_rules_allow() -> None:
    game = engine.get("blazon")
    tables = TABLES[EDITION]
    for k in range(6):
        state = game.new_game(players=2 + k % 3, seed=f"plain-{k}")
        bot = RandomBot(f"plain-{k}")
        while seats := game.to_act(state):
            assert isinstance(state, BlazonState)
            player = state.players[seats[0]]
            for card in player.hand:
                for space in range(10):
                    for align in (0, 1):
                        if not state.pending_row and legality.plainly_fits(
                            tables, player, card, space, align
                        ):
                            refusal = legality._placement_refusal(
                                state, player, card=card, space=space, align=align,
                                herald=False, abate=False,
                            )  # fmt: skip
                            assert refusal is None
            moves = game.legal_moves(state, seats[0])
            game.apply_in_place(state, seats[0], bot.choose(game, state, seats[0], moves))
