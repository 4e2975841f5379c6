"""The store's interface, the same tests on SQLite and on PostgreSQL: what
is written comes back after the store is closed and opened again, action
``n`` is stored only on top of action ``n - 1``, a seat is given once, a
table has one rematch, and old tables are purged; on PostgreSQL, a seat
marked connected counts for the others while its process lives, and a
database of the first layout is brought up to date."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from quiddler.web.store import SCHEMA_VERSION, RematchRow, SeatRow, StaleError, Store, StoreError, open_store

from .pgcluster import Cluster

Opener = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens the same (new, empty) database each time it is called."""
    target: str = str(tmp_path / "t.sqlite3") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    return lambda: open_store(target)


SEATS = [SeatRow("human", "Ann", "hash-ann"), SeatRow("easy", None, None), SeatRow("human", None, None)]


def _table(store: Store, table_id: str = "tbl") -> None:
    store.create_table(table_id, 2**63 - 1, {"round_sizes": [3, 4]}, True, "hash-invite", SEATS)


def test_what_is_written_comes_back_after_a_restart(opener: Opener) -> None:
    store = opener()
    _table(store)
    store.take_seat("tbl", 2, "Bob", "hash-bob")
    for n in range(3):
        store.append_action("tbl", n, {"type": "draw", "player": n % 3, "source": "pile", "n": n})
    store.close()
    store = opener()
    row = store.load("tbl")
    assert row is not None
    assert (row.id, row.seed, row.rules, row.hints, row.invite_hash, row.finished) == (
        "tbl", 2**63 - 1, {"round_sizes": [3, 4]}, True, "hash-invite", False)  # fmt: skip
    assert row.seats == (SEATS[0], SEATS[1], SeatRow("human", "Bob", "hash-bob"))
    assert [a["n"] for a in row.actions] == [0, 1, 2]
    assert [a["n"] for a in store.actions_since("tbl", 1)] == [1, 2]
    assert store.seats("tbl") == row.seats
    assert store.load("none") is None
    store.close()


def test_an_action_is_stored_only_on_top_of_the_one_before(opener: Opener) -> None:
    store = opener()
    _table(store)
    store.append_action("tbl", 0, {"n": 0})
    for wrong in (0, 2, 5):
        with pytest.raises(StaleError):
            store.append_action("tbl", wrong, {"n": wrong})
    store.append_action("tbl", 1, {"n": 1})
    assert [a["n"] for a in store.actions_since("tbl", 0)] == [0, 1]
    store.close()


def test_a_seat_is_given_once(opener: Opener) -> None:
    store = opener()
    _table(store)
    store.take_seat("tbl", 2, "Bob", "hash-bob")
    with pytest.raises(StaleError):
        store.take_seat("tbl", 2, "Eve", "hash-eve")
    assert store.seats("tbl")[2] == SeatRow("human", "Bob", "hash-bob")
    store.close()


def test_finished_and_old_tables(opener: Opener) -> None:
    store = opener()
    _table(store, "done")
    _table(store, "open")
    _table(store, "lobby")
    store.take_seat("open", 2, "Bob", "hash-bob")
    store.take_seat("done", 2, "Bob", "hash-bob")
    store.mark_finished("done")
    assert [row.id for row in store.unfinished()] == ["open", "lobby"] and store.count_unfinished() == 2
    now = time.time() + 1
    assert store.purge(finished_before=0, unfinished_before=0, lobby_before=now) == ["lobby"]
    assert store.purge(finished_before=now, unfinished_before=0, lobby_before=0) == ["done"]
    assert store.load("done") is None and store.load("lobby") is None and store.load("open") is not None
    store.close()


def test_two_writers_on_one_postgresql_database_never_both_store_a_move(pg_url: str) -> None:
    first, second = open_store(pg_url), open_store(pg_url)
    assert first.shared
    _table(first)
    first.append_action("tbl", 0, {"by": "first"})
    with pytest.raises(StaleError):
        second.append_action("tbl", 0, {"by": "second"})
    second.append_action("tbl", 1, {"by": "second"})
    assert [a["by"] for a in first.actions_since("tbl", 0)] == ["first", "second"]
    first.close()
    second.close()


def test_a_computer_move_is_leased_to_one_process_until_the_lease_runs_out(pg_url: str) -> None:
    first, second = open_store(pg_url), open_store(pg_url)
    _table(first)
    assert first.claim("tbl", 4, "first", 0.5)
    assert not second.claim("tbl", 4, "second", 0.5)
    assert first.claim("tbl", 4, "first", 0.5)  # renewed by its holder
    assert second.claim("tbl", 5, "second", 30)  # the next move is another lease
    assert not first.claim("tbl", 5, "first", 30)
    deadline = time.monotonic() + 60
    assert second.claim("tbl", 6, "second", 0.2)
    while not first.claim("tbl", 6, "first", 30):  # until the database's clock passes the lease
        assert time.monotonic() < deadline
        time.sleep(0.05)
    first.close()
    second.close()


def test_other_programs_postgresql_database_is_refused_and_the_password_never_shown(pg_url: str) -> None:
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("CREATE TABLE invoices (id integer)")
    with pytest.raises(StoreError, match="another program's database") as refused:
        open_store(pg_url)
    with psycopg.connect(pg_url) as db:
        assert [n for (n,) in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")] == ["invoices"]
    host_part = pg_url.removeprefix("postgresql://quiddler@")
    with pytest.raises(StoreError) as unreachable:
        open_store(f"postgresql://quiddler:s3cret@127.0.0.1:1/{host_part.partition('/')[2]}")
    assert "s3cret" not in str(unreachable.value) and "quiddler:***@" in str(unreachable.value)
    assert "s3cret" not in str(refused.value)


def test_a_finished_table_has_one_rematch_kept_while_its_table_is(opener: Opener) -> None:
    store = opener()
    _table(store, "old")
    assert store.rematch("old") is None
    store.create_table("new", 5, {}, True, "hash-new", SEATS, rematch_of=("old", 2))
    with pytest.raises(StaleError):  # another server's rematch, made at once: nothing of it is stored
        store.create_table("other", 6, {}, True, "hash-other", SEATS, rematch_of=("old", 0))
    assert store.load("other") is None
    assert store.rematch("old") == RematchRow("new", 2)
    store.close()
    store = opener()
    row = store.load("old")
    assert row is not None and row.rematch == RematchRow("new", 2)
    assert sorted(store.purge(finished_before=0, unfinished_before=0, lobby_before=time.time() + 1)) == ["new", "old"]
    _table(store, "old")
    assert store.rematch("old") is None
    store.close()


def test_a_seat_counts_as_connected_elsewhere_while_its_process_lives(pg_url: str) -> None:
    first, second = open_store(pg_url), open_store(pg_url)
    _table(first)
    stop = first.listen(lambda note: None)  # a server listens while it runs: its marks count while it does
    first.mark_connected("tbl", 2, True)
    deadline = time.monotonic() + 60
    while second.connected_elsewhere("tbl") != {2}:  # until the first's listening connection is in
        assert time.monotonic() < deadline, "the first process's seat never counted"
        time.sleep(0.05)
    assert first.connected_elsewhere("tbl") == frozenset()  # its own seats are its own business
    first.mark_connected("tbl", 2, False)
    assert second.connected_elsewhere("tbl") == frozenset()
    first.mark_connected("tbl", 0, True)
    assert second.connected_elsewhere("tbl") == {0}
    stop()
    first.close()  # as a killed process: nothing unmarked, its connections gone
    while second.connected_elsewhere("tbl"):
        assert time.monotonic() < deadline, "a dead process's seat still counts"
        time.sleep(0.05)
    second.close()


def test_a_postgresql_database_of_the_first_layout_is_brought_up_to_date(pg_url: str) -> None:
    import psycopg

    store = open_store(pg_url)
    _table(store)
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as db:  # as the first version left it
        db.execute("DROP TABLE rematches, presence, processes")
        db.execute("UPDATE quiddler_schema SET version = 1")
    store = open_store(pg_url)
    assert store.load("tbl") is not None and store.rematch("tbl") is None
    store.close()
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT version FROM quiddler_schema").fetchone() == (SCHEMA_VERSION,)


def test_after_postgresql_restarts_no_thread_tries_a_call_on_a_connection_that_died(postgres: Cluster) -> None:
    """Each thread keeps its own connection, which does not know the
    database went away until it is used: once one call found it gone,
    every thread's next call must go through a new connection, not fail."""
    store = open_store(postgres.new_database())
    threads = 4
    together = threading.Barrier(threads)
    pool = concurrent.futures.ThreadPoolExecutor(threads)  # the same threads before and after

    def on_every_thread(call: Callable[[], object]) -> list[object]:
        def each(_: int) -> object:
            together.wait(30)  # every thread of the pool takes one call
            return call()

        return list(pool.map(each, range(threads)))

    try:
        assert on_every_thread(store.count_unfinished) == [0] * threads
        postgres.stop_server()
        try:
            with pytest.raises(StoreError, match="cannot read"):
                store.count_unfinished()
        finally:
            postgres.start()
        assert on_every_thread(store.count_unfinished) == [0] * threads
    finally:
        pool.shutdown()
        store.close()
