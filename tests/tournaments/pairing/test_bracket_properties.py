"""Property tests of brackets and standings over many field sizes and random results."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.test_brackets import play_out, upsets
from tournaments.pairing import (
    GameRecord,
    StandingRule,
    bracket_champion,
    double_elimination,
    knockout,
    single_elimination,
    standings,
)


@settings(max_examples=40, deadline=None)
@given(entrants=st.integers(min_value=2, max_value=70), seed=st.text(max_size=4))
def test_single_elimination_always_ends_with_one_champion_who_never_lost(
    entrants: int, seed: str
) -> None:
    seeds = list(range(100, 100 + entrants))
    done = play_out(single_elimination(seeds), upsets(seed))
    champion = bracket_champion(done)
    assert champion in seeds
    losers = [m.result[1] for m in done.matches if m.result is not None and len(m.result) == 2]
    assert sorted(losers) == sorted(e for e in seeds if e != champion)


@settings(max_examples=30, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=40), seed=st.text(max_size=4), reset=st.booleans()
)
def test_double_elimination_always_finishes(entrants: int, seed: str, reset: bool) -> None:
    seeds = list(range(1, entrants + 1))
    done = play_out(double_elimination(seeds, reset=reset), upsets(seed))
    assert all(m.result is not None for m in done.matches)
    losses = Counter(m.result[1] for m in done.matches if m.result and len(m.result) == 2)
    assert max(losses.values()) <= 2
    assert bracket_champion(done) in seeds


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=80),
    table_size=st.integers(min_value=3, max_value=7),
    data=st.data(),
)
def test_knockout_always_reaches_one_final_table(
    entrants: int, table_size: int, data: st.DataObject
) -> None:
    advance = data.draw(st.integers(min_value=1, max_value=table_size // 2))
    done = play_out(
        knockout(list(range(1, entrants + 1)), table_size=table_size, advance=advance),
        upsets(str(entrants)),
    )
    final = done.match(str(done.meta["final"]))
    assert final.result is not None
    assert 1 <= len(final.entrants) <= table_size
    assert bracket_champion(done) == final.result[0]


@settings(max_examples=60, deadline=None)
@given(
    games=st.lists(
        st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=4),
        max_size=12,
    ),
    byes=st.integers(min_value=0, max_value=3),
)
def test_shared_places_keep_the_points_handed_out(games: list[list[int]], byes: int) -> None:
    """However ranks tie, a game hands out exactly the points of its places."""
    rule = StandingRule(points_by_rank=(5, 3, 1, 0), bye_points=2, tiebreakers=("wins",))
    records = [
        GameRecord(
            table=tuple(range(10 * n, 10 * n + len(ranks))),
            ranks=tuple(_competition_ranks(ranks)),
        )
        for n, ranks in enumerate(games)
    ]
    records += [GameRecord(table=(1000 + b,), ranks=(1,), bye=True) for b in range(byes)]
    everyone = sorted({e for r in records for e in r.table})
    rows = standings(everyone, records, rule)
    expected = sum(sum((5, 3, 1, 0)[: len(g)]) for g in games) + 2 * byes
    assert abs(sum(r.points for r in rows) - expected) < 1e-9
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def _competition_ranks(scores: list[int]) -> list[int]:
    """1-based ranks with shared places ("1, 2, 2, 4") from arbitrary finishing scores."""
    return [1 + sum(other < mine for other in scores) for mine in scores]
