"""The tables themselves: computer players think off the event loop with a
time bound, so a stuck decision neither stalls its own table for ever nor
any other table; actions at one table are applied one at a time."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from quiddler.game.rules import Rules
from quiddler.game.state import Discard, Draw
from quiddler.web import tables as tables_module
from quiddler.web.limits import Limits
from quiddler.web.store import SqliteStore
from quiddler.web.tables import Tables

SHORT = Rules(round_sizes=(3,))


class Quiet:
    seat = None

    def __init__(self) -> None:
        self.messages: list[str] = []

    def send(self, text: str) -> None:
        self.messages.append(text)


def test_a_stuck_computer_neither_stops_its_table_nor_stalls_the_others(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    release = threading.Event()
    real = tables_module.computer_action
    stuck_calls: list[int] = []

    def stuck(strategy: str, seed: int, view: Any) -> Any:
        if strategy == "hard":
            stuck_calls.append(view.seat)
            release.wait(60)  # a decision that does not come back in time
        return real(strategy, seed, view)

    monkeypatch.setattr(tables_module, "computer_action", stuck)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=0.3), workers=2)
        busy, _, _ = await tables.create(["human", "hard"], SHORT, True, "Ann", seed=11)  # seat 1 (hard) moves first
        free, invite, _ = await tables.create(["human", "human"], SHORT, True, "Bo", seed=12)
        await free.join(invite, "Cy")
        await asyncio.sleep(0)  # the busy table's computer is now thinking (stuck)
        assert stuck_calls == [1] and busy.moves == 0
        # The other table plays on while the decision is out.
        await free.act(1, Draw(1, "pile"))
        await free.act(1, Discard(1, free.game.hand(1)[0]))
        assert free.moves == 2 and busy.moves == 0
        # Past the time bound the stuck computer plays a plain move: a blind draw, then a discard.
        for _ in range(400):
            if busy.moves >= 2:
                break
            await asyncio.sleep(0.05)
        assert busy.moves >= 2 and busy.game.log[0]["actions"][0] == {"type": "draw", "player": 1, "source": "pile"}
        release.set()
        await tables.close()

    try:
        asyncio.run(scenario())
    finally:
        release.set()


def test_actions_at_one_table_are_applied_one_at_a_time(tmp_path: Path) -> None:
    """Two connections of one seat send the same draw at once: one is applied, the other refused."""

    async def scenario() -> list[Any]:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(), workers=2)
        table, invite, _ = await tables.create(["human", "human"], SHORT, True, "Ann", seed=13)
        await table.join(invite, "Bo")
        results = await asyncio.gather(*(table.act(1, Draw(1, "pile")) for _ in range(5)), return_exceptions=True)
        assert table.moves == 1 and len(table.game.hand(1)) == 4
        await tables.close()
        return results

    results = asyncio.run(scenario())
    assert sum(r is None for r in results) == 1
    assert all(str(r) == "already drew this turn: discard, go out or lay down" for r in results if r is not None)


def test_every_action_is_stored_before_anyone_hears_of_it(tmp_path: Path) -> None:
    """When a listener is told of an action, the store already holds it."""
    store = SqliteStore(tmp_path / "t.sqlite3")

    class Checking(Quiet):
        def __init__(self, table_id: str) -> None:
            super().__init__()
            self.table_id = table_id
            self.stored_when_told: list[tuple[int, int]] = []

        def send(self, text: str) -> None:
            import json

            message = json.loads(text)
            if message["type"] == "state":
                row = store.load(self.table_id)
                assert row is not None
                self.stored_when_told.append((message["moves"], len(row.actions)))

    async def scenario() -> list[tuple[int, int]]:
        tables = Tables(store, Limits(), workers=2)
        table, _, _ = await tables.create(["human", "random"], SHORT, True, "Ann", seed=14)
        listener = Checking(table.id)
        await table.connect(listener)
        for _ in range(400):
            if table.game.turn == 0 and table.full:
                break
            await asyncio.sleep(0.01)
        await table.act(0, Draw(0, "pile"))
        await tables.close()
        return listener.stored_when_told

    told = asyncio.run(scenario())
    assert len(told) >= 3 and all(moves == stored for moves, stored in told)
