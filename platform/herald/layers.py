"""The channel layer from synchronous code: views, services, Celery tasks, /healthz.

Channels' layers are asynchronous. The in-memory layer (one process, `make run`) lives on the
server's event loop, so calls go there (async_to_sync). A Redis layer is called from this
process's own loop thread (:class:`SenderLoop`): async_to_sync from a WSGI worker or a Celery
task would start an event loop, and so a new Redis connection, for every call (2.2 ms against
0.17 ms a message on the development machine).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import threading
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer as CoreRedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.utils.module_loading import import_string
from redis import asyncio as aioredis

SEND_TIMEOUT = 2.0  # seconds for one group_send before the outbox takes the message over

#: Connections a process holds to the layer's Redis, per event loop (and for presence): more
#: commands at once than this wait for one of them, up to POOL_WAIT seconds.
POOL_SIZE = 64
POOL_WAIT = 20.0


def blocking_pool(url: str, **options: Any) -> aioredis.BlockingConnectionPool:
    """A pool of at most :data:`POOL_SIZE` connections to ``url`` whose callers wait for a free
    one. redis-py's own pool refuses the 101st command at once ("Too many connections"): a
    hall of phones opening a game, or every socket reconnecting after a restart, is such a
    burst, and the sockets failed."""
    return aioredis.BlockingConnectionPool.from_url(
        url, max_connections=POOL_SIZE, timeout=POOL_WAIT, **options
    )


class RedisChannelLayer(CoreRedisChannelLayer):
    """channels_redis's core layer on :func:`blocking_pool` pools."""

    def create_pool(self, index: int) -> aioredis.BlockingConnectionPool:
        host = dict(self.hosts[index])
        return blocking_pool(host.pop("address"), **host)


def is_redis_layer(backend: str) -> bool:
    """Whether the channel layer ``backend`` (a dotted path) keeps its groups in Redis."""
    try:
        layer = import_string(backend)
    except ImportError:
        return False
    return isinstance(layer, type) and issubclass(
        layer, (CoreRedisChannelLayer, RedisPubSubChannelLayer)
    )


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` on the default channel layer (none configured: nothing).
    Raises what the layer raises, TimeoutError after ``SEND_TIMEOUT``."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(layer.group_send)(group, message)
        return
    _sender.run(lambda: layer.group_send(group, message), timeout=SEND_TIMEOUT)


class SenderLoop:
    """One event loop per process, on a daemon thread, started on first use (and again in a
    forked child: gunicorn and Celery workers fork), for the channel layer's sends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def run(self, make: Callable[[], Coroutine[Any, Any, Any]], *, timeout: float) -> Any:
        """Run the coroutine ``make()`` on the loop; its result, or its exception (a timeout
        cancels it and raises TimeoutError)."""
        future = asyncio.run_coroutine_threadsafe(make(), self._running_loop())
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"the channel layer did not answer within {timeout}s") from None

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                self._loop = asyncio.new_event_loop()
                self._pid = os.getpid()
                threading.Thread(
                    target=self._loop.run_forever, name="channel-layer-sender", daemon=True
                ).start()
            return self._loop


_sender = SenderLoop()


async def unsubscribe(layer: RedisPubSubChannelLayer, channel: str) -> None:
    """Forget ``channel`` on the pub/sub layer (each /healthz would leave one subscribed). The
    layer has no call for it: it unsubscribes a channel whose receive is cancelled, which is
    how a consumer's channel ends."""
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)  # the receive now waits on the channel's queue
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting


def layer_status() -> str:
    """The channel layer's health for /healthz: "ok" (a message went through Redis on a test
    channel and came back), "in-memory" (one process, nothing to check) or "down: ..."."""
    layer = get_channel_layer()
    if layer is None:
        return "down: no channel layer is configured (CHANNEL_LAYERS)"
    if isinstance(layer, InMemoryChannelLayer):
        return "in-memory"
    token = uuid.uuid4().hex

    async def through(channel: str) -> bool:
        await layer.send(channel, {"type": "healthz", "token": token})
        message = await layer.receive(channel)
        return bool(message.get("token") == token)

    async def round_trip() -> bool:
        if not isinstance(layer, RedisPubSubChannelLayer):
            # A plain channel, not new_channel()'s process-local one: the core layer's is read
            # by the consumers' loop, and a second loop may not receive on it.
            return await through(f"healthz.{token}")
        # Published to no subscriber, a message is gone: subscribe (new_channel) first. This
        # loop has a pub/sub connection of its own, the consumers' loop another.
        channel = await layer.new_channel("healthz.")
        try:
            return await through(channel)
        finally:
            await unsubscribe(layer, channel)

    try:
        same = _sender.run(round_trip, timeout=SEND_TIMEOUT)
    except Exception as exc:
        return f"down: {exc.__class__.__name__}: {exc}".strip()[:300]
    return "ok" if same else "down: the test message came back changed"
