"""Game engine benchmark: games per second, greedy vs random, and a large
batch of complete random games that must all run without error.

    python benchmarks/bench_game.py               # full run, writes benchmarks/results/game.json
    python benchmarks/bench_game.py --quick       # a smaller run, same table

Times are medians over batches (this machine is shared and noisy); the
greedy/random figures are a ratio measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game import make_player, play_game, simulate
from quiddler.game.players import clear_solve_cache
from quiddler.game.runner import game_seeds

RESULTS = Path(__file__).parent / "results" / "game.json"


def time_games(names: list[str], games: int, batches: int, seed: int, cold: bool = False) -> dict[str, float]:
    """Per-game wall time over ``batches`` batches of ``games`` games;
    ``cold`` empties the players' solve cache before every game."""
    per_game: list[float] = []
    batch_rates: list[float] = []
    seeds = list(game_seeds(seed, games * batches))
    for b in range(batches):
        start_batch = time.perf_counter()
        for i in range(games):
            s = seeds[b * games + i]
            players = [make_player(name, s + seat) for seat, name in enumerate(names)]
            if cold:
                clear_solve_cache()
            t = time.perf_counter()
            play_game(players, seed=s)
            per_game.append(time.perf_counter() - t)
        batch_rates.append(games / (time.perf_counter() - start_batch))
    per_game.sort()
    return {
        "games": games * batches,
        "games_per_second_median": round(statistics.median(batch_rates), 2),
        "seconds_per_game_median": round(statistics.median(per_game), 5),
        "seconds_per_game_p90": round(per_game[int(0.9 * (len(per_game) - 1))], 5),
        "seconds_per_game_max": round(per_game[-1], 5),
    }


def many_random_games(total: int, seed: int) -> dict[str, float]:
    """``total`` complete random games over 2..8 players; any exception is counted."""
    errors = 0
    start = time.perf_counter()
    for i, s in enumerate(game_seeds(seed, total)):
        players = 2 + i % 7
        try:
            play_game([make_player("random", s + seat) for seat in range(players)], seed=s)
        except Exception as exc:  # noqa: BLE001 - counting, then reporting the first
            if not errors:
                print(f"error in game {i}: {exc!r}", file=sys.stderr)
            errors += 1
    return {"games": total, "errors": errors, "seconds": round(time.perf_counter() - start, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file ('-' for none)")
    args = parser.parse_args()
    scale = 1 if args.quick else 5

    t = time.perf_counter()
    play_game([make_player("greedy"), make_player("random", 1)], seed=0)  # loads numba and the card trie
    warmup = time.perf_counter() - t

    rows = {
        "4 random": time_games(["random"] * 4, 20 * scale, 5, args.seed),
        "4 greedy": time_games(["greedy"] * 4, 20 * scale, 5, args.seed),
        "4 greedy, cold": time_games(["greedy"] * 4, 20 * scale, 5, args.seed, cold=True),
        "2 greedy+random": time_games(["greedy", "random"], 20 * scale, 5, args.seed),
    }
    versus_games = 200 * scale
    t = time.perf_counter()
    versus = simulate(["greedy", "random"], versus_games, seed=args.seed).to_dict()
    versus["seconds"] = round(time.perf_counter() - t, 2)
    eager = simulate(["greedy", "random-eager"], versus_games, seed=args.seed).to_dict()
    stress = many_random_games(400 * scale, args.seed)

    machine = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }
    print(f"machine: nproc={machine['nproc']} python={machine['python']} {machine['platform']}")
    print(f"first game (numba load + card trie): {warmup:.2f} s")
    print(
        f"{'players':<18} {'games':>6} {'games/s':>9} {'median s/game':>14} {'p90 s/game':>11} {'max s/game':>11}"
    )
    for name, r in rows.items():
        print(f"{name:<18} {r['games']:>6} {r['games_per_second_median']:>9.1f} "
              f"{r['seconds_per_game_median']:>14.4f} {r['seconds_per_game_p90']:>11.4f} "
              f"{r['seconds_per_game_max']:>11.4f}")  # fmt: skip
    g, r = versus["strategies"]["greedy"], versus["strategies"]["random"]
    print(f"greedy vs random, 2 players, {versus_games} games (seats rotated): greedy wins {g['wins']:.1f} "
          f"({g['win_rate']:.1%}; target >= 95%), mean score greedy {g['mean_score']:.1f} / random "
          f"{r['mean_score']:.1f}, going out {g['going_out_rate']:.1%} / {r['going_out_rate']:.1%}")  # fmt: skip
    g, r = eager["strategies"]["greedy"], eager["strategies"]["random-eager"]
    print(
        f"greedy vs random-eager (goes out whenever it can), {versus_games} games: greedy wins {g['wins']:.1f} "
        f"({g['win_rate']:.1%}), going out {g['going_out_rate']:.1%} / {r['going_out_rate']:.1%}"
    )
    print(
        f"random games, 2-8 players: {stress['games']} games, {stress['errors']} errors, {stress['seconds']} s"
    )
    result = {
        "machine": machine,
        "quick": args.quick,
        "seed": args.seed,
        "warmup_seconds": round(warmup, 2),
        "throughput": rows,
        "greedy_vs_random": versus,
        "greedy_vs_random_eager": eager,
        "random_games": stress,
    }
    if str(args.out) != "-":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {args.out}")
        if args.out.resolve() == RESULTS.resolve():
            from plots import draw_after_benchmark

            draw_after_benchmark("ai_strength")  # docs/images/ shows this run


if __name__ == "__main__":
    main()
