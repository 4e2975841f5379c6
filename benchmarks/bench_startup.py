"""Start-up time of one ``quiddler solve``, against ``python -c "import click"``,
and the throughput of ``quiddler solve --batch``.

Machines here are noisy, so the figure that matters is a ratio measured in
the same run: the commands are timed round-robin (warm disk cache, word list
already cached) and the median of ``quiddler solve`` is divided by the median
of ``import click``.  The target is a ratio under 2.

    python benchmarks/bench_startup.py                 # table, and JSON to results/startup.json
    python benchmarks/bench_startup.py --runs 41 --batch-hands 5000 --json -

The ``quiddler`` console script is used when it is on PATH and imports the
tree measured; otherwise ``python -m quiddler.cli`` (the same import path).
``--at HEAD`` measures a clean copy of a commit instead of the working tree;
``--baseline REV`` also times the solve of a clean copy of commit REV in the
same round-robin (its ratio, and this tree's solve over it).
Bytecode is cached as for an installed package (this environment sets
PYTHONDONTWRITEBYTECODE; ``--no-bytecode`` keeps it, so every module is
compiled from source on every run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compare import checkout

REPO = Path(__file__).resolve().parent.parent
HAND = "d,cl,o,g,a,b,er,in,n,y,s"
PY = sys.executable
#: What a one-shot solve may cost, as a multiple of ``python -c "import click"``.
TARGET_RATIO = 2.0


def _env(source: Path, bytecode_dir: str | None) -> dict[str, str]:
    """The subprocesses' environment: ``source`` importable; and, unless
    ``bytecode_dir`` is None, bytecode cached as an installed package has it
    (under ``bytecode_dir``, so nothing is written into the source tree)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    if bytecode_dir is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode_dir
    return env


def _quiddler_command(env: dict[str, str], source: Path) -> list[str]:
    script = shutil.which("quiddler")
    if script:
        probe = subprocess.run([PY, "-c", "import quiddler; print(quiddler.__file__)"], check=False, env=env,
                               capture_output=True, text=True, cwd=tempfile.gettempdir())  # fmt: skip
        if probe.stdout.strip().startswith(str(source)):
            return [script]
    return [PY, "-m", "quiddler.cli"]


def _time_once(argv: list[str], env: dict[str, str]) -> float:
    return _times_once(argv, env)[0]


def _times_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``argv``.  The
    CPU time hardly depends on how busy the machine is, so its ratios stay
    steady where the wall-time ones swing with the other processes' load."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, check=False, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, cwd=tempfile.gettempdir())  # fmt: skip
    elapsed = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return elapsed, cpu


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_s": statistics.median(ordered),
        "p90_s": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "min_s": ordered[0],
    }


def bench_startup(quiddler: list[str], runs: int, warmup: int, env: dict[str, str],
                  baseline: tuple[str, list[str], dict[str, str]] | None = None) -> dict[str, object]:  # fmt: skip
    """Each command's wall time, round-robin; with ``baseline`` (its label,
    its quiddler command and environment), the same solve of that tree too."""
    solve_args = ["solve", HAND, "--discard"]
    commands = {
        "python -c pass": ([PY, "-c", "pass"], env),
        "python -c 'import click'": ([PY, "-c", "import click"], env),
        f"quiddler solve {HAND} --discard": ([*quiddler, *solve_args], env),
    }
    if baseline is not None:
        label, command, baseline_env = baseline
        commands[f"quiddler solve {HAND} --discard ({label})"] = ([*command, *solve_args], baseline_env)
    for argv, command_env in commands.values():  # warm the disk cache and the word-list cache
        for _ in range(warmup):
            _time_once(argv, command_env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):  # round-robin, so drift hits every command alike
        for name, (argv, command_env) in commands.items():
            wall, used = _times_once(argv, command_env)
            times[name].append(wall)
            cpu[name].append(used)
    stats = {name: {**_summary(times[name]), "cpu_median_s": statistics.median(cpu[name])} for name in commands}
    names = list(commands)
    click, click_cpu = stats[names[1]]["median_s"], stats[names[1]]["cpu_median_s"]
    result: dict[str, object] = {"quiddler_command": " ".join(quiddler), "commands": stats,
                                 "ratio_solve_to_import_click": stats[names[2]]["median_s"] / click,
                                 "cpu_ratio_solve_to_import_click": stats[names[2]]["cpu_median_s"] / click_cpu,
                                 "target_ratio": TARGET_RATIO}  # fmt: skip
    if baseline is not None:
        result["baseline"] = baseline[0]
        result["baseline_ratio_solve_to_import_click"] = stats[names[3]]["median_s"] / click
        result["baseline_cpu_ratio_solve_to_import_click"] = stats[names[3]]["cpu_median_s"] / click_cpu
        result["ratio_solve_to_baseline_solve"] = stats[names[2]]["median_s"] / stats[names[3]]["median_s"]
        result["cpu_ratio_solve_to_baseline_solve"] = stats[names[2]]["cpu_median_s"] / stats[names[3]]["cpu_median_s"]
    return result


def bench_batch(quiddler: list[str], hands: int, repeats: int, env: dict[str, str],
                source: Path) -> dict[str, object]:  # fmt: skip
    """Wall time of ``solve --batch --discard`` over ``hands`` and ``3 * hands``
    random deals of 3..10 cards plus the draw; the difference gives the rate
    once the process is up and numba is loaded."""
    sys.path.insert(0, str(source))
    from quiddler import Deck

    rng = random.Random(2026)
    lines = [",".join(c.face for c in Deck(rng).deal(rng.randint(4, 11))) + "\n" for _ in range(3 * hands)]
    best = {}
    with tempfile.TemporaryDirectory(prefix="quiddler-bench-") as folder:
        for count in (hands, 3 * hands):
            path = Path(folder) / f"hands-{count}.txt"
            path.write_text("".join(lines[:count]))
            argv = [*quiddler, "solve", "--batch", str(path), "--discard"]
            _time_once(argv, env)  # warm-up (and numba's compile cache)
            best[count] = min(_time_once(argv, env) for _ in range(repeats))
    # The fastest of a few runs: other processes on a shared machine only ever add time.
    return {
        "repeats": repeats,
        "runs": [{"hands": n, "min_s": t, "hands_per_s": n / t} for n, t in best.items()],
        "marginal_hands_per_s": 2 * hands / (best[3 * hands] - best[hands]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs per command (default 21)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs per command first (default 3)")
    parser.add_argument(
        "--batch-hands", type=int, default=2000, help="N: batches of N and 3N hands (0: skip)"
    )
    parser.add_argument(
        "--batch-repeats", type=int, default=5, help="runs per batch size; the fastest counts"
    )
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE as set: every module compiled from source each run")  # fmt: skip
    parser.add_argument(
        "--at", metavar="REV", help="measure a clean copy of commit REV, not the working tree"
    )
    parser.add_argument("--baseline", metavar="REV",
                        help="also time the solve of a clean copy of commit REV, in the same round-robin")  # fmt: skip
    parser.add_argument("--json", default=str(REPO / "benchmarks" / "results" / "startup.json"),
                        help="where to write the results ('-' for stdout, '' for nowhere)")  # fmt: skip
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="quiddler-bench-") as scratch:
        source = REPO
        if args.at:  # a clean copy of a commit, not the working tree
            source = checkout(args.at, Path(scratch) / "tree")
        bytecode = None if args.no_bytecode else str(Path(scratch) / "pyc")
        baseline = None
        if args.baseline:
            tree = checkout(args.baseline, Path(scratch) / "baseline")
            baseline_env = _env(tree, bytecode)
            baseline = (args.baseline, _quiddler_command(baseline_env, tree), baseline_env)
        results = _run(args, source, _env(source, bytecode), baseline)
    _report(args, results)


def _run(args: argparse.Namespace, source: Path, env: dict[str, str],
         baseline: tuple[str, list[str], dict[str, str]] | None) -> dict[str, object]:  # fmt: skip
    quiddler = _quiddler_command(env, source)
    results: dict[str, object] = {
        "machine": {
            "nproc": os.cpu_count(),
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "click": _version("click"),
            "numba": _version("numba"),
            "load_average_before": os.getloadavg(),
        },
        "tree": _tree_state(args.at),
        "method": f"wall time of each command as a subprocess, {args.warmup} warm-up runs each, then "
        f"{args.runs} round-robin runs; word list cache already built; "
        + (
            "PYTHONDONTWRITEBYTECODE as set in the environment"
            if args.no_bytecode
            else "bytecode cached (in a temporary PYTHONPYCACHEPREFIX), as for an installed package"
        ),
        "startup": bench_startup(quiddler, args.runs, args.warmup, env, baseline),
    }
    if args.batch_hands:
        results["batch"] = bench_batch(quiddler, args.batch_hands, args.batch_repeats, env, source)
    results["machine"]["load_average_after"] = os.getloadavg()  # type: ignore[index]
    return results


def _report(args: argparse.Namespace, results: dict[str, object]) -> None:
    startup = results["startup"]
    assert isinstance(startup, dict)
    print(f"{'command':<64} {'median':>9} {'p90':>9} {'min':>9} {'cpu med':>9}   ({args.runs} runs)")
    for name, stats in startup["commands"].items():
        print(f"{name:<64} {stats['median_s'] * 1000:>7.1f}ms {stats['p90_s'] * 1000:>7.1f}ms "
              f"{stats['min_s'] * 1000:>7.1f}ms {stats['cpu_median_s'] * 1000:>7.1f}ms")  # fmt: skip
    machine = results["machine"]
    assert isinstance(machine, dict)
    print(f"{machine['nproc']} CPUs, Python {machine['python']}, load average "
          f"{machine['load_average_before'][0]:.1f} before, {machine['load_average_after'][0]:.1f} after")  # fmt: skip
    print(f"ratio of medians, solve / import click: {startup['ratio_solve_to_import_click']:.2f} "
          f"(target < {startup['target_ratio']})")  # fmt: skip
    print(f"the same in CPU time: {startup['cpu_ratio_solve_to_import_click']:.2f}")
    if "baseline" in startup:
        print(f"the same for {startup['baseline']}: {startup['baseline_ratio_solve_to_import_click']:.2f} "
              f"(CPU {startup['baseline_cpu_ratio_solve_to_import_click']:.2f}); solve / its solve: "
              f"{startup['ratio_solve_to_baseline_solve']:.2f} (CPU {startup['cpu_ratio_solve_to_baseline_solve']:.2f})")  # fmt: skip
    if "batch" in results:
        batch = results["batch"]
        assert isinstance(batch, dict)
        for run in batch["runs"]:
            print(f"solve --batch --discard, {run['hands']} hands: {run['min_s']:.2f} s (fastest of "
                  f"{batch['repeats']}), {run['hands_per_s']:.0f} hands/s with process start")  # fmt: skip
        print(
            f"solve --batch, marginal rate (extra hands / extra time): {batch['marginal_hands_per_s']:.0f} hands/s"
        )
    text = json.dumps(results, indent=2) + "\n"
    if args.json == "-":
        print(text, end="")
    elif args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text)


def _tree_state(rev: str | None) -> str:
    """The commit measured, and whether the library had uncommitted changes."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", rev or "HEAD"], cwd=REPO, capture_output=True,
                                text=True, check=True).stdout.strip()  # fmt: skip
        if rev:
            return f"{commit} (a clean copy, git archive)"
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "quiddler"], cwd=REPO, capture_output=True,
                               text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit} with uncommitted changes in quiddler/" if dirty else commit


def _version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    main()
