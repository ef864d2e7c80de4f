"""events.live: "stream advanced to v" goes to the stream's group only after the commit, says
nothing hidden, and falls back to the outbox when the channel layer is down (real Redis)."""

from __future__ import annotations

import asyncio
import queue
import uuid
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.test import override_settings

from events.live import announce_advanced, send_advanced, stream_group
from events.models import OutboxEntry
from events.tasks import send_stream_advanced
from herald.layers import _sender

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.services("postgres", "redis", reason="the Redis channel layer and on_commit"),
]
DOWN = {"hosts": ["redis://127.0.0.1:1/0"]}
BACKENDS = [
    "channels_redis.pubsub.RedisPubSubChannelLayer",
    "channels_redis.core.RedisChannelLayer",
]


class Listener:
    """A channel in a stream's group, read on the same loop as the sends (herald.layers).

    One receive runs for the listener's life and hands each message over: on the pub/sub layer
    a receive that is cancelled (a wait that timed out) unsubscribes its channel, and what came
    next would be lost, so a wait never cancels the receive."""

    def __init__(self, stream_id: str) -> None:
        self.layer = get_channel_layer()
        self.channel = _sender.run(self.layer.new_channel, timeout=5)
        group = stream_group(stream_id)
        _sender.run(lambda: self.layer.group_add(group, self.channel), timeout=5)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()

        async def start() -> asyncio.Future[None]:
            return asyncio.ensure_future(self._pump())

        self.pump = _sender.run(start, timeout=5)

    async def _pump(self) -> None:
        while True:
            self.messages.put(await self.layer.receive(self.channel))

    def next(self, timeout: float = 2.0) -> dict[str, Any] | None:
        """The next message, or None if none came within ``timeout``."""
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            return None


def rolled_back(work: Any) -> None:
    """Run ``work`` in a transaction that then fails (RuntimeError) and rolls back."""
    with transaction.atomic():
        work()
        raise RuntimeError("the append failed")


@pytest.fixture
def stream_id() -> str:
    return str(uuid.uuid4())


def test_the_message_leaves_only_after_the_commit(stream_id: str) -> None:
    listener = Listener(stream_id)
    with transaction.atomic():
        announce_advanced(stream_id, 7)
        assert listener.next(timeout=0.5) is None  # not before the commit
    message = listener.next()
    assert message == {"type": "stream.advanced", "stream": stream_id, "version": 7}


def test_a_rolled_back_append_announces_nothing(stream_id: str) -> None:
    listener = Listener(stream_id)
    with pytest.raises(RuntimeError):
        rolled_back(lambda: announce_advanced(stream_id, 3))
    assert listener.next(timeout=1.0) is None


@pytest.mark.parametrize("backend", BACKENDS)
def test_with_the_layer_down_the_outbox_takes_the_message(stream_id: str, backend: str) -> None:
    with override_settings(CHANNEL_LAYERS={"default": {"BACKEND": backend, "CONFIG": DOWN}}):
        assert send_advanced(stream_id, 4) is False
    entry = OutboxEntry.objects.get(topic="stream.advanced")
    assert entry.payload == {"stream": stream_id, "version": 4}
    # The entry's task (run here as a worker runs it) sends it once the layer is back.
    listener = Listener(stream_id)
    assert send_stream_advanced(**entry.payload) is True
    assert listener.next() == {"type": "stream.advanced", "stream": stream_id, "version": 4}


def test_a_send_from_synchronous_code_is_the_pubsub_layers_own_message(stream_id: str) -> None:
    """herald.layers publishes the pub/sub layer's group messages itself (one PUBLISH, no
    event loop): on the channel, and in the bytes, that a consumer of the layer reads. A
    prefix of its own and encrypted messages: a name or an encoding of the publisher's own
    would reach nobody, or fail to decrypt."""
    config = {
        "hosts": [settings.CHANNEL_LAYER_URL],
        "prefix": f"sync{uuid.uuid4().hex[:8]}",
        "symmetric_encryption_keys": ["a club's secret"],
    }
    layers = {"default": {"BACKEND": BACKENDS[0], "CONFIG": config}}
    with override_settings(CHANNEL_LAYERS=layers):
        listener = Listener(stream_id)
        assert send_advanced(stream_id, 9) is True
        assert listener.next() == {"type": "stream.advanced", "stream": stream_id, "version": 9}
        other = Listener(str(uuid.uuid4()))
        assert send_advanced(stream_id, 10) is True
        assert listener.next() == {"type": "stream.advanced", "stream": stream_id, "version": 10}
        assert other.next(timeout=0.5) is None  # another stream's group hears nothing


@override_settings(HERALD_LIVE_SEND="outbox")
def test_the_outbox_mode_writes_the_entry_in_the_transaction(stream_id: str) -> None:
    written: list[int] = []

    def announce() -> None:
        announce_advanced(stream_id, 2)
        written.append(OutboxEntry.objects.filter(topic="stream.advanced").count())

    with pytest.raises(RuntimeError):
        rolled_back(announce)
    assert written == [1]  # in the transaction
    assert not OutboxEntry.objects.filter(topic="stream.advanced").exists()
