"""The threads the computer players and the hints think in, shared fairly.

A decision or a hint runs in a thread (the solver's compiled kernels
release the GIL), and a thread cannot be stopped: work that has started
runs to its end even when nobody waits for it any more.  So the pool
bounds what any one client's tables can hold: at most ``share`` threads
run work of one client at once, and the free threads go to the clients
in turn (round robin), each client's work in the order it was asked.  A
flood of tables full of computer seats, made by one client, then queues
behind its own share while every other client's tables go on.  Work that
times out before it started is dropped, never run: a timeout leaves no
work behind but what is already running.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = ["FairPool"]

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class _Job(Generic[T]):
    work: Callable[[], T]
    done: asyncio.Future[T]


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    """Hand ``callback`` to the loop from a worker thread (nothing to do if the loop has closed)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback)


class FairPool:
    """``workers`` threads; at most ``share`` of them busy with one client's work."""

    def __init__(self, workers: int, share: int) -> None:
        self.workers = workers
        self.share = max(1, min(share, workers))
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=workers,
                                                               thread_name_prefix="quiddler-player")  # fmt: skip
        self._waiting: dict[str, deque[_Job[Any]]] = {}  # in turn order: the next client first
        self._running: dict[str, int] = {}
        self._busy = 0
        self._closed = False

    def running(self, client: str) -> int:
        """Threads busy with ``client``'s work now."""
        return self._running.get(client, 0)

    def waiting(self, client: str) -> int:
        """``client``'s work not started yet."""
        return len(self._waiting.get(client, ()))

    async def run(self, client: str, work: Callable[[], T], timeout: float) -> T:
        """``work()`` in a thread, in ``client``'s turn: its result, or its
        exception; TimeoutError after ``timeout`` seconds (dropped if it had
        not started; left to finish on its own if it had)."""
        done = self.submit(client, work)
        try:
            return await asyncio.wait_for(asyncio.shield(done), timeout)
        except (TimeoutError, asyncio.CancelledError):
            self.drop(client, done)
            raise

    def submit(self, client: str, work: Callable[[], T]) -> asyncio.Future[T]:
        """Queue ``work`` in ``client``'s turn: a future of its result, set
        when it ends (cancelled if it is dropped before it starts)."""
        if self._closed:
            raise RuntimeError("the pool is closed")
        job: _Job[T] = _Job(work, asyncio.get_running_loop().create_future())
        self._waiting.setdefault(client, deque()).append(job)
        self._dispatch()
        return job.done

    def drop(self, client: str, done: asyncio.Future[Any]) -> None:
        """Drop the work of ``done`` if it has not started (it then never runs)."""
        queue = self._waiting.get(client, deque())
        for job in queue:
            if job.done is done:
                queue.remove(job)
                done.cancel()
                break
        if not queue:
            self._waiting.pop(client, None)

    def _dispatch(self) -> None:
        """Start waiting work while threads are free: each client in turn, within its share."""
        while self._busy < self.workers and not self._closed:
            client = next((c for c in self._waiting if self._running.get(c, 0) < self.share), None)
            if client is None:
                return
            queue = self._waiting.pop(client)
            job = queue.popleft()
            if queue:
                self._waiting[client] = queue  # to the back of the turn order
            self._start(client, job)

    def _start(self, client: str, job: _Job[Any]) -> None:
        self._busy += 1
        self._running[client] = self._running.get(client, 0) + 1
        loop = asyncio.get_running_loop()
        future = self._executor.submit(job.work)
        future.add_done_callback(lambda f: _call_soon(loop, lambda: self._finished(client, job, f)))

    def _finished(self, client: str, job: _Job[Any], future: concurrent.futures.Future[Any]) -> None:
        self._busy -= 1
        self._running[client] -= 1
        if not self._running[client]:
            del self._running[client]
        if future.cancelled():  # the pool closed before a thread took it up
            job.done.cancel()
        elif not job.done.done():
            exc = future.exception()
            if exc is not None:
                job.done.set_exception(exc)
            else:
                job.done.set_result(future.result())
        self._dispatch()

    def close(self) -> None:
        """Start nothing more; what runs finishes on its own."""
        self._closed = True
        for queue in self._waiting.values():
            for job in queue:
                job.done.cancel()
        self._waiting.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)
