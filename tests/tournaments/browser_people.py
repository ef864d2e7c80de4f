"""People of the tournaments' browser tests: accounts with a password, logging in on the
page, and the phone-width check."""

from __future__ import annotations

from typing import Any

from tests.tournaments.factories import UserFactory
from tournaments import services
from tournaments.models import Club

PASSWORD = "a-club-night-password-31"


def no_sideways_scroll(tab: Any) -> None:
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= tab.viewport_size["width"], f"{tab.url} is {width}px wide"


def log_in(tab: Any, username: str) -> None:
    tab.fill("main input[name=username]", username)
    tab.fill("main input[name=password]", PASSWORD)
    tab.click("main button[type=submit]")


def person(username: str, club: Club, role: str = "member") -> Any:
    user = UserFactory(username=username)
    user.set_password(PASSWORD)
    user.save()
    services.club_member_add(club=club, user=user, role=role)
    return user
