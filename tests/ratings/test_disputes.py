"""Disputes: who may open one and when, and each ruling's effect on the stream and the pool."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings

from events.models import Event, Stream
from events.selectors import stream_verify
from events.states import current_state, replay_stream
from ratings import selectors
from ratings.disputes import DisputeError, dispute_open, dispute_rule
from ratings.models import Dispute, RatedGame, RatingChange, RecomputeJob
from ratings.services import recompute_run
from ratings.verification import game_verify_and_rate
from tests.ratings.games import play_stream, rated_history
from tests.ratings.reference import rate_from_scratch
from tests.tamper import stream_tamper

pytestmark = pytest.mark.django_db


def run_jobs() -> None:
    for job in RecomputeJob.objects.filter(status=RecomputeJob.Status.QUEUED):
        recompute_run(job_id=job.pk)


def pool_ratings(stream: Any) -> dict[int, tuple[float, float, int]]:
    rated = RatedGame.objects.get(stream_id=stream.pk)
    return {r.player_id: (r.mu, r.sigma, r.games) for r in rated.pool.ratings.filter(games__gt=0)}


def expected_from(streams: list[Any]) -> dict[int, tuple[float, float, int]]:
    games = []
    for stream in streams:
        outcome = selectors.stream_outcome(stream=stream)
        if outcome.counts and outcome.ranks is not None:
            games.append((outcome.players, outcome.ranks))
    return rate_from_scratch(games)


def assert_ratings(got: dict[int, Any], expected: dict[int, Any]) -> None:
    assert got.keys() == expected.keys()
    for player, values in expected.items():
        assert got[player] == pytest.approx(values, abs=1e-9)


def test_only_a_seated_player_disputes_a_finished_game_with_a_reason(
    finished: Callable[..., Any], seated: list[Any], arbiter: Any
) -> None:
    stream = finished(2)
    with pytest.raises(DisputeError, match="seated"):
        dispute_open(stream_id=stream.pk, user=arbiter, reason="I saw it")
    with pytest.raises(DisputeError, match="reason"):
        dispute_open(stream_id=stream.pk, user=seated[0], reason="  ")
    dispute = dispute_open(stream_id=stream.pk, user=seated[0], reason="seat 1 misplayed")
    assert dispute.status == Dispute.Status.OPEN
    with pytest.raises(DisputeError, match="already has an open dispute") as second:
        dispute_open(stream_id=stream.pk, user=seated[1], reason="me too")
    assert second.value.status == 409


@override_settings(HERALD_DISPUTE_WINDOW_MINUTES=30)
def test_the_dispute_window_closes(finished: Callable[..., Any], seated: list[Any]) -> None:
    stream = finished(2)
    stream_tamper(stream.pk, finished_at=stream.finished_at - dt.timedelta(minutes=31))
    with pytest.raises(DisputeError, match="30 min after that") as closed:
        dispute_open(stream_id=stream.pk, user=seated[0], reason="too late?")
    assert closed.value.code == "dispute_window_closed"


def test_only_an_arbiter_rules(finished: Callable[..., Any], seated: list[Any]) -> None:
    stream = finished(2)
    dispute = dispute_open(stream_id=stream.pk, user=seated[0], reason="why")
    with pytest.raises(DisputeError, match="arbiter") as refused:
        dispute_rule(dispute_id=dispute.pk, arbiter=seated[1], ruling="annul", reason="no")
    assert refused.value.status == 403


def test_annulling_a_game_appends_a_ruling_and_re_rates_every_later_game(
    finished: Callable[..., Any], seated: list[Any], arbiter: Any
) -> None:
    streams = rated_history(6, finished)
    target = streams[1]
    seat0 = Stream.objects.get(pk=target.pk).seats.get(seat=0).user
    version = target.version
    dispute = dispute_open(stream_id=target.pk, user=seat0, reason="a card was missing")
    ruled = dispute_rule(dispute_id=dispute.pk, arbiter=arbiter, ruling="annul", reason="misdeal")
    event = Event.objects.get(stream=target, seq=ruled.ruling_seq)
    assert event.seq == version + 1
    assert event.type == "RulingMade"
    assert event.payload["kind"] == "annul"
    assert event.payload["arbiter"] == "arbiter"
    assert event.payload["reason"] == "misdeal"
    assert stream_verify(Stream.objects.get(pk=target.pk))["ok"] is True
    run_jobs()
    job = RecomputeJob.objects.get()
    assert (job.status, job.done, job.total) == (RecomputeJob.Status.DONE, 4, 4)
    assert selectors.stream_counts(stream_id=target.pk) is False
    assert not RatingChange.objects.filter(stream_id=target.pk, current=True).exists()
    assert_ratings(pool_ratings(streams[0]), expected_from(streams))


def test_amending_the_result_re_rates_with_the_new_ranks(
    finished: Callable[..., Any], arbiter: Any
) -> None:
    streams = rated_history(4, finished)
    target = streams[0]
    user = target.seats.get(seat=1).user
    dispute = dispute_open(stream_id=target.pk, user=user, reason="scores added wrongly")
    with pytest.raises(DisputeError, match="one rank per seat"):
        dispute_rule(
            dispute_id=dispute.pk, arbiter=arbiter, ruling="amend", reason="x", ranks=[1, 2]
        )
    dispute_rule(
        dispute_id=dispute.pk, arbiter=arbiter, ruling="amend", reason="recount", ranks=[4, 3, 2, 1]
    )
    run_jobs()
    assert RatedGame.objects.get(stream_id=target.pk).ranks == [4, 3, 2, 1]
    assert selectors.stream_outcome(stream=target).ranks == [4, 3, 2, 1]
    assert_ratings(pool_ratings(target), expected_from(streams))


def test_upholding_a_failed_verification_counts_the_game_again(
    finished: Callable[..., Any], arbiter: Any
) -> None:
    streams = rated_history(3, finished)
    late = finished(4, bot_seed="late")
    stream_tamper(late.pk, engine_version="toy-0")
    outcome = game_verify_and_rate(stream_id=late.pk)
    assert outcome.dispute is not None
    assert RatedGame.objects.get(stream_id=late.pk).status == RatedGame.Status.EXCLUDED
    dispute_rule(
        dispute_id=outcome.dispute.pk, arbiter=arbiter, ruling="uphold", reason="same rules"
    )
    run_jobs()
    assert RatedGame.objects.get(stream_id=late.pk).status == RatedGame.Status.RATED
    assert_ratings(pool_ratings(late), expected_from([*streams, late]))


def test_replay_from_move_n_opens_a_stream_continuing_from_that_state(
    finished: Callable[..., Any], seated: list[Any], arbiter: Any
) -> None:
    old = finished(3, turns=8)
    game_verify_and_rate(stream_id=old.pk)
    dispute = dispute_open(stream_id=old.pk, user=seated[0], reason="a misplay at move 5")
    with pytest.raises(DisputeError, match="between 0 and 7"):
        dispute_rule(
            dispute_id=dispute.pk, arbiter=arbiter, ruling="replay", reason="x", from_move=8
        )
    ruled = dispute_rule(
        dispute_id=dispute.pk, arbiter=arbiter, ruling="replay", reason="replay it", from_move=4
    )
    new = Stream.objects.get(pk=ruled.new_stream_id)
    assert new.status == "live"
    assert new.version == 1 + 4 + 1  # set-up, the 4 moves again, the reshuffle
    assert new.seed != old.seed
    assert new.seed_commitment != old.seed_commitment
    assert Event.objects.get(stream=new, seq=1).payload["continues"] == {
        "stream": str(old.pk),
        "after_move": 4,
        "deal_seed": old.seed,
    }
    assert Event.objects.get(stream=new, seq=6).type == "UnseenReshuffled"
    old_state, _ = replay_stream(old, until=1 + 4)
    assert old.game == new.game
    assert current_state(new).hands == old_state.hands  # type: ignore[attr-defined]
    assert current_state(new).rng.seed == new.seed
    assert [s.user_id for s in new.seats.all()] == [s.user_id for s in old.seats.all()]
    assert selectors.stream_counts(stream_id=old.pk) is False
    finished_new = play_stream(new, bot_seed="again")
    assert stream_verify(finished_new)["ok"] is True
    assert game_verify_and_rate(stream_id=finished_new.pk).verification.ok is True  # type: ignore[union-attr]
    run_jobs()
    assert RatedGame.objects.get(stream_id=old.pk).status == RatedGame.Status.EXCLUDED
    assert RatedGame.objects.get(stream_id=new.pk).status == RatedGame.Status.RATED
