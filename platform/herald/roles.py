"""Site-wide roles: Django groups every app reads the same way.

Staff (``is_staff``) and arbiters (group "arbiters") are privileged: they see every stream's
hidden information and rule on disputes; organisers (group "organisers") may open streams.
Club roles (a club's members and organisers) live with the clubs, in ``tournaments``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.models import Q

ARBITERS = "arbiters"
ORGANISERS = "organisers"
#: The house bots' accounts (the play app's, which take seats in open games): no login, and
#: a game one of them played is never rated (ratings.services.never_counted).
HOUSE_BOTS = "house bots"


def in_group(user: Any, name: str) -> bool:
    """True when ``user`` is authenticated and in the Django group ``name`` (asked of the
    database every time: a role taken away counts from the next request, or the next move a
    table socket draws)."""
    if not getattr(user, "is_authenticated", False):
        return False
    with connection.cursor() as cursor:
        cursor.execute(_membership_sql(), [user.pk, name])
        return cursor.fetchone() is not None


@cache
def _membership_sql() -> str:
    """``user.groups.filter(name=name).exists()`` as one statement written once: the ORM
    compiled it on every call, three quarters of its cost (0.54 ms against 0.13 ms), and a
    table socket asks it of each spectator on every move it draws."""
    quote = connection.ops.quote_name
    through = get_user_model().groups.through._meta
    user_column = through.get_field("user").column
    group_column = through.get_field("group").column
    return (
        f"SELECT 1 FROM {quote(through.db_table)} INNER JOIN {quote(Group._meta.db_table)}"
        f" ON {quote(through.db_table)}.{quote(group_column)} ="
        f" {quote(Group._meta.db_table)}.{quote(Group._meta.pk.column)}"
        f" WHERE {quote(through.db_table)}.{quote(user_column)} = %s"
        f" AND {quote(Group._meta.db_table)}.{quote(Group._meta.get_field('name').column)} = %s"
        " LIMIT 1"
    )


def is_privileged(user: Any) -> bool:
    """Staff and arbiters see every stream's hidden information, at any time."""
    return bool(getattr(user, "is_staff", False)) or in_group(user, ARBITERS)


def can_open_streams(user: Any) -> bool:
    """Organisers, arbiters and staff may open streams."""
    return is_privileged(user) or in_group(user, ORGANISERS)


#: (app label, model, actions) an arbiter needs in the admin: streams, their events and replay,
#: verifications and ratings to read, disputes to read and rule on, the tournaments' tables
#: and results to read. Herald's migration 0003 grants the same list (frozen there).
ARBITER_PERMISSIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("events", "stream", ("view",)),
    ("events", "event", ("view",)),
    ("ratings", "verification", ("view",)),
    ("ratings", "rating", ("view",)),
    ("ratings", "ratingchange", ("view",)),
    ("ratings", "ratedgame", ("view",)),
    ("ratings", "ratingpool", ("view",)),
    ("ratings", "recomputejob", ("view",)),
    ("ratings", "dispute", ("view", "change")),
    ("ratings", "disputestatement", ("view",)),
    ("tournaments", "tournament", ("view",)),
    ("tournaments", "round", ("view",)),
    ("tournaments", "table", ("view",)),
    ("tournaments", "result", ("view",)),
)


def arbiters_group_ensure(**kwargs: Any) -> None:
    """Make sure the "arbiters" group exists with :data:`ARBITER_PERMISSIONS` (idempotent).

    Connected to ``post_migrate``: the migration granted them once, but ``flush`` (the test
    suite's transactional tests, ``manage.py flush``) empties the group tables and then sends
    ``post_migrate``, which puts them back here.
    """
    wanted = Q(pk__in=[])
    for app_label, model, actions in ARBITER_PERMISSIONS:
        codenames = [f"{action}_{model}" for action in actions]
        wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
    group, _ = Group.objects.get_or_create(name=ARBITERS)
    group.permissions.add(*Permission.objects.filter(wanted))
