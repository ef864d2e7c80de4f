"""Reads of the game pages: what a stream's page may show to the one who opens it.

The summary holds public facts only: the game, where it is played, who sits where, its
status, version and, once it has ended, its result. The table (Les 7 Blasons for now) is drawn
from the events selector that gives the viewer's own view (``engine.view(state, seat)``) and
legal moves, never from the full state; the sealed seed is never put in the page's context.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import get_script_prefix, reverse

import engine
from engine.core import EngineError
from events.access import StreamAccess
from events.models import Event
from events.selectors import event_for_access, shown_events, stream_view
from events.states import game_of
from herald.bounded import Bounded
from herald.texts import active_language, render
from play.drawings import Drawing, drawing_for
from ratings.selectors import stream_verification
from tournaments import selectors as tournaments


@dataclass(frozen=True)
class SeatLine:
    """One seat of the game: 1-based as on the pairings, the player's name, their result."""

    number: int
    name: str
    mine: bool
    rank: int | None
    score: Any


@dataclass(frozen=True)
class GameSummary:
    """A game's public facts, for its page."""

    stream_id: Any
    game_id: str
    game_name: str
    edition: str
    finished: bool
    version: int
    viewer_seat: int | None  # 0-based, as the game API counts seats; None for a spectator
    seats: list[SeatLine]
    result: dict[str, Any] | None
    tournament_id: int | None
    tournament_name: str
    round_number: int | None
    table_number: int | None

    @property
    def fragment_url(self) -> str:
        """Where the table page fetches this table's drawing afresh."""
        return table_urls(self.stream_id)[0]

    @property
    def moves_url(self) -> str:
        """Where the table posts its moves (the game API)."""
        return table_urls(self.stream_id)[1]

    @property
    def winners(self) -> list[str]:
        """The names of the seats ranked first once the game has ended (several on a tie)."""
        return [seat.name for seat in self.seats if seat.rank == 1]


def table_urls(stream_id: Any) -> tuple[str, str]:
    """The table's fragment and moves addresses: reversed once per stream (and script prefix)
    in this process, since every seat's drawing of every move names them and reversing two
    addresses was about a tenth of a Les 7 Blasons table's template."""
    return _table_urls(get_script_prefix(), str(stream_id))


@functools.lru_cache(maxsize=4096)
def _table_urls(prefix: str, stream_id: str) -> tuple[str, str]:
    # reverse() reads the script prefix itself; it is in the key so that a cached address
    # always carries the prefix it was reversed under.
    return (
        reverse("play:fragment", args=[stream_id]),
        reverse("stream-moves", args=[stream_id]),
    )


def game_name(game_id: str) -> str:
    """The game's name as its engine gives it (the id for a game no engine knows)."""
    return next((game.name for game in engine.games() if game.id == game_id), game_id)


@dataclass(frozen=True)
class StreamFacts:
    """What a game's page reads of its stream besides the stream row and the state: each
    seat's player by name, and the tournament table the game is played at (None)."""

    seat_names: tuple[tuple[int, str], ...]  # (seat, name), by seat
    table: Any | None


def stream_facts(stream: Any) -> StreamFacts:
    """The stream's :class:`StreamFacts` (three queries)."""
    seated = list(stream.seats.select_related("user").order_by("seat"))
    names = tournaments.display_names(seat.user_id for seat in seated)
    return StreamFacts(
        seat_names=tuple(
            (seat.seat, names.get(seat.user_id, seat.user.get_username())) for seat in seated
        ),
        table=tournaments.tables_by_stream([stream.pk]).get(stream.pk),
    )


def game_summary(access: StreamAccess, facts: StreamFacts | None = None) -> GameSummary:
    """The public summary of ``access.stream`` for ``access.user`` (already allowed to see it),
    from the stream's ``facts`` when the caller has read them already."""
    stream = access.stream
    facts = facts or stream_facts(stream)
    result = dict(stream.result) if stream.is_finished and stream.result else None
    ranks = (result or {}).get("ranks") or []
    scores = (result or {}).get("scores") or []
    seats = [
        SeatLine(
            number=seat + 1,
            name=name,
            mine=seat == access.seat,
            rank=ranks[seat] if seat < len(ranks) else None,
            score=scores[seat] if seat < len(scores) else None,
        )
        for seat, name in facts.seat_names
    ]
    table = facts.table
    return GameSummary(
        stream_id=stream.pk,
        game_id=stream.game,
        game_name=game_name(stream.game),
        edition=stream.edition,
        finished=stream.is_finished,
        version=access.shown_version,  # a delayed spectator's is behind the stream's
        viewer_seat=access.seat,
        seats=seats,
        result=result,
        tournament_id=None if table is None else table.round.tournament_id,
        tournament_name="" if table is None else table.round.tournament.name,
        round_number=None if table is None else table.round.number,
        table_number=None if table is None else table.number,
    )


def has_table(game_id: str) -> bool:
    """Whether the game is drawn as a live table yet (play.drawings)."""
    return drawing_for(game_id) is not None


def seat_table(
    access: StreamAccess, summary: GameSummary, recent: Sequence[Event] | None = None
) -> Any | None:
    """The table as ``access.user`` may see it: their seat's view and legal moves (the public
    view for a spectator, an arbiter or staff), or None for a game not drawn yet. ``recent``:
    the stream's last events already read (:func:`last_moves`)."""
    drawing = drawing_for(summary.game_id)
    if drawing is None:
        return None
    seen = stream_view(access)
    names = [seat.name for seat in summary.seats]
    drawn = drawing.draw(seen["view"], seen.get("legal_moves", []), names)
    drawn.last_moves = last_moves(access, names, recent)
    return drawing.add_result(drawn, summary.result, names)


def table_drawing(summary: GameSummary) -> Drawing | None:
    """The game's drawing (its templates), or None for a game not drawn at the table yet."""
    return drawing_for(summary.game_id)


VERIFIED, VERIFICATION_FAILED, VERIFICATION_PENDING = "verified", "failed", "pending"


def verification_status(stream: Any) -> str:
    """Where the worker's verification of a finished game stands: "verified", "failed" or
    "pending" (it has not run yet); "" for a game still in play. Read from the record the
    verification worker writes (ratings.models.Verification), so "verified" means the worker
    replayed the game and checked its chain, seed and result, not that the page asked."""
    if not stream.is_finished:
        return ""
    verification = stream_verification(stream_id=stream.pk)
    if verification is None:
        return VERIFICATION_PENDING
    return VERIFIED if verification.ok else VERIFICATION_FAILED


LAST_MOVES = 6


def _holds(events: Sequence[Event], after: int, until: int) -> bool:
    """Whether ``events`` hold every seq after ``after`` up to ``until``."""
    seqs = {event.seq for event in events}
    return all(seq in seqs for seq in range(after + 1, until + 1))


#: Each last move's line as one kind of viewer reads it: by (stream, seq, whether they see
#: everything, their seat, language, the players' names). A table shows its last
#: :data:`LAST_MOVES` moves, so a socket server drew every line six times per seat; an event
#: never changes, and the key names all its line depends on, so an entry is never stale.
#: Bounded for some 2,000 tables of 5 viewers at once.
move_lines: Bounded[tuple[Any, ...], str] = Bounded(size=2**16)


def last_moves(
    access: StreamAccess, names: list[str], recent: Sequence[Event] | None = None
) -> list[str]:
    """The stream's last moves in words, newest first, as the caller may see them (the events
    selector withholds what the caller may not see): the engine's own description of each move
    (the audit log's), in the viewer's language with the players' names. ``recent``: the
    stream's events already read, in seq order; used when they hold the last
    :data:`LAST_MOVES` events up to the version the caller is shown."""
    game = game_of(access.stream)
    after = max(access.shown_version - LAST_MOVES, 0)
    if recent is not None and not _holds(recent, after, access.shown_version):
        recent = None  # a delayed spectator's moves are older: read them
    # Flat, of strings, numbers and None: the collector lets go of such keys (play.fragments).
    viewer = (str(access.stream.pk), access.sees_everything, access.seat, active_language(), *names)
    lines = []
    for event in shown_events(access, after=after, read=recent):
        key = (event.seq, *viewer)
        line = move_lines.get(key)
        if line is None:
            line = _move_line(game, event_for_access(event, access), names)
            move_lines.put(key, line)
        if line:
            lines.append(line)
    return lines[::-1]


def _move_line(game: Any, event: dict[str, Any], names: list[str]) -> str:
    """The event (as the viewer may see it) in words, or "" when it says nothing on the table
    (not a move, or one this engine cannot read)."""
    payload = event["payload"]
    if event["type"] != "MoveMade" or not isinstance(payload, dict):
        return ""
    move = payload.get("public_move") or payload.get("move")
    if not isinstance(move, dict) or event["seat"] is None:
        return ""
    try:
        return str(render(game.describe_text(game.decode_move(move), event["seat"]), names))
    except EngineError:
        return ""
