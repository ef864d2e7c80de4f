"""The game page: a stream's table as the one who opens it may see it."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from events.access import StreamAccess, access_stream_for_user
from events.errors import StreamNotFound
from play import selectors


def _access(request: HttpRequest, stream: UUID) -> StreamAccess:
    """The user's standing at the stream; a 404 when they may not see it.

    A private game someone may not see is a 404, as the API answers: its existence is not
    confirmed to them.
    """
    try:
        return access_stream_for_user(request.user, stream)
    except StreamNotFound:
        raise Http404(gettext("There is no game %(id)s.") % {"id": stream}) from None


def _context(access: StreamAccess) -> dict[str, Any]:
    summary = selectors.game_summary(access)
    return {
        "game": summary,
        "table": selectors.seat_table(access, summary),
        "drawing": selectors.table_drawing(summary),
        "result_json": json.dumps(summary.result, sort_keys=True) if summary.result else "",
        # Sealed while the game runs; anyone who may see the game may check it once it ended.
        "revealed_seed": access.stream.seed if access.stream.is_finished else "",
        "verification": selectors.verification_status(access.stream),
    }


@require_GET
def table(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The game page for a seated player, an arbiter or staff, or anyone when public: the live
    table for the games drawn so far, the game's public facts for the others."""
    return render(request, "play/table.html", _context(_access(request, stream)))


@require_GET
def fragment(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The table alone (its root element), drawn for the one who asks: the page's script
    swaps it in after a move or when the socket says the stream advanced."""
    context = _context(_access(request, stream))
    if context["table"] is None:
        raise Http404(gettext("This game has no live table yet."))
    response = render(request, context["drawing"].template, context)
    response["Cache-Control"] = "no-store"
    return response
