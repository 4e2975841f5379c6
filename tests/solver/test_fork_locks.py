"""A process forked while another thread of its parent holds one of the
solver's module locks (making a backend, loading the compiled kernels) must
get a lock of its own: the thread that held it does not exist in the child,
so the child's first solve would otherwise wait for ever."""

from __future__ import annotations

import os
import threading
import time

import pytest

from quiddler.solver import _backends, _native

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX only")


def _fork_while_held(module) -> int:  # type: ignore[no-untyped-def]
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
                os._exit(0 if module._lock.acquire(timeout=5) else 1)
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
def test_a_child_forked_while_a_solver_lock_is_held_gets_a_fresh_one(module) -> None:  # type: ignore[no-untyped-def]
    assert _fork_while_held(module) == 0


def test_a_child_can_solve_after_a_fork_during_backend_creation() -> None:
    from quiddler import solve

    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with _backends._lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(30)
    try:
        pid = os.fork()
        if pid == 0:
            try:
                _backends._backends.clear()  # the child must make its backend anew, under the lock
                os._exit(0 if solve("qu,i,t", backend="python").best.score == 14 else 1)
            finally:
                os._exit(2)
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline and status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            status = code if done else None
            time.sleep(0.05)
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung on the backends' lock")
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        release.set()
        thread.join()
