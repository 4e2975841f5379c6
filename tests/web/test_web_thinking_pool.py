"""The thinking threads' pool on its own: never more work started than it
has threads, whatever finishes when, free threads go to the clients in
turn, and a closed pool starts nothing more."""

from __future__ import annotations

import asyncio
import threading

import pytest

from quiddler.web.thinking import FairPool


def test_no_more_work_runs_at_once_than_the_pool_has_threads() -> None:
    async def scenario() -> None:
        pool = FairPool(workers=2, share=2)
        gates = {name: threading.Event() for name in ("a1", "a2", "b1", "b2")}
        done = {name: pool.submit(name[0], gate.wait) for name, gate in gates.items()}
        try:
            assert (pool.running("a"), pool.running("b"), pool.waiting("b")) == (2, 0, 2)
            gates["a1"].set()
            await done["a1"]
            # One thread came free: it goes to b's first work, and only that one.
            assert (pool.running("a"), pool.running("b"), pool.waiting("b")) == (1, 1, 1)
            gates["a2"].set()
            await done["a2"]
            assert (pool.running("a"), pool.running("b"), pool.waiting("b")) == (0, 2, 0)
        finally:  # whatever failed: let the work end (what never started is left), then close
            for gate in gates.values():
                gate.set()
            await asyncio.wait(done.values(), timeout=30)
            pool.close()

    asyncio.run(scenario())


def test_a_closed_pool_cancels_the_waiting_work_and_takes_no_more() -> None:
    async def scenario() -> None:
        pool = FairPool(workers=1, share=1)
        gate, started = threading.Event(), threading.Event()

        def work() -> bool:
            started.set()
            return gate.wait()

        running = pool.submit("a", work)
        waiting = pool.submit("a", lambda: "never")
        while not started.is_set():  # closed before its thread took it, the work would be cancelled
            await asyncio.sleep(0.01)
        pool.close()
        assert waiting.cancelled()
        with pytest.raises(RuntimeError, match="closed"):
            pool.submit("b", lambda: "never")
        gate.set()
        assert await running is True

    asyncio.run(scenario())


def test_work_a_closing_pool_cancels_before_its_thread_took_it_ends_cancelled() -> None:
    """Work handed to a thread that had not picked it up yet when the pool
    closed (a server shutting down) is cancelled, without an error."""
    failures: list[dict[str, object]] = []

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: failures.append(context))
        pool = FairPool(workers=1, share=1)
        gate = threading.Event()
        pool._executor.submit(gate.wait)  # the pool's one thread busy, as a thread that just finished is
        done = pool.submit("a", lambda: 1)  # handed to the thread, not started
        pool.close()
        gate.set()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(done, 30)  # (TimeoutError: it never ended)

    asyncio.run(scenario())
    assert failures == []
