"""What master's rollout policies cost, and what their two savings change.

    python benchmarks/bench_master_rollouts.py               # 8 games' searched positions, 3 passes
    python benchmarks/bench_master_rollouts.py --games 20 --passes 5

The positions are every move master searched in games against the expert
(seed 31337, a tuning seed, not the strength benchmark's).  Each is
searched by master's registered settings with three sets of rollout
policies, the variants alternating pass by pass in one process (the
machine's load hits them alike), every memo emptied before each
variant's pass:

- ``explained``: the expert and ``ev`` as they play in a game, building
  each decision's reason and valuing a final turn's possible draws with
  the bonuses they would win;
- ``silent``: the same decisions without the reasons (exactly the same
  moves);
- ``plain final draw``: also choosing a final turn's draw by plain scores
  (master's own rollouts).

The table gives each variant's total CPU time (the thread's, median over
the passes) with its ratio to ``explained``, the median, p99 and slowest
search, and how many searches choose the same move as ``explained``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a source tree too

from quiddler.game import Game, PlayerView, evaluate, make_player, master
from quiddler.game.ai import EV, EXPERT, AIPlayer, Tuning, advise
from quiddler.game.hint_types import HintOption
from quiddler.game.players import clear_solve_cache
from quiddler.game.runner import game_seeds, next_action
from quiddler.game.state import Phase

RESULTS = Path(__file__).parent / "results" / "master_rollouts.json"
SEED = 31337


class Explaining(AIPlayer):
    """An AIPlayer that builds the reason of every decision, as it did before players skipped it."""

    def _choose(self, view: PlayerView) -> HintOption:
        return advise(view, self.tuning).options[0]


def variants() -> dict[str, dict[str, AIPlayer]]:
    def plain(t: Tuning) -> Tuning:
        return replace(t, final_draw_bonuses=False)

    return {
        "explained": {"expert": Explaining(EXPERT), "ev": Explaining(EV)},
        "silent": {"expert": AIPlayer(EXPERT), "ev": AIPlayer(EV)},
        "plain final draw": {"expert": AIPlayer(plain(EXPERT)), "ev": AIPlayer(plain(EV))},
    }


def searched_positions(games: int) -> list[PlayerView]:
    views = []
    for seed in game_seeds(SEED, games):
        players = [make_player("master", seed + 1), make_player("expert", seed + 2)]
        game = Game(2, seed=seed)
        while not game.over:
            view = game.view(game.turn)
            if game.turn == 0 and view.phase is Phase.DISCARD and master.searchable(view):
                views.append(view)
            game.apply(next_action(game, players))
    return views


def move(result: master.Search | None) -> tuple[object, ...] | None:
    if result is None:
        return None
    best = result.best
    return best.action, best.card, best.words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--out", default=str(RESULTS), help="JSON results file ('-' for none)")
    args = parser.parse_args()
    views = searched_positions(args.games)
    policies = variants()
    totals: dict[str, list[float]] = {name: [] for name in policies}
    times: dict[str, list[float]] = {}
    moves: dict[str, list[tuple[object, ...] | None]] = {}
    saved = dict(master._POLICIES)
    try:
        for _ in range(args.passes):
            for name, chosen in policies.items():
                master._POLICIES.clear()
                master._POLICIES.update(chosen)
                evaluate._SCORERS.clear()
                clear_solve_cache()
                spent, found = [], []
                for view in views:
                    start = time.thread_time()
                    found.append(move(master.search(view, salt=1)))
                    spent.append(time.thread_time() - start)
                totals[name].append(sum(spent))
                if name not in times or sum(spent) < sum(times[name]):
                    times[name] = spent
                moves[name] = found
    finally:
        master._POLICIES.clear()
        master._POLICIES.update(saved)
    base = statistics.median(totals["explained"])
    searched = [i for i, m in enumerate(moves["explained"]) if m is not None]
    rows: dict[str, Any] = {}
    print(f"{len(views)} searched positions of {args.games} games (seed {SEED}), {args.passes} passes")
    print(f"{'rollout policies':18s} {'CPU s':>7s} {'ratio':>6s} {'median':>7s} {'p99':>6s} {'max':>6s}  same move")
    for name in policies:
        spent = sorted(times[name])
        total = statistics.median(totals[name])
        same = sum(moves[name][i] == moves["explained"][i] for i in searched)
        rows[name] = {"cpu_s_median": total, "cpu_s_passes": totals[name], "ratio": total / base,
                      "search_median_ms": 1000 * statistics.median(spent),
                      "search_p99_ms": 1000 * spent[min(len(spent) - 1, int(0.99 * len(spent)))],
                      "search_max_ms": 1000 * spent[-1], "same_move": same, "searches": len(searched)}  # fmt: skip
        r = rows[name]
        print(f"{name:18s} {total:7.2f} {r['ratio']:6.2f} {r['search_median_ms']:5.0f}ms {r['search_p99_ms']:4.0f}ms "
              f"{r['search_max_ms']:4.0f}ms  {same}/{len(searched)}")  # fmt: skip
    if args.out != "-":
        data = {"machine": f"{platform.machine()}, {os.cpu_count()} cores (shared, noisy)",
                "python": platform.python_version(), "seed": SEED, "games": args.games, "passes": args.passes,
                "positions": len(views), "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "load_average": os.getloadavg(), "variants": rows}  # fmt: skip
        Path(args.out).write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
