"""Site-wide roles: Django groups every app reads the same way.

Staff (``is_staff``) and arbiters (group "arbiters") are privileged: they see every stream's
hidden information and rule on disputes; organisers (group "organisers") may open streams.
Club roles (a club's members and organisers) live with the clubs, in ``tournaments``.
"""

from __future__ import annotations

from typing import Any

ARBITERS = "arbiters"
ORGANISERS = "organisers"


def in_group(user: Any, name: str) -> bool:
    """True when ``user`` is authenticated and in the Django group ``name``."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.groups.filter(name=name).exists())


def is_privileged(user: Any) -> bool:
    """Staff and arbiters see every stream's hidden information, at any time."""
    return bool(getattr(user, "is_staff", False)) or in_group(user, ARBITERS)


def can_open_streams(user: Any) -> bool:
    """Organisers, arbiters and staff may open streams."""
    return is_privileged(user) or in_group(user, ORGANISERS)
