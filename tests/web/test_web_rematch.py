"""A rematch and the word check, against the app in-process: the same
seats at a new table, each seat's new token only for that seat's holder;
word groups checked against the word list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from quiddler.web.app import create_app

from .webtools import scripted_action

ORIGIN = "http://testserver"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite3", allowed_hosts=["testserver"])) as made:
        yield made


def finished_table(client: TestClient) -> tuple[str, str, str]:
    """A two-person one-round table played to its end: (table, Ann's token, Bo's token)."""
    made = client.post("/api/tables", json={"seats": ["human", "human"], "name": "Ann",
                                            "rules": {"round_sizes": [3]}}).json()  # fmt: skip
    bo = client.post(f"/api/tables/{made['table']}/join", json={"invite": made["invite"], "name": "Bo"}).json()
    tokens = {0: made["token"], 1: bo["token"]}
    sockets = {seat: client.websocket_connect(f"/ws/{made['table']}", headers={"origin": ORIGIN}) for seat in tokens}
    try:
        views: dict[int, Any] = {}
        for seat, ws in sockets.items():
            ws.__enter__()
            ws.send_json({"type": "hello", "token": tokens[seat]})
            assert ws.receive_json()["type"] == "welcome"
        for seat, ws in sockets.items():
            views[seat] = latest_state(ws)
        turns = 0
        while views[0]["phase"] != "game_over":
            seat = views[0]["turn"]
            sockets[seat].send_json({"type": "action", "action": scripted_action(views[seat], turns)})
            turns += 1
            for other, ws in sockets.items():
                views[other] = state_after(ws, turns)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    return made["table"], tokens[0], tokens[1]


def latest_state(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            return message["view"]  # type: ignore[no-any-return]


def state_after(ws: Any, moves: int) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "state" and message["moves"] >= moves:
            return message["view"]  # type: ignore[no-any-return]


def test_a_rematch_seats_everyone_in_the_same_place_with_a_new_deal(client: TestClient) -> None:
    table, ann, bo = finished_table(client)
    asked = client.post(f"/api/tables/{table}/rematch", json={"token": bo})
    assert asked.status_code == 200, asked.text
    again = asked.json()
    assert again["seat"] == 1 and again["table"] != table
    first = client.post(f"/api/tables/{table}/rematch", json={"token": ann}).json()
    assert first == {"table": again["table"], "seat": 0, "token": first["token"]}
    summary = client.get(f"/api/tables/{again['table']}").json()
    assert [(s["kind"], s["name"], s["taken"]) for s in summary["seats"]] == [("human", "Ann", True), ("human", "Bo", True)]
    assert summary["rules"]["round_sizes"] == [3] and summary["started"] and not summary["over"]
    with client.websocket_connect(f"/ws/{again['table']}", headers={"origin": ORIGIN}) as ws:
        ws.send_json({"type": "hello", "token": first["token"]})
        assert ws.receive_json()["seat"] == 0
        assert latest_state(ws)["round"] == 0


def test_a_rematch_token_goes_only_to_its_own_seat_and_only_once(client: TestClient) -> None:
    table, ann, bo = finished_table(client)
    assert client.post(f"/api/tables/{table}/rematch", json={"token": "not-a-token"}).status_code == 403
    assert client.post(f"/api/tables/{table}/rematch", json={"token": ann}).json()["seat"] == 0
    again = client.post(f"/api/tables/{table}/rematch", json={"token": ann})
    assert again.status_code == 409 and again.json()["error"] == "rematch_taken"
    assert client.post(f"/api/tables/{table}/rematch", json={"token": bo}).json()["seat"] == 1


def test_the_others_at_the_table_are_told_of_a_rematch(client: TestClient) -> None:
    table, ann, bo = finished_table(client)
    with client.websocket_connect(f"/ws/{table}", headers={"origin": ORIGIN}) as ws:
        ws.send_json({"type": "hello", "token": bo})
        assert ws.receive_json()["type"] == "welcome"
        latest_state(ws)
        client.post(f"/api/tables/{table}/rematch", json={"token": ann})
        assert ws.receive_json() == {"type": "rematch", "by": 0}
    with client.websocket_connect(f"/ws/{table}", headers={"origin": ORIGIN}) as ws:  # a later visit hears it too
        ws.send_json({"type": "hello", "token": bo})
        assert [ws.receive_json()["type"] for _ in range(3)] == ["welcome", "state", "rematch"]


def test_no_rematch_before_the_game_is_over(client: TestClient) -> None:
    made = client.post("/api/tables", json={"seats": ["human", "easy"]}).json()
    refused = client.post(f"/api/tables/{made['table']}/rematch", json={"token": made["token"]})
    assert refused.status_code == 409 and refused.json()["error"] == "not_over"


def test_word_groups_are_checked_against_the_word_list(client: TestClient) -> None:
    made = client.post("/api/tables", json={"seats": ["human", "easy"]}).json()
    with client.websocket_connect(f"/ws/{made['table']}", headers={"origin": ORIGIN}) as ws:
        ws.send_json({"type": "check", "words": [["c", "a", "t"]]})
        assert ws.receive_json()["code"] == "hello_first"
        ws.send_json({"type": "hello", "watch": True})
        latest_state(ws)
        ws.send_json({"type": "check", "words": [["c", "a", "t"], ["qu", "i", "t"], ["x", "q"], ["a"]]})
        answer = ws.receive_json()
        while answer["type"] != "check":  # states of the computer's moves may come first
            answer = ws.receive_json()
    assert answer == {"type": "check", "words": [
        {"cards": ["c", "a", "t"], "word": "cat", "valid": True, "points": 13},
        {"cards": ["qu", "i", "t"], "word": "quit", "valid": True, "points": 14},
        {"cards": ["x", "q"], "word": "xq", "valid": False, "points": 27},
        {"cards": ["a"], "word": "a", "valid": False, "points": 2}]}  # fmt: skip
