"""Presence entries (play.presence), in memory and in Redis, with the clock passed in: a seat is
connected while one of its sockets' entries lives; entries expire three heartbeats after their
last renewal (a dead server process); each change is reported once, to the one caller that
saw it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid
from typing import Any

import pytest
from django.conf import settings

from play import presence
from play.presence import MemoryPresence, RedisPresence, member

BEAT = presence.heartbeat()
LIFE = presence.lifetime()


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> Any:
    if request.param == "memory":
        return MemoryPresence()
    request.getfixturevalue("redis_client")  # skipped (or failed in CI) without Redis
    return RedisPresence(url=settings.REDIS_URL, prefix=f"test-{uuid.uuid4().hex[:8]}")


def run(coroutine: Any) -> Any:
    """Run a coroutine to its end on a loop of its own, in a thread of its own (a browser test
    of the same session leaves Playwright's loop running in this thread)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_seat_is_connected_while_one_of_its_sockets_is(store: Any) -> None:
    stream, now = str(uuid.uuid4()), 1_000_000.0
    first, second = member(1, "socket-a"), member(1, "socket-b")
    assert run(store.update(stream, 3, add=first, now=now)) == (True, [False, True, False])
    assert store.seats(stream, 3, now=now) == [False, True, False]
    # A second tab of the same player: nothing changes, so nothing is announced.
    assert run(store.update(stream, 3, add=second, now=now + 1)) == (False, [False, True, False])
    assert run(store.update(stream, 3, remove=first, now=now + 2)) == (False, [False, True, False])
    assert run(store.update(stream, 3, remove=second, now=now + 3)) == (True, [False] * 3)
    assert store.seats(stream, 3, now=now + 3) == [False] * 3


def test_an_entry_not_renewed_expires_after_three_beats(store: Any) -> None:
    stream, now = str(uuid.uuid4()), 2_000_000.0
    dead, alive = member(0, "dead-process"), member(2, "alive")
    run(store.update(stream, 3, add=dead, now=now))
    run(store.update(stream, 3, add=alive, now=now))
    # The living socket renews its entry every beat; the dead process's never again.
    for beat in range(1, 3):
        changed, seats = run(store.update(stream, 3, add=alive, now=now + beat * BEAT))
        assert (changed, seats) == (False, [True, False, True])
    changed, seats = run(store.update(stream, 3, add=alive, now=now + LIFE + 0.5))
    assert (changed, seats) == (True, [False, False, True])  # noticed by the next heartbeat
    assert store.seats(stream, 3, now=now + LIFE + 0.5) == [False, False, True]


def test_a_change_is_announced_once_whoever_sees_it(store: Any) -> None:
    stream, now = str(uuid.uuid4()), 3_000_000.0
    run(store.update(stream, 2, add=member(0, "x"), now=now))
    # Two sockets look at once after the entry expired: one announces it, the other does not.
    later = now + LIFE + 1
    answers = [run(store.update(stream, 2, now=later)) for _ in range(2)]
    assert answers == [(True, [False, False]), (False, [False, False])]


def test_streams_do_not_mix(store: Any) -> None:
    one, two, now = str(uuid.uuid4()), str(uuid.uuid4()), 4_000_000.0
    run(store.update(one, 3, add=member(0, "a"), now=now))
    assert store.seats(two, 3, now=now) == [False] * 3
    assert store.seats(one, 3, now=now) == [True, False, False]


def test_the_store_follows_the_channel_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert isinstance(presence.presence_store(), MemoryPresence)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:6379/7"], "prefix": "herald"},
        }
    }
    found = presence.presence_store()
    assert isinstance(found, RedisPresence)
    assert (found.url, found.prefix) == ("redis://127.0.0.1:6379/7", "herald")


def test_one_update_renews_several_entries(store: Any) -> None:
    stream, now = str(uuid.uuid4()), 5_000_000.0
    ann, cid, gone = member(0, "ann"), member(2, "cid"), member(1, "gone")
    assert run(store.update(stream, 3, add=[ann, cid, gone], now=now)) == (True, [True, True, True])
    # Renewed together, twice; the third entry is not renewed and expires.
    for beat in (1, 2):
        run(store.update(stream, 3, add=[ann, cid], now=now + beat * BEAT))
    assert store.seats(stream, 3, now=now + LIFE + 0.5) == [True, False, True]
    assert run(store.update(stream, 3, add=[], now=now + LIFE + 0.5)) == (
        True,
        [True, False, True],
    )


class Socket:
    """What a stream's heartbeat knows of a table socket: its entry (None: a spectator)."""

    def __init__(self, entry: str | None) -> None:
        self.entry = entry


def test_a_stream_beats_once_per_process_for_all_its_sockets(settings: Any) -> None:
    """One heartbeat per stream renews every socket's entry of this process; a socket that
    left is renewed no more, and the stream's beat stops with its last socket."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.HERALD_PRESENCE_HEARTBEAT = 0.05  # an entry lives 0.15 s without renewal
    stream = str(uuid.uuid4())
    ann, bob, spectator = Socket(member(0, "ann")), Socket(member(1, "bob")), Socket(None)

    async def seats_over(seconds: float) -> list[bool]:
        await asyncio.sleep(seconds)
        return presence.presence_store().seats(stream, 2)

    async def scenario() -> tuple[Any, ...]:
        beats = presence.StreamBeats()
        for socket in (ann, bob, spectator):
            beats.join(stream, 2, socket)
        streams_beating = len(beats.beats)
        both = await seats_over(0.5)  # three lifetimes: only the beat kept them
        await beats.leave(stream, bob)
        await presence.announce(stream, 2, remove=bob.entry)
        after_bob = await seats_over(0.5)
        await beats.leave(stream, ann)
        still_beating = len(beats.beats)
        await beats.leave(stream, spectator)
        ann_alone = await seats_over(0.01)
        without_anyone = await seats_over(0.3)
        return streams_beating, both, after_bob, still_beating, ann_alone, without_anyone, beats

    beating, both, after_bob, still, ann_alone, without, beats = run(scenario())
    assert beating == 1
    assert both == [True, True]
    assert after_bob == [True, False]
    assert still == 1  # the spectator's socket keeps the stream's beat
    assert ann_alone == [True, False]  # her entry outlives the beat by its lifetime...
    assert without == [False, False]  # ...and no more
    assert beats.beats == {}
    assert beats.sockets == {}
    assert beats.locks == {}
