"""A new table never takes the id of a table the server holds, in memory
or only in its store (a game from before a restart)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from quiddler.game.rules import Rules
from quiddler.web import tables as tables_module
from quiddler.web.store import SqliteStore
from quiddler.web.tables import Tables

SHORT = Rules(round_sizes=(3,))


def test_a_new_table_id_skips_ids_in_memory_and_in_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "tables.sqlite3"

    async def first_server() -> str:
        tables = Tables(SqliteStore(db), workers=2)
        table, _, _ = await tables.create(["human", "human"], SHORT, True, "Ann", seed=1)
        await tables.close()
        return table.id

    stored = asyncio.run(first_server())

    async def after_a_restart() -> tuple[str, str, str]:
        tables = Tables(SqliteStore(db), workers=2)
        held, _, _ = await tables.create(["human", "human"], SHORT, True, "Cy", seed=3)
        ids: Iterator[str] = iter([stored, held.id, "fresh-id"])
        monkeypatch.setattr(tables_module, "new_table_id", lambda: next(ids))
        new, _, _ = await tables.create(["human", "human"], SHORT, True, "Di", seed=4)
        old = await tables.get(stored)
        assert old is not None
        names = (old.seats[0].name, new.seats[0].name)
        await tables.close()
        return new.id, *names

    assert asyncio.run(after_a_restart()) == ("fresh-id", "Ann", "Di")
