"""Season ranking: placement points by final place over a club's tournaments (pure)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.pairing.seasons import (
    SeasonTournament,
    parse_points,
    placement_points,
    season_ranking,
)
from tournaments.pairing.types import PairingError

POINTS = (10, 7, 5, 3, 1)


def test_ties_share_or_take_the_higher_place() -> None:
    places = {1: 1, 2: 2, 3: 2, 4: 4, 5: 5, 6: 6}
    assert placement_points(places, POINTS) == {1: 10, 2: 6, 3: 6, 4: 3, 5: 1, 6: 0}
    assert placement_points(places, POINTS, "higher") == {1: 10, 2: 7, 3: 7, 4: 3, 5: 1, 6: 0}


def test_a_season_ranks_by_points_then_countback_then_tournaments_played() -> None:
    rows = season_ranking(
        [
            SeasonTournament(1, {1: 1, 2: 2, 3: 3}),
            SeasonTournament(2, {2: 1, 4: 1, 1: 3}),  # 2 and 4 share 1st: (10 + 7) / 2 each
        ],
        POINTS,
    )
    got = {r.player: (r.points, r.played, r.best) for r in rows}
    assert got[1] == (10 + 5, 2, 1)
    assert got[2] == (7 + 8.5, 2, 1)
    assert got[4] == (8.5, 1, 1)
    assert got[3] == (5, 1, 3)
    assert [r.player for r in rows] == [2, 1, 4, 3]
    assert [e.tournament for e in rows[0].entries] == [1, 2]


def test_level_players_are_split_by_countback_then_share_the_rank() -> None:
    rows = season_ranking(
        [SeasonTournament(1, {1: 1, 2: 3, 3: 4}), SeasonTournament(2, {2: 2, 3: 2, 1: 5})],
        (10, 8, 6, 4, 0),
    )
    by_player = {r.player: r for r in rows}
    assert by_player[1].points == 10  # 1st, then 5th (0)
    assert by_player[2].points == 6 + 7 == 13
    assert by_player[3].points == 4 + 7 == 11
    assert [r.player for r in rows] == [2, 3, 1]
    level = season_ranking(
        [SeasonTournament(1, {1: 1, 2: 2}), SeasonTournament(2, {2: 1, 1: 2})], POINTS
    )
    assert [(r.rank, r.player) for r in level] == [(1, 1), (1, 2)]


@pytest.mark.parametrize(
    ("text", "points"),
    [("10/7/5/3/1", (10, 7, 5, 3, 1)), ("10, 7, 5", (10, 7, 5)), (" 3 2.5 ", (3, 2.5))],
)
def test_points_are_typed_with_slashes_commas_or_spaces(text: str, points: tuple[float]) -> None:
    assert parse_points(text) == points


@pytest.mark.parametrize("text", ["", "ten", "1/2/3", "5/-1", "5/x/1"])
def test_bad_points_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(PairingError):
        parse_points(text)


def test_an_unknown_tie_rule_is_refused() -> None:
    with pytest.raises(PairingError, match="tie rule"):
        season_ranking([], POINTS, "coin")


points_lists = st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=6).map(
    lambda xs: tuple(sorted(xs, reverse=True))
)


@st.composite
def final_places(draw: st.DrawFn, tournament: int) -> SeasonTournament:
    """A tournament's final places with ties: standings ranks (1, 2, 2, 4, ...)."""
    players = draw(st.lists(st.integers(1, 12), min_size=1, max_size=8, unique=True))
    scores = draw(st.lists(st.integers(0, 3), min_size=len(players), max_size=len(players)))
    places = {
        p: 1 + sum(1 for s in scores if s > mine) for p, mine in zip(players, scores, strict=True)
    }
    return SeasonTournament(tournament, places)


seasons = st.integers(0, 5).flatmap(
    lambda n: st.tuples(*[final_places(i) for i in range(n)]) if n else st.just(())
)


@settings(max_examples=150, deadline=None)
@given(tournaments=seasons, points=points_lists, rule=st.sampled_from(["share", "higher"]))
@example(  # thirds summed in two orders: 3.6666666666666665 and 3.666666666666667 (CI, 12-06)
    tournaments=(
        SeasonTournament(0, {1: 4, 2: 4, 3: 1, 4: 1, 5: 1}),
        SeasonTournament(1, {1: 4, 2: 4, 3: 4, 4: 1, 5: 1, 6: 1}),
    ),
    points=(5, 3, 3, 3, 1, 1),
    rule="share",
)
def test_the_ranking_adds_up(
    tournaments: tuple[SeasonTournament, ...], points: tuple[int, ...], rule: str
) -> None:
    rows = season_ranking(tournaments, points, rule)
    everyone = {p for t in tournaments for p in t.places}
    assert {r.player for r in rows} == everyone
    for row in rows:
        mine = [t for t in tournaments if row.player in t.places]
        assert row.played == len(mine) == len(row.entries)
        assert row.best == min(t.places[row.player] for t in mine)
        assert row.points == pytest.approx(sum(e.points for e in row.entries))
    # Best first; ranks start at 1, never go down, and a shared rank means equal points.
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert all(r.rank == i + 1 or r.rank == rows[i - 1].rank for i, r in enumerate(rows))
    assert all(a.points == b.points for a, b in itertools.pairwise(rows) if a.rank == b.rank)
    if rule == "share":  # sharing hands out exactly the points of the places occupied
        for t in tournaments:
            given_out = sum(placement_points(t.places, points).values())
            worth = sum(points[i] if i < len(points) else 0 for i in range(len(t.places)))
            assert given_out == pytest.approx(worth)


@settings(max_examples=60, deadline=None)
@given(tournaments=seasons, points=points_lists, data=st.data())
def test_the_order_of_the_tournaments_does_not_change_the_ranking(
    tournaments: tuple[SeasonTournament, ...], points: tuple[int, ...], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(tournaments))
    first = [(r.rank, r.player, r.points) for r in season_ranking(tournaments, points)]
    again = [(r.rank, r.player, r.points) for r in season_ranking(shuffled, points)]
    assert [(a[0], a[1]) for a in first] == [(a[0], a[1]) for a in again]
    assert [a[2] for a in first] == pytest.approx([a[2] for a in again])
