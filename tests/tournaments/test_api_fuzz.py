"""Bad input never makes a 500: random JSON bodies with the right keys and wrong values."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.tournaments.factories import register_players
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)

TOURNAMENT_KEYS = [
    "name", "game", "club", "edition", "options", "format", "table_preferred", "table_allowed",
    "points_by_rank", "tiebreakers", "bye_points", "dispute_window_minutes", "rounds_planned",
]  # fmt: skip


def bodies(keys: list[str], base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with some keys replaced by arbitrary JSON."""
    return st.dictionaries(st.sampled_from(keys), JSON, max_size=len(keys)).map(
        lambda extra: {**base, **extra}
    )


def assert_contract(response: Any) -> None:
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body["error"], str)
        assert isinstance(body["detail"], str)
        assert body["detail"]


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(body=bodies(TOURNAMENT_KEYS, {"name": "Open", "game": "13-couronnes", "club": "Les Pions"}))
def test_creating_a_tournament_never_fails_with_a_500(organiser: Any, body: dict[str, Any]) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    assert_contract(client.post("/api/v1/tournaments", body, format="json"))


@FUZZ
@given(
    body=bodies(["ranks", "scores", "decide"], {"ranks": [1, 2, 3, 4]}),
    registrations=st.lists(st.integers(min_value=-5, max_value=10**6), max_size=6),
)
def test_results_and_table_edits_never_fail_with_a_500(
    tournament: Tournament, body: dict[str, Any], registrations: list[int]
) -> None:
    if not tournament.registrations.exists():
        register_players(tournament, 8)
        services.round_confirm(round_=services.round_pair_next(tournament=tournament))
        services.round_pair_next(tournament=tournament, force=True)
    played = tournament.rounds.get(number=1).tables.first()  # confirmed: takes results
    draft = tournament.rounds.get(number=2).tables.first()  # a draft: takes edits
    assert played is not None
    assert draft is not None
    client = APIClient()
    client.force_authenticate(tournament.organisers.get())
    assert_contract(
        client.put(f"/api/v1/tables/{draft.pk}", {"registrations": registrations}, format="json")
    )
    assert_contract(client.post(f"/api/v1/tables/{played.pk}/results", body, format="json"))
