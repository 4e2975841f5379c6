"""Several real ``quiddler serve`` processes on one PostgreSQL database.

A table made on one process is joined and played on another; every
process tells its connections every move, whichever process stored it,
and shows the seats connected to either;
the same or conflicting actions sent through two processes at once apply
once; a process killed with SIGKILL loses no acknowledged action and its
computer's move is played by another; PostgreSQL stopped under a running
server makes it refuse moves it cannot store, and it recovers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from quiddler.game.record import replay

from .pgcluster import Cluster
from .webtools import ServerProcess, loads, scripted_action

SHORT = {"round_sizes": [3, 4]}


class Client:
    """One WebSocket connection to a table: ``states`` is every state it was sent, in order."""

    def __init__(self, server: ServerProcess, table: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(f"{server.ws_url}/ws/{table}", origin=server.url,  # type: ignore[arg-type]
                                            open_timeout=30).__enter__()
        self.ws.send(json.dumps({"type": "hello", "watch": True} if token is None else {"type": "hello", "token": token}))
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.until(lambda s: True)

    def next_state(self, timeout: float = 60) -> dict[str, Any]:
        while True:
            message = loads(str(self.ws.recv(timeout=timeout)))
            if message["type"] == "state":
                self.states.append(message)
                return message
            if message["type"] == "error":
                self.errors.append(message)
                return message
            assert message["type"] in ("welcome", "lobby"), message

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    def until(self, done: Any, timeout: float = 60) -> dict[str, Any]:
        """Wait for a state that is ``done`` (an error meanwhile fails the test)."""
        while not (self.states and done(self.state)):
            assert self.next_state(timeout)["type"] == "state", self.errors[-1]
        return self.state

    def until_moves(self, moves: int) -> dict[str, Any]:
        return self.until(lambda s: s["moves"] >= moves)

    def settle(self) -> None:
        """Take in every answer to what was sent so far: the server answers a
        connection's messages in order, so all of them come before the pong."""
        self.ws.send(json.dumps({"type": "ping"}))
        while True:
            message = loads(str(self.ws.recv(timeout=60)))
            if message["type"] == "pong":
                return
            if message["type"] == "state":
                self.states.append(message)
            elif message["type"] == "error":
                self.errors.append(message)

    def send(self, action: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"type": "action", "action": action}))

    def close(self) -> None:
        self.ws.close()


def _new_table(server: ServerProcess, seats: list[str]) -> dict[str, Any]:
    reply = httpx.post(f"{server.url}/api/tables", json={"seats": seats, "rules": SHORT}, timeout=30)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def _join(server: ServerProcess, table: dict[str, Any], name: str) -> dict[str, Any]:
    reply = httpx.post(f"{server.url}/api/tables/{table['table']}/join", json={"invite": table["invite"], "name": name},
                       timeout=30)  # fmt: skip
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def _over(state: dict[str, Any]) -> bool:
    return bool(state["view"]["phase"] == "game_over")


def _play(people: list[Client], watchers: list[Client], stop: Any = _over) -> None:
    """Each person moves when it is their turn, until ``stop``; everyone sees each state."""
    turn = 0
    while not stop(people[0].state):
        mover = next((p for p in people if p.state["view"]["my_turn"] and not _over(p.state)), None)
        if mover is None:  # a computer is thinking, or a state is on its way
            max(people, key=lambda p: p.state["moves"]).next_state()
            for client in people:
                client.until_moves(max(p.state["moves"] for p in people))
            continue
        moves = mover.state["moves"]
        mover.send(scripted_action(mover.state["view"], turn))
        turn += 1
        for client in [*people, *watchers]:
            client.until_moves(moves + 1)


def test_two_people_on_two_processes_play_a_whole_game_and_a_spectator_sees_every_move(pg_url: str) -> None:
    with ServerProcess(pg_url) as first, ServerProcess(pg_url) as second:  # type: ignore[arg-type]
        table = _new_table(first, ["human", "human", "easy"])
        bob = _join(second, table, "Bob")
        assert bob["seat"] == 1
        summary = httpx.get(f"{second.url}/api/tables/{table['table']}", timeout=30).json()
        assert summary["started"] and [s["name"] for s in summary["seats"]] == ["Player 1", "Bob", "easy"]
        people = [Client(first, table["table"], table["token"]), Client(second, table["table"], bob["token"])]
        spectator = Client(second, table["table"], None)
        try:
            for client in [*people, spectator]:  # each process shows the people connected to either
                client.until(lambda s: [seat["connected"] for seat in s["seats"]] == [True, True, True])
            _play(people, [spectator])
            spectator.until(_over)
            seen = [s["moves"] for s in spectator.states]
            assert seen == list(range(seen[0], seen[-1] + 1)), "the spectator missed a move"
            records = [httpx.get(f"{s.url}/api/tables/{table['table']}/record", timeout=30).json()
                       for s in (first, second)]  # fmt: skip
            assert records[0] == records[1]
            game = replay(records[0])
            assert game.over and spectator.state["view"]["totals"] == list(game.view(0).totals)
        finally:
            for client in [*people, spectator]:
                client.close()


def test_the_same_and_conflicting_actions_through_two_processes_apply_once(pg_url: str) -> None:
    with ServerProcess(pg_url) as first, ServerProcess(pg_url) as second:  # type: ignore[arg-type]
        table = _new_table(first, ["human", "human"])
        bob = _join(first, table, "Bob")
        tokens = [table["token"], bob["token"]]
        on_first = Client(first, table["table"], None)
        mover = on_first.state["view"]["turn"]
        here, there = Client(first, table["table"], tokens[mover]), Client(second, table["table"], tokens[mover])
        other = Client(second, table["table"], tokens[1 - mover])
        try:
            moves = here.state["moves"]
            draw = {"type": "draw", "source": "pile"}
            here.send(draw)
            there.send(draw)  # the same action, at once, through the other process
            for client in (here, there):
                client.until_moves(moves + 1)
                client.settle()
            assert [e["code"] for e in here.errors + there.errors] == ["illegal"], here.errors + there.errors
            assert here.state["moves"] == there.state["moves"] == moves + 1
            hand = here.state["view"]["hand"]
            here.send({"type": "discard", "card": max(hand)})
            there.send({"type": "discard", "card": min(hand)})  # conflicting: another card
            for client in (here, there, other):
                client.until_moves(moves + 2)
            for client in (here, there, other):
                client.settle()
            assert len(here.errors + there.errors) == 2, here.errors + there.errors
            assert here.state["view"] == there.state["view"] and here.state["moves"] == moves + 2
            assert len(here.state["view"]["hand"]) == len(hand) - 1
            assert other.state["view"]["my_turn"] and other.state["moves"] == moves + 2
        finally:
            for client in (on_first, here, there, other):
                client.close()


def _server_whose_computers_never_decide(db: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> ServerProcess:
    """A real server whose computer players think for ever: killed while one
    is thinking, its move must be taken over by another process."""
    (folder / "sitecustomize.py").write_text(
        "import threading\nfrom quiddler.web import tables\n"
        "tables.computer_action = lambda *args: threading.Event().wait(600)\n")  # fmt: skip
    with monkeypatch.context() as patch:
        patch.setenv("PYTHONPATH", str(folder))
        return ServerProcess(db)  # type: ignore[arg-type]


def test_a_killed_process_loses_no_acknowledged_move_and_another_plays_its_computer(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    thinking = _server_whose_computers_never_decide(pg_url, tmp_path, monkeypatch)
    servers = [thinking, ServerProcess(pg_url)]  # type: ignore[arg-type]
    try:
        table = _new_table(thinking, ["human", "hard"])
        ann = Client(thinking, table["table"], table["token"])
        ann.until(lambda s: s["view"]["my_turn"])
        moves = ann.state["moves"]
        for _ in range(2):  # draw and discard: then the computer thinks, on the first process
            ann.send(scripted_action(ann.state["view"]))
            ann.until_moves(ann.state["moves"] + 1)
        acknowledged = ann.state
        assert acknowledged["moves"] == moves + 2 and not acknowledged["view"]["my_turn"]
        thinking.kill()  # SIGKILL, the computer's move leased and unplayed
        ann.close()
        ann = Client(servers[1], table["table"], table["token"])
        assert ann.state["view"]["history"] == acknowledged["view"]["history"]
        back = ann.until(lambda s: s["view"]["my_turn"] or _over(s))  # the second process took the move over
        assert back["moves"] == acknowledged["moves"] + 2, "the computer's move was not played exactly once"

        # An action in flight when its process dies: on the third process it is there or can be sent again.
        servers.append(ServerProcess(pg_url))  # type: ignore[arg-type]
        ann.send(scripted_action(back["view"]))
        servers[1].kill()
        ann.close()
        ann = Client(servers[2], table["table"], table["token"])
        assert ann.state["moves"] in (back["moves"], back["moves"] + 1)
        assert ann.state["view"]["history"][: len(back["view"]["history"])] == back["view"]["history"]
        _play([ann], [], stop=_over)
        record = httpx.get(f"{servers[2].url}/api/tables/{table['table']}/record", timeout=30).json()
        assert replay(record).over
        ann.close()
    finally:
        for server in servers:
            server.kill()


def test_postgresql_stopped_under_a_server_refuses_moves_it_cannot_store_then_recovers(postgres: Cluster) -> None:
    url = postgres.new_database()
    with ServerProcess(url) as server:  # type: ignore[arg-type]
        table = _new_table(server, ["human", "human"])
        bob = _join(server, table, "Bob")
        tokens = [table["token"], bob["token"]]
        watcher = Client(server, table["table"], None)
        mover = Client(server, table["table"], tokens[watcher.state["view"]["turn"]])
        moves = mover.state["moves"]
        postgres.stop_server()
        try:
            mover.send({"type": "draw", "source": "pile"})
            reply = mover.next_state()
            assert reply["type"] == "error" and reply["code"] == "server_error", reply
            assert mover.state["moves"] == moves
        finally:
            postgres.start()
        mover.send({"type": "draw", "source": "pile"})
        assert mover.until_moves(moves + 1)["moves"] == moves + 1
        assert watcher.until_moves(moves + 1)["view"]["phase"] == mover.state["view"]["phase"]
        mover.close()
        watcher.close()
    assert "lost the connection" in server.stderr() or "cannot write" in server.stderr()


pytestmark = pytest.mark.timeout(300)
