"""Site-wide roles (herald.roles): a group's membership is read from the database on every
question, so a role given or taken away counts at once, and only the named group counts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from herald.roles import ARBITERS, ORGANISERS, can_open_streams, in_group, is_privileged
from tests.users import make_user

pytestmark = pytest.mark.django_db


def test_membership_counts_from_the_next_question_and_only_for_its_group() -> None:
    user, other = make_user("Roland"), make_user("Sibylle")
    arbiters, _ = Group.objects.get_or_create(name=ARBITERS)
    organisers, _ = Group.objects.get_or_create(name=ORGANISERS)
    assert not in_group(user, ARBITERS)
    user.groups.add(organisers)
    other.groups.add(arbiters)
    assert not in_group(user, ARBITERS)
    assert in_group(user, ORGANISERS)
    assert can_open_streams(user)
    assert not is_privileged(user)
    user.groups.add(arbiters)
    assert in_group(user, ARBITERS)
    assert is_privileged(user)
    user.groups.remove(arbiters)
    assert not in_group(user, ARBITERS)
    assert not is_privileged(user)
    assert not in_group(user, "no such group")


def test_an_anonymous_visitor_is_in_no_group_and_costs_no_query() -> None:
    with CaptureQueriesContext(connection) as asked:
        assert not in_group(AnonymousUser(), ARBITERS)
        assert not in_group(None, ARBITERS)
    assert asked.captured_queries == []
