"""The tables in PostgreSQL: one database shared by any number of server processes.

The same tables as the SQLite store, and the same guarantees: every write
is one transaction committed before the call returns (so before any
client hears of it), and action ``n`` is stored only on top of action
``n - 1``.  That check is one statement: the table's row carries its
number of moves, and ``UPDATE tables SET moves = moves + 1 WHERE id = ...
AND moves = n`` both takes the row's lock and checks the version, so of two
processes storing move ``n`` at once the second finds ``moves`` already
``n + 1`` and stores nothing (:class:`~quiddler.web.store.StaleError`).

Each write also sends a notification (``pg_notify`` on the channel
``quiddler``, delivered when the transaction commits) naming the table and
what changed; :meth:`PostgresStore.listen` hears them on a connection of
its own, so every process learns of every change at once without polling.
A computer's move is leased (:meth:`PostgresStore.claim`) with the
database's clock, so one process plays it and another takes it over when
the lease runs out.

The URL's password is never printed or logged: errors name the database
by :func:`~quiddler.web.store.shown_target`.  The layout's version is kept
in ``quiddler_schema``; a database that holds other tables and no such
version is another program's and is refused before anything is written.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from .base import SCHEMA_VERSION, RematchRow, SeatRow, StaleError, Store, StoreError, TableRow

__all__ = ["CHANNEL", "PostgresStore"]

log = logging.getLogger("quiddler.web")

#: The channel every process's notifications go to.
CHANNEL = "quiddler"
#: The advisory lock held while a process checks or creates the layout.
_LAYOUT_LOCK = 0x51554944
#: Seconds to wait for the database to answer a connection.
CONNECT_SECONDS = 5
#: How often the listening thread looks for processes that died (their
#: seats are then shown disconnected everywhere): one small query, however
#: many tables there are.  PostgreSQL tells nobody when a connection ends,
#: so this is the one thing learnt by asking rather than by a notification.
SWEEP_SECONDS = 2.0

_SCHEMA = """
CREATE TABLE quiddler_schema (version integer NOT NULL);
CREATE TABLE tables (
    id text PRIMARY KEY,
    seed bigint NOT NULL,
    rules text NOT NULL,
    hints boolean NOT NULL,
    invite_hash text NOT NULL,
    created double precision NOT NULL,
    updated double precision NOT NULL,
    finished boolean NOT NULL DEFAULT false,
    moves integer NOT NULL DEFAULT 0
);
CREATE INDEX tables_unfinished ON tables (created) WHERE NOT finished;
CREATE TABLE seats (
    table_id text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat integer NOT NULL,
    kind text NOT NULL,
    name text,
    token_hash text,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE actions (
    table_id text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n integer NOT NULL,
    action text NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE leases (
    table_id text PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    moves integer NOT NULL,
    holder text NOT NULL,
    expires double precision NOT NULL
);
"""
#: What layout version 2 added: rematches, and which process holds which seat's connections.
_SCHEMA_2 = """
CREATE TABLE rematches (
    table_id text PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    rematch text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    by_seat integer NOT NULL
);
CREATE TABLE processes (
    origin text PRIMARY KEY,
    backend integer NOT NULL,
    started timestamptz NOT NULL
);
CREATE TABLE presence (
    table_id text NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat integer NOT NULL,
    origin text NOT NULL,
    PRIMARY KEY (table_id, seat, origin)
);
"""
#: The processes alive now: the listening connection each registered is still open.
_LIVE = ("SELECT s.origin FROM processes s JOIN pg_stat_activity a "
         "ON a.pid = s.backend AND a.backend_start = s.started")  # fmt: skip

_NOW = "extract(epoch from clock_timestamp())"


class PostgresStore(Store):
    """A server process's connections to the shared database: one per
    thread that calls it (the server calls it from a few threads, so that
    the commits of different tables wait for the disk together)."""

    shared = True

    def __init__(self, url: str, shown: str) -> None:
        self.url = url
        self.shown = shown  #: the URL without its password, for messages
        self.origin = secrets.token_hex(6)  #: this store's name in its notifications
        self._local = threading.local()
        self._opened: list[psycopg.Connection[Any]] = []
        self._opened_lock = threading.Lock()
        self._closed = False
        #: Bumped when the database is found gone: each thread's connection
        #: made before is replaced on its next use, so that after a restart
        #: of the database no thread tries a move on a connection that died
        #: with it (a connection does not know until it is used).
        self._generation = 0
        with self._errors("open"):
            db = self._connection()
            with db.transaction():
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_LAYOUT_LOCK,))
                self._check_layout(db)

    def _check_layout(self, db: psycopg.Connection[Any]) -> None:
        names = [name for (name,) in db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")]  # fmt: skip
        if "quiddler_schema" in names:
            row = db.execute("SELECT max(version) FROM quiddler_schema").fetchone()
            version = row[0] if row is not None and row[0] is not None else 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"the database {self.shown} was made by a newer quiddler (layout version {version}; "
                                 f"this one knows up to {SCHEMA_VERSION}): upgrade quiddler")  # fmt: skip
            if version < 2:
                db.execute(_SCHEMA_2)
                db.execute("UPDATE quiddler_schema SET version = %s", (SCHEMA_VERSION,))
            return
        if names:
            shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
            raise StoreError(f"{self.shown} is another program's database (it holds {shown}): "
                             "give an empty database or one quiddler made")  # fmt: skip
        db.execute(_SCHEMA)
        db.execute(_SCHEMA_2)
        db.execute("INSERT INTO quiddler_schema (version) VALUES (%s)", (SCHEMA_VERSION,))

    # -- the connection ------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                               application_name="quiddler serve")  # fmt: skip

    def _connection(self) -> psycopg.Connection[Any]:
        """This thread's open connection, made again after the database went away."""
        if self._closed:
            raise StoreError(f"the database {self.shown} is closed")
        db: psycopg.Connection[Any] | None = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken or self._local.generation != self._generation:
            if db is not None:
                db.close()
                with self._opened_lock:
                    self._opened.remove(db)
            self._local.db = None
            generation = self._generation
            db = self._local.db = self._connect()
            self._local.generation = generation
            with self._opened_lock:
                self._opened.append(db)
        return db

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:
            db = getattr(self._local, "db", None)
            if db is None or db.broken or db.closed:  # the database went away, not just this statement
                self._generation += 1
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(f"cannot {doing} the database {self.shown}: {message}") from None

    def close(self) -> None:
        self._closed = True
        with self._opened_lock:
            opened, self._opened = self._opened, []
        for db in opened:
            db.close()

    def _note(self, kind: str, table_id: str, moves: int | None = None) -> str:
        return f"{self.origin} {kind} {table_id}" + ("" if moves is None else f" {moves}")

    # -- writing -------------------------------------------------------------

    def create_table(self, table_id: str, seed: int, rules: dict[str, Any], hints: bool, invite_hash: str,
                     seats: list[SeatRow], rematch_of: tuple[str, int] | None = None) -> None:  # fmt: skip
        now = time.time()
        with self._errors("write to"):
            db = self._connection()
            with db.transaction():
                db.execute("INSERT INTO tables (id, seed, rules, hints, invite_hash, created, updated) "
                           "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                           (table_id, seed, json.dumps(rules), hints, invite_hash, now, now))  # fmt: skip
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO seats (table_id, seat, kind, name, token_hash) VALUES (%s, %s, %s, %s, %s)",
                        [(table_id, n, s.kind, s.name, s.token_hash) for n, s in enumerate(seats)])  # fmt: skip
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._note("table", table_id)))
                if rematch_of is not None:
                    linked = db.execute(
                        "WITH r AS (INSERT INTO rematches (table_id, rematch, by_seat) VALUES (%s, %s, %s) "
                        "           ON CONFLICT DO NOTHING RETURNING table_id) SELECT pg_notify(%s, %s) FROM r",
                        (rematch_of[0], table_id, rematch_of[1], CHANNEL, self._note("rematch", rematch_of[0])),
                    ).rowcount  # fmt: skip
                    if linked != 1:
                        raise StaleError(f"table {rematch_of[0]} has a rematch already")

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        with self._errors("write to"):
            taken = self._connection().execute(
                "WITH s AS (UPDATE seats SET name = %s, token_hash = %s "
                "           WHERE table_id = %s AND seat = %s AND token_hash IS NULL RETURNING table_id), "
                "t AS (UPDATE tables SET updated = %s WHERE id IN (SELECT table_id FROM s) RETURNING id) "
                "SELECT pg_notify(%s, %s) FROM t",
                (name, token_hash, table_id, seat, time.time(), CHANNEL, self._note("seat", table_id)),
            ).rowcount
        if taken != 1:
            raise StaleError(f"seat {seat} of table {table_id} is no longer free")

    def append_action(self, table_id: str, number: int, action: dict[str, Any]) -> None:
        with self._errors("write to"):
            stored = self._connection().execute(
                "WITH t AS (UPDATE tables SET moves = moves + 1, updated = %s "
                "           WHERE id = %s AND moves = %s RETURNING id), "
                "a AS (INSERT INTO actions (table_id, n, action) SELECT id, %s, %s FROM t RETURNING table_id) "
                "SELECT pg_notify(%s, %s) FROM a",
                (time.time(), table_id, number, number, json.dumps(action, separators=(",", ":")), CHANNEL,
                 self._note("action", table_id, number + 1)),
            ).rowcount  # fmt: skip
        if stored != 1:
            raise StaleError(f"table {table_id} does not hold exactly {number} actions")

    def mark_finished(self, table_id: str) -> None:
        with self._errors("write to"):
            self._connection().execute("UPDATE tables SET finished = true, updated = %s WHERE id = %s",
                                       (time.time(), table_id))  # fmt: skip

    def claim(self, table_id: str, moves: int, holder: str, seconds: float) -> bool:
        """(A lease need not survive a crash of the database: its commit does
        not wait for the disk.  Were a lease lost, two processes might think
        about one move; the move would still be stored once.)"""
        with self._errors("write to"):
            db = self._connection()
            with db.transaction():
                db.execute("SET LOCAL synchronous_commit TO off")
                won = db.execute(
                    f"INSERT INTO leases (table_id, moves, holder, expires) VALUES (%s, %s, %s, {_NOW} + %s) "
                    "ON CONFLICT (table_id) DO UPDATE SET moves = excluded.moves, holder = excluded.holder, "
                    "expires = excluded.expires WHERE leases.holder = excluded.holder "
                    f"OR leases.moves <> excluded.moves OR leases.expires < {_NOW}",
                    (table_id, moves, holder, seconds),
                ).rowcount
        return won == 1

    def mark_connected(self, table_id: str, seat: int, connected: bool) -> None:
        with self._errors("write to"):
            db = self._connection()
            with db.transaction():
                db.execute("SET LOCAL synchronous_commit TO off")  # lost in a crash of the database: nobody is connected then
                if connected:
                    db.execute("INSERT INTO presence (table_id, seat, origin) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                               (table_id, seat, self.origin))  # fmt: skip
                else:
                    db.execute("DELETE FROM presence WHERE table_id = %s AND seat = %s AND origin = %s",
                               (table_id, seat, self.origin))  # fmt: skip
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._note("presence", table_id)))

    def connected_elsewhere(self, table_id: str) -> frozenset[int]:
        with self._errors("read"):
            rows = self._connection().execute(
                f"SELECT DISTINCT seat FROM presence WHERE table_id = %s AND origin <> %s AND origin IN ({_LIVE})",
                (table_id, self.origin)).fetchall()  # fmt: skip
        return frozenset(seat for (seat,) in rows)

    def purge(self, *, finished_before: float, unfinished_before: float, lobby_before: float) -> list[str]:
        with self._errors("write to"):
            rows = self._connection().execute(
                "DELETE FROM tables t WHERE (finished AND updated < %s) OR (NOT finished AND updated < %s) "
                "OR (NOT finished AND updated < %s AND EXISTS "
                "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'human' AND s.token_hash IS NULL)) "
                "RETURNING id",
                (finished_before, unfinished_before, lobby_before),
            ).fetchall()
        return [table_id for (table_id,) in rows]

    # -- reading -------------------------------------------------------------

    _SELECT = ("SELECT id, seed, rules, hints, invite_hash, created, updated, finished, r.rematch, r.by_seat "
               "FROM tables LEFT JOIN rematches r ON r.table_id = tables.id")  # fmt: skip

    def _row(self, values: tuple[Any, ...]) -> TableRow:
        table_id = values[0]
        return TableRow(table_id, values[1], json.loads(values[2]), values[3], values[4], values[5], values[6],
                        values[7], self.seats(table_id), tuple(self.actions_since(table_id, 0)),
                        None if values[8] is None else RematchRow(values[8], values[9]))  # fmt: skip

    def load(self, table_id: str) -> TableRow | None:
        with self._errors("read"):
            found = self._connection().execute(f"{self._SELECT} WHERE id = %s", (table_id,)).fetchone()
            return None if found is None else self._row(found)

    def rematch(self, table_id: str) -> RematchRow | None:
        with self._errors("read"):
            found = self._connection().execute("SELECT rematch, by_seat FROM rematches WHERE table_id = %s",
                                               (table_id,)).fetchone()  # fmt: skip
        return None if found is None else RematchRow(found[0], found[1])

    def seats(self, table_id: str) -> tuple[SeatRow, ...]:
        with self._errors("read"):
            rows = self._connection().execute(
                "SELECT kind, name, token_hash FROM seats WHERE table_id = %s ORDER BY seat", (table_id,))  # fmt: skip
            return tuple(SeatRow(kind, name, token_hash) for kind, name, token_hash in rows)

    def actions_since(self, table_id: str, number: int) -> list[dict[str, Any]]:
        with self._errors("read"):
            rows = self._connection().execute(
                "SELECT action FROM actions WHERE table_id = %s AND n >= %s ORDER BY n", (table_id, number))  # fmt: skip
            return [json.loads(text) for (text,) in rows]

    def unfinished(self) -> list[TableRow]:
        with self._errors("read"):
            rows = self._connection().execute(
                f"{self._SELECT} WHERE NOT finished ORDER BY created").fetchall()  # fmt: skip
            return [self._row(values) for values in rows]

    def count_unfinished(self) -> int:
        with self._errors("read"):
            row = self._connection().execute("SELECT count(*) FROM tables WHERE NOT finished").fetchone()
            return int(row[0]) if row is not None else 0

    # -- hearing the other processes -----------------------------------------

    def listen(self, tell: Callable[[str], None]) -> Callable[[], None]:
        """Hear the other processes' notifications on a thread and connection
        of their own, once listening (or after a few seconds without the
        database); ``tell`` gets ``"<kind> <table> [<moves>]"`` for each,
        ``"down"`` when the connection is lost and ``"up"`` once it is back
        (what was missed meanwhile must be read again)."""
        stopping, listening = threading.Event(), threading.Event()
        thread = threading.Thread(target=self._hear, args=(tell, stopping, listening), name="quiddler-listen",
                                  daemon=True)  # fmt: skip
        thread.start()
        listening.wait(CONNECT_SECONDS)  # what is marked or said from now on counts, and is heard

        def stop() -> None:
            stopping.set()
            thread.join(timeout=5)

        return stop

    def _register(self, db: psycopg.Connection[Any]) -> None:
        """Mark this process alive for as long as the listening connection
        ``db`` stays open (the seats it holds count as connected only
        then)."""
        db.execute("INSERT INTO processes (origin, backend, started) "
                   "SELECT %s, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid() "
                   "ON CONFLICT (origin) DO UPDATE SET backend = excluded.backend, started = excluded.started",
                   (self.origin,))  # fmt: skip

    def _forget_the_dead(self, db: psycopg.Connection[Any]) -> list[str]:
        """Forget the processes whose listening connection has closed (they
        died: a process that stops cleanly has closed it too) and the seats
        they held; the tables those seats were at, which every other process
        is told of too, so that all of them show those seats disconnected."""
        with db.transaction():
            db.execute(f"DELETE FROM processes WHERE origin NOT IN ({_LIVE})")
            rows = db.execute(f"DELETE FROM presence WHERE origin NOT IN ({_LIVE}) RETURNING table_id").fetchall()
            tables = sorted({table_id for (table_id,) in rows})
            for table_id in tables:
                db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._note("presence", table_id)))
        return tables

    def _hear(self, tell: Callable[[str], None], stopping: threading.Event, listening: threading.Event) -> None:
        down = False
        while not stopping.is_set():
            try:
                with self._connect() as db:
                    db.execute(f"LISTEN {CHANNEL}")
                    self._register(db)
                    listening.set()
                    if down:
                        down = False
                        tell("up")
                    swept = 0.0  # at once: the seats of any process that died while none was listening
                    while not stopping.is_set():
                        for note in db.notifies(timeout=1.0):
                            origin, _, rest = note.payload.partition(" ")
                            if origin != self.origin:
                                tell(rest)
                        if time.monotonic() - swept >= SWEEP_SECONDS:
                            swept = time.monotonic()
                            for table_id in self._forget_the_dead(db):
                                tell(f"presence {table_id}")
            except psycopg.Error as exc:
                self._generation += 1
                if not down:
                    down = True
                    log.warning("lost the connection to %s: %s", self.shown, str(exc).strip().splitlines()[0]
                                if str(exc).strip() else type(exc).__name__)  # fmt: skip
                    tell("down")
                stopping.wait(0.5)
