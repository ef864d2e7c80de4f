"""A busy player made through the services: tournaments, a running table, finished and rated
games, and a dispute. Shared by the tests of /me/ and of the game page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.models import Stream
from ratings.disputes import dispute_open
from ratings.verification import game_verify_and_rate
from tests.ratings.games import play_stream
from tournaments import services
from tournaments.models import Player, Round, Table, Tournament

GAME = "13-couronnes"
OPTIONS = {"max_turns": 3}  # short games: about ten moves each


@dataclass(frozen=True)
class Busy:
    """The busy player and what the tests look up about them."""

    player: Player
    others: list[Player]
    organiser: Any
    tournaments: list[Tournament]
    running: Stream  # the player's game now, a few moves in
    running_table: Table
    finished: list[Stream]  # the player's finished games, in the order they ended
    dispute_stream: Stream


def _tournament(name: str, players: list[Player], organiser: Any) -> Tournament:
    tournament = services.tournament_create(
        name=name,
        game_id=GAME,
        organiser=organiser,
        club=players[0].club,
        options=OPTIONS,
        table_preferred=4,
        table_allowed=[4],
        points_by_rank=[4, 2, 1, 0],
        rounds_planned=3,
        pairing_seed=f"seed-{name}",
    )
    for player in players:
        services.registration_create(tournament=tournament, player=player, checked_in=True)
    return tournament


def round_open(tournament: Tournament, organiser: Any) -> Round:
    """Pair, confirm and release the next round (its tables' streams open)."""
    drawn = services.round_pair_next(tournament=tournament, by=organiser)
    return services.round_release(round_=services.round_confirm(round_=drawn))


def table_of(round_: Round, player: Player) -> Table:
    return round_.tables.get(seats__registration__player=player)


def play_round_to_end(round_: Round) -> None:
    """Every table's game played to the end by bots, then verified, rated and counted."""
    for table in round_.tables.filter(is_bye=False).exclude(stream_id=None):
        stream = play_stream(Stream.objects.get(pk=table.stream_id), bot_seed=f"t{table.pk}")
        game_verify_and_rate(stream_id=stream.pk)


def busy_player() -> Busy:
    """Eight club players, two tournaments: the busy player has two rated games in the first
    (and a dispute on the first), one in the second, and a game running in round 3 of the first."""
    club = services.club_get_or_create(name="Les Couronnes")
    organiser = services.player_create(username="orga", display_name="Organiser", club=club).user
    services.club_member_add(club=club, user=organiser, role="organiser")
    players = [
        services.player_create(username=f"p{i}", display_name=f"Player {i}", club=club)
        for i in range(8)
    ]
    me = players[0]
    first = _tournament("Spring cup", players, organiser)
    second = _tournament("Summer cup", players, organiser)
    finished = []
    for tournament in (first, second, first):
        round_ = round_open(tournament, organiser)
        play_round_to_end(round_)
        finished.append(Stream.objects.get(pk=table_of(round_, me).stream_id))
    last = round_open(first, organiser)
    running_table = table_of(last, me)
    running = play_stream(Stream.objects.get(pk=running_table.stream_id), stop_after=3)
    dispute_open(stream_id=finished[0].pk, user=me.user, reason="Please check move 5.")
    return Busy(
        me, players[1:], organiser, [first, second], running, running_table, finished, finished[0]
    )
