"""A socket server collects its garbage at quiet moments (herald.quietgc): never while a socket
works, as soon as it is quiet once the young objects reached the threshold, the middle and old
generations by Python's own rule, and Python's own collections stay on as a safety net."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from herald import quietgc
from herald.quietgc import QuietCollector
from herald.sockets import SocketConsumer
from tests.conftest import run_async


@pytest.fixture
def collections_seen() -> Iterator[list[int]]:
    """The generation of every collection made while the test runs, by anyone."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.collect()
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)


def young_objects(collector: QuietCollector, over: int = 500) -> list[list[int]]:
    """Tracked objects kept alive: the young generation's count past the collector's
    threshold (and under Python's raised one, so only the collector collects them)."""
    assert collector.thresholds is not None
    return [[index] for index in range(collector.thresholds[0] + over)]


def test_nothing_is_collected_while_a_socket_works_and_the_young_are_once_it_is_quiet(
    collections_seen: list[int],
) -> None:
    async def scenario() -> list[Any]:
        collector = QuietCollector()
        collector.start()
        try:
            held = young_objects(collector)
            with collector.busy():
                during = collector.collect_if_due()
                await asyncio.sleep(5 * quietgc.TICK)  # the timer looks, and waits too
                after_timer_while_busy = list(collections_seen)
            await asyncio.sleep(quietgc.QUIET_FOR + 5 * quietgc.TICK)
            return [during, after_timer_while_busy, list(collector.collections), len(held)]
        finally:
            collector.stop()

    during, while_busy, made, _ = run_async(scenario)
    assert during is None
    assert while_busy == []
    assert made == [1, 0, 0]
    assert collections_seen == [0]


def test_the_middle_generation_follows_pythons_rule(collections_seen: list[int]) -> None:
    async def scenario() -> list[int]:
        collector = QuietCollector()
        collector.start()
        try:
            assert collector.thresholds is not None
            _, middle, _ = collector.thresholds
            for _ in range(middle + 1):  # each young collection counts toward the middle one
                gc.collect(0)
            seen_before = len(collections_seen)
            held = young_objects(collector)
            await asyncio.sleep(quietgc.QUIET_FOR + 5 * quietgc.TICK)
            held += young_objects(collector)
            await asyncio.sleep(quietgc.QUIET_FOR + 5 * quietgc.TICK)
            assert len(held) > 0
            return collections_seen[seen_before:]
        finally:
            collector.stop()

    # Past the middle threshold, the middle generation; then the young one again.
    assert run_async(scenario) == [1, 0]


def test_work_that_goes_on_without_a_pause_holds_collections_off_for_a_while_only(
    collections_seen: list[int],
) -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        collector = QuietCollector()
        collector.start()
        try:
            held = young_objects(collector)
            with collector.busy():
                await asyncio.sleep(quietgc.BUSY_AT_MOST / 2)
                early = list(collections_seen)
                await asyncio.sleep(quietgc.BUSY_AT_MOST / 2 + 5 * quietgc.TICK)
                late = list(collections_seen)
            assert len(held) > 0
            return early, late
        finally:
            collector.stop()

    early, late = run_async(scenario)
    assert early == []
    assert late == [0]


def test_start_raises_pythons_threshold_to_a_safety_net_and_stop_gives_it_back() -> None:
    before = gc.get_threshold()

    async def scenario() -> tuple[int, int, int]:
        collector = QuietCollector()
        collector.start()
        collector.start()  # once per loop: the second start changes nothing
        raised = gc.get_threshold()
        collector.stop()
        return raised

    raised = run_async(scenario)
    assert raised == (before[0] * quietgc.SAFETY_FACTOR, before[1], before[2])
    assert gc.get_threshold() == before


class Watching(SocketConsumer):
    """Answers each frame with whether the process's collector counted it as work."""

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"working": quietgc.collector.working})


@pytest.mark.django_db  # Channels' dispatch closes the thread's old connections first
def test_a_socket_handling_a_message_holds_the_collector_off() -> None:
    # Another test's socket may have been dropped mid-message with its loop: counted from here.
    before = quietgc.collector.working

    async def scenario() -> tuple[dict[str, Any], int]:
        communicator = WebsocketCommunicator(Watching.as_asgi(), "/ws/watching/")
        connected, _ = await communicator.connect()
        assert connected
        await communicator.send_json_to({"hello": 1})
        answer = await communicator.receive_json_from()
        await communicator.disconnect()
        return answer, quietgc.collector.working

    try:
        answer, afterwards = run_async(scenario)
    finally:
        quietgc.collector.stop()
    assert answer == {"working": before + 1}
    assert afterwards == before
