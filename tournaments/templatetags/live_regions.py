"""Live regions other pages draw: the overview's "your table" (``{% my_table tournament %}``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.live_pages import my_table_context
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("tournaments/_my_table.html", takes_context=True)
def my_table(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """The signed-in player's table in the published round (hidden for anyone else)."""
    return my_table_context(context["request"], tournament)
