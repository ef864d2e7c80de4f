"""The console hub's section for the setup part of the evening (see ``tournaments.console``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("tournaments/console/_setup.html", takes_context=True)
def console_setup(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """What the setup section of the hub shows for ``tournament``."""
    return {"tournament": tournament, "request": context.get("request")}
