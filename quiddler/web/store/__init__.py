"""Where the tables are kept: a SQLite file, or (for many server processes) PostgreSQL.

:func:`open_store` opens what ``--db`` names: a path is a SQLite file
(:class:`SqliteStore`), ``postgresql://...`` a PostgreSQL database
(:class:`~quiddler.web.store.postgres.PostgresStore`, which needs the
``postgres`` extra: psycopg is imported only then); any
other ``scheme://`` is refused, naming the scheme, rather than taken for a
file name.  Every store offers the interface of :class:`Store`, with the
same guarantees.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import SCHEMA_VERSION, RematchRow, SeatRow, StaleError, Store, StoreError, TableRow
from .sqlite import SqliteStore

__all__ = ["SCHEMA_VERSION", "RematchRow", "SeatRow", "SqliteStore", "StaleError", "Store", "StoreError", "TableRow",
           "is_url", "open_store", "shown_target"]  # fmt: skip

_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/@:]*):[^/@]*@")
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_url(target: Path | str) -> bool:
    """Whether ``--db`` names a database by URL (``scheme://...``) rather than a file."""
    return isinstance(target, str) and _URL.match(target) is not None


def shown_target(target: Path | str) -> str:
    """``target`` as it may be printed or logged: a URL's password replaced by ``***``."""
    return _PASSWORD.sub(r"\1:***@", str(target))


def open_store(target: Path | str) -> Store:
    """The store ``target`` names: a SQLite file's path (``":memory:"``
    keeps nothing), or a ``postgresql://`` URL.

    :raises StoreError: it cannot be opened as what it names, is another
        program's database, or (SQLite) another server has it open.
    """
    found = _URL.match(target) if isinstance(target, str) else None
    if found is None:
        return SqliteStore(target)
    scheme = found.group(1).lower()
    if scheme in _POSTGRES_SCHEMES:
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreError(f"--db {shown_target(target)} needs the postgres extra (psycopg is missing): "
                             "pip install 'quiddler[postgres]'") from None  # fmt: skip
        return PostgresStore(str(target), shown_target(target))
    raise StoreError(f"--db {shown_target(target)}: quiddler keeps its tables in a SQLite file (a path) or in "
                     f"PostgreSQL (postgresql://USER@HOST:PORT/DBNAME), not in {scheme}")  # fmt: skip
