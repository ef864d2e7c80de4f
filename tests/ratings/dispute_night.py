"""A club night to dispute: a 13 Couronnes tournament of four players, two rounds played to
the end by bots through the event store, verified and rated, as the worker would.

Shared by the dispute pages' server tests and their browser test (which needs the same data
committed for its server process).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from events.models import Stream
from ratings.disputes import dispute_open
from ratings.models import Dispute
from ratings.verification import game_verify_and_rate
from tests.ratings.games import play_stream
from tests.ratings.tournament_play import club_players, round_open, round_streams, tournament_start
from tests.users import make_user
from tournaments import services as tournaments
from tournaments.models import Player, Table, Tournament


@dataclass
class Night:
    """The tournament, its players, its two games (one per round) and the people who judge."""

    tournament: Tournament
    players: list[Player]
    games: list[Stream]
    arbiter: User
    organiser: User

    def table_of(self, stream: Stream) -> Table:
        return Table.objects.select_related("round").get(stream_id=stream.pk)

    def seat_user(self, stream: Stream, seat: int) -> User:
        user: User = stream.seats.get(seat=seat).user
        return user

    def name_of(self, user: Any) -> str:
        return next(p.display_name for p in self.players if p.user_id == user.pk)

    def dispute(self, stream: Stream, *, seat: int = 0, move: int | None = 2) -> Dispute:
        """A dispute opened on ``stream`` by the player in ``seat`` about ``move``."""
        return dispute_open(
            stream_id=stream.pk,
            user=self.seat_user(stream, seat),
            reason="The King went on the wrong law: please check.",
            move=move,
        )


def dispute_night(*, arbiter_name: str = "judge", seed: str = "night") -> Night:
    """Four players, two rounds of 13 Couronnes played and rated, an arbiter, an organiser."""
    organiser = make_user("organiser-night", staff=True)
    players = club_players(4)
    tournament = tournament_start(players, organiser)
    games = []
    for _ in range(2):
        round_ = round_open(tournament, organiser)
        for stream in round_streams(round_):
            finished = play_stream(stream, bot_seed=f"{seed}/{round_.number}")
            game_verify_and_rate(stream_id=finished.pk)
            games.append(Stream.objects.get(pk=finished.pk))
    tournaments.tournament_finish(tournament=tournament)
    arbiter = make_user(arbiter_name, groups=("arbiters",))
    return Night(tournament, players, games, arbiter, organiser)
