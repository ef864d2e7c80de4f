"""herald.sockets: a frame for a client that has just closed its socket is dropped, not an
"Exception inside application" (daphne raises autobahn's Disconnected on such a send)."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.exception import Disconnected

from herald.sockets import SocketConsumer
from tests.conftest import run_async


class Server:
    """The ASGI server's send, as daphne answers it once the client has gone."""

    def __init__(self, error: Exception | None) -> None:
        self.error = error
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if self.error is not None:
            raise self.error


def consumer_on(server: Server) -> SocketConsumer:
    consumer = SocketConsumer()
    consumer.base_send = server
    consumer.channel_name = "specific.test"
    return consumer


@pytest.mark.parametrize(
    "error", [Disconnected("Attempt to send on a closed protocol"), ConnectionResetError()]
)
def test_a_frame_to_a_closed_socket_is_dropped_and_the_next_ones_are_not_tried(
    error: Exception,
) -> None:
    server = Server(error)
    consumer = consumer_on(server)
    run_async(lambda: consumer.send_json({"type": "presence", "seats": [True]}))
    run_async(lambda: consumer.send_json({"type": "presence", "seats": [False]}))
    assert consumer.gone
    assert len(server.sent) == 1  # the second frame was not tried


def test_frames_to_an_open_socket_go_out_and_other_errors_still_raise() -> None:
    server = Server(None)
    consumer = consumer_on(server)
    run_async(lambda: consumer.send_json({"type": "joined"}))
    assert server.sent == [{"type": "websocket.send", "text": '{"type": "joined"}'}]
    server.error = ValueError("Socket has not been accepted, so cannot send over it")
    with pytest.raises(ValueError, match="not been accepted"):
        run_async(lambda: consumer.send_json({"type": "joined"}))
    assert not consumer.gone
