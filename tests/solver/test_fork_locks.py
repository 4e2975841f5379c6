"""A process forked while another thread of its parent holds one of the
solver's module locks (making a backend, loading the compiled kernels) must
get a lock of its own: the thread that held it does not exist in the child,
so the child's first solve would otherwise wait for ever."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import ModuleType

import pytest

from quiddler.solver import _backends, _native

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX only")


def _exit_code_of_child_forked_while_held(module: ModuleType, child: Callable[[], bool]) -> int:
    """Fork while a thread holds ``module._lock``; the child's exit code is
    0 if ``child()`` is true, -1 if it was still waiting after 30 s."""
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with module._lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(30)
    try:
        pid = os.fork()
        if pid == 0:
            try:
                os._exit(0 if child() else 1)
            finally:
                os._exit(2)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return -1
    finally:
        release.set()
        thread.join()


@pytest.mark.parametrize("module", [_backends, _native], ids=["backends", "native"])
def test_a_child_forked_while_a_solver_lock_is_held_gets_a_fresh_one(module: ModuleType) -> None:
    assert _exit_code_of_child_forked_while_held(module, lambda: module._lock.acquire(timeout=5)) == 0


def test_a_child_can_solve_after_a_fork_during_backend_creation() -> None:
    from quiddler import solve

    def child() -> bool:
        _backends._backends.clear()  # the child must make its backend anew, under the lock
        return solve("qu,i,t", backend="python").best.score == 14

    assert _exit_code_of_child_forked_while_held(_backends, child) == 0
