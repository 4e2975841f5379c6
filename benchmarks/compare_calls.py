"""The CPU time of one call, this tree against a baseline commit in the same
run: the compiled kernel (through the backend), the module-level ``solve()``
and a prepared ``Solver(backend="numba").solve()`` (in a tree from before the
Solver, its ``solve()`` again), on 300 seeded discard-mode hands of 4, 6, 8
and 11 cards; and ``solve(backend="python")``, the pure-Python backend, on
the first 60 of them; then a computer player's other calls: a prepared
solve of the 11-card hands with bonus targets (as a final turn asks), and
``score_many`` of batches of 32 hands of one size on one thread (per hand).

CPU time, not wall time: on this shared machine the other processes' load
moves wall-time figures by more than the differences sought.  Each tree runs
in a fresh process per repeat, the trees alternating; a process reports, per
figure, the fastest of 7 sweeps over the hands (microseconds per call), the
sweeps of the kernel, ``solve()`` and the prepared solve taking turns, and
``solve_over_kernel_N``, its own ``solve()`` over its kernel.

Usage: python benchmarks/compare_calls.py [--baseline REV] [--repeats N] [--json PATH]
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
import json, random, time
from quiddler import default_wordlist, full_deck, solve
from quiddler.solver._backends import get_backend
from quiddler.solver.core import _face_counts, _memo_size, _params
try:
    from quiddler import Solver
    prepared = Solver(backend="numba").solve
except ImportError:  # a tree from before the Solver: its solve() is the one to beat
    prepared = lambda hand, discard: solve(hand, discard=discard, backend="numba")
engine = get_backend("numba")
trie = default_wordlist().card_trie
rng = random.Random(2026)
deck = full_deck()

def per_call(fn, items):
    best = float("inf")
    for _ in range(7):
        started = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - started)
    return best / len(items) * 1e6

def sweep(fn, items):
    started = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - started) / len(items) * 1e6

def interleaved(figures):
    # Each figure's fastest of 7 sweeps, the sweeps of the figures taking turns, so that
    # a change of load on the shared machine weighs on all of them alike.
    best = dict.fromkeys(figures, float("inf"))
    for _ in range(7):
        for key, (fn, items) in figures.items():
            best[key] = min(best[key], sweep(fn, items))
    return best

out = {}
for size in (4, 6, 8, 11):
    hands = [rng.sample(deck, size) for _ in range(300)]
    for hand in hands[:50]:
        solve(hand, discard=True, backend="numba")
    jobs = []
    for hand in hands:
        counts, params = _face_counts(hand), _params(size, True, None, None, 10)
        jobs.append((counts, params, _memo_size(counts, params)))
    out.update(interleaved({
        f"kernel_{size}_cpu_us": (lambda job: engine.solve_counts(trie, *job), jobs),
        f"solve_{size}_cpu_us": (lambda hand: solve(hand, discard=True, backend="numba"), hands),
        f"prepared_solve_{size}_cpu_us": (lambda hand: prepared(hand, discard=True), hands),
    }))
    out[f"solve_over_kernel_{size}"] = out[f"solve_{size}_cpu_us"] / out[f"kernel_{size}_cpu_us"]
    # The pure-Python backend (a one-shot solve's, the browser's): fewer hands, it is slower.
    out[f"python_solve_{size}_cpu_us"] = per_call(lambda hand: solve(hand, discard=True, backend="python"), hands[:60])
# A computer player's other calls: a final turn's solve with bonus targets (tuples of cards,
# the options as the players give them), and its decisions' batches of hands of one size
# scored on one thread (per hand).
try:
    from quiddler import Solver
    players = Solver(backend="numba")
    players.solve(hands[0], discard=True)
except ImportError:  # a tree from before the Solver
    players = None
if players is not None:
    targets = ((5, None), (None, 2), (4, 3))
    finals = [(tuple(hand), targets[i % 3]) for i, hand in enumerate(hands)]  # the 11-card hands
    def final(item):
        hand, (longest, words) = item
        players.solve(hand, discard=True, beat_longest=longest, beat_words=words, bonus=10000)
    batches = [[tuple(rng.sample(deck, size)) for _ in range(32)] for size in (5, 8, 9) for _ in range(10)]
    def batch(hands):
        players.score_many(hands, discard=True, threads=1)
    for item in finals[:50]:
        final(item)
    best = interleaved({"targets_solve_11_cpu_us": (final, finals), "score_many_per_hand_cpu_us": (batch, batches)})
    out["targets_solve_11_cpu_us"] = best["targets_solve_11_cpu_us"]
    out["score_many_per_hand_cpu_us"] = best["score_many_per_hand_cpu_us"] / 32
print(json.dumps(out))
"""


def probe(tree: Path) -> dict[str, float]:
    return run_probe(tree, _PROBE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="commit to compare with (default: merge-base with main)")
    parser.add_argument("--repeats", type=int, default=9, help="processes per tree (default 9)")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "calls-vs-baseline.json"))
    args = parser.parse_args()
    baseline = baseline_rev(args.baseline)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="quiddler-calls-") as folder:
        trees = {"baseline": checkout(baseline, Path(folder) / "baseline"), "this tree": ROOT}
        for tree in trees.values():  # fill each tree's numba cache first
            probe(tree)
        runs = round_robin(trees, args.repeats, probe, ".2f")
    medians, ratios = medians_and_ratios(runs)
    print(f"\nmedians of {args.repeats} processes (CPU us per call, the fastest of 7 sweeps);"
          f" baseline {baseline[:10]}; ratio = this tree / baseline")  # fmt: skip
    for key in medians["baseline"]:
        print(f"{key:<26} {medians['baseline'][key]:>8.3f} {medians['this tree'][key]:>8.3f} {ratios[key]:>6.3f}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "load_average_before": load_before,
               "load_average_after": os.getloadavg()}  # fmt: skip
    result = {"machine": machine, "baseline": baseline, "hands_per_size": 300, "runs": runs, "medians": medians,
              "ratio_this_tree_to_baseline": ratios}  # fmt: skip
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
