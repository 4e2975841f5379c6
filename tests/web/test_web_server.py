"""``quiddler serve`` as a real process on a free loopback port: the first
line, REST and WebSockets over the network, uvicorn's size limit, the
Host and Origin checks, and the command's own errors."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from quiddler import cli
from quiddler.web import server as server_module
from quiddler.web import tables as tables_module
from quiddler.web.app import create_app
from quiddler.web.limits import Limits

from .webtools import REPO, ServerProcess, loads, scripted_action


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("serve") / "tables.sqlite3") as process:
        yield process


def open_socket(server: ServerProcess, table: str, origin: str | None = None) -> ClientConnection:
    return connect(f"{server.ws_url}/ws/{table}", origin=origin or server.url, open_timeout=30,  # type: ignore[arg-type]
                   max_size=None)  # fmt: skip


def receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    return receive_until(ws, lambda message: message["type"] == kind)


def receive_until(ws: ClientConnection, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(5000):
        message = loads(str(ws.recv(timeout=60)))
        if accept(message):
            return message
    raise AssertionError("no such message")


def test_the_first_line_names_the_port(server: ServerProcess) -> None:
    assert server.first_line.startswith("Serving on http://127.0.0.1:")
    assert server.port > 0
    assert httpx.get(f"{server.url}/api/players").status_code == 200


def test_a_game_over_the_network(server: ServerProcess) -> None:
    created = httpx.post(f"{server.url}/api/tables", json={"seats": ["human", "human"], "rules": {"round_sizes": [3]}})
    assert created.status_code == 201
    data = created.json()
    joined = httpx.post(f"{server.url}/api/tables/{data['table']}/join", json={"invite": data["invite"], "name": "Bo"})
    assert joined.status_code == 200
    tokens = {0: data["token"], 1: joined.json()["token"]}
    sockets = {seat: open_socket(server, data["table"]).__enter__() for seat in tokens}
    try:
        states = {}
        for seat, ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            assert receive(ws, "welcome")["seat"] == seat
            states[seat] = receive(ws, "state")
        turns = 0
        while states[0]["view"]["phase"] != "game_over":
            seat = states[0]["view"]["turn"]
            moves = states[0]["moves"]
            sockets[seat].send(json.dumps({"type": "action", "action": scripted_action(states[seat]["view"], turns)}))
            turns += 1
            for other, ws in sockets.items():
                states[other] = receive(ws, "state")
                while states[other]["moves"] == moves:  # a state re-sent (a seat connected)
                    states[other] = receive(ws, "state")
                assert states[other]["moves"] == moves + 1
        record = httpx.get(f"{server.url}/api/tables/{data['table']}/record")
        assert record.status_code == 200 and record.json()["players"] == ["Player 1", "Bo"]
    finally:
        for ws in sockets.values():
            ws.close()


def test_a_message_over_64_kib_closes_with_1009(server: ServerProcess) -> None:
    data = httpx.post(f"{server.url}/api/tables", json={"seats": ["human", "human"]}).json()
    with open_socket(server, data["table"]) as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert receive(ws, "pong")
        ws.send(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:1", None])
def test_a_foreign_or_missing_origin_is_refused(server: ServerProcess, origin: str | None) -> None:
    data = httpx.post(f"{server.url}/api/tables", json={"seats": ["human", "human"]}).json()
    headers = {} if origin is None else {"Origin": origin}
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_url}/ws/{data['table']}", additional_headers=headers, open_timeout=30)
    assert refused.value.response.status_code == 403


def test_localhost_is_the_same_server(server: ServerProcess) -> None:
    url = f"http://localhost:{server.port}"
    data = httpx.post(f"{url}/api/tables", json={"seats": ["human", "human"]}).json()
    with connect(f"ws://localhost:{server.port}/ws/{data['table']}", origin=url, open_timeout=30) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "watch": True}))
        assert receive(ws, "welcome")["seat"] is None


def test_a_foreign_host_header_is_refused(server: ServerProcess) -> None:
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1."""
    response = httpx.get(f"{server.url}/api/players", headers={"Host": f"evil.example:{server.port}"})
    assert response.status_code == 400


def test_pages_carry_a_csp_without_unsafe_eval(server: ServerProcess) -> None:
    for path in ("/", "/t/sometable", "/static/app.js", "/api/players"):
        response = httpx.get(server.url + path)
        csp = response.headers["content-security-policy"]
        assert "unsafe-eval" not in csp and "unsafe-inline" not in csp
        assert "script-src 'self'" in csp and "object-src 'none'" in csp
        assert response.headers["x-content-type-options"] == "nosniff"


def test_the_page_and_the_invite_page_are_the_same_document(server: ServerProcess) -> None:
    home, invite = httpx.get(server.url + "/"), httpx.get(server.url + "/t/abc")
    assert home.status_code == invite.status_code
    if home.status_code == 200:
        assert home.text == invite.text and "text/html" in home.headers["content-type"]


# -- the command -----------------------------------------------------------------


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if starlette were not installed
    result = CliRunner().invoke(cli.main, ["serve", "--port", "0"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "pip install 'quiddler[web]'" in lines[0]


def test_a_non_loopback_host_must_be_given_explicitly() -> None:
    result = CliRunner().invoke(cli.main, ["serve"], default_map={"serve": {"host": "0.0.0.0"}})
    assert result.exit_code == 2 and "--host" in result.output and result.output.startswith("Error:")


def test_an_explicit_non_loopback_host_is_served_with_a_warning(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "lan.sqlite3", "--host", "0.0.0.0")
    try:
        assert process.first_line.startswith("Serving on http://0.0.0.0:")
        assert httpx.get(f"http://127.0.0.1:{process.port}/api/players").status_code == 200
    finally:
        process.stop()
    assert process.process.stderr is not None
    stderr = process.process.stderr.read()
    assert stderr.startswith("warning: serving on 0.0.0.0")


def test_bad_options_are_one_error_line(tmp_path: Path) -> None:
    runner = CliRunner()
    bad_origin = runner.invoke(cli.main, ["serve", "--allow-origin", "evil.example"])
    assert bad_origin.exit_code == 2 and bad_origin.output.startswith("Error:") and "evil.example" in bad_origin.output
    (tmp_path / "afile").write_text("x")
    bad_db = runner.invoke(cli.main, ["serve", "--port", "0", "--db", str(tmp_path / "afile" / "db.sqlite3")])
    assert bad_db.exit_code == 2 and bad_db.output.count("\n") == 1 and "afile" in bad_db.output


def test_the_cli_does_not_load_starlette() -> None:
    script = ("import sys, quiddler.cli; from click.testing import CliRunner; "
              "out = CliRunner().invoke(quiddler.cli.main, ['--help']).output; "
              "assert 'serve' in out, out; "
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'websockets')))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("decision_seconds", [Limits().decision_seconds, 60.0])
def test_the_keepalive_waits_longer_for_a_pong_than_a_hint_may_take(decision_seconds: float) -> None:
    # uvicorn reads nothing more of a connection while a message it has received waits for the
    # app, and the app answers a hint before it takes the next message, for up to
    # decision_seconds: a pong behind such a message is read only then, and must still count.
    config = server_module._config(create_app(":memory:"), Limits(decision_seconds=decision_seconds),
                                   server_module._bounded_http(10.0), ())  # fmt: skip
    assert config.ws_ping_interval
    assert config.ws_ping_timeout is not None and config.ws_ping_timeout >= decision_seconds + 10


def test_a_slow_hint_with_a_message_behind_it_keeps_the_connection(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:  # fmt: skip
    # The server's keepalive scaled down: a ping every 0.2 s, its pong awaited 0.5 s past a decision's
    # time. The hint takes 1.5 s and the page sends a ping message right behind it, so uvicorn reads
    # no pong until the hint is answered: a pong wait of 0.5 s alone would close the connection.
    monkeypatch.setattr(server_module, "PING_SECONDS", 0.2)
    monkeypatch.setattr(server_module, "PONG_SECONDS", 0.5)
    real_hint = tables_module.hint

    def slow_hint(view: Any) -> Any:
        time.sleep(1.5)
        return real_hint(view)

    monkeypatch.setattr(tables_module, "hint", slow_hint)
    limits = Limits(decision_seconds=3.0)
    app = create_app(tmp_path / "tables.sqlite3", allowed_hosts=["127.0.0.1"], limits=limits)
    sock = server_module._bind("127.0.0.1", 0)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    uvicorn_server = uvicorn.Server(server_module._config(app, limits, server_module._bounded_http(10.0), ()))
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if uvicorn_server.started:
                break
            time.sleep(0.05)
        assert uvicorn_server.started, "the server did not start"
        data = httpx.post(f"{url}/api/tables", json={"seats": ["human", "easy"], "rules": {"round_sizes": [3]}}).json()
        with connect(f"ws{url.removeprefix('http')}/ws/{data['table']}", origin=url, open_timeout=30) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "token": data["token"]}))
            receive_until(ws, lambda m: m["type"] == "state" and m["view"]["my_turn"])
            ws.send(json.dumps({"type": "hint"}))
            ws.send(json.dumps({"type": "ping"}))
            assert receive(ws, "hint")["hint"]["recommended"]
            assert receive(ws, "pong") == {"type": "pong"}
            time.sleep(1.0)  # several pings later, still open
            ws.send(json.dumps({"type": "ping"}))
            assert receive(ws, "pong") == {"type": "pong"}
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=30)
