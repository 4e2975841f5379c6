"""The computer players' strength and speed: every measured target, in one table.

    python benchmarks/bench_ai.py                 # full size (2,000-game duels...), writes results/ai.json
    python benchmarks/bench_ai.py --quick         # a tenth of the games, same table
    python benchmarks/bench_ai.py --games 0.5     # any scale
    python benchmarks/bench_ai.py --only levels,timing

Two-player duels are played in paired deals: each game seed is played
twice with the seats swapped, so both players get the same cards; the
four-player table plays each seed four times with the expert in each seat.
Win rates count a shared win as half and carry a Wilson 95% interval; the
mean final-score margin (player minus opponent, or minus the best
opponent at four players) has a 95% interval over the deals.  Seeds come
from ``game_seeds(SEED + k, deals)`` and are written to the JSON.  The
thresholds of the AI were tuned on other seeds (4711, 12345, 777).

Decision times are wall-clock on a shared, noisy 2-core machine, one thread.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game import Game, make_player
from quiddler.game.runner import game_seeds, next_action, wilson_interval

RESULTS = Path(__file__).parent / "results" / "ai.json"
SEED = 2026
TURN_LIMIT = 50  # RULES.md: a round ends once every player has taken 50 turns


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def play(names: Sequence[str], seed: int, on_decision: Callable[[Game, str, float], None] | None = None) -> Game:
    """One game; ``on_decision(game, name, seconds)`` is called before each action is applied."""
    players = [make_player(name, seed + 1 + seat) for seat, name in enumerate(names)]
    game = Game(len(names), seed=seed)
    while not game.over:
        started = time.perf_counter()
        action = next_action(game, players)
        if on_decision is not None:
            on_decision(game, names[game.turn], time.perf_counter() - started)
        game.apply(action)
    return game


def score_of(game: Game, seat: int) -> tuple[float, float]:
    """(win share, margin over the best other total) of ``seat``."""
    winners = game.winners
    win = 1 / len(winners) if seat in winners else 0.0
    best_other = max(t for s, t in enumerate(game.totals) if s != seat)
    return win, game.totals[seat] - best_other


def duel(a: str, b: str, deals: int, seed: int, progress: str) -> dict[str, Any]:
    """``a`` against ``b`` over ``deals`` paired deals (2 games each, seats swapped)."""
    seeds = list(game_seeds(seed, deals))
    wins, margins, pair_margins = 0.0, [], []
    started = time.perf_counter()
    for i, s in enumerate(seeds):
        pair = []
        for names in ((a, b), (b, a)):
            game = play(names, s)
            w, m = score_of(game, names.index(a))
            wins += w
            margins.append(m)
            pair.append(m)
        pair_margins.append(statistics.fmean(pair))
        _progress(progress, i + 1, deals, started)
    games = 2 * deals
    low, high = wilson_interval(wins, games)
    m, mlo, mhi = mean_ci(pair_margins)
    return {"player": a, "opponent": b, "games": games, "paired_deals": deals, "seed": seed, "wins": wins,
            "win_rate": wins / games, "ci95": [low, high], "mean_margin": m, "margin_ci95": [mlo, mhi],
            "seconds": time.perf_counter() - started, "game_seeds": seeds}  # fmt: skip


def table_of_four(hero: str, other: str, deals: int, seed: int) -> dict[str, Any]:
    """One ``hero`` and three ``other`` at 4 players: each seed played 4 times, the hero in each seat."""
    seeds = list(game_seeds(seed, deals))
    wins, margins = 0.0, []
    started = time.perf_counter()
    for i, s in enumerate(seeds):
        deal_margin = []
        for seat in range(4):
            names = [other] * 4
            names[seat] = hero
            w, m = score_of(play(names, s), seat)
            wins += w
            deal_margin.append(m)
        margins.append(statistics.fmean(deal_margin))
        _progress("4 players", i + 1, deals, started)
    games = 4 * deals
    low, high = wilson_interval(wins, games)
    m, mlo, mhi = mean_ci(margins)
    return {"player": hero, "opponents": [other] * 3, "games": games, "paired_deals": deals, "seed": seed,
            "wins": wins, "win_rate": wins / games, "ci95": [low, high], "fair_share": 0.25,
            "mean_margin_vs_best_other": m, "margin_ci95": [mlo, mhi],
            "seconds": time.perf_counter() - started, "game_seeds": seeds}  # fmt: skip


def self_play(name: str, games: int, seed: int) -> dict[str, Any]:
    """Turns per round when ``name`` plays itself, and rounds reaching the turn limit."""
    seeds = list(game_seeds(seed, games))
    turns_by_size: dict[int, list[int]] = defaultdict(list)
    limit_hits = 0
    no_one_out = 0
    started = time.perf_counter()
    for i, s in enumerate(seeds):
        game = play((name, name), s)
        for record in game.log:
            draws = [a for a in record["actions"] if a["type"] == "draw"]
            per_player = max(sum(a["player"] == p for a in draws) for p in range(2))
            turns_by_size[record["cards"]].append(per_player)
            limit_hits += per_player >= TURN_LIMIT
            no_one_out += record.get("result", {}).get("went_out") is None
        _progress("self-play", i + 1, games, started)
    every = [t for ts in turns_by_size.values() for t in ts]
    return {"player": name, "games": games, "seed": seed, "rounds": len(every),
            "turns_per_round_mean": statistics.fmean(every), "turns_per_round_max": max(every),
            "by_round_size": {n: {"mean": statistics.fmean(ts), "max": max(ts)}
                              for n, ts in sorted(turns_by_size.items())},
            "turn_limit": TURN_LIMIT, "rounds_at_turn_limit": limit_hits, "rounds_nobody_went_out": no_one_out,
            "seconds": time.perf_counter() - started, "game_seeds": seeds}  # fmt: skip


def timing(name: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Decision times of ``name`` (every decision of ``games`` games against
    ``opponent``), by round size and phase, and whole-game times."""
    by_size: dict[int, list[float]] = defaultdict(list)
    by_kind: dict[str, list[float]] = defaultdict(list)
    game_times = []
    seeds = list(game_seeds(seed, games))

    def record(game: Game, who: str, seconds: float) -> None:
        if who == name:
            by_size[game.round_size].append(seconds)
            kind = "draw" if game.phase.value == "draw" else ("final turn" if game.final_turn else "discard")
            by_kind[kind].append(seconds)

    make_player(name, 0)  # imports, and the first compile, before any clock runs
    play((name, opponent), 1)
    first = time.perf_counter()
    for i, s in enumerate(seeds):
        names = (name, opponent) if i % 2 == 0 else (opponent, name)
        started = time.perf_counter()
        play(names, s, record)
        game_times.append(time.perf_counter() - started)
        _progress("timing", i + 1, games, first)
    every = sorted(t for ts in by_size.values() for t in ts)

    def summary(ts: list[float]) -> dict[str, float]:
        ts = sorted(ts)
        return {"decisions": len(ts), "median_ms": 1000 * statistics.median(ts),
                "p99_ms": 1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))], "max_ms": 1000 * ts[-1]}  # fmt: skip

    return {"player": name, "opponent": opponent, "games": games, "seed": seed, "all": summary(every),
            "by_round_size": {n: summary(ts) for n, ts in sorted(by_size.items())},
            "by_decision": {k: summary(ts) for k, ts in sorted(by_kind.items())},
            "game_seconds_median": statistics.median(game_times),
            "game_seconds_p90": sorted(game_times)[int(0.9 * (len(game_times) - 1))],
            "game_seeds": seeds}  # fmt: skip


_last_print = [0.0]


def _progress(label: str, done: int, total: int, started: float) -> None:
    now = time.perf_counter()
    if done == total or now - _last_print[0] > 30:
        _last_print[0] = now
        print(f"  {label}: {done}/{total} ({now - started:.0f} s)", file=sys.stderr, flush=True)


SECTIONS = ("greedy", "ev", "four", "self", "levels", "timing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--games", type=float, default=None, help="scale every game count by this factor")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections of {SECTIONS}")
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file ('-' for none)")
    args = parser.parse_args()
    scale = args.games if args.games is not None else (0.1 if args.quick else 1.0)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    for section in only:
        if section not in SECTIONS:
            parser.error(f"unknown section {section!r} (expected some of {', '.join(SECTIONS)})")

    def count(n: int) -> int:
        return max(1, round(n * scale))

    results: dict[str, Any] = {}
    if args.out != Path("-") and args.out.exists():
        results = json.loads(args.out.read_text())  # sections not rerun keep their last figures
    results.setdefault("sections", {})
    results.update({"machine": f"{platform.machine()}, {os.cpu_count()} cores (shared, noisy)",
                    "python": platform.python_version(), "scale": scale,
                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})  # fmt: skip
    out = results["sections"]

    def save() -> None:
        if args.out != Path("-"):
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1) + "\n")

    if "timing" in only:  # first: the shortest section, and the one a busy machine distorts most
        out["timing"] = timing("expert", "greedy", count(200), SEED + 10)
        save()
    if "greedy" in only:
        out["expert_vs_greedy"] = duel("expert", "greedy", count(1000), SEED + 1, "expert vs greedy")
        save()
    if "ev" in only:
        out["expert_vs_ev"] = duel("expert", "ev", count(1000), SEED + 2, "expert vs ev")
        out["ev_vs_greedy"] = duel("ev", "greedy", count(500), SEED + 3, "ev vs greedy")
        save()
    if "four" in only:
        out["expert_vs_3_greedy"] = table_of_four("expert", "greedy", count(250), SEED + 4)
        save()
    if "self" in only:
        out["expert_self_play"] = self_play("expert", count(500), SEED + 5)
        save()
    if "levels" in only:
        for a, b, k in (("medium", "easy", 6), ("hard", "medium", 7), ("greedy", "easy", 8), ("hard", "easy", 9)):
            out[f"{a}_vs_{b}"] = duel(a, b, count(500), SEED + k, f"{a} vs {b}")
            save()
    print_table(results)
    if args.out.resolve() == RESULTS.resolve():
        from plots import draw_after_benchmark

        draw_after_benchmark("ai_strength")  # docs/images/ shows this run


def print_table(results: dict[str, Any]) -> None:
    sections = results["sections"]
    print(f"AI benchmark ({results['machine']}, scale {results['scale']})")
    print(f"{'match':<26} {'games':>6} {'win rate':>9} {'95% CI':>15} {'margin':>8} {'margin 95% CI':>16}")
    for s in sections.values():
        if "win_rate" not in s:
            continue
        margin = s.get("mean_margin", s.get("mean_margin_vs_best_other", 0.0))
        label = f"{s['player']} vs {'3 ' + s['opponents'][0] if 'opponents' in s else s['opponent']}"
        print(f"{label:<26} {s['games']:>6} {s['win_rate']:>9.1%} "
              f"{'[' + format(s['ci95'][0], '.1%') + ', ' + format(s['ci95'][1], '.1%') + ']':>15} "
              f"{margin:>+8.1f} {'[' + format(s['margin_ci95'][0], '+.1f') + ', ' + format(s['margin_ci95'][1], '+.1f') + ']':>16}")  # fmt: skip
    if "expert_self_play" in sections:
        s = sections["expert_self_play"]
        print(f"expert self-play: {s['games']} games, {s['rounds']} rounds, turns per round mean "
              f"{s['turns_per_round_mean']:.2f} max {s['turns_per_round_max']}, rounds at the "
              f"{s['turn_limit']}-turn limit: {s['rounds_at_turn_limit']}")  # fmt: skip
    if "timing" in sections:
        t = sections["timing"]
        print(f"expert decision time over {t['games']} games vs {t['opponent']}: median {t['all']['median_ms']:.2f} ms, "
              f"p99 {t['all']['p99_ms']:.1f} ms, max {t['all']['max_ms']:.1f} ms; "
              f"game median {1000 * t['game_seconds_median']:.0f} ms")  # fmt: skip
        print(f"  {'cards':>5} {'decisions':>9} {'median ms':>9} {'p99 ms':>7}")
        for n, s in t["by_round_size"].items():
            print(f"  {n:>5} {s['decisions']:>9} {s['median_ms']:>9.2f} {s['p99_ms']:>7.1f}")
        for kind, s in t["by_decision"].items():
            print(f"  {kind:>10}: median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.1f} ms")


if __name__ == "__main__":
    main()
