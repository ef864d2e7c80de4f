"""Bracket formats through the services and the API: rounds come from the bracket's ready matches."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import make_tournament, register_players
from tournaments import selectors, services
from tournaments.errors import InvalidInput, WrongState
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


def finish_round(round_: Round, winner: Any = min) -> None:
    """Confirm the round and give each table to ``winner`` of its registration ids (the
    lower id wins by default, so the results are known in advance)."""
    services.round_confirm(round_=round_)
    for table in round_.tables.filter(is_bye=False):
        seats = [s.registration_id for s in table.seats.all()]
        order = sorted(seats, key=lambda reg: reg if winner is min else -reg)
        ranks = [order.index(reg) + 1 for reg in seats]
        services.result_enter(table=table, by=None, ranks=ranks)


def test_single_elimination_plays_to_a_champion(organiser: Any) -> None:
    tournament = make_tournament(
        organiser=organiser, format="single_elimination", table_preferred=None, table_allowed=None
    )
    assert (tournament.table_preferred, tournament.table_allowed) == (2, [2])
    regs = register_players(tournament, 6)  # seeds 1..6: seeds 1 and 2 get the byes
    first = services.round_pair_next(tournament=tournament)
    tables = [sorted(s.registration_id for s in t.seats.all()) for t in first.tables.all()]
    seeds = {reg.id: reg.seed for reg in regs}
    assert sorted(sorted(seeds[r] for r in t) for t in tables) == [[3, 6], [4, 5]]
    assert all(t.match_id for t in first.tables.all())
    finish_round(first)
    for _ in range(2):  # semi-finals, then the final
        finish_round(services.round_pair_next(tournament=tournament))
    with pytest.raises(WrongState, match="The bracket is complete"):
        services.round_pair_next(tournament=tournament)
    rounds = tournament.rounds.count()
    assert rounds == 3  # 6 players: first round, semi-finals, final
    stage = tournament.stages.get()
    bracket = services.bracket_current(stage=stage)
    assert bracket is not None
    assert bracket.meta["champion"] == min(r.id for r in regs)


def test_a_two_player_bracket_needs_tables_of_two(organiser: Any) -> None:
    with pytest.raises(InvalidInput, match="tables of 2"):
        make_tournament(organiser=organiser, format="double_elimination", table_preferred=4)


def test_a_tie_for_the_place_that_goes_on_is_refused(organiser: Any) -> None:
    tournament = make_tournament(
        organiser=organiser, format="single_elimination", table_preferred=None, table_allowed=None
    )
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    for table in round_.tables.all():
        services.result_enter(table=table, by=None, ranks=[1, 1])
    with pytest.raises(InvalidInput, match="tied at the place that decides"):
        services.round_pair_next(tournament=tournament)


def test_a_multiplayer_knockout_sends_the_top_two_of_each_table_on(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser, format="knockout")
    regs = register_players(tournament, 16)
    stage = tournament.stages.get()
    stage.advance = 2
    stage.save()
    first = services.round_pair_next(tournament=tournament)
    assert [t.seats.count() for t in first.tables.all()] == [4, 4, 4, 4]
    finish_round(first)
    second = services.round_pair_next(tournament=tournament)
    through = sorted(s.registration_id for t in second.tables.all() for s in t.seats.all())
    expected = sorted(
        reg
        for t in first.tables.all()
        for reg in sorted(s.registration_id for s in t.seats.all())[:2]
    )
    assert through == expected
    assert len(through) == 8
    assert {r.id for r in regs} >= set(through)


def test_swiss_then_a_cut_to_the_top_four(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser)
    register_players(tournament, 8)
    for _ in range(2):
        finish_round(services.round_pair_next(tournament=tournament))
    top = [line.registration for line in _standings(tournament)[:4]]
    stage = services.stage_cut(tournament=tournament, top=4, format="single_elimination")
    assert stage.order == 2
    assert stage.bracket["meta"]["seeds"] == top
    semi = services.round_pair_next(tournament=tournament)
    assert semi.stage == stage
    pairs = sorted(sorted(s.registration_id for s in t.seats.all()) for t in semi.tables.all())
    assert pairs == sorted([sorted([top[0], top[3]]), sorted([top[1], top[2]])])


def _standings(tournament: Tournament) -> list[Any]:
    return selectors.tournament_standings(tournament)


def test_the_stages_endpoint_serves_the_bracket(organiser: Any) -> None:
    tournament = make_tournament(
        organiser=organiser, format="single_elimination", table_preferred=None, table_allowed=None
    )
    register_players(tournament, 4)
    finish_round(services.round_pair_next(tournament=tournament))
    client = APIClient()
    stages = client.get(f"/api/v1/tournaments/{tournament.pk}/stages").json()
    bracket = stages[0]["bracket"]
    assert bracket["kind"] == "single_elimination"
    first_round = bracket["rounds"][0]["matches"]
    assert all(m["result"] is not None for m in first_round)
    final = bracket["rounds"][-1]["matches"][0]
    assert None not in final["slots"]  # both finalists known from the confirmed results
    winners = {m["result"][0] for m in first_round}
    assert set(final["slots"]) == winners
    assert Registration.objects.filter(pk__in=winners).count() == 2


def test_groups_then_a_cut_of_the_best_two_of_each(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser)
    regs = register_players(tournament, 16)
    client = APIClient()
    client.force_authenticate(organiser)
    stage = client.post(
        f"/api/v1/tournaments/{tournament.pk}/groups", {"groups": 2}, format="json"
    ).json()
    group_of = {int(reg): name for reg, name in stage["groups"].items()}
    assert sorted(group_of) == sorted(r.id for r in regs)
    assert sorted(group_of.values()).count("A") == 8
    # snake seeding: seeds 1 and 4 in group A, seeds 2 and 3 in group B
    by_seed = {r.seed: r.id for r in regs}
    assert (group_of[by_seed[1]], group_of[by_seed[2]]) == ("A", "B")
    assert (group_of[by_seed[3]], group_of[by_seed[4]]) == ("B", "A")
    for _ in range(2):
        round_ = services.round_pair_next(tournament=tournament)
        for table in round_.tables.all():
            assert len({group_of[s.registration_id] for s in table.seats.all()}) == 1
        finish_round(round_)
    lines = _standings(tournament)
    assert {line.group for line in lines} == {"A", "B"}
    best = {name: [line.registration for line in lines if line.group == name][:2] for name in "AB"}
    with pytest.raises(WrongState, match="has begun"):
        services.stage_split_groups(tournament=tournament, groups=2)
    playoff = services.stage_cut(tournament=tournament, top=2, format="single_elimination")
    seeds = playoff.bracket["meta"]["seeds"]
    assert set(seeds[:2]) == {best["A"][0], best["B"][0]}  # group winners seeded first
    assert set(seeds[2:]) == {best["A"][1], best["B"][1]}


def test_a_stages_tournament_opens_with_swiss_groups(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser, format="stages")
    stage = tournament.stages.get()
    assert (stage.name, stage.format) == ("Groups", "swiss")
    register_players(tournament, 8)
    services.stage_split_groups(tournament=tournament, groups=2)
    round_ = services.round_pair_next(tournament=tournament)
    assert round_.tables.count() == 2
