"""Public ratings pages: a pool's leaderboard (optionally one club's) and a player's history.

Server-rendered and printable, like the tournaments' pages; the views only read selectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

import engine
from herald.params import BadNumber, whole_number
from ratings import selectors
from ratings.charts import rating_chart
from ratings.models import RatedGame, RatingPool
from tournaments import selectors as tournaments


def _pool(pool_id: int) -> RatingPool:
    return get_object_or_404(selectors.pool_list(), pk=pool_id)


#: Leaderboard lines per page.
PAGE_SIZE = 100
#: The last page number asked for: its offset still fits PostgreSQL's OFFSET comfortably.
MAX_PAGE = 1_000_000


def _page_number(request: HttpRequest) -> int:
    """The ``?page=`` number, from 1; 404 when it is not a whole number from 1 to MAX_PAGE."""
    raw = request.GET.get("page", "1").strip() or "1"
    try:
        return whole_number(raw, name="page", minimum=1, maximum=MAX_PAGE)
    except BadNumber:
        raise Http404(
            gettext("There is no leaderboard page {raw}.").format(raw=repr(raw))
        ) from None


def _game_name(game_id: str) -> str:
    return next((game.name for game in engine.games() if game.id == game_id), game_id)


def _club_id(request: HttpRequest, clubs: list[Any]) -> int | None:
    """The ``?club=`` filter: None when absent or empty, 404 when it names no club."""
    raw = request.GET.get("club", "").strip()
    if not raw:
        return None
    try:
        club_id = whole_number(raw, name="club")
    except BadNumber:
        club_id = None
    if club_id is None or club_id not in {club.pk for club in clubs}:
        raise Http404(gettext("There is no club with id {raw}.").format(raw=repr(raw)))
    return club_id


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """One entry per rating pool: its game, edition family, rated players and top three."""
    summaries = selectors.pool_summaries(top=3)
    names = tournaments.display_names(
        row.player_id for summary in summaries for row in summary.leaders
    )
    context = {
        "pools": [
            {
                "summary": summary,
                "game_name": _game_name(summary.pool.game),
                "leaders": [
                    (row, names.get(row.player_id, row.username)) for row in summary.leaders
                ],
            }
            for summary in summaries
        ],
        "provisional_games": selectors.provisional_games(),
    }
    return render(request, "ratings/index.html", context)


@require_GET
def leaderboard(request: HttpRequest, pool_id: int) -> HttpResponse:
    """The pool's players by conservative rating μ − 3σ, best first."""
    pool = _pool(pool_id)
    clubs = list(tournaments.club_list())
    club_id = _club_id(request, clubs)
    number = _page_number(request)
    # One line more than a page tells whether a next page exists without counting.
    rows = selectors.leaderboard(
        pool=pool, club_id=club_id, limit=PAGE_SIZE + 1, offset=(number - 1) * PAGE_SIZE
    )
    has_next, rows = len(rows) > PAGE_SIZE, rows[:PAGE_SIZE]
    names = tournaments.display_names(row.player_id for row in rows)
    context = {
        "pool": pool,
        "game_name": _game_name(pool.game),
        "rows": [(row, names.get(row.player_id, row.username)) for row in rows],
        "clubs": clubs,
        "club_id": club_id,
        "page": number,
        "has_next": has_next,
        "provisional_games": selectors.provisional_games(),
    }
    return render(request, "ratings/leaderboard.html", context)


@dataclass(frozen=True)
class HistoryLine:
    """One rated game of a player: where it was played and the rating before and after."""

    sequence: int
    completed_at: datetime
    label: str
    tournament_id: int | None
    round_number: int | None
    rank: int
    before: float
    after: float
    reported: bool = False  # a paper table's result, not replay-verified

    @property
    def delta(self) -> float:
        return self.after - self.before


@require_GET
def player_history(request: HttpRequest, pool_id: int, player_id: int) -> HttpResponse:
    """A player's rated games in the pool, oldest first, each with μ − 3σ before → after."""
    pool = _pool(pool_id)
    user = get_object_or_404(get_user_model(), pk=player_id)
    changes = list(selectors.player_history(pool=pool, player_id=player_id).select_related("game"))
    tables = tournaments.tables_by_stream(change.stream_id for change in changes)
    lines = []
    for change in changes:
        table = tables.get(change.stream_id)
        label = (
            gettext("%(tournament)s, round %(round)s, table %(table)s")
            % {
                "tournament": table.round.tournament.name,
                "round": table.round.number,
                "table": table.number,
            }
            if table is not None
            else gettext("game %(id)s") % {"id": str(change.stream_id)[:8]}
        )
        lines.append(
            HistoryLine(
                sequence=change.sequence,
                completed_at=change.game.completed_at,
                label=label,
                tournament_id=None if table is None else table.round.tournament_id,
                round_number=None if table is None else table.round.number,
                rank=change.rank,
                before=change.mu_before - 3 * change.sigma_before,
                after=change.mu_after - 3 * change.sigma_after,
                reported=change.game.source == RatedGame.Source.REPORTED,
            )
        )
    rating = selectors.player_ratings(player_id=player_id).filter(pool=pool).first()
    names = tournaments.display_names([player_id])
    name = names.get(player_id, user.get_username())
    context = {
        "pool": pool,
        "game_name": _game_name(pool.game),
        "player": user,
        "name": name,
        "rating": rating,
        "lines": lines,
        "chart": rating_chart(selectors.rating_points(changes)),
        "chart_title": gettext("The %(game)s rating of %(name)s, game by game")
        % {"game": _game_name(pool.game), "name": name},
        "provisional_games": selectors.provisional_games(),
    }
    return render(request, "ratings/player_history.html", context)
