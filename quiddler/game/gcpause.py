"""Automatic garbage collection held off while a search simulates.

A search plays thousands of simulated moves, and the players' memos and
caches keep many of the objects those moves make: enough that Python's
cycle collector ran every few hundred allocations and, every few
searches, a full collection over the whole heap (long, on a heap that
large) landed on whichever decision came next.  Simulated moves
make almost no reference cycles, so while a search runs the collector is
switched off and the memory is freed by reference counting as before; the
collector is switched back on when the last search running in the process
ends (the cycles, if any, are collected then), and never if it was off when
the first began.  A server whose tables keep searches running one over
another would otherwise never collect again: so a search that ends when
the collector has been off for :data:`LONGEST_PAUSE` seconds collects
once, as the collector would have.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collection_paused"]

_lock = threading.Lock()
_running = 0  # searches under way in this process
_was_enabled = False  # whether the collector was on when the first of them began
_since = 0.0  # when it was last switched off, or collected by a search ending

#: The longest the collector stays off while searches overlap (seconds).
LONGEST_PAUSE = 10.0


@contextmanager
def collection_paused() -> Iterator[None]:
    """Hold off automatic garbage collection for the duration (nested and
    concurrent uses are counted: the last one out restores it)."""
    global _running, _was_enabled, _since
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            _since = time.monotonic()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        collect = False
        with _lock:
            _running -= 1
            if _running == 0 and _was_enabled:
                gc.enable()
            elif _running and _was_enabled and time.monotonic() - _since >= LONGEST_PAUSE:
                _since, collect = time.monotonic(), True
        if collect:
            gc.collect()
