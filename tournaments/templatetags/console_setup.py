"""The console hub's section for the setup part of the evening (see ``tournaments.console``):
who is registered and checked in, the way to the players and settings pages, and the join
link with its QR code."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors
from tournaments.console.setup import join_url, qr_svg
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("tournaments/console/_setup.html", takes_context=True)
def console_setup(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """What the setup section of the hub shows for ``tournament``."""
    request = context.get("request")
    link = join_url(request, tournament) if request is not None else ""
    return {
        "tournament": tournament,
        "request": request,
        "counts": selectors.registration_counts(tournament),
        "window": selectors.check_in_window(tournament),
        "join_url": link,
        "join_qr": qr_svg(link) if link else "",
    }
