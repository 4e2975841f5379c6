"""Batch throughput and steady-state latency, this tree against a baseline
commit in the same run: ``solve_many`` and ``score_many`` over the seeded
deals of bench_solver.py (1,000 hands of each size from 4 to 11 cards,
discard mode), and the compiled batch kernel alone over them, with one thread
and with every core; and the median and p99
of one compiled kernel call (through the backend, as bench_solver.py
measures it), of one ``solve()`` and of one ``Solver(backend="numba").solve()``
on the 11-card hands ("prepared_solve"; in a tree from before the Solver,
its ``solve()`` again: the call the prepared one must not be slower than).  Compiled backend,
kernels already cached.

Throughput is given per second of wall time and per second of the process's
CPU time (all threads): the CPU figure hardly moves with the load other
processes put on the machine, so its ratio is the steadier one.

Each measurement runs in a fresh process per tree (the trees alternate,
``--repeats`` times, so drift on this shared machine hits both alike); a
process reports the best of three timings of each call.  Ratios between the
trees within one run are what to compare.

Usage: python benchmarks/bench_batch.py [--baseline REV] [--repeats N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path

from compare import ROOT, baseline_rev, checkout, medians_and_ratios, round_robin, run_probe

_PROBE = """
import functools, json, os, random, time
from quiddler import full_deck, score_many, solve_many
rng = random.Random(2026)
deck = full_deck()
hands = [rng.sample(deck, r + 1) for r in range(3, 11) for _ in range({hands})]
extra = {{"backend": "numba"}} if {new_api} else {{}}
solve_many(hands[:50], discard=True, **extra)
score_many(hands[:50], discard=True, **extra)
cores = len(os.sched_getaffinity(0))

def seconds(fn, threads):
    started, cpu = time.perf_counter(), time.process_time()
    fn(hands, discard=True, threads=threads, **extra)
    return time.perf_counter() - started, time.process_time() - cpu

out = {{}}
for name, fn in (("solve_many", solve_many), ("score_many", score_many)):
    for threads in sorted({{1, cores}}):
        timings = [seconds(fn, threads) for _ in range(3)]
        out[f"{{name}}_threads_{{threads}}_hands_per_s"] = len(hands) / min(wall for wall, _ in timings)
        out[f"{{name}}_threads_{{threads}}_hands_per_cpu_s"] = len(hands) / min(cpu for _, cpu in timings)

from quiddler import default_wordlist, solve
from quiddler.solver._backends import get_backend
from quiddler.solver.core import _face_counts, _memo_size, _params
try:
    from quiddler import Solver
    prepared = Solver(backend="numba").solve
except ImportError:  # a tree from before the Solver: its solve() is the one to beat
    prepared = functools.partial(solve, backend="numba")
engine = get_backend("numba")
trie = default_wordlist().card_trie
# The compiled batch alone (what solve_many's threads share), as bench_solver.py calls it.
import numpy as np
counts = np.array([_face_counts(h) for h in hands], dtype=np.int64)
params = _params(11, True, None, None, 10)
memo = max(_memo_size(row, params) for row in counts.tolist())
engine.solve_batch(trie, counts[:50], params, memo, 1)
for threads in sorted({{1, cores}}):
    timings = []
    for _ in range(3):
        started, cpu = time.perf_counter(), time.process_time()
        engine.solve_batch(trie, counts, params, memo, threads)
        timings.append((time.perf_counter() - started, time.process_time() - cpu))
    out[f"kernel_batch_threads_{{threads}}_hands_per_s"] = len(hands) / min(wall for wall, _ in timings)
    out[f"kernel_batch_threads_{{threads}}_hands_per_cpu_s"] = len(hands) / min(cpu for _, cpu in timings)
eleven = hands[-{hands}:]
for label, call in (("kernel", lambda h, c, p, m: engine.solve_counts(trie, c, p, m)),
                    ("solve", lambda h, c, p, m: solve(h, discard=True, backend="numba")),
                    ("prepared_solve", lambda h, c, p, m: prepared(h, discard=True))):
    sweeps = []
    for _ in range(3):
        times = []
        for h in eleven:
            c = _face_counts(h); p = _params(11, True, None, None, 10); m = _memo_size(c, p)
            started = time.perf_counter_ns()
            call(h, c, p, m)
            times.append((time.perf_counter_ns() - started) / 1000)
        times.sort()
        sweeps.append((times[len(times) // 2], times[int(len(times) * 0.99)]))
    sweeps.sort()
    out[f"{{label}}_11_median_us"], out[f"{{label}}_11_p99_us"] = sweeps[1]
print(json.dumps(out))
"""


def probe(tree: Path, hands: int, new_api: bool) -> dict[str, float]:
    return run_probe(tree, _PROBE.format(hands=hands, new_api=new_api))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="commit to compare with (default: merge-base with main)")
    parser.add_argument("--hands", type=int, default=1000, help="hands per size (default 1000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "batch.json"))
    args = parser.parse_args()
    baseline = baseline_rev(args.baseline)
    with tempfile.TemporaryDirectory(prefix="quiddler-batch-") as folder:
        trees = {"baseline": (checkout(baseline, Path(folder) / "baseline"), False), "this tree": (ROOT, True)}
        for tree, new_api in trees.values():  # fill each tree's numba cache first
            probe(tree, 5, new_api)
        runs = round_robin(trees, args.repeats, lambda tree: probe(tree[0], args.hands, tree[1]), ",.1f")
    medians, ratios = medians_and_ratios(runs)
    print(f"\nmedians of {args.repeats} processes (hands/s: each the best of 3; us: the middle of 3 sweeps);"
          f" baseline {baseline[:10]}")  # fmt: skip
    for k in medians["baseline"]:
        print(f"{k:<36} {medians['baseline'][k]:>10,.1f} {medians['this tree'][k]:>10,.1f} {ratios[k]:>6.2f}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "load_average_after": os.getloadavg()}
    result = {"machine": machine, "baseline": baseline, "hands": 8 * args.hands, "runs": runs, "medians": medians,
              "ratio_this_tree_to_baseline": ratios,
              "note": "2 shared, noisy cores: compare the trees within this run"}  # fmt: skip
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
