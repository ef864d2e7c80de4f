"""The tournaments API: shapes, the contract's error body, permissions, drafts and warnings."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.api import client_for
from tests.tournaments.factories import (
    GAME,
    UserFactory,
    make_player,
    make_tournament,
    publish,
    register_players,
)
from tournaments import services
from tournaments.models import Player, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_organiser(organiser: Any) -> APIClient:
    return client_for(organiser)


def assert_error(response: Any, status: int, code: str, words: str = "") -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"] == code
    assert words in body["detail"]


def test_create_a_tournament_and_read_it_back(as_organiser: APIClient) -> None:
    response = as_organiser.post(
        "/api/v1/tournaments",
        {"name": "Club night", "game": GAME, "club": "Les Pions", "rounds_planned": 5},
        format="json",
    )
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["organisers"] == ["organiser"]
    assert created["club"] == "Les Pions"
    assert created["table_allowed"] == [3, 4, 5]
    assert (created["game"], created["game_name"]) == (GAME, "13 Couronnes")
    read = client_for(None).get(f"/api/v1/tournaments/{created['id']}").json()
    assert read == created


def test_bad_input_is_a_400_with_a_sentence(as_organiser: APIClient) -> None:
    response = as_organiser.post(
        "/api/v1/tournaments", {"name": "X", "game": "chess", "club": "Les Pions"}, format="json"
    )
    assert_error(response, 400, "invalid", "unknown game 'chess'")
    response = as_organiser.post("/api/v1/tournaments", {"game": GAME, "club": "Les Pions"})
    assert_error(response, 400, "invalid", "name")
    assert not Tournament.objects.exists()


def test_a_player_cannot_pair_confirm_or_register(tournament: Tournament) -> None:
    regs = register_players(tournament, 8)
    player = client_for(regs[0].player.user)
    assert_error(
        player.post(f"/api/v1/tournaments/{tournament.pk}/rounds", {}, format="json"),
        403,
        "forbidden",
        "Only the organisers",
    )
    assert not tournament.rounds.exists()
    round_ = services.round_pair_next(tournament=tournament)
    for action in ("confirm", "repair", "release"):
        response = player.post(f"/api/v1/rounds/{round_.pk}/{action}")
        assert_error(response, 403, "forbidden")
    response = player.post(
        f"/api/v1/tournaments/{tournament.pk}/registrations", {"username": "x"}, format="json"
    )
    assert_error(response, 403, "forbidden")
    anonymous = client_for(None).post(f"/api/v1/tournaments/{tournament.pk}/rounds", {})
    assert anonymous.status_code in {401, 403}


def test_staff_may_pair_any_tournament(tournament: Tournament) -> None:
    register_players(tournament, 8)
    staff = UserFactory(username="staff", is_staff=True)
    response = client_for(staff).post(f"/api/v1/tournaments/{tournament.pk}/rounds", {})
    assert response.status_code == 201


def test_a_player_reports_only_their_own_table(tournament: Tournament) -> None:
    register_players(tournament, 8)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    mine, other = round_.tables.filter(is_bye=False)[:2]
    me = mine.seats.first().registration.player.user
    response = client_for(me).post(
        f"/api/v1/tables/{other.pk}/results", {"ranks": [1, 2, 3, 4]}, format="json"
    )
    assert_error(response, 403, "forbidden", f"seated at table {other.number}")
    assert not other.results.exists()
    response = client_for(me).post(
        f"/api/v1/tables/{mine.pk}/results", {"ranks": [1, 2, 3, 4]}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["status"] == "submitted"
    assert response.json()["confirmed_by"] == [me.username]


def test_confirmations_through_the_api(tournament: Tournament) -> None:
    register_players(tournament, 4)
    round_ = publish(services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    users = [s.registration.player.user for s in table.seats.all()]
    result = (
        client_for(users[0])
        .post(f"/api/v1/tables/{table.pk}/results", {"ranks": [3, 1, 2, 4]}, format="json")
        .json()
    )
    outsider = client_for(UserFactory()).post(f"/api/v1/results/{result['id']}/confirm")
    assert_error(outsider, 403, "forbidden")
    for user in users[1:]:
        answer = client_for(user).post(f"/api/v1/results/{result['id']}/confirm")
        assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "confirmed"
    versions = client_for(None).get(f"/api/v1/tables/{table.pk}/results").json()
    assert [v["status"] for v in versions] == ["confirmed"]


def test_pairing_with_results_missing_is_a_409_naming_tables(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    register_players(tournament, 8)
    services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    response = as_organiser.post(f"/api/v1/tournaments/{tournament.pk}/rounds", {}, format="json")
    assert_error(response, 409, "results_missing", "round 1, tables 1, 2")
    assert len(response.json()["tables"]) == 2
    forced = as_organiser.post(
        f"/api/v1/tournaments/{tournament.pk}/rounds", {"force": True}, format="json"
    )
    assert forced.status_code == 201


def test_repair_through_the_api_keeps_the_draft(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    register_players(tournament, 12)
    first = as_organiser.post(f"/api/v1/tournaments/{tournament.pk}/rounds", {}).json()
    second = as_organiser.post(f"/api/v1/rounds/{first['id']}/repair").json()
    assert (second["number"], second["attempt"], second["state"]) == (1, 2, "draft")
    listing = as_organiser.get(f"/api/v1/tournaments/{tournament.pk}/rounds").json()
    assert [(r["attempt"], r["state"]) for r in listing] == [(1, "superseded"), (2, "draft")]
    old = as_organiser.get(f"/api/v1/rounds/{first['id']}").json()
    assert old["tables"] == first["tables"]
    response = as_organiser.post(f"/api/v1/rounds/{first['id']}/confirm")
    assert_error(response, 409, "wrong_state", "only a draft can be confirmed")


def test_a_manual_edit_answers_warnings_with_names(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    regs = register_players(tournament, 9)
    round_ = services.round_pair_next(tournament=tournament)
    tables = list(round_.tables.filter(is_bye=False))
    moved = tables[1].seats.first().registration
    ids = [s.registration_id for s in tables[0].seats.all()]
    response = as_organiser.put(
        f"/api/v1/tables/{tables[0].pk}", {"registrations": [*ids, moved.pk]}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert [s["registration"] for s in body["table"]["seats"]] == [*ids, moved.pk]
    texts = [w["text"] for w in body["warnings"] if w["code"] == "seated_twice"]
    assert texts == [f"{moved.player.display_name} is seated twice"]
    stored = as_organiser.get(f"/api/v1/rounds/{round_.pk}").json()
    assert stored["warnings"] == body["warnings"]
    assert {r.id for r in regs} >= set(ids)
    unknown = as_organiser.put(
        f"/api/v1/tables/{tables[0].pk}", {"registrations": [999999]}, format="json"
    )
    assert_error(unknown, 400, "invalid", "not part of this tournament")


def test_register_check_in_drop_and_late_entry(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    url = f"/api/v1/tournaments/{tournament.pk}/registrations"
    created = as_organiser.post(
        url, {"username": "zoe", "display_name": "Zoé Faure", "club": "Les Pions"}, format="json"
    )
    assert created.status_code == 201, created.content
    reg = created.json()
    assert (reg["name"], reg["club"], reg["checked_in"]) == ("Zoé Faure", "Les Pions", False)
    checked = as_organiser.post(f"/api/v1/registrations/{reg['id']}/check-in", {}, format="json")
    assert checked.json()["checked_in"] is True
    twice = as_organiser.post(url, {"username": "zoe"}, format="json")
    assert_error(twice, 400, "invalid", "already registered")
    register_players(tournament, 7)
    services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    dropped = as_organiser.post(f"/api/v1/registrations/{reg['id']}/drop").json()
    assert dropped["dropped_after_round"] == 1
    member = make_player(club=tournament.club)  # only the club's members are registered by it
    late = as_organiser.post(url, {"username": member.user.username}, format="json").json()
    assert (late["checked_in"], late["late_entry_round"]) == (True, 2)


def test_csv_import_through_the_api_is_all_or_nothing(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    url = f"/api/v1/tournaments/{tournament.pk}/registrations/import"
    good = "display_name,username,email,club,seed\nAnna,anna,,,1\nBen,ben,,,2\n"
    bad = good + "Cleo,cleo,,,minus one\n"
    response = as_organiser.post(url, {"csv": bad}, format="json")
    assert_error(response, 400, "invalid", "line 4")
    assert response.json()["lines"] == [
        "line 4: the seed 'minus one' is not a whole number of 0 or more"
    ]
    assert not Registration.objects.exists()
    response = as_organiser.post(url, {"csv": good}, format="json")
    assert response.status_code == 201
    assert [r["name"] for r in response.json()] == ["Anna", "Ben"]


def test_standings_endpoint_lists_everyone(tournament: Tournament) -> None:
    regs = register_players(tournament, 4)
    round_ = publish(services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    first = table.seats.get(seat=0).registration
    services.result_enter(table=table, by=None, ranks=[1, 2, 3, 4])
    rows = client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/standings").json()
    assert len(rows) == len(regs)
    assert rows[0]["name"] == first.player.display_name
    assert rows[0]["points"] == 4.0
    assert set(rows[0]["tiebreaks"]) == {"opponents_points", "game_score"}


def test_the_schema_documents_the_tournament_operations() -> None:
    response = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = (
        response.json()["paths"]
        if response["Content-Type"].startswith("application/json")
        else None
    )
    if paths is None:
        paths = yaml.safe_load(response.content)["paths"]
    for path in (
        "/api/v1/tournaments",
        "/api/v1/tournaments/{id}/rounds",
        "/api/v1/rounds/{id}/repair",
        "/api/v1/rounds/{id}/confirm",
        "/api/v1/rounds/{id}/release",
        "/api/v1/tables/{id}",
        "/api/v1/tables/{id}/results",
        "/api/v1/results/{id}/confirm",
        "/api/v1/tournaments/{id}/standings",
        "/api/v1/tournaments/{id}/registrations/import",
    ):
        assert path in paths, path


def test_unknown_objects_are_404s(as_organiser: APIClient) -> None:
    assert_error(as_organiser.get("/api/v1/rounds/424242"), 404, "not_found")
    assert_error(as_organiser.post("/api/v1/rounds/424242/confirm"), 404, "not_found")


def test_rounds_of_a_finished_tournament_are_refused(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    register_players(tournament, 4)
    as_organiser.post(f"/api/v1/tournaments/{tournament.pk}/finish")
    response = as_organiser.post(f"/api/v1/tournaments/{tournament.pk}/rounds", {})
    assert_error(response, 409, "wrong_state", "finished")
    assert not Round.objects.exists()


def _queries_per_page(players: int) -> list[int]:
    tournament = make_tournament(organiser=UserFactory())
    register_players(tournament, players)
    first = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    for table in first.tables.all():
        services.result_enter(table=table, by=None, ranks=list(range(1, table.seats.count() + 1)))
    with CaptureQueriesContext(connection) as pairing_queries:
        second = services.round_pair_next(tournament=tournament)
    counts = [len(pairing_queries.captured_queries)]
    publish(second)  # a round not yet published is no one's to read but its organisers'
    for url in (
        f"/api/v1/rounds/{second.pk}",
        f"/api/v1/tournaments/{tournament.pk}/standings",
        f"/api/v1/tournaments/{tournament.pk}/registrations",
        f"/tournaments/{tournament.pk}/pairings/2/",
        f"/tournaments/{tournament.pk}/standings/",
    ):
        with CaptureQueriesContext(connection) as queries:
            assert client_for(None).get(url).status_code == 200
        counts.append(len(queries.captured_queries))
    return counts


def test_pairing_and_hot_pages_cost_the_same_queries_for_8_or_24_players() -> None:
    small, large = _queries_per_page(8), _queries_per_page(24)
    assert small == large
    assert max(small) <= 20


def test_a_conflict_is_settled_by_the_organiser_even_when_seated(organiser: Any) -> None:
    tournament = make_tournament(organiser=organiser)
    me = Player.objects.create(user=organiser, display_name="The Organiser")
    services.registration_create(tournament=tournament, player=me, checked_in=True)
    register_players(tournament, 3)
    round_ = publish(services.round_pair_next(tournament=tournament))
    table = round_.tables.get()
    others = [s.registration.player.user for s in table.seats.all() if s.registration.player != me]
    url = f"/api/v1/tables/{table.pk}/results"
    ok = client_for(others[0]).post(url, {"ranks": [1, 2, 3, 4]})
    assert ok.status_code == 201
    clash = client_for(others[1]).post(url, {"ranks": [4, 3, 2, 1]})
    assert clash.json()["status"] == "conflict"
    as_player = client_for(organiser).post(url, {"ranks": [1, 2, 3, 4]})
    assert as_player.json()["status"] == "conflict"  # seated: a report like any other
    decided = client_for(organiser).post(
        url, {"ranks": [2, 1, 3, 4], "decide": True, "reason": "Score sheet"}
    )
    assert decided.status_code == 201
    assert (decided.json()["status"], decided.json()["source"]) == ("confirmed", "organiser")
    history = client_for(None).get(url).json()
    assert [v["status"] for v in history] == ["discarded"] * 3 + ["confirmed"]


def test_the_organiser_changes_points_and_the_standings_follow(
    tournament: Tournament, as_organiser: APIClient
) -> None:
    register_players(tournament, 4)
    round_ = services.round_confirm(round_=services.round_pair_next(tournament=tournament))
    services.result_enter(table=round_.tables.get(), by=None, ranks=[1, 2, 3, 4])
    url = f"/api/v1/tournaments/{tournament.pk}"
    changed = as_organiser.patch(url, {"points_by_rank": [10, 5], "tiebreakers": ["wins"]})
    assert changed.status_code == 200, changed.content
    assert changed.json()["points_by_rank"] == [10.0, 5.0]
    rows = as_organiser.get(f"{url}/standings").json()
    assert [row["points"] for row in rows] == [10.0, 5.0, 0.0, 0.0]
    assert_error(as_organiser.patch(url, {"table_allowed": [6]}), 400, "invalid", "2 to 5")
    assert_error(as_organiser.patch(url, {"points_by_rank": [1, 2]}), 400, "invalid", "grow")
    player = client_for(tournament.registrations.first().player.user)
    assert_error(player.patch(url, {"name": "Mine"}), 403, "forbidden")
    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name
