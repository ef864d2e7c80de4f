"""Reads of the lobby: the open games a visitor may see and join, the games being played from
it, and the games that can be set up (those drawn at the live table).

Everything here is public: who sits where, the options, the state. Nothing of a game's
hidden information is read (a started game is named by its stream's id only).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

import engine
from events.models import StreamStatus
from play.drawings import DRAWINGS
from play.models import OpenGame, OpenSeat
from play.services import open_games_visible_to
from tournaments import selectors as tournaments
from tournaments.games import settings_words
from tournaments.models import ClubMembership

#: How many games being played the lobby lists (the newest first).
PLAYING_SHOWN = 12


@dataclass(frozen=True)
class LobbySeat:
    """One seat of an open game: 1-based, who holds it (None when free)."""

    number: int
    name: str | None
    house_bot: bool = False
    mine: bool = False

    @property
    def free(self) -> bool:
        return self.name is None


@dataclass(frozen=True)
class LobbyGame:
    """One open game (or one started from the lobby) as the viewer sees it."""

    pk: int
    game_id: str
    game_name: str
    players: int
    seats: list[LobbySeat]
    public: bool
    club_name: str
    creator_name: str
    created_at: datetime
    settings: list[str]  # the options that differ from the engine's defaults, in words
    seated: bool  # the viewer holds a seat
    runs_it: bool  # the viewer set it up (or is staff): may start or cancel it
    logged_in: bool
    table_url: str = ""

    @property
    def free(self) -> int:
        return sum(1 for seat in self.seats if seat.free)

    @property
    def taken(self) -> int:
        return self.players - self.free

    @property
    def house_bots(self) -> int:
        return sum(1 for seat in self.seats if seat.house_bot)

    @property
    def people(self) -> int:
        """Seats taken by people (not house bots)."""
        return self.taken - self.house_bots

    @property
    def can_join(self) -> bool:
        return self.logged_in and not self.seated and self.free > 0 and not self.table_url


@dataclass(frozen=True)
class Lobby:
    """The lobby page: the games waiting for players, then those being played."""

    waiting: list[LobbyGame]
    playing: list[LobbyGame]


@dataclass(frozen=True)
class GameChoice:
    """A game that can be set up: drawn at the live table."""

    id: str
    name: str
    min_players: int
    max_players: int


def startable_games() -> list[GameChoice]:
    """The games drawn at the live table (play.drawings), as the engine names them."""
    return [
        GameChoice(game.id, game.name, game.min_players, game.max_players)
        for game in engine.games()
        if game.id in DRAWINGS
    ]


def lobby_for(user: Any) -> Lobby:
    """The open games ``user`` may see (the ones they sit in first, then the newest), and the
    games started from the lobby that are still being played."""
    visible = open_games_visible_to(user).select_related("club")
    waiting = list(visible.filter(state=OpenGame.State.OPEN).order_by("-created_at", "-pk"))
    playing = list(
        visible.filter(state=OpenGame.State.STARTED, stream__status=StreamStatus.LIVE).order_by(
            "-started_at", "-pk"
        )[:PLAYING_SHOWN]
    )
    rows = _rows(user, [*waiting, *playing])
    open_rows = [rows[game.pk] for game in waiting]
    open_rows.sort(key=lambda row: not row.seated)  # stable: the newest first within each
    # A private game is followed by its players only (events.access): no dead "Watch" link.
    playing_rows = [rows[g.pk] for g in playing if g.public or rows[g.pk].seated]
    playing_rows.sort(key=lambda row: not row.seated)
    return Lobby(waiting=open_rows, playing=playing_rows)


def _rows(user: Any, games: list[OpenGame]) -> dict[int, LobbyGame]:
    """Each game as a row, with the seats' names read in two queries for all of them."""
    seats = list(OpenSeat.objects.filter(open_game__in=games).select_related("user"))
    user_ids = {seat.user_id for seat in seats} | {
        g.created_by_id for g in games if g.created_by_id
    }
    names = tournaments.display_names(user_ids)
    by_game: dict[int, dict[int, OpenSeat]] = {}
    for seat in seats:
        by_game.setdefault(seat.open_game_id, {})[seat.number] = seat
    return {game.pk: _row(user, game, by_game.get(game.pk, {}), names) for game in games}


def _row(user: Any, game: OpenGame, seats: dict[int, OpenSeat], names: dict[int, str]) -> LobbyGame:
    viewer = user.pk if getattr(user, "is_authenticated", False) else None
    drawn = [_seat(number, seats.get(number), names, viewer) for number in range(game.players)]
    creator = names.get(game.created_by_id or 0, "")
    return LobbyGame(
        pk=game.pk,
        game_id=game.game,
        game_name=_game_name(game.game),
        players=game.players,
        seats=drawn,
        public=game.public,
        club_name=game.club.name if game.club else "",
        creator_name=creator,
        created_at=game.created_at,
        settings=settings_words(game.game, game.options),
        seated=any(seat.mine for seat in drawn),
        runs_it=viewer is not None and (game.created_by_id == viewer or user.is_staff),
        logged_in=viewer is not None,
        table_url=reverse("play:table", args=[game.stream_id]) if game.stream_id else "",
    )


def _seat(
    number: int, seat: OpenSeat | None, names: dict[int, str], viewer: int | None
) -> LobbySeat:
    if seat is None:
        return LobbySeat(number + 1, None)
    if seat.house_bot:
        return LobbySeat(number + 1, house_bot_words(seat.user.get_username()), house_bot=True)
    name = names.get(seat.user_id) or seat.user.get_username()
    return LobbySeat(number + 1, name, mine=seat.user_id == viewer)


def house_bot_words(username: str) -> str:
    """A house bot's name in the viewer's language: "House bot", "House bot 2"..."""
    index = username.rsplit("-", 1)[-1]
    if not index.isdigit():
        return gettext("House bot")
    return gettext("House bot %(number)s") % {"number": index}


def _game_name(game_id: str) -> str:
    return next((game.name for game in engine.games() if game.id == game_id), game_id)


def game_choice(game_id: str) -> GameChoice | None:
    """The game ``game_id`` if it can be set up, else None."""
    return next((choice for choice in startable_games() if choice.id == game_id), None)


def user_clubs(user: Any) -> list[Any]:
    """The clubs ``user`` belongs to, by name (a club-only game is for one of them)."""
    if not getattr(user, "is_authenticated", False):
        return []
    memberships = ClubMembership.objects.filter(user_id=user.pk).select_related("club")
    return sorted((m.club for m in memberships), key=lambda club: club.name)
