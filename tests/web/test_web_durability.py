"""A real server killed with SIGKILL mid-game and started again on the
same database: every table goes on from its last acknowledged action.

Acknowledged means a state a client received: each one names the number
of actions behind it (``moves``), and after the restart every table must
hold at least those actions, the same ones (the record says so at the
end), with only computer moves added after the last acknowledgement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from quiddler.game.record import replay

from .webtools import ServerProcess, loads, scripted_action

RULES = {"round_sizes": [3, 4, 5]}


class Seat:
    def __init__(self, server: ServerProcess, table: str, token: str) -> None:
        self.table, self.token = table, token
        self.ws = connect(f"{server.ws_url}/ws/{table}", origin=server.url, open_timeout=30).__enter__()  # type: ignore[arg-type]
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state: dict[str, Any] = self._next_state()

    def _next_state(self, timeout: float = 60) -> dict[str, Any]:
        while True:
            message = loads(str(self.ws.recv(timeout=timeout)))
            if message["type"] == "state":
                return message
            assert message["type"] in ("welcome", "lobby"), message

    def poll(self) -> None:
        """Take in the states that came (waiting a little for one)."""
        try:
            self.state = self._next_state(timeout=0.02)
            while True:
                self.state = self._next_state(timeout=0)
        except TimeoutError:
            pass

    @property
    def to_move(self) -> bool:
        return bool(self.state["view"]["my_turn"])

    @property
    def over(self) -> bool:
        return bool(self.state["view"]["phase"] == "game_over")

    def act(self, turn_number: int) -> dict[str, Any]:
        """Send a move; wait for its acknowledgement; the move, with its player, as the record has it."""
        action = scripted_action(self.state["view"], turn_number)
        moves = self.state["moves"]
        self.ws.send(json.dumps({"type": "action", "action": action}))
        while self.state["moves"] == moves:
            self.state = self._next_state()
        assert self.state["moves"] == moves + 1
        return {**action, "player": self.state["view"]["seat"]}

    def close(self) -> None:
        self.ws.close()


def _tables(server: ServerProcess) -> list[tuple[str, list[str], list[str]]]:
    """(table, seat kinds, tokens of the human seats)."""
    out = []
    for kinds in (["human", "medium"], ["human", "easy"], ["human", "human", "hard"], ["human", "random", "human"]):
        data = httpx.post(f"{server.url}/api/tables", json={"seats": kinds, "rules": RULES}).json()
        tokens = [data["token"]]
        for _ in range(kinds.count("human") - 1):
            tokens.append(httpx.post(f"{server.url}/api/tables/{data['table']}/join",
                                     json={"invite": data["invite"]}).json()["token"])  # fmt: skip
        out.append((data["table"], kinds, tokens))
    return out


def _flat_actions(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [action for entry in record["rounds"] for action in entry["actions"]]


def test_a_killed_server_resumes_every_table_from_its_last_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    first = ServerProcess(db)
    acked: dict[str, dict[int, dict[str, Any]]] = {}  # table -> moves number -> our action acknowledged there
    last_seen: dict[tuple[str, str], dict[str, Any]] = {}
    try:
        tables = _tables(first)
        seats = {(table, token): Seat(first, table, token) for table, _, tokens in tables for token in tokens}
        turns: dict[str, int] = {}
        while min(turns.get(table, 0) for table, _, _ in tables) < 8:  # a few moves of the people at every table
            for (table, _token), seat in seats.items():
                seat.poll()
                if seat.to_move:
                    action = seat.act(turns.get(table, 0))
                    acked.setdefault(table, {})[seat.state["moves"]] = action
                    turns[table] = turns.get(table, 0) + 1
                elif seat.over:
                    turns[table] = 99
        # The last moves: some acknowledged just now (a computer may be thinking), one still in flight.
        in_flight = next(iter(seats.values()))
        while not (in_flight.to_move or in_flight.over):
            in_flight.poll()
        if in_flight.to_move:
            in_flight.ws.send(json.dumps({"type": "action", "action": scripted_action(in_flight.state["view"])}))
        for key, seat in seats.items():
            last_seen[key] = seat.state
    finally:
        first.kill()
    for seat in seats.values():
        seat.close()

    second = ServerProcess(db)
    try:
        resumed = {key: Seat(second, *key) for key in seats}
        for key, seat in resumed.items():
            before, after = last_seen[key], seat.state
            assert after["moves"] >= before["moves"], "an acknowledged action was lost"
            assert after["view"]["history"][: len(before["view"]["history"])] == before["view"]["history"]
            if after["moves"] == before["moves"]:
                assert after["view"] == before["view"]
            elif after["view"]["round"] == before["view"]["round"]:
                assert after["view"]["log"][: len(before["view"]["log"])] == before["view"]["log"]
        # Play every table to its end on the new server; its record holds every acknowledged action.
        turn = 0
        while not all(s.over for s in resumed.values()):
            for seat in resumed.values():
                seat.poll()
                if seat.to_move:
                    seat.act(turn)
                    turn += 1
        for table, kinds, _ in tables:
            record = httpx.get(f"{second.url}/api/tables/{table}/record").json()
            game = replay(record)
            assert game.over and game.players == len(kinds)
            actions = _flat_actions(record)
            for moves, action in acked[table].items():
                assert actions[moves - 1] == action
    finally:
        for seat in resumed.values():
            seat.close()
        second.stop()
