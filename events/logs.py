"""A stream's log as people read it: each event with its move number, its player (seats counted
from 1, with the player's name) and its sentence; the players; the result as rows.

Reads only (selectors), for the admin's stream and event pages. Move n is the n-th ``MoveMade``
of the stream, as the disputes, the audit and the replay count; event n is the event of seq n.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from engine.core import EngineError
from events.models import Event, EventType, Stream, StreamSeat
from events.selectors import describe_event
from events.states import game_of
from herald.people import display_names

EVENTS_PER_PAGE = 50


@dataclass(frozen=True)
class SeatLine:
    """One seat: its number as people read it (from 1), the username and the display name."""

    number: int
    username: str
    name: str

    @property
    def who(self) -> str:
        """``Ann Martin (ann)``, or ``ann`` when the name is the username."""
        return self.username if self.name == self.username else f"{self.name} ({self.username})"

    @property
    def label(self) -> str:
        """``2 · Ann Martin (ann)``: the seat's number, then who sits there."""
        return f"{self.number} · {self.who}"


@dataclass(frozen=True)
class EventLine:
    """One event as the log shows it."""

    seq: int
    move: int | None  # its move number, for a MoveMade
    type: str
    seat: SeatLine | None
    text: str
    hash: str


@dataclass(frozen=True)
class ResultLine:
    rank: int
    seat: SeatLine
    score: Any


def stream_seat_lines(stream_ids: Iterable[Any]) -> dict[Any, list[SeatLine]]:
    """Stream id -> its seats in order, named; two queries whatever the number of streams."""
    seats = list(
        StreamSeat.objects.filter(stream_id__in=list(stream_ids))
        .select_related("user")
        .order_by("stream_id", "seat")
    )
    names = display_names({seat.user_id: seat.user for seat in seats}.values())
    lines: dict[Any, list[SeatLine]] = {}
    for seat in seats:
        username = seat.user.get_username()
        line = SeatLine(seat.seat + 1, username, names.get(seat.user_id, username))
        lines.setdefault(seat.stream_id, []).append(line)
    return lines


def seat_line(seats: Sequence[SeatLine], seat: int | None) -> SeatLine | None:
    """The line of a 0-based seat (None for no seat, or one the stream does not have)."""
    if seat is None or not 0 <= seat < len(seats):
        return None
    return seats[seat]


def with_move_numbers(events: Any) -> Any:
    """The events queryset annotated with ``move_number``: how many moves of their stream
    there are up to them (their own number, for a move)."""
    moves = (
        Event.objects.filter(
            stream=OuterRef("stream"), type=EventType.MOVE_MADE, seq__lte=OuterRef("seq")
        )
        .order_by()
        .values("stream")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return events.annotate(move_number=Coalesce(Subquery(moves, output_field=IntegerField()), 0))


def event_lines(events: Iterable[Event]) -> list[EventLine]:
    """Events (annotated by :func:`with_move_numbers`) as log lines; the seats and games of
    their streams are looked up once per stream."""
    events = list(events)
    seats = stream_seat_lines({event.stream_id for event in events})
    games: dict[Any, Any] = {}
    lines = []
    for event in events:
        stream_seats = seats.get(event.stream_id, [])
        if event.stream_id not in games:
            games[event.stream_id] = _game(event.stream)
        lines.append(
            EventLine(
                seq=event.seq,
                move=event.move_number if event.type == EventType.MOVE_MADE else None,
                type=event.type,
                seat=seat_line(stream_seats, event.seat),
                text=describe_event(event, games[event.stream_id], _names(stream_seats)),
                hash=event.hash,
            )
        )
    return lines


def _names(seats: Sequence[SeatLine]) -> list[str]:
    return [seat.name for seat in seats]


def _game(stream: Stream) -> Any:
    try:
        return game_of(stream)
    except EngineError:  # a game this installation lacks: the sentences say so, event by event
        return None


def stream_events_page(stream: Stream, *, page: Any, per_page: int = EVENTS_PER_PAGE) -> Page:
    """One page of the stream's log (``page`` as a visitor typed it: a bad one is page 1, one
    past the end the last page); ``page.object_list`` holds :class:`EventLine`."""
    events = with_move_numbers(Event.objects.filter(stream=stream).select_related("stream"))
    found = Paginator(events.order_by("seq"), per_page).get_page(page)
    found.object_list = event_lines(found.object_list)
    return found


def result_lines(stream: Stream) -> list[ResultLine]:
    """The finished game's result as rows, best rank first (ties in seat order)."""
    result = stream.result or {}
    ranks, scores = result.get("ranks") or [], result.get("scores") or []
    seats = stream_seat_lines([stream.pk]).get(stream.pk, [])
    rows = [
        ResultLine(int(rank), seats[index], scores[index] if index < len(scores) else None)
        for index, rank in enumerate(ranks)
        if index < len(seats)
    ]
    return sorted(rows, key=lambda row: (row.rank, row.seat.number))
