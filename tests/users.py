"""Test users in each role, shared by the app test suites."""

from __future__ import annotations

from django.contrib.auth.models import Group, User

from herald.services import token_issue


def make_user(
    username: str, *, groups: tuple[str, ...] = (), staff: bool = False, password: str | None = None
) -> User:
    """A user in ``groups`` ("arbiters", "organisers"); no password unless one is given."""
    user = User.objects.create_user(username, password=password, is_staff=staff)
    for name in groups:
        user.groups.add(Group.objects.get_or_create(name=name)[0])
    return user


def token_for(user: User) -> str:
    """A new API token for ``user`` (as POST /api/v1/auth/token issues them)."""
    return token_issue(user)[1]
