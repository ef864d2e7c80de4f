"""Demo data: a club, 16 bot players, one tournament per game played to the end by bots.

Everything goes through the services the API uses: tournaments' services pair, confirm and
release rounds (which opens the streams), bots post their moves with
``events.services.stream_append_move``, and each finished game is verified and rated as the
worker's task does, so standings, leaderboards, streams and the admin are filled.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection

import engine
from engine.bots import GreedyBot, RandomBot
from events.models import Stream, StreamSeat
from events.services import stream_append_move, stream_open
from herald.roles import ARBITERS
from ratings.disputes import DisputeError, dispute_open
from ratings.verification import game_verify_and_rate
from tournaments import services as tournaments
from tournaments.models import Player, Table, Tournament

logger = logging.getLogger(__name__)

CLUB = "Herald Demo Club"
PLAYERS = 16
ADMIN, ARBITER, ORGANISER, PLAYER = "admin", "arbiter", "organiser", "player"
#: The demo player who logs in: one of the 16 (a random bot plays their moves), entered in every
#: demo tournament (each takes the first players of the list, at least 8).
PLAYER_INDEX = 5
PASSWORD_BYTES = 12  # the demo accounts' password: random, made at demo time, printed once


@dataclass(frozen=True)
class DemoPlan:
    """How one game's demo tournament is played: kept small so the demo takes seconds."""

    players: int
    rounds: int
    options: dict[str, Any] = field(default_factory=dict)


#: Per game: players entered, rounds played, options (shorter games where the game has one).
PLANS: dict[str, DemoPlan] = {
    "13-couronnes": DemoPlan(players=16, rounds=3, options={"max_turns": 12}),
    "les-7-blasons": DemoPlan(players=16, rounds=2),
    "blazon": DemoPlan(players=8, rounds=2),
}
DEFAULT_PLAN = DemoPlan(players=8, rounds=2)


def demo_is_needed() -> bool:
    """True when the database has no tournament yet (``--if-empty``)."""
    return not Tournament.objects.exists()


def demo_populate(*, say: Callable[[str], None] = print, seed: str = "demo") -> dict[str, Any]:
    """Create the demo club, players and accounts, then one finished tournament per game.

    The demo accounts (admin, arbiter, organiser, player) get a password generated now
    (``password`` in the answer, for the command to print once); accounts already there keep
    theirs (``password`` None).
    """
    _sqlite_without_fsync()
    password = secrets.token_urlsafe(PASSWORD_BYTES)
    admin, arbiter, fresh = _accounts(password)
    club = tournaments.club_get_or_create(name=CLUB)
    # The admin runs the demo club's tournaments as its organiser (staff could anyway).
    tournaments.club_member_add(club=club, user=admin, role="organiser")
    organiser, made_organiser = _organiser(club, password)
    players = [_player(index, club) for index in range(1, PLAYERS + 1)]
    fresh += [ORGANISER] if made_organiser else []
    fresh += [PLAYER] if _claim(players[PLAYER_INDEX - 1].user, password) else []
    bots = _bots(players, seed)
    made = []
    for game in engine.games():
        plan = PLANS.get(game.id, DEFAULT_PLAN)
        tournament = _tournament(game, plan, players, admin, club)
        for number in range(1, plan.rounds + 1):
            _play_round(tournament, admin, bots, f"{seed}/{game.id}/{number}")
        tournaments.tournament_finish(tournament=tournament)
        say(f"{tournament.name}: {plan.rounds} rounds played, verified and rated")
        made.append(tournament)
    _open_a_dispute(made, say)
    open_games = _open_games([players[PLAYER_INDEX - 1].user, organiser, arbiter], say)
    return {
        "admin": admin,
        "arbiter": arbiter,
        "organiser": organiser,
        "player": players[PLAYER_INDEX - 1].user,
        "password": password if fresh else None,
        "fresh": fresh,
        "tournaments": made,
        "open_games": open_games,
    }


def _sqlite_without_fsync() -> None:
    """On SQLite, skip the fsync after each commit for this connection: every move is a
    transaction, and demo data is worth less than the minute the syncs would cost."""
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")


def _accounts(password: str) -> tuple[Any, Any, list[str]]:
    """The admin and arbiter accounts, created with ``password`` if missing; the names made.

    The arbiter is staff (the admin lets in staff only) and in the "arbiters" group, whose
    permissions (herald's migration 0003) open streams, events, ratings and disputes.
    """
    users = get_user_model()
    fresh = []
    admin = users.objects.filter(username=ADMIN).first()
    if admin is None:
        admin = users.objects.create_superuser(ADMIN, password=password)
        fresh.append(ADMIN)
    arbiter = users.objects.filter(username=ARBITER).first()
    if arbiter is None:
        arbiter = users.objects.create_user(ARBITER, password=password, is_staff=True)
        fresh.append(ARBITER)
    elif not arbiter.is_staff:
        arbiter.is_staff = True
        arbiter.save(update_fields=["is_staff"])
    arbiter.groups.add(Group.objects.get_or_create(name=ARBITERS)[0])
    return admin, arbiter, fresh


def _organiser(club: Any, password: str) -> tuple[Any, bool]:
    """The demo club's organiser: runs its tournaments, is not staff; True if created now."""
    users = get_user_model()
    organiser = users.objects.filter(username=ORGANISER).first()
    created = organiser is None
    if organiser is None:
        organiser = users.objects.create_user(ORGANISER, password=password)
    tournaments.club_member_add(club=club, user=organiser, role="organiser")
    return organiser, created


def _claim(user: Any, password: str) -> bool:
    """Give the demo player's account (made, like any registered player's, with no password
    and an invitation) the demo password, as claiming it would; True if it had none."""
    if user.has_usable_password():
        return False
    user.set_password(password)
    user.save(update_fields=["password"])
    return True


def _player(index: int, club: Any) -> Any:
    username = PLAYER if index == PLAYER_INDEX else f"bot{index:02d}"
    existing = Player.objects.filter(user__username=username).first()
    if existing is not None:
        return existing
    strong = index <= 4
    display = f"{'Greedy' if strong else 'Random'} bot {index:02d}"
    if index == PLAYER_INDEX:
        display = "Demo Player"
    return tournaments.player_create(username=username, display_name=display, club=club)


def _bots(players: list[Any], seed: str) -> dict[int, Any]:
    """User id → bot: the first four look one move ahead, the others play at random."""
    return {
        player.user_id: (
            GreedyBot(f"{seed}/{player.user_id}", max_candidates=8)
            if index < 4
            else RandomBot(f"{seed}/{player.user_id}")
        )
        for index, player in enumerate(players)
    }


def _tournament(game: Any, plan: DemoPlan, players: list[Any], admin: Any, club: Any) -> Any:
    count = Tournament.objects.filter(game_id=game.id).count()
    tournament = tournaments.tournament_create(
        name=f"{game.name} demo night" + (f" {count + 1}" if count else ""),
        game_id=game.id,
        organiser=admin,
        club=club,
        options=plan.options,
        rounds_planned=plan.rounds,
        dispute_window_minutes=7 * 24 * 60,
        pairing_seed=f"demo-{game.id}-{count}",
    )
    for player in players[: plan.players]:
        tournaments.registration_create(tournament=tournament, player=player, checked_in=True)
    return tournament


def _play_round(tournament: Any, admin: Any, bots: dict[int, Any], seed: str) -> None:
    """Pair, confirm and release a round, let the bots play every table, verify and rate."""
    drawn = tournaments.round_pair_next(tournament=tournament, by=admin)
    released = tournaments.round_release(round_=tournaments.round_confirm(round_=drawn))
    for table in released.tables.filter(is_bye=False).exclude(stream_id=None):
        stream = Stream.objects.get(pk=table.stream_id)
        bots_play(stream, bots)
        game_verify_and_rate(stream_id=stream.pk)  # idempotent: a worker may do it too


def bots_play(stream: Any, bots: dict[int, Any], *, max_moves: int = 100_000) -> None:
    """Bots post moves to ``stream`` through the event store's service until the game ends."""
    game = engine.get(stream.game)
    seats = dict(stream.seats.values_list("seat", "user_id"))
    state = game.new_game(
        players=len(seats), seed=stream.seed, options=stream.options, edition=stream.edition
    )
    version = stream.version
    for _ in range(max_moves):
        to_act = game.to_act(state)
        if not to_act:
            return
        seat = to_act[0]
        move = bots[seats[seat]].choose(game, state, seat, game.legal_moves(state, seat))
        outcome = stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=version
        )
        version = outcome.version
        game.apply_in_place(state, seat, move)
    raise RuntimeError(f"stream {stream.pk} did not end after {max_moves} moves")


def _open_a_dispute(tournaments_made: list[Any], say: Callable[[str], None]) -> None:
    """One open dispute, so the arbiter's list and the admin show what one looks like."""
    if not tournaments_made:
        return
    table = (
        Table.objects.filter(round__tournament=tournaments_made[0], stream_id__isnull=False)
        .order_by("round__number", "number")
        .first()
    )
    if table is None:
        return
    seat = StreamSeat.objects.filter(stream_id=table.stream_id, seat=1).select_related("user")
    try:
        dispute = dispute_open(
            stream_id=table.stream_id,
            user=seat.get().user,
            reason="I think a King was placed on the wrong law: please check move 5.",
        )
    except DisputeError as exc:
        say(f"no demo dispute: {exc.detail}")
        return
    say(f"dispute {dispute.pk} is open on the first table of {tournaments_made[0].name}")


def _open_games(accounts: list[Any], say: Callable[[str], None]) -> list[Any]:
    """One public game of each game not started yet, seated with the demo accounts that log in
    (player, organiser, then arbiter when the game needs three): two people try a game against
    each other in two browsers, and anyone may watch it."""
    opened = []
    for game in engine.games():
        seats = accounts[: max(game.min_players, 2)]
        if len(seats) < game.min_players:
            continue  # more players than the demo's accounts: nobody could sit at it
        stream = stream_open(game_id=game.id, seats=seats, public=True, context={"demo": "open"})
        names = ", ".join(user.get_username() for user in seats)
        say(f"an open game of {game.name} to try: /games/{stream.pk}/ (seated: {names})")
        opened.append(stream)
    return opened
