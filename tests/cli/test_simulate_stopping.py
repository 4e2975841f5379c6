"""``quiddler simulate`` stopped from outside, as real processes: a huge
run plans its games as it plays them (memory stays flat, Ctrl-C prints the
statistics at once); SIGTERM and SIGHUP stop it like Ctrl-C, its worker
processes exit with it (even when it is killed outright), and the log holds
whole games; a timeout that is no number of seconds, and Ctrl-C while
connecting to a scheduler, are one line each."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quiddler.game.plans import plan_games

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; signals as on Linux")


#: Sets SIGHUP as argv[1] says, then becomes the command after it (an ignored
#: signal stays ignored across exec, a default one stays default).
_HANGUP = ("import os, signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN if sys.argv[1] == 'ignore' "
           "else signal.SIG_DFL); os.execv(sys.argv[2], sys.argv[2:])")  # fmt: skip


def _start(tmp_path: Path, *args: str, hangup: str = "default") -> tuple[subprocess.Popen[str], Path]:
    """The command in a session of its own, SIGHUP ``"default"`` (as a
    terminal starts it, even when the tests run under nohup, whose ignored
    SIGHUP a child would inherit) or ``"ignore"`` (as nohup starts it)."""
    log = tmp_path / "games.jsonl"
    command = [sys.executable, "-c", _HANGUP, hangup, sys.executable, "-m", "quiddler.cli", "simulate", "--players",
               "greedy,random", "--seed", "4", "--log", str(log), *args]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    return process, log


def _wait_for_games(process: subprocess.Popen[str], log: Path, games: int) -> None:
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("\n") >= games):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no games logged in 2 minutes"
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent has not read its status yet


def _wait_gone(pids: list[int]) -> list[int]:
    deadline = time.monotonic() + 120
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _kill_all(process: subprocess.Popen[str], pids: list[int]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _assert_whole_games(log: Path, games: int) -> None:
    lines = log.read_text().splitlines()
    assert len(lines) == games
    assert [json.loads(line)["seed"] for line in lines] == [p.seed for p in plan_games(4, games, 2)]


def test_a_billion_games_play_at_once_in_flat_memory_and_stop_at_ctrl_c(tmp_path: Path) -> None:
    process, log = _start(tmp_path, "--games", str(10**9), "--workers", "1", "--json")
    try:
        _wait_for_games(process, log, 2)
        first = _rss_mb(process.pid)
        _wait_for_games(process, log, 40)
        assert _rss_mb(process.pid) < max(600.0, 1.5 * first)  # no plan of 10**9 games held anywhere
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=180)
    finally:
        _kill_all(process, [])
    assert process.returncode == 130, err
    data = json.loads(out)
    assert data["partial"] is True and data["requested"] == 10**9 and data["games"] >= 40
    _assert_whole_games(log, data["games"])
    assert "Traceback" not in err


@pytest.mark.parametrize("to_group", [False, True], ids=["to-the-run", "to-its-process-group"])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_the_workers_with_the_run(tmp_path: Path, signum: int, code: int,
                                                          to_group: bool) -> None:  # fmt: skip
    process, log = _start(tmp_path, "--games", "1000000", "--workers", "2", "--json")
    workers: list[int] = []
    try:
        _wait_for_games(process, log, 3)
        workers = _children(process.pid)
        assert len(workers) >= 2, workers  # the worker processes (a resource tracker may join them)
        if to_group:  # `kill -TERM -PGID`, or a closed terminal's SIGHUP to its foreground group
            os.killpg(process.pid, signum)
        else:  # `kill PID`
            process.send_signal(signum)
        out, err = process.communicate(timeout=180)
        assert _wait_gone(workers) == []
    finally:
        _kill_all(process, workers)
    assert process.returncode == code, err
    data = json.loads(out)
    assert data["partial"] is True and data["games"] >= 3
    _assert_whole_games(log, data["games"])
    name = signal.Signals(signum).name
    assert err.strip().splitlines()[-1] == f"stopped by {name}: {data['games']} of 1000000 games played"
    assert "Traceback" not in err


def test_a_run_started_under_nohup_keeps_running_through_sighup(tmp_path: Path) -> None:
    process, log = _start(tmp_path, "--games", "1000000", "--workers", "2", "--json", hangup="ignore")
    workers: list[int] = []
    try:
        _wait_for_games(process, log, 3)
        workers = _children(process.pid)
        os.killpg(process.pid, signal.SIGHUP)
        played = log.read_text().count("\n")
        _wait_for_games(process, log, played + 3)  # still playing (it fails if the run ended)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=180)
        assert _wait_gone(workers) == []
    finally:
        _kill_all(process, workers)
    assert process.returncode == 143, err
    assert err.strip().splitlines()[-1].startswith("stopped by SIGTERM: ")


def test_workers_exit_when_the_run_is_killed_outright(tmp_path: Path) -> None:
    process, log = _start(tmp_path, "--games", "1000000", "--workers", "2", "--json")
    workers: list[int] = []
    try:
        _wait_for_games(process, log, 3)
        workers = _children(process.pid)
        assert len(workers) >= 2, workers
        process.kill()  # no handler runs: the kernel ends the workers with their parent
        process.communicate(timeout=180)
        assert _wait_gone(workers) == []
    finally:
        _kill_all(process, workers)


@pytest.mark.parametrize("timeout", ["nan", "inf", "-inf"])
def test_a_scheduler_timeout_that_is_no_number_of_seconds_is_one_error_line(timeout: str) -> None:
    result = subprocess.run([sys.executable, "-m", "quiddler.cli", "simulate", "--scheduler", "tcp://127.0.0.1:9",
                             "--scheduler-timeout", timeout], capture_output=True, text=True, timeout=120,
                            check=False)  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and timeout in lines[0], result.stderr


def test_ctrl_c_while_connecting_to_a_scheduler_stops_at_once() -> None:
    pytest.importorskip("distributed")
    with socket.socket() as silent:  # accepts connections and never answers, as a stuck scheduler
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        process = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "simulate", "--scheduler", address,
                                    "--scheduler-timeout", "300"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)  # fmt: skip
        try:
            connection = _accept_from(silent, process)  # the command is now waiting for the scheduler's answer
            os.killpg(process.pid, signal.SIGINT)
            out, err = process.communicate(timeout=180)  # well under the 300 s it would wait
            connection.close()
        finally:
            _kill_all(process, [])
    assert process.returncode == 130 and out == ""
    expected = f"interrupted while connecting to the Dask scheduler at {address}: no games played"
    assert err.strip().splitlines() == [expected]


def _accept_from(listener: socket.socket, process: subprocess.Popen[str]) -> socket.socket:
    """The connection ``process`` makes to ``listener``, once it is made
    (however long the process takes to start); fails if it exits first."""
    listener.settimeout(0.2)
    deadline = time.monotonic() + 300
    while True:
        try:
            return listener.accept()[0]
        except TimeoutError:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no connection to the scheduler in 5 minutes"


def _spawned_children(pid: int) -> list[int]:
    """The children of ``pid`` that multiprocessing spawned to run a task (not its resource tracker)."""
    found = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.append(child)
    return found


def test_ctrl_c_while_a_local_dask_cluster_starts_stops_the_run() -> None:
    pytest.importorskip("distributed")
    process = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "simulate", "--dask", "--workers", "1",
                                "--games", "1000000", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)  # fmt: skip
    started: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while not started:  # a worker of the cluster is starting: Ctrl-C now, as at a terminal
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no cluster process started in 5 minutes"
            started = _spawned_children(process.pid)
            time.sleep(0.01)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)  # it ran a million games before
        assert _wait_gone(started) == []
    finally:
        _kill_all(process, started)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err  # nor from the cluster's processes
    lines = err.strip().splitlines()
    if out:  # the cluster was up and the first games played by the time the signal came
        assert json.loads(out)["partial"] and lines[-1].startswith("interrupted: ")
    else:
        assert lines == ["interrupted while starting a local Dask cluster: no games played"]
