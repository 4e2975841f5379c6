"""``quiddler serve`` against slow, silent and lying clients, as real
processes on loopback: the time to a whole request and to shutdown are
bounded, forwarded addresses count only from a trusted proxy, accepted
sockets send at once (TCP_NODELAY), and bad frames are one log line."""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from quiddler.web.server import _bind

from .webtools import REPO, ServerProcess

#: How long a test waits for what the server must do within its bounds (a
#: failure when passed, never a measure: a loaded machine only takes longer).
PATIENCE = 60.0


class LimitedServer:
    """``quiddler.web.server.run`` with short request and shutdown bounds, in a child process."""

    def __init__(self, db: Path) -> None:
        script = ("import sys; from quiddler.web.limits import Limits; from quiddler.web.server import run; "
                  "run('127.0.0.1', 0, sys.argv[1], limits=Limits(request_seconds=1, shutdown_seconds=1))")  # fmt: skip
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen([sys.executable, "-c", script, str(db)], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, cwd=REPO, env=env)  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        assert line.startswith("Serving on http://"), line
        self.port = int(line.rpartition(":")[2])

    def stop(self) -> str:
        """SIGTERM, then what it logged."""
        self.process.send_signal(signal.SIGTERM)
        _, stderr = self.process.communicate(timeout=PATIENCE)
        return stderr


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LimitedServer]:
    server = LimitedServer(tmp_path_factory.mktemp("limited") / "t.sqlite3")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.communicate()


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes ``sock`` (within PATIENCE) without answering."""
    sock.settimeout(PATIENCE)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def read_response(sock: socket.socket) -> bytes:
    """One whole HTTP response (its headers and its Content-Length of body)."""
    sock.settimeout(PATIENCE)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += sock.recv(65536)
    return data


def handshake(port: int, table: str, forwarded_for: str | None = None) -> tuple[socket.socket, bool]:
    """A WebSocket handshake by hand: the socket, and whether it was accepted (101)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    sock.sendall((f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Origin: http://127.0.0.1:{port}\r\n{extra}\r\n").encode())  # fmt: skip
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = sock.recv(4096)
        if not chunk:
            break
        reply += chunk
    return sock, reply.startswith(b"HTTP/1.1 101")


def masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def new_table(port: int, headers: dict[str, str] | None = None) -> str:
    created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"seats": ["human", "human"]},
                         headers=headers or {}, timeout=PATIENCE)  # fmt: skip
    assert created.status_code == 201, created.text
    return str(created.json()["table"])


# -- the time to a whole request ----------------------------------------------------


def test_a_silent_or_half_sent_request_is_closed(limited: LimitedServer) -> None:
    silent = socket.create_connection(("127.0.0.1", limited.port))
    half_headers = socket.create_connection(("127.0.0.1", limited.port))
    half_headers.sendall(b"GET /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    half_body = socket.create_connection(("127.0.0.1", limited.port))
    half_body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"seats\":")  # fmt: skip
    kept_alive = socket.create_connection(("127.0.0.1", limited.port))
    kept_alive.sendall(b"GET /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert read_response(kept_alive).startswith(b"HTTP/1.1 200")  # a whole request in time is answered
    kept_alive.sendall(b"GET /api/players HTTP/1.1\r\n")  # then half of the next one
    for sock in (silent, half_headers, half_body, kept_alive):
        with sock:
            assert closed_by_server(sock)


def test_shutdown_ends_with_silent_and_half_sent_clients(tmp_path: Path) -> None:
    """Each try: silent sockets, a request whose body never comes, a
    WebSocket that never reads, and more sockets connecting while SIGTERM
    arrives; the server must end all the same."""
    for attempt in range(5):
        with ServerProcess(tmp_path / f"t{attempt}.sqlite3") as server:
            table = new_table(server.port)
            held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
            half_body = socket.create_connection(("127.0.0.1", server.port))
            half_body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100\r\n\r\n{")  # fmt: skip
            websocket, accepted = handshake(server.port, table)
            assert accepted
            held += [half_body, websocket]
            stop = threading.Event()
            flood = [threading.Thread(target=connect_until, args=(server.port, held, stop)) for _ in range(4)]
            for thread in flood:
                thread.start()
            assert httpx.get(f"{server.url}/api/players", timeout=PATIENCE).status_code == 200  # all accepted
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"try {attempt}: still running {PATIENCE:.0f} s after SIGTERM") from None
            finally:
                stop.set()
                for thread in flood:
                    thread.join()
                for sock in held:
                    sock.close()


def connect_until(port: int, held: list[socket.socket], stop: threading.Event, most: int = 500) -> None:
    """Open silent connections until ``stop``, the server refuses, or ``most``."""
    for _ in range(most):
        if stop.is_set():
            return
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=PATIENCE))
        except OSError:
            return


# -- sockets send at once ------------------------------------------------------------


def test_accepted_sockets_send_at_once() -> None:
    """TCP_NODELAY on every accepted socket: without it, the second small
    write on a connection (a kept-alive response, a second WebSocket
    message) waits for the client's delayed ACK, about 40 ms."""

    async def accepted_nodelay() -> int:
        listener = _bind("127.0.0.1", 0)
        accepted: asyncio.Queue[asyncio.BaseTransport] = asyncio.Queue()

        class Accept(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted.put_nowait(transport)

        server = await asyncio.get_running_loop().create_server(Accept, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            transport = await asyncio.wait_for(accepted.get(), PATIENCE)
            option = transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            writer.close()
            transport.close()
            return int(option)

    assert asyncio.run(accepted_nodelay()) != 0


# -- forwarded addresses -------------------------------------------------------------


def test_made_up_forwarded_addresses_are_not_believed(limited: LimitedServer) -> None:
    table = new_table(limited.port)
    held = [handshake(limited.port, table, forwarded_for=f"10.0.{n}.1") for n in range(45)]
    try:
        assert sum(accepted for _, accepted in held) == 32  # the documented cap of one client
    finally:
        for sock, _ in held:
            sock.close()


def test_behind_a_trusted_proxy_each_real_client_is_counted_apart(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "t.sqlite3", "--trusted-proxy", "127.0.0.1") as server:
        table = new_table(server.port)
        apart = [handshake(server.port, table, forwarded_for=f"198.51.100.{n}") for n in range(40)]
        one = [handshake(server.port, table, forwarded_for="203.0.113.5") for _ in range(40)]
        try:
            assert all(accepted for _, accepted in apart)
            assert sum(accepted for _, accepted in one) == 32
        finally:
            for sock, _ in apart + one:
                sock.close()
        # New tables are metered by the real client too.
        codes = [httpx.post(f"{server.url}/api/tables", json={"seats": ["human", "easy"]}, timeout=PATIENCE,
                            headers={"X-Forwarded-For": "203.0.113.77"}).status_code for _ in range(12)]  # fmt: skip
        assert codes.count(201) == 10 and codes.count(429) == 2
        assert new_table(server.port, {"X-Forwarded-For": "203.0.113.78"})


# -- the log -------------------------------------------------------------------------


def test_text_frames_that_are_not_utf8_are_one_log_line_each(tmp_path: Path) -> None:
    server = LimitedServer(tmp_path / "t.sqlite3")
    try:
        table = new_table(server.port)
        for _ in range(20):
            sock, accepted = handshake(server.port, table)
            with sock:
                assert accepted
                sock.sendall(masked_text_frame(b'{"type": "ping", "x": "\xff\xfe"}'))
                sock.settimeout(PATIENCE)
                close = sock.recv(16)
                assert close[:1] == b"\x88" and int.from_bytes(close[2:4], "big") == 1007
    finally:
        log = server.stop()
    assert "Traceback" not in log
    lines = [line for line in log.splitlines() if "UTF-8" in line]
    assert len(lines) == 20 and len(log.splitlines()) == 20, log
