"""The tables in one SQLite file: the embedded default of ``quiddler serve``.

Every write is committed before the server answers (an action is stored
before any client sees the state it leads to).  The database runs in WAL
mode with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed at any moment (SIGKILL, a crash); only a power
cut of the whole machine may lose the last ones.  The seed is stored
because the game cannot be rebuilt without it, and it never leaves the
server before the game is over.

One server at a time: the process holds an exclusive lock on the file
(``flock``) for as long as a store of it is open, so a second server on the
same file is refused at start instead of handing the same seat to two
people.  The system drops the lock when the process ends, however it ends,
so a server killed with SIGKILL leaves no stale lock behind.  (Stores of
one file in one process share the lock: a test may open the file again.)

The file is marked as quiddler's (``PRAGMA application_id``) with the
version of its layout (``PRAGMA user_version``).  A file that is neither
empty, nor marked, nor exactly the three tables older versions of quiddler
made (which are adopted and marked) is refused before anything is written
to it: another program's database is never taken over.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from .base import SCHEMA_VERSION, RematchRow, SeatRow, StaleError, Store, StoreError, TableRow

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, and no second-server check
    fcntl = None  # type: ignore[assignment]

__all__ = ["APPLICATION_ID", "SqliteStore"]

#: ``PRAGMA application_id`` of a quiddler database: "QUID" in ASCII.
APPLICATION_ID = 0x51554944

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    seed INTEGER NOT NULL,
    rules TEXT NOT NULL,
    hints INTEGER NOT NULL,
    invite_hash TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    rematch TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    by_seat INTEGER NOT NULL
);
"""

#: The columns of the tables quiddler made before its files were marked:
#: a file holding exactly these (and nothing else) is one of ours.
_UNMARKED_LAYOUT = {
    "tables": ["id", "seed", "rules", "hints", "invite_hash", "created", "updated", "finished"],
    "seats": ["table_id", "seat", "kind", "name", "token_hash"],
    "actions": ["table_id", "n", "action"],
}


class _FileLock:
    """The process's locks on database files, shared by the stores of one file."""

    _lock = threading.Lock()
    _held: ClassVar[dict[tuple[int, int], tuple[int, int]]] = {}  # (device, inode) -> (descriptor, stores)

    @classmethod
    def acquire(cls, path: str) -> tuple[int, int] | None:
        """Lock the file (made if missing); its key, or None where there is no flock."""
        if fcntl is None:
            return None
        with cls._lock:
            with contextlib.suppress(FileNotFoundError):
                stat = os.stat(path)
                key = (stat.st_dev, stat.st_ino)
                if key in cls._held:  # (not opened again: closing a descriptor would drop SQLite's own locks)
                    fd, count = cls._held[key]
                    cls._held[key] = (fd, count + 1)
                    return key
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
            stat = os.fstat(fd)
            key = (stat.st_dev, stat.st_ino)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StoreError(f"the database '{path}' is in use by another quiddler server: "
                                 "stop that one, or give another --db") from None  # fmt: skip
            cls._held[key] = (fd, 1)
        return key

    @classmethod
    def release(cls, key: tuple[int, int]) -> None:
        with cls._lock:
            fd, count = cls._held[key]
            if count > 1:
                cls._held[key] = (fd, count - 1)
                return
            del cls._held[key]
        os.close(fd)


class SqliteStore(Store):
    """The server's one connection to its SQLite file (``":memory:"``: nothing kept)."""

    def __init__(self, path: Path | str) -> None:
        self.path = self.shown = str(path)
        self._lock: tuple[int, int] | None = None
        self._db: sqlite3.Connection | None = None
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self._lock = _FileLock.acquire(self.path)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._check_ours()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            # No checkpoint in a commit: a checkpoint syncs the file to disk, which can take long
            # on a busy disk; checkpoint() runs them on another thread instead.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except StoreError:
            self.close()
            raise
        except (OSError, sqlite3.Error) as exc:
            self.close()
            raise StoreError(f"cannot open the database '{self.path}': {exc}") from None

    def _check_ours(self) -> None:
        """Refuse, before writing anything, a database that is neither empty nor ours."""
        db = self._connection()
        try:
            application_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            names = [name for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")]  # fmt: skip
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"'{self.path}' is not a quiddler database ({exc})") from None
        if application_id == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise StoreError(f"the database '{self.path}' was made by a newer quiddler (layout version "
                                 f"{version}; this one knows up to {SCHEMA_VERSION}): upgrade quiddler")  # fmt: skip
            return
        if application_id == 0 and (not names or self._unmarked_quiddler(names)):
            return
        shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
        held = f"it holds {shown}" if names else f"its application id is {application_id:#x}"
        raise StoreError(f"'{self.path}' is another program's database ({held}): "
                         "give a new file or one quiddler made")  # fmt: skip

    def _unmarked_quiddler(self, names: list[str]) -> bool:
        """Whether the database holds exactly the tables older quiddler versions made."""
        if sorted(names) != sorted(_UNMARKED_LAYOUT):
            return False
        db = self._connection()
        return all([row[1] for row in db.execute(f"PRAGMA table_info({name})")] == columns
                   for name, columns in _UNMARKED_LAYOUT.items())  # fmt: skip

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"the database '{self.path}' is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock is not None:
            _FileLock.release(self._lock)  # after the database: closing a descriptor drops the process's locks
            self._lock = None

    def checkpoint(self) -> None:
        """Copy the committed transactions from the write-ahead log into the
        database file, on a connection of its own: call it from any thread,
        now and then (a passive checkpoint never waits for the writer)."""
        if self.path == ":memory:":
            return
        try:
            with contextlib.closing(sqlite3.connect(self.path, isolation_level=None)) as db:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot checkpoint the database '{self.path}': {exc}") from None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction (rolled back if the block raises)."""
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the database '{self.path}': {exc}") from None

    def create_table(self, table_id: str, seed: int, rules: dict[str, Any], hints: bool, invite_hash: str,
                     seats: list[SeatRow], rematch_of: tuple[str, int] | None = None) -> None:  # fmt: skip
        now = time.time()
        with self._transaction() as db:
            db.execute("INSERT INTO tables (id, seed, rules, hints, invite_hash, created, updated) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (table_id, seed, json.dumps(rules), int(hints), invite_hash, now, now))  # fmt: skip
            db.executemany("INSERT INTO seats (table_id, seat, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
                           [(table_id, n, s.kind, s.name, s.token_hash) for n, s in enumerate(seats)])  # fmt: skip
            if rematch_of is not None:
                linked = db.execute("INSERT INTO rematches (table_id, rematch, by_seat) VALUES (?, ?, ?) "
                                    "ON CONFLICT DO NOTHING", (rematch_of[0], table_id, rematch_of[1])).rowcount  # fmt: skip
                if linked != 1:
                    raise StaleError(f"table {rematch_of[0]} has a rematch already")

    def rematch(self, table_id: str) -> RematchRow | None:
        found = self._connection().execute("SELECT rematch, by_seat FROM rematches WHERE table_id = ?",
                                           (table_id,)).fetchone()  # fmt: skip
        return None if found is None else RematchRow(found[0], found[1])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        with self._transaction() as db:
            taken = db.execute("UPDATE seats SET name = ?, token_hash = ? "
                               "WHERE table_id = ? AND seat = ? AND token_hash IS NULL",
                               (name, token_hash, table_id, seat)).rowcount  # fmt: skip
            if taken != 1:
                raise StaleError(f"seat {seat} of table {table_id} is no longer free")
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))

    def append_action(self, table_id: str, number: int, action: dict[str, Any]) -> None:
        with self._transaction() as db:
            stored = db.execute("SELECT COALESCE(MAX(n) + 1, 0) FROM actions WHERE table_id = ?",
                                (table_id,)).fetchone()[0]  # fmt: skip
            if stored != number:
                raise StaleError(f"table {table_id} holds {stored} actions, not {number}")
            db.execute("INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)",
                       (table_id, number, json.dumps(action, separators=(",", ":"))))  # fmt: skip
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id))

    def mark_finished(self, table_id: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET finished = 1, updated = ? WHERE id = ?", (time.time(), table_id))

    def _row(self, values: tuple[Any, ...]) -> TableRow:
        table_id = values[0]
        return TableRow(table_id, values[1], json.loads(values[2]), bool(values[3]), values[4], values[5], values[6],
                        bool(values[7]), self.seats(table_id), tuple(self.actions_since(table_id, 0)),
                        None if values[8] is None else RematchRow(values[8], values[9]))  # fmt: skip

    def seats(self, table_id: str) -> tuple[SeatRow, ...]:
        rows = self._connection().execute(
            "SELECT kind, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))  # fmt: skip
        return tuple(SeatRow(kind, name, token_hash) for kind, name, token_hash in rows)

    _SELECT = ("SELECT id, seed, rules, hints, invite_hash, created, updated, finished, r.rematch, r.by_seat "
               "FROM tables LEFT JOIN rematches r ON r.table_id = tables.id")  # fmt: skip

    def load(self, table_id: str) -> TableRow | None:
        found = self._connection().execute(f"{self._SELECT} WHERE id = ?", (table_id,)).fetchone()
        return None if found is None else self._row(found)

    def actions_since(self, table_id: str, number: int) -> list[dict[str, Any]]:
        rows = self._connection().execute("SELECT action FROM actions WHERE table_id = ? AND n >= ? ORDER BY n",
                                          (table_id, number))  # fmt: skip
        return [json.loads(text) for (text,) in rows]

    def unfinished(self) -> list[TableRow]:
        rows = self._connection().execute(
            f"{self._SELECT} WHERE finished = 0 ORDER BY created").fetchall()  # fmt: skip
        return [self._row(values) for values in rows]

    def count_unfinished(self) -> int:
        return int(self._connection().execute("SELECT COUNT(*) FROM tables WHERE finished = 0").fetchone()[0])

    def purge(self, *, finished_before: float, unfinished_before: float, lobby_before: float) -> list[str]:
        rows = self._connection().execute(
            "SELECT id FROM tables t WHERE (finished = 1 AND updated < ?) OR (finished = 0 AND updated < ?) "
            "OR (finished = 0 AND updated < ? AND EXISTS "
            "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'human' AND s.token_hash IS NULL))",
            (finished_before, unfinished_before, lobby_before),
        ).fetchall()
        ids = [table_id for (table_id,) in rows]
        if ids:
            with self._transaction() as db:
                db.executemany("DELETE FROM tables WHERE id = ?", [(table_id,) for table_id in ids])
        return ids
