"""Tournament services against a real database and the real pairing layer."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from events.models import Stream  # the event store: each played table gets its game
from tests.tournaments.conftest import seated, table_of
from tests.tournaments.factories import (
    GAME,
    UserFactory,
    make_player,
    make_tournament,
    register_players,
)
from tournaments import selectors, services
from tournaments.errors import InvalidInput, NotAllowed, ResultConflict, ResultsMissing, WrongState
from tournaments.models import Club, Player, Registration, Result, Round, Tournament

pytestmark = pytest.mark.django_db


def user_of(reg: Registration) -> Any:
    return reg.player.user


def play_round(round_: Round) -> None:
    """Confirm every played table of ``round_`` with ranks in seat order (seat 0 wins)."""
    for table in round_.tables.filter(is_bye=False):
        services.result_enter(table=table, by=None, ranks=list(range(1, table.seats.count() + 1)))


# -- tournaments -------------------------------------------------------------------------------
def test_a_tournament_takes_its_table_sizes_and_points_from_the_game(
    organiser: Any, club: Club
) -> None:
    tournament = services.tournament_create(
        name="Open", game_id=GAME, organiser=organiser, club=club
    )
    assert tournament.table_preferred == 4
    assert tournament.table_allowed == [3, 4, 5]
    assert tournament.points_by_rank == [4.0, 3.0, 2.0, 1.0, 0.0]
    assert tournament.bye_points == 4.0
    assert tournament.options  # every default filled in by the engine
    assert tournament.stages.count() == 1
    assert tournament.status == Tournament.Status.REGISTRATION


def test_an_unknown_game_is_refused_with_the_known_ones(organiser: Any, club: Club) -> None:
    with pytest.raises(InvalidInput, match="13-couronnes"):
        services.tournament_create(name="Open", game_id="chess", organiser=organiser, club=club)


def test_a_table_the_game_cannot_seat_is_refused(organiser: Any, club: Club) -> None:
    with pytest.raises(InvalidInput, match="2 to 5 players"):
        services.tournament_create(
            name="Open", game_id=GAME, organiser=organiser, club=club, table_allowed=[4, 6]
        )


def test_unknown_game_options_are_refused(organiser: Any, club: Club) -> None:
    with pytest.raises(InvalidInput, match="unknown option"):
        services.tournament_create(
            name="Open", game_id=GAME, organiser=organiser, club=club, options={"turbo": True}
        )


def test_unknown_tiebreakers_are_refused(organiser: Any, club: Club) -> None:
    with pytest.raises(InvalidInput, match="tie-breaker"):
        services.tournament_create(
            name="Open", game_id=GAME, organiser=organiser, club=club, tiebreakers=["luck"]
        )


# -- pairing -----------------------------------------------------------------------------------
def test_first_round_seats_every_checked_in_player_once(tournament: Tournament) -> None:
    regs = register_players(tournament, 10)
    register_players(tournament, 2, checked_in=False)
    round_ = services.round_pair_next(tournament=tournament)
    assert round_.state == Round.State.DRAFT
    assert round_.number == 1
    assert sorted(seated(round_)) == sorted(r.id for r in regs)
    sizes = [t.seats.count() for t in round_.tables.filter(is_bye=False)]
    assert sorted(sizes) == [3, 3, 4]
    assert round_.quality["repeat_pairs"] == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_a_second_draft_is_refused_while_one_is_open(tournament: Tournament) -> None:
    register_players(tournament, 8)
    services.round_pair_next(tournament=tournament)
    with pytest.raises(WrongState, match="Round 1 is still a draft"):
        services.round_pair_next(tournament=tournament)


def test_pairing_with_results_missing_names_the_tables_unless_forced(
    tournament: Tournament,
) -> None:
    register_players(tournament, 12)
    first = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=first.tables.get(number=2), by=None, ranks=[1, 2, 3, 4])
    with pytest.raises(ResultsMissing, match=r"round 1, tables 1, 3") as caught:
        services.round_pair_next(tournament=tournament)
    assert len(caught.value.extra["tables"]) == 2
    second = services.round_pair_next(tournament=tournament, force=True)
    assert second.number == 2


def test_repair_keeps_the_previous_draft(tournament: Tournament) -> None:
    register_players(tournament, 12)
    first = services.round_pair_next(tournament=tournament)
    before = [tuple(seated(first))]
    again = services.round_repair(round_=first)
    first.refresh_from_db()
    assert first.state == Round.State.SUPERSEDED
    assert [tuple(seated(first))] == before  # the old draft is still there, unchanged
    assert again.state == Round.State.DRAFT
    assert (again.number, again.attempt) == (1, 2)
    assert selectors.round_live(tournament, 1) == again
    with pytest.raises(WrongState, match="only a draft can be re-paired"):
        services.round_repair(round_=first)


def test_later_rounds_avoid_repeat_opponents(tournament: Tournament) -> None:
    register_players(tournament, 16)
    met: Counter[frozenset[int]] = Counter()
    for _ in range(3):
        round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
        for table in round_.tables.filter(is_bye=False):
            ids = [s.registration_id for s in table.seats.all()]
            met.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
        play_round(round_)
    assert max(met.values()) == 1


def test_a_round_robin_of_four_at_tables_of_two_meets_everyone_once(organiser: Any) -> None:
    tournament = make_tournament(
        organiser=organiser, format="round_robin", table_preferred=2, table_allowed=[2]
    )
    register_players(tournament, 4)
    met: Counter[frozenset[int]] = Counter()
    for _ in range(3):
        round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
        for table in round_.tables.filter(is_bye=False):
            met[frozenset(s.registration_id for s in table.seats.all())] += 1
        play_round(round_)
    assert len(met) == 6
    assert set(met.values()) == {1}


def test_a_dropped_player_is_not_paired_and_a_late_entry_is(tournament: Tournament) -> None:
    regs = register_players(tournament, 12)
    first = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    play_round(first)
    services.registration_drop(registration=regs[0])
    late = services.registration_create(tournament=tournament, player=make_player())
    assert late.checked_in
    assert late.late_entry_round == 2
    assert regs[0].dropped_after_round == 1
    second = services.round_pair_next(tournament=tournament)
    assert regs[0].id not in seated(second)
    assert late.id in seated(second)
    assert len(seated(second)) == 12


def test_a_draft_that_seats_a_dropped_player_cannot_be_confirmed(
    tournament: Tournament,
) -> None:
    regs = register_players(tournament, 8)
    draft = services.round_pair_next(tournament=tournament)
    services.registration_drop(registration=regs[0])
    with pytest.raises(WrongState, match=f"{regs[0].player.display_name} is not an active entrant"):
        services.round_confirm(round_=draft)
    again = services.round_repair(round_=draft)
    assert regs[0].id not in seated(again)
    assert services.round_confirm(round_=again).state == Round.State.CONFIRMED


def test_a_hand_edit_warns_with_names_and_a_broken_draw_cannot_be_confirmed(
    tournament: Tournament,
) -> None:
    regs = register_players(tournament, 8)
    first = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    play_round(first)
    a_table = first.tables.get(number=1)
    met = [s.registration_id for s in a_table.seats.all()]
    second = services.round_pair_next(tournament=tournament)
    target = table_of(second, Registration.objects.get(pk=met[0]))
    at_target = [s.registration_id for s in target.seats.all()]
    partner = next(m for m in met[1:] if m not in at_target)  # met met[0] in round 1
    others = [r for r in at_target if r != met[0]]
    edit = services.table_edit(table=target, registrations=[met[0], partner, *others[:2]])
    names = {r.id: r.player.display_name for r in regs}
    repeats = [w["text"] for w in edit.warnings if w["code"] == "repeat"]
    wanted = [t for t in repeats if names[met[0]] in t and names[partner] in t]
    assert wanted, edit.warnings
    assert wanted[0].endswith("in round 1")
    codes = {w["code"] for w in edit.warnings}
    assert "seated_twice" in codes  # met[1] still sits at their own table too
    assert "missing" in codes  # the player pushed out of the table sits nowhere
    with pytest.raises(WrongState, match="cannot be confirmed"):
        services.round_confirm(round_=second)
    assert Round.objects.get(pk=second.pk).state == Round.State.DRAFT


def test_an_emptied_table_is_removed_at_confirm_and_tables_renumbered(
    tournament: Tournament,
) -> None:
    register_players(tournament, 12)
    draft = services.round_pair_next(tournament=tournament)
    first = draft.tables.get(number=1)
    moved = [s.registration_id for s in first.seats.all()]
    extra = services.table_add(round_=draft)
    services.table_edit(table=first, registrations=[])
    edit = services.table_edit(table=extra, registrations=moved)
    assert not [w for w in edit.warnings if w["code"] in services.BLOCKING_WARNINGS]
    confirmed = services.round_confirm(round_=draft)
    numbers = sorted(confirmed.tables.values_list("number", flat=True))
    assert numbers == [1, 2, 3]
    assert sorted(seated(confirmed)) == sorted(r.id for r in tournament.registrations.all())


def test_tables_are_edited_only_in_a_draft(tournament: Tournament) -> None:
    register_players(tournament, 8)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    table = round_.tables.first()
    assert table is not None
    with pytest.raises(WrongState, match="only in a draft"):
        services.table_edit(table=table, registrations=[])


def test_release_needs_a_confirmed_round(tournament: Tournament) -> None:
    register_players(tournament, 8)
    round_ = services.round_pair_next(tournament=tournament)
    with pytest.raises(WrongState, match="only a confirmed round can be released"):
        services.round_release(round_=round_)
    services.round_confirm(round_=round_)
    released = services.round_release(round_=round_)
    assert released.state == Round.State.RELEASED

    for table in released.tables.filter(is_bye=False):
        stream = Stream.objects.get(pk=table.stream_id)
        assert stream.game == GAME
        assert stream.players == table.seats.count()
        assert stream.context["tournament_table"] == table.pk


# -- results -----------------------------------------------------------------------------------
@pytest.fixture
def table(tournament: Tournament) -> Any:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    return round_.tables.get(is_bye=False)


def seat_users(table: Any) -> list[Any]:
    return [
        s.registration.player.user for s in table.seats.select_related("registration__player__user")
    ]


def test_a_report_confirmed_by_every_seated_player_counts(table: Any) -> None:
    users = seat_users(table)
    result = services.result_report(table=table, by=users[0], ranks=[2, 1, 3, 4])
    assert result.status == Result.Status.SUBMITTED
    for user in users[1:3]:
        result = services.result_confirm(result=result, by=user)
        assert result.status == Result.Status.SUBMITTED
    result = services.result_confirm(result=result, by=users[3])
    assert result.status == Result.Status.CONFIRMED
    assert selectors.table_confirmed_result(table) == result
    with pytest.raises(ResultConflict, match="ask the organiser"):
        services.result_report(table=table, by=users[1], ranks=[1, 2, 3, 4])


def test_the_same_report_from_another_player_is_a_confirmation(table: Any) -> None:
    users = seat_users(table)
    first = services.result_report(table=table, by=users[0], ranks=[1, 2, 2, 4])
    again = services.result_report(table=table, by=users[1], ranks=[1, 2, 2, 4])
    assert again.pk == first.pk
    assert again.confirmations.count() == 2


def test_conflicting_reports_wait_for_the_organiser(table: Any, organiser: Any) -> None:
    users = seat_users(table)
    first = services.result_report(table=table, by=users[0], ranks=[1, 2, 3, 4])
    second = services.result_report(table=table, by=users[1], ranks=[2, 1, 3, 4])
    first.refresh_from_db()
    assert (first.status, second.status) == (Result.Status.CONFLICT, Result.Status.CONFLICT)
    with pytest.raises(WrongState, match="only a submitted result"):
        services.result_confirm(result=first, by=users[2])
    with pytest.raises(InvalidInput, match="say why you change it"):
        services.result_enter(table=table, by=organiser, ranks=[2, 1, 3, 4])
    final = services.result_enter(
        table=table, by=organiser, ranks=[2, 1, 3, 4], reason="Seen the score sheet"
    )
    assert final.status == Result.Status.CONFIRMED
    assert final.version == 3
    statuses = list(table.results.order_by("version").values_list("status", flat=True))
    assert statuses == ["discarded", "discarded", "confirmed"]
    # every version keeps the ranks it was reported with
    assert list(table.results.order_by("version").values_list("ranks", flat=True)) == [
        [1, 2, 3, 4],
        [2, 1, 3, 4],
        [2, 1, 3, 4],
    ]


def test_only_a_seated_player_reports(table: Any) -> None:
    with pytest.raises(NotAllowed, match="seated at table"):
        services.result_report(table=table, by=UserFactory(), ranks=[1, 2, 3, 4])


@pytest.mark.parametrize(
    ("ranks", "why"),
    [([1, 2, 3], "one rank per seat"), ([1, 1, 2, 3], "ties sharing"), ([0, 1, 2, 3], "1-based")],
)
def test_ranks_that_do_not_add_up_are_refused(table: Any, ranks: list[int], why: str) -> None:
    with pytest.raises(InvalidInput, match=why):
        services.result_report(table=table, by=seat_users(table)[0], ranks=ranks)
    assert not table.results.exists()


def test_result_from_a_table_without_stream_is_refused(table: Any) -> None:
    with pytest.raises(WrongState, match="no game stream"):
        services.result_from_stream(table=table)


# -- standings ---------------------------------------------------------------------------------
def test_standings_count_points_by_rank_ties_and_byes(tournament: Tournament) -> None:
    regs = register_players(tournament, 5)  # one table of 5
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    table = round_.tables.get(is_bye=False)
    order = [s.registration_id for s in table.seats.all()]
    services.result_enter(table=table, by=None, ranks=[1, 2, 2, 4, 5], scores=[9, 7, 7, 3, 1])
    lines = {line.registration: line for line in selectors.tournament_standings(tournament)}
    # points (4, 2, 1, 0, 0): the tie for 2nd shares (2 + 1) / 2
    assert [lines[r].points for r in order] == [4.0, 1.5, 1.5, 0.0, 0.0]
    assert [lines[r].rank for r in order] == [1, 2, 2, 4, 5]
    assert {line.registration for line in lines.values()} == {r.id for r in regs}


# -- CSV import --------------------------------------------------------------------------------
CSV = """display_name,username,email,club,seed
Alice Martin,alice,alice@example.org,Les Pions,1
Bruno Petit,bruno,,Les Pions,2
Chloé Durand,chloe,chloe@example.org,,
"""


def test_csv_import_creates_players_and_registrations(tournament: Tournament) -> None:
    regs = services.players_import_csv(tournament=tournament, text=CSV)
    assert [r.player.display_name for r in regs] == ["Alice Martin", "Bruno Petit", "Chloé Durand"]
    assert [r.seed for r in regs] == [1, 2, 0]
    assert regs[0].player.club is not None
    assert regs[0].player.club.name == "Les Pions"
    assert regs[2].player.club is None


def test_a_bad_csv_imports_nothing_and_names_every_bad_line(tournament: Tournament) -> None:
    bad = CSV + "Denis,,d@example.org,,\nEve,alice,,,x\nFay,fay,not-an-email,,\nGil,g il,,,\n"
    with pytest.raises(InvalidInput) as caught:
        services.players_import_csv(tournament=tournament, text=bad)
    message = str(caught.value)
    assert "Nothing was imported" in message
    assert "line 5: display_name and username are both required" in message
    assert "line 6: the username 'alice' appears twice" in message
    assert "line 7: 'not-an-email' is not an e-mail address" in message
    assert "line 8: the username 'g il' may only hold letters" in message
    assert not Player.objects.exists()
    assert not tournament.registrations.exists()


def test_a_csv_without_the_header_is_refused(tournament: Tournament) -> None:
    with pytest.raises(InvalidInput, match="header"):
        services.players_import_csv(tournament=tournament, text="Alice,alice\n")


def test_a_finished_tournament_takes_no_players(tournament: Tournament) -> None:
    services.tournament_finish(tournament=tournament)
    with pytest.raises(WrongState, match="finished"):
        services.registration_create(tournament=tournament, player=make_player())


def test_factory_tournament_is_swiss_of_four(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser)
    assert tournament.format == "swiss"
    assert services.table_rule(tournament).allowed == (3, 4, 5)
