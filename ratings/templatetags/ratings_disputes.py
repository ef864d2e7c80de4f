"""The dispute lines other apps' pages include: the game page's (play) and My Herald's.

The game page belongs to ``play``, which draws the table; what it says about disputes is the
ratings app's, so the page includes ``ratings/disputes/_game_dispute.html``, which asks this tag
(one selector call) for the reader's lines.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from ratings import dispute_selectors as desk

register = template.Library()


@register.inclusion_tag("ratings/disputes/_game_panel.html", takes_context=True)
def game_dispute_panel(context: template.Context, stream_id: Any) -> dict[str, Any]:
    """``{% game_dispute_panel game.stream_id %}``: the game's rulings, its open dispute, and
    the "dispute this game" link for a seated player who may still file one."""
    # A page rendered without a request (none is, today) reads as a visitor's.
    request = context.get("request")
    user = getattr(request, "user", None) or AnonymousUser()
    return {"panel": desk.game_dispute_panel(stream_id=stream_id, user=user)}
