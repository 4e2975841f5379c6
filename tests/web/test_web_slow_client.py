"""A client too far behind (the protocol page: more than ``send_queue``
messages waiting) is sent what was queued, then disconnected with 1008."""

from __future__ import annotations

import asyncio

from quiddler.web.app import _Connection
from quiddler.web.limits import Limits


class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


def test_a_client_too_far_behind_gets_its_queue_then_1008() -> None:
    async def scenario() -> Socket:
        socket = Socket()
        connection = _Connection(socket, Limits(send_queue=3))  # type: ignore[arg-type]
        for number in range(5):
            connection.send(f"message {number}")
        await connection.write()
        return socket

    socket = asyncio.run(scenario())
    assert socket.sent == ["message 0", "message 1", "message 2"]
    assert socket.closed_with == 1008
