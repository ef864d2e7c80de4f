"""Results as a stream per table: reports, confirmations, disagreements, the organiser's
entries, corrections and decisions, a Herald table reporting itself, and the tournament's end."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from tests.api import client_for
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import selectors, services
from tournaments.errors import InvalidInput, NotAllowed, WrongState
from tournaments.models import Result, ResultEvent, Table, Tournament


def seat_users(table: Table) -> list[Any]:
    return [
        s.registration.player.user
        for s in table.seats.select_related("registration__player__user").order_by("seat")
    ]


def kinds(table: Table) -> list[str]:
    return list(table.result_events.order_by("seq").values_list("kind", flat=True))


@pytest.fixture
def three(organiser: Any, club: Any) -> Tournament:
    """One round planned, tables of three, three players: one table."""
    tournament = make_tournament(
        organiser=organiser,
        club=club,
        table_preferred=3,
        table_allowed=(3,),
        points_by_rank=(3, 1, 0),
        rounds_planned=1,
    )
    register_players(tournament, 3)
    return tournament


@pytest.fixture
def table(three: Tournament) -> Table:
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=three))
    return round_.tables.get()


def test_every_fact_is_appended_in_order(table: Table, organiser: Any) -> None:
    a, b, c = seat_users(table)
    result = services.result_report(table=table, by=a, ranks=[2, 1, 3])
    services.result_confirm(result=result, by=b)
    services.result_disagree(result=result, by=c, reason="I came second")
    services.result_decide(result=result, by=organiser, reason="Seen the score sheet")
    assert kinds(table) == ["reported", "confirmed", "disagreed", "decided"]
    assert list(table.result_events.order_by("seq").values_list("seq", flat=True)) == [1, 2, 3, 4]
    decided = table.result_events.get(kind="decided")
    assert (decided.by, decided.reason, decided.ranks) == (
        organiser,
        "Seen the score sheet",
        [2, 1, 3],
    )
    assert table.result_events.get(kind="disagreed").reason == "I came second"
    assert selectors.table_confirmed_result(table).ranks == [2, 1, 3]


def test_a_disagreement_goes_to_the_organiser(table: Table) -> None:
    a, b, c = seat_users(table)
    result = services.result_report(table=table, by=a, ranks=[1, 2, 3])
    disputed = services.result_disagree(result=result, by=c)
    assert disputed.status == Result.Status.CONFLICT
    with pytest.raises(WrongState, match="only a submitted result can be confirmed"):
        services.result_confirm(result=result, by=b)
    assert selectors.tables_missing_results(table.round.tournament) == [table]


def test_who_agreed_cannot_then_disagree(table: Table) -> None:
    a = seat_users(table)[0]
    result = services.result_report(table=table, by=a, ranks=[1, 2, 3])
    with pytest.raises(WrongState, match="already agreed"):
        services.result_disagree(result=result, by=a)
    with pytest.raises(NotAllowed, match="seated at table"):
        services.result_disagree(result=result, by=UserFactory())
    assert kinds(table) == ["reported"]


def test_a_correction_needs_its_reason(table: Table, organiser: Any) -> None:
    first = services.result_enter(table=table, by=organiser, ranks=[1, 2, 3])
    assert kinds(table) == ["entered"]  # nothing was reported: no reason needed
    for blank in ("", "   "):
        with pytest.raises(InvalidInput, match="say why you change it"):
            services.result_enter(table=table, by=organiser, ranks=[3, 2, 1], reason=blank)
    with pytest.raises(InvalidInput, match="under 500"):
        services.result_enter(table=table, by=organiser, ranks=[3, 2, 1], reason="x" * 501)
    assert kinds(table) == ["entered"]  # a refusal writes nothing
    services.result_enter(table=table, by=organiser, ranks=[3, 2, 1], reason="Sheet misread")
    first.refresh_from_db()
    assert first.status == Result.Status.DISCARDED
    assert kinds(table) == ["entered", "corrected"]
    assert table.result_events.get(kind="corrected").reason == "Sheet misread"


def test_only_the_organiser_corrects(table: Table) -> None:
    a, _, _ = seat_users(table)
    with pytest.raises(NotAllowed, match="organisers"):
        services.result_enter(table=table, by=a, ranks=[1, 2, 3], reason="I say so")


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_edit_or_delete_the_stream(table: Table, organiser: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the trigger is PostgreSQL's; SQLite keeps the model's refusals only")
    services.result_enter(table=table, by=organiser, ranks=[1, 2, 3])
    event = table.result_events.get()
    with pytest.raises(ValueError, match="never changed"):
        event.save()
    with pytest.raises(ValueError, match="never deleted"):
        event.delete()
    for sql in (
        "UPDATE tournaments_resultevent SET reason = 'edited' WHERE id = %s",
        "DELETE FROM tournaments_resultevent WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [event.pk])
    assert ResultEvent.objects.get(pk=event.pk).reason == ""


def test_the_last_result_finishes_the_tournament_and_reopen_runs_it_again(
    table: Table, organiser: Any
) -> None:
    tournament = table.round.tournament
    a, b, c = seat_users(table)
    result = services.result_report(table=table, by=a, ranks=[1, 2, 3])
    services.result_confirm(result=result, by=b)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # one seat has not confirmed yet
    services.result_confirm(result=result, by=c)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert services.tournament_winner(tournament) == a.player.display_name
    with pytest.raises(NotAllowed):
        services.tournament_reopen(tournament=tournament, by=a)
    services.tournament_reopen(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(WrongState, match="not finished"):
        services.tournament_reopen(tournament=tournament, by=organiser)
    # a correction once reopened finishes it again: the last result is still in
    services.result_enter(table=table, by=organiser, ranks=[2, 1, 3], reason="Swapped names")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert services.tournament_winner(tournament) == b.player.display_name


def test_players_tied_first_are_all_named_the_winners(table: Table, organiser: Any) -> None:
    """Tied winners are joined by " & " (what the whole-night browser test splits on)."""
    a, b, _ = seat_users(table)
    services.result_enter(table=table, by=organiser, ranks=[1, 1, 3])
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    assert tournament.status == Tournament.Status.FINISHED
    names = {a.player.display_name, b.player.display_name}
    assert set(tournament.winner.split(" & ")) == names
    assert len(tournament.winner.split(" & ")) == 2


def test_a_tournament_with_rounds_to_play_does_not_finish(organiser: Any, club: Any) -> None:
    tournament = make_tournament(organiser=organiser, club=club, rounds_planned=2)
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=round_.tables.get(), by=organiser, ranks=[1, 2, 3, 4])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_more_rounds_planned_in_the_settings_are_played_before_the_finish(
    organiser: Any, club: Any
) -> None:
    tournament = make_tournament(organiser=organiser, club=club, rounds_planned=1)
    register_players(tournament, 4)
    services.tournament_update(tournament=tournament, rounds_planned=2)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=round_.tables.get(), by=organiser, ranks=[1, 2, 3, 4])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # round 2 of 2 is still to come
    assert tournament.stages.get().rounds_planned == 2


def test_a_bracket_with_a_champion_finishes(organiser: Any, club: Any) -> None:
    tournament = make_tournament(
        organiser=organiser,
        club=club,
        format="single_elimination",
        table_preferred=None,
        table_allowed=None,
    )
    register_players(tournament, 2)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    services.result_enter(table=table, by=organiser, ranks=[2, 1])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    winner = table.seats.get(seat=1).registration.player.display_name
    assert services.tournament_winner(tournament) == winner


def test_the_api_disagrees_and_lists_the_stream(table: Table, organiser: Any) -> None:
    a, b, _ = seat_users(table)
    result = services.result_report(table=table, by=a, ranks=[1, 2, 3])
    answer = client_for(b).post(f"/api/v1/results/{result.pk}/disagree", {"reason": "No"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "conflict"
    again = client_for(b).post(f"/api/v1/results/{result.pk}/disagree", {})
    assert again.status_code == 409
    events = client_for(organiser).get(f"/api/v1/tables/{table.pk}/results/events").json()
    assert [(e["seq"], e["kind"], e["reason"]) for e in events] == [
        (1, "reported", ""),
        (2, "disagreed", "No"),
    ]
    assert events[0]["by"] == a.username
