"""What the site's navigation needs on every page: the section shown, the "club" link and
the arbiter's desk.

A context processor (settings.TEMPLATES) so that every view, the error pages included, gets
them without passing them; the club is looked up only when a page draws the link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from herald.roles import is_privileged
from tournaments import selectors

#: The nav entry a path belongs to (its first segment), marked aria-current on the page.
SECTIONS = {"tournaments": "tournaments", "ratings": "ratings", "clubs": "clubs", "me": "me"}


@dataclass(frozen=True)
class NavClub:
    """The nav's club link: the user's club when they belong to exactly one, else the list."""

    url: str
    mine: bool


def nav_club_for(user: Any) -> NavClub:
    """The club link ``user`` sees."""
    club = selectors.user_only_club(user)
    if club is None:
        return NavClub(url=reverse("club-pages:list"), mine=False)
    return NavClub(url=reverse("club-pages:detail", args=[club.pk]), mine=True)


def site_nav(request: HttpRequest) -> dict[str, Any]:
    """``nav_section`` (tournaments, ratings, clubs, me or ""), ``nav_club`` and
    ``nav_disputes`` (whether the arbiter's desk is in the nav: staff and arbiters; lazy, one
    query for a signed-in user who is not staff)."""
    first = request.path.strip("/").split("/", 1)[0]
    # An error page drawn before the auth middleware ran has no user: it gets the list.
    user = getattr(request, "user", None) or AnonymousUser()
    return {
        "nav_section": SECTIONS.get(first, ""),
        "nav_club": SimpleLazyObject(lambda: nav_club_for(user)),
        "nav_disputes": SimpleLazyObject(lambda: is_privileged(user)),
    }
