"""events.fanout: one subscription per stream and process, each commit handed to every socket
of the stream that has started, and a socket that opened meanwhile told what it missed.

On the channel layers Herald runs: the in-memory one (``make run``) and, with Redis, the
pub/sub layer (the default) and the core layer. The sockets are stand-ins that write down what
they are handed: what is under test is the listener between the layer and them (the real
sockets on real servers: tests/events/test_live.py, tests/play/test_live_frames.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from events import fanout
from events.fanout import StreamListeners
from events.live import advanced_message, stream_group

IN_MEMORY = "channels.layers.InMemoryChannelLayer"
PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"
CORE = "channels_redis.core.RedisChannelLayer"


def layer_settings(backend: str) -> dict[str, Any]:
    if backend == IN_MEMORY:
        return {"default": {"BACKEND": IN_MEMORY}}
    prefix = f"fanout{uuid.uuid4().hex[:8]}"
    return {
        "default": {"BACKEND": backend, "CONFIG": {"hosts": [settings.REDIS_URL], "prefix": prefix}}
    }


@pytest.fixture(
    params=[
        IN_MEMORY,
        pytest.param(PUBSUB, marks=pytest.mark.services("redis", reason="the pub/sub layer")),
        pytest.param(CORE, marks=pytest.mark.services("redis", reason="the core layer")),
    ],
    ids=["in-memory", "pubsub", "core"],
)
def layer(request: pytest.FixtureRequest, settings: Any) -> str:
    settings.CHANNEL_LAYERS = layer_settings(request.param)
    return str(request.param)


class Socket:
    """A stand-in socket: what it is handed, in order."""

    def __init__(self, fails: bool = False) -> None:
        self.handed: list[int] = []
        self.fails = fails

    async def handle_message(self, message: dict[str, Any]) -> None:
        self.handed.append(int(message["version"]))
        if self.fails:
            raise RuntimeError("this socket's drawing failed")


async def send(stream_id: str, version: int) -> None:
    await get_channel_layer().group_send(
        stream_group(stream_id), advanced_message(stream_id, version)
    )


async def until(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    """Wait until ``condition`` holds (the layer delivers on its own turn); fail after
    ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.01)


async def settle() -> None:
    """Time for a message the layer would (wrongly) deliver to arrive."""
    await asyncio.sleep(0.3)


def run(test: Callable[[StreamListeners], Awaitable[None]]) -> None:
    """``test`` with listeners of its own, on a loop of its own in a thread of its own (a
    session's browser may keep a loop running in this one); they close at the end."""

    async def main() -> None:
        listeners = StreamListeners()
        try:
            await asyncio.wait_for(test(listeners), timeout=20)
        finally:
            await listeners.close_all()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, main()).result(timeout=60)


def group_channels(stream_id: str) -> set[str]:
    """The layer's channels in the stream's group, in this process (the layers' own books)."""
    layer = get_channel_layer()
    group = stream_group(stream_id)
    if hasattr(layer, "_get_layer"):  # the pub/sub layer: one inner layer per event loop
        inner = layer._get_layer()
        return set(inner.groups.get(inner._get_group_channel_name(group), set()))
    if hasattr(layer, "_group_key"):  # the core layer: a sorted set in Redis
        members = redis.Redis.from_url(settings.REDIS_URL).zrange(layer._group_key(group), 0, -1)
        return {member.decode() for member in members}
    return set(layer.groups.get(group, {}))


def test_one_subscription_per_stream_feeds_every_started_socket_once(layer: str) -> None:
    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        sockets = [Socket() for _ in range(5)]
        for socket in sockets:
            listener = await listeners.follow(stream_id, socket)
            assert listener.start(socket, 0) is None
        assert len(group_channels(stream_id)) == 1
        assert listeners.listener(stream_id) is listener
        await send(stream_id, 1)
        await send(stream_id, 2)
        await until(lambda: all(len(s.handed) == 2 for s in sockets))
        await settle()
        assert [s.handed for s in sockets] == [[1, 2]] * 5

    run(test)


def test_a_socket_takes_nothing_before_it_starts_and_then_is_told_the_latest(layer: str) -> None:
    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        seated, opening = Socket(), Socket()
        listener = await listeners.follow(stream_id, seated)
        listener.start(seated, 0)
        await listeners.follow(stream_id, opening)  # it announced version 0, then opens on
        await send(stream_id, 1)
        await send(stream_id, 2)
        await until(lambda: seated.handed == [1, 2])
        assert opening.handed == []  # no frame before the ones its start sends
        assert listener.start(opening, 0) == advanced_message(stream_id, 2)
        await send(stream_id, 3)
        await until(lambda: opening.handed == [3])
        assert listener.start(Socket(), 2) is None  # nothing it missed, nothing to hand it
        assert Socket() not in listener.members

    run(test)


def test_one_sockets_failure_costs_the_others_nothing(layer: str) -> None:
    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        failing, other = Socket(fails=True), Socket()
        for socket in (failing, other):
            (await listeners.follow(stream_id, socket)).start(socket, 0)
        await send(stream_id, 1)
        await send(stream_id, 2)
        await until(lambda: other.handed == [1, 2])
        assert failing.handed == [1, 2]

    run(test)


def test_the_last_socket_leaving_unsubscribes_after_the_linger(
    layer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fanout, "LINGER", 0.2)

    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        first, again, later = Socket(), Socket(), Socket()
        listener = await listeners.follow(stream_id, first)
        listener.start(first, 0)
        listeners.leave(stream_id, first)
        # A page reloaded within the linger finds the same subscription.
        assert await listeners.follow(stream_id, again) is listener
        listener.start(again, 0)
        await asyncio.sleep(0.4)
        assert listeners.listener(stream_id) is listener
        listeners.leave(stream_id, again)
        await until(lambda: listeners.listener(stream_id) is None)
        assert group_channels(stream_id) == set()
        await send(stream_id, 1)
        await settle()
        assert first.handed == again.handed == []
        # A socket after that subscribes afresh and is fed.
        fresh = await listeners.follow(stream_id, later)
        assert fresh is not listener
        fresh.start(later, 0)
        await send(stream_id, 2)
        await until(lambda: later.handed == [2])

    run(test)


def test_a_socket_that_comes_while_the_listener_closes_gets_a_new_one(
    layer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fanout, "LINGER", 0.0)

    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        first, second = Socket(), Socket()
        old = await listeners.follow(stream_id, first)
        old.start(first, 0)
        listeners.leave(stream_id, first)
        await until(lambda: old.closing is not None)
        new = await listeners.follow(stream_id, second)  # waits for the close, then its own
        assert new is not old
        new.start(second, 0)
        assert len(group_channels(stream_id)) == 1
        await send(stream_id, 1)
        await until(lambda: second.handed == [1])

    run(test)


@pytest.mark.parametrize("backend", [PUBSUB, CORE], ids=["pubsub", "core"])
def test_a_layer_that_cannot_subscribe_refuses_the_socket_and_keeps_no_listener(
    backend: str, settings: Any
) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": backend, "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}
    }

    async def test(listeners: StreamListeners) -> None:
        stream_id = str(uuid.uuid4())
        socket = Socket()
        with pytest.raises(redis.exceptions.ConnectionError):
            await listeners.follow(stream_id, socket)
        assert listeners.listener(stream_id) is None

    run(test)
