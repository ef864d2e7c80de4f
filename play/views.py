"""The game pages: a stream's table as the one who opens it may see it; the lobby of open
games (list, set-up form, join, leave, start, cancel)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import engine
from events.access import StreamAccess, access_stream_for_user
from events.errors import StreamNotFound
from herald.account_views import refusal
from herald.params import BadNumber
from play import rendering, selectors, services
from play import replay as replays
from play.forms import OpenGameForm
from play.lobby import game_choice, lobby_for, startable_games, user_clubs
from play.models import OpenGame
from play.templating import render_to_string


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
    return render(request, "play/table.html", rendering.page_context(_access(request, stream)))


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


# -- the lobby: open games to try --------------------------------------------------------------

#: The lobby's place in the site's nav (base.html marks it aria-current).
LOBBY_NAV = "games"


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The open games the visitor may see, the games being played, and the games to set up."""
    context = {
        "lobby": lobby_for(request.user),
        "startable": startable_games(),
        "nav_section": LOBBY_NAV,
    }
    return render(request, "play/lobby.html", context)


@require_GET
def lobby_fragment(request: HttpRequest) -> HttpResponse:
    """The lobby's lists alone: the page's script fetches it every few seconds."""
    response = render(request, "play/lobby_lists.html", {"lobby": lobby_for(request.user)})
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def lobby_new(request: HttpRequest, game_id: str) -> HttpResponse:
    """The form that sets an open game of ``game_id`` up; a 400 with the form's sentences."""
    choice = game_choice(game_id)
    if choice is None:
        raise Http404(gettext("There is no game %(id)s to set up here.") % {"id": game_id})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    game = engine.get(choice.id)
    form = OpenGameForm(game, user_clubs(request.user), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = services.open_game_create(by=request.user, setup=_setup(choice.id, form))
        except services.LobbyError as refused:
            form.add_error(None, refused.detail)
        else:
            return HttpResponseRedirect(_after(made))
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "choice": choice, "nav_section": LOBBY_NAV}
    return render(request, "play/lobby_new.html", context, status=status)


def _setup(game_id: str, form: OpenGameForm) -> services.OpenGameSetup:
    data = form.cleaned_data
    return services.OpenGameSetup(
        game_id=game_id,
        players=data["players"],
        options=form.options(),
        edition=data.get("edition") or None,
        club_id=form.club_id(),
        house_bots=data.get("house_bots") or 0,
        start_now=bool(data.get("start_now")),
    )


def _after(open_game: OpenGame) -> str:
    """Where a player goes after a step: the table once the game started, else the lobby."""
    if open_game.stream_id is not None:
        return reverse("play:table", args=[open_game.stream_id])
    return reverse("play:lobby") + f"#open-{open_game.pk}"


#: The lobby's actions: url name's last word -> the service.
LOBBY_ACTIONS: dict[str, Callable[..., OpenGame]] = {
    "join": lambda pk, user: services.open_game_join(open_game_id=pk, user=user),
    "leave": lambda pk, user: services.open_game_leave(open_game_id=pk, user=user),
    "start": lambda pk, user: services.open_game_start(open_game_id=pk, by=user),
    "cancel": lambda pk, user: services.open_game_cancel(open_game_id=pk, by=user),
}


@require_POST
def lobby_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Take a seat, leave it, start the game early or cancel it; then to the table (started)
    or back to the lobby. A refusal is a page with its sentence and 4xx status."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("play:lobby"))
    try:
        open_game = LOBBY_ACTIONS[action](pk, request.user)
    except services.LobbyError as refused:
        return refusal(
            request, gettext("This cannot be done"), refused.detail, status=refused.status
        )
    if action in ("leave", "cancel"):
        return HttpResponseRedirect(reverse("play:lobby"))
    return HttpResponseRedirect(_after(open_game))
