"""The direct law check (``fulfils``) agrees with the list of ways (``ways``), everywhere."""

from __future__ import annotations

from engine.bots import RandomBot
from engine.core import Rng
from engine.treize_couronnes import GAME
from engine.treize_couronnes.cards import COLOURS, KINGS
from engine.treize_couronnes.laws import Way, fulfils, ways

KINGS_1 = KINGS["reconstructed-1"]
REVEAL_AND_DISCARD = [k for k in KINGS_1.values() if not k.action.once]


def _sample(items: list[str], size: int, rng: Rng) -> tuple[str, ...]:
    pool = list(items)
    rng.shuffle(pool)
    return tuple(sorted(pool[:size]))


def _candidates(hand: list[str], blasons: list[str], rng: Rng) -> list[Way]:
    """Random ways that may or may not fulfil a law: a few cards, jokers and blasons."""
    specials = [c for c in hand if KINGS_1[c].special]
    tokens: list[tuple[str, ...]] = [(), (COLOURS[rng.randbelow(4)],), tuple(sorted(blasons))]
    found: list[Way] = []
    for _ in range(40):
        cards = _sample(hand, rng.randbelow(5), rng)
        spare = [c for c in specials if c not in cards]
        jokers = _sample(spare, rng.randbelow(3), rng)
        found.append((cards, jokers, tokens[rng.randbelow(3)]))
    found.append((tuple(reversed(hand[:2])), (), ()))  # unsorted: never a way
    return found


def test_fulfils_agrees_with_the_listed_ways_along_random_games() -> None:
    rng = Rng("laws")
    compared = 0
    for k in range(12):
        state = GAME.new_game(players=2 + k % 4, seed=f"laws-{k}")
        bot = RandomBot(f"laws-{k}")
        while seats := GAME.to_act(state):
            seat = seats[0]
            hand = state.hands[seat]
            usable = [c for c in hand if c not in state.revealed]
            blasons = state.blasons[seat]
            king = REVEAL_AND_DISCARD[rng.randbelow(len(REVEAL_AND_DISCARD))]
            announced = COLOURS[rng.randbelow(4)]
            listed = set(ways(king.action, usable, blasons, KINGS_1, announced))
            for way in [*listed, *_candidates(usable, blasons, rng)]:
                direct = fulfils(
                    king.action,
                    way,
                    usable=usable,
                    blasons=blasons,
                    kings=KINGS_1,
                    announced=announced,
                )
                assert direct == (way in listed), (king.id, way, usable, blasons)
                compared += 1
            move = bot.choose(GAME, state, seat, GAME.legal_moves(state, seat))
            GAME.apply_in_place(state, seat, move)
    assert compared > 50_000
