"""Writes of the play app: open games (create, join, leave, start, cancel) and the house bot.

An open game waits in the lobby while people take its seats; it starts when its last seat is
taken, or earlier when its creator says so (house bots then take the free seats). Starting
opens the game stream through ``events.services.stream_open`` and the open game remembers it.

The house bot: accounts in the ``herald.roles.HOUSE_BOTS`` group (no login, no password)
that hold seats. A stream with a house bot is opened with ``events.services.TURN_NOTICE`` in
its context, so each of its moves writes an outbox entry whose task
(:func:`play.tasks.house_bot_move`) calls :func:`house_bot_move`: if a bot is to act, it plays
one legal move through ``stream_append_move``, as a player's move is made. A game with a house
bot is never rated (``ratings.services.never_counted``).

Every refusal is a :class:`LobbyError` with a sentence and its HTTP status; nothing is
half-written (each service is one transaction, the open game's row locked).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine.bots import RandomBot
from engine.core import EngineError, Game, InvalidOptions
from events.errors import NotYourTurn, StreamFinished, VersionConflict
from events.models import Stream, StreamSeat
from events.outbox import outbox_publish
from events.services import TURN_NOTICE, TURN_TOPIC, AppendOutcome, stream_append_move, stream_open
from events.states import current_state, game_of
from herald.errors import ServiceError
from herald.roles import HOUSE_BOTS
from herald.texts import render
from play.drawings import drawing_for
from play.models import OpenGame, OpenSeat
from tournaments.models import ClubMembership, Player

logger = logging.getLogger(__name__)

#: The house bots' usernames: "house-bot", then "house-bot-2"... (a stream takes a user in one
#: seat only, so a game with three bots needs three accounts).
HOUSE_BOT = "house-bot"


class LobbyError(ServiceError):
    """An open game that cannot be made, joined, left or started, in a sentence."""


class OpenGameNotFound(LobbyError):
    status = 404
    code = "not_found"


class OpenGameConflict(LobbyError):
    """The open game moved on (full, started, cancelled) or the user is already seated."""

    status = 409
    code = "conflict"


@dataclass(frozen=True)
class OpenGameSetup:
    """What the creator chose: the game, its seats and options, who may join."""

    game_id: str
    players: int
    options: Mapping[str, Any]
    edition: str | None = None
    club_id: int | None = None  # None: public; else only the club's members may join
    house_bots: int = 0  # seats the house bot takes now (the last ones)
    take_seat: bool = True  # the creator sits in seat 1
    start_now: bool = False  # house bots in the empty seats, and the game starts


# -- house bot accounts -------------------------------------------------------------------------


def house_bot_username(index: int) -> str:
    """The ``index``-th house bot's username (1-based)."""
    return HOUSE_BOT if index == 1 else f"{HOUSE_BOT}-{index}"


def house_bots_ensure(count: int) -> list[Any]:
    """The first ``count`` house bot accounts, made if missing: inactive (no login), with no
    usable password, in the HOUSE_BOTS group, named "House bot", "House bot 2"... on tables."""
    group = Group.objects.get_or_create(name=HOUSE_BOTS)[0]
    return [_house_bot(index, group) for index in range(1, count + 1)]


def _house_bot(index: int, group: Group) -> Any:
    users = get_user_model()
    username = house_bot_username(index)
    bot = users.objects.filter(username=username).first()
    if bot is None:
        try:
            with transaction.atomic():
                bot = users.objects.create_user(username=username, is_active=False)
                Player.objects.create(user=bot, display_name=_house_bot_name(index))
        except IntegrityError:  # made by a concurrent request just now
            bot = users.objects.get(username=username)
    bot.groups.add(group)
    return bot


def _house_bot_name(index: int) -> str:
    # Stored data, like a player's display name: the lobby draws bot seats in words of its own.
    return "House bot" if index == 1 else f"House bot {index}"


def is_house_bot(user: Any) -> bool:
    """True for a house bot account."""
    return bool(user.groups.filter(name=HOUSE_BOTS).exists())


# -- open games ---------------------------------------------------------------------------------


def open_game_create(*, by: AbstractBaseUser, setup: OpenGameSetup) -> OpenGame:
    """Set an open game up for ``by``: checked against the game's bounds and options; the
    creator takes seat 1 (unless ``take_seat`` is off: the demo's games), house bots the last
    ``house_bots`` seats. It starts at once when ``start_now`` (bots in the empty seats) or when
    no seat is left free."""
    game = _drawn_game(setup.game_id)
    edition, options = _checked_setup(game, setup)
    club = _club_for(by, setup.club_id)
    if not 0 <= setup.house_bots <= setup.players - 1:
        raise LobbyError(
            gettext("A game of %(players)s seats takes 0 to %(most)s house bots.")
            % {"players": setup.players, "most": setup.players - 1}
        )
    if setup.start_now and not setup.take_seat:
        raise LobbyError(gettext("A game starts with at least one person at the table."))
    with transaction.atomic():
        open_game = OpenGame.objects.create(
            game=game.id, edition=edition, options=options, players=setup.players,
            public=club is None, club=club, created_by=by,
        )  # fmt: skip
        if setup.take_seat:
            OpenSeat.objects.create(open_game=open_game, number=0, user=by)
        bots = house_bots_ensure(setup.house_bots)
        first_bot_seat = setup.players - setup.house_bots
        for offset, bot in enumerate(bots):
            OpenSeat.objects.create(
                open_game=open_game, number=first_bot_seat + offset, user=bot, house_bot=True
            )
        if setup.start_now:
            _fill_with_bots(open_game)
        if not _free_seats(open_game):
            _start(open_game)
    return open_game


def _drawn_game(game_id: str) -> Game[Any]:
    """The engine of a game drawn at the live table (only those can be played in the browser)."""
    if drawing_for(game_id) is None:
        raise LobbyError(
            gettext("%(game)s cannot be played at the table yet.") % {"game": game_id or "?"}
        )
    return engine.get(game_id)


def _checked_setup(game: Game[Any], setup: OpenGameSetup) -> tuple[str, dict[str, Any]]:
    """The edition and the normalised options, or the engine's refusal in the viewer's words."""
    try:
        edition = game.check_setup(setup.players, setup.edition)
        return edition, game.normalize_options(setup.options)
    except InvalidOptions as refused:
        raise LobbyError(_sentence(render(refused.text))) from None


def _sentence(text: str) -> str:
    """The engine speaks in clauses ("option 'x' must be..."); a page says a sentence."""
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text


def _club_for(user: AbstractBaseUser, club_id: int | None) -> Any:
    """The club a club-only game is for; the creator must belong to it."""
    if club_id is None:
        return None
    membership = ClubMembership.objects.filter(user_id=user.pk, club_id=club_id).first()
    if membership is None:
        raise LobbyError(gettext("A club-only game is for a club you belong to."))
    return membership.club


def open_game_join(*, open_game_id: int, user: AbstractBaseUser) -> OpenGame:
    """Seat ``user`` in the lowest free seat; the game starts when that was the last one."""
    with transaction.atomic():
        open_game = _locked(open_game_id, user)
        _check_open(open_game)
        if OpenSeat.objects.filter(open_game=open_game, user_id=user.pk).exists():
            raise OpenGameConflict(gettext("You already have a seat in this game."))
        free = _free_seats(open_game)
        if not free:
            raise OpenGameConflict(gettext("This game has no free seat left."))
        OpenSeat.objects.create(open_game=open_game, number=free[0], user=user)
        if len(free) == 1:
            _start(open_game)
    return open_game


def open_game_leave(*, open_game_id: int, user: AbstractBaseUser) -> OpenGame:
    """Give ``user``'s seat back before the game starts; a game no person sits in any more
    is cancelled (its bots alone would wait for nobody)."""
    with transaction.atomic():
        open_game = _locked(open_game_id, user)
        _check_open(open_game)
        deleted, _ = OpenSeat.objects.filter(open_game=open_game, user_id=user.pk).delete()
        if not deleted:
            raise LobbyError(gettext("You have no seat in this game."))
        if not OpenSeat.objects.filter(open_game=open_game, house_bot=False).exists():
            _cancel(open_game)
    return open_game


def open_game_start(*, open_game_id: int, by: AbstractBaseUser) -> OpenGame:
    """Start now, with house bots in the free seats: for the game's creator (or staff), once
    a person sits at the table."""
    with transaction.atomic():
        open_game = _locked(open_game_id, by)
        _check_open(open_game)
        _check_runs_it(open_game, by)
        if not OpenSeat.objects.filter(open_game=open_game, house_bot=False).exists():
            raise LobbyError(gettext("A game starts with at least one person at the table."))
        _fill_with_bots(open_game)
        _start(open_game)
    return open_game


def open_game_cancel(*, open_game_id: int, by: AbstractBaseUser) -> OpenGame:
    """Take the game out of the lobby before it starts: for its creator (or staff)."""
    with transaction.atomic():
        open_game = _locked(open_game_id, by)
        _check_open(open_game)
        _check_runs_it(open_game, by)
        _cancel(open_game)
    return open_game


def open_games_visible_to(user: Any) -> Any:
    """The open games ``user`` may see: public ones, and club-only ones of their clubs."""
    games = OpenGame.objects.all()
    if getattr(user, "is_staff", False):
        return games
    if not getattr(user, "is_authenticated", False):
        return games.filter(public=True)
    clubs = ClubMembership.objects.filter(user_id=user.pk).values("club_id")
    return games.filter(public=True) | games.filter(public=False, club_id__in=clubs)


def _locked(open_game_id: int, user: Any) -> OpenGame:
    """The open game's row, locked, if ``user`` may see it (a 404 otherwise)."""
    found = open_games_visible_to(user).select_for_update().filter(pk=open_game_id).first()
    if found is None:
        raise OpenGameNotFound(gettext("There is no open game %(id)s.") % {"id": open_game_id})
    found_game: OpenGame = found
    return found_game


def _check_open(open_game: OpenGame) -> None:
    if open_game.state == OpenGame.State.STARTED:
        raise OpenGameConflict(gettext("This game has already started."))
    if open_game.state == OpenGame.State.CANCELLED:
        raise OpenGameConflict(gettext("This game was cancelled."))


def _check_runs_it(open_game: OpenGame, user: Any) -> None:
    if open_game.created_by_id != user.pk and not getattr(user, "is_staff", False):
        raise LobbyError(gettext("Only the player who set this game up may do that."), status=403)


def _free_seats(open_game: OpenGame) -> list[int]:
    taken = set(OpenSeat.objects.filter(open_game=open_game).values_list("number", flat=True))
    return [number for number in range(open_game.players) if number not in taken]


def _fill_with_bots(open_game: OpenGame) -> None:
    """House bots in every free seat (each bot account once per game)."""
    free = _free_seats(open_game)
    if not free:
        return
    seated = set(OpenSeat.objects.filter(open_game=open_game).values_list("user_id", flat=True))
    bots = [bot for bot in house_bots_ensure(open_game.players) if bot.pk not in seated]
    for number, bot in zip(free, bots, strict=False):
        OpenSeat.objects.create(open_game=open_game, number=number, user=bot, house_bot=True)


def _start(open_game: OpenGame) -> Stream:
    """Open the stream with the seated players in seat order; with house bots, their turns are
    followed (TURN_NOTICE) and a first notice is written in case a bot plays first."""
    seats = list(OpenSeat.objects.filter(open_game=open_game).select_related("user"))
    bot_seats = [seat.number for seat in seats if seat.house_bot]
    context: dict[str, Any] = {"open_game": open_game.pk}
    if bot_seats:
        context.update({TURN_NOTICE: True, "house_bots": bot_seats})
    try:
        stream = stream_open(
            game_id=open_game.game, seats=[seat.user for seat in seats],
            options=open_game.options, edition=open_game.edition,
            created_by=open_game.created_by, context=context, public=open_game.public,
        )  # fmt: skip
    except EngineError as refused:
        detail = render(refused.text) if isinstance(refused, InvalidOptions) else str(refused)
        raise LobbyError(_sentence(detail)) from None
    open_game.state, open_game.stream = OpenGame.State.STARTED, stream
    open_game.started_at = timezone.now()
    open_game.save(update_fields=["state", "stream", "started_at"])
    if bot_seats:
        outbox_publish(topic=TURN_TOPIC, payload={"stream": str(stream.pk), "version": 1})
    return stream


def _cancel(open_game: OpenGame) -> None:
    open_game.state = OpenGame.State.CANCELLED
    open_game.save(update_fields=["state"])


# -- the house bot's move -----------------------------------------------------------------------


def house_bot_seats(stream: Stream) -> set[int]:
    """The seats of ``stream`` a house bot holds."""
    seats = StreamSeat.objects.filter(stream=stream, user__groups__name=HOUSE_BOTS)
    return set(seats.values_list("seat", flat=True))


def house_bot_move(*, stream_id: UUID | str) -> AppendOutcome | None:
    """If a house bot is to act on the stream, play one of its legal moves (chosen at random,
    from a seed of the stream and version, so a redelivered task makes the same move) through
    ``stream_append_move`` with the version it read, and return what it stored; else None.

    The random bot reads nothing but the seat's legal moves (a look-ahead bot would read the
    whole state, the other hands with it). A stale version (a person moved first), a finished
    game or a turn that is no longer the bot's is not an error: the commit that got there first
    writes its own notice, and the bot acts on that one if it still has to.
    """
    stream = Stream.objects.filter(pk=stream_id).first()
    if stream is None or stream.is_finished:
        return None
    bots = house_bot_seats(stream)
    game = game_of(stream)
    state = current_state(stream)
    seat = next((seat for seat in game.to_act(state) if seat in bots), None)
    if seat is None:
        return None
    version = stream.version
    chooser = RandomBot(f"house-bot/{stream.pk}/{version}")
    move = chooser.choose(game, state, seat, game.legal_moves(state, seat))
    try:
        return stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=version,
            idempotency_key=f"house-bot/{version}",
        )  # fmt: skip
    except (VersionConflict, StreamFinished, NotYourTurn) as stale:
        logger.info("house bot on %s at version %s: %s", stream.pk, version, stale)
        return None
