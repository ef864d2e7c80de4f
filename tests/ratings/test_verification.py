"""Verification of finished games, the disputes it opens, and what it hands to the pool."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from events.selectors import stream_verify
from events.services import stream_open
from ratings.models import Dispute, RatedGame, RatingChange, Verification
from ratings.verification import game_verify, game_verify_and_rate, stream_checks
from tests.tamper import careful_tamper, event_tamper, stream_tamper

pytestmark = pytest.mark.django_db


def test_a_finished_game_is_verified_entered_and_rated_once(finished: Callable[..., Any]) -> None:
    stream = finished(4)
    first = game_verify_and_rate(stream_id=stream.pk)
    assert first.verification is not None
    assert first.verification.ok is True
    assert first.dispute is None
    rated = RatedGame.objects.get(stream_id=stream.pk)
    assert rated.status == RatedGame.Status.RATED
    assert rated.ranks == stream.result["ranks"]
    assert rated.completed_at == stream.finished_at
    again = game_verify_and_rate(stream_id=stream.pk)
    assert again.rated_game is not None
    assert again.rated_game.pk == rated.pk
    assert Verification.objects.filter(stream_id=stream.pk).count() == 1
    assert RatingChange.objects.filter(stream_id=stream.pk, current=True).count() == 4


def test_the_checks_are_those_of_the_verify_endpoint_engine_version_included(
    finished: Callable[..., Any],
) -> None:
    stream = finished(3)
    report = stream_checks(stream)
    assert report["checks"]["engine_version"]["ok"] is True
    assert report == stream_verify(stream)


def recorded_with(stream: Any, version: str) -> None:
    """Make ``stream`` look recorded with engine ``version``: its row and its ``GameCreated``
    (chain recomputed), both of which a recorded game carries."""
    careful_tamper(stream.pk, 1, lambda payload: payload.update(engine_version=version))
    stream_tamper(stream.pk, engine_version=version)
    stream.refresh_from_db()


def verify_endpoint(stream: Any) -> dict[str, Any]:
    """``GET /api/v1/streams/{id}/verify`` as an anonymous caller gets it (public stream)."""
    response = APIClient().get(f"/api/v1/streams/{stream.pk}/verify")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize(
    ("running", "recorded", "vouches"),
    [("1.2.0", "1.3.0", False), ("1.2.0", "0.9.0", False), ("1.2.0", "1.1.0", True)],
)
def test_the_verify_endpoint_and_the_worker_give_one_verdict_on_the_engine_version(
    finished: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    running: str,
    recorded: str,
    vouches: bool,
) -> None:
    """A game recorded with an engine version the worker refuses is refused by GET /verify
    too, with the same check and detail; one the worker accepts, /verify accepts."""
    stream = finished(2)
    monkeypatch.setattr(engine.get(stream.game), "engine_version", running)
    recorded_with(stream, recorded)
    outcome = game_verify(stream_id=stream.pk)
    assert outcome.verification is not None
    api = verify_endpoint(stream)
    assert api["ok"] is outcome.verification.ok is vouches
    assert api["checks"] == outcome.verification.checks
    assert api["checks"]["engine_version"]["ok"] is vouches
    assert recorded in api["checks"]["engine_version"]["detail"]


def test_a_game_not_over_is_not_verified(seated: list[Any]) -> None:
    stream = stream_open(game_id="toy-draw", seats=seated[:2], options={"turns": 4})
    outcome = game_verify(stream_id=stream.pk)
    assert outcome.verification is None
    assert "not over" in outcome.skipped


def test_a_forged_result_fails_verification_and_opens_a_dispute(
    finished: Callable[..., Any],
) -> None:
    stream = finished(4)
    # Turn the order upside down (rank r becomes 5 - r): unlike a reversal, it differs from
    # the real ranks whatever the random deal gave, ties and palindromes included.
    ranks = stream.result["ranks"]
    forged = dict(stream.result, ranks=[len(ranks) + 1 - rank for rank in ranks])
    assert forged["ranks"] != ranks
    stream_tamper(stream.pk, result=forged)
    outcome = game_verify_and_rate(stream_id=stream.pk)
    assert outcome.verification is not None
    assert outcome.verification.ok is False
    assert outcome.dispute is not None
    assert outcome.dispute.failed_check == "result"
    assert outcome.dispute.opened_by is None
    assert "result check failed" in outcome.dispute.reason
    rated = RatedGame.objects.get(stream_id=stream.pk)
    assert rated.status == RatedGame.Status.EXCLUDED
    assert not RatingChange.objects.filter(stream_id=stream.pk).exists()
    game_verify_and_rate(stream_id=stream.pk)
    assert Dispute.objects.filter(stream_id=stream.pk).count() == 1


def test_an_edited_event_fails_the_hash_chain_check(finished: Callable[..., Any]) -> None:
    stream = finished(2)
    event_tamper(stream.pk, 2, lambda payload: payload.update(seat=1))
    outcome = game_verify_and_rate(stream_id=stream.pk)
    assert outcome.dispute is not None
    assert outcome.dispute.failed_check == "hash_chain"
    assert "event 2" in outcome.dispute.reason


def test_another_engine_version_cannot_vouch_for_a_game(finished: Callable[..., Any]) -> None:
    stream = finished(2)
    stream_tamper(stream.pk, engine_version="toy-0")
    outcome = game_verify(stream_id=stream.pk)
    assert outcome.dispute is not None
    assert outcome.dispute.failed_check == "engine_version"
    assert "toy-0" in outcome.dispute.reason


@pytest.mark.parametrize(
    ("recorded", "vouches"), [("1.1.0", True), ("1.2.0", True), ("1.3.0", False), ("0.9.0", False)]
)
def test_a_later_engine_of_the_same_major_version_vouches_for_a_game(
    finished: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, recorded: str, vouches: bool
) -> None:
    """An upgrade that keeps replays the same (a minor bump) must not turn every finished,
    not yet verified game into a dispute; an older engine or another major version must."""
    stream = finished(2)
    monkeypatch.setattr(engine.get(stream.game), "engine_version", "1.2.0")
    recorded_with(stream, recorded)
    outcome = game_verify(stream_id=stream.pk)
    assert outcome.verification is not None
    assert outcome.verification.ok is vouches
    check = outcome.verification.checks["engine_version"]
    assert check["ok"] is vouches
    assert recorded in check["detail"]
    assert (outcome.dispute is None) is vouches


def test_a_game_this_server_cannot_replay_opens_a_dispute(finished: Callable[..., Any]) -> None:
    stream = finished(2)
    stream_tamper(stream.pk, game="no-such-game")
    outcome = game_verify(stream_id=stream.pk)
    assert outcome.verification is not None
    assert outcome.verification.ok is False
    assert outcome.dispute is not None
    assert "cannot replay" in outcome.dispute.reason


def test_a_stream_row_whose_engine_version_differs_from_its_first_event_fails(
    finished: Callable[..., Any],
) -> None:
    """The row's version is not hashed; event 1's is. A row altered to claim another version
    (one this server would vouch for) is caught by comparing the two."""
    stream = finished(2)
    stream_tamper(stream.pk, engine_version="toy-0")
    stream.refresh_from_db()
    check = stream_verify(stream)["checks"]["engine_version"]
    assert check["ok"] is False
    assert "event 1 records" in check["detail"]
