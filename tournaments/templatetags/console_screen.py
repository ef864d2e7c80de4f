"""The console hub's section for the screen part of the evening (see ``tournaments.console``):
the projector's link and the round's clock controls."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import live_selectors
from tournaments.console.screen import timer_context
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("tournaments/console/_screen.html", takes_context=True)
def console_screen(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """What the screen section of the hub shows for ``tournament``."""
    round_ = live_selectors.round_published(tournament)
    drawn: dict[str, Any] = {"tournament": tournament, "round": None}
    if round_ is not None:
        drawn.update(timer_context(tournament, round_))
    drawn.update(request=context.get("request"), refusal=context.get("screen_refusal", ""))
    return drawn
