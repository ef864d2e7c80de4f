"""The services of the round as the organiser runs it: swaps, moves, fixed tables, Herald or
paper tables, the planned number of rounds. Each refusal leaves the round as it was."""

from __future__ import annotations

from typing import Any

import pytest

from events.models import Stream
from tests.tournaments.console.rounds_helpers import codes, layout, play_round, table_at
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import selectors, services
from tournaments.errors import BeyondPlanned, InvalidInput, NotAllowed, WrongState
from tournaments.models import Club, Round, TableMode, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def nine(organiser: Any, club: Club) -> Tournament:
    """Nine players at tables of 3: round 2 can avoid every repeat, a swap can make one."""
    tournament = make_tournament(
        organiser=organiser, club=club, table_preferred=3, table_allowed=(3,), rounds_planned=3
    )
    register_players(tournament, 9)
    return tournament


def test_two_players_at_two_tables_trade_tables_and_seats(nine: Tournament, organiser: Any) -> None:
    round_ = services.round_pair_next(tournament=nine, by=organiser)
    before = layout(round_)
    a, b = before[0][1], before[2][0]
    services.round_swap(round_=round_, first=a, second=b, by=organiser)
    after = layout(round_)
    assert after[0][1] == b
    assert after[2][0] == a
    assert after[1] == before[1]


def test_two_players_of_one_table_trade_seats(nine: Tournament, organiser: Any) -> None:
    round_ = services.round_pair_next(tournament=nine, by=organiser)
    first, _, last = layout(round_)[1]
    services.round_swap(round_=round_, first=first, second=last, by=organiser)
    assert layout(round_)[1][0] == last
    assert layout(round_)[1][2] == first


def test_a_swap_recomputes_the_warnings(nine: Tournament, organiser: Any) -> None:
    play_round(services.round_pair_next(tournament=nine, by=organiser))
    second = services.round_pair_next(tournament=nine, by=organiser)
    assert "repeat" not in codes(second.warnings)  # nine at tables of 3 meet new people
    earlier = layout(Round.objects.get(tournament=nine, number=1))
    mates = {reg: set(table) - {reg} for table in earlier for reg in table}
    tables = layout(second)
    # Someone of table 2 who shared a round-1 table with someone at table 1 joins them there.
    a, b = next((a, b) for b in tables[1] for a in tables[0] if mates[b] & (set(tables[0]) - {a}))
    warnings = services.round_swap(round_=second, first=a, second=b, by=organiser)
    assert "repeat" in codes(warnings)
    second.refresh_from_db()
    assert second.warnings == warnings
    assert second.quality["repeat_pairs"] >= 1  # the figures follow the hand edit too


def test_a_swap_in_a_confirmed_round_is_refused(nine: Tournament, organiser: Any) -> None:
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=nine))
    before = layout(round_)
    with pytest.raises(WrongState, match="only in a draft"):
        services.round_swap(round_=round_, first=before[0][0], second=before[1][0], by=organiser)
    assert layout(round_) == before


def test_a_swap_by_someone_who_does_not_run_the_tournament_is_refused(nine: Tournament) -> None:
    round_ = services.round_pair_next(tournament=nine)
    before = layout(round_)
    with pytest.raises(NotAllowed):
        services.round_swap(
            round_=round_, first=before[0][0], second=before[1][0], by=UserFactory()
        )
    assert layout(round_) == before


def test_a_swap_needs_two_seated_players(nine: Tournament, organiser: Any) -> None:
    round_ = services.round_pair_next(tournament=nine)
    seated = layout(round_)[0][0]
    with pytest.raises(InvalidInput, match="two different players"):
        services.round_swap(round_=round_, first=seated, second=seated, by=organiser)
    late = register_players(nine, 1, checked_in=False)[0]
    with pytest.raises(InvalidInput, match="has no seat"):
        services.round_swap(round_=round_, first=seated, second=late.pk, by=organiser)


def test_a_player_moved_to_an_added_table_leaves_no_gap(nine: Tournament, organiser: Any) -> None:
    round_ = services.round_pair_next(tournament=nine)
    added = services.table_add(round_=round_, by=organiser)
    mover = layout(round_)[0][0]
    warnings = services.round_seat_move(
        round_=round_, registration=mover, table=added, by=organiser
    )
    assert layout(round_)[3] == [mover]
    assert [s.seat for s in table_at(round_, 1).seats.order_by("seat")] == [0, 1]
    assert "table_size" in codes(warnings)  # tables of 2 and 1 are not allowed


def test_moving_a_player_to_a_table_of_another_round_is_refused(
    nine: Tournament, organiser: Any
) -> None:
    first = play_round(services.round_pair_next(tournament=nine))
    round_ = services.round_pair_next(tournament=nine)
    with pytest.raises(InvalidInput, match="not part of this round"):
        services.round_seat_move(
            round_=round_,
            registration=layout(round_)[0][0],
            table=table_at(first, 1),
            by=organiser,
        )


def test_a_fixed_player_is_drawn_at_their_table(nine: Tournament, organiser: Any) -> None:
    regs = list(nine.registrations.order_by("id"))
    wants = {regs[8].pk: 1, regs[3].pk: 3}
    for reg in regs:
        if reg.pk in wants:
            services.registration_fix_table(registration=reg, table=wants[reg.pk], by=organiser)
    for _ in range(3):  # three rounds, each drawn again from a new history
        round_ = services.round_pair_next(tournament=nine, by=organiser)
        tables = layout(round_)
        for reg, number in wants.items():
            assert reg in tables[number - 1], (reg, number, tables)
        assert "fixed_table" not in codes(round_.warnings)
        play_round(round_)


def test_a_fixed_player_swapped_away_is_warned_about(nine: Tournament, organiser: Any) -> None:
    fixed = nine.registrations.order_by("id").first()
    assert fixed is not None
    services.registration_fix_table(registration=fixed, table=2, by=organiser)
    round_ = services.round_pair_next(tournament=nine)
    other = layout(round_)[0][0]
    warnings = services.round_swap(round_=round_, first=fixed.pk, second=other, by=organiser)
    fixed_warnings = [w for w in warnings if w["code"] == "fixed_table"]
    assert len(fixed_warnings) == 1
    assert fixed_warnings[0]["table"] == 1
    assert "needs table 2" in fixed_warnings[0]["text"]
    services.round_confirm(round_=round_)  # the organiser's call: it does not block


def test_a_fixed_table_is_a_number_in_range(nine: Tournament, organiser: Any) -> None:
    reg = nine.registrations.first()
    assert reg is not None
    with pytest.raises(InvalidInput, match="from 1 to"):
        services.registration_fix_table(registration=reg, table=0, by=organiser)
    with pytest.raises(NotAllowed):
        services.registration_fix_table(registration=reg, table=1, by=UserFactory())
    reg.refresh_from_db()
    assert reg.fixed_table is None


def test_paper_tables_open_no_game_and_a_herald_table_does(
    nine: Tournament, organiser: Any
) -> None:
    services.tournament_set_table_mode(tournament=nine, mode=TableMode.PAPER, by=organiser)
    round_ = services.round_pair_next(tournament=nine, by=organiser)
    assert set(round_.tables.values_list("on_paper", flat=True)) == {True}
    services.table_set_paper(table=table_at(round_, 2), on_paper=False, by=organiser)
    released = services.round_release(round_=services.round_confirm(round_=round_), by=organiser)
    opened = {t.number: t.stream_id for t in released.tables.all()}
    assert opened[1] is None
    assert opened[3] is None
    assert Stream.objects.filter(pk=opened[2]).exists()
    with pytest.raises(WrongState, match="before it is published"):
        services.table_set_paper(table=table_at(released, 1), on_paper=False, by=organiser)


def test_the_table_mode_is_one_of_two(nine: Tournament, organiser: Any) -> None:
    with pytest.raises(InvalidInput, match="Tables play"):
        services.tournament_set_table_mode(tournament=nine, mode="carrier pigeon", by=organiser)
    nine.refresh_from_db()
    assert nine.table_mode == TableMode.HERALD


def test_a_round_past_the_plan_is_paired_only_when_asked(nine: Tournament, organiser: Any) -> None:
    for _ in range(3):
        play_round(services.round_pair_next(tournament=nine, by=organiser))
    with pytest.raises(BeyondPlanned, match="planned 3 rounds"):
        services.round_pair_next(tournament=nine, by=organiser)
    assert not nine.rounds.filter(number=4).exists()
    fourth = services.round_pair_next(tournament=nine, by=organiser, beyond_planned=True)
    assert fourth.number == 4


def test_confirm_and_tables_are_for_organisers(nine: Tournament) -> None:
    round_ = services.round_pair_next(tournament=nine)
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        services.round_confirm(round_=round_, by=stranger)
    with pytest.raises(NotAllowed):
        services.table_add(round_=round_, by=stranger)
    round_.refresh_from_db()
    assert round_.state == Round.State.DRAFT
    assert round_.tables.count() == 3


def test_a_re_pairing_keeps_the_tables_set_to_play_with_physical_cards(
    nine: Tournament, organiser: Any
) -> None:
    draft = services.round_pair_next(tournament=nine, by=organiser)
    services.table_set_paper(table=table_at(draft, 2), on_paper=True, by=organiser)
    again = services.round_repair(round_=draft, by=organiser)
    assert again.pk != draft.pk
    paper = {t.number: t.on_paper for t in again.tables.filter(is_bye=False)}
    assert paper == {1: False, 2: True, 3: False}
    # and publishing it opens games only at the tables on Herald
    services.round_confirm(round_=again, by=organiser)
    released = services.round_release(round_=again, by=organiser)
    assert [t.stream_id is None for t in released.tables.order_by("number")] == [False, True, False]


# -- the draft's warnings: seats unbalanced, results missing ------------------------------------
def _seat_warnings(warnings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [w for w in warnings if w["code"] == "seat_balance"]


def test_a_draft_names_who_sits_in_the_same_seat_again_and_a_swap_updates_it(
    nine: Tournament, organiser: Any
) -> None:
    first = play_round(services.round_pair_next(tournament=nine, by=organiser))
    seat_before = {reg: seat for table in layout(first) for seat, reg in enumerate(table)}
    second = services.round_pair_next(tournament=nine, by=organiser)
    # The round-1 winners all sat first (play_round ranks by seat) and meet again: one of
    # them has to sit first again, and the draft says who.
    warned = _seat_warnings(second.warnings)
    assert warned
    names = selectors.registration_names(nine)
    tables = layout(second)
    table = warned[0]["table"]
    a = next(r for r in tables[table - 1] if warned[0]["text"].startswith(f"{names[r]} sits"))
    seat = tables[table - 1].index(a)
    assert seat_before[a] == seat
    other = 2 if seat == 0 else 1
    assert warned[0]["text"] == (
        f"{names[a]} sits in seat {seat + 1} again: 2 times now, never in seat {other}"
    )
    assert services.round_check(round_=second) == second.warnings
    # Swapped with a player of another table who takes a seat new to both: the warning goes.
    b = next(
        reg
        for number, others in enumerate(tables, start=1)
        if number != table
        for s, reg in enumerate(others)
        if s != seat and seat_before[reg] != seat
    )
    after = services.round_swap(round_=second, first=a, second=b, by=organiser)
    assert not any(names[a] in w["text"] for w in _seat_warnings(after))
    assert not any(names[b] in w["text"] for w in _seat_warnings(after))
    second.refresh_from_db()
    assert second.warnings == after


def test_a_draft_paired_past_missing_results_says_so(nine: Tournament, organiser: Any) -> None:
    first = services.round_confirm(round_=services.round_pair_next(tournament=nine))
    second = services.round_pair_next(tournament=nine, by=organiser, force=True)
    missing = [w["text"] for w in second.warnings if w["code"] == "results_missing"]
    assert missing == [
        "Round 1, tables 1, 2, 3 have no result: this draw counts their games for nothing"
    ]
    services.result_enter(table=table_at(first, 2), by=None, ranks=[1, 2, 3])
    tables = layout(second)
    warnings = services.round_swap(
        round_=second, first=tables[0][0], second=tables[0][1], by=organiser
    )
    assert [w["text"] for w in warnings if w["code"] == "results_missing"] == [
        "Round 1, tables 1, 3 have no result: this draw counts their games for nothing"
    ]
    for number in (1, 3):
        services.result_enter(table=table_at(first, number), by=None, ranks=[1, 2, 3])
    assert "results_missing" not in codes(services.round_check(round_=second))


def test_a_draft_paired_with_every_result_in_has_no_such_warning(
    nine: Tournament, organiser: Any
) -> None:
    play_round(services.round_pair_next(tournament=nine, by=organiser))
    second = services.round_pair_next(tournament=nine, by=organiser)
    assert "results_missing" not in codes(second.warnings)
