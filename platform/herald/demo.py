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
from events.services import stream_append_move
from herald.roles import ARBITERS
from play.drawings import DRAWINGS
from play.services import OpenGameSetup, open_game_create
from ratings.disputes import DisputeError, dispute_open, dispute_statement_add, moves_played
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
#: The second demo player, who joins an open game with the first (a third person watches).
PLAYER2 = "player2"


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
    open_night = _open_night(organiser, players, club, say)
    fresh += _open_games_to_try(admin, club, password, say)
    return {
        "admin": admin,
        "arbiter": arbiter,
        "organiser": organiser,
        "player": players[PLAYER_INDEX - 1].user,
        "password": password if fresh else None,
        "fresh": fresh,
        "tournaments": made,
        "open_night": open_night,
    }


#: The night left open for registration, for the organiser to run in the browser: 13 Couronnes,
#: tables of 3 and 4, three rounds, played with physical cards (the demo's players are
#: accounts nobody plays for live: their results are reported, or entered at the console).
OPEN_NIGHT = "13 Couronnes: open night"
OPEN_NIGHT_ENTERED = 11  # the demo player makes it 12 by the join link


def _open_night(organiser: Any, players: list[Any], club: Any, say: Callable[[str], None]) -> Any:
    """A Swiss night of 13 Couronnes open for registration (its join link works), with eleven
    of the demo's players registered and not yet checked in; the demo player is left out, to
    join by the link."""
    night = tournaments.tournament_create(
        name=OPEN_NIGHT,
        game_id="13-couronnes",
        organiser=organiser,
        club=club,
        table_preferred=4,
        table_allowed=[3, 4],
        rounds_planned=3,
        table_mode="paper",
    )
    others = [p for index, p in enumerate(players, start=1) if index != PLAYER_INDEX]
    for player in others[:OPEN_NIGHT_ENTERED]:
        tournaments.registration_create(tournament=night, player=player, by=organiser)
    say(
        f"{night.name}: open for registration, {OPEN_NIGHT_ENTERED} players entered; join link "
        f"/tournaments/{night.pk}/join/{night.join_token}/"
    )
    return night


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


#: The move the demo's open dispute is about (the game's last one if it has fewer).
DEMO_DISPUTED_MOVE = 5


def _open_a_dispute(tournaments_made: list[Any], say: Callable[[str], None]) -> None:
    """One open dispute the demo arbiter can rule on from the site (/disputes/): on the first
    table of the first tournament, about its fifth move, with the other side's statement."""
    if not tournaments_made:
        return
    table = (
        Table.objects.filter(round__tournament=tournaments_made[0], stream_id__isnull=False)
        .order_by("round__number", "number")
        .first()
    )
    if table is None:
        return
    seats = {
        seat.seat: seat.user
        for seat in StreamSeat.objects.filter(stream_id=table.stream_id).select_related("user")
    }
    try:
        dispute = dispute_open(
            stream_id=table.stream_id,
            user=seats[1],
            reason="I think a King was placed on the wrong law at this move: please check it.",
            move=min(DEMO_DISPUTED_MOVE, moves_played(table.stream_id)),
        )
        dispute_statement_add(
            dispute_id=dispute.pk,
            user=seats[0],
            text="The King went where the card said; the result should stand.",
        )
    except DisputeError as exc:
        say(f"no demo dispute: {exc.detail}")
        return
    say(f"dispute {dispute.pk} is open on the first table of {tournaments_made[0].name}")


def _open_games_to_try(
    admin: Any, club: Any, password: str, say: Callable[[str], None]
) -> list[str]:
    """One open game of each game drawn at the table, public, for two people to try: two free
    seats, and house bots in the others when the game needs more players (Les 7 Blasons: 3
    seats, one house bot). The demo's "player" and the second demo player (made here, with the
    demo password) take the two seats; anyone watches. Returns ["player2"] if its password
    was set now."""
    second = Player.objects.filter(user__username=PLAYER2).first() or tournaments.player_create(
        username=PLAYER2, display_name="Demo Player 2", club=club
    )
    for game_id in DRAWINGS:
        game = engine.get(game_id)
        players = max(game.min_players, 2)
        setup = OpenGameSetup(
            game_id=game_id, players=players, options={}, house_bots=players - 2, take_seat=False
        )
        open_game_create(by=admin, setup=setup)
        say(f"an open game of {game.name} waits for two players at /games/")
    return [PLAYER2] if _claim(second.user, password) else []
