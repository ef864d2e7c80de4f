"""The names people read for user accounts, whichever app keeps them.

The event store sits below the app that knows players' display names (tournaments keeps them
on its ``Player`` rows), yet its admin pages and game records name the players. That app
registers a source of names here when it starts (``TournamentsConfig.ready``); without one, a
user is named by their full name, else their username.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: A source of names: user ids -> display names (the ids it knows; others left out).
NameSource = Callable[[Iterable[int]], Mapping[int, str]]

_sources: list[NameSource] = []


def display_names_register(source: NameSource) -> None:
    """Add a source of display names (once; a source registered again is ignored)."""
    if source not in _sources:
        _sources.append(source)


def display_names(users: Iterable[Any]) -> dict[int, str]:
    """User id -> the name people read: a registered source's, else the user's full name,
    else the username."""
    users = list(users)
    names = {user.pk: user.get_full_name() or user.get_username() for user in users}
    ids = list(names)
    for source in _sources:
        names.update({pk: name for pk, name in source(ids).items() if pk in names and name})
    return names
