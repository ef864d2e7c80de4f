"""Platform views: the front page and the health check."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import engine
from herald.selectors import my_herald
from herald.services import health_check
from ratings import selectors as ratings
from tournaments import selectors as tournaments


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page: every tournament with its pages, every rating pool's leaderboard."""
    names = {game.id: game.name for game in engine.games()}
    context = {
        "tournaments": [
            (tournament, names.get(tournament.game_id, tournament.game_id))
            for tournament in tournaments.tournament_list()
        ],
        "pools": [(pool, names.get(pool.game, pool.game)) for pool in ratings.pool_list()],
    }
    return render(request, "herald/home.html", context)


@require_GET
@login_required
def me(request: HttpRequest) -> HttpResponse:
    """The signed-in person's own page ("My Herald"): tables now, games, tournaments,
    disputes and ratings, read by :func:`herald.selectors.my_herald`."""
    return render(request, "herald/me.html", {"mine": my_herald(request.user)})


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with each dependency's status, or 503 naming what is down."""
    health = health_check()
    body: dict[str, object] = {"database": health.database, "broker": health.broker}
    if not health.ok:
        down = [name for name, status in body.items() if status not in {"ok", "eager"}]
        body["detail"] = "Down: " + ", ".join(down) + "."
    return JsonResponse(body, status=200 if health.ok else 503)
