"""An arbiter rules on a dispute from the admin: the form calls ``dispute_rule`` as the API does.

Each ruling made through the form must leave what the same ruling through the API leaves
(tests/ratings/test_api.py, test_disputes.py): the dispute ruled, a RulingMade event on the
stream, the game counted, amended or excluded, and the pool's ratings equal to bare trueskill
over the counted games. A refused ruling shows the service's sentence and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from events.models import Event, EventType, Stream
from ratings import selectors
from ratings.admin import DisputeAdmin
from ratings.disputes import dispute_open
from ratings.models import Dispute, RatedGame, RecomputeJob
from ratings.services import recompute_run
from ratings.verification import game_verify_and_rate
from tests.ratings.games import rated_history
from tests.ratings.reference import rate_from_scratch
from tests.tamper import stream_tamper
from tests.users import make_user

pytestmark = pytest.mark.django_db


# -- helpers -------------------------------------------------------------------------------------


@pytest.fixture
def judge(db: None) -> User:
    """An arbiter who can log into the admin (the admin site admits staff only)."""
    return make_user("judge", groups=("arbiters",), staff=True)


def admin_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ruling_url(dispute: Dispute) -> str:
    return f"/admin/ratings/dispute/{dispute.pk}/ruling/"


def change_url(dispute: Dispute) -> str:
    return f"/admin/ratings/dispute/{dispute.pk}/change/"


def dispute_on(stream: Any, reason: str = "look again") -> Dispute:
    return dispute_open(stream_id=stream.pk, user=stream.seats.get(seat=0).user, reason=reason)


def run_jobs() -> None:
    """The recompute jobs the rulings queued (on commit, which a test transaction never reaches)."""
    for job in RecomputeJob.objects.filter(status=RecomputeJob.Status.QUEUED):
        recompute_run(job_id=job.pk)


def assert_pool_is_bare_trueskill(streams: list[Any]) -> None:
    """The pool's ratings equal rating the games that still count, in order, from scratch."""
    games = []
    for stream in streams:
        outcome = selectors.stream_outcome(stream=Stream.objects.get(pk=stream.pk))
        if outcome.counts and outcome.ranks is not None:
            games.append((outcome.players, outcome.ranks))
    expected = rate_from_scratch(games)
    pool = RatedGame.objects.get(stream_id=streams[0].pk).pool
    got = {r.player_id: (r.mu, r.sigma, r.games) for r in pool.ratings.filter(games__gt=0)}
    assert got.keys() == expected.keys()
    for player, values in expected.items():
        assert got[player] == pytest.approx(values, abs=1e-9)


def rule(client: Client, dispute: Dispute, **form: Any) -> Any:
    return client.post(ruling_url(dispute), form, follow=True)


def ruling_event(dispute: Dispute) -> Event:
    return Event.objects.get(stream_id=dispute.stream_id, type=EventType.RULING_MADE)


# -- ruling through the form ---------------------------------------------------------------------


def test_an_arbiter_annuls_through_the_form(finished: Callable[..., Any], judge: User) -> None:
    streams = rated_history(4, finished, seed="admin-ruling")
    target = streams[1]
    dispute = dispute_on(target, "a card was missing")
    client = admin_client(judge)
    page = client.get(change_url(dispute)).content.decode()
    assert ruling_url(dispute) in page
    form = client.get(ruling_url(dispute))
    assert form.status_code == 200
    assert 'name="ruling"' in form.content.decode()
    answer = rule(client, dispute, ruling="annul", reason="misdeal")
    assert answer.redirect_chain == [(change_url(dispute), 302)]
    assert f"Dispute {dispute.pk} ruled: the game is annulled" in answer.content.decode()
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling, dispute.ruled_by) == ("ruled", "annul", judge)
    event = ruling_event(dispute)
    assert (event.seq, event.payload["kind"], event.payload["reason"]) == (
        dispute.ruling_seq,
        "annul",
        "misdeal",
    )
    assert event.payload["arbiter"] == "judge"
    assert dispute.recompute is not None
    run_jobs()
    assert selectors.stream_counts(stream_id=target.pk) is False
    assert RatedGame.objects.get(stream_id=target.pk).status == RatedGame.Status.EXCLUDED
    assert_pool_is_bare_trueskill(streams)


def test_an_arbiter_amends_through_the_form(finished: Callable[..., Any], judge: User) -> None:
    streams = rated_history(4, finished, seed="admin-ruling")
    target = streams[0]
    stored = selectors.stream_outcome(stream=target).ranks
    amended = next(r for r in ([4, 3, 2, 1], [1, 2, 3, 4]) if r != stored)
    dispute = dispute_on(target, "scores added wrongly")
    answer = rule(
        admin_client(judge),
        dispute,
        ruling="amend",
        reason="recount",
        ranks=", ".join(map(str, amended)),
    )
    assert answer.status_code == 200
    assert "the result is amended to ranks " + ", ".join(map(str, amended)) in (
        answer.content.decode()
    )
    dispute.refresh_from_db()
    assert (dispute.status, dispute.amended_ranks) == ("ruled", amended)
    assert ruling_event(dispute).payload["data"]["ranks"] == amended
    run_jobs()
    assert RatedGame.objects.get(stream_id=target.pk).ranks == amended
    assert selectors.stream_outcome(stream=target).ranks == amended
    assert_pool_is_bare_trueskill(streams)


def test_an_arbiter_upholds_a_failed_verification_through_the_form(
    finished: Callable[..., Any], judge: User
) -> None:
    streams = rated_history(3, finished, seed="admin-ruling")
    late = finished(4, bot_seed="admin-late")
    stream_tamper(late.pk, engine_version="toy-0")
    dispute = game_verify_and_rate(stream_id=late.pk).dispute
    assert dispute is not None
    assert RatedGame.objects.get(stream_id=late.pk).status == RatedGame.Status.EXCLUDED
    answer = rule(admin_client(judge), dispute, ruling="uphold", reason="same rules")
    assert f"Dispute {dispute.pk} ruled: the result is upheld" in answer.content.decode()
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling) == ("ruled", "uphold")
    assert ruling_event(dispute).payload["kind"] == "uphold"
    run_jobs()
    assert RatedGame.objects.get(stream_id=late.pk).status == RatedGame.Status.RATED
    assert_pool_is_bare_trueskill([*streams, late])


def test_an_arbiter_replays_from_a_move_through_the_form(
    finished: Callable[..., Any], judge: User
) -> None:
    old = finished(3, turns=8)
    game_verify_and_rate(stream_id=old.pk)
    dispute = dispute_on(old, "a misplay at move 5")
    answer = rule(admin_client(judge), dispute, ruling="replay", reason="replay it", from_move=4)
    dispute.refresh_from_db()
    assert (dispute.status, dispute.replay_from) == ("ruled", 4)
    new = Stream.objects.get(pk=dispute.new_stream_id)
    assert new.version == 1 + 4 + 1  # set-up, the 4 moves again, the unseen cards reshuffled
    assert f"replayed from move 4 in the new stream {new.pk}" in answer.content.decode()
    assert selectors.stream_counts(stream_id=old.pk) is False


# -- refusals write nothing ----------------------------------------------------------------------


def assert_nothing_written(dispute: Dispute, stream: Any) -> None:
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling, dispute.ruling_seq) == ("open", "", None)
    assert Stream.objects.get(pk=stream.pk).version == stream.version
    assert not Event.objects.filter(stream=stream, type=EventType.RULING_MADE).exists()
    assert not RecomputeJob.objects.exists()
    assert Stream.objects.count() == 1


@pytest.mark.parametrize(
    ("form", "status", "sentence"),
    [
        ({"ruling": "amend", "ranks": "1, 1"}, 400, "Give one rank per seat (4)"),
        ({"ruling": "amend", "ranks": "1, 1, 1, 2"}, 400, "ties sharing a place"),
        ({"ruling": "amend"}, 400, "Give one rank per seat (4)"),
        ({"ruling": "amend", "ranks": "first, second"}, 400, "as numbers separated by commas"),
        ({"ruling": "amend", "ranks": "0, 1, 2, 3"}, 400, "Ranks start at 1"),
        ({"ruling": "replay"}, 400, "Say from which move"),
        ({"ruling": "replay", "from_move": 99}, 400, "between 0 and 7"),
        ({"ruling": "annul", "reason": "   "}, 400, "This field is required"),
        ({"ruling": "overturn"}, 400, "Select a valid choice"),
    ],
)
def test_a_refused_ruling_shows_why_and_writes_nothing(
    finished: Callable[..., Any], judge: User, form: dict[str, Any], status: int, sentence: str
) -> None:
    stream = finished(4)
    dispute = dispute_on(stream)
    answer = admin_client(judge).post(ruling_url(dispute), {"reason": "recount", **form})
    assert answer.status_code == status
    assert sentence in answer.content.decode()
    assert_nothing_written(dispute, stream)


# -- a ruled dispute -----------------------------------------------------------------------------


def test_a_ruled_dispute_shows_its_ruling_read_only(
    finished: Callable[..., Any], judge: User
) -> None:
    stream = finished(2)
    dispute = dispute_on(stream)
    client = admin_client(judge)
    rule(client, dispute, ruling="annul", reason="the deck was short")
    page = client.get(change_url(dispute)).content.decode()
    assert ruling_url(dispute) not in page
    assert "the deck was short" in page
    shown = client.get(ruling_url(dispute)).content.decode()
    assert "Annul the game" in shown
    assert "the deck was short" in shown
    assert 'name="ruling"' not in shown
    version = Stream.objects.get(pk=stream.pk).version
    again = client.post(ruling_url(dispute), {"ruling": "uphold", "reason": "changed my mind"})
    assert again.status_code == 409
    assert "already been ruled on" in again.content.decode()
    assert Stream.objects.get(pk=stream.pk).version == version
    dispute.refresh_from_db()
    assert dispute.ruling == "annul"


# -- who may rule --------------------------------------------------------------------------------


def test_whoever_the_api_refuses_cannot_rule_in_the_admin(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    stream = finished(4)
    dispute = dispute_on(stream)
    player = seated[1]  # seated, logged in, neither staff nor arbiter
    client = admin_client(player)
    for answer in (
        client.get(ruling_url(dispute)),
        client.post(ruling_url(dispute), {"ruling": "annul", "reason": "I lost"}),
    ):
        assert answer.status_code == 302
        assert answer["Location"].startswith("/admin/login/")
    # Behind the admin site's own door, the view refuses them itself with the API's check.
    request = RequestFactory().post(ruling_url(dispute), {"ruling": "annul", "reason": "I lost"})
    request.user = player
    with pytest.raises(PermissionDenied):
        DisputeAdmin(Dispute, admin.site).ruling_view(request, dispute.pk)
    assert_nothing_written(dispute, stream)


def test_a_staff_member_without_the_arbiters_group_rules_as_the_api_lets_them(
    finished: Callable[..., Any],
) -> None:
    """The API's check (herald.roles.is_privileged) admits staff; the admin follows it."""
    stream = finished(4)
    dispute = dispute_on(stream)
    staff = make_user("clerk", staff=True)
    api = APIClient()
    api.force_authenticate(staff)
    by_api = api.post(
        f"/api/v1/disputes/{dispute.pk}/ruling",
        {"ruling": "amend", "reason": "x", "ranks": [1, 1]},
        format="json",
    )
    assert by_api.status_code == 400  # let in, the ranks refused: not a 403
    client = admin_client(staff)
    assert ruling_url(dispute) in client.get(change_url(dispute)).content.decode()
    assert client.get(ruling_url(dispute)).status_code == 200
