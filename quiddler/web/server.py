"""Running the app: uvicorn on one socket, with the address printed first,
and bounds on slow clients, on shutdown and on what forwarded headers may claim.

The socket is bound here, before uvicorn starts, so that with port 0 the
line ``Serving on http://HOST:PORT`` names the port actually bound and a
script (or a test) can read it from the first line of output.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .limits import Limits
from .store import open_store

__all__ = ["LOOPBACK_NAMES", "default_db", "is_loopback", "run", "serving_line"]

#: The names a loopback server answers to (the Host header must be one of them).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def default_db() -> Path:
    """Where ``quiddler serve`` keeps its tables without ``--db``.

    :returns: ``tables.sqlite3`` in ``$XDG_DATA_HOME/quiddler``, or in
        ``~/.local/share/quiddler`` when that is not set.
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "quiddler" / "tables.sqlite3"


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server to this machine."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _allowed_hosts(host: str) -> list[str] | None:
    """The Host headers to answer: the loopback names for a loopback
    server, that address (and loopback) for one address, any for a wildcard."""
    bare = host.strip("[]")
    if is_loopback(bare):
        return list(LOOPBACK_NAMES)
    try:
        if ipaddress.ip_address(bare).is_unspecified:
            return None
    except ValueError:
        pass
    return [bare, *LOOPBACK_NAMES]


def serving_line(host: str, port: int) -> str:
    bare = host.strip("[]")
    shown = f"[{bare}]" if ":" in bare else bare
    return f"Serving on http://{shown}:{port}"


def _bind(host: str, port: int) -> socket.socket:
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    if bare == "localhost":
        bare = "127.0.0.1"
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose
    # protocol says TCP, and an accepted socket inherits the listener's
    # (with 0, every second small write on a connection waited ~40 ms for
    # the client's delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bare, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(host: str = "127.0.0.1", port: int = 8000, db: Path | str | None = None, allow_origins: Sequence[str] = (),
        *, limits: Limits | None = None, workers: int | None = None, trusted_proxies: Sequence[str] = (),
        announce: Callable[[str], None] | None = None) -> None:  # fmt: skip
    """Serve the browser game until interrupted: what ``quiddler serve`` runs.

    Prints ``Serving on http://HOST:PORT`` first, once the server listens
    (with ``port=0`` the port the system chose), then nothing but warnings
    and errors.

    :param host: the address to listen on; anything but loopback lets other
        machines connect.
    :param port: the port to listen on; 0 picks a free one.
    :param db: the database of tables and games: a SQLite file's path or a
        ``postgresql://`` URL (None: :func:`default_db`).
    :param allow_origins: origins besides the server's own whose pages may
        open a WebSocket.
    :param limits: the server's limits (:class:`Limits`); None for the defaults.
    :param workers: threads for the computer players (default: the usable
        cores, at least 2).
    :param trusted_proxies: the addresses (or networks, ``10.0.0.0/8``) of
        the proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto``
        headers are believed; from anyone else they are ignored, and the
        client is the address that connected.
    :param announce: where the first line goes (default: standard output).
    :raises OSError: the address cannot be bound.
    :raises StoreError: the database cannot be opened as what it names, is
        another program's, or (SQLite) another server has it open.
    """
    limits = limits or Limits()
    # Opened here, before the socket, and held until the server stops: a database that cannot be
    # opened (or that another server holds) fails with one line naming it, never inside uvicorn.
    store = open_store(db if db is not None else default_db())
    try:
        sock = _bind(host, port)
        bound_port = sock.getsockname()[1]
        app = create_app(store, allow_origins=allow_origins,
                         allowed_hosts=_allowed_hosts(host), limits=limits, workers=workers)  # fmt: skip
        line = serving_line(host, bound_port)
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s: %(name)s: %(message)s")
        http = _bounded_http(limits.request_seconds)
        config = _config(app, limits, http, trusted_proxies)
        logging.getLogger("uvicorn.error").addFilter(_client_fault_in_one_line)
        _AnnouncingServer(config, http, line, announce or (lambda text: print(text, flush=True))).run(sockets=[sock])
    finally:
        store.close()


#: How often uvicorn pings a quiet WebSocket connection to see that the client is still there ...
PING_SECONDS = 20.0
#: ... and how long it waits for the answer, on top of the longest a message may hold the
#: connection's next one back (uvicorn's defaults are 20 s and 20 s).
PONG_SECONDS = 20.0


def _config(app: ASGIApp, limits: Limits, http: type[_BoundedH11Protocol], trusted_proxies: Sequence[str]) -> uvicorn.Config:
    """uvicorn's settings for the app.

    The keepalive ping's timeout is longer than ``decision_seconds``:
    uvicorn stops reading a connection while a message it has received
    waits for the app, and the app answers a hint (or a review) before it
    takes the next message, for up to ``decision_seconds``.  A pong that
    arrives behind such a message is read only then, so with uvicorn's
    default timeout (20 s, as long as a decision may take) a person who
    asked for a slow hint and sent anything else could be disconnected as
    dead."""
    return uvicorn.Config(app, ws="websockets-sansio", ws_max_size=limits.max_message_bytes,
                          ws_ping_interval=PING_SECONDS,
                          ws_ping_timeout=limits.decision_seconds + PONG_SECONDS, lifespan="on", http=http,
                          timeout_graceful_shutdown=max(1, round(limits.shutdown_seconds)),
                          proxy_headers=bool(trusted_proxies), forwarded_allow_ips=list(trusted_proxies) or None,
                          log_level="warning", access_log=False, server_header=False)  # fmt: skip


def _client_fault_in_one_line(record: logging.LogRecord) -> bool:
    """A client's bad input is one warning line, never a traceback: uvicorn
    logs a text frame that is not UTF-8 with the decoding error's whole
    traceback, and any client could fill the log with them."""
    if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError) and "UTF-8" in str(record.msg):
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg, record.args = "a client sent a text frame that is not UTF-8: closed it (1007)", ()
    return True


class _BoundedH11Protocol(H11Protocol):
    """What :func:`_bounded_http` makes; ``closing`` is set when the server shuts down."""

    closing: ClassVar[bool] = False


def _bounded_http(seconds: float) -> type[_BoundedH11Protocol]:
    """uvicorn's HTTP/1.1 protocol with a bound on the time a client takes to
    send a whole request: from the moment the connection opens, or the
    previous response ends, to the last byte of the request (headers and
    body).  A client silent or slow for longer is disconnected, so idle or
    half-sent requests cannot hold sockets (uvicorn bounds only the wait
    between requests, and only after a first one).  A connection accepted
    once the server shuts down is closed at once: uvicorn asks only the
    connections it already had to close, and would wait for a silent late
    one until the shutdown's time bound."""

    class BoundedH11Protocol(_BoundedH11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if self.closing:
                self.shutdown()
                return
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_watching()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            self._watch()

        def shutdown(self) -> None:
            if self.conn.their_state is h11.SEND_BODY:  # a body still owed would hold the shutdown open
                self.transport.close()
                return
            super().shutdown()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            """A timer runs while the client owes us (part of) a request."""
            waiting = self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing()
            if waiting and self._deadline is None:
                self._deadline = self.loop.call_later(seconds, self._too_slow)
            elif not waiting:
                self._stop_watching()

        def _stop_watching(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing() and self.transport.get_protocol() is self:
                self.transport.close()

    return BoundedH11Protocol


class _AnnouncingServer(uvicorn.Server):
    """Says where it serves once it listens (and has resumed the stored
    tables): a client that reads the line can connect at once."""

    def __init__(self, config: uvicorn.Config, http: type[_BoundedH11Protocol], line: str,
                 announce: Callable[[str], None]) -> None:  # fmt: skip
        super().__init__(config)
        self._http = http
        self._line = line
        self._announce = announce

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._http.closing = True
        await super().shutdown(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._announce(self._line)
