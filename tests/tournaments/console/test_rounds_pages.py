"""The round pages of the console over the test client (no JavaScript: the forms alone), and
drafts kept from everyone but the organisers in the pages, the CSV and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api import client_for
from tests.tournaments.console.rounds_helpers import layout, play_round
from tests.tournaments.factories import UserFactory, make_tournament, register_players
from tournaments import services
from tournaments.models import Club, Round, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def nine(organiser: Any, club: Club) -> Tournament:
    tournament = make_tournament(
        organiser=organiser, club=club, table_preferred=3, table_allowed=(3,), rounds_planned=2
    )
    register_players(tournament, 9)
    return tournament


@pytest.fixture
def desk(organiser: Any) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def member(club: Club) -> Client:
    user = UserFactory(username="member")
    services.club_member_add(club=club, user=user, role="member")
    client = Client()
    client.force_login(user)
    return client


def console(tournament: Tournament, rest: str = "") -> str:
    return f"/tournaments/{tournament.pk}/console/{rest}"


def test_the_hub_offers_to_pair_the_next_round(desk: Client, nine: Tournament) -> None:
    page = desk.get(console(nine)).content.decode()
    assert 'id="pair-next"' in page
    assert "Pair round 1" in page
    assert 'name="mode"' in page
    assert 'name="table"' in page


def test_the_organiser_pairs_and_lands_on_the_draft(desk: Client, nine: Tournament) -> None:
    response = desk.post(console(nine, "rounds/pair/"))
    assert response.status_code == 302
    assert response["Location"] == console(nine, "rounds/1/")
    page = desk.get(response["Location"]).content.decode()
    round_ = Round.objects.get(tournament=nine)
    assert round_.state == Round.State.DRAFT
    for reg in nine.registrations.select_related("player"):
        assert reg.player.display_name in page
    assert "Table 3" in page
    assert 'id="swap-form"' in page
    assert 'id="confirm-round"' in page
    assert "Pairs seated together again" in page  # the quality figures, in words


def test_a_member_may_not_pair(member: Client, nine: Tournament) -> None:
    assert member.post(console(nine, "rounds/pair/")).status_code == 403
    assert member.get(console(nine, "rounds/1/")).status_code == 403
    assert not Round.objects.exists()


def test_pairing_over_missing_results_asks_and_names_the_tables(
    desk: Client, nine: Tournament
) -> None:
    services.round_confirm(round_=services.round_pair_next(tournament=nine))
    refused = desk.post(console(nine, "rounds/pair/"))
    assert refused.status_code == 409
    page = refused.content.decode()
    for number in (1, 2, 3):
        assert f"round 1, table {number}<" in page
    assert 'id="pair-anyway"' in page
    assert 'name="force"' in page
    assert nine.rounds.count() == 1
    assert desk.post(console(nine, "rounds/pair/"), {"force": "on"}).status_code == 302
    assert nine.rounds.filter(number=2, state=Round.State.DRAFT).exists()
    # The draft says what pairing anyway meant.
    draft = desk.get(console(nine, "rounds/2/")).content.decode()
    assert 'data-code="results_missing"' in draft
    assert "Round 1, tables 1, 2, 3 have no result: this draw counts their games for nothing" in (
        draft
    )


def test_the_draft_names_players_whose_seats_are_unbalanced(desk: Client, nine: Tournament) -> None:
    play_round(services.round_pair_next(tournament=nine))
    desk.post(console(nine, "rounds/pair/"))
    page = desk.get(console(nine, "rounds/2/")).content.decode()
    # play_round ranks by seat: round 1's winners (all first) meet, one sits first again.
    assert 'data-code="seat_balance"' in page
    assert "sits in seat 1 again: 2 times now, never in seat" in page
    assert "Seat imbalance" in page  # the figure stays beside the names


def test_a_round_past_the_plan_asks_first(desk: Client, nine: Tournament) -> None:
    for _ in range(2):
        play_round(services.round_pair_next(tournament=nine))
    nine.refresh_from_db()
    # The last planned round's results are in: the tournament finished by itself, and
    # pairing is refused until the organiser reopens it.
    assert nine.status == Tournament.Status.FINISHED
    assert desk.post(console(nine, "rounds/pair/")).status_code == 409
    services.tournament_reopen(tournament=nine, by=None)
    refused = desk.post(console(nine, "rounds/pair/"))
    assert refused.status_code == 409
    assert "planned 2 rounds" in refused.content.decode()
    assert 'name="beyond_planned"' in refused.content.decode()
    assert desk.post(console(nine, "rounds/pair/"), {"beyond_planned": "on"}).status_code == 302
    assert nine.rounds.filter(number=3).exists()


def test_the_swap_form_swaps_and_the_page_shows_the_new_warnings(
    desk: Client, nine: Tournament
) -> None:
    play_round(services.round_pair_next(tournament=nine))
    second = services.round_pair_next(tournament=nine)
    earlier = layout(nine.rounds.get(number=1))
    mates = {reg: set(t) - {reg} for t in earlier for reg in t}
    tables = layout(second)
    a, b = next((a, b) for b in tables[1] for a in tables[0] if mates[b] & (set(tables[0]) - {a}))
    assert "already shared a table" not in desk.get(console(nine, "rounds/2/")).content.decode()
    response = desk.post(console(nine, "rounds/2/swap/"), {"first": a, "second": b})
    assert response.status_code == 302
    assert b in layout(second)[0]
    assert a in layout(second)[1]
    assert "already shared a table" in desk.get(console(nine, "rounds/2/")).content.decode()


def test_a_swap_in_a_confirmed_round_is_refused_in_the_page(desk: Client, nine: Tournament) -> None:
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=nine))
    before = layout(round_)
    response = desk.post(
        console(nine, "rounds/1/swap/"), {"first": before[0][0], "second": before[1][0]}
    )
    assert response.status_code == 409
    assert "only in a draft" in response.content.decode()
    assert layout(round_) == before


def test_a_swap_form_without_its_second_player_is_a_400(desk: Client, nine: Tournament) -> None:
    round_ = services.round_pair_next(tournament=nine)
    response = desk.post(console(nine, "rounds/1/swap/"), {"first": layout(round_)[0][0]})
    assert response.status_code == 400
    assert "required" in response.content.decode()


def test_an_added_table_a_move_confirm_and_publish(desk: Client, nine: Tournament) -> None:
    round_ = services.round_pair_next(tournament=nine)
    assert desk.post(console(nine, "rounds/1/tables/")).status_code == 302
    mover = layout(round_)[0][0]
    moved = desk.post(console(nine, "rounds/1/move/"), {"registration": mover, "table": 4})
    assert moved.status_code == 302
    page = desk.get(console(nine, "rounds/1/")).content.decode()
    assert "Blocks confirming" not in page
    assert "allowed" in page
    back = desk.post(console(nine, "rounds/1/move/"), {"registration": mover, "table": 1})
    assert back.status_code == 302
    assert (
        desk.post(console(nine, "rounds/1/tables/3/paper/"), {"on_paper": "on"}).status_code == 302
    )
    assert desk.post(console(nine, "rounds/1/confirm/")).status_code == 302
    assert desk.post(console(nine, "rounds/1/publish/")).status_code == 302
    round_.refresh_from_db()
    assert round_.state == Round.State.RELEASED
    streams = dict(round_.tables.values_list("number", "stream_id"))
    assert streams[1]
    assert streams[2]
    assert streams[3] is None
    pairings = Client().get(f"/tournaments/{nine.pk}/pairings/1/").content.decode()
    assert "Played with cards" in pairings


def test_confirming_with_a_player_missing_is_refused_with_the_sentence(
    desk: Client, nine: Tournament
) -> None:
    round_ = services.round_pair_next(tournament=nine)
    table = round_.tables.get(number=1)
    services.table_edit(table=table, registrations=layout(round_)[0][:2])
    response = desk.post(console(nine, "rounds/1/confirm/"))
    assert response.status_code == 409
    assert "missing" in response.content.decode()
    round_.refresh_from_db()
    assert round_.state == Round.State.DRAFT


def test_the_hub_sets_a_fixed_table_and_the_table_mode(desk: Client, nine: Tournament) -> None:
    reg = nine.registrations.first()
    assert reg is not None
    fixed = desk.post(console(nine, "rounds/fixed-table/"), {"registration": reg.pk, "table": 2})
    assert fixed.status_code == 302
    reg.refresh_from_db()
    assert reg.fixed_table == 2
    assert "always sits at table 2" in desk.get(console(nine)).content.decode()
    assert desk.post(console(nine, "rounds/table-mode/"), {"mode": "paper"}).status_code == 302
    nine.refresh_from_db()
    assert nine.table_mode == "paper"
    bad = desk.post(console(nine, "rounds/fixed-table/"), {"registration": reg.pk, "table": 0})
    assert bad.status_code == 400


# -- a draft is never public -----------------------------------------------------------------
def _draft_urls(tournament: Tournament) -> list[str]:
    base = f"/tournaments/{tournament.pk}/pairings/1"
    return [f"{base}/", f"{base}/by-name/", f"{base}.csv"]


def test_a_draft_is_a_404_to_players_and_visitors_in_pages_and_csv(
    desk: Client, member: Client, nine: Tournament
) -> None:
    services.round_pair_next(tournament=nine)
    for url in _draft_urls(nine):
        assert Client().get(url).status_code == 404, url
        assert member.get(url).status_code == 404, url
        assert desk.get(url).status_code == 200, url
    overview = Client().get(f"/tournaments/{nine.pk}/").content.decode()
    assert "not published yet" in overview
    assert f"/tournaments/{nine.pk}/pairings/1/" not in overview
    standings = Client().get(f"/tournaments/{nine.pk}/standings/").content.decode()
    assert f"/tournaments/{nine.pk}/pairings/1/" not in standings


def test_a_draft_is_hidden_from_the_api_but_for_its_organisers(
    organiser: Any, nine: Tournament
) -> None:
    draft = services.round_pair_next(tournament=nine)
    table = Table.objects.filter(round=draft).first()
    assert table is not None
    player = nine.registrations.select_related("player__user").first()
    assert player is not None
    for user in (None, player.player.user):
        api = client_for(user)
        assert api.get(f"/api/v1/tournaments/{nine.pk}/rounds").json() == []
        assert api.get(f"/api/v1/rounds/{draft.pk}").status_code == 404
        assert api.get(f"/api/v1/tables/{table.pk}").status_code == 404
        assert api.get(f"/api/v1/tables/{table.pk}/results").status_code == 404
    mine = client_for(organiser)
    assert [r["id"] for r in mine.get(f"/api/v1/tournaments/{nine.pk}/rounds").json()] == [draft.pk]
    assert mine.get(f"/api/v1/rounds/{draft.pk}").status_code == 200
    services.round_confirm(round_=draft)  # confirmed: still the organisers' until published
    assert client_for(None).get(f"/api/v1/rounds/{draft.pk}").status_code == 404
    services.round_release(round_=draft)
    assert client_for(None).get(f"/api/v1/rounds/{draft.pk}").status_code == 200


# -- the admin ---------------------------------------------------------------------------------
def test_rounds_and_tables_are_read_only_in_the_admin(nine: Tournament) -> None:
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=nine))
    admin = Client()
    admin.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert admin.get("/admin/tournaments/round/add/").status_code == 403
    assert admin.get("/admin/tournaments/table/add/").status_code == 403
    released = admin.post(
        f"/admin/tournaments/round/{round_.pk}/change/",
        {"state": "released", "number": 1, "attempt": 1},
    )
    assert released.status_code == 403
    round_.refresh_from_db()
    assert round_.state == Round.State.CONFIRMED
    page = admin.get(f"/admin/tournaments/round/{round_.pk}/change/")
    assert page.status_code == 200
    assert 'name="state"' not in page.content.decode()
