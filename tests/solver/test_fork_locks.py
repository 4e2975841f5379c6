"""A process forked while another thread of its parent holds one of the
solver's module locks (making a backend, loading the compiled kernels) must
get a lock of its own: the thread that held it does not exist in the child,
so the child's first solve would otherwise wait for ever."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from quiddler.solver import _backends, _native

from ..forking import exit_code_of_child_forked_while_held

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX only")


@pytest.mark.parametrize("module", [_backends, _native], ids=["backends", "native"])
def test_a_child_forked_while_a_solver_lock_is_held_gets_a_fresh_one(module: ModuleType) -> None:
    assert exit_code_of_child_forked_while_held(module._lock, lambda: module._lock.acquire(timeout=5)) == 0


def test_a_child_can_solve_after_a_fork_during_backend_creation() -> None:
    from quiddler import solve

    def child() -> bool:
        _backends._backends.clear()  # the child must make its backend anew, under the lock
        return solve("qu,i,t", backend="python").best.score == 14

    assert exit_code_of_child_forked_while_held(_backends._lock, child) == 0
