"""The server under misuse, in-process: rules the engine cannot play, a
computer player or a hint that fails, a flood of new tables, a flood of
computer seats, hints out of turn, racing triggers, typed words with too
many spellings, and a table nobody watches.  Each test fails when the
property it names is broken."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from quiddler import cli
from quiddler.game.engine import Game
from quiddler.game.rules import Rules
from quiddler.solver import MAX_BONUS
from quiddler.web import tables as tables_module
from quiddler.web.app import create_app
from quiddler.web.limits import Limits, client_key
from quiddler.web.protocol import MAX_ROUNDS, MAX_SPELLING_COMBINATIONS, MAX_TURN_LIMIT, ProtocolError
from quiddler.web.store import SqliteStore
from quiddler.web.tables import Tables, plain_action

from .test_web_protocol import SHORT, connect, error_code, hello, my_turn, new_table, still_open, until

#: How long a test waits for something that should happen at once (a
#: failure, never a measure: a loaded machine only makes it take longer).
PATIENCE = 60.0
SHORT_RULES = Rules(round_sizes=(3,))


def app_client(db: Path, address: str = "testclient", **options: Any) -> TestClient:
    options.setdefault("allowed_hosts", ["testserver"])
    return TestClient(create_app(db, **options), client=(address, 50000))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "db.sqlite3") as client:
        yield client


async def eventually(condition: Callable[[], bool], what: str) -> None:
    """Wait (on the event loop) until ``condition()`` holds; fail after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def computer_first(players: int, count: int, start: int = 100) -> list[int]:
    """Seeds of games whose first move is a computer's (any seat but 0)."""
    return [seed for seed in range(start, start + 100) if Game(players, rules=SHORT_RULES, seed=seed).turn != 0][:count]


class Listener:
    """A connection that keeps what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.messages.append(json.loads(text))


# -- rules the engine cannot play ------------------------------------------------


@pytest.mark.parametrize("name", ["longest_word_bonus", "most_words_bonus"])
def test_a_bonus_past_the_solvers_bound_is_refused_naming_it(client: TestClient, name: str) -> None:
    too_big = client.post("/api/tables", json={"seats": ["human", "expert"], "rules": {name: 2_000_000}})
    assert too_big.status_code == 400
    message = too_big.json()["message"]
    assert name in message and "2000000" in message and f"{MAX_BONUS:,}" in message
    assert client.post("/api/tables", json={"seats": ["human", "expert"], "rules": {name: MAX_BONUS}}).status_code == 201


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"turn_limit": MAX_TURN_LIMIT + 1}, "turn_limit"),
        ({"round_sizes": [3] * (MAX_ROUNDS + 1)}, "round_sizes"),
    ],
)
def test_a_turn_limit_or_rounds_past_their_bounds_are_refused(client: TestClient, rules: dict[str, Any],
                                                               words: str) -> None:  # fmt: skip
    refused = client.post("/api/tables", json={"seats": ["human", "easy"], "rules": rules})
    assert refused.status_code == 400 and words in refused.json()["message"]
    at_bound = {key: (MAX_TURN_LIMIT if key == "turn_limit" else [3] * MAX_ROUNDS) for key in rules}
    assert client.post("/api/tables", json={"seats": ["human", "easy"], "rules": at_bound}).status_code == 201


# -- a computer player or a hint that fails ---------------------------------------


def test_a_computer_player_that_fails_does_not_stop_the_game_and_the_table_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    real = tables_module.computer_action

    def failing(strategy: str, seed: int, view: Any) -> Any:
        if strategy == "hard":
            raise ValueError("the solver refused")
        return real(strategy, seed, view)

    monkeypatch.setattr(tables_module, "computer_action", failing)
    db = tmp_path / "t.sqlite3"

    async def first_run() -> str:
        tables = Tables(SqliteStore(db), Limits(), workers=2)
        table, _, _ = await tables.create(["human", "hard"], Rules(round_sizes=(3, 3)), True, "Ann",
                                    seed=computer_first(2, 1)[0])  # fmt: skip
        watcher = Listener(0)
        await table.connect(watcher)
        await eventually(lambda: table.moves >= 2, "the failing computer seat moved")
        assert table.seats_json()[1]["fallback"] is True and table.seats_json()[0]["fallback"] is False
        assert watcher.messages[-1]["seats"][1]["fallback"] is True  # the players are told
        await tables.close()
        return table.id

    async def after_a_restart(table_id: str) -> None:
        tables = Tables(SqliteStore(db), Limits(), workers=2)
        await tables.resume()
        table = await tables.get(table_id)
        assert table is not None and not table.seats[1].fallback  # fresh: it has not failed in this run yet
        for _ in range(400):  # the person plays; the failing seat keeps answering with plain moves
            if table.over:
                break
            if table.game.turn == 0:
                await table.act(0, plain_action(table.view(0)))
            else:
                moves = table.moves
                await eventually(lambda moves=moves: table.moves > moves or table.over,  # type: ignore[misc]
                                 "the failing computer seat moved")  # fmt: skip
        assert table.over and table.seats[1].fallback
        await tables.close()

    table_id = asyncio.run(first_run())
    asyncio.run(after_a_restart(table_id))


def test_a_hint_that_fails_answers_an_error_and_keeps_the_connection(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    def failing(view: Any) -> Any:
        raise ValueError("bonus must be at most 1,000,000, not 2000000")

    monkeypatch.setattr(tables_module, "hint", failing)
    data = new_table(client, ["human", "random"], rules=SHORT)
    with connect(client, data["table"]) as ws:
        state = hello(ws, data["token"])
        if not state["view"]["my_turn"]:
            until(ws, my_turn)
        assert error_code(ws, {"type": "hint"}) == "server_error"
        still_open(ws)


# -- a flood of new tables ---------------------------------------------------------


def test_a_flood_of_tables_from_one_client_leaves_room_for_others_also_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    limits = Limits(max_tables=30, tables_per_client=5, table_burst=100)
    body = {"seats": ["human", "human"]}
    with app_client(db, "198.51.100.7", limits=limits) as flooder:
        codes = [flooder.post("/api/tables", json=body).status_code for _ in range(40)]
        assert codes.count(201) == 5 and set(codes[5:]) == {429}
        refused = flooder.post("/api/tables", json=body).json()
        assert refused["error"] == "too_many_tables" and "5" in refused["message"]
    with app_client(db, "203.0.113.9", limits=limits) as other:  # the server restarted
        assert other.post("/api/tables", json=body).status_code == 201


def test_new_tables_from_one_client_are_metered(tmp_path: Path) -> None:
    limits = Limits(table_burst=4, tables_per_hour=1)
    with app_client(tmp_path / "t.sqlite3", "198.51.100.7", limits=limits) as flooder:
        codes = [flooder.post("/api/tables", json={"seats": ["human", "easy"]}).status_code for _ in range(12)]
    assert codes == [201] * 4 + [429] * 8


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:198.51.100.7") == client_key("198.51.100.7") == "198.51.100.7"


def test_a_table_nobody_joined_expires_within_the_hour(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"

    async def scenario() -> None:
        tables = Tables(SqliteStore(db), Limits(), workers=2)
        lobby, _, _ = await tables.create(["human", "human"], Rules(), True, "Ann")
        full, _, _ = await tables.create(["human", "easy"], Rules(), True, "Bo")
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE tables SET created = ?, updated = ?", (time.time() - 3700, time.time() - 3700))
        await tables.purge()
        assert await tables.get(lobby.id) is None and await tables.get(full.id) is not None
        await tables.close()

    run(scenario)


# -- a flood of computer seats ------------------------------------------------------


def test_another_clients_computer_moves_while_a_flood_of_computer_seats_thinks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    release = threading.Event()
    real = tables_module.computer_action
    flood_seeds = set(computer_first(4, 8))

    def slow_for_the_flood(strategy: str, seed: int, view: Any) -> Any:
        if seed in flood_seeds:
            release.wait(PATIENCE)  # a decision that takes long (a master at a flood of tables)
        return real(strategy, seed, view)

    monkeypatch.setattr(tables_module, "computer_action", slow_for_the_flood)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=3 * PATIENCE), workers=2)
        try:
            for seed in sorted(flood_seeds):  # a computer moves first: every flood table is thinking
                await tables.create(["human", "easy", "easy", "easy"], SHORT_RULES, True, "F", seed=seed,
                                    client="198.51.100.7")  # fmt: skip
            seed = computer_first(2, 1, start=300)[0]
            other, _, _ = await tables.create(["human", "easy"], SHORT_RULES, True, "Ann", seed=seed, client="203.0.113.9")
            await eventually(lambda: other.moves >= 2, "the other client's computer moved")
            assert tables.pool.running("198.51.100.7") <= 1  # the flood held one thread of two
        finally:
            release.set()
            await tables.close()

    run(scenario)


def test_a_decision_that_timed_out_before_it_started_is_never_run(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    release = threading.Event()
    calls: list[int] = []
    real = tables_module.computer_action
    held, dropped = computer_first(2, 2)

    def counted(strategy: str, seed: int, view: Any) -> Any:
        calls.append(seed)
        if seed == held:
            release.wait(PATIENCE)
        return real(strategy, seed, view)

    monkeypatch.setattr(tables_module, "computer_action", counted)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=0.2), workers=2)
        try:
            await tables.create(["human", "easy"], SHORT_RULES, True, "F", seed=held, client="c")  # holds the client's thread
            queued, _, _ = await tables.create(["human", "easy"], SHORT_RULES, True, "F", seed=dropped, client="c")
            await eventually(lambda: queued.moves >= 2, "the queued table played plain moves")
            release.set()
            await eventually(lambda: not tables.pool.running("c") and not tables.pool.waiting("c"), "the pool idle")
            assert dropped not in calls  # its decisions timed out in the queue and were dropped
        finally:
            release.set()
            await tables.close()

    run(scenario)


# -- hints, racing triggers, typed words, nobody watching -----------------------------


def test_a_hint_asked_out_of_turn_at_a_two_human_table_is_refused(client: TestClient) -> None:
    """Never the hint of the seat to move (it would show that seat's cards)."""
    data = new_table(client, ["human", "human"], rules=SHORT)
    joined = client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]}).json()
    with connect(client, data["table"]) as first, connect(client, data["table"]) as second:
        sockets = [first, second]
        states = [hello(first, data["token"]), hello(second, joined["token"])]
        mover = states[0]["view"]["turn"]
        asking = sockets[1 - mover]
        asking.send_json({"type": "hint"})
        reply = until(asking, lambda m: m["type"] not in ("state", "lobby"))
        assert reply == {"type": "error", "code": "not_your_turn", "message": "a hint is for your own turn",
                         "params": {"turn": mover}, "request": "hint"}  # fmt: skip
        sockets[mover].send_json({"type": "hint"})
        assert until(sockets[mover], lambda m: m["type"] not in ("state", "lobby"))["type"] == "hint"


def test_a_computer_move_is_decided_once_when_two_triggers_race(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    calls: list[int] = []
    real = tables_module.computer_action

    def counted(strategy: str, seed: int, view: Any) -> Any:
        calls.append(view.seat)
        return real(strategy, seed, view)

    monkeypatch.setattr(tables_module, "computer_action", counted)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(), workers=2)
        table, _, _ = await tables.create(["human", "easy"], SHORT_RULES, True, "Ann", seed=computer_first(2, 1)[0])
        for _ in range(3):
            table.start_computers()  # a join, an action and a resume may all ask at once
        await eventually(lambda: table.game.turn == 0 and table._computer_task is None, "the computer's turn ended")
        assert table.moves == 2 and len(calls) == 2  # a draw and a discard, each decided once
        await tables.close()

    run(scenario)


def test_typed_words_that_need_too_many_spellings_are_refused(client: TestClient) -> None:
    words = Rules().words
    word = "therein"
    ways = len(words.spellings(word))
    count = 1
    while ways**count <= MAX_SPELLING_COMBINATIONS:
        count += 1
    data = new_table(client, ["human", "human"], rules=SHORT)
    client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]})
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
        ws.send_json({"type": "match", "words": [word] * count, "mode": "lay_down"})
        reply = until(ws, lambda m: m["type"] not in ("state", "lobby"))
        assert reply["type"] == "error" and reply["code"] == "no_match" and "too many" in reply["message"]
        still_open(ws)


def test_an_unfinished_table_plays_on_with_nobody_connected(tmp_path: Path) -> None:
    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(), workers=2)
        table, _, _ = await tables.create(["human", "easy", "easy"], Rules(round_sizes=(3, 4)), True, "Ann",
                                    seed=computer_first(3, 1)[0])  # fmt: skip
        await eventually(lambda: table.game.turn == 0 and table._computer_task is None, "the computers moved")
        person = Listener(0)
        await table.connect(person)
        await table.act(0, plain_action(table.view(0)))  # a draw
        await table.act(0, plain_action(table.view(0)))  # a discard
        moves = table.moves
        await table.disconnect(person)  # the last listener leaves while the computers are to move
        assert not table.listeners and tables.open_count() == 1  # still a table in play
        await eventually(lambda: table.moves >= moves + 2, "the computers played on")
        assert tables.open_count() == 1 and await tables.get(table.id) is table
        await tables.close()

    run(scenario)


def _slow_hints(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, list[Any]]:
    """Hints that wait for the returned event before they are worked out,
    and the views they were asked for."""
    release = threading.Event()
    asked: list[Any] = []
    real = tables_module.hint

    def slow(view: Any) -> Any:
        asked.append(view)
        release.wait(PATIENCE)
        return real(view)

    monkeypatch.setattr(tables_module, "hint", slow)
    return release, asked


def test_a_table_works_out_one_hint_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint asked again for the position whose hint is under way waits for
    that one (worked out once); one for another position is refused."""
    release, asked = _slow_hints(monkeypatch)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=3 * PATIENCE), workers=2)
        table, invite, _ = await tables.create(["human", "human"], SHORT_RULES, True, "Ann")
        await table.join(invite, "Bo")
        seat = table.game.turn
        first = asyncio.ensure_future(tables.hint(table, table.view(seat)))
        await asyncio.sleep(0)  # the first hint is asked for
        again = asyncio.ensure_future(tables.hint(table, table.view(seat)))
        with pytest.raises(ProtocolError) as refused:
            await tables.hint(table, table.view(1 - seat))
        assert refused.value.code == "busy"
        release.set()
        answer = await first
        assert answer.recommended is not None and await again is answer
        assert len(asked) == 1
        await tables.close()

    run(scenario)


def test_a_hint_that_took_too_long_is_collected_by_asking_again(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A hint that took longer than a decision may is refused but goes on,
    and asking again for the same position waits for it, not refused
    ``busy`` until it ends."""
    release, asked = _slow_hints(monkeypatch)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=0.3), workers=2)
        table, invite, _ = await tables.create(["human", "human"], SHORT_RULES, True, "Ann")
        await table.join(invite, "Bo")
        view = table.view(table.game.turn)
        with pytest.raises(TimeoutError):
            await tables.hint(table, view)
        again = asyncio.ensure_future(tables.hint(table, view))
        await asyncio.sleep(0)
        release.set()
        assert (await again).recommended is not None and len(asked) == 1
        await tables.close()

    run(scenario)


def test_a_hint_dropped_before_it_started_is_too_long_for_every_request(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A hint still waiting for a thread when its first request gives up is
    dropped (it never runs); a second request for it then gets the same
    TimeoutError, not a cancellation that would end its connection."""
    release, asked = _slow_hints(monkeypatch)

    async def scenario() -> None:
        tables = Tables(SqliteStore(tmp_path / "t.sqlite3"), Limits(decision_seconds=0.3), workers=2)
        busy, invite, _ = await tables.create(["human", "human"], SHORT_RULES, True, "Ann", client="ann")
        await busy.join(invite, "Bo")
        table, invite, _ = await tables.create(["human", "human"], SHORT_RULES, True, "Cy", client="ann")
        await table.join(invite, "Di")
        assert busy.pool_key == table.pool_key  # one client: its share of the threads is one
        holding = asyncio.ensure_future(tables.hint(busy, busy.view(busy.game.turn)))
        await asyncio.sleep(0)  # the client's one thread is taken
        view = table.view(table.game.turn)
        first = asyncio.ensure_future(tables.hint(table, view))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(tables.hint(table, view))
        results = await asyncio.gather(first, second, return_exceptions=True)
        assert [type(r) for r in results] == [TimeoutError, TimeoutError]
        assert len(asked) == 1  # only the holding table's hint ran
        release.set()
        with pytest.raises(TimeoutError):
            await holding
        await tables.close()

    run(scenario)


def test_a_trusted_proxy_that_is_not_an_address_is_one_error_line() -> None:
    result = CliRunner().invoke(cli.main, ["serve", "--port", "0", "--trusted-proxy", "proxy.example"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output.startswith("Error:") and "proxy.example" in result.output
