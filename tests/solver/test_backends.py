"""The auto backend: pure Python until the compiled kernels pay off, a
compile in the background (said through logging) when they are not cached,
and the same answers throughout."""

from __future__ import annotations

import logging
import time

import pytest

from quiddler import score_many, solve, solve_many
from quiddler.solver import _backends, _native, core
from quiddler.solver._backends import AutoBackend, NumbaBackend, batch_backend, show_notices

HAND = "d,cl,o,g,a,b,er,in,n,y,s"


class FakeCompile:
    """Stands in for the background compile process."""

    def __init__(self) -> None:
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.returncode


@pytest.fixture
def auto(monkeypatch: pytest.MonkeyPatch) -> AutoBackend:
    backend = AutoBackend()
    backend._POLL_SECONDS = 0.0
    monkeypatch.setitem(_backends._backends, "auto", backend)
    monkeypatch.setattr(core, "_DEFAULT_SOLVERS", {})  # the default Solvers take up this backend
    return backend


def test_a_first_solve_runs_in_python(auto):
    assert solve(HAND, discard=True).best.score == 57
    assert auto.compiled is None and 0 < auto.python_seconds < auto.PAYOFF_SECONDS


def test_cached_kernels_are_loaded_once_python_time_pays_for_them(auto, monkeypatch):
    monkeypatch.setattr(_native, "ready", lambda: True)
    auto.python_seconds = auto.PAYOFF_SECONDS
    expected = solve(HAND, discard=True, backend="python")
    assert solve(HAND, discard=True) == expected
    assert isinstance(auto.compiled, NumbaBackend)


def test_cold_kernels_compile_in_the_background_and_are_used_when_ready(auto, monkeypatch, caplog):
    process = FakeCompile()
    started = []
    monkeypatch.setattr(_native, "ready", lambda: process.returncode == 0)
    monkeypatch.setattr(_native, "start_background_compile", lambda: started.append(1) or process)
    monkeypatch.setattr(_native, "compile_running", lambda: False)  # no other command compiling
    auto.python_seconds = auto.PAYOFF_SECONDS
    expected = solve(HAND, discard=True, backend="python")
    with caplog.at_level(logging.INFO, logger="quiddler"):
        assert solve(HAND, discard=True) == expected  # compile starts; this one in Python
        assert solve(HAND, discard=True) == expected  # still compiling
        assert started == [1] and auto.compiled is None
        process.returncode = 0
        assert solve(HAND, discard=True) == expected
    assert isinstance(auto.compiled, NumbaBackend)
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2
    assert "compiling the solver kernels in the background" in messages[0] and " s)" in messages[0]
    assert messages[1].startswith("solver kernels compiled in ")


def test_a_compile_an_earlier_command_started_is_said_to_be_its(auto, monkeypatch, caplog, tmp_path):
    import fcntl

    monkeypatch.setattr(_native, "ready", lambda: False)
    monkeypatch.setattr(_native, "cache_folder", lambda: tmp_path)
    monkeypatch.setattr(_native, "start_background_compile", FakeCompile)
    auto.python_seconds = auto.PAYOFF_SECONDS
    with (tmp_path / "quiddler-kernels.lock").open("a+b") as lock, caplog.at_level(logging.INFO, logger="quiddler"):
        fcntl.flock(lock, fcntl.LOCK_EX)  # as the earlier command's compile holds it
        assert solve(HAND, discard=True).best.score == 57
    (message,) = [record.getMessage() for record in caplog.records]
    assert message.startswith("compiling the solver kernels in the background: another quiddler command started it")
    assert not _native.compile_running()  # the lock is free again


def test_a_failed_compile_stays_in_python_and_says_so(auto, monkeypatch, caplog):
    process = FakeCompile()
    monkeypatch.setattr(_native, "ready", lambda: False)
    monkeypatch.setattr(_native, "start_background_compile", lambda: process)
    auto.python_seconds = auto.PAYOFF_SECONDS
    solve(HAND)
    process.returncode = 1
    with caplog.at_level(logging.WARNING, logger="quiddler"):
        assert solve(HAND).best.score == 59
    (warning,) = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert auto.compiled is None and "failed" in warning.getMessage()
    assert auto.current() is auto.python


def test_no_writable_cache_stays_in_python_and_names_the_variable(auto, monkeypatch, caplog):
    monkeypatch.setattr(_native, "ready", lambda: False)
    monkeypatch.setattr(_native, "cache_folder", lambda: None)
    auto.python_seconds = auto.PAYOFF_SECONDS
    with caplog.at_level(logging.WARNING, logger="quiddler"):
        solve(HAND)
        solve(HAND)
    (record,) = [record for record in caplog.records if record.levelno >= logging.WARNING]  # once, not every solve
    assert "NUMBA_CACHE_DIR" in record.getMessage()
    assert auto.current() is auto.python


def test_a_big_batch_pays_for_loading_at_once(auto, monkeypatch):
    monkeypatch.setattr(_native, "ready", lambda: True)
    assert batch_backend("auto", 10) is None  # 10 hands: not worth loading numba
    assert isinstance(batch_backend("auto", 10_000), NumbaBackend)
    assert batch_backend("python", 10_000) is None


def test_a_batch_keeps_solving_in_python_while_the_kernels_compile(auto, monkeypatch):
    process = FakeCompile()
    monkeypatch.setattr(_native, "ready", lambda: process.returncode == 0)
    monkeypatch.setattr(_native, "start_background_compile", lambda: process)
    hands = [HAND, "qu,i,t", "a,b,c"] * 40
    expected = [solve(hand, backend="python") for hand in hands]
    auto.python_seconds = auto.PAYOFF_SECONDS
    assert solve_many(hands) == expected  # starts the compile, solves in Python meanwhile
    assert auto.compiled is None and auto._compiler is process
    process.returncode = 0
    assert solve_many(hands) == expected and isinstance(auto.compiled, NumbaBackend)
    assert score_many(hands) == [(s.best.score, s.best_go_out.score if s.best_go_out else None) for s in expected]


def test_notices_go_to_stderr_once_and_still_reach_the_log(capsys, caplog):
    logger = logging.getLogger("quiddler")
    saved = (list(logger.handlers), logger.level, logger.propagate)
    try:
        show_notices()
        show_notices()
        with caplog.at_level(logging.INFO, logger="quiddler"):
            logging.getLogger("quiddler.solver").info("compiling something")
        assert capsys.readouterr().err == "quiddler: compiling something\n"
        assert [record.getMessage() for record in caplog.records] == ["compiling something"]
    finally:
        logger.handlers[:], logger.level, logger.propagate = saved


def test_a_pool_worker_prints_no_notices(capsys, monkeypatch):
    """A worker forked from the command line inherits its notice handler;
    the worker's start-up removes it, so "compiling the kernels" is said
    once by the command, not once more by every worker."""
    from quiddler.game import workers

    logger = logging.getLogger("quiddler")
    saved = (list(logger.handlers), logger.level, logger.propagate)
    monkeypatch.setattr(workers.signal, "signal", lambda *args: None)  # keep this process's Ctrl-C
    try:
        show_notices()
        workers._init_worker(None)
        logging.getLogger("quiddler.solver").info("compiling something")
        assert capsys.readouterr().err == ""
        show_notices()  # and it can be shown again
        logging.getLogger("quiddler.solver").info("compiled")
        assert capsys.readouterr().err == "quiddler: compiled\n"
    finally:
        logger.handlers[:], logger.level, logger.propagate = saved


def test_the_compile_is_polled_at_most_every_so_often_but_not_forever(auto, monkeypatch):
    process = FakeCompile()
    polls = []
    real_poll = process.poll
    monkeypatch.setattr(process, "poll", lambda: polls.append(1) or real_poll())
    monkeypatch.setattr(_native, "ready", lambda: process.returncode == 0)
    monkeypatch.setattr(_native, "start_background_compile", lambda: process)
    auto._POLL_SECONDS = 0.05
    auto.python_seconds = auto.PAYOFF_SECONDS
    for _ in range(20):  # calls much closer together than the poll interval
        solve("a,b")
    assert len(polls) <= 2
    process.returncode = 0
    deadline = time.monotonic() + 5
    while auto.compiled is None and time.monotonic() < deadline:
        solve("a,b")  # keeps solving in quick succession: must still notice the end
    assert isinstance(auto.compiled, NumbaBackend)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_forked_child_does_not_wait_for_its_parents_compile(auto, monkeypatch):
    import os

    process = FakeCompile()
    monkeypatch.setattr(_native, "ready", lambda: False)
    monkeypatch.setattr(_native, "start_background_compile", lambda: process)
    auto.python_seconds = auto.PAYOFF_SECONDS
    solve(HAND)
    assert auto._compiler is process
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's compile is not ours to wait for
        os.write(write, b"1" if auto._compiler is None and not auto._given_up else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    assert auto._compiler is process  # the parent still waits for it
