"""Platform views: the front page, the favicon, the 500 handler and the health check."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.http import require_GET

import engine
from herald.selectors import my_herald
from herald.services import health_check
from ratings import selectors as ratings
from tournaments import selectors as tournaments

#: Finished tournaments the front page shows (the index lists them all).
RECENT_FINISHED = 3


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page: what Herald is, the tournaments being played (and the latest finished),
    every rating pool's leaders."""
    groups = tournaments.tournaments_grouped()
    summaries = ratings.pool_summaries(top=3)
    names = tournaments.display_names(row.player_id for s in summaries for row in s.leaders)
    names_of_games = {game.id: game.name for game in engine.games()}
    context = {
        "running": groups.running,
        "upcoming": groups.upcoming,
        "finished": groups.finished[:RECENT_FINISHED],
        "more_finished": len(groups.finished) > RECENT_FINISHED,
        "pools": [
            {
                "summary": summary,
                "game_name": names_of_games.get(summary.pool.game, summary.pool.game),
                "leaders": [
                    (row, names.get(row.player_id, row.username)) for row in summary.leaders
                ],
            }
            for summary in summaries
        ],
    }
    return render(request, "herald/home.html", context)


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """/favicon.ico, which browsers ask for by themselves: the SVG icon the pages link to."""
    return HttpResponseRedirect(static("herald/favicon.svg"))


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the API's JSON error body under /api/, the site's static 500 page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": "server_error", "detail": gettext("Herald failed to answer; try again.")}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)


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
    body: dict[str, object] = {
        "database": health.database,
        "broker": health.broker,
        "channel_layer": health.channel_layer,
    }
    if not health.ok:
        down = [name for name, status in body.items() if status not in {"ok", "eager", "in-memory"}]
        body["detail"] = "Down: " + ", ".join(down) + "."
    return JsonResponse(body, status=200 if health.ok else 503)
