"""SQLite persistence of the tables: nothing a player did is lost.

Three tables: ``tables`` (the seed, the rules, whether hints are allowed,
the invite's hash, when the game started and last moved, whether it is
over), ``seats`` (who sits where: ``"human"`` or a computer level, the
display name, the SHA-256 of the seat's token) and ``actions`` (every
accepted action of the game, in order, in the game record's encoding).
A seed plus the actions fix the whole game, so a table is rebuilt by
replaying its actions through the engine.

Every write is committed before the server answers (an action is stored
before any client sees the state it leads to).  The database runs in WAL
mode with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed at any moment (SIGKILL, a crash); only a power
cut of the whole machine may lose the last ones.  Tokens and invites are
stored only as SHA-256 hashes; the seed is stored because the game cannot
be rebuilt without it, and it never leaves the server before the game is
over.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import QuiddlerError

__all__ = ["SeatRow", "Store", "StoreError", "TableRow"]

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
"""


class StoreError(QuiddlerError):
    """The database cannot be opened or written; the message names the file."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    kind: str  #: "human" or a computer player's name
    name: str | None
    token_hash: str | None  #: None for a free human seat and for a computer


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    seed: int
    rules: dict[str, Any]
    hints: bool
    invite_hash: str
    created: float
    updated: float
    finished: bool
    seats: tuple[SeatRow, ...]
    actions: tuple[dict[str, Any], ...]


class Store:
    """The server's one database connection (used from the event loop's thread only)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            # No checkpoint in a commit: a checkpoint syncs the file to disk, which can take long
            # on a busy disk; checkpoint() runs them on another thread instead.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the database '{self.path}': {exc}") from None

    def close(self) -> None:
        self._db.close()

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

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run the statements as one committed transaction."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the database '{self.path}': {exc}") from None

    def create_table(self, table_id: str, seed: int, rules: dict[str, Any], hints: bool, invite_hash: str,
                     seats: list[SeatRow]) -> None:  # fmt: skip
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = [(
            "INSERT INTO tables (id, seed, rules, hints, invite_hash, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, seed, json.dumps(rules), int(hints), invite_hash, now, now),
        )]  # fmt: skip
        for number, seat in enumerate(seats):
            statements.append(("INSERT INTO seats (table_id, seat, kind, name, token_hash) VALUES (?, ?, ?, ?, ?)",
                               (table_id, number, seat.kind, seat.name, seat.token_hash)))  # fmt: skip
        self._write(statements)

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        self._write([
            ("UPDATE seats SET name = ?, token_hash = ? WHERE table_id = ? AND seat = ?",
             (name, token_hash, table_id, seat)),
            ("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id)),
        ])  # fmt: skip

    def append_action(self, table_id: str, number: int, action: dict[str, Any]) -> None:
        """Store action ``number`` (0-based) of the table."""
        self._write([
            ("INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)",
             (table_id, number, json.dumps(action, separators=(",", ":")))),
            ("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), table_id)),
        ])  # fmt: skip

    def mark_finished(self, table_id: str) -> None:
        """The game is over: it is kept for its record, not reloaded at start-up."""
        self._write([("UPDATE tables SET finished = 1, updated = ? WHERE id = ?", (time.time(), table_id))])

    def _row(self, values: tuple[Any, ...]) -> TableRow:
        table_id = values[0]
        seats = tuple(
            SeatRow(kind, name, token_hash)
            for kind, name, token_hash in self._db.execute(
                "SELECT kind, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            )
        )
        actions = tuple(
            json.loads(text)
            for (text,) in self._db.execute("SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
        )
        return TableRow(table_id, values[1], json.loads(values[2]), bool(values[3]), values[4], values[5],
                        values[6], bool(values[7]), seats, actions)  # fmt: skip

    _COLUMNS = "id, seed, rules, hints, invite_hash, created, updated, finished"

    def load(self, table_id: str) -> TableRow | None:
        found = self._db.execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if found is None else self._row(found)

    def unfinished(self) -> list[TableRow]:
        rows = self._db.execute(f"SELECT {self._COLUMNS} FROM tables WHERE finished = 0 ORDER BY created").fetchall()
        return [self._row(values) for values in rows]

    def count_unfinished(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM tables WHERE finished = 0").fetchone()[0])

    def purge(self, *, finished_before: float, unfinished_before: float, lobby_before: float) -> list[str]:
        """Delete finished games last changed before ``finished_before``,
        unfinished ones before ``unfinished_before``, and tables whose seats
        were never all taken before ``lobby_before``; the ids deleted."""
        rows = self._db.execute(
            "SELECT id FROM tables t WHERE (finished = 1 AND updated < ?) OR (finished = 0 AND updated < ?) "
            "OR (finished = 0 AND updated < ? AND EXISTS "
            "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'human' AND s.token_hash IS NULL))",
            (finished_before, unfinished_before, lobby_before),
        ).fetchall()
        ids = [table_id for (table_id,) in rows]
        if ids:
            self._write([("DELETE FROM tables WHERE id = ?", (table_id,)) for table_id in ids])
        return ids
