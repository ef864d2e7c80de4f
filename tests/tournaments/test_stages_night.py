"""A "stages" night (groups, then a cut to a playoff bracket) through the services: it is
finished only when the playoff has its champion, never by its groups' last result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import selectors, services
from tournaments.errors import InvalidInput, NotAllowed, WrongState
from tournaments.models import Round, Stage, Tournament

pytestmark = pytest.mark.django_db


def play(round_: Round) -> None:
    """Confirm ``round_`` and give each table to its lowest registration id (then the next)."""
    services.round_confirm(round_=round_)
    for table in round_.tables.filter(is_bye=False):
        seats = [s.registration_id for s in table.seats.order_by("seat")]
        order = sorted(seats)
        services.result_enter(table=table, by=None, ranks=[order.index(r) + 1 for r in seats])


@pytest.fixture
def stages(organiser: Any, club: Any) -> Tournament:
    """Eight players of 13 Couronnes at tables of 4: two group rounds, then the top 4 play on."""
    tournament = make_tournament(
        organiser=organiser, club=club, format="stages", rounds_planned=2, cut_top=4
    )
    register_players(tournament, 8)
    return tournament


def test_a_stages_night_does_not_finish_with_its_groups(stages: Tournament) -> None:
    for _ in range(2):
        play(services.round_pair_next(tournament=stages))
    stages.refresh_from_db()
    # The groups are over, the playoff is still to come: nobody has won yet.
    assert stages.status == Tournament.Status.RUNNING
    assert stages.winner == ""

    progress = selectors.stages_progress(stages)
    assert progress is not None
    assert (progress.played, progress.planned, progress.cut_ready) == (2, 2, True)
    assert progress.top == 4


def test_the_cut_then_the_playoff_to_its_champion(stages: Tournament, organiser: Any) -> None:
    progress = selectors.stages_progress(stages)
    assert progress is not None
    assert (progress.may_split, progress.cut_ready) == (True, False)
    for _ in range(2):
        play(services.round_pair_next(tournament=stages, by=organiser))
    leader = selectors.tournament_standings(stages)[0]
    playoff = services.stage_cut(
        tournament=stages, top=4, format="single_elimination", by=organiser
    )
    assert (playoff.order, playoff.format, playoff.cut_top) == (2, "single_elimination", 4)
    assert playoff.bracket["meta"]["seeds"][0] == leader.registration
    # The playoff's rounds are the bracket's: no question about the groups' planned two.
    semis = services.round_pair_next(tournament=stages, by=organiser)
    assert (semis.number, semis.stage_id) == (3, playoff.pk)
    assert [t.seats.count() for t in semis.tables.all()] == [2, 2]
    play(semis)
    stages.refresh_from_db()
    assert stages.status == Tournament.Status.RUNNING  # the final is still to play
    final = services.round_pair_next(tournament=stages, by=organiser)
    assert final.tables.count() == 1
    play(final)
    stages.refresh_from_db()
    champion = services.bracket_current(stage=Stage.objects.get(pk=playoff.pk))
    assert champion is not None
    names = selectors.registration_names(stages)
    assert stages.status == Tournament.Status.FINISHED
    assert stages.winner == names[champion.meta["champion"]]
    progress = selectors.stages_progress(stages)
    assert progress is not None
    assert progress.playoff is not None
    assert not progress.cut_ready


def test_a_multiplayer_playoff_is_a_knockout_at_the_nights_tables(
    organiser: Any, club: Any
) -> None:
    night = make_tournament(
        organiser=organiser, club=club, format="stages", rounds_planned=1, cut_top=8
    )
    register_players(night, 12)
    play(services.round_pair_next(tournament=night))
    progress = selectors.stages_progress(night)
    assert progress is not None
    assert [value for value, _ in progress.formats] == [
        "single_elimination",
        "double_elimination",
        "knockout",
    ]
    playoff = services.stage_cut(tournament=night, top=8, format="knockout", advance=2)
    first = services.round_pair_next(tournament=night)
    assert [t.seats.count() for t in first.tables.all()] == [4, 4]
    assert first.stage_id == playoff.pk
    play(first)
    final = services.round_pair_next(tournament=night)
    assert [t.seats.count() for t in final.tables.all()] == [4]
    play(final)
    night.refresh_from_db()
    assert night.status == Tournament.Status.FINISHED
    assert night.winner


def test_groups_are_dealt_before_round_one_and_cut_by_group(
    stages: Tournament, organiser: Any
) -> None:
    with pytest.raises(NotAllowed):
        services.stage_split_groups(tournament=stages, groups=2, by=UserFactory())
    stage = services.stage_split_groups(tournament=stages, groups=2, by=organiser)
    assert sorted(set(stage.groups.values())) == ["A", "B"]
    progress = selectors.stages_progress(stages)
    assert progress is not None
    assert progress.groups == ["A", "B"]
    assert not services.stage_split_groups(tournament=stages, groups=1, by=organiser).groups
    services.stage_split_groups(tournament=stages, groups=2, by=organiser)
    for _ in range(2):
        play(services.round_pair_next(tournament=stages))
    with pytest.raises(InvalidInput, match="Group A, B has fewer than 5 players"):
        services.stage_cut(tournament=stages, top=5, format="single_elimination", by=organiser)
    playoff = services.stage_cut(
        tournament=stages, top=2, format="single_elimination", by=organiser
    )
    assert len(playoff.bracket["meta"]["seeds"]) == 4


def test_a_cut_is_refused_in_words_when_it_cannot_be_made(
    stages: Tournament, organiser: Any
) -> None:
    for _ in range(2):
        play(services.round_pair_next(tournament=stages))
    with pytest.raises(NotAllowed):
        services.stage_cut(tournament=stages, top=4, format="single_elimination", by=UserFactory())
    with pytest.raises(InvalidInput, match="Only 8 players are still playing: a cut cannot send 9"):
        services.stage_cut(tournament=stages, top=9, format="single_elimination", by=organiser)
    with pytest.raises(InvalidInput, match="at least 2 players"):
        services.stage_cut(tournament=stages, top=1, format="single_elimination", by=organiser)
    with pytest.raises(InvalidInput, match="A cut leads to a bracket"):
        services.stage_cut(tournament=stages, top=4, format="swiss", by=organiser)
    services.stage_cut(tournament=stages, top=4, format="single_elimination", by=organiser)
    with pytest.raises(WrongState, match="The cut is made"):
        services.stage_cut(tournament=stages, top=2, format="single_elimination", by=organiser)
    assert stages.stages.count() == 2


def test_other_formats_have_no_stages_progress(tournament: Tournament) -> None:
    assert selectors.stages_progress(tournament) is None
