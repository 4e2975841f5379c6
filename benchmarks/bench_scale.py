"""Scale benchmark: ``simulate`` on 1 and 2 worker processes and on a Dask
LocalCluster, and the ``odds`` table.

    python benchmarks/bench_scale.py            # full run, writes benchmarks/results/scale.json
    python benchmarks/bench_scale.py --quick    # smaller, same table
    python benchmarks/bench_scale.py --only simulate   # one part; writes no JSON unless --out

Every figure is a median over repeats measured in this run, and every ratio
compares runs made here and now.  The machine is a 2-core box shared with
other work, so expect noise: the lead re-runs this when it is quiet.

* simulate: greedy vs greedy, 2,000 games (target: 2 workers >= 1.8x the
  games/s of 1 worker).  Wall time includes starting the workers (forked on
  Linux: milliseconds; spawned: about a second each for Python, numba and
  the kernels, measured in the same run for comparison); the start-up cost
  alone is measured too, and the rate after start-up is reported beside it.
* odds: 80,000 first-turn deals for one hand size (target <= 2 s; the
  best published tool we know takes 47 s for the same) and the whole
  3-10 table at 80,000 deals each (target <= 30 s).
* split: what splitting the games costs: solver calls lost to two solve
  caches, and the CPU the same games take on two workers at once rather
  than one after the other (the ceiling of the speed-up).
* Dask: the same games on a LocalCluster of 2 single-threaded workers
  (results must equal the process pool's), its overhead per 1,000 games
  against the process pool, and the cluster's start-up.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game.players import clear_solve_cache
from quiddler.game.runner import simulate
from quiddler.odds import go_out_odds

RESULTS = Path(__file__).parent / "results" / "scale.json"
PUBLISHED_SECONDS = 47.0  # the best published tool, 80,000 trials for one round size
PLAYERS = ["greedy", "greedy"]


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return time.perf_counter() - start, value


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_cpu(fn: Any, *args: Any, **kwargs: Any) -> tuple[float, float, Any]:
    """(wall seconds, CPU seconds, value): on a shared machine the CPU time
    shows whether the work itself grew, whatever share of the cores we got."""
    cpu = cpu_seconds()
    wall, value = timed(fn, *args, **kwargs)
    return wall, cpu_seconds() - cpu, value


def bench_simulate(games: int, repeats: int, seed: int) -> dict[str, Any]:
    from quiddler.game import workers
    from quiddler.solver import warm

    # numba, the compiled kernels and the card trie loaded once, outside the
    # timing (the solver's auto backend would otherwise solve the first
    # games of the first run in pure Python before loading them).
    warm()
    simulate(PLAYERS, 4, seed=seed)
    method = workers.start_method()
    forced = workers.start_method

    def run(count: int, n: int = games, start: str | None = None) -> tuple[float, float, Any]:
        clear_solve_cache()  # every run starts cold, as a new process does (forked workers inherit the cache)
        workers.start_method = (lambda: start) if start else forced  # type: ignore[assignment]
        try:
            return timed_cpu(simulate, PLAYERS, n, seed=seed, workers=count)
        finally:
            workers.start_method = forced  # type: ignore[assignment]

    one, two, spawned, startup, cpu1, cpu2, cpu_spawned, cpu_start, load = [], [], [], [], [], [], [], [], []
    stats: dict[str, Any] = {}
    for _ in range(repeats):
        t, c, s = run(1)
        one.append(t)
        cpu1.append(c)
        stats["1"] = s.to_dict()
        t, c, s = run(2)
        two.append(t)
        cpu2.append(c)
        stats["2"] = s.to_dict()
        # 16 games on 2 workers: almost all of it is starting them.
        t, c, _ = run(2, 16)
        startup.append(t)
        cpu_start.append(c)
        # The same 2 workers spawned (the start method before forking, and
        # what macOS and Windows get), for the same-run comparison.
        t, c, s = run(2, start="spawn")
        spawned.append(t)
        cpu_spawned.append(c)
        stats["spawn"] = s.to_dict()
        load.append(round(os.getloadavg()[0], 2))
    t1, t2, ts, tsp = (statistics.median(x) for x in (one, two, startup, spawned))
    return {
        "games": games,
        "players": PLAYERS,
        "start_method": method,
        "seconds_1_worker": [round(x, 2) for x in one],
        "seconds_2_workers": [round(x, 2) for x in two],
        "seconds_start_2_workers": [round(x, 3) for x in startup],
        "seconds_2_spawned_workers": [round(x, 2) for x in spawned],
        "loadavg_1min_after_each_repeat": load,
        "games_per_second_1_worker": round(games / t1, 1),
        "games_per_second_2_workers": round(games / t2, 1),
        "speedup": round(t1 / t2, 2),
        # Each repeat's 1- and 2-worker runs are seconds apart: their ratio
        # drifts less with the load of other work than a ratio of medians.
        "speedup_per_repeat": [round(a / b, 2) for a, b in zip(one, two, strict=True)],
        "speedup_median_of_repeats": round(statistics.median(a / b for a, b in zip(one, two, strict=True)), 2),
        "speedup_2_spawned_workers_per_repeat": [round(a / b, 2) for a, b in zip(one, spawned, strict=True)],
        "speedup_after_startup": round(t1 / max(t2 - ts, 1e-9), 2),
        "speedup_2_spawned_workers": round(t1 / tsp, 2),
        "cpu_seconds_1_worker": [round(x, 2) for x in cpu1],
        "cpu_seconds_2_workers": [round(x, 2) for x in cpu2],
        "cpu_seconds_start_2_workers": [round(x, 3) for x in cpu_start],
        "cpu_seconds_2_spawned_workers": [round(x, 2) for x in cpu_spawned],
        # What 2 workers would give with a free core each: all their CPU
        # time (start-up included) split in two, against 1 worker's.
        "speedup_if_2_free_cores": round(2 * statistics.median(cpu1) / statistics.median(cpu2), 2),
        "identical_results": stats["1"] == stats["2"] == stats["spawn"],
    }


def _play_cold(plans: list[Any]) -> tuple[float, int]:
    """CPU seconds and solver calls (solve-cache misses) of playing these
    games in this process from an empty solve cache."""
    from quiddler.game.players import _solve
    from quiddler.game.runner import play_planned

    clear_solve_cache()
    cpu = time.process_time()
    for plan in plans:
        play_planned(PLAYERS, plan)
    return time.process_time() - cpu, _solve.cache_info().misses


def bench_split(games: int, repeats: int, seed: int) -> dict[str, Any]:
    """Why 2 workers are not quite 2x: the games each worker gets (its
    chunks, alternately) against all of them in one process.

    * solver calls: does splitting the games lose solve-cache hits?
    * CPU: the two halves played by two forked workers one after the
      other, then both at once (same games, same processes): what running
      side by side on the two cores costs (shared caches and memory)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from quiddler.game.runner import plan_games
    from quiddler.game.workers import _chunks

    plans = plan_games(seed, games, len(PLAYERS))
    chunks = list(_chunks(plans, 2))
    halves = [[p for c in chunks[0::2] for p in c], [p for c in chunks[1::2] for p in c]]
    whole_cpu, whole_misses = _play_cold(plans)
    half_misses = [_play_cold(half)[1] for half in halves]
    out: dict[str, Any] = {
        "games": games,
        "solver_calls_one_process": whole_misses,
        "solver_calls_two_halves_each_cold": half_misses,
        "cpu_seconds_one_process": round(whole_cpu, 2),
    }
    if "fork" not in multiprocessing.get_all_start_methods():
        return out
    fork = multiprocessing.get_context("fork")
    apart, together, load = [], [], []
    for _ in range(repeats):
        with ProcessPoolExecutor(1, mp_context=fork) as pool:
            apart.append(sum(pool.submit(_play_cold, half).result()[0] for half in halves))
        with ProcessPoolExecutor(2, mp_context=fork) as pool:
            together.append(sum(f.result()[0] for f in [pool.submit(_play_cold, half) for half in halves]))
        load.append(round(os.getloadavg()[0], 2))
    ratios = [b / a for a, b in zip(apart, together, strict=True)]
    out.update({
        "cpu_seconds_halves_one_after_the_other": [round(x, 2) for x in apart],
        "cpu_seconds_halves_at_once": [round(x, 2) for x in together],
        "cpu_at_once_over_one_after_the_other": round(statistics.median(ratios), 3),
        # The best 2 workers can do with that: 2 / the ratio.
        "speedup_ceiling": round(2 / statistics.median(ratios), 2),
        "loadavg_1min_after_each_repeat": load,
    })
    return out


def bench_dask(games: int, repeats: int, seed: int) -> dict[str, Any]:
    try:
        from quiddler.game.workers import dask_client, start_method
    except ImportError:  # pragma: no cover
        return {"skipped": "quiddler.game.workers missing"}
    try:
        import distributed  # noqa: F401
    except ImportError:
        return {"skipped": "dask[distributed] not installed"}
    start = time.perf_counter()
    with dask_client(None, 2) as client:
        started = time.perf_counter() - start
        simulate(PLAYERS, 8, seed=seed, client=client)  # workers import quiddler and load numba once
        # The client's threads make the pool spawn its workers here (see
        # quiddler.game.workers.start_method): compare with that pool, less
        # its start-up measured here too.
        pool_method = start_method()
        dask_times, pool_times, pool_startup = [], [], []
        for _ in range(repeats):
            client.run(clear_solve_cache)  # as cold as the pool's new workers
            t, on_dask = timed(simulate, PLAYERS, games, seed=seed, client=client)
            dask_times.append(t)
            clear_solve_cache()
            t, on_pool = timed(simulate, PLAYERS, games, seed=seed, workers=2)
            pool_times.append(t)
            t, _ = timed(simulate, PLAYERS, 16, seed=seed, workers=2)
            pool_startup.append(t)
    td, tp, ts = (statistics.median(x) for x in (dask_times, pool_times, pool_startup))
    return {
        "games": games,
        "cluster_start_seconds": round(started, 2),
        "seconds_dask": [round(x, 2) for x in dask_times],
        "pool_start_method": pool_method,
        "seconds_2_worker_processes": [round(x, 2) for x in pool_times],
        "seconds_start_2_worker_processes": [round(x, 2) for x in pool_startup],
        "games_per_second_dask": round(games / td, 1),
        # The pool starts its workers on every run; Dask's stay up between
        # runs.  So: against the pool's run less its measured start-up, and
        # against its whole run.
        "overhead_seconds_per_1000_games": round((td - (tp - ts)) / games * 1000, 3),
        "overhead_seconds_per_1000_games_vs_whole_pool_run": round((td - tp) / games * 1000, 3),
        "identical_results": on_dask.to_dict() == on_pool.to_dict(),
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
    }


def bench_odds(trials: int, repeats: int, seed: int) -> dict[str, Any]:
    go_out_odds([3], trials=100, seed=seed)  # load numba and the trie
    sizes: dict[str, Any] = {}
    for cards in (3, 7, 10):
        runs = [timed_cpu(go_out_odds, [cards], trials=trials, seed=seed) for _ in range(repeats)]
        t = statistics.median(wall for wall, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        sizes[str(cards)] = {
            "seconds": [round(wall, 3) for wall, _, _ in runs],
            "cpu_seconds": [round(c, 3) for _, c, _ in runs],
            # The solver runs on 2 threads: with two free cores the wall time
            # would be about the CPU time over two.
            "seconds_if_2_free_cores": round(cpu / 2, 3),
            "deals_per_second": round(trials / t),
            "ratio_vs_published_47s": round(PUBLISHED_SECONDS / t * (trials / 80_000), 1),
        }
    table_runs = [timed_cpu(go_out_odds, range(3, 11), trials=trials, seed=seed)
                  for _ in range(max(1, repeats - 1))]  # fmt: skip
    table_times = [wall for wall, _, _ in table_runs]
    table = table_runs[-1][2]
    return {
        "trials": trials,
        "one_size": sizes,
        "table_3_10_seconds": [round(x, 2) for x in table_times],
        "table_3_10_seconds_median": round(statistics.median(table_times), 2),
        "table_3_10_cpu_seconds": [round(c, 2) for _, c, _ in table_runs],
        "table": table.to_dict(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer games and deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help=f"JSON output ('-' for none; default {RESULTS}, "
                        "or none with --only)")  # fmt: skip
    parser.add_argument("--only", choices=["simulate", "split", "dask", "odds"], action="append",
                        help="run only this part (repeatable)")  # fmt: skip
    args = parser.parse_args()
    parts = set(args.only or ["simulate", "split", "dask", "odds"])
    if args.out is None:
        args.out = Path("-") if args.only else RESULTS
    games = 400 if args.quick else 2000
    trials = 20_000 if args.quick else 80_000

    result: dict[str, Any] = {"quick": args.quick, "seed": args.seed, "repeats": args.repeats}
    if "simulate" in parts:
        result["simulate"] = report_simulate(games, args.repeats, args.seed)
    if "split" in parts:
        result["split"] = report_split(games, args.repeats, args.seed)
    if "dask" in parts:
        result["dask"] = report_dask(games, args.repeats, args.seed)
    if "odds" in parts:
        result["odds"] = report_odds(trials, args.repeats, args.seed)
    machine = {
        "nproc": os.cpu_count(),
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    print(f"machine: nproc={machine['nproc']}, load average at the end {machine['loadavg_at_end']} "
          "(shared machine: figures are noisy)")  # fmt: skip
    result = {"machine": machine, **result}
    if str(args.out) != "-":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
        if args.out.resolve() == RESULTS.resolve() and "odds" in result:
            from plots import draw_after_benchmark

            draw_after_benchmark("go_out_odds")  # docs/images/ shows this run


def report_simulate(games: int, repeats: int, seed: int) -> dict[str, Any]:
    sim = bench_simulate(games, repeats, seed)
    print(f"simulate {'+'.join(PLAYERS)}, {games} games: 1 worker {sim['games_per_second_1_worker']} games/s, "
          f"2 workers {sim['games_per_second_2_workers']} games/s: {sim['speedup']}x (target >= 1.8x); "
          f"{sim['speedup_after_startup']}x after the ~{statistics.median(sim['seconds_start_2_workers']):.2f} s "
          f"start-up; identical results: {sim['identical_results']}")  # fmt: skip
    print(f"  per repeat (1 and 2 workers run back to back): {sim['speedup_per_repeat']}, median "
          f"{sim['speedup_median_of_repeats']}x")  # fmt: skip
    print(f"  CPU seconds: 1 worker {statistics.median(sim['cpu_seconds_1_worker']):.1f}, 2 workers "
          f"{statistics.median(sim['cpu_seconds_2_workers']):.1f} (of which starting them "
          f"{statistics.median(sim['cpu_seconds_start_2_workers']):.2f}); with two free cores that would be "
          f"{sim['speedup_if_2_free_cores']}x; workers started by {sim['start_method']}")  # fmt: skip
    print(f"  2 spawned workers (the old start method): {statistics.median(sim['seconds_2_spawned_workers']):.2f} s, "
          f"{sim['speedup_2_spawned_workers']}x; load average after each repeat "
          f"{sim['loadavg_1min_after_each_repeat']}")  # fmt: skip
    return sim


def report_split(games: int, repeats: int, seed: int) -> dict[str, Any]:
    split = bench_split(games, repeats, seed)
    print(f"split: solver calls for the {games} games in one process {split['solver_calls_one_process']}, "
          f"as two cold halves {split['solver_calls_two_halves_each_cold']}")  # fmt: skip
    if "speedup_ceiling" in split:
        print(f"  the halves on 2 forked workers at once take {split['cpu_at_once_over_one_after_the_other']}x "
              f"the CPU of one after the other: at most {split['speedup_ceiling']}x from 2 workers")  # fmt: skip
    return split


def report_dask(games: int, repeats: int, seed: int) -> dict[str, Any]:
    dask = bench_dask(games, repeats, seed)
    if "skipped" in dask:
        print(f"dask: skipped ({dask['skipped']})")
    else:
        print(f"dask LocalCluster (2 workers): start {dask['cluster_start_seconds']} s, "
              f"{dask['games_per_second_dask']} games/s, overhead vs 2 {dask['pool_start_method']}ed worker "
              "processes (less their start-up) "
              f"{dask['overhead_seconds_per_1000_games']} s per 1,000 games; identical results: "
              f"{dask['identical_results']}")  # fmt: skip
    return dask


def report_odds(trials: int, repeats: int, seed: int) -> dict[str, Any]:
    odds = bench_odds(trials, repeats, seed)
    for cards, row in odds["one_size"].items():
        print(f"odds, {trials} first-turn deals of {cards} cards: {statistics.median(row['seconds']):.2f} s "
              f"({row['deals_per_second']} deals/s; {row['ratio_vs_published_47s']}x the published tool's 47 s; "
              f"CPU {statistics.median(row['cpu_seconds']):.2f} s, so ~{row['seconds_if_2_free_cores']:.2f} s "
              "on two free cores; target <= 2 s)")  # fmt: skip
    print(f"odds table 3-10 at {trials} deals each: {odds['table_3_10_seconds_median']} s, CPU "
          f"{statistics.median(odds['table_3_10_cpu_seconds']):.1f} s (target <= 30 s)")  # fmt: skip
    for row in odds["table"]["rows"]:
        print(f"  {row['cards']:>2} cards: go out {row['go_out']:.2%} +- {row['se']:.2%}, best score mean "
              f"{row['best_score']['mean']:.1f}, quartiles {row['best_score']['quartiles']}")  # fmt: skip
    return odds


if __name__ == "__main__":
    main()
