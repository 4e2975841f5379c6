"""The CPU time of a computer player's two kernel-bound calls, this tree
against a baseline commit in the same run: ``Solver._score_plus`` (the
shared batch, ``score_plus_rows``: a base hand plus each card a draw may
bring, discarding, scored together) and ``Solver._class_scores`` (a final
turn's class search, ``class_rows``), with a digest of every answer, which
must be the same in both trees.

The calls are seeded, shaped as the ``master`` player makes them: one base
of 3 to 10 cards (or, one decision in four, five bases, a hand less one
card each) with all 32 faces added, most without bonus targets; class
searches of 5 to 12 cards with a longest word and a word count to beat.
With ``--calls PATH`` (a pickle of recorded calls: ``"score_plus"``, a list
of ``(bases, extra, wanted, args)``, and ``"class_scores"``, of ``(cards,
beat_longest, beat_words)``) those are timed as well.

Each tree runs in a fresh process per repeat, the trees alternating; a
process reports, per figure, the fastest of 7 sweeps (microseconds per
call, CPU time), the figures' sweeps taking turns.

Usage: python benchmarks/compare_batch_class.py [--baseline REV] [--repeats N] [--calls PATH] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path
from typing import Any

from compare import ROOT, baseline_rev, checkout, medians_and_ratios, round_robin, run_probe

_PROBE = """
import hashlib, json, os, pickle, random, time
from quiddler import Solver, default_wordlist, full_deck
solver = Solver(default_wordlist(), backend="numba")
rng = random.Random(2026)
deck = full_deck()
faces = sorted(set(deck), key=str)

def sweep(fn, items):
    started = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - started) / len(items) * 1e6

def plus(call):
    bases, extra, wanted, args = call
    return solver._score_plus(bases, extra, wanted, *args)

def classes(call):
    return solver._class_scores(*call)

decisions = []
for i in range(240):
    hand = rng.sample(deck, 3 + i % 8)
    bases = [hand] if i % 4 else [[c for k, c in enumerate(hand + [rng.choice(deck)]) if k != j] for j in range(5)]
    args = (None, None, 10) if i % 10 else (rng.randint(3, 6), rng.randint(1, 3), 10)
    decisions.append((bases, faces, list(range(len(bases) * len(faces))), args))
finals = [(tuple(rng.sample(deck, 5 + i % 8)), rng.randint(2, 5), rng.randint(1, 4)) for i in range(600)]
figures = {"score_plus_cpu_us": (plus, decisions), "class_scores_cpu_us": (classes, finals)}
path = os.environ.get("QUIDDLER_RECORDED_CALLS")
if path:
    with open(path, "rb") as f:
        recorded = pickle.load(f)
    figures["recorded_score_plus_cpu_us"] = (plus, recorded["score_plus"])
    figures["recorded_class_scores_cpu_us"] = (classes, recorded["class_scores"])
digest = hashlib.sha256()
for key, (fn, items) in figures.items():
    digest.update(repr([fn(item) for item in items]).encode())
best = dict.fromkeys(figures, float("inf"))
for _ in range(7):
    for key, (fn, items) in figures.items():
        best[key] = min(best[key], sweep(fn, items))
best["digest"] = digest.hexdigest()[:16]
print(json.dumps(best))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="commit to compare with (default: merge-base with main)")
    parser.add_argument("--repeats", type=int, default=5, help="processes per tree (default 5)")
    parser.add_argument("--calls", default=None, help="a pickle of recorded calls to time as well")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "kernels-batch-class.json"))
    args = parser.parse_args()
    if args.calls:
        os.environ["QUIDDLER_RECORDED_CALLS"] = str(Path(args.calls).resolve())
    baseline = baseline_rev(args.baseline)
    load_before = os.getloadavg()
    digests: dict[str, set[str]] = {}

    def probe(tree: Path) -> dict[str, float]:
        figures: dict[str, Any] = run_probe(tree, _PROBE)
        digests.setdefault(str(tree), set()).add(figures.pop("digest"))
        return figures

    with tempfile.TemporaryDirectory(prefix="quiddler-batch-class-") as folder:
        trees = {"baseline": checkout(baseline, Path(folder) / "baseline"), "this tree": ROOT}
        for tree in trees.values():  # fill each tree's numba cache first
            probe(tree)
        runs = round_robin(trees, args.repeats, probe, ".2f")
        answers = {name: sorted(digests[str(tree)]) for name, tree in trees.items()}
    medians, ratios = medians_and_ratios(runs)
    same = len({digest for found in answers.values() for digest in found}) == 1
    print(f"\nmedians of {args.repeats} processes (CPU us per call, the fastest of 7 sweeps);"
          f" baseline {baseline[:10]}; ratio = this tree / baseline; answers identical: {same}")  # fmt: skip
    for key in medians["baseline"]:
        print(f"{key:<30} {medians['baseline'][key]:>8.2f} {medians['this tree'][key]:>8.2f} {ratios[key]:>6.3f}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "processor": platform.processor(),
               "load_average_before": load_before, "load_average_after": os.getloadavg()}  # fmt: skip
    result = {"machine": machine, "baseline": baseline, "recorded_calls": bool(args.calls), "answers": answers,
              "answers_identical": same, "runs": runs, "medians": medians,
              "ratio_this_tree_to_baseline": ratios}  # fmt: skip
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
