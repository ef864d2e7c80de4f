"""The table drawn to HTML for one viewer: the page, its fragment and the socket's frames.

One function, :func:`render_table`, gives ``(version, html)`` of the table's root element as
``access.user`` may see it, in a given language: play.views.fragment answers with it and
play.consumers.TableConsumer sends it in its ``table`` frames, so the fragment and the frames
are the same drawing byte for byte. Seats draw their own view (``engine.view(state, seat)``
through play.selectors.seat_table); spectators share the public drawing (:data:`public_drawings`).
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.utils.safestring import mark_safe

from events.access import StreamAccess
from herald.bounded import Bounded
from herald.texts import speaking
from play import presence as presences
from play import selectors
from play.moments import Moment
from play.templating import render_to_string


def table_context(
    access: StreamAccess, presence: list[bool] | None = None, moment: Moment | None = None
) -> dict[str, Any]:
    """What the table's templates draw for ``access.user``: the game's public summary, the
    table as they may see it (None for a game not drawn at the table yet) with which seats are
    connected (``presence``; read from the presence store when not given). ``moment``: what
    the stream's other drawings of this version read already (play.moments), read here when
    not given."""
    facts, recent = (moment.facts, moment.recent) if moment is not None else (None, None)
    summary = selectors.game_summary(access, facts)
    table = selectors.seat_table(access, summary, recent)
    if table is not None:
        table.presence = (
            list(presence)
            if presence is not None
            else presences.seats_connected(access.stream.pk, len(summary.seats))
        )
    return {
        "game": summary,
        "table": table,
        "drawing": selectors.table_drawing(summary),
        "result_json": json.dumps(summary.result, sort_keys=True) if summary.result else "",
        # Sealed while the game runs; anyone who may see the game may check it once it ended.
        "revealed_seed": access.stream.seed if access.stream.is_finished else "",
        # Whether the worker has verified a finished game (the game-over panel says so).
        "verification": selectors.verification_status(access.stream),
        # How far behind a spectator is kept (the page says so; 0 for everyone else).
        "spectator_delay": access.spectator_delay,
    }


def page_context(access: StreamAccess) -> dict[str, Any]:
    """The table page's context: :func:`table_context` with the table drawn (``table_html``)
    and the tab's title (``table_title``) when the game is drawn at the table. Drawn here, not
    included by the page: the games' drawings are Jinja2 templates (play.jinja), which a
    Django page cannot include."""
    context = table_context(access)
    if context["table"] is not None:
        drawing = context["drawing"]
        # Both engines escaped what they drew.
        context["table_html"] = mark_safe(render_to_string(drawing.template, context))
        context["table_title"] = mark_safe(render_to_string(drawing.title_template, context))
    return context


class PublicDrawings(Bounded[tuple[Any, ...], tuple[int, str]]):
    """The public drawing of a table, per (stream, shown version, language, presence): every
    plain spectator of a stream shares it, so a move costs one drawing for all of them.

    Safe to share because that drawing depends on nothing else: it is drawn from the public
    view (``engine.view(state, None)``) at that version, with no legal moves; the drawing
    templates (play/templates/play/<game>/) read ``game``, ``table``, ``drawing``,
    ``result_json`` and ``revealed_seed`` only, never ``user``, ``request`` or a CSRF token;
    the summary names no viewer (no seat is "mine" for a spectator) and the last moves are the
    public ones. Arbiters and staff are not served from it (their last moves may say more).
    Bounded (least recently used out) and per process; a stale entry is impossible, since
    each key names its version.
    """

    def __init__(self, size: int = 512) -> None:
        super().__init__(size)


public_drawings = PublicDrawings()


def public_key(
    stream_id: Any, version: int, language: str, presence: list[bool]
) -> tuple[Any, ...]:
    """The key of a public drawing in :data:`public_drawings`."""
    return (UUID(str(stream_id)), int(version), language, tuple(presence))


def plain_spectator(access: StreamAccess) -> bool:
    """A viewer without a seat who sees only the public view (not an arbiter, not staff)."""
    return access.seat is None and not access.privileged


def render_table(
    access: StreamAccess,
    language: str,
    presence: list[bool] | None = None,
    moment: Moment | None = None,
) -> tuple[int, str] | None:
    """The table's root element for ``access.user`` in ``language``, and the stream version it
    shows (a delayed spectator's is behind the stream's); None for a game not drawn yet.
    ``moment``: the stream's version as the process read it for all its sockets (its stream
    row is ``access.stream``)."""
    with speaking(language):
        key: tuple[Any, ...] | None = None
        # A finished game's drawing changes without a new version (its verification lands
        # later), and is drawn rarely: only running games' public drawings are shared.
        if plain_spectator(access) and not access.stream.is_finished:
            players = access.stream.players
            seen = (
                presence
                if presence is not None
                else presences.seats_connected(access.stream.pk, players)
            )
            presence = list(seen)
            key = public_key(access.stream.pk, access.shown_version, language, presence)
            cached = public_drawings.get(key)
            if cached is not None:
                return cached
        context = table_context(access, presence, moment)
        if context["table"] is None:
            return None
        drawn = (context["game"].version, render_to_string(context["drawing"].template, context))
        if key is not None:
            public_drawings.put(key, drawn)
        return drawn
