"""First use on a fresh install: the first command, the first library solve,
and compiling the kernels, each in a new process with empty caches, for
this tree and a baseline commit measured in the same run.

Each tree is built into a wheel (``pip wheel``: the build hooks run as for a
real install) and unpacked with ``pip install --no-deps --target`` into a
folder of its own; the venv running this script supplies numba, numpy and
click.  Then, round-robin over the trees, ``--repeats`` times:

* ``first_cli``: ``quiddler solve HAND --discard`` with an empty quiddler
  cache, then ``warm_cli``: the same again (its cache now filled);
* ``first_library_solve``: ``from quiddler import solve; solve(HAND)`` in a
  new process with empty quiddler and numba caches (the whole process, and
  the ``solve`` call alone);
* ``compile_all``: with an empty numba cache, every compiled entry point
  used once (``solve``, ``solve(top=3)``, ``find_words``, ``solve_many``
  with ``backend="numba"``), wall and CPU seconds; and ``compile_solve``,
  the compile a plain ``solve`` needs; ``warm_numba``: the same with the
  cache filled (import numba, load the kernels).

The machine is shared and noisy: compare the trees' medians within one run
(the ratios), not absolute times across runs.  CPU seconds (user + system of
the process) are steadier than wall seconds when other work competes.

Usage: python benchmarks/bench_first_use.py [--baseline REV] [--repeats N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compare import ROOT, baseline_rev, checkout, medians_and_ratios, round_robin

HAND = "d,cl,o,g,a,b,er,in,n,y,s"

_LIBRARY = """
import time
started = time.perf_counter()
from quiddler import solve
solution = solve({hand!r}, discard=True)
print(time.perf_counter() - started, solution.best.score)
"""

_COMPILE = """
import time
started = time.perf_counter()
from quiddler import find_words, solve, solve_many
solve({hand!r}, discard=True, backend="numba")
solve_only = time.perf_counter() - started
if {everything}:
    solve({hand!r}, top=3, backend="numba")
    find_words({hand!r}, backend="numba")
    solve_many([{hand!r}] * 4, discard=True, **({{"backend": "numba"}} if {new_api} else {{}}))
print(time.perf_counter() - started, solve_only)
"""


def build(tree: Path, into: Path) -> Path:
    """Build ``tree`` into a wheel and unpack it under ``into``; returns the import root."""
    wheels = into / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(tree)],
                   check=True, capture_output=True)  # fmt: skip
    (wheel,) = wheels.glob("*.whl")
    site = into / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)  # fmt: skip
    return site


def run(site: Path, argv: list[str], caches: Path) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and stdout of ``argv`` with ``site`` importable
    and the quiddler and numba caches in ``caches``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "QUIDDLER_"))}
    env.update(PYTHONPATH=str(site), QUIDDLER_CACHE_DIR=str(caches / "quiddler"),
               NUMBA_CACHE_DIR=str(caches / "numba"))  # fmt: skip
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir(), check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed ({done.returncode}): {done.stderr[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def wait_for_background_compiles(caches: Path) -> None:
    """A run may leave a compile going in the background (the auto backend):
    wait until it has released its lock, so it does not slow the next run."""
    lock = caches / "numba" / "quiddler-kernels.lock"
    if lock.exists():
        import fcntl

        with open(lock, "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)


def measure(site: Path, new_api: bool, scratch: Path) -> dict[str, float]:
    figures: dict[str, float] = {}
    cli = [sys.executable, "-c", "import sys; from quiddler.cli import main; sys.exit(main())", "solve", HAND,
           "--discard"]  # fmt: skip
    caches = Path(tempfile.mkdtemp(dir=scratch))
    figures["first_cli_s"] = run(site, cli, caches)[0]
    figures["warm_cli_s"] = run(site, cli, caches)[0]

    caches = Path(tempfile.mkdtemp(dir=scratch))
    wall, _, out = run(site, [sys.executable, "-c", _LIBRARY.format(hand=HAND)], caches)
    figures["first_library_solve_process_s"] = wall
    figures["first_library_solve_call_s"] = float(out.split()[0])
    wait_for_background_compiles(caches)

    caches = Path(tempfile.mkdtemp(dir=scratch))
    code = _COMPILE.format(hand=HAND, everything=True, new_api=new_api)
    wall, cpu, out = run(site, [sys.executable, "-c", code], caches)
    figures["compile_all_wall_s"], figures["compile_all_cpu_s"] = wall, cpu
    figures["compile_all_in_process_s"] = float(out.split()[0])
    wall, cpu, out = run(site, [sys.executable, "-c", code], caches)
    figures["warm_numba_wall_s"], figures["warm_numba_cpu_s"] = wall, cpu

    caches = Path(tempfile.mkdtemp(dir=scratch))
    code = _COMPILE.format(hand=HAND, everything=False, new_api=new_api)
    wall, cpu, out = run(site, [sys.executable, "-c", code], caches)
    figures["compile_solve_wall_s"], figures["compile_solve_cpu_s"] = wall, cpu
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None,
                        help="commit to compare with (default: where this branch left main)")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "first_use.json"))
    args = parser.parse_args()
    baseline = baseline_rev(args.baseline)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="quiddler-first-use-") as folder:
        scratch = Path(folder)
        base_tree = checkout(baseline, scratch / "baseline-tree")
        trees = {"baseline": (build(base_tree, scratch / "baseline"), False),
                 "this tree": (build(ROOT, scratch / "new"), True)}  # fmt: skip
        runs = round_robin(trees, args.repeats, lambda tree: measure(tree[0], tree[1], scratch), ".2f")
    medians, ratios = medians_and_ratios(runs)
    print(f"\nmedians of {args.repeats} runs each (seconds); baseline {baseline[:10]}, this tree {head}")
    print(f"{'figure':<34} {'baseline':>9} {'this tree':>10} {'ratio':>7}")
    for key in medians["baseline"]:
        print(f"{key:<34} {medians['baseline'][key]:>9.2f} {medians['this tree'][key]:>10.2f} {ratios[key]:>7.2f}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
               "load_average_after": os.getloadavg()}  # fmt: skip
    result = {
        "machine": machine,
        "hand": HAND, "baseline": baseline, "tree": head, "repeats": args.repeats,
        "runs": runs, "medians": medians, "ratio_this_tree_to_baseline": ratios,
        "note": "2 shared, noisy cores: compare the two trees within this run; CPU seconds are steadier than wall",
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
