"""Running the app: uvicorn on one socket, with the address printed first.

The socket is bound here, before uvicorn starts, so that with port 0 the
line ``Serving on http://HOST:PORT`` names the port actually bound and a
script (or a test) can read it from the first line of output.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import uvicorn

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
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bare, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(host: str = "127.0.0.1", port: int = 8000, db: Path | str | None = None, allow_origins: Sequence[str] = (),
        *, limits: Limits | None = None, workers: int | None = None,
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
        config = uvicorn.Config(app, ws="websockets-sansio", ws_max_size=limits.max_message_bytes, lifespan="on",
                                log_level="warning", access_log=False, server_header=False)  # fmt: skip
        _AnnouncingServer(config, line, announce or (lambda text: print(text, flush=True))).run(sockets=[sock])
    finally:
        store.close()


class _AnnouncingServer(uvicorn.Server):
    """Says where it serves once it listens (and has resumed the stored
    tables): a client that reads the line can connect at once."""

    def __init__(self, config: uvicorn.Config, line: str, announce: Callable[[str], None]) -> None:
        super().__init__(config)
        self._line = line
        self._announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._announce(self._line)
