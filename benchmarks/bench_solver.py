"""Solver benchmark: latency per hand size, batch throughput, word-list load.

Hands are dealt from the official deck with a fixed seed: for each round
r = 3..10, ``--hands`` hands of r + 1 cards (the dealt cards plus the drawn
one), solved in discard mode as on a turn.  Everything is measured in this
one run, so ratios hold even on a noisy shared machine where absolute times
drift:

* numba kernel: one call of the compiled kernel per hand through the
  backend (counts in, the two best plays out as integers), after warm-up;
* numba solve(): the public API end to end, value objects included;
* python solve(): the same kernels run as plain Python (the CLI's path);
* naive: the obviously-correct reference of the tests (small hands only);
* batch: solve_many() and score_many() over every hand with 1 thread and
  with all threads, and the compiled part alone (the part the threads share);
* word list: building the card trie for ENABLE with an empty cache, loading
  it from the cache, and the process's resident memory after loading, each
  in a fresh process.

Usage: python benchmarks/bench_solver.py [--hands N] [--sample N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from quiddler import default_wordlist, full_deck, score_many, solve, solve_many
from quiddler.solver._backends import get_backend
from quiddler.solver.core import _face_counts, _memo_size, _params, usable_cores

ROUNDS = range(3, 11)
RESULTS_DIR = ROOT / "benchmarks" / "results"


def machine() -> dict[str, Any]:
    import numba

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "platform": platform.platform(),
        "load_average": os.getloadavg(),
    }


def deal(seed: int, hands: int) -> dict[int, list[list[Any]]]:
    rng = random.Random(seed)
    deck = full_deck()
    return {r + 1: [rng.sample(deck, r + 1) for _ in range(hands)] for r in ROUNDS}


def timed(fn: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    """Microseconds that ``fn(*args, **kwargs)`` takes."""
    start = time.perf_counter_ns()
    fn(*args, **kwargs)
    return (time.perf_counter_ns() - start) / 1000.0


def summary(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_us": statistics.median(ordered),
        "p99_us": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "max_us": ordered[-1],
    }


def middle_sweep(sweeps: list[dict[str, float]]) -> dict[str, Any]:
    """The sweep with the median median, plus every sweep's median."""
    ordered = sorted(sweeps, key=lambda sweep: sweep["median_us"])
    middle = dict(ordered[len(ordered) // 2])
    middle["sweep_medians_us"] = [sweep["median_us"] for sweep in sweeps]
    return middle


def latency(hands: dict[int, list[list[Any]]], sample: int, repeats: int) -> dict[int, dict[str, Any]]:
    numba_backend = get_backend("numba")
    trie = default_wordlist().card_trie
    for cards in hands.values():  # warm-up: compile/load every kernel, touch the trie
        for hand in cards[:20]:
            solve(hand, discard=True, backend="numba")
            solve(hand, discard=True, backend="python")
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        from naive import enable_reference

        reference = enable_reference()
    except ImportError:
        reference = None
    rows: dict[int, dict[str, Any]] = {}
    for size, cards in hands.items():
        python, naive = [], []
        # The compiled paths are swept ``repeats`` times and each sweep's
        # median kept: on this shared machine whole sweeps drift by tens of
        # percent, so the median of the sweeps is reported with their range.
        # Each path has loops of its own: interleaving them would let
        # solve()'s Python objects evict the trie between kernel calls.
        kernel_sweeps, api_sweeps = [], []
        for _ in range(repeats):
            kernel, api = [], []
            for hand in cards:
                counts = _face_counts(hand)
                params = _params(len(hand), True, None, None, 10)
                memo = _memo_size(counts, params)
                kernel.append(timed(numba_backend.solve_counts, trie, counts, params, memo))
            for hand in cards:
                api.append(timed(solve, hand, discard=True, backend="numba"))
            kernel_sweeps.append(summary(kernel))
            api_sweeps.append(summary(api))
        for hand in cards[:sample]:
            python.append(timed(solve, hand, discard=True, backend="python"))
        if reference is not None and size <= 7:
            for hand in cards[: max(5, sample // 5)]:
                naive.append(timed(reference.ranked, hand, discard=True))
        row = {"kernel": middle_sweep(kernel_sweeps), "solve": middle_sweep(api_sweeps), "python": summary(python)}
        row["solve_over_kernel"] = row["solve"]["median_us"] / row["kernel"]["median_us"]
        row["python_over_numba_solve"] = row["python"]["median_us"] / row["solve"]["median_us"]
        if naive:
            row["naive"] = summary(naive)
            row["naive_over_numba_solve"] = row["naive"]["median_us"] / row["solve"]["median_us"]
        rows[size] = row
    return rows


def batch(hands: dict[int, list[list[Any]]]) -> dict[str, Any]:
    every = [hand for cards in hands.values() for hand in cards]
    solve_many(every[:50], discard=True, backend="numba")
    result: dict[str, Any] = {"hands": len(every)}
    threads = usable_cores()
    for n in sorted({1, threads}):
        seconds = min(timed(solve_many, every, discard=True, threads=n, backend="numba") for _ in range(3)) / 1e6
        result[f"threads_{n}_hands_per_s"] = len(every) / seconds
    for n in sorted({1, threads}):
        seconds = min(timed(score_many, every, discard=True, threads=n, backend="numba") for _ in range(3)) / 1e6
        result[f"score_many_threads_{n}_hands_per_s"] = len(every) / seconds
    # The compiled part alone (what the threads share): counts in, integers out.
    import numpy as np

    engine = get_backend("numba")
    trie = default_wordlist().card_trie
    counts = np.array([_face_counts(hand) for hand in every], dtype=np.int64)
    params = _params(max(len(h) for h in every), True, None, None, 10)
    memo = max(_memo_size(row, params) for row in counts.tolist())
    for n in sorted({1, threads}):
        seconds = min(timed(engine.solve_batch, trie, counts, params, memo, n) for _ in range(3)) / 1e6
        result[f"kernel_threads_{n}_hands_per_s"] = len(every) / seconds
    result["kernel_speedup_all_threads"] = (
        result[f"kernel_threads_{threads}_hands_per_s"] / result["kernel_threads_1_hands_per_s"]
    )
    start = time.perf_counter()
    for hand in every:
        solve(hand, discard=True, backend="numba")
    result["solve_loop_hands_per_s"] = len(every) / (time.perf_counter() - start)
    result["speedup_all_threads"] = result[f"threads_{threads}_hands_per_s"] / result["threads_1_hands_per_s"]
    return result


_PROBE = """
import os, sys, time
sys.path.insert(0, {root!r})
from quiddler import default_wordlist
start = time.perf_counter()
trie = default_wordlist().card_trie  # read the list, hash it, load and check the cached trie
elapsed = time.perf_counter() - start
rss = 0
for line in open("/proc/self/status"):
    if line.startswith("VmRSS:"):
        rss = int(line.split()[1]) / 1024
if {with_numba}:
    from quiddler import solve
    solve("a,b", backend="numba")
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            rss_numba = int(line.split()[1]) / 1024
else:
    rss_numba = 0
print(elapsed, rss, rss_numba)
"""


def probe(cache: str, with_numba: bool = False) -> tuple[float, float, float]:
    env = dict(os.environ, QUIDDLER_CACHE_DIR=cache)
    code = _PROBE.format(root=str(ROOT), with_numba=with_numba)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    seconds, rss, rss_numba = map(float, out.stdout.split())
    return seconds, rss, rss_numba


def wordlist_figures(runs: int) -> dict[str, Any]:
    builds = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as empty:
            builds.append(probe(empty)[0])
    from quiddler.wordlist import cache_dir

    assert default_wordlist().card_trie.edge_count  # make sure the real cache is filled
    loads = [probe(str(cache_dir())) for _ in range(runs)]
    with_numba = probe(str(cache_dir()), with_numba=True)
    return {
        "first_build_s": statistics.median(builds),
        "cached_load_ms": statistics.median(t for t, _, _ in loads) * 1000,
        "rss_after_load_mb": statistics.median(r for _, r, _ in loads),
        "rss_with_numba_mb": with_numba[2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per size (default 1000)")
    parser.add_argument("--sample", type=int, default=100, help="hands per size for the python backend")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=3, help="sweeps of the compiled paths (default 3)")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "solver.json"))
    args = parser.parse_args()

    info = machine()
    hands = deal(args.seed, args.hands)
    words = wordlist_figures(runs=7)
    rows = latency(hands, args.sample, args.repeats)
    throughput = batch(hands)

    print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numba {info['numba']}")
    print(f"load average at start: {info['load_average']}")
    print(f"hands: {args.hands} per size, seed {args.seed}, discard mode; times in microseconds;")
    print(f"compiled paths: the median sweep of {args.repeats} (range of sweep medians at the end)\n")
    header = f"{'cards':>5} {'kernel med':>10} {'p99':>8} {'max':>8} {'solve med':>10} {'p99':>8} {'solve/k':>7}"
    header += f" {'python med':>11} {'py/numba':>9} {'naive med':>10} {'naive/numba':>11}"
    print(header)
    for size, row in rows.items():
        naive = row.get("naive")
        print(
            f"{size:>5} {row['kernel']['median_us']:>10.1f} {row['kernel']['p99_us']:>8.1f}"
            f" {row['kernel']['max_us']:>8.0f} {row['solve']['median_us']:>10.1f} {row['solve']['p99_us']:>8.1f}"
            f" {row['solve_over_kernel']:>7.2f}"
            f" {row['python']['median_us']:>11.0f} {row['python_over_numba_solve']:>9.0f}"
            + (f" {naive['median_us']:>10.0f} {row['naive_over_numba_solve']:>11.0f}" if naive else "")
        )
    print("\nsweep medians (kernel | solve):")
    for size, row in rows.items():
        kernel_range = ", ".join(f"{m:.1f}" for m in row["kernel"]["sweep_medians_us"])
        solve_range = ", ".join(f"{m:.1f}" for m in row["solve"]["sweep_medians_us"])
        print(f"  {size:>2} cards: {kernel_range} | {solve_range}")
    print(f"\nbatch solve_many over {throughput['hands']} hands:")
    for key, value in throughput.items():
        if key != "hands":
            print(f"  {key}: {value:,.1f}")
    print("\nword list (ENABLE), each in a fresh process:")
    print(f"  first build: {words['first_build_s']:.2f} s")
    print(f"  load from cache: {words['cached_load_ms']:.1f} ms")
    print(f"  resident memory after loading: {words['rss_after_load_mb']:.0f} MB")
    print(f"  resident memory with numba kernels loaded: {words['rss_with_numba_mb']:.0f} MB")

    result = {"machine": info, "seed": args.seed, "hands_per_size": args.hands, "latency": rows,
              "batch": throughput, "wordlist": words}  # fmt: skip
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwrote {path}")
    if path.resolve().parent == RESULTS_DIR:
        from plots import draw_after_benchmark

        draw_after_benchmark("solve_time")  # docs/images/ shows this run


if __name__ == "__main__":
    main()
