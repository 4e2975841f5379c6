"""``quiddler simulate``: JSON, table and game log; variants and the turn
limit reach the rules; progress on stderr only when asked; worker
processes and Dask give the same output; Ctrl-C prints the partial
statistics; every bad option is one error line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from quiddler import WordList
from quiddler.cli import main
from quiddler.game.plans import plan_games
from quiddler.game.record import replay
from quiddler.game.runner import simulate


def invoke(args: list[str]):  # type: ignore[no-untyped-def]
    """``quiddler simulate ARGS`` through the main group."""
    return CliRunner().invoke(main, ["simulate", *args])


def test_json_statistics_and_the_game_log_replay(tmp_path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["--players", "greedy,random,random", "--games", "4", "--seed", "1", "--json", "--log", str(log)]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["seed"] == 1
    assert set(data["strategies"]) == {"greedy", "random"}
    assert sum(s["wins"] for s in data["strategies"].values()) == pytest.approx(4)
    for s in data["strategies"].values():
        assert {"wins", "win_rate", "mean_score", "going_out_rate"} <= set(s)
    lines = log.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        record = json.loads(line)
        assert replay(record).totals == tuple(record["final_scores"])
    # seats rotate: each game's seat 0 player follows the rotation
    assert [json.loads(line)["players"][0] for line in lines] == ["greedy", "random", "random", "greedy"]
    again = invoke(["--players", "greedy,random,random", "-n", "4", "--seed", "1", "--json"])
    assert json.loads(again.stdout) == data


def test_a_table_for_people_and_the_rule_variants() -> None:
    args = [
        "--players",
        "random,random",
        "--games",
        "2",
        "--seed",
        "2",
        "--no-first-turn-out",
        "--no-bonuses",
        "--no-floor",
    ]
    result = invoke(args)
    assert result.exit_code == 0
    assert "random" in result.stdout and "win rate" in result.stdout and result.stderr == ""


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "greedy,wizard"], "unknown strategy: 'wizard'"),
        (["--players", "greedy"], "2 to 8 players, not 1"),
        (["--players", ",".join(["random"] * 9)], "2 to 8 players, not 9"),
        (["--games", "0"], "0 is not in the range x>=1"),
        (["--games", "lots"], "not a valid integer"),
        (["--wordlist", "/nonexistent/words.txt"], "word list not found"),
        (["--turn-limit", "0"], "'--turn-limit': 0 is not in the range x>=1"),
        (["--turn-limit", "many"], "not a valid integer"),
    ],
)
def test_bad_arguments_are_one_error_line(args: list[str], message: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_simulate_is_listed_in_help_and_runs_through_the_main_group() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0 and "simulate" in result.stdout
    result = invoke(["--players", "random,random", "-n", "1", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 1
    bad = invoke(["--players", "random"])
    assert bad.exit_code == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_progress_goes_to_stderr_only_when_asked() -> None:
    args = ["--players", "random,random", "-n", "2", "--seed", "3", "--json"]
    quiet = invoke(args)
    shown = invoke([*args, "--progress"])
    assert quiet.stderr == "" and "games" in shown.stderr
    assert json.loads(shown.stdout) == json.loads(quiet.stdout)


def test_a_word_list_nobody_can_go_out_with_still_ends_every_game(tmp_path) -> None:
    """With the words quit and queen nobody can ever go out: each round ends
    at the turn limit (default 50 turns each).  Run in a child process so a
    hang fails cleanly."""
    import subprocess
    import sys

    words = tmp_path / "quit-queen.txt"
    words.write_text("quit\nqueen\n")
    log = tmp_path / "games.jsonl"
    args = ["simulate", "--players", "greedy,random", "--games", "1", "--seed", "1", "--wordlist", str(words),
            "--json", "--log", str(log)]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", "from quiddler.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 1
    record = json.loads(log.read_text())
    assert record["finished"] and record["rules"]["turn_limit"] == 50
    results = [entry["result"] for entry in record["rounds"]]
    assert len(results) == 8 and all(r["turn_limit"] and r["went_out"] is None for r in results)
    # 50 turns each per round, a draw and a discard per turn
    assert all(len(entry["actions"]) == 2 * 2 * 50 for entry in record["rounds"])
    assert replay(record, WordList(["queen", "quit"])).over


def test_the_turn_limit_option_reaches_the_rules_and_the_records(tmp_path) -> None:
    words = tmp_path / "quit-queen.txt"
    words.write_text("quit\nqueen\n")
    log = tmp_path / "games.jsonl"
    args = ["--players", "random,random,greedy", "-n", "2", "--seed", "4", "--wordlist", str(words),
            "--turn-limit", "3", "--log", str(log)]  # fmt: skip
    result = invoke(args)
    assert result.exit_code == 0, result.output
    for line in log.read_text().splitlines():
        record = json.loads(line)
        assert record["rules"]["turn_limit"] == 3
        assert all(len(entry["actions"]) == 2 * 3 * 3 for entry in record["rounds"])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_prints_partial_stats_and_exits_130(tmp_path, workers: str) -> None:
    log = tmp_path / "games.jsonl"
    args = [sys.executable, "-m", "quiddler.cli", "simulate", "--players", "greedy,random", "-n", "5000",
            "--seed", "4", "--workers", workers, "--json", "--log", str(log)]  # fmt: skip
    # A session of its own, signalled as a whole, as a terminal's Ctrl-C is.
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not (log.exists() and log.read_text().count("\n") >= 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=180)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    data = json.loads(out)
    lines = log.read_text().splitlines()
    assert data["partial"] is True and data["requested"] == 5000 and 3 <= data["games"] < 5000
    assert len(lines) == data["games"] and "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"interrupted: {data['games']} of 5000 games played"
    again = simulate(["greedy", "random"], data["games"], seed=4).to_dict()
    assert data["strategies"] == again["strategies"]
    assert [json.loads(line)["seed"] for line in lines] == [p.seed for p in plan_games(4, data["games"], 2)]


def test_one_or_two_worker_processes_give_the_same_output_and_log(tmp_path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    base = ["--players", "random,greedy", "-n", "16", "--seed", "9", "--json"]
    a = invoke([*base, "--workers", "1", "--log", str(one)])
    b = invoke([*base, "--workers", "2", "--log", str(two)])
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    assert one.read_text() == two.read_text() and one.read_text().count("\n") == 16


@pytest.mark.parametrize(
    "args, message",
    [
        (["--workers", "0"], "0 is not in the range x>=1"),
        (["--workers", "-3"], "-3 is not in the range x>=1"),
        (["--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "0.5"], "cannot reach the Dask scheduler"),
        (["--scheduler", "tcp://127.0.0.1:9", "--dask"], "either --scheduler ADDRESS or --dask"),
        (["--scheduler", " "], "--scheduler needs an address"),
    ],
)
def test_bad_worker_and_dask_options_are_one_error_line(args: list[str], message: str) -> None:
    if "cannot reach" in message:
        pytest.importorskip("distributed")
    result = invoke(["-n", "2", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_dask_missing_is_one_clear_line(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    result = invoke(["-n", "2", "--dask"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == ("Error: Dask is not installed: pip install 'quiddler[dask]' "
                                      "(or dask[distributed]) to play games on Dask")  # fmt: skip


def _ctrl_c(*_args: object, **_kwargs: object) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_while_starting_says_no_games_were_played(monkeypatch: pytest.MonkeyPatch) -> None:
    from quiddler.cli import simulate as simulate_command

    monkeypatch.setattr(simulate_command, "rules_from_options", _ctrl_c)
    result = CliRunner().invoke(main, ["simulate", "--games", "5"])
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == "interrupted while starting: no games played\n"


def test_ctrl_c_while_a_command_loads_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from quiddler.cli import group

    monkeypatch.setattr(group, "_import_command", _ctrl_c)
    result = CliRunner().invoke(main, ["simulate", "--games", "5"])
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == "interrupted while starting: nothing done\n"
