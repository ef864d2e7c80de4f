"""The table sockets of one process read each version of a stream once (play.moments): every
seat's and a spectator's drawing from the shared moment is byte for byte the drawing of the
page's fragment, the first drawing of a version reads the database and the others do not, a
socket asking for an older version is drawn the newer one, and a private game still refuses
a viewer who may no longer watch it."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.access import access_stream_for_user
from events.errors import StreamNotFound
from events.models import Event, Stream
from events.services import stream_open
from events.states import current_state, replay_stream, state_cache
from herald.roles import ARBITERS
from play import batches as batches_module
from play.batches import StreamBatches
from play.consumers import TableConsumer, draw_for
from play.moments import FACTS_FOR, _newest_events, moment_at, moments
from play.rendering import public_drawings, render_table
from play.selectors import LAST_MOVES
from tests.conftest import run_async
from tests.play.test_live_access import tournament_game
from tests.ratings.games import play_stream
from tests.users import make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PRESENT = [True, True, True]


@pytest.fixture(autouse=True)
def _fresh_caches() -> None:
    moments.clear()
    public_drawings.clear()


def drawn(user: Any, stream: Any, seat: int | None, version: int) -> tuple[int, str] | None:
    return draw_for(
        user, str(stream.pk), seat=seat, version=version, language="en", presence=PRESENT
    )


def test_each_drawing_from_the_moment_is_the_fragment_and_only_the_first_reads() -> None:
    users = [make_user(name) for name in ("Ada", "Bertin", "Cyrielle")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=8
    )
    viewers: list[tuple[Any, int | None]] = [*((u, s) for s, u in enumerate(users)), (None, None)]
    expected = {}
    for user, _ in viewers:
        public_drawings.clear()
        expected[user] = render_table(access_stream_for_user(user, stream.pk), "en", PRESENT)
    public_drawings.clear()
    first_user, first_seat = viewers[0]
    with CaptureQueriesContext(connection) as first:
        assert drawn(first_user, stream, first_seat, stream.version) == expected[first_user]
    assert len(first) >= 1
    for user, seat in viewers[1:]:
        with CaptureQueriesContext(connection) as others:
            assert drawn(user, stream, seat, stream.version) == expected[user]
        # The other seats read nothing; the first spectator asks the watch rules for the
        # delay, once per version.
        assert len(others.captured_queries) == (1 if seat is None else 0)
    with CaptureQueriesContext(connection) as again:
        assert drawn(None, stream, None, stream.version) == expected[None]
    assert [q["sql"] for q in again.captured_queries] == []
    assert moments.reads == 1


def test_a_new_version_is_read_again_and_an_older_one_gets_the_newer_drawing() -> None:
    users = [make_user(name) for name in ("Dorian", "Elise", "Fulbert")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=3
    )
    before = stream.version
    assert drawn(users[0], stream, 0, before)[0] == before  # type: ignore[index]
    stream = play_stream(stream, stop_after=2)
    assert drawn(users[1], stream, 1, stream.version)[0] == stream.version  # type: ignore[index]
    assert moments.reads == 2
    # A socket that missed a version (its message came late) is drawn the newest one.
    assert drawn(users[2], stream, 2, before + 1)[0] == stream.version  # type: ignore[index]
    assert moment_at(stream.pk, before).version == stream.version
    assert moments.reads == 2


def test_the_next_version_reads_one_query_and_draws_the_fragment() -> None:
    """A moment lends the next its facts (names, tournament table) and its last events: the
    next version reads only the new events with the stream row joined, one query, and draws
    what the fragment draws, last moves included; so does a version many moves on."""
    users = [make_user(name) for name in ("Gaspard", "Hortense", "Ines")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=9
    )
    drawn(users[0], stream, 0, stream.version)
    for moves in (1, 1, 2, 9):  # 9: more than the six last moves the table shows
        stream = play_stream(stream, stop_after=moves)
        with CaptureQueriesContext(connection) as read:
            got = drawn(users[1], stream, 1, stream.version)
        assert len(read.captured_queries) == 1
        assert got == render_table(access_stream_for_user(users[1], stream.pk), "en", PRESENT)
    held = moment_at(stream.pk, stream.version)
    assert [event.seq for event in held.recent] == list(
        range(stream.version - LAST_MOVES + 1, stream.version + 1)
    )
    # The stream row (and its snapshot) is held once, by the moment, not by each event.
    assert not any(Event.stream.is_cached(event) for event in held.recent)


def test_a_socket_opening_reads_the_moment_so_the_first_move_reads_one_query() -> None:
    """The first table socket of a stream to open reads its moment (a later one finds it
    held): the first move's drawings then read the new events alone, as every later move's
    do, instead of the stream from scratch while every seat waits."""
    users = [make_user(name) for name in ("Jacinthe", "Kilian", "Léonie")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=2
    )
    first, second = TableConsumer(), TableConsumer()
    for consumer in (first, second):
        consumer.scope = {"headers": [], "cookies": {}}
    assert first.open_stream(users[0], str(stream.pk)) == stream.version
    assert moments.reads == 1
    assert moment_at(stream.pk, stream.version).version == stream.version
    assert second.open_stream(users[1], str(stream.pk)) == stream.version
    assert moments.reads == 1  # held: the second socket read no moment
    stream = play_stream(stream, stop_after=1)
    with CaptureQueriesContext(connection) as read:
        got = drawn(users[1], stream, 1, stream.version)
    assert len(read.captured_queries) == 1
    assert got == render_table(access_stream_for_user(users[1], stream.pk), "en", PRESENT)


def test_drawing_a_move_leaves_no_garbage_for_the_cyclic_collector() -> None:
    """Garbage in reference cycles waits for a collection, which stops a socket server's
    drawings and frames while it runs (herald.quietgc). Once the templates are compiled, a
    move's drawings make none: Django's engine, asked first for a drawing's ``.jinja`` name,
    made some 550 objects of it a move (TemplateDoesNotExist's tracebacks and frames)."""
    users = [make_user(name) for name in ("Mathis", "Noémie", "Octave")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=8
    )
    viewers: list[tuple[Any, int | None]] = [*((u, s) for s, u in enumerate(users)), (None, None)]
    for user, seat in viewers:  # the templates compiled, the caches warm
        drawn(user, stream, seat, stream.version)
    stream = play_stream(stream, stop_after=1)
    gc.collect()
    gc.disable()
    try:
        for user, seat in viewers:
            assert drawn(user, stream, seat, stream.version) is not None
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0


def test_the_spectator_delay_is_lent_with_the_facts_and_read_again_with_them() -> None:
    """The tournament's spectator delay is asked once and lent to the next moments with the
    names: the next move's spectator drawing asks nothing of the tournament tables. A delay
    changed meanwhile reaches the sockets when the facts are read again (FACTS_FOR)."""
    stream, _, tournament = tournament_game(public=True, delay=1, moves=4, tag="ld")
    spectator = make_user("Spectator-ld")
    first = drawn(spectator, stream, None, stream.version)
    assert first is not None
    assert first[0] == stream.version - 1
    stream = play_stream(stream, stop_after=1)
    with CaptureQueriesContext(connection) as read:
        shown = drawn(spectator, stream, None, stream.version)
    assert shown is not None
    assert shown[0] == stream.version - 1  # still one move behind
    assert not [q for q in read.captured_queries if "tournaments_" in q["sql"]]
    Tournament.objects.filter(pk=tournament.pk).update(spectator_delay=0)
    stream = play_stream(stream, stop_after=1)
    shown = drawn(spectator, stream, None, stream.version)
    assert shown is not None
    assert shown[0] == stream.version - 1  # the facts are fresh
    moment_at(stream.pk, stream.version).facts_read_at -= FACTS_FOR
    stream = play_stream(stream, stop_after=1)
    with CaptureQueriesContext(connection) as read:
        shown = drawn(spectator, stream, None, stream.version)
    assert shown is not None
    assert shown[0] == stream.version  # no delay any more
    assert [q for q in read.captured_queries if "spectator_delay" in q["sql"]]


def _asked_arbiters(queries: list[dict[str, Any]]) -> bool:
    return any("auth_group" in query["sql"] for query in queries)


def test_a_spectator_is_asked_once_whether_an_arbiter_and_an_arbiter_on_every_move() -> None:
    """A spectator found not to be an arbiter is not asked again while the facts last: the
    next moves' drawings ask nothing of the groups. Made arbiter, they are drawn as one (here:
    without the tournament's spectator delay) once the facts are read again (FACTS_FOR). An
    arbiter is asked on every move, so one whose role is taken away is drawn as a plain
    spectator from the next move on."""
    stream, _, _ = tournament_game(public=True, delay=1, moves=4, tag="na")
    watcher = make_user("Watcher-na")

    def as_a_page_draws_it() -> tuple[int, str] | None:
        public_drawings.clear()
        return render_table(access_stream_for_user(watcher, stream.pk), "en", PRESENT)

    with CaptureQueriesContext(connection) as read:
        drawn(watcher, stream, None, stream.version)
    assert _asked_arbiters(read.captured_queries)
    stream = play_stream(stream, stop_after=1)
    with CaptureQueriesContext(connection) as read:
        got = drawn(watcher, stream, None, stream.version)
    assert not _asked_arbiters(read.captured_queries)
    assert got == as_a_page_draws_it()
    assert got is not None
    assert got[0] == stream.version - 1

    arbiters = Group.objects.get_or_create(name=ARBITERS)[0]
    watcher.groups.add(arbiters)
    stream = play_stream(stream, stop_after=1)
    got = drawn(watcher, stream, None, stream.version)
    assert got is not None
    assert got[0] == stream.version - 1
    moment_at(stream.pk, stream.version).facts_read_at -= FACTS_FOR
    stream = play_stream(stream, stop_after=1)
    got = drawn(watcher, stream, None, stream.version)
    assert got == as_a_page_draws_it()
    assert got is not None
    assert got[0] == stream.version

    watcher.groups.remove(arbiters)
    stream = play_stream(stream, stop_after=1)
    with CaptureQueriesContext(connection) as read:
        got = drawn(watcher, stream, None, stream.version)
    assert _asked_arbiters(read.captured_queries)
    assert got == as_a_page_draws_it()
    assert got is not None
    assert got[0] == stream.version - 1


def test_a_private_game_refuses_a_spectator_who_may_not_watch_it() -> None:
    stream, _, _ = tournament_game(tag="mo")
    stranger = make_user("Stranger-mo")
    with pytest.raises(StreamNotFound):
        drawn(stranger, stream, None, stream.version)


class FakeSocket:
    """What play.batches needs of a table socket: who it draws for."""

    def __init__(self, user: Any, seat: int | None) -> None:
        self.user, self.seat = user, seat

    def viewer_key(self) -> Any:
        return (getattr(self.user, "pk", None), self.seat, "en", tuple(PRESENT))

    def viewer(self) -> dict[str, Any]:
        return {"user": self.user, "seat": self.seat, "language": "en", "presence": PRESENT}


@pytest.mark.django_db(transaction=True)
def test_the_sockets_of_a_stream_are_drawn_in_one_trip() -> None:
    """Every table socket of a stream in a process is drawn in one trip to the database thread
    after a commit: four seats and two anonymous spectators (one drawing for both), each
    given the drawing its fragment would be; a socket that opened later draws alone."""
    users = [make_user(name) for name in ("Jules", "Katell", "Loig")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=6
    )
    batches = StreamBatches(draw=draw_for)
    sockets = [FakeSocket(user, seat) for seat, user in enumerate(users)]
    sockets += [FakeSocket(None, None), FakeSocket(None, None)]
    for socket in sockets:
        batches.join(str(stream.pk), socket)

    async def everyone() -> list[Any]:
        return await asyncio.gather(
            *(batches.drawing(str(stream.pk), s, stream.version) for s in sockets)
        )

    drawn = run_async(everyone)
    assert batches.trips == 1
    for socket, got in zip(sockets, drawn, strict=True):
        public_drawings.clear()
        expected = render_table(access_stream_for_user(socket.user, stream.pk), "en", PRESENT)
        assert got == expected
    late = FakeSocket(make_user("Maelle"), None)
    assert run_async(lambda: batches.drawing(str(stream.pk), late, stream.version)) is not None
    assert batches.trips == 2


@pytest.mark.django_db(transaction=True)
def test_the_drawing_thread_upkeeps_its_connections_once_a_second_or_after_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Channels' database_sync_to_async would start every drawing trip with a health check
    (``conn_health_checks``: a ``SELECT 1`` round trip); the trips check at most once a second,
    and at once after a database error."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 600)  # persistent, as deployed
    connection.close()
    connection.ensure_connection()
    connection.health_check_enabled = True  # as conn_health_checks=true; connect() resets it
    monkeypatch.setattr(batches_module, "_upkept_at", -batches_module.UPKEEP_EVERY)

    def checks_before_next_query() -> bool:
        return not connection.health_check_done

    batches_module.upkeep_connections()
    assert checks_before_next_query()
    connection.cursor().close()  # the check runs here
    assert not checks_before_next_query()
    batches_module.upkeep_connections()  # within the second: no new check
    assert not checks_before_next_query()

    connection.errors_occurred = True
    batches_module.upkeep_connections()  # at once: Django checks it (SELECT 1) and keeps it
    assert connection.errors_occurred is False
    assert connection.connection is not None

    monkeypatch.setattr(
        batches_module, "_upkept_at", time.monotonic() - batches_module.UPKEEP_EVERY
    )
    batches_module.upkeep_connections()
    assert checks_before_next_query()
    connection.close()


def test_the_newest_events_read_without_the_orm_are_the_querysets_models() -> None:
    """play.moments reads a moment's new events and the stream row with SQL written once;
    its models are the ones the queryset it replaces builds, field by field (the JSON parsed,
    the dates aware), on either database."""
    users = [make_user(name) for name in ("Jules", "Kenza", "Lison")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=12
    )
    after = stream.version - 4
    events, row = _newest_events.read(stream.pk, after)
    expected = list(
        Event.objects.select_related("stream")
        .filter(stream_id=stream.pk, seq__gt=after)
        .order_by("-seq")[:LAST_MOVES]
    )
    assert (
        [e.seq for e in events]
        == [e.seq for e in expected]
        == list(range(stream.version, after, -1))
    )
    for got, want in zip(events, expected, strict=True):
        for field in Event._meta.concrete_fields:
            assert getattr(got, field.attname) == getattr(want, field.attname), field.name
    assert row is not None
    for field in Stream._meta.concrete_fields:
        assert getattr(row, field.attname) == getattr(expected[0].stream, field.attname), field
    assert isinstance(row.snapshot, dict)
    assert row.created_at.tzinfo is not None
    assert not row._state.adding
    assert _newest_events.read(stream.pk, stream.version) == ([], None)


def test_a_moment_holds_the_decoded_state_and_lets_the_parsed_snapshot_go() -> None:
    users = [make_user(name) for name in ("Gaspard", "Hortense", "Isidore")]
    stream = play_stream(
        stream_open(game_id="les-7-blasons", seats=users, public=True), stop_after=12
    )
    expected = render_table(access_stream_for_user(users[0], stream.pk), "en", PRESENT)
    moment = moment_at(str(stream.pk), stream.version)
    assert moment.stream.snapshot is None  # its lists and dicts are not kept for the next move
    assert Stream.objects.get(pk=stream.pk).snapshot is not None  # the row keeps it
    replayed, _ = replay_stream(stream)
    state_cache.clear()  # as when a busy process's cache has let the stream go
    with CaptureQueriesContext(connection) as queries:
        held = current_state(moment.stream)
    assert held == replayed
    assert queries.captured_queries == []  # neither the row again nor a replay of the events
    state_cache.clear()
    assert drawn(users[0], stream, 0, stream.version) == expected
