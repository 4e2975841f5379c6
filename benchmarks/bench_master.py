"""The ``master`` level against the expert and ``ev``: strength, speed, rounds that end.

    python benchmarks/bench_master.py                      # full size, 2 worker processes
    python benchmarks/bench_master.py --scale 0.05         # a twentieth of the games
    python benchmarks/bench_master.py --workers 1 --seed 31337 --out -   # a tuning run, no file

Sections, played interleaved (so that a run stopped early has every
section's figures on a proportional share of its games, each with its
interval):

- ``expert``: master vs expert, 1,000 paired deals (2,000 games, seats swapped);
- ``ev``: master vs ev and expert vs ev on the same 1,000 paired deals: the
  paired difference of the two margins says whether master gains more
  against ``ev`` than the expert does;
- ``four``: one master and three experts, 250 deals each played four times
  with master in every seat (1,000 games);
- ``self``: master vs master, 100 games: turns per round.

Seeds: ``game_seeds(seed + k, deals)`` with section ``k``; the default
seed (8086) was never used while building or tuning master (tuning used
31337 and up).  A shared win counts half (Wilson 95% interval); margins
(master's final score less the opponent's, or the best other's at four
players) have a 95% interval over the deals.

Times (two-player games; the four-player table's searched decisions
apart): every decision of master's is timed twice, wall-clock and the
thread's CPU time (what one core spends: the machine is shared, and wall
time includes waiting for a core).  The JSON is rewritten every few deals,
so a run stopped early keeps its figures (``"complete": false``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game import Game, make_player
from quiddler.game.master import MasterPlayer
from quiddler.game.runner import game_seeds, next_action, wilson_interval

RESULTS = Path(__file__).parent / "results" / "master.json"
SEED = 8086
DEALS = {"expert": 1000, "ev": 1000, "four": 250, "self": 100}
TURN_LIMIT = 50


def mean_ci(values: Sequence[float]) -> list[float]:
    """[mean, low, high] with a normal 95% interval."""
    if not values:
        return [math.nan, math.nan, math.nan]
    m = statistics.fmean(values)
    if len(values) < 2:
        return [m, m, m]
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return [m, m - half, m + half]


def play(names: Sequence[str], seed: int) -> dict[str, Any]:
    """One game; master's decisions timed (wall and CPU), turns per round counted."""
    players = [make_player(name, seed + 1 + seat) for seat, name in enumerate(names)]
    game = Game(len(names), seed=seed)
    times: list[tuple[float, float, bool]] = []
    expert_times: list[tuple[float, float]] = []  # the baseline, timed the same way in the same games
    while not game.over:
        seat = game.turn
        player = players[seat]
        searched_before = len(player.searches) if isinstance(player, MasterPlayer) else 0
        wall, cpu = time.perf_counter(), time.thread_time()
        action = next_action(game, players)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if isinstance(player, MasterPlayer):
            times.append((wall, cpu, len(player.searches) > searched_before))
        elif player.name == "expert":
            expert_times.append((wall, cpu))
        game.apply(action)
    turns = []
    for record in game.log:
        draws = [a for a in record["actions"] if a["type"] == "draw"]
        turns.append((record["cards"], max(sum(a["player"] == p for a in draws) for p in range(len(names)))))
    return {"names": list(names), "totals": list(game.totals), "winners": list(game.winners), "times": times,
            "expert_times": expert_times, "turns": turns, "turn_limit": sum(r.turn_limit for r in game.history)}  # fmt: skip


def share(game: dict[str, Any], seat: int) -> tuple[float, float]:
    """(win share, final margin over the best other) of ``seat``."""
    winners, totals = game["winners"], game["totals"]
    win = 1 / len(winners) if seat in winners else 0.0
    return win, totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


def run_job(job: tuple[str, int, int]) -> tuple[str, int, list[dict[str, Any]]]:
    """One deal of one section: the games it is played as."""
    section, index, seed = job
    if section == "expert":
        games = [play(("master", "expert"), seed), play(("expert", "master"), seed)]
    elif section == "ev":
        games = [play(n, seed) for n in (("master", "ev"), ("ev", "master"), ("expert", "ev"), ("ev", "expert"))]
    elif section == "four":
        games = [play(tuple("master" if s == hero else "expert" for s in range(4)), seed) for hero in range(4)]
    else:
        games = [play(("master", "master"), seed)]
    return section, index, games


def jobs(seed: int, scale: float) -> list[tuple[str, int, int]]:
    """Every deal of every section, interleaved in proportion to the sections' sizes."""
    per: dict[str, list[tuple[str, int, int]]] = {}
    for k, (section, deals) in enumerate(DEALS.items()):
        count = max(1, round(deals * scale))
        per[section] = [(section, i, s) for i, s in enumerate(game_seeds(seed + k, count))]
    # each deal at its share of its section's progress: sections advance together
    keyed = [((i + 0.5) / len(items), k, item) for k, items in enumerate(per.values()) for i, item in enumerate(items)]
    return [item for _, _, item in sorted(keyed)]


def summarize(results: dict[str, list[list[dict[str, Any]]]], planned: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    master_times: list[tuple[float, float, bool]] = []
    expert_times: list[tuple[float, float]] = []
    game_cpu: list[float] = []
    turns: dict[str, dict[int, list[int]]] = {"vs expert": defaultdict(list), "self-play": defaultdict(list)}
    limits = {"vs expert": 0, "self-play": 0}
    if results.get("expert"):
        wins, margins = 0.0, []
        for deal in results["expert"]:
            pair = []
            for game in deal:
                w, m = share(game, game["names"].index("master"))
                wins += w
                pair.append(m)
                times = game["times"]
                master_times += times
                expert_times += game.get("expert_times", [])
                game_cpu.append(sum(c for _, c, _ in times))
                for cards, t in game["turns"]:
                    turns["vs expert"][cards].append(t)
                limits["vs expert"] += game["turn_limit"]
            margins.append(statistics.fmean(pair))
        n = 2 * len(results["expert"])
        out["master_vs_expert"] = {"games": n, "planned": 2 * planned["expert"], "wins": wins, "win_rate": wins / n,
                                   "ci95": list(wilson_interval(wins, n)), "margin": mean_ci(margins)}  # fmt: skip
    if results.get("ev"):
        wins_m = wins_e = 0.0
        m_margins, e_margins, gaps = [], [], []
        for deal in results["ev"]:
            mm = [share(g, g["names"].index("master")) for g in deal[:2]]
            ee = [share(g, g["names"].index("expert")) for g in deal[2:]]
            wins_m += sum(w for w, _ in mm)
            wins_e += sum(w for w, _ in ee)
            a, b = statistics.fmean(m for _, m in mm), statistics.fmean(m for _, m in ee)
            m_margins.append(a)
            e_margins.append(b)
            gaps.append(a - b)
            for game in deal[:2]:
                master_times += game["times"]
                game_cpu.append(sum(c for _, c, _ in game["times"]))
        n = 2 * len(results["ev"])
        out["vs_ev"] = {"games_each": n, "planned_each": 2 * planned["ev"],
                        "master": {"win_rate": wins_m / n, "ci95": list(wilson_interval(wins_m, n)),
                                   "margin": mean_ci(m_margins)},
                        "expert": {"win_rate": wins_e / n, "ci95": list(wilson_interval(wins_e, n)),
                                   "margin": mean_ci(e_margins)},
                        "margin_gain": mean_ci(gaps)}  # fmt: skip
    four_times: list[tuple[float, float, bool]] = []
    if results.get("four"):
        wins, margins = 0.0, []
        for deal in results["four"]:
            per = []
            for game in deal:
                w, m = share(game, game["names"].index("master"))
                wins += w
                per.append(m)
                four_times += game["times"]
            margins.append(statistics.fmean(per))
        n = 4 * len(results["four"])
        out["master_vs_3_expert"] = {"games": n, "planned": 4 * planned["four"], "wins": wins, "win_rate": wins / n,
                                     "ci95": list(wilson_interval(wins, n)), "fair_share": 0.25,
                                     "margin_vs_best_other": mean_ci(margins)}  # fmt: skip
    if results.get("self"):
        for deal in results["self"]:
            for game in deal:
                for cards, t in game["turns"]:
                    turns["self-play"][cards].append(t)
                limits["self-play"] += game["turn_limit"]
    out["turns_per_round"] = {
        who: {"rounds": sum(len(v) for v in by.values()), "rounds_at_turn_limit": limits[who],
              "max": max((max(v) for v in by.values()), default=0),
              "mean": statistics.fmean([t for v in by.values() for t in v]) if by else math.nan,
              "by_round_size": {n: {"mean": statistics.fmean(v), "max": max(v)} for n, v in sorted(by.items())}}
        for who, by in turns.items()
    }  # fmt: skip

    def summary(values: list[float]) -> dict[str, float]:
        values = sorted(values)
        if not values:
            return {}
        return {"decisions": len(values), "median_ms": 1000 * statistics.median(values),
                "p99_ms": 1000 * values[min(len(values) - 1, int(0.99 * len(values)))], "max_ms": 1000 * values[-1]}  # fmt: skip

    searched = [t for t in master_times if t[2]]
    out["decision_times"] = {
        "all_cpu": summary([c for _, c, _ in master_times]), "all_wall": summary([w for w, _, _ in master_times]),
        "searched_cpu": summary([c for _, c, _ in searched]), "searched_wall": summary([w for w, _, _ in searched]),
        "searched_share": len(searched) / len(master_times) if master_times else math.nan,
        "expert_all_cpu_same_games": summary([c for _, c in expert_times]),
        "four_players_searched_cpu": summary([c for _, c, s in four_times if s]),
        "two_player_game_cpu_s": {"median": statistics.median(game_cpu) if game_cpu else math.nan,
                                   "p90": sorted(game_cpu)[int(0.9 * (len(game_cpu) - 1))] if game_cpu else math.nan,
                                   "max": max(game_cpu, default=math.nan)},
    }  # fmt: skip
    return out


def parallel(job_list: list[tuple[str, int, int]], workers: int) -> Iterator[tuple[str, int, list[dict[str, Any]]]]:
    if workers <= 1:
        yield from map(run_job, job_list)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(run_job, job_list, chunksize=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="scale every section's deals by this factor")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default=",".join(DEALS), help=f"comma-separated sections of {tuple(DEALS)}")
    parser.add_argument("--out", default=str(RESULTS), help="JSON results file ('-' for none)")
    args = parser.parse_args()
    only = [s for s in args.only.split(",") if s]
    for name in list(DEALS):
        if name not in only:
            del DEALS[name]
    job_list = jobs(args.seed, args.scale)
    planned = {s: sum(j[0] == s for j in job_list) for s in DEALS}
    results: dict[str, list[list[dict[str, Any]]]] = {s: [] for s in DEALS}
    header = {"machine": f"{platform.machine()}, {os.cpu_count()} cores (shared, noisy)",
              "python": platform.python_version(), "seed": args.seed, "scale": args.scale, "workers": args.workers,
              "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "seeds": {s: [seed for sec, _, seed in job_list if sec == s] for s in DEALS}}  # fmt: skip
    started = time.perf_counter()
    last_save = 0.0

    def save(complete: bool) -> dict[str, Any]:
        data = {**header, "complete": complete, "elapsed_s": round(time.perf_counter() - started),
                "deals_done": {s: len(v) for s, v in results.items()}, "deals_planned": planned,
                **summarize(results, planned)}  # fmt: skip
        if args.out != "-":
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
        return data

    for done, (section, _, games) in enumerate(parallel(job_list, args.workers), 1):
        results[section].append(games)
        if time.perf_counter() - last_save > 30 or done == len(job_list):
            last_save = time.perf_counter()
            data = save(done == len(job_list))
            print(f"{done}/{len(job_list)} deals, {data['elapsed_s']} s: " + short(data), file=sys.stderr, flush=True)
    print(json.dumps(save(True), indent=1, default=str)[:4000] if args.out == "-" else short(save(True)))


def short(data: dict[str, Any]) -> str:
    parts = []
    if "master_vs_expert" in data:
        s = data["master_vs_expert"]
        parts.append(f"vs expert {s['win_rate']:.1%} [{s['ci95'][0]:.1%}, {s['ci95'][1]:.1%}] "
                     f"margin {s['margin'][0]:+.1f} ({s['games']} games)")  # fmt: skip
    if "vs_ev" in data:
        s = data["vs_ev"]
        parts.append(f"vs ev gain {s['margin_gain'][0]:+.1f} [{s['margin_gain'][1]:+.1f}, {s['margin_gain'][2]:+.1f}]")
    if "master_vs_3_expert" in data:
        s = data["master_vs_3_expert"]
        parts.append(f"1 vs 3 {s['win_rate']:.1%} [{s['ci95'][0]:.1%}, {s['ci95'][1]:.1%}]")
    t = data.get("decision_times", {})
    if t.get("searched_cpu"):
        parts.append(f"searched {t['searched_cpu']['median_ms']:.0f}/{t['searched_cpu']['p99_ms']:.0f} ms cpu")
    return "; ".join(parts)


if __name__ == "__main__":
    main()
