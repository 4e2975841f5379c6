"""What a table says of itself and how long the server keeps it: a seat
shows as connected while a connection of it listens, the winners of a
finished game are the seats with the top total, a table nobody joined
is kept its whole hour, a finished game leaves the tables in play once
nobody watches it, and one the store dropped is gone from memory too."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from quiddler.game import Game, Rules, make_player, play_game
from quiddler.web.limits import AddressCounter
from quiddler.web.protocol import encode_view
from quiddler.web.store import SqliteStore
from quiddler.web.tables import Tables, plain_action

SHORT = Rules(round_sizes=(3,))


class Seat:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[str] = []

    def send(self, text: str) -> None:
        self.messages.append(text)


def test_a_human_seat_is_connected_while_one_of_its_connections_listens(tmp_path: Path) -> None:
    async def scenario() -> list[list[bool]]:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), workers=2)
        table, invite, _ = await tables.create(["human", "human", "easy"], SHORT, True, "Ann", seed=5)
        await table.join(invite, "Bo")
        seen = [[s["connected"] for s in table.seats_json()]]
        listener = Seat(1)
        await table.connect(listener)
        seen.append([s["connected"] for s in table.seats_json()])
        await table.disconnect(listener)
        seen.append([s["connected"] for s in table.seats_json()])
        await tables.close()
        return seen

    assert asyncio.run(scenario()) == [[False, False, True], [False, True, True], [False, False, True]]


def test_the_winners_of_a_finished_game_are_the_seats_with_the_top_total() -> None:
    game = play_game([make_player("greedy", 1), make_player("easy", 2), make_player("greedy", 3)], seed=8, rules=SHORT)
    top = max(game.totals)
    assert min(game.totals) < top
    assert encode_view(game.view(0))["winners"] == [s for s, total in enumerate(game.totals) if total == top]
    assert encode_view(Game(3, seed=8, rules=SHORT).view(0))["winners"] == []


def test_a_table_nobody_joined_is_kept_for_its_whole_hour(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"

    async def scenario() -> bool:
        tables = Tables(SqliteStore(db), workers=2)
        lobby, _, _ = await tables.create(["human", "human"], SHORT, True, "Ann")
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE tables SET created = ?, updated = ?", (time.time() - 3540, time.time() - 3540))
        await tables.purge()
        kept = await tables.get(lobby.id) is not None
        await tables.close()
        return kept

    assert asyncio.run(scenario())


def test_an_address_that_closes_a_connection_frees_one_place_only() -> None:
    counter = AddressCounter(2)
    assert counter.acquire("10.0.0.1") and counter.acquire("10.0.0.1")
    assert not counter.acquire("10.0.0.1")
    counter.release("10.0.0.1")
    assert counter.acquire("10.0.0.1")
    assert not counter.acquire("10.0.0.1")
    assert counter.acquire("10.0.0.2")


def test_a_finished_game_dropped_from_the_store_is_not_served_from_memory(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"

    async def scenario() -> bool:
        tables = Tables(SqliteStore(db), workers=2)
        table, invite, _ = await tables.create(["human", "human"], Rules(round_sizes=(3,), turn_limit=2), True, "Ann")
        await table.join(invite, "Bo")
        while not table.over:
            seat = table.game.turn
            await table.act(seat, plain_action(table.view(seat)))
        tables.forget_if_done(table)  # nobody watches: among the finished games kept at hand
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE tables SET updated = ?", (time.time() - 31 * 86400,))
        await tables.purge()
        still_served = await tables.get(table.id) is not None
        await tables.close()
        return still_served

    assert not asyncio.run(scenario())


def test_a_finished_game_leaves_the_tables_in_play_once_nobody_watches(tmp_path: Path) -> None:
    async def scenario() -> list[bool]:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), workers=2)
        table, invite, _ = await tables.create(["human", "human"], Rules(round_sizes=(3,), turn_limit=2), True, "Ann")
        await table.join(invite, "Bo")
        watcher = Seat(0)
        await table.connect(watcher)
        while not table.over:
            seat = table.game.turn
            await table.act(seat, plain_action(table.view(seat)))
        tables.forget_if_done(table)
        in_play = [table.id in tables.tables]
        await table.disconnect(watcher)
        tables.forget_if_done(table)
        in_play.append(table.id in tables.tables)
        in_play.append(await tables.get(table.id) is table)  # still at hand: not rebuilt from the store
        await tables.close()
        return in_play

    assert asyncio.run(scenario()) == [True, False, True]
