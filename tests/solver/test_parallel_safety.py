"""score_many/solve_many from several threads and in forked children
(a numba ``parallel=True`` batch kernel once aborted the process under
the workqueue layer and killed forked children under OpenMP).
Each case runs in a fresh interpreter, because numba's threading layer is
chosen once per process and a failure aborts it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

_PRELUDE = """
import os, sys, threading
from quiddler import score_many, solve_many
import numba
hands = ["qu,i,t,e,a,t,s", "a,b,c,d,e,f,g", "th,e,r,m,o,s", "z,z,x"] * 100
expected = score_many(hands, backend="numba")
"""

_THREADS = _PRELUDE + """
results = []
def work():
    for _ in range(10):
        results.append(score_many(hands, threads=2, backend="numba") == expected)
        solutions = solve_many(hands[:40], backend="numba")
        results.append([s.best.score for s in solutions] == [e[0] for e in expected[:40]])
threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
assert len(results) == 80 and all(results), results
print(numba.config.THREADING_LAYER, "ok")
"""

_FORK = _PRELUDE + """
pid = os.fork()
if pid == 0:
    os._exit(0 if score_many(hands, backend="numba") == expected else 3)
_, status = os.waitpid(pid, 0)
assert status == 0, f"child status {status}"
import multiprocessing
with multiprocessing.get_context("fork").Pool(2) as pool:
    assert pool.map(score_many, [hands[:50], hands[50:120]]) == [expected[:50], expected[50:120]]
assert score_many(hands, backend="numba") == expected  # the parent still runs its batches
print(numba.config.THREADING_LAYER, "ok")
"""


def _run(script: str, layer: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("NUMBA_THREADING_LAYER", None)
    if layer is not None:
        env["NUMBA_THREADING_LAYER"] = layer
    command = [sys.executable, "-c", textwrap.dedent(script)]
    return subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=240)


def _layer_available(layer: str) -> bool:
    probe = _run("import numba, numpy\n@numba.njit(parallel=True)\ndef f(a):\n    s = 0.0\n"
                 "    for i in numba.prange(len(a)):\n        s += a[i]\n    return s\nf(numpy.ones(8))", layer)
    return probe.returncode == 0


def test_batches_from_several_threads_on_the_workqueue_layer() -> None:
    # workqueue is not thread-safe: without the batch lock this aborts (rc 134).
    result = _run(_THREADS, "workqueue")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["workqueue", "ok"]


@pytest.mark.parametrize("layer", [None, "omp"])
def test_batches_in_children_forked_after_a_batch(layer: str | None) -> None:
    # GNU OpenMP kills a forked child that enters a parallel region (a
    # multiprocessing pool then hangs): children fall back to the serial kernel.
    if layer is not None and not _layer_available(layer):
        pytest.skip(f"numba's {layer} threading layer is not installed here")
    result = _run(_FORK, layer)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-1] == "ok"
