"""The worker pool's parent: it hands out tasks a few at a time (never the
whole plan at once), keeps checking a compile it started before forking
(so the "compiled" notice comes), shuts down even when a worker ended
part-way through sending a result, and its Dask timeout must be a number of
seconds."""

from __future__ import annotations

import json
import math
import socket
import subprocess
import sys
from typing import Any

import pytest

from quiddler.errors import ArgumentTypeError, InvalidArgumentError
from quiddler.game import workers

#: The two runs below, each in a fresh interpreter: whether the test process
#: itself could fork depends on the tests before it (a progress bar's monitor
#: thread, a Dask client's), and where it could not, they would never run.
_HANDED_OUT = """
import json
from quiddler.game import Rules, workers
from quiddler.game.runner import simulate

outstanding = []
real = workers._in_order

def spy(started, jobs, submit, slots, stop, idle=None):
    window = list(started)

    def counting(job):
        future = submit(job)
        window.append(future)
        outstanding.append(sum(not f.done() for f in window))
        return future

    return real(started, jobs, counting, slots, stop, idle)

method = workers.start_method()
workers._in_order = spy
stats = simulate(["greedy", "random"], 400, seed=2, rules=Rules(round_sizes=(3, 4)), workers=2)
print(json.dumps({"method": method, "games": stats.games, "outstanding": outstanding, "ahead": workers._AHEAD}))
"""

_COMPILE_CHECKED = """
import json
from quiddler.game import Rules, workers
from quiddler.game.runner import simulate

calls = []
method = workers.start_method()
workers._expect_much_solving = lambda: calls.append(1)
simulate(["greedy", "random"], 60, seed=3, rules=Rules(round_sizes=(3, 4)), workers=2)
print(json.dumps({"method": method, "calls": len(calls)}))
"""


def _fresh(code: str) -> dict[str, Any]:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_tasks_are_handed_out_a_few_at_a_time() -> None:
    seen = _fresh(_HANDED_OUT)
    assert seen["method"] == "fork" and seen["games"] == 400 and seen["outstanding"]
    assert max(seen["outstanding"]) <= seen["ahead"] * 2 + 1  # a window, not the whole plan


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="only a forked pool's parent compiles before forking")
def test_a_forked_pools_parent_goes_on_checking_the_compile() -> None:
    seen = _fresh(_COMPILE_CHECKED)
    assert seen["method"] == "fork"
    assert seen["calls"] >= 2  # once before forking, then again while waiting for results


@pytest.mark.parametrize("timeout", [math.nan, math.inf, -1.0, 0.0])
def test_a_dask_timeout_must_be_a_positive_finite_number(timeout: float) -> None:
    refused = pytest.raises(InvalidArgumentError, match="timeout must be a positive, finite number of seconds")
    with refused, workers.dask_client("tcp://127.0.0.1:9", 1, timeout=timeout):
        pass  # pragma: no cover


def test_a_local_clusters_http_server_keeps_to_a_free_loopback_port(recwarn: pytest.WarningsRecorder) -> None:
    """The scheduler of a local cluster serves HTTP (its metrics; there is
    no dashboard) on a port of the loopback the system picks, never on
    Dask's own 8787: another cluster may hold that one, and Dask then
    warned of a port nobody here uses."""
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 8787))
        holder.listen()
    except OSError:
        pass  # something holds it already: the case in point
    try:
        with workers.dask_client(None, 1) as client:
            http = client.cluster.scheduler.http_server
            address, port = http.address, http.port
    finally:
        holder.close()
    assert address == "127.0.0.1" and port != 8787
    assert not [w for w in recwarn if "already in use" in str(w.message)]


def test_a_dask_timeout_that_is_not_a_number_is_a_type_error() -> None:
    refused = pytest.raises(ArgumentTypeError, match="timeout must be a number of seconds, not '10'")
    with refused, workers.dask_client("tcp://127.0.0.1:9", 1, timeout="10"):  # type: ignore[arg-type]
        pass  # pragma: no cover


#: A pool whose manager thread is part-way through reading a result, as when a
#: worker ended while sending one (a signal to the whole process group): the
#: result pipe holds a message's length and only the start of it.
_MID_MESSAGE = """
import multiprocessing, struct, time
from concurrent.futures import ProcessPoolExecutor
from quiddler.game.workers import _abandon
pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
assert pool.submit(abs, -1).result() == 1
pool._result_queue._writer._send(struct.pack("!i", 1_000_000) + b"x" * 100)
time.sleep(0.5)
_abandon(pool)
print("abandoned")
"""


def test_a_pool_abandoned_mid_message_shuts_down() -> None:
    run = subprocess.run([sys.executable, "-c", _MID_MESSAGE], check=False, capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 0 and run.stdout == "abandoned\n", run.stderr
