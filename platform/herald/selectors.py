"""Reads composed from every app for the site's own pages: "My Herald" (``/me/``).

Each app answers for its part (tournaments: the player's tables and tournaments; events: the
streams they sit in; ratings: their ratings and disputes); this module only puts the answers
together, names the games once for all of them, and keeps the page's query count flat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events import selectors as events
from play.selectors import game_name
from ratings import dispute_selectors as disputes_desk
from ratings import selectors as ratings
from ratings.charts import RatingChart, rating_chart
from ratings.models import Dispute
from tournaments import selectors as tournaments
from tournaments.models import Player, Table


@dataclass(frozen=True)
class Where:
    """The tournament table a game is played at (empty for a game outside tournaments)."""

    tournament_id: int | None = None
    tournament_name: str = ""
    round_number: int | None = None
    table_number: int | None = None


def _where(table: Table | None) -> Where:
    if table is None:
        return Where()
    return Where(
        table.round.tournament_id, table.round.tournament.name, table.round.number, table.number
    )


@dataclass(frozen=True)
class MyGame:
    """A game the user sits in: running or finished, with their result once it has ended."""

    stream_id: Any
    game_name: str
    finished: bool
    version: int
    seat: int  # 1-based
    players: int
    rank: int | None
    score: Any
    where: Where


@dataclass(frozen=True)
class MyDispute:
    """A dispute the user opened or one on a game they played."""

    dispute: Dispute
    opened_by_me: bool
    where: Where


@dataclass(frozen=True)
class MyRatingLine:
    """A rating in one pool, with the game's name and its chart."""

    rating: ratings.MyRating
    game_name: str
    chart: RatingChart | None

    @property
    def chart_id(self) -> str:
        """The chart's id on the page (its title and description are named after it)."""
        return f"rating-chart-{self.rating.rating.pool_id}"


@dataclass(frozen=True)
class MyHerald:
    """Everything the "My Herald" page shows; ``player`` None for a user who is no player."""

    player: Player | None
    tables: list[tournaments.MyTable]
    games: list[MyGame]
    tournaments: list[tournaments.MyTournament]
    disputes: list[MyDispute]
    rulings: list[disputes_desk.RulingLine]
    ratings: list[MyRatingLine]
    provisional_games: int


def my_herald(user: Any) -> MyHerald:
    """The page of the signed-in ``user``: their tables now, games, tournaments, disputes and
    ratings. A bounded number of queries, whatever the number of games or tournaments."""
    player = Player.objects.filter(user_id=user.pk).first()
    seated = events.user_streams(user)
    disputes = list(ratings.disputes_of_user(user_id=user.pk))
    tables = tournaments.tables_by_stream(
        {s.stream.pk for s in seated} | {d.stream_id for d in disputes}
    )
    games = [
        MyGame(
            stream_id=s.stream.pk,
            game_name=game_name(s.stream.game),
            finished=s.stream.is_finished,
            version=s.stream.version,
            seat=s.seat + 1,
            players=s.stream.players,
            rank=s.my_rank,
            score=s.my_score,
            where=_where(tables.get(s.stream.pk)),
        )
        for s in seated
    ]
    return MyHerald(
        player=player,
        tables=tournaments.player_current_tables(player) if player is not None else [],
        games=games,
        tournaments=tournaments.player_tournaments(player) if player is not None else [],
        disputes=[
            MyDispute(d, d.opened_by_id == user.pk, _where(tables.get(d.stream_id)))
            for d in disputes
        ],
        rulings=disputes_desk.rulings_for_player(user_id=user.pk),
        ratings=[
            MyRatingLine(line, game_name(line.rating.pool.game), rating_chart(line.points))
            for line in ratings.player_ratings_with_history(player_id=user.pk)
        ],
        provisional_games=ratings.provisional_games(),
    )
