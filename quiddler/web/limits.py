"""The server's limits: how much any one client can ask of it.

Every limit is a field of :class:`Limits`, so a test or the benchmark can
set its own; the defaults suit a server for friends.  Message size is
enforced twice: by uvicorn (``ws_max_size``) before a frame is even read
whole, and by the app for any server that does not (the tests' in-process
client).
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .protocol import MAX_MESSAGE_BYTES

__all__ = ["AddressCounter", "ClientRates", "Limits", "RateLimiter", "client_key"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows: message sizes and rates, connections, tables
    (in all and per client), idle and slow clients, how long a computer
    decision may take, and how long games are kept.  Every field has a
    default; ``create_app(db, limits=Limits(...))`` changes any of them."""

    #: A WebSocket message bigger than this closes the connection with code 1009.
    max_message_bytes: int = MAX_MESSAGE_BYTES
    #: A REST request body bigger than this is refused (413).
    max_body_bytes: int = 16 * 1024
    #: Messages a connection may send per second on average ...
    messages_per_second: float = 20.0
    #: ... and in one burst; beyond that each message is answered ``rate_limited`` and dropped.
    message_burst: int = 40
    #: Open WebSocket connections from one address (a household shares one).
    connections_per_address: int = 32
    #: Unfinished tables the server holds at once; creating one more is refused (503).
    max_tables: int = 1000
    #: A connection that sends nothing for this long is closed (code 1000).
    idle_seconds: float = 30 * 60
    #: A computer player's decision (and a hint) that takes longer is cut short:
    #: the computer plays a plain legal move instead, the hint is refused ``busy``.
    decision_seconds: float = 20.0
    #: Messages queued for one slow client before it is disconnected.
    send_queue: int = 256
    #: Finished games are kept (for their record) this many days after their last move.
    keep_finished_days: float = 30.0
    #: Unfinished games are kept this many days after their last move.
    keep_unfinished_days: float = 30.0
    #: A table whose seats were never all taken is dropped this many days after it
    #: was made or last joined (an hour: a table nobody came to should not hold a place).
    keep_lobby_days: float = 1 / 24
    #: Tables one client may create in one burst ...
    table_burst: int = 10
    #: ... and then on average per hour; beyond that creating one is refused (429).
    tables_per_hour: float = 30.0
    #: Unfinished tables made by one client that the server holds at once; one more is
    #: refused (429), so that one client cannot take the places of everyone else.
    tables_per_client: int = 50
    #: A connection must send a whole HTTP request (headers and body) within this
    #: many seconds of opening, or of the previous response; else it is closed.
    request_seconds: float = 10.0
    #: At shutdown, connections still open after this many seconds are closed.
    shutdown_seconds: float = 5.0


class RateLimiter:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` a second."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def allow(self) -> bool:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled by ``now`` (it then limits nothing)."""
        return self._tokens + (now - self._last) * self.rate >= self.burst


class ClientRates:
    """A :class:`RateLimiter` for each client, for as long as it matters: a
    bucket that has filled up again is the same as none, so those are
    dropped once there are many (a stream of new addresses cannot grow the
    map without bound)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic, keep: int = 4096) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._keep = keep
        self._buckets: dict[str, RateLimiter] = {}

    def allow(self, client: str) -> bool:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self._keep:
                self._prune()
            bucket = self._buckets[client] = RateLimiter(self.rate, self.burst, self._clock)
        return bucket.allow()

    def _prune(self) -> None:
        now = self._clock()
        for client, bucket in list(self._buckets.items()):
            if bucket.full(now):
                del self._buckets[client]


class AddressCounter:
    """Open connections per client address, bounded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def acquire(self, address: str) -> bool:
        if self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def release(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]


def client_key(address: str) -> str:
    """The client an address stands for, in the per-client limits: an IPv4
    address itself, an IPv6 address its /64 network (one household or
    machine is handed a whole /64, so counting single IPv6 addresses would
    give each client billions of quotas)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
