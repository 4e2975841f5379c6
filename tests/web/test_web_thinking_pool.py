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
        finally:  # whatever failed: end the work that runs, cancel the rest
            for gate in gates.values():
                gate.set()
            pool.close()
            await asyncio.gather(*done.values(), return_exceptions=True)

    asyncio.run(scenario())


def test_a_closed_pool_cancels_the_waiting_work_and_takes_no_more() -> None:
    async def scenario() -> None:
        pool = FairPool(workers=1, share=1)
        gate = threading.Event()
        running = pool.submit("a", gate.wait)
        waiting = pool.submit("a", lambda: "never")
        pool.close()
        assert waiting.cancelled()
        with pytest.raises(RuntimeError, match="closed"):
            pool.submit("b", lambda: "never")
        gate.set()
        assert await running is True

    asyncio.run(scenario())
