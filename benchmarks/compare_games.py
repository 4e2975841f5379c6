"""Whole games and ``master``'s searched decisions in CPU time, this tree
against a baseline commit in the same run, and proof that both trees play
the very same games.

Each tree runs in a fresh process per repeat; by default the trees'
processes of a repeat run at the same time (see ``compare.side_by_side``:
on this shared machine, runs one after the other meet loads too different
to compare), with ``--one-at-a-time`` in turn.  A process plays seeded
two-player games (greedy vs greedy, expert vs expert) and reports games
per CPU second of the whole loop; then ``master`` against
the expert, with every searched decision timed in the thread's CPU time
(median and p99).  Each section also reports a digest of its game records
(every action of every game, and ``master``'s chosen moves): the trees must
give the same digests, or the comparison is void (the script says so).
Each section starts after a full collection: where the warm-up or the
section before it leaves the collector's counters would otherwise decide
whether a full collection falls inside a section's timing or just after it.

Usage: python benchmarks/compare_games.py [--baseline REV | --tree PATH] [--repeats N] [--one-at-a-time]
       [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
from pathlib import Path
from typing import Any

from compare import ROOT, baseline_rev, checkout, round_robin, run_probe, side_by_side

_PROBE = """
import gc, hashlib, json, sys, time
from quiddler.game import Game, make_player
from quiddler.game.master import MasterPlayer
from quiddler.game.record import game_record_text
from quiddler.game.runner import game_seeds, next_action
from quiddler.solver._backends import warm

warm()
GREEDY, EXPERT, MASTER = {greedy}, {expert}, {master}

def games(names, count, seed):
    digest = hashlib.sha256()
    seeds = list(game_seeds(seed, count))
    gc.collect()  # each section starts with the collector's counters at zero, whatever ran before
    started = time.process_time()
    for s in seeds:
        players = [make_player(name, s + seat) for seat, name in enumerate(names)]
        game = Game(len(names), seed=s)
        while not game.over:
            game.apply(next_action(game, players))
        digest.update(game_record_text(game, names).encode())
    return count / (time.process_time() - started), digest.hexdigest()[:16]

out, digests = {{}}, {{}}
games(["greedy", "expert"], 1, 1)  # a warm-up game: the kernels and the card trie load
out["greedy_games_per_cpu_s"], digests["greedy"] = games(["greedy", "greedy"], GREEDY, 20261)
out["expert_games_per_cpu_s"], digests["expert"] = games(["expert", "expert"], EXPERT, 20262)
gc.collect()
searched, digest = [], hashlib.sha256()
for s in game_seeds(20263, MASTER):
    players = [MasterPlayer(s + 1), make_player("expert", s + 2)]
    game = Game(2, seed=s)
    while not game.over:
        seat = game.turn
        before = len(players[0].searches)
        started = time.thread_time()
        action = next_action(game, players)
        spent = time.thread_time() - started
        if seat == 0 and len(players[0].searches) > before:
            searched.append(spent)
        game.apply(action)
    digest.update(game_record_text(game).encode())
searched.sort()
out["master_searched_median_ms"] = 1000 * searched[len(searched) // 2]
out["master_searched_p99_ms"] = 1000 * searched[min(len(searched) - 1, int(0.99 * len(searched)))]
out["master_searched_decisions"] = len(searched)
digests["master"] = digest.hexdigest()[:16]
print(json.dumps({{"figures": out, "digests": digests}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="commit to compare with (default: merge-base with main)")
    parser.add_argument("--tree", type=Path, default=None, help="a source tree to compare with instead of a commit")
    parser.add_argument("--repeats", type=int, default=5, help="processes per tree (default 5)")
    parser.add_argument("--greedy", type=int, default=300, help="greedy games per process")
    parser.add_argument("--expert", type=int, default=30, help="expert games per process")
    parser.add_argument("--master", type=int, default=3, help="master games per process")
    parser.add_argument("--one-at-a-time", action="store_true",
                        help="run the trees' processes in turn (default: both at once, each repeat)")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "games-vs-baseline.json"))
    args = parser.parse_args()
    code = _PROBE.format(greedy=args.greedy, expert=args.expert, master=args.master)
    baseline = str(args.tree) if args.tree else baseline_rev(args.baseline)
    load_before = os.getloadavg()
    digests: dict[str, set[str]] = {}

    def figures(tree: Path, result: dict[str, Any]) -> dict[str, float]:
        for section, digest in result["digests"].items():
            digests.setdefault(f"{tree}:{section}", set()).add(digest)
        return result["figures"]  # type: ignore[no-any-return]

    with tempfile.TemporaryDirectory(prefix="quiddler-games-") as folder:
        base = args.tree if args.tree else checkout(baseline, Path(folder) / "baseline")
        trees = {"baseline": base, "this tree": ROOT}
        for tree in trees.values():  # fill each tree's numba cache and card trie cache first
            run_probe(tree, "from quiddler import default_wordlist\nfrom quiddler.solver._backends import get_backend\n"
                            "get_backend('numba'); default_wordlist().card_trie; print('{}')")
        if args.one_at_a_time:
            runs = round_robin(trees, args.repeats, lambda tree: figures(tree, run_probe(tree, code)), ".2f")
        else:
            runs = side_by_side(trees, args.repeats, code, ".2f", figures)
        same = all(digests[f"{base}:{s}"] == digests[f"{ROOT}:{s}"] for s in ("greedy", "expert", "master"))
    medians = {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]} for name, rs in runs.items()}
    ratios = {key: medians["this tree"][key] / medians["baseline"][key] for key in medians["baseline"]}
    print(f"\nmedians of {args.repeats} processes per tree; baseline {baseline}; ratio = this tree / baseline")
    for key in medians["baseline"]:
        print(f"{key:<28} {medians['baseline'][key]:>9.2f} {medians['this tree'][key]:>9.2f} {ratios[key]:>6.2f}")
    print("same games and moves in both trees:", "yes" if same else f"NO: {digests}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "load_average_before": load_before,
               "load_average_after": os.getloadavg()}  # fmt: skip
    result = {"machine": machine, "baseline": baseline, "side_by_side": not args.one_at_a_time, "games": {"greedy": args.greedy, "expert": args.expert,
              "master": args.master}, "runs": runs, "medians": medians, "ratio_this_tree_to_baseline": ratios,
              "same_games": same}  # fmt: skip
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
