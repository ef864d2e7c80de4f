"""The game page: a stream's table as the one who opens it may see it."""

from __future__ import annotations

from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from events.access import StreamAccess, access_stream_for_user
from events.errors import StreamNotFound
from play import rendering


def _access(request: HttpRequest, stream: UUID) -> StreamAccess:
    """The user's standing at the stream; a 404 when they may not see it.

    A private game someone may not see is a 404, as the API answers: its existence is not
    confirmed to them.
    """
    try:
        return access_stream_for_user(request.user, stream)
    except StreamNotFound:
        raise Http404(gettext("There is no game %(id)s.") % {"id": stream}) from None


@require_GET
def table(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The game page for a seated player, an arbiter or staff, or anyone when public: the live
    table for the games drawn so far, the game's public facts for the others."""
    return render(request, "play/table.html", rendering.table_context(_access(request, stream)))


@require_GET
def fragment(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The table alone (its root element), drawn for the one who asks: the page's script
    swaps it in after a move or when the socket says the stream advanced."""
    drawn = rendering.render_table(_access(request, stream), translation.get_language())
    if drawn is None:
        raise Http404(gettext("This game has no live table yet."))
    response = HttpResponse(drawn[1])
    response["Cache-Control"] = "no-store"
    return response
