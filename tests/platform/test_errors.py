"""One service error base, one DRF handler: every app's refusals leave with the contract's body."""

from __future__ import annotations

import pytest

from events.errors import StreamError, VersionConflict
from herald.api import exception_handler
from herald.errors import ServiceError
from ratings.disputes import DisputeError
from ratings.services import RatingError
from tournaments.errors import TournamentError


@pytest.mark.parametrize("kind", [StreamError, TournamentError, DisputeError, RatingError])
def test_every_apps_service_errors_share_the_one_base(kind: type[Exception]) -> None:
    assert issubclass(kind, ServiceError)


def test_the_handler_answers_any_service_error_with_its_status_code_and_extra_fields() -> None:
    response = exception_handler(VersionConflict("stale", current_version=7), {})
    assert response is not None
    assert response.status_code == 409
    assert response.data == {"error": "version_conflict", "detail": "stale", "current_version": 7}
    refused = exception_handler(DisputeError("no such game", code="not_found", status=404), {})
    assert refused is not None
    assert (refused.status_code, refused.data["error"]) == (404, "not_found")


def test_anything_else_is_left_to_be_a_500() -> None:
    assert exception_handler(KeyError("a server bug"), {}) is None
