"""Property tests of the Swiss and round-robin draws over many fields and rounds."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import Field, repeat_free_exists
from tournaments.pairing import Pairing, TableRule, pair_round
from tournaments.pairing.history import meetings
from tournaments.pairing.sizes import byes_needed

RULES = [
    TableRule(preferred=2, allowed=(2,)),
    TableRule(preferred=3, allowed=(3, 4)),
    TableRule(preferred=4, allowed=(3, 4, 5)),
    TableRule(preferred=4, allowed=(4,)),
    TableRule(preferred=5, allowed=(4, 5, 6)),
    TableRule(preferred=6, allowed=(5, 6, 7)),
    TableRule(preferred=7, allowed=(7,)),
]

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def assert_draw_is_sound(game: Field, draw: Pairing, byes_before: dict[int, int]) -> None:
    """Everyone seated once or given a bye, sizes allowed, the fewest byes, fairly given."""
    placed = Counter([e for table in draw.tables for e in table] + list(draw.byes))
    assert placed == Counter(game.active)
    assert all(len(table) in game.rule.allowed for table in draw.tables)
    assert len(draw.byes) == byes_needed(len(game.active), game.rule)
    seated_fewest = min((byes_before.get(e, 0) for t in draw.tables for e in t), default=None)
    for entrant in draw.byes:
        if seated_fewest is not None:
            assert byes_before.get(entrant, 0) <= seated_fewest, "a bye went to someone with more"


@PROPERTY_SETTINGS
@given(
    players=st.integers(min_value=2, max_value=200),
    rounds=st.integers(min_value=1, max_value=8),
    rule=st.sampled_from(RULES),
    fmt=st.sampled_from(["swiss", "swiss", "round_robin"]),
    seed=st.text(min_size=1, max_size=8),
)
@example(players=200, rounds=8, rule=RULES[2], fmt="swiss", seed="big fours")
@example(players=199, rounds=8, rule=RULES[0], fmt="swiss", seed="big pairs")
@example(players=197, rounds=8, rule=RULES[6], fmt="round_robin", seed="big sevens")
@example(players=2, rounds=8, rule=RULES[2], fmt="swiss", seed="all byes")
def test_every_round_seats_everyone_once_in_allowed_tables_with_fair_byes(
    players: int, rounds: int, rule: TableRule, fmt: str, seed: str
) -> None:
    game = Field(rule=rule, seed=seed, active=list(range(1, players + 1)))
    for _ in range(rounds):
        byes_before = dict(game.byes)
        assert_draw_is_sound(game, game.play(fmt), byes_before)


@PROPERTY_SETTINGS
@given(
    players=st.integers(min_value=6, max_value=60),
    rule=st.sampled_from(RULES[:5]),
    drops=st.lists(st.integers(min_value=1, max_value=60), max_size=4),
    late=st.integers(min_value=0, max_value=3),
)
def test_drops_and_late_entries_keep_draws_sound(
    players: int, rule: TableRule, drops: list[int], late: int
) -> None:
    game = Field(rule=rule, seed="drops", active=list(range(1, players + 1)))
    game.play()
    game.active = [e for e in game.active if e not in drops] + list(range(1000, 1000 + late))
    for _ in range(3):
        byes_before = dict(game.byes)
        assert_draw_is_sound(game, game.play(), byes_before)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=12),
    rounds=st.integers(min_value=1, max_value=6),
    rule=st.sampled_from(RULES[:5]),
    fmt=st.sampled_from(["swiss", "round_robin"]),
    seed=st.text(min_size=1, max_size=6),
)
def test_no_repeat_while_a_repeat_free_draw_exists(
    players: int, rounds: int, rule: TableRule, fmt: str, seed: str
) -> None:
    game = Field(rule=rule, seed=seed, active=list(range(1, players + 1)))
    for _ in range(rounds):
        met = meetings(game.history())
        draw = game.play(fmt)
        if draw.quality["repeat_pairs"]:
            seated = [e for table in draw.tables for e in table]
            sizes = [len(table) for table in draw.tables]
            assert not repeat_free_exists(seated, sizes, met), draw


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=40),
    rule=st.sampled_from(RULES),
    seed=st.text(max_size=6),
)
def test_the_draw_depends_on_the_seed_not_on_the_input_order(
    players: int, rule: TableRule, seed: str
) -> None:
    game = Field(rule=rule, seed=seed, active=list(range(1, players + 1)))
    game.play()
    game.play()
    entrants, history = game.entrants(), game.history()
    forward = pair_round("swiss", entrants, history, rule, round_number=3, seed=seed)
    backward = pair_round("swiss", entrants[::-1], history, rule, round_number=3, seed=seed)
    assert forward.tables == backward.tables
    assert forward.byes == backward.byes
