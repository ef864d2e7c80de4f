"""Template filters that turn stored ids into the words a person reads on a printed page."""

from __future__ import annotations

from django import template

from tournaments import games

register = template.Library()


@register.filter
def game_name(game_id: str) -> str:
    """``{{ tournament.game_id|game_name }}`` → "Les 7 Blasons": pages never print a game id."""
    return games.game_name(game_id)
