"""The worst hands the solver accepts: time and peak memory of 20-card
searches, each case in its own process.

A hand of 20 distinct faces has 2**20 sub-hands, the most any hand of at
most 20 cards has; bonus targets multiply that by the words still needed
and whether a long word is still needed.  Each case runs in a fresh
process that first loads the word list and the compiled kernels, so the
figures are the search alone; the process reports its wall time and peak
RSS.  A case still running after ``--timeout`` seconds is stopped and
reported as such.  The baseline is the same search on the pure-Python
backend (what ``quiddler solve`` always used before), measured in the same
run; ``ratio`` is the compiled time over it.

The machine is shared and noisy: read the times as rough (medians of
``--runs`` runs for cases that take under ``--slow`` seconds, one run above).

    python benchmarks/bench_extremes.py                 # table, JSON to results/extremes.json
    python benchmarks/bench_extremes.py --timeout 60 --json -
    python benchmarks/bench_extremes.py --only "beat-words 8" --timeout 600 --json results/extremes-worst.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DISTINCT_20 = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c,h,y,er,th"
DISTINCT_16 = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c"
DEALT_20 = "a,e,e,i,o,r,s,t,n,l,a,d,u,e,g,th,er,y,o,t"

#: name, hand, solve options, and whether to run the pure-Python baseline too.
CASES: list[tuple[str, str, dict[str, object], bool]] = [
    ("20 dealt, discard", DEALT_20, {"discard": True}, True),
    ("20 distinct, discard", DISTINCT_20, {"discard": True}, True),
    ("20 distinct, discard, beat-longest 20", DISTINCT_20, {"discard": True, "beat_longest": 20}, False),
    ("20 distinct, discard, beat-longest 20, beat-words 8", DISTINCT_20,
     {"discard": True, "beat_longest": 20, "beat_words": 8}, True),
    ("16 distinct, top 2", DISTINCT_16, {"top": 2}, True),
    ("20 distinct, top 2", DISTINCT_20, {"top": 2}, False),
    ("20 dealt, top 10", DEALT_20, {"top": 10}, False),
]

CHILD = textwrap.dedent("""
    import json, resource, sys, time
    import quiddler
    hand, options, backend = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    quiddler.default_wordlist().card_trie
    quiddler.solve("a,b", backend=backend)  # load the kernels first
    started = time.perf_counter()
    try:
        solution = quiddler.solve(hand, backend=backend, **options)
        outcome = f"score {solution.best.score}, {len(solution.plays)} play(s)"
    except quiddler.QuiddlerError as exc:
        outcome = f"refused: {exc}"
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "peak_bytes": peak, "outcome": outcome}))
""")


def run_case(hand: str, options: dict[str, object], backend: str, timeout: float,
             env: dict[str, str]) -> dict[str, object]:  # fmt: skip
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, hand, json.dumps(options), backend], env=env,
                              capture_output=True, text=True, timeout=timeout, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"seconds": None, "peak_bytes": None, "outcome": f"stopped after {timeout:.0f} s"}
    if done.returncode != 0:
        return {"seconds": None, "peak_bytes": None, "outcome": f"failed: {done.stderr.strip()[-200:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def measure(hand: str, options: dict[str, object], backend: str, args: argparse.Namespace,
            env: dict[str, str]) -> dict[str, object]:  # fmt: skip
    runs = [run_case(hand, options, backend, args.timeout, env)]
    first = runs[0]["seconds"]
    if isinstance(first, float) and first < args.slow:
        runs += [run_case(hand, options, backend, args.timeout, env) for _ in range(args.runs - 1)]
    seconds = [r["seconds"] for r in runs if isinstance(r["seconds"], float)]
    peaks = [r["peak_bytes"] for r in runs if isinstance(r["peak_bytes"], int)]
    return {
        "backend": backend,
        "runs": len(runs),
        "median_seconds": statistics.median(seconds) if seconds else None,
        "peak_mb": round(max(peaks) / 2**20) if peaks else None,
        "outcome": runs[-1]["outcome"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each fast case (median)")
    parser.add_argument("--slow", type=float, default=5.0, help="a case slower than this runs once")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is stopped")
    parser.add_argument("--only", default="", metavar="TEXT", help="only the cases whose name contains TEXT")
    parser.add_argument("--json", default=str(REPO / "benchmarks" / "results" / "extremes.json"),
                        help="where to write the results ('-': stdout)")  # fmt: skip
    args = parser.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.setdefault("QUIDDLER_MAX_MEMORY_MB", "4096")  # measure the worst case, not the default bound's refusal

    results = []
    print(f"{'case':<52} {'backend':<7} {'median s':>9} {'peak MB':>8} {'vs python':>9}  outcome")
    for name, hand, options, baseline in CASES:
        if args.only not in name:
            continue
        rows = [measure(hand, options, "numba", args, env)]
        if baseline:
            rows.append(measure(hand, options, "python", args, env))
        compiled, python = rows[0]["median_seconds"], rows[-1]["median_seconds"]
        ratio = compiled / python if baseline and isinstance(compiled, float) and isinstance(python, float) else None
        for row in rows:
            secs = f"{row['median_seconds']:.2f}" if row["median_seconds"] is not None else "-"
            peak = f"{row['peak_mb']}" if row["peak_mb"] is not None else "-"
            shown_ratio = f"{ratio:.3f}" if ratio is not None and row is rows[0] else ""
            print(f"{name:<52} {row['backend']:<7} {secs:>9} {peak:>8} {shown_ratio:>9}  {row['outcome']}")
        results.append({"case": name, "hand": hand, "options": options, "results": rows,
                        "compiled_over_python": ratio})  # fmt: skip

    # The default memory bound refuses the worst case at once, with a clear error.
    bound_env = dict(env, QUIDDLER_MAX_MEMORY_MB="1024")
    refusal = measure(DISTINCT_20, {"discard": True, "beat_longest": 20, "beat_words": 8}, "numba",
                      argparse.Namespace(**{**vars(args), "runs": 1}), bound_env)  # fmt: skip
    took = f"{refusal['median_seconds']:.3f} s" if isinstance(refusal["median_seconds"], float) else "-"
    print(f"\nwith QUIDDLER_MAX_MEMORY_MB=1024 the worst case is refused in {took}: {refusal['outcome']}")
    report = {
        "benchmark": "bench_extremes",
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, shared and noisy",
        "python": platform.python_version(),
        "timeout_seconds": args.timeout,
        "cases": results,
        "memory_bound_refusal": refusal,
    }
    text = json.dumps(report, indent=2)
    if args.json == "-":
        print(text)
    else:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text + "\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
