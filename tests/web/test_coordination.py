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

import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

from quiddler.web.app import create_app
from quiddler.web.store import SeatRow, open_store

ORIGIN = "http://testserver"


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
