"""Several servers on one PostgreSQL database, in one test process: each
:class:`~quiddler.web.tables.Tables` here has its own store (its own
connections, notifications and lease holder), as a server process has.

A slow commit holds up no other request; every server shows the same
seats connected and the same rematch, whichever server the people are
connected to; a computer's move leased by a server that dies is played by
another within a few seconds, also by one that learns of the table only
after the death.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

from quiddler.game.decisions import computer_action
from quiddler.game.engine import Game
from quiddler.game.rules import Rules
from quiddler.game.state import Action, PlayerView
from quiddler.web.app import create_app
from quiddler.web.limits import Limits
from quiddler.web.rematch import Rematches
from quiddler.web.store import SeatRow, open_store
from quiddler.web.tables import UNSERVED_SECONDS, Table, Tables

from .test_web_hardening import Listener, eventually


@pytest.mark.parametrize("call", ["create_table", "load"])
def test_a_slow_store_call_holds_up_no_other_request(call: str, pg_url: str) -> None:
    """A new table's commit (``create_table``), or reading a table another
    server made (``load``), waits until the test has had an answer to
    another request: the server must answer it meanwhile."""
    store = open_store(pg_url)
    entered, release, released = threading.Event(), threading.Event(), []
    real = getattr(store, call)

    def waits(*args: Any) -> Any:
        entered.set()
        released.append(release.wait(30))  # False: nothing else was answered meanwhile
        return real(*args)

    setattr(store, call, waits)
    with TestClient(create_app(store, allowed_hosts=["testserver"])) as client:
        if call == "load":  # made by another server once this one has started
            other = open_store(pg_url)
            other.create_table("elsewhere", 7, {}, True, "hash", [SeatRow("human", "Ann", "hash-ann"),
                                                                   SeatRow("easy", None, None)])  # fmt: skip
            other.close()
        asked: list[int] = []

        def ask() -> None:
            if call == "create_table":
                asked.append(client.post("/api/tables", json={"seats": ["human", "easy"]}).status_code)
            else:
                asked.append(client.get("/api/tables/elsewhere").status_code)

        slow = threading.Thread(target=ask)
        slow.start()
        try:
            assert entered.wait(60)
            assert client.get("/api/players").status_code == 200  # answered while the store call waits
        finally:
            release.set()
            slow.join(60)
        assert released == [True], "the server answered nothing while its store call waited"
        assert asked == [201 if call == "create_table" else 200]
    store.close()


# -- a computer's move after the death of the server that leased it -------------------------------------


SHORT = Rules(round_sizes=(3, 4))


async def _never_decides(table: Table, strategy: str, view: PlayerView) -> Action:
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


def _computer_first() -> int:
    return next(seed for seed in range(100, 200) if Game(2, rules=SHORT, seed=seed).turn == 1)


async def _dies(tables: Tables) -> None:
    """The server dies as a killed process does: its lease is left to run
    out, its connections to the database drop."""
    await tables.close()
    tables.store.close()


@pytest.mark.parametrize("survivor", ["connected before the death", "first asked after the death",
                                      "holding the table, nobody connected"])  # fmt: skip
def test_a_computer_move_leased_by_a_server_that_dies_is_played_by_another(survivor: str, pg_url: str) -> None:
    async def scenario() -> None:
        dying = Tables(open_store(pg_url), Limits(), workers=2)
        other = Tables(open_store(pg_url), Limits(), workers=2)
        await dying.resume()
        await other.resume()
        dying.decide = _never_decides  # type: ignore[method-assign]
        table, _, token = await dying.create(["human", "easy"], SHORT, True, "Ann", seed=_computer_first())
        assert table.playing  # the computer moves first: the dying server leased its move and thinks
        ann = Listener(0)
        if survivor != "first asked after the death":
            held = await other.get(table.id)
            assert held is not None
            if survivor == "connected before the death":
                await held.connect(ann)
        await _dies(dying)
        there = await other.get(table.id)
        assert there is not None
        if survivor != "connected before the death":
            await there.connect(ann)
        await eventually(lambda: there.moves >= 2, "the computer's move was taken over")
        assert there.seat_of(token) == 0 and there.view(0).my_turn
        await other.close()
        other.store.close()

    asyncio.run(scenario())


# -- every server shows the same seats connected and the same rematch ------------------------------------


def _connected(table: Table) -> list[bool]:
    return [seat["connected"] for seat in table.seats_json()]


def test_every_server_shows_the_seats_connected_to_any_of_them(pg_url: str) -> None:
    async def scenario() -> None:
        first = Tables(open_store(pg_url), Limits(), workers=2)
        second = Tables(open_store(pg_url), Limits(), workers=2)
        for tables in (first, second):
            await tables.resume()
        made, invite, _ = await first.create(["human", "human", "human"], SHORT, True, "Ann")
        await made.join(invite, "Bo")
        await made.join(invite, "Cy")
        here, there = made, await second.get(made.id)
        assert there is not None
        ann, bo, watching = Listener(0), Listener(1), Listener(None)
        await here.connect(ann)
        await there.connect(bo)
        await there.connect(watching)
        both = [True, True, False]
        await eventually(lambda: _connected(here) == _connected(there) == both, "both servers show Ann and Bo")
        await eventually(lambda: watching.messages[-1]["seats"][0]["connected"], "Bo's spectator is told of Ann")
        await there.disconnect(bo)
        await eventually(lambda: _connected(here) == _connected(there) == [True, False, False], "Bo left")
        await there.connect(bo)
        await eventually(lambda: _connected(here) == both, "Bo is back")
        await _dies(first)  # Ann's server: she counts as connected no longer, and is shown so with nothing else changing
        await eventually(lambda: _connected(there) == [False, True, False], "the dead server's seats are shown gone")
        assert not second.store.connected_elsewhere(made.id)
        await eventually(lambda: not watching.messages[-1]["seats"][0]["connected"], "the spectator is told Ann left")
        cy = Listener(2)
        await there.connect(cy)
        assert _connected(there) == [False, True, True]
        await second.close()
        second.store.close()

    asyncio.run(scenario())


def test_a_table_changed_elsewhere_between_fetching_it_and_connecting_to_it_stays_in_step(pg_url: str) -> None:
    """A server fetches a table for a new connection, then hears that
    another server changed it before the person's hello: the connection
    must get that change and every later one."""

    async def scenario() -> None:
        first = Tables(open_store(pg_url), Limits(), workers=2)
        second = Tables(open_store(pg_url), Limits(), workers=2)
        for tables in (first, second):
            await tables.resume()
        made, invite, ann_token = await first.create(["human", "human"], SHORT, True, "Ann")
        heard: list[str] = []
        hear = second.coordinator.heard
        second.coordinator.heard = lambda note: (heard.append(note), hear(note))[1]  # type: ignore[method-assign]
        there = await second.get(made.id)  # a connection arrives; its hello is still to come
        assert there is not None
        _, bo_token = await made.join(invite, "Bo")
        await eventually(lambda: any(note.startswith("seat ") for note in heard), "the second server heard of Bo")
        bo = Listener(1)
        await there.connect(bo)
        assert there.seat_of(bo_token) == 1
        assert bo.messages[-1]["seats"][1]["taken"]
        ann = Listener(0)
        await made.connect(ann)
        turn = made.game.turn
        await made.act(turn, computer_action("easy", made.game.seed, made.view(turn)))
        await eventually(lambda: there.moves == 1, "the second server took in the move")
        assert await second.get(made.id) is there
        assert made.seat_of(ann_token) == 0
        for tables in (first, second):
            await tables.close()
            tables.store.close()

    asyncio.run(scenario())


async def _finished_table(tables: Tables) -> tuple[Table, list[str]]:
    """A two-person one-round table played to its end: (table, tokens)."""
    table, invite, ann = await tables.create(["human", "human"], Rules(round_sizes=(3,)), True, "Ann")
    _, bo = await table.join(invite, "Bo")
    while not table.over:
        seat = table.game.turn
        await table.act(seat, computer_action("easy", table.game.seed, table.view(seat)))
    return table, [ann, bo]


def test_every_server_offers_the_same_rematch(pg_url: str) -> None:
    async def scenario() -> None:
        first = Tables(open_store(pg_url), Limits(), workers=2)
        second = Tables(open_store(pg_url), Limits(), workers=2)
        for tables in (first, second):
            await tables.resume()
        old, (ann, bo) = await _finished_table(first)
        there = await second.get(old.id)
        assert there is not None and there.over
        bo_there = Listener(1)
        await there.connect(bo_there)
        rematches = Rematches(), Rematches()
        new_id, seat, _ = await rematches[0].claim(first, old, ann)
        assert seat == 0
        again = await first.get(new_id)
        assert again is not None and not again.full  # Bo has not taken his seat yet
        await again.connect(Listener(0))  # Ann waits at the new table
        await eventually(lambda: {"type": "rematch", "by": 0} in bo_there.messages, "Bo's server tells him")
        assert rematches[1].offered_by(there) == 0
        same_id, seat, _ = await rematches[1].claim(second, there, bo)
        assert (same_id, seat) == (new_id, 1)
        await eventually(lambda: again.full, "Bo's seat is taken on Ann's server too")
        for tables in (first, second):
            await tables.close()
            tables.store.close()

    asyncio.run(scenario())


def test_two_servers_asked_for_a_rematch_at_once_make_one(pg_url: str) -> None:
    async def scenario() -> None:
        first = Tables(open_store(pg_url), Limits(), workers=2)
        second = Tables(open_store(pg_url), Limits(), workers=2)
        old, (ann, bo) = await _finished_table(first)
        there = await second.get(old.id)
        assert there is not None
        asked = await asyncio.gather(Rematches().claim(first, old, ann), Rematches().claim(second, there, bo))
        assert asked[0][0] == asked[1][0] and [seat for _, seat, _ in asked] == [0, 1]
        for tables in (first, second):
            await tables.close()
            tables.store.close()

    asyncio.run(scenario())


def test_a_table_other_servers_play_leaves_memory_once_nobody_here_asked_for_it_lately(pg_url: str) -> None:
    async def scenario() -> None:
        first = Tables(open_store(pg_url), Limits(), workers=2)
        second = Tables(open_store(pg_url), Limits(), workers=2)
        for tables in (first, second):
            await tables.resume()
        made, invite, _ = await first.create(["human", "human"], SHORT, True, "Ann")
        there = await second.get(made.id)
        assert there is not None
        await made.join(invite, "Bo")
        await eventually(lambda: bool(there.missed), "the second server noted the seat taken")
        await second.purge()
        assert second.tables.get(made.id) is there  # asked for just now: a hello may be on its way
        there.fetched -= UNSERVED_SECONDS
        await second.purge()
        assert made.id not in second.tables
        again = await second.get(made.id)  # rebuilt from the store, with the seat taken
        assert again is not None and again is not there and again.seats[1].taken
        for tables in (first, second):
            await tables.close()
            tables.store.close()

    asyncio.run(scenario())
