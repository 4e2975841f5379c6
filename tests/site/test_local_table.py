"""The server's protocol played in-process (quiddler.web.local), as the
static site's Web Worker plays it: the same messages and answers as a
table of ``quiddler serve``, seat 0's view only, a saved game that resumes
at the same move, and nothing of the server's stack imported."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.game import review
from quiddler.game.record import replay
from quiddler.web.local import LocalHost, LocalTable, solve_answer
from quiddler.web.protocol import encode_view, spectator_view

from ..web.webtools import scripted_action

SHORT = {"round_sizes": [3, 4]}


def new_table(seats: list[str], seed: int = 5, hints: bool = True) -> LocalTable:
    body = json.dumps({"seats": seats, "rules": SHORT, "hints": hints, "name": "Ann"})
    return LocalTable.create(body, seed=seed)


def send(table: LocalTable, message: dict[str, Any]) -> list[dict[str, Any]]:
    return table.receive(json.dumps(message))


def play_to_the_end(table: LocalTable, states: list[dict[str, Any]], stop_after: int | None = None) -> None:
    """The person plays scripted moves, the computers answer, until the end (or ``stop_after`` moves)."""
    turn = 0
    while not table.game.over and (stop_after is None or table.moves < stop_after):
        state = table.computer_step()
        if state is not None:
            states.append(state)
            continue
        replies = send(table, {"type": "action", "action": scripted_action(states[-1]["view"], turn)})
        assert [r["type"] for r in replies] == ["state"], replies
        states.extend(replies)
        turn += 1


def test_a_whole_game_against_two_levels_ends_with_a_record_that_replays() -> None:
    table = new_table(["human", "easy", "medium"])
    welcome, state = send(table, {"type": "hello", "token": table.token})
    assert welcome == {"type": "welcome", "table": table.id, "seat": 0, "hints": True}
    states = [state]
    play_to_the_end(table, states)
    assert states[-1]["view"]["phase"] == "game_over"
    assert [s["moves"] for s in states] == list(range(states[0]["moves"], table.moves + 1))
    record = table.record()
    assert record["players"] == ["Ann", "easy", "medium"] and record["finished"]
    assert replay(record).totals == table.game.totals


def test_every_state_is_seat_0s_view_and_a_watcher_gets_the_public_one() -> None:
    table = new_table(["human", "hard"], seed=8)
    _, state = send(table, {"type": "hello", "token": table.token})
    states = [state]
    while not table.game.over and table.moves < 12:
        play_to_the_end(table, states, stop_after=table.moves + 1)
        assert states[-1]["view"] == encode_view(table.game.view(0))
    watcher = LocalTable(table.id, table.token, table.game, table.kinds, table.name, table.hints, table.moves)
    _, public = send(watcher, {"type": "hello", "watch": True})
    assert public["view"] == spectator_view(table.game) and public["view"]["hand"] == []
    assert send(watcher, {"type": "hint"})[0]["code"] == "not_seated"


def test_the_messages_are_checked_as_the_server_checks_them() -> None:
    table = new_table(["human", "easy"], seed=3)
    assert send(table, {"type": "hint"})[0]["code"] == "hello_first"
    assert send(table, {"type": "hello", "token": "x" * 43})[0]["code"] == "bad_token"
    send(table, {"type": "hello", "token": table.token})
    assert send(table, {"type": "hello", "token": table.token})[0]["code"] == "bad_message"
    named = {"type": "action", "action": {"type": "draw", "source": "pile", "player": 1}}
    assert send(table, named)[0]["code"] == "bad_message"
    assert table.receive("{not json")[0]["code"] == "bad_message"
    while table.computer_step() is not None:
        pass
    discard = {"type": "action", "action": {"type": "discard", "card": table.game.hand(0)[0].face}}
    refused = send(table, discard)[0]
    assert refused["code"] == "illegal" and refused["request"] == "action"  # a draw comes first
    assert "request" not in table.receive("{not json")[0]  # an error names the request it answers, when read
    assert send(table, {"type": "ping"}) == [{"type": "pong"}]
    hint = send(table, {"type": "hint"})[0]
    assert hint["type"] == "hint" and hint["hint"]["recommended"]["action"] in ("draw-pile", "take-discard")
    plain = new_table(["human", "easy"], hints=False)
    send(plain, {"type": "hello", "token": plain.token})
    assert send(plain, {"type": "hint"})[0]["code"] == "no_hints"


@pytest.mark.parametrize("seats, reason", [
    (["human", "human"], "needs the server"),
    (["human", "master"], "neither 'human' nor a computer player"),
    (["easy", "human"], "must be 'human'"),
])  # fmt: skip
def test_a_table_the_site_does_not_play_is_refused_by_name(seats: list[str], reason: str) -> None:
    answer = json.loads(LocalHost().handle("create", json.dumps({"seats": seats})))
    assert answer["status"] == 400 and reason in answer["body"]["message"]


def test_a_saved_game_resumes_at_the_same_move_and_plays_on_the_same() -> None:
    table = new_table(["human", "expert"], seed=21)
    _, state = send(table, {"type": "hello", "token": table.token})
    states = [state]
    play_to_the_end(table, states, stop_after=9)
    saved = json.dumps(table.save())
    resumed = LocalTable.restore(saved)
    _, again = send(resumed, {"type": "hello", "token": table.token})
    assert again == states[-1] and resumed.moves == table.moves == 9
    play_to_the_end(table, states)
    resumed_states = [again]
    play_to_the_end(resumed, resumed_states)
    assert resumed.record() == table.record()


@pytest.mark.parametrize("mangle", [
    lambda s: s.update(format="quiddler-local/0"),
    lambda s: s.update(seats=["human", "no-such-level"]),
    lambda s: s["record"]["rounds"][0]["actions"].append({"type": "draw", "player": 0, "source": "pile"}),
    lambda s: s["record"].update(seed=s["record"]["seed"] + 1),
])  # fmt: skip
def test_a_damaged_save_is_refused_with_a_reason(mangle: Any) -> None:
    table = new_table(["human", "easy"])
    saved = table.save()
    mangle(saved)
    answer = json.loads(LocalHost().handle("restore", json.dumps(saved)))
    assert answer["status"] == 400 and answer["body"]["error"] == "bad_save"
    assert answer["body"]["message"].startswith("the saved game cannot be resumed: ")


def test_the_record_is_refused_before_the_end_and_an_unknown_operation_by_name() -> None:
    host = LocalHost()
    assert json.loads(host.handle("record"))["body"]["error"] == "no_table"
    host.handle("create", json.dumps({"seats": ["human", "easy"]}))
    assert json.loads(host.handle("record"))["status"] == 409
    assert "'nonsense'" in json.loads(host.handle("nonsense"))["body"]["message"]


@pytest.mark.parametrize("hand, discard", [
    ("d,cl,o,g,a,b,er,in,n,y,s", False), ("qu,i,t,e,z", True), ("x,x,x", False), ("a,b", True),
])  # fmt: skip
def test_the_solver_page_answers_as_quiddler_solve_and_words(hand: str, discard: bool) -> None:
    answer = solve_answer(json.dumps({"cards": hand, "discard": discard}))
    args = ["solve", hand, "--json"] + (["--discard"] if discard else [])
    solved = CliRunner().invoke(main, args)
    assert answer["solution"] == json.loads(solved.stdout)
    listed = CliRunner().invoke(main, ["words", hand, "--json"])
    assert answer["words"] == json.loads(listed.stdout)["words"]


def test_the_solver_page_names_a_bad_card() -> None:
    assert solve_answer(json.dumps({"cards": "qu,zz"})) == {"error": "unknown card: 'zz'"}
    assert "send" in solve_answer(json.dumps({"cards": ["a"]}))["error"]


BLOCKER = """
import importlib.abc, json, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {"numba", "numpy", "starlette", "uvicorn", "websockets", "rich", "click", "tqdm",
                                  "sqlite3", "_sqlite3", "asyncio", "anyio"}:
            raise ImportError("not in the worker: " + name)
sys.meta_path.insert(0, Block())
from quiddler.web.local import LocalHost
host = LocalHost()
made = json.loads(host.handle("create", json.dumps({"seats": ["human", "expert"], "rules": {"round_sizes": [3]}})))
print(json.loads(host.handle("message", json.dumps({"type": "hello", "token": made["body"]["token"]})))["status"])
print(json.loads(host.handle("step"))["status"], json.loads(host.handle("solve", '{"cards": "qu,i,t"}'))["status"])
"""


def test_the_worker_side_imports_nothing_of_the_server_numba_or_the_terminal() -> None:
    done = subprocess.run([sys.executable, "-c", BLOCKER], check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["200", "200", "200"]


def test_a_rematch_is_the_same_table_anew_once_the_game_is_over() -> None:
    host = LocalHost()
    made = json.loads(host.handle("create", json.dumps({"seats": ["human", "easy", "hard"], "rules": SHORT,
                                                          "hints": False, "name": "Bo"})))["body"]  # fmt: skip
    token = json.dumps({"token": made["token"]})
    assert json.loads(host.handle("rematch", token))["body"]["error"] == "not_over"
    table = host.table
    assert table is not None
    _, state = send(table, {"type": "hello", "token": table.token})
    play_to_the_end(table, [state])
    assert json.loads(host.handle("rematch", json.dumps({"token": "x" * 43})))["body"]["error"] == "bad_token"
    again = json.loads(host.handle("rematch", token))["body"]
    assert again["table"] != made["table"] and again["token"] != made["token"]
    fresh = host.table
    assert fresh is not None and fresh is not table and fresh.moves == 0
    assert (fresh.kinds, fresh.name, fresh.hints, fresh.game.rules) == (table.kinds, "Bo", False, table.game.rules)
    assert fresh.game.seed != table.game.seed


def test_word_groups_are_checked_against_the_word_list() -> None:
    table = new_table(["human", "easy"])
    assert send(table, {"type": "check", "words": [["c", "a", "t"]]})[0]["code"] == "hello_first"
    send(table, {"type": "hello", "token": table.token})
    checked = send(table, {"type": "check", "words": [["qu", "i", "t"], ["z", "x"], ["a"]]})[0]
    assert [(w["word"], w["valid"]) for w in checked["words"]] == [("quit", True), ("zx", False), ("a", False)]


def test_the_save_and_the_record_are_text_so_a_big_seed_stays_exact() -> None:
    host = LocalHost()
    host.handle("create", json.dumps({"seats": ["human", "easy"], "rules": {"round_sizes": [3]}}))
    table = host.table
    assert table is not None
    table.game = type(table.game)(2, seed=2**62 + 1, rules=table.game.rules)
    saved = json.loads(host.handle("save"))["body"]
    assert isinstance(saved, str) and json.loads(saved)["record"]["seed"] == 2**62 + 1
    assert LocalTable.restore(saved).game.seed == 2**62 + 1


def test_a_finished_game_is_reviewed_in_the_page_as_the_server_reviews_it() -> None:
    host = LocalHost()
    host.handle("create", json.dumps({"seats": ["human", "expert"], "rules": SHORT, "hints": False, "name": "Cy"}))
    table = host.table
    assert table is not None
    assert json.loads(host.handle("review", '{"seat": 0}')) == {
        "status": 409, "body": {"error": "not_over", "message": "the review is shown once the game is over",
                                "params": {}}}  # fmt: skip
    _, state = send(table, {"type": "hello", "token": table.token})
    play_to_the_end(table, [state])
    for bad in ('{"seat": 2}', '{"seat": "0"}', "[]", "nonsense"):
        assert json.loads(host.handle("review", bad))["body"]["error"] == "bad_seat", bad
    answer = json.loads(host.handle("review", '{"seat": 1}'))
    assert answer["status"] == 200
    assert answer["body"] == review(table.record(), 1).to_dict()
    assert answer["body"]["seat"] == 1 and answer["body"]["loss_total"] == 0  # the expert by its own judgement
