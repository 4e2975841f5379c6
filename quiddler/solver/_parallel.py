"""When the parallel batch kernel may run: one thread at a time, and never
in a child forked after it ran under GNU OpenMP.

:func:`~quiddler.solver.score_many` and :func:`~quiddler.solver.solve_many`
run one numba ``parallel=True`` kernel over every core.  Two of numba's
threading layers cannot take every caller:

* ``workqueue`` (numba's fallback where neither TBB nor OpenMP is
  installed) is not thread-safe: two threads inside a parallel kernel at
  once abort the whole process ("Concurrent access has been detected").
  So batch calls hold :data:`BATCH_LOCK`; a batch already uses every core,
  so serialising them costs no throughput.
* GNU OpenMP does not survive ``fork()``: a child forked after the kernel
  ran is killed (or, in a ``multiprocessing`` pool, hangs its parent) the
  moment it enters a parallel region.  A fork handler notes it, and such a
  child solves its batches with the serial compiled kernel instead: the
  same answers, one core.

The lock is replaced in a forked child (a fork while another thread held it
would otherwise leave it locked forever).
"""

from __future__ import annotations

import os
import threading

__all__ = ["BATCH_LOCK", "batch_ran", "parallel_allowed"]

#: Held around every run of the parallel batch kernel.
BATCH_LOCK = threading.Lock()

#: Threading layers known to keep working in a forked child.
_FORK_SAFE_LAYERS = frozenset({"tbb", "workqueue"})

_ran_layer: str | None = None  # the threading layer this process has run the kernel on
_forked_unsafely = False


def batch_ran() -> None:
    """Record that this process has run the parallel kernel (call under the lock, after a run)."""
    global _ran_layer
    if _ran_layer is None:
        import numba

        _ran_layer = str(numba.threading_layer())  # type: ignore[attr-defined]


def parallel_allowed() -> bool:
    """False in a child forked after the parallel kernel ran on a layer that
    is not fork-safe: such a process must use the serial kernel."""
    return not _forked_unsafely


def _after_fork_in_child() -> None:
    global BATCH_LOCK, _forked_unsafely
    BATCH_LOCK = threading.Lock()
    if _ran_layer is not None and _ran_layer not in _FORK_SAFE_LAYERS:
        _forked_unsafely = True


os.register_at_fork(after_in_child=_after_fork_in_child)
