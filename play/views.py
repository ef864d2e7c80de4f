"""The game page: a stream's table as the one who opens it may see it."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from events.access import StreamAccess, access_stream_for_user
from events.errors import StreamNotFound
from herald.account_views import refusal
from herald.params import BadNumber
from play import rendering, selectors
from play import replay as replays


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


@require_GET
def replay(request: HttpRequest, stream: UUID) -> HttpResponse:
    """The replay viewer: the game drawn as at the table after move ``?move=n`` (the last move
    when absent), as the one who opens it may see it (play.replay), with the step in words,
    its chance outcomes and the hash chain's health. A bad ``n`` is a 400 or a 404 that says
    which moves the game has."""
    access = _access(request, stream)
    summary = selectors.game_summary(access)
    drawing = selectors.table_drawing(summary)
    if drawing is None:
        detail = gettext("The replay draws the table of the games drawn at the live table only.")
        return refusal(request, gettext("No replay for this game yet"), detail, status=404)
    moves = replays.moves_of(access)
    try:
        move = replays.requested_move(request.GET.get("move"), moves=moves)
    except BadNumber as exc:
        return refusal(request, gettext("No such move"), str(exc), status=400)
    except replays.MoveOutOfRange as exc:
        return refusal(request, gettext("No such move"), exc.detail, status=404)
    step = replays.replay_step(access, summary, drawing, move=move)
    for board in step.boards:
        context = {**_board_context(access, board), "drawing": drawing}
        drawn = render_to_string(drawing.template, context, request=request)
        if board.before is not None:
            before = render_to_string(
                drawing.template, {**context, "table": board.before}, request=request
            )
            drawn = replays.mark_new_items(drawn, before)
        board.html = replays.mark_changed(drawn, step.affected)
    context = {"game": summary, "drawing": drawing, "step": step}
    return render(request, "play/replay.html", context)


def _board_context(access: StreamAccess, board: replays.Board) -> dict[str, Any]:
    """The drawing's context for one view of the replay: the seed and the result's JSON on the
    step that ends the game only (the drawing shows them on its game-over panel)."""
    final = board.game.finished
    result = board.game.result if final else None
    return {
        "game": board.game,
        "table": board.table,
        "result_json": json.dumps(result, sort_keys=True) if result else "",
        "revealed_seed": access.stream.seed if final and access.stream.is_finished else "",
    }
