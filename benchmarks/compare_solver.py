"""bench_solver.py of this tree against the same script of a baseline commit,
in one run: each tree's own script runs in a fresh process, the trees
alternating ``--repeats`` times, and the medians of their figures are compared
(per hand size: the compiled kernel call, ``solve()`` and the pure-Python
backend's ``solve()``; over every hand:
``solve_many``, ``score_many`` and the kernel batch, one thread and all).

Usage: python benchmarks/compare_solver.py [--baseline REV] [--repeats N] [--hands N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from compare import ROOT, baseline_rev, checkout, medians_and_ratios, round_robin


def figures(tree: Path, hands: int, sample: int, sweeps: int) -> dict[str, float]:
    """One run of ``tree``'s bench_solver.py, flattened to name -> number."""
    with tempfile.TemporaryDirectory(prefix="quiddler-solver-") as folder:
        out = Path(folder) / "solver.json"
        argv = [sys.executable, str(tree / "benchmarks" / "bench_solver.py"), "--hands", str(hands),
                "--sample", str(sample), "--repeats", str(sweeps), "--json", str(out)]  # fmt: skip
        done = subprocess.run(argv, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True,
                              cwd=tempfile.gettempdir(), check=False)  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"{tree}: {done.stderr[-800:]}")
        result = json.loads(out.read_text())
    flat = {}
    for size, row in result["latency"].items():
        flat[f"kernel_{size}_median_us"] = row["kernel"]["median_us"]
        flat[f"solve_{size}_median_us"] = row["solve"]["median_us"]
        if "python" in row:  # the pure-Python backend, on --sample hands
            flat[f"python_{size}_median_us"] = row["python"]["median_us"]
    for key, value in result["batch"].items():
        if key.endswith("_per_s"):
            flat[key] = value
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="commit to compare with (default: merge-base with main)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each tree's script (default 3)")
    parser.add_argument("--hands", type=int, default=300, help="hands per size (default 300)")
    parser.add_argument("--sample", type=int, default=10, help="hands per size for the python backend")
    parser.add_argument("--sweeps", type=int, default=3, help="sweeps of the compiled paths per run")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "solver-vs-baseline.json"))
    args = parser.parse_args()
    baseline = baseline_rev(args.baseline)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="quiddler-compare-") as folder:
        trees = {"baseline": checkout(baseline, Path(folder) / "baseline"), "this tree": ROOT}
        runs = round_robin(trees, args.repeats, lambda tree: figures(tree, args.hands, args.sample, args.sweeps),
                           ",.1f")  # fmt: skip
    medians, ratios = medians_and_ratios(runs)
    print(f"\nmedians of {args.repeats} runs of bench_solver.py per tree ({args.hands} hands per size);"
          f" baseline {baseline[:10]}; ratio = this tree / baseline")  # fmt: skip
    for key in medians["baseline"]:
        print(f"{key:<36} {medians['baseline'][key]:>10,.1f} {medians['this tree'][key]:>10,.1f} {ratios[key]:>6.2f}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "load_average_before": load_before,
               "load_average_after": os.getloadavg()}  # fmt: skip
    result = {"machine": machine, "baseline": baseline, "hands_per_size": args.hands, "runs": runs,
              "medians": medians, "ratio_this_tree_to_baseline": ratios,
              "note": "2 shared, noisy cores: compare the trees within this run; us: lower is better, "
                      "per_s: higher is better"}  # fmt: skip
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
