"""Who may rule: arbiters and staff, never on a game they play in (API, admin and service alike).

A refusal is 403 ``forbidden`` with a sentence, and writes nothing: the dispute stays open, the
stream gets no ruling event and no recompute is queued.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from rest_framework.test import APIClient

from events.models import EventType, Stream
from ratings.disputes import DisputeError, dispute_open, dispute_rule
from ratings.models import Dispute, RecomputeJob
from tests.users import make_user

pytestmark = pytest.mark.django_db

CONFLICT = "You play in this game: another arbiter or staff must rule."


def make_arbiter(user: User) -> User:
    user.groups.add(Group.objects.get_or_create(name="arbiters")[0])
    return user


def disputed(finished: Callable[..., Any], seated: list[User]) -> tuple[Stream, Dispute]:
    """A finished game of seated[0..3] disputed by seated[1]."""
    stream = finished(4)
    return stream, dispute_open(stream_id=stream.pk, user=seated[1], reason="look again")


def assert_nothing_written(dispute: Dispute, stream: Stream) -> None:
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.OPEN
    assert dispute.ruling == ""
    fresh = Stream.objects.get(pk=stream.pk)
    assert fresh.version == stream.version
    assert not fresh.events.filter(type=EventType.RULING_MADE).exists()
    assert not RecomputeJob.objects.exists()


def api_rule(user: User, dispute: Dispute, **body: Any) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/v1/disputes/{dispute.pk}/ruling", body, format="json")


def test_an_arbiter_seated_in_the_game_may_not_rule(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    stream, dispute = disputed(finished, seated)
    player_arbiter = make_arbiter(seated[0])
    with pytest.raises(DisputeError) as refused:
        dispute_rule(
            dispute_id=dispute.pk, arbiter=player_arbiter, ruling="amend", reason="I won",
            ranks=[1, 2, 3, 4],
        )  # fmt: skip
    assert (refused.value.status, refused.value.code, refused.value.detail) == (
        403,
        "forbidden",
        CONFLICT,
    )
    assert_nothing_written(dispute, stream)


def test_a_seated_staff_member_may_not_rule_either(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    stream, dispute = disputed(finished, seated)
    seated[2].is_staff = True
    seated[2].save(update_fields=["is_staff"])
    answer = api_rule(seated[2], dispute, ruling="annul", reason="void")
    assert answer.status_code == 403
    assert answer.json() == {"error": "forbidden", "detail": CONFLICT}
    assert_nothing_written(dispute, stream)


def test_the_api_refuses_a_seated_arbiter_and_another_arbiter_rules(
    finished: Callable[..., Any], seated: list[User], arbiter: User
) -> None:
    stream, dispute = disputed(finished, seated)
    body = {"ruling": "amend", "reason": "recount", "ranks": [1, 2, 3, 4]}
    refused = api_rule(make_arbiter(seated[0]), dispute, **body)
    assert refused.status_code == 403
    assert refused.json() == {"error": "forbidden", "detail": CONFLICT}
    assert_nothing_written(dispute, stream)
    ruled = api_rule(arbiter, dispute, **body)
    assert ruled.status_code == 200, ruled.json()
    assert ruled.json()["dispute"]["ruled_by"] == "arbiter"


def test_a_non_arbiter_ruling_is_forbidden(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    stream, dispute = disputed(finished, seated)
    outsider = seated[5]  # not in the game, not an arbiter
    answer = api_rule(outsider, dispute, ruling="annul", reason="no")
    assert answer.status_code == 403
    assert answer.json() == {
        "error": "forbidden",
        "detail": "Only an arbiter or staff member rules on disputes.",
    }
    assert_nothing_written(dispute, stream)


def test_the_admin_form_refuses_a_seated_arbiter_with_the_services_sentence(
    finished: Callable[..., Any], seated: list[User]
) -> None:
    stream, dispute = disputed(finished, seated)
    judge = make_arbiter(seated[3])
    judge.is_staff = True  # the admin site admits staff only
    judge.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(judge)
    url = f"/admin/ratings/dispute/{dispute.pk}/ruling/"
    answer = client.post(url, {"ruling": "annul", "reason": "I lost"})
    assert answer.status_code == 403
    assert CONFLICT in answer.content.decode()
    assert_nothing_written(dispute, stream)
    other = make_user("other-judge", groups=("arbiters",), staff=True)
    client.force_login(other)
    assert client.post(url, {"ruling": "annul", "reason": "deck short"}).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruled_by) == (Dispute.Status.RULED, other)
