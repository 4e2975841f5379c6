"""The REST and WebSocket protocol, and each security property, against
the app in-process (Starlette's TestClient): every test here fails when
the property it names is broken."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from quiddler.web import tables as tables_module
from quiddler.web.app import create_app
from quiddler.web.limits import Limits

from .webtools import scripted_action

ORIGIN = "http://testserver"
SHORT = {"round_sizes": [3]}

Client = Callable[..., TestClient]


@pytest.fixture
def client_for(tmp_path: Path) -> Iterator[Client]:
    """Makes an in-process client of a fresh app (options passed on to create_app)."""
    opened: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        options.setdefault("allowed_hosts", ["testserver"])
        client = TestClient(create_app(tmp_path / f"db{len(opened)}.sqlite3", **options))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def client(client_for: Client) -> TestClient:
    return client_for()


def new_table(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"seats": seats, "name": "Ann", **extra})
    assert response.status_code == 201, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def connect(client: TestClient, table: str, origin: str | None = ORIGIN) -> Any:
    headers = {} if origin is None else {"origin": origin}
    return client.websocket_connect(f"/ws/{table}", headers=headers)


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token} if token is not None else {"type": "hello", "watch": True})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    first = ws.receive_json()
    assert first["type"] in ("lobby", "state")
    return first  # type: ignore[no-any-return]


def until(ws: Any, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(2000):
        message = ws.receive_json()
        if accept(message):
            return message  # type: ignore[no-any-return]
    raise AssertionError("no such message")


def my_turn(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and (message["view"]["my_turn"] or message["view"]["phase"] == "game_over")


def still_open(ws: Any, strict: bool = False) -> None:
    """The connection answers: a ping gets its pong (``strict``: next, nothing else was sent meanwhile)."""
    ws.send_json({"type": "ping"})
    reply = ws.receive_json() if strict else until(ws, lambda m: m["type"] not in ("state", "lobby"))
    assert reply == {"type": "pong"}


def error_reply(ws: Any, message: Any) -> dict[str, Any]:
    """Send ``message`` (text as it is, anything else as JSON): the error it gets."""
    if isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_json(message)
    reply = until(ws, lambda m: m["type"] not in ("state", "lobby"))  # computer moves may come in between
    assert reply["type"] == "error", reply
    assert reply["message"]
    return reply


def error_code(ws: Any, message: Any) -> str:
    return error_reply(ws, message)["code"]  # type: ignore[no-any-return]


def play_to_the_end(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    turns = 0
    while state["view"]["phase"] != "game_over":
        if not state["view"]["my_turn"]:
            state = until(ws, my_turn)
            continue
        ws.send_json({"type": "action", "action": scripted_action(state["view"], turns)})
        turns += 1
        state = until(ws, lambda m: m["type"] == "state")
    return state


# -- REST ----------------------------------------------------------------------


def test_creating_a_table(client: TestClient) -> None:
    data = new_table(client, ["human", "expert", "human"], rules={"round_sizes": [3, 4], "floor_at_zero": False},
                     hints=False)  # fmt: skip
    assert set(data) == {"table", "invite", "seat", "token"} and data["seat"] == 0
    summary = client.get(f"/api/tables/{data['table']}").json()
    assert summary["started"] is False and summary["hints"] is False
    assert summary["rules"]["round_sizes"] == [3, 4] and summary["rules"]["floor_at_zero"] is False
    assert [s["kind"] for s in summary["seats"]] == ["human", "expert", "human"]
    assert [s["taken"] for s in summary["seats"]] == [True, True, False]
    assert data["token"] not in json.dumps(summary) and data["invite"] not in json.dumps(summary)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": ["expert", "human"]}, "seats[0]"),
        ({"seats": ["human"]}, "2 to 8 seats"),
        ({"seats": ["human"] * 9}, "at most 8"),
        ({"seats": ["human", "wizard"]}, "wizard"),
        ({"seats": ["human", "easy"], "colour": "red"}, "colour"),
        ({"seats": ["human", "easy"], "rules": {"rounds": 3}}, "rounds"),
        ({"seats": ["human", "easy"], "rules": {"wordlist": "/etc/passwd"}}, "wordlist"),
        ({"seats": ["human", "easy"], "rules": {"round_sizes": [1]}}, "at least 2"),
        ({"seats": ["human", "easy"], "rules": {"turn_limit": "many"}}, "turn_limit"),
        ({"seats": ["human", "easy"], "hints": "yes"}, "hints"),
        ({"seats": ["human", "easy"], "name": "x" * 100}, "too long"),
        ({"seats": ["human", "easy"], "name": "a\x00b"}, "printable"),
    ],
)
def test_a_bad_new_table_is_refused_with_the_reason(client: TestClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert response.json()["error"] == "bad_message" and words in response.json()["message"]


def test_rest_bodies_must_be_json_of_bounded_size(client: TestClient) -> None:
    form = client.post("/api/tables", content=b"seats=human", headers={"content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    huge = client.post("/api/tables", content=b'{"seats": ["human", "easy"], "name": "' + b"a" * 20000 + b'"}',
                       headers={"content-type": "application/json"})  # fmt: skip
    assert huge.status_code == 413
    assert client.post("/api/tables", content=b"[1,", headers={"content-type": "application/json"}).status_code == 400
    other_site = client.post("/api/tables", json={"seats": ["human", "easy"]}, headers={"origin": "http://evil.example"})
    assert other_site.status_code == 403


def test_join_contract(client: TestClient) -> None:
    data = new_table(client, ["human", "human", "easy", "human"])
    table, invite = data["table"], data["invite"]
    assert client.post("/api/tables/nosuchtable/join", json={"invite": invite}).status_code == 404
    wrong = client.post(f"/api/tables/{table}/join", json={"invite": invite[:-1] + ("A" if invite[-1] != "A" else "B")})
    assert wrong.status_code == 403
    assert client.post(f"/api/tables/{table}/join", json={"invite": data["token"]}).status_code == 403
    first = client.post(f"/api/tables/{table}/join", json={"invite": invite, "name": "Bo"})
    assert first.status_code == 200 and first.json()["seat"] == 1
    second = client.post(f"/api/tables/{table}/join", json={"invite": invite})
    assert second.status_code == 200 and second.json()["seat"] == 3
    assert len({data["token"], first.json()["token"], second.json()["token"], invite}) == 4
    # Full: the invite gives no seat any more; a wrong one is still just wrong.
    assert client.post(f"/api/tables/{table}/join", json={"invite": invite}).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"invite": "nope"}).status_code == 403
    names = [s["name"] for s in client.get(f"/api/tables/{table}").json()["seats"]]
    assert names == ["Ann", "Bo", "easy", "Player 4"]


def test_the_record_is_shown_only_once_the_game_is_over(client: TestClient) -> None:
    data = new_table(client, ["human", "random"], rules=SHORT)
    table = data["table"]
    assert client.get(f"/api/tables/{table}/record").status_code == 403
    assert client.get("/api/tables/nosuchtable/record").status_code == 404
    with connect(client, table) as ws:
        final = play_to_the_end(ws, hello(ws, data["token"]))
    assert final["view"]["winners"]
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    from quiddler.game.record import replay

    game = replay(record.json())
    assert game.over and list(game.totals) == final["view"]["totals"]
    assert record.json()["players"] == ["Ann", "random"]


def test_players_and_rules(client: TestClient) -> None:
    players = client.get("/api/players").json()
    assert {"easy", "medium", "hard", "expert"} <= set(players["players"]) and players["levels"][0] == "easy"
    rules = client.get("/api/rules").json()
    assert rules["defaults"]["round_sizes"] == [3, 4, 5, 6, 7, 8, 9, 10]
    names = {v["name"] for v in rules["variants"]}
    assert {"round_sizes", "no_going_out_first_turn", "floor_at_zero", "turn_limit"} <= names and "wordlist" not in names
    assert all(v["help"] for v in rules["variants"])


# -- secrets ---------------------------------------------------------------------


def test_tokens_and_invites_come_from_secrets(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def fake(nbytes: int) -> str:
        made.append(f"secret{len(made)}x{nbytes}")
        return made[-1]

    monkeypatch.setattr(tables_module.secrets, "token_urlsafe", fake)
    data = new_table(client, ["human", "easy"])
    assert data["token"] in made and data["invite"] in made and data["table"] in made
    assert data["token"].endswith("x32") and data["invite"].endswith("x12")


def test_tokens_and_invites_are_stored_hashed(client_for: Client, tmp_path: Path) -> None:
    client = client_for()
    data = new_table(client, ["human", "human"])
    joined = client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]}).json()
    dump = "\n".join(sqlite3.connect(tmp_path / "db0.sqlite3").iterdump())
    for secret in (data["token"], joined["token"], data["invite"]):
        assert secret not in dump
        assert hashlib.sha256(secret.encode()).hexdigest() in dump


def test_secrets_are_compared_in_constant_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    real = tables_module.hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tables_module.hmac, "compare_digest", spy)
    data = new_table(client, ["human", "human"])
    client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]})
    assert calls, "the invite was not compared with compare_digest"
    calls.clear()
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
    assert any(b == hashlib.sha256(data["token"].encode()).hexdigest() for _, b in calls)


def test_a_token_in_the_url_gives_no_seat(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"])
    with client.websocket_connect(f"/ws/{data['table']}?token={data['token']}", headers={"origin": ORIGIN}) as ws:
        state = hello(ws, None)
    assert state["view"]["seat"] is None and state["view"]["hand"] == []


def test_a_wrong_token_gets_an_error_and_no_view(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as ws:
        assert error_code(ws, {"type": "action", "action": {"type": "draw", "source": "pile"}}) == "hello_first"
        assert error_code(ws, {"type": "hello", "token": data["invite"]}) == "bad_token"
        assert error_code(ws, {"type": "hello", "token": data["token"][:-2]}) == "bad_token"
        still_open(ws, strict=True)  # and no view came in between
        assert error_code(ws, {"type": "hint"}) == "hello_first"
        state = hello(ws, data["token"])
        assert state["view"]["seat"] == 0


def test_an_invite_is_dead_once_the_table_is_full(client: TestClient) -> None:
    data = new_table(client, ["human", "human"])
    url = f"/api/tables/{data['table']}/join"
    assert client.post(url, json={"invite": data["invite"]}).status_code == 200
    for _ in range(3):
        assert client.post(url, json={"invite": data["invite"]}).status_code == 409


# -- the WebSocket handshake -----------------------------------------------------------


@pytest.mark.parametrize("origin", [None, "http://evil.example", "http://testserver:8080", "https://testserver",
                                    "null"])  # fmt: skip
def test_the_handshake_needs_the_servers_own_origin(client: TestClient, origin: str | None) -> None:
    data = new_table(client, ["human", "easy"])
    with pytest.raises(WebSocketDisconnect) as refused, connect(client, data["table"], origin=origin) as ws:
        ws.receive_json()
    assert refused.value.code == 1008


def test_an_allowed_origin_may_connect(client_for: Client) -> None:
    client = client_for(allow_origins=["https://quiddler.example"])
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"], origin="https://quiddler.example") as ws:
        assert hello(ws, data["token"])["view"]["seat"] == 0
    with pytest.raises(WebSocketDisconnect), connect(client, data["table"], origin="https://other.example") as ws:
        ws.receive_json()


def test_an_unknown_host_is_refused(client: TestClient) -> None:
    """A page that rebinds its own name to the server's address is not answered."""
    assert client.get("/api/players", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/players").status_code == 200
    data = new_table(client, ["human", "easy"])
    rebound = {"origin": "http://evil.example", "host": "evil.example"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{data['table']}", headers=rebound) as ws:
        ws.receive_json()


def test_a_missing_table(client: TestClient) -> None:
    with connect(client, "nosuchtable") as ws:
        assert ws.receive_json()["code"] == "no_table"


# -- strict messages -------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "[1, 2]",
        '{"type": "hello", "token": "a", "token": "b"}',
        {"type": "shout"},
        {"type": "ping", "extra": 1},
        {"type": "action"},
        {"type": "action", "action": {"type": "draw"}},
        {"type": "action", "action": {"type": "draw", "source": "top"}},
        {"type": "action", "action": {"type": "discard", "card": "zz"}},
        {"type": "action", "action": {"type": "discard", "card": 7}},
        {"type": "action", "action": {"type": "discard", "card": "q" * 5000}},
        {"type": "action", "action": {"type": "go_out", "words": [["q"] * 50], "discard": "e"}},
        {"type": "action", "action": {"type": "go_out", "words": "quit", "discard": "e"}},
        {"type": "action", "action": {"type": "fly"}},
        {"type": "action", "action": {"type": "discard", "card": "q", "from": "hand"}},
        {"type": "match", "words": ["x" * 100], "mode": "go_out"},
        {"type": "hello", "watch": "yes"},
        "NaN",
        "[" * 5000,
    ],
)
def test_a_bad_message_gets_bad_message_and_the_connection_stays_open(client: TestClient, message: Any) -> None:
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
        assert error_code(ws, message) == "bad_message"
        still_open(ws)


def test_an_action_naming_a_player_is_refused(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"], rules=SHORT)
    with connect(client, data["table"]) as ws:
        state = until(ws, my_turn) if not hello(ws, data["token"])["view"]["my_turn"] else None
        for player in (0, 1):
            reply = error_code(ws, {"type": "action", "action": {"type": "draw", "source": "pile", "player": player}})
            assert reply == "bad_message"
        still_open(ws)
        del state


def test_a_message_over_64_kib_closes_the_connection_with_1009(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
        with pytest.raises(WebSocketDisconnect) as closed:
            until(ws, lambda m: m["type"] not in ("state", "lobby"))  # states may come first
        assert closed.value.code == 1009


def test_a_message_just_under_the_limit_is_only_a_bad_message(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
        text = json.dumps({"type": "ping", "pad": "x" * (64 * 1024 - 40)})
        assert len(text) <= 64 * 1024
        assert error_code(ws, text) == "bad_message"
        still_open(ws)


def test_an_error_names_the_request_it_answers(client_for: Client) -> None:
    """A page with a hint and a match on their way tells which one a refusal
    answers (``request``); one the server could not read names none."""
    client = client_for(limits=Limits(messages_per_second=0.0001, message_burst=6))
    data = new_table(client, ["human", "easy"], hints=False)
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])  # the first message of the burst

        def error(message: Any) -> dict[str, Any]:
            return error_reply(ws, message)

        assert error({"type": "match", "words": ["zzzzz"], "mode": "go_out"})["request"] == "match"
        assert error({"type": "hint"}) | {"message": ""} == {"type": "error", "code": "no_hints", "message": "",
                                                              "params": {}, "request": "hint"}  # fmt: skip
        assert error({"type": "action", "action": {"type": "discard", "card": "q"}})["request"] == "action"
        assert "request" not in error({"type": "shout"})  # unknown type: not read as any request
        assert "request" not in error("not json")
        limited = error({"type": "hint"})  # the seventh message: over the limit, so not read
        assert limited["code"] == "rate_limited" and "request" not in limited


# -- limits -----------------------------------------------------------------------


def test_the_message_rate_is_limited_per_connection(client_for: Client) -> None:
    client = client_for(limits=Limits(messages_per_second=0.0001, message_burst=3))
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as ws, connect(client, data["table"]) as other:
        for _ in range(3):
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        assert error_code(ws, {"type": "ping"}) == "rate_limited"
        assert error_code(ws, {"type": "ping"}) == "rate_limited"
        still_open(other)  # another connection has its own allowance


def test_connections_per_address_are_limited(client_for: Client) -> None:
    client = client_for(limits=Limits(connections_per_address=2))
    data = new_table(client, ["human", "easy"])
    with connect(client, data["table"]) as a, connect(client, data["table"]) as b:
        still_open(a)
        still_open(b)
        with pytest.raises(WebSocketDisconnect), connect(client, data["table"]) as c:
            c.receive_json()
    with connect(client, data["table"]) as again:  # closing one frees its place
        still_open(again)


def test_the_number_of_tables_is_limited(client_for: Client) -> None:
    client = client_for(limits=Limits(max_tables=2))
    new_table(client, ["human", "easy"])
    new_table(client, ["human", "human"])
    refused = client.post("/api/tables", json={"seats": ["human", "easy"]})
    assert refused.status_code == 503 and refused.json()["error"] == "too_many_tables"


def test_an_idle_connection_is_closed(client_for: Client) -> None:
    client = client_for(limits=Limits(idle_seconds=0.2))
    data = new_table(client, ["human", "human"])
    with connect(client, data["table"]) as ws:
        hello(ws, data["token"])
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()  # nothing happens at the table: the server closes after the idle time
        assert closed.value.code == 1000


# -- the game over the socket -------------------------------------------------------


def test_a_lobby_then_the_game(client: TestClient) -> None:
    data = new_table(client, ["human", "human"], rules=SHORT)
    with connect(client, data["table"]) as ann:
        lobby = hello(ann, data["token"])
        assert lobby["type"] == "lobby" and [s["taken"] for s in lobby["seats"]] == [True, False]
        assert error_code(ann, {"type": "action", "action": {"type": "draw", "source": "pile"}}) == "not_started"
        joined = client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"], "name": "Bo"}).json()
        state = until(ann, lambda m: m["type"] == "state")
        assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) == 3
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bo"]
        with connect(client, data["table"]) as bo:
            bo_state = hello(bo, joined["token"])
            assert bo_state["view"]["seat"] == 1 and bo_state["view"]["my_turn"]  # seat 1 plays first
            assert error_code(ann, {"type": "action", "action": {"type": "draw", "source": "pile"}}) == "not_your_turn"
            bo.send_json({"type": "action", "action": {"type": "draw", "source": "pile"}})
            after = until(bo, lambda m: m["type"] == "state" and m["moves"] == 1)
            assert after["view"]["phase"] == "discard" and len(after["view"]["hand"]) == 4
            seen_by_ann = until(ann, lambda m: m["type"] == "state" and m["moves"] == 1)
            assert seen_by_ann["view"]["hand_sizes"] == [3, 4]
            assert seen_by_ann["view"]["log"] == [{"type": "draw", "player": 1, "source": "pile", "taken": None,
                                                   "reshuffled": False}]  # fmt: skip


def test_illegal_moves_get_the_engines_reason(client: TestClient) -> None:
    data = new_table(client, ["human", "human"], rules=SHORT)
    bo = client.post(f"/api/tables/{data['table']}/join", json={"invite": data["invite"]}).json()
    with connect(client, data["table"]) as ws:
        state = hello(ws, bo["token"])
        assert state["view"]["my_turn"]  # seat 1 plays first
        ws.send_json({"type": "action", "action": {"type": "discard", "card": "q"}})
        reply = ws.receive_json()
        assert reply == {"type": "error", "code": "illegal", "message": "draw a card first", "params": {},
                         "reason": "draw_first", "request": "action"}  # fmt: skip
        ws.send_json({"type": "action", "action": {"type": "draw", "source": "pile"}})
        state = until(ws, lambda m: m["type"] == "state")
        absent = next(f for f in ("z", "q", "x", "j") if f not in state["view"]["hand"])
        ws.send_json({"type": "action", "action": {"type": "discard", "card": absent}})
        assert ws.receive_json()["message"] == f"card not in hand: {absent!r}"
        ws.send_json({"type": "action", "action": {"type": "go_out", "words": [state["view"]["hand"][:2]],
                                                   "discard": state["view"]["hand"][2]}})  # fmt: skip
        assert ws.receive_json()["code"] == "illegal"
        still_open(ws)


def test_spectators_see_the_public_view_and_cannot_act(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"], rules=SHORT)
    with connect(client, data["table"]) as watcher:
        state = hello(watcher, None)
        assert state["view"]["seat"] is None and state["view"]["hand"] == [] and state["view"]["turns_taken"] is None
        for message in ({"type": "action", "action": {"type": "draw", "source": "pile"}}, {"type": "hint"},
                        {"type": "match", "words": ["at"], "mode": "go_out"}):  # fmt: skip
            assert error_code(watcher, message) == "not_seated"


def test_hints_for_the_own_seat_on_its_turn(client_for: Client) -> None:
    client = client_for()
    data = new_table(client, ["human", "easy"], rules=SHORT)
    with connect(client, data["table"]) as ws:
        state = hello(ws, data["token"])
        if not state["view"]["my_turn"]:
            state = until(ws, my_turn)
        ws.send_json({"type": "hint"})
        reply = until(ws, lambda m: m["type"] in ("hint", "error"))
        assert reply["type"] == "hint"
        assert set(reply["hint"]) == {"recommended", "options", "reason", "explanation"}
        assert reply["hint"]["recommended"]["action"] in ("draw-pile", "take-discard")
    off = new_table(client, ["human", "easy"], rules=SHORT, hints=False)
    with connect(client, off["table"]) as ws:
        hello(ws, off["token"])
        assert error_code(ws, {"type": "hint"}) == "no_hints"


def test_words_typed_are_matched_to_the_cards(client: TestClient) -> None:
    data = new_table(client, ["human", "easy"], rules=SHORT)
    with connect(client, data["table"]) as ws:
        state = hello(ws, data["token"])
        assert error_code(ws, {"type": "match", "words": ["zzzx"], "mode": "go_out"}) == "no_match"
        hand = state["view"]["hand"]
        word = "".join(hand[:2])
        ws.send_json({"type": "match", "words": [word], "mode": "lay_down"})
        reply = until(ws, lambda m: m["type"] not in ("state", "lobby"))  # computer moves may come in between
        if reply["type"] == "match":
            assert reply["matches"] and all(m["words"] for m in reply["matches"])
        else:
            assert reply["code"] == "no_match" and word in reply["message"]


def test_a_stored_table_comes_back_after_a_restart(client_for: Client, tmp_path: Path) -> None:
    """In-process restart: the same database, a new app; the table, its seats and moves are as they were."""
    db = tmp_path / "restart.sqlite3"
    first = TestClient(create_app(db, allowed_hosts=["testserver"]))
    with first:
        data = new_table(first, ["human", "easy"], rules={"round_sizes": [3, 4]})
        with connect(first, data["table"]) as ws:
            state = hello(ws, data["token"])
            if not state["view"]["my_turn"]:
                state = until(ws, my_turn)
            ws.send_json({"type": "action", "action": {"type": "draw", "source": "pile"}})
            before = until(ws, lambda m: m["type"] == "state")
    with TestClient(create_app(db, allowed_hosts=["testserver"])) as second, connect(second, data["table"]) as ws:
        after = hello(ws, data["token"])
    assert after["moves"] == before["moves"] and after["view"] == before["view"]
