"""The channel layer from synchronous code: views, services, Celery tasks, /healthz.

Channels' layers are asynchronous. The in-memory layer (one process, `make run`) lives on the
server's event loop, so calls go there (async_to_sync). The pub/sub layer's group_send is one
Redis PUBLISH, which this process sends itself, synchronously (:class:`PubSubPublisher`). Any
other Redis layer is called from this process's own loop thread (:class:`SenderLoop`):
async_to_sync from a WSGI worker or a Celery task would start an event loop, and so a new Redis
connection, for every call (2.2 ms against 0.17 ms a message on the development machine).
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

import redis
from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer
from channels_redis.core import RedisChannelLayer as CoreRedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts
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
    if isinstance(layer, RedisPubSubChannelLayer):
        _publisher_for(layer).group_send(group, message)
        return
    _sender.run(lambda: layer.group_send(group, message), timeout=SEND_TIMEOUT)


class PubSubPublisher:
    """The pub/sub layer's group_send from synchronous code: the layer's own message bytes
    (``layer.serialize``: msgpack, encrypted if the layer is) published on the group's Redis
    channel, on the shard the layer would pick, by a plain Redis client of this process.

    Through :class:`SenderLoop` a send cost a thread hop, a turn of that loop and the asyncio
    client: about a tenth of a Les 7 Blasons move's CPU in gunicorn (bench/live.py), for one
    command. The channel's name and the shard follow channels_redis's pub/sub layer
    (``RedisPubSubLoopLayer._get_group_channel_name`` and ``_get_shard``); the test that sends
    this way and receives through the layer itself holds the two together across upgrades.
    """

    def __init__(self, layer: RedisPubSubChannelLayer, config: dict[str, Any]) -> None:
        self.layer = layer
        self.prefix = str(config.get("prefix", "asgi"))
        self.clients = [self._client(dict(host)) for host in decode_hosts(config.get("hosts"))]

    @staticmethod
    def _client(host: dict[str, Any]) -> redis.Redis:
        # A send waits SEND_TIMEOUT at most, then the caller's fallback (the outbox) takes it.
        host.update(socket_timeout=SEND_TIMEOUT, socket_connect_timeout=SEND_TIMEOUT)
        return redis.Redis.from_url(host.pop("address"), **host)

    def group_send(self, group: str, message: dict[str, Any]) -> None:
        """PUBLISH ``message`` to ``group``'s subscribers. Raises what Redis raises."""
        channel = f"{self.prefix}__group__{group}"
        client = self.clients[_consistent_hash(channel, len(self.clients))]
        client.publish(channel, self.layer.serialize(message))


_publisher: PubSubPublisher | None = None


def _publisher_for(layer: RedisPubSubChannelLayer) -> PubSubPublisher:
    """The publisher of the default layer ``layer`` (a new one when the layer was remade, as
    tests that change the settings do; two threads making one at once make equal ones)."""
    global _publisher
    publisher = _publisher
    if publisher is None or publisher.layer is not layer:
        config = channel_layers.configs[DEFAULT_CHANNEL_LAYER].get("CONFIG", {})
        publisher = _publisher = PubSubPublisher(layer, config)
    return publisher


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
