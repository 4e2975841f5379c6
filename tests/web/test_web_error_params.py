"""Every error the server sends carries ``params`` (the values its message
names) and the refusals a ``reason`` naming the rule, so a page in any
language can say it: over the WebSocket, over HTTP and in the static
site's in-process table (:mod:`quiddler.web.local`), for real refused
messages.  ``code`` and ``message`` stay as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from quiddler.cards import Card, parse_hand
from quiddler.game.hints import position_view
from quiddler.web.app import create_app
from quiddler.web.local import LocalHost, LocalTable
from quiddler.web.protocol import MatchRequest, ProtocolError, match_reply
from quiddler.web.reviews import ReviewRefused, _seat

ORIGIN = "http://testserver"
SHORT = {"round_sizes": [3]}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite3", allowed_hosts=["testserver"])) as client:
        yield client


def new_table(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"seats": seats, "name": "Ann", "rules": SHORT, **extra})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def error(ws: Any, message: dict[str, Any] | str) -> dict[str, Any]:
    """The error the server answers ``message`` with (states in between skipped)."""
    if isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_json(message)
    for _ in range(200):
        reply: dict[str, Any] = ws.receive_json()
        if reply["type"] not in ("state", "lobby"):
            assert reply["type"] == "error", reply
            return reply
    raise AssertionError("no answer")


def refusal(reply: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    assert isinstance(reply["message"], str) and reply["message"]
    return reply.get("code", reply.get("error")), reply.get("reason"), reply["params"]


def test_the_websockets_errors_carry_their_params_and_the_rule_that_refused(client: TestClient) -> None:
    data = new_table(client, ["human", "human"])
    bo = client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]}).json()
    with client.websocket_connect(f"/ws/{data['table']}", headers={"origin": ORIGIN}) as ann, \
            client.websocket_connect(f"/ws/{data['table']}", headers={"origin": ORIGIN}) as ws:  # fmt: skip
        assert refusal(error(ws, {"type": "hint"})) == ("hello_first", None, {})
        too_long = "t" * 70
        assert refusal(error(ws, {"type": "hello", "token": too_long})) == (
            "bad_message", "too_long", {"field": "token", "length": 70, "limit": 64})  # fmt: skip
        assert refusal(error(ws, {"type": "hello", "token": "x"})) == ("bad_token", None, {})
        for socket, token in ((ann, data["token"]), (ws, bo["token"])):
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["type"] == "welcome"
        # Seat 1 plays first.
        ann_error = error(ann, {"type": "action", "action": {"type": "draw", "source": "pile"}})
        assert ann_error["message"] == "it is player 1's turn, not player 0's"
        assert refusal(ann_error) == ("not_your_turn", "wrong_player", {"turn": 1, "player": 0})
        assert refusal(error(ann, {"type": "hint"})) == ("not_your_turn", None, {"turn": 1})
        discard = {"type": "action", "action": {"type": "discard", "card": "q"}}
        reply = error(ws, discard)
        assert (reply["code"], reply["message"]) == ("illegal", "draw a card first")  # as they were
        assert refusal(reply) == ("illegal", "draw_first", {})
        assert refusal(error(ws, {"type": "action", "action": {"type": "draw", "source": "nowhere"}})) == (
            "bad_message", "bad_value", {"field": "source", "value": "nowhere"})  # fmt: skip
        assert refusal(error(ws, {"type": "action", "action": {"type": "discard", "card": "1"}})) == (
            "bad_message", "bad_card", {"field": "card", "value": "1"})  # fmt: skip
        assert refusal(error(ws, {"type": "action", "action": {"type": "draw", "source": "pile", "player": 0}})) == (
            "bad_message", "names_player", {})  # fmt: skip
        assert refusal(error(ws, {"type": "shout"})) == ("bad_message", "unknown_type", {"field": "type",
                                                                                           "value": "shout"})
        assert refusal(error(ws, "{")) == ("bad_message", "not_json", {})
        ws.send_json({"type": "action", "action": {"type": "draw", "source": "pile"}})
        hand = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")["view"]["hand"]
        assert refusal(error(ws, {"type": "action", "action": {"type": "draw", "source": "pile"}})) == (
            "illegal", "already_drew", {})  # fmt: skip
        absent = next(f for f in ("z", "q", "x", "j") if f not in hand)
        assert refusal(error(ws, {"type": "action", "action": {"type": "discard", "card": absent}})) == (
            "illegal", "not_in_hand", {"card": absent})  # fmt: skip
        lay_down = {"type": "action", "action": {"type": "lay_down", "words": [], "discard": hand[0]}}
        assert refusal(error(ws, lay_down)) == ("illegal", "nobody_went_out", {})
        match = {"type": "match", "words": ["zzzx"], "mode": "go_out"}
        assert refusal(error(ws, match)) == ("no_match", "not_a_word", {"word": "zzzx", "wordlist": "ENABLE"})
        match = {"type": "match", "words": ["cat"], "discard": absent, "mode": "go_out"}
        assert refusal(error(ws, match)) == ("no_match", "discard_not_in_hand", {"card": absent})


def test_a_table_without_hints_and_a_missing_table_name_no_values(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"], hints=False)
    with client.websocket_connect(f"/ws/{data['table']}", headers={"origin": ORIGIN}) as ws:
        ws.send_json({"type": "hello", "token": data["token"]})
        assert ws.receive_json()["type"] == "welcome"
        assert refusal(error(ws, {"type": "hint"})) == ("no_hints", None, {})
    with client.websocket_connect("/ws/nosuchtable1", headers={"origin": ORIGIN}) as ws:
        assert refusal(ws.receive_json()) == ("no_table", None, {})


def test_the_http_errors_carry_their_params(client: TestClient) -> None:
    def post(path: str, body: Any, **headers: str) -> tuple[int, tuple[str, str | None, dict[str, Any]]]:
        response = client.post(path, content=json.dumps(body), headers={"content-type": "application/json",
                                                                         **headers})  # fmt: skip
        return response.status_code, refusal(response.json())

    long_name = "N" * 30
    assert post("/api/tables", {"seats": ["human", "easy"], "name": long_name}) == (
        400, ("bad_message", "too_long", {"field": "name", "length": 30, "limit": 24}))  # fmt: skip
    assert post("/api/tables", {"seats": ["human"]}) == (
        400, ("bad_message", "seat_count", {"min": 2, "max": 8, "count": 1}))  # fmt: skip
    assert post("/api/tables", {"seats": ["human", "easy"], "colour": "red"}) == (
        400, ("bad_message", "unknown_field", {"field": "colour"}))  # fmt: skip
    assert post("/api/tables", {"seats": ["human", "easy"], "rules": {"turn_limit": 500}}) == (
        400, ("bad_message", "too_large", {"field": "rules.turn_limit", "limit": 200, "value": 500}))  # fmt: skip
    assert post("/api/tables", {"seats": ["human", "wizard"]})[1][:2] == ("bad_message", "bad_seat_kind")
    assert post("/api/tables", {"seats": ["human", "easy"]}, origin="http://elsewhere.example") == (
        403, ("bad_origin", None, {"origin": "http://elsewhere.example"}))  # fmt: skip
    big = client.post("/api/tables", content=b"{" + b" " * 20_000 + b"}", headers={"content-type": "application/json"})
    assert (big.status_code, refusal(big.json())) == (413, ("too_large", None, {"limit": 16 * 1024}))
    data = new_table(client, ["human", "human"])
    table = data["table"]
    assert post(f"/api/tables/{table}/join", {"invite": "wrong"}) == (403, ("bad_invite", None, {}))
    assert client.post(f"/api/tables/{table}/join", json={"invite": data["invite"]}).status_code == 200
    assert post(f"/api/tables/{table}/join", {"invite": data["invite"]}) == (409, ("table_full", None, {}))
    assert post("/api/tables/nosuchtable1/join", {"invite": "x"}) == (404, ("no_table", None, {}))
    record = client.get(f"/api/tables/{table}/record")
    assert (record.status_code, refusal(record.json())) == (403, ("not_over", None, {}))
    assert post(f"/api/tables/{table}/rematch", {"token": data["token"]}) == (409, ("not_over", None, {}))


def test_a_review_of_a_seat_that_is_not_there_names_the_highest_seat(client: TestClient) -> None:
    table = new_table(client, ["human", "easy"])["table"]
    early = client.get(f"/api/tables/{table}/review?seat=0")
    assert (early.status_code, refusal(early.json())) == (409, ("not_over", None, {}))
    with pytest.raises(ReviewRefused) as info:
        _seat("7", 3)
    assert (info.value.status, info.value.code, info.value.params) == (400, "bad_seat", {"max": 2})


@pytest.mark.parametrize(("words", "discard", "hand", "reason", "params"), [
    (["ab1"], None, "c,a,t,s", "not_letters", {"word": "ab1"}),
    (["xyzzyq"], None, "c,a,t,s", "not_a_word", {"word": "xyzzyq", "wordlist": "ENABLE"}),
    (["cat"], "z", "c,a,t,s", "discard_not_in_hand", {"card": "z"}),
    (["dog"], None, "c,a,t,s", "cannot_spell", {"word": "dog", "discard_in_word": None, "missing": [
        {"card": "d", "needed": 1, "have": 0}, {"card": "g", "needed": 1, "have": 0},
        {"card": "o", "needed": 1, "have": 0}]}),
    (["cat", "at"], None, "c,a,t,s,e", "cannot_spell_together", {"words": ["cat", "at"], "discard_in_word": None,
                                                                  "missing": [{"card": "a", "needed": 2, "have": 1},
                                                                              {"card": "t", "needed": 2, "have": 1}]}),
    (["cat"], "t", "c,a,t,s", "cannot_spell", {"word": "cat", "discard_in_word": "t", "missing": [
        {"card": "t", "needed": 1, "have": 0}]}),
    (["at", "at", "at"], None, "c,a,t,s", "too_many_words", {"words": 3, "fewest": 6, "held": 4,
                                                              "besides_discard": False}),
    (["at"], None, "c,a,t,s", "cards_over", {"cards": ["c", "s"], "discard": None}),
    (["at"], "s", "c,a,t,s", "cards_over", {"cards": ["c"], "discard": "s"}),
    (["cats"], None, "c,a,t,s", "go_out_no_discard", {"held": 4}),
])  # fmt: skip
def test_each_no_match_names_its_reason_and_values(words: list[str], discard: str | None, hand: str, reason: str,
                                                   params: dict[str, Any]) -> None:  # fmt: skip
    view = position_view(parse_hand(hand))
    with pytest.raises(ProtocolError) as info:
        match_reply(view, MatchRequest(tuple(words), None if discard is None else Card(discard), "go_out"))
    assert (info.value.code, info.value.reason, info.value.params) == ("no_match", reason, params)
    message = info.value.reply()
    assert message["type"] == "error" and message["message"] == info.value.message


def test_a_final_turns_words_that_keep_no_discard_are_refused_by_name() -> None:
    view = position_view(parse_hand("c,a,t,s"))
    with pytest.raises(ProtocolError) as info:
        match_reply(view, MatchRequest(("cats",), None, "lay_down"))
    assert (info.value.reason, info.value.params) == ("no_discard_left", {})


def test_the_in_process_tables_errors_carry_the_same_params() -> None:
    host = LocalHost()
    answer = json.loads(host.handle("create", json.dumps({"seats": ["human", "easy"], "name": "N" * 30})))
    assert answer["status"] == 400
    assert refusal(answer["body"]) == ("bad_message", "too_long", {"field": "name", "length": 30, "limit": 24})
    answer = json.loads(host.handle("summary"))
    assert refusal(answer["body"]) == ("no_table", None, {})
    answer = json.loads(host.handle("teleport"))
    assert refusal(answer["body"]) == ("bad_message", "unknown_operation", {"operation": "teleport"})
    table = LocalTable.create(json.dumps({"seats": ["human", "easy"], "rules": SHORT}), seed=5)
    assert [m["type"] for m in table.receive(json.dumps({"type": "hello", "token": table.token}))] == [
        "welcome", "state"]  # fmt: skip
    while table.computer_step() is not None:
        pass
    [reply] = table.receive(json.dumps({"type": "action", "action": {"type": "discard", "card": "q"}}))
    assert refusal(reply) == ("illegal", "draw_first", {}) and reply["message"] == "draw a card first"
    [reply] = table.receive(json.dumps({"type": "match", "words": ["zzzx"], "mode": "go_out"}))
    assert refusal(reply) == ("no_match", "not_a_word", {"word": "zzzx", "wordlist": "ENABLE"})
    [reply] = table.receive(json.dumps({"type": "hello", "token": table.token}))
    assert refusal(reply) == ("bad_message", "hello_twice", {})
