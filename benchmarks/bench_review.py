"""Game reviews: how the losses of weak and strong players are distributed,
whether the review orders them, and how long a review takes.

    python benchmarks/bench_review.py                    # 200 games per player, 2 worker processes
    python benchmarks/bench_review.py --games 20 --out -  # a quick look, no file

Sections:

- ``players``: for each of random, greedy, ev and expert, ``--games``
  two-player games of 8 rounds against the expert (the player's seat
  alternating), each reviewed at level expert for that player's seat.  Per
  player: the mean loss per decision and the mean accuracy with 95%
  intervals over the games (a game is one unit), and the distribution of
  the losses (percentiles of all decisions and of the imperfect ones, per
  kind of decision), from which the labels' limits and the accuracy's
  scale are chosen (docs/review.md).
- ``speed``: ``--speed-games`` games of ev against the expert, the ev seat
  reviewed in this process, once at level expert on one core and once at
  level master with ``--workers`` worker processes; each review starts with
  the solver's memo and caches cleared (the game was just played, and its
  positions would otherwise be answered from memory).  Where the time goes:
  the seconds spent replaying the record and judging each kind of
  decision, and at level master the searched decisions and the rest,
  timed in reviews on one core.

Seeds: game ``i`` of player ``p`` (in the order above) is seeded
``seed + 1000 * p + i``; the players are seeded from it.  Times are wall
clock on a shared machine: the load is recorded with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game import make_player
from quiddler.game.evaluate import scorer_for
from quiddler.game.judging import judge
from quiddler.game.plans import play_game
from quiddler.game.players import clear_solve_cache
from quiddler.game.record import game_record, replay
from quiddler.game.reviews import ACCURACY_SCALE, LABEL_LIMITS, LABELS, _moments, label_of, review
from quiddler.wordlist import default_wordlist

RESULTS = Path(__file__).parent / "results" / "review.json"
PLAYERS = ("random", "greedy", "ev", "expert")
SEED = 2600


def mean_ci(values: list[float]) -> list[float]:
    """Mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return [mean, mean - half, mean + half]


def percentiles(values: list[float], points: tuple[int, ...] = (10, 25, 50, 75, 90, 95, 99)) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {f"p{p}": ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] for p in points}


#: The histogram's bins: losses in steps of this many points, the last bin open.
BIN = 0.25
BINS = 200


def histogram(values: list[float]) -> list[int]:
    """Counts of ``values`` in bins of :data:`BIN` points (the last bin: everything above)."""
    counts = [0] * BINS
    for value in values:
        counts[min(BINS - 1, int(value / BIN))] += 1
    return counts


def one_game(task: tuple[str, int, int, str]) -> dict[str, Any]:
    """Play one game of ``name`` against the expert and review ``name``'s seat at ``level``."""
    name, seed, seat, level = task
    names = [name, "expert"] if seat == 0 else ["expert", name]
    game = play_game([make_player(n, seed + 1 + s) for s, n in enumerate(names)], seed=seed)
    result = review(game_record(game, names), seat, level=level)
    return {"player": name, "accuracy": result.accuracy, "mean_loss": result.mean_loss,
            "decisions": [(d.kind, d.loss) for d in result.decisions]}  # fmt: skip


def players_section(games: int, workers: int, seed: int, level: str = "expert") -> dict[str, Any]:
    tasks = [(name, seed + 1000 * p + i, i % 2, level) for i in range(games) for p, name in enumerate(PLAYERS)]
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with ProcessPoolExecutor(workers) as pool:
        for done, row in enumerate(pool.map(one_game, tasks, chunksize=4), 1):
            rows[row["player"]].append(row)
            if done % 100 == 0:
                print(f"  {done}/{len(tasks)} games reviewed", file=sys.stderr)
    out: dict[str, Any] = {}
    weak = [loss for name in PLAYERS[:3] for row in rows[name] for _, loss in row["decisions"]
            if loss >= LABEL_LIMITS[0]]  # fmt: skip
    out["pooled_imperfect"] = {"players": list(PLAYERS[:3]), "decisions": len(weak),
                               "losses": percentiles(weak, (10, 25, 50, 75, 90))}  # fmt: skip
    for name in PLAYERS:
        losses = [loss for row in rows[name] for _, loss in row["decisions"]]
        imperfect = [loss for loss in losses if loss >= LABEL_LIMITS[0]]
        by_kind = defaultdict(list)
        for row in rows[name]:
            for kind, loss in row["decisions"]:
                by_kind[kind].append(loss)
        out[name] = {
            "games": len(rows[name]),
            "decisions": len(losses),
            "mean_loss": mean_ci([row["mean_loss"] for row in rows[name]]),
            "accuracy": mean_ci([row["accuracy"] for row in rows[name]]),
            "loss_per_decision_pooled": statistics.fmean(losses) if losses else 0.0,
            "share_imperfect": len(imperfect) / len(losses) if losses else 0.0,
            "losses": percentiles(losses),
            "imperfect_losses": percentiles(imperfect),
            "by_kind": {kind: {"decisions": len(v), "mean_loss": statistics.fmean(v), "share_imperfect":
                               sum(1 for x in v if x >= LABEL_LIMITS[0]) / len(v), "imperfect_losses":
                               percentiles([x for x in v if x >= LABEL_LIMITS[0]])}
                        for kind, v in sorted(by_kind.items())},
            "histogram": histogram(losses),
            "labels": {label: sum(1 for x in losses if label_of(x) == label) / max(1, len(losses)) for label in LABELS},
        }
    return out


def cold() -> None:
    """Forget every solved hand: a review then pays for its own solving."""
    scorer_for(default_wordlist())._memo.clear()
    clear_solve_cache()


def speed_section(games: int, workers: int, seed: int) -> dict[str, Any]:
    load_before = os.getloadavg()
    expert_s, master_s = [], []
    where: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    searched = 0
    for i in range(games):
        names = ["ev", "expert"]
        game = play_game([make_player(n, seed + 7 + s) for s, n in enumerate(names)], seed=seed + 500_000 + i)
        record = game_record(game, names)
        cold()
        started = time.perf_counter()
        review(record, 0)
        expert_s.append(time.perf_counter() - started)
        # Where the time goes, on a second cold review of the same game.
        cold()
        started = time.perf_counter()
        replayed = replay(record)
        moments = _moments(record, replayed, 0)
        where["replay"] += time.perf_counter() - started
        for moment in moments:
            started = time.perf_counter()
            judge(moment.view, moment.played)
            where[moment.kind] += time.perf_counter() - started
            counts[moment.kind] += 1
        # ... and of a master review on one core: the searched decisions, and the rest.
        for moment in moments:
            started = time.perf_counter()
            searched_now = judge(moment.view, moment.played, "master", salt=replayed.seed).samples > 0
            where["master, searched" if searched_now else "master, not searched"] += time.perf_counter() - started
        cold()
        started = time.perf_counter()
        result = review(record, 0, level="master", workers=workers)
        master_s.append(time.perf_counter() - started)
        searched += sum(1 for d in result.decisions if d.samples)
        print(f"  speed game {i + 1}: expert {expert_s[-1]:.2f} s, master {master_s[-1]:.1f} s", file=sys.stderr)
    return {
        "games": games,
        "workers_master": workers,
        "expert_s": {"median": statistics.median(expert_s), "max": max(expert_s), "all": expert_s},
        "master_s": {"median": statistics.median(master_s), "max": max(master_s), "all": master_s},
        "expert_seconds_by_part": {part: seconds / games for part, seconds in where.items()},
        "expert_decisions_by_kind": {kind: n / games for kind, n in counts.items()},
        "master_searched_decisions_per_game": searched / games,
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }


def late_wait_section(games: int, seed: int) -> dict[str, Any]:
    """How the expert's formula for a wait it would not make (after its
    waiting turns: the look-ahead value, no credit) compares with master's
    simulated finishes: at each of the expert's going-out moves after its
    first turn, going out less the best wait, by the formula and by 48
    shared simulated finishes."""
    from dataclasses import replace

    from quiddler.game import Game
    from quiddler.game.ai import advise
    from quiddler.game.judging import _LATE_WAIT, REVIEW_SEARCH, _finishes
    from quiddler.game.state import GoOut, action_from_dict

    settings = replace(REVIEW_SEARCH, wait_turns=1_000_000)
    rows = []
    for i in range(games):
        game = play_game([make_player("expert", seed + 11 + s) for s in range(2)], seed=seed + 700_000 + i)
        record = game_record(game)
        again = Game(2, seed=game.seed, rules=game.rules, shuffle=game.shuffle)
        for entry in record["rounds"]:
            for data in entry["actions"]:
                action = action_from_dict(data)
                view = again.view(again.turn)
                if isinstance(action, GoOut) and view.turns_taken >= 2:
                    late = advise(view, _LATE_WAIT, explain=False).options
                    wait = next(o for o in late if o.action == "discard")
                    out = next(o for o in late if o.action == "go-out")
                    margins = _finishes(view, [action, wait.to_action(view.seat)], settings, seed)
                    simulated = statistics.fmean(margins[0]) - statistics.fmean(margins[1])
                    rows.append((view.round_size, out.value - wait.value, simulated))
                again.apply(action)
    gaps = [simulated - formula for _, formula, simulated in rows]
    return {"games": games, "positions": len(rows), "samples": settings.samples,
            "formula_gap": mean_ci([f for _, f, _ in rows]), "simulated_gap": mean_ci([s for _, _, s in rows]),
            "simulated_less_formula": mean_ci(gaps)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player (default 200)")
    parser.add_argument("--speed-games", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--master-games", type=int, default=15, help="games per player reviewed at master")
    parser.add_argument("--late-wait-games", type=int, default=12)
    parser.add_argument("--only", choices=("players", "master", "speed", "late-wait"), default=None)
    parser.add_argument("--out", default=str(RESULTS), help="JSON file, or - for none")
    args = parser.parse_args()
    out = Path(args.out)
    # A run of one section keeps the others' figures from the file.
    results: dict[str, Any] = json.loads(out.read_text()) if args.only and args.out != "-" and out.exists() else {}
    results |= {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared, noisy)",
        "python": platform.python_version(),
        "seed": args.seed,
        "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_before": os.getloadavg(),
        "label_limits": dict(zip(LABELS, LABEL_LIMITS)),
        "accuracy_scale": ACCURACY_SCALE,
    }
    if args.only in (None, "speed"):
        results["speed"] = speed_section(args.speed_games, args.workers, args.seed)
    if args.only in (None, "players"):
        results["players"] = players_section(args.games, args.workers, args.seed)
    if args.only in (None, "master"):
        results["players_master"] = players_section(args.master_games, args.workers, args.seed, "master")
    if args.only in (None, "late-wait"):
        results["late_wait"] = late_wait_section(args.late_wait_games, args.seed)
    results["load_after"] = os.getloadavg()
    for section in ("players", "players_master"):
        if section not in results:
            continue
        print(f"{section}: {'player':<8} {'games':>5} {'loss/decision (95% CI)':>26} {'accuracy (95% CI)':>24}")
        for name in PLAYERS:
            row = results[section][name]
            m, a = row["mean_loss"], row["accuracy"]
            print(f"{name:<8} {row['games']:>5} {m[0]:>8.3f} ({m[1]:.3f}-{m[2]:.3f})    "
                  f"{a[0]:>8.1f} ({a[1]:.1f}-{a[2]:.1f}) {row['share_imperfect']:>9.1%}")  # fmt: skip
        print(f"  pooled imperfect losses of the weak players: {results[section]['pooled_imperfect']}")
    if "late_wait" in results:
        print(f"late waits: {results['late_wait']}")
    if "speed" in results:
        s = results["speed"]
        print(f"review of an 8-round 2-player game: expert median {s['expert_s']['median']:.2f} s (one core), "
              f"master median {s['master_s']['median']:.1f} s ({s['workers_master']} workers)")  # fmt: skip
        print(f"  expert, seconds per game by part: {s['expert_seconds_by_part']}")
    print(f"load average before {results['load_before']}, after {results['load_after']}")
    if args.out != "-":
        out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
