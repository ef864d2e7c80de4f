"""The game page: a stream's table as the one who opens it may see it."""

from __future__ import annotations

import json
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from events.access import access_stream_for_user
from events.errors import StreamNotFound
from play import selectors


@require_GET
def table(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The game's summary for a seated player, an arbiter or staff, or anyone when public.

    A private game someone may not see is a 404, as the API answers: its existence is not
    confirmed to them.
    """
    try:
        access = access_stream_for_user(request.user, stream)
    except StreamNotFound:
        raise Http404(gettext("There is no game %(id)s.") % {"id": stream}) from None
    summary = selectors.game_summary(access)
    context = {
        "game": summary,
        "result_json": json.dumps(summary.result, sort_keys=True) if summary.result else "",
    }
    return render(request, "play/table.html", context)
