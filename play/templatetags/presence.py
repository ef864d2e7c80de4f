"""``{% seat_online table.presence seat as online %}``: whether a seat's player is connected."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def seat_online(presence: Any, seat: Any) -> bool:
    """True when ``presence`` (one boolean per seat, play.presence) says ``seat`` is connected;
    False for a seat it does not cover or a table drawn without presence."""
    try:
        return bool(presence[int(seat)])
    except (TypeError, ValueError, IndexError, KeyError):
        return False
