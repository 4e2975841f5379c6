"""What every store of the tables offers, whatever database is behind it.

A store keeps three things per table: the table itself (the seed, the
rules, whether hints are allowed, the invite's hash, when it was made and
last changed, whether the game is over), its seats (``"human"`` or a
computer level, the display name, the SHA-256 of the seat's token) and
every accepted action in order, in the game record's encoding.  A seed
plus the actions fix the whole game, so a table is rebuilt by replaying
its actions through the engine.  A finished table may also be linked to
its rematch (the new table, and the seat that asked for it), so that
whichever server a person reaches offers the same rematch.

The guarantees are the same for every store: each write is committed
before the call returns (so before any client hears of it), tokens and
invites are kept only hashed, and action ``n`` of a table is stored only
on top of action ``n - 1``: :meth:`Store.append_action` refuses any other
number with :class:`StaleError`, so two writers can never both store a
move, whichever process or connection they write from.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import QuiddlerError

__all__ = ["SCHEMA_VERSION", "RematchRow", "SeatRow", "StaleError", "Store", "StoreError", "TableRow"]

#: The version of the tables' layout a database is marked with; a store
#: migrates an older one when it opens it and refuses a newer one.
SCHEMA_VERSION = 2


class StoreError(QuiddlerError):
    """The database cannot be opened or written; the message names it (never its password)."""


class StaleError(StoreError):
    """A write made on a state of the table that is no longer the latest:
    another writer stored a move (or took the seat) first."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    kind: str  #: "human" or a computer player's name
    name: str | None
    token_hash: str | None  #: None for a free human seat and for a computer


@dataclass(frozen=True, slots=True)
class RematchRow:
    table_id: str  #: the new table
    by: int  #: the seat that asked for it


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
    rematch: RematchRow | None = None


class Store(abc.ABC):
    """The tables' database, used from the event loop's thread only."""

    #: Whether several server processes may use the database at once.
    shared: bool = False
    #: Where the tables are kept, as messages and the log may say it (never a password).
    shown: str = "the store"

    def claim(self, table_id: str, moves: int, holder: str, seconds: float) -> bool:
        """Whether ``holder`` may play the computer's move ``moves`` at the
        table: it holds (or renews) the lease on that move for ``seconds``.
        A store that one process has to itself grants every claim."""
        return True

    def mark_connected(self, table_id: str, seat: int, connected: bool) -> None:
        """Whether this process holds a connection of the seat now, for the
        other processes to show (:meth:`connected_elsewhere`).  A store one
        process has to itself keeps nothing: the process knows its own."""

    def connected_elsewhere(self, table_id: str) -> frozenset[int]:
        """The seats of the table connected to other, living, processes."""
        return frozenset()

    def listen(self, tell: Callable[[str], None]) -> Callable[[], None]:
        """Call ``tell(note)`` (on another thread) for every change another
        process makes from when this returns (see :mod:`~quiddler.web.coordination`);
        the function returned stops listening.  A store one process has to itself has
        nothing to tell."""
        return lambda: None

    @abc.abstractmethod
    def close(self) -> None:
        """Close the database (a second call does nothing)."""

    def checkpoint(self) -> None:
        """Housekeeping a database needs now and then, safe to run on
        another thread (nothing by default)."""

    @abc.abstractmethod
    def create_table(self, table_id: str, seed: int, rules: dict[str, Any], hints: bool, invite_hash: str,
                     seats: list[SeatRow], rematch_of: tuple[str, int] | None = None) -> None:  # fmt: skip
        """Store a new table and its seats.  With ``rematch_of`` (a finished
        table, the seat asking) the new table is that table's rematch, in
        the same transaction; StaleError (and nothing stored) if it has one
        already: of two servers making a rematch at once, one does."""

    @abc.abstractmethod
    def rematch(self, table_id: str) -> RematchRow | None:
        """The table's rematch, if one was made (and is still kept)."""

    @abc.abstractmethod
    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        """Give a free human seat to a person; StaleError if it is no longer free."""

    @abc.abstractmethod
    def append_action(self, table_id: str, number: int, action: dict[str, Any]) -> None:
        """Store action ``number`` (0-based) of the table; StaleError unless
        the table holds exactly ``number`` actions."""

    @abc.abstractmethod
    def mark_finished(self, table_id: str) -> None:
        """The game is over: it is kept for its record, not reloaded at start-up."""

    @abc.abstractmethod
    def load(self, table_id: str) -> TableRow | None:
        """The table with its seats and actions; None if there is none."""

    @abc.abstractmethod
    def seats(self, table_id: str) -> tuple[SeatRow, ...]:
        """The table's seats as stored now."""

    @abc.abstractmethod
    def actions_since(self, table_id: str, number: int) -> list[dict[str, Any]]:
        """The table's actions from action ``number`` on, in order."""

    @abc.abstractmethod
    def unfinished(self) -> list[TableRow]:
        """Every table whose game is not over, oldest first."""

    @abc.abstractmethod
    def count_unfinished(self) -> int: ...

    @abc.abstractmethod
    def purge(self, *, finished_before: float, unfinished_before: float, lobby_before: float) -> list[str]:
        """Delete finished games last changed before ``finished_before``,
        unfinished ones before ``unfinished_before``, and tables whose seats
        were never all taken before ``lobby_before``; the ids deleted."""
