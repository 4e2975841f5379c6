"""Several server processes on one database: how each keeps its tables in step.

Each process holds the tables it serves in memory (:mod:`~quiddler.web.tables`)
and any other process may change them: a person connected elsewhere moves,
takes a seat, or a computer plays.  Four mechanisms keep that safe, all of
them on a store that several processes share (PostgreSQL); with a store
one process has to itself (SQLite) each is a no-op.

* **Order.**  The store stores action ``n`` only on top of action ``n - 1``
  (:class:`~quiddler.web.store.StaleError` otherwise).  A process that
  finds itself behind reads what it missed, applies it, and tries the
  person's action again on the new state: it applies there or is refused
  as the engine refuses it (not your turn, already drawn).
* **News.**  Every write notifies the other processes when it commits;
  :class:`Coordinator` hears the notes on the store's listening thread.
  A table this process serves (someone is connected to it here, or its
  computer is thinking here) catches up at once and tells its connections
  the new state; any other table only notes what it missed, and reads it
  when someone comes for it (:meth:`~quiddler.web.tables.Tables.get`, and
  again on connecting, since a note may come between the two), so a process
  spends nothing on the moves of tables it does not serve.  (Dropping such a
  table from memory at once would leave a connection made to it after the
  drop on a copy that no note reaches; one nobody has asked for in
  :data:`~quiddler.web.tables.UNSERVED_SECONDS` leaves at the next purge.)
  A note names what changed (a seat taken, an action, a seat's
  connections, a rematch), and only that is read again.  After the
  connection to the database was lost,
  every table served catches up (what was said meanwhile is not heard
  again) and says again which seats it holds connections of.
* **Who is connected.**  Each process marks in the store the seats it
  holds a connection of (:meth:`~quiddler.web.store.Store.mark_connected`)
  while it is alive: a mark counts only while the process's listening
  connection to the database is open, so the marks of a process that
  died stop counting at once.  Every process shows a seat connected when
  any process holds it.  PostgreSQL tells nobody when a connection ends,
  so each process's listening thread also looks, every
  :data:`~quiddler.web.store.postgres.SWEEP_SECONDS`, for processes that
  died, forgets them and their seats, and tells every process which
  tables they were at: the seats are shown disconnected within seconds.
* **Computer moves.**  A computer's move is played by the process that
  holds its lease (:meth:`~quiddler.web.store.Store.claim`), renewed while
  it thinks; a process that finds the lease held by another tries again
  when it would have run out, so when the holder dies another process
  serving the table plays the move within :data:`LEASE_SECONDS` or so
  (and a table nobody is connected to any more goes on when someone
  comes back to it, on whichever process).  A move played twice would be
  stored once anyway (the order above); the lease saves the thinking.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

from .store import Store, StoreError

if TYPE_CHECKING:
    from .tables import Table, Tables

#: What another process may change at a table, as its notes name it.
CHANGES = frozenset({"seat", "action", "presence", "rematch"})

__all__ = ["LEASE_SECONDS", "Coordinator"]

log = logging.getLogger("quiddler.web")

#: How long a computer move's lease lasts unless renewed (every third of it).
LEASE_SECONDS = 3.0


class Coordinator:
    """One process's part in keeping the tables of a shared store in step."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store: Store = tables.store
        #: This process's name in the leases.
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._stop: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        """Hear the other processes, from when this returns."""
        if self.store.shared and self._stop is None:
            self._loop = asyncio.get_running_loop()
            self._stop = await asyncio.to_thread(self.store.listen, self._heard_elsewhere)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None

    def _heard_elsewhere(self, note: str) -> None:
        """On the listening thread: hand the note to the event loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.heard, note)

    def heard(self, note: str) -> None:
        """A note from another process: ``"<kind> <table> [<moves>]"``, ``"down"`` or ``"up"``."""
        if note == "down":
            return  # the store said so in the log; moves are refused until it is back
        if note == "up":
            for table_id in list(self.tables.tables):
                self._changed(table_id, CHANGES, again=True)
            return
        kind, _, rest = note.partition(" ")
        if kind in CHANGES:
            self._changed(rest.partition(" ")[0], frozenset({kind}))

    def _changed(self, table_id: str, changed: frozenset[str], again: bool = False) -> None:
        table = self.tables.tables.get(table_id)
        if table is None:
            return
        if table.listeners or table.playing:
            asyncio.get_running_loop().create_task(self._catch_up(table, changed, again))
        else:
            table.missed |= changed  # not served here: read when someone comes for it

    async def _catch_up(self, table: Table, changed: frozenset[str], again: bool) -> None:
        try:
            if again:
                await table.remark_connected()
            await table.catch_up(changed)
        except StoreError as exc:
            log.warning("table %s: %s", table.id, exc)

    # -- leases --------------------------------------------------------------

    async def claim(self, table_id: str, moves: int) -> bool:
        """Whether this process plays the computer's move ``moves`` at the table now."""
        return await self.tables.stored(self.store.claim, table_id, moves, self.holder, LEASE_SECONDS)

    async def keep(self, table_id: str, moves: int) -> None:
        """Renew the lease while the move is thought about (cancel this when done)."""
        while True:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                if not await self.claim(table_id, moves):
                    log.warning("table %s: lost the lease of move %d", table_id, moves)
                    return
            except StoreError as exc:
                log.warning("table %s: %s", table_id, exc)

    def try_again_later(self, table: Table) -> None:
        """Another process holds the lease: look again once it would have run
        out, if this process still serves the table."""

        def again() -> None:
            if self.tables.tables.get(table.id) is table:
                table.start_computers()

        asyncio.get_running_loop().call_later(LEASE_SECONDS + 0.2, again)
