"""MkDocs hook: tables on the benchmarks page drawn from benchmarks/results/.

A page's ``<!-- bench: NAME -->`` is replaced by the table NAME, built
from the JSON the benchmark scripts wrote, so the page shows the same run as
the pictures and never a number copied by hand.  A missing results file or
an unknown table name fails a strict build (it is logged as a warning).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.bench_tables")
RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
MARKER = re.compile(r"<!-- bench: ([\w-]+) -->")


def _load(name: str) -> dict[str, Any]:
    return dict(json.loads((RESULTS / name).read_text()))


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _us(entry: dict[str, Any] | None) -> str:
    if not entry:
        return "-"
    value = entry["median_us"]
    return f"{value / 1000:,.2f} ms" if value >= 1000 else f"{value:,.1f} µs"


def solver_latency() -> str:
    data = _load("solver.json")
    rows = []
    for size in sorted(data["latency"], key=int):
        row = data["latency"][size]
        naive = row.get("naive_over_numba_solve")
        rows.append([
            size, _us(row.get("kernel")), f"{row['kernel']['p99_us']:,.1f} µs", _us(row.get("solve")),
            _us(row.get("python")), _us(row.get("naive")), f"{naive:,.0f}×" if naive else "-",
        ])  # fmt: skip
    return _table(
        ["cards", "kernel median", "kernel p99", "solve() median", "pure Python", "naive reference",
         "naive / solve()"], rows,
    )  # fmt: skip


def solver_batch() -> str:
    data = _load("solver.json")
    batch, words = data["batch"], data["wordlist"]
    rows = [
        ["`solve_many`, 1 thread / all threads",
         f"{batch['threads_1_hands_per_s']:,.0f} / {batch['threads_2_hands_per_s']:,.0f} hands/s"],
        ["`score_many`, 1 thread / all threads",
         f"{batch['score_many_threads_1_hands_per_s']:,.0f} / {batch['score_many_threads_2_hands_per_s']:,.0f} hands/s"],
        ["`solve()` in a loop", f"{batch['solve_loop_hands_per_s']:,.0f} hands/s"],
        ["ENABLE card trie: first build / load from the cache",
         f"{words['first_build_s']:.2f} s / {words['cached_load_ms']:.0f} ms"],
        ["resident memory after loading ENABLE / with numba loaded",
         f"{words['rss_after_load_mb']:.0f} MB / {words['rss_with_numba_mb']:.0f} MB"],
    ]  # fmt: skip
    return _table(["what", f"measured ({batch['hands']:,} hands of 4-11 cards)"], rows)


def startup() -> str:
    data = _load("startup.json")
    rows = [[f"`{cmd}`", f"{t['median_s'] * 1000:,.0f} ms", f"{t['p90_s'] * 1000:,.0f} ms"]
            for cmd, t in data["startup"]["commands"].items()]  # fmt: skip
    return _table(["command", "median", "p90"], rows)


def game() -> str:
    data = _load("game.json")
    rows = [[name, f"{t['games_per_second_median']:,.0f}", f"{t['seconds_per_game_median'] * 1000:,.1f} ms",
             f"{t['seconds_per_game_max'] * 1000:,.0f} ms"] for name, t in data["throughput"].items()]  # fmt: skip
    return _table(["players", "games/s", "median per game", "slowest game"], rows)


def ai_strength() -> str:
    rows = []
    for section in _load("ai.json")["sections"].values():
        if "win_rate" not in section:
            continue
        opponents = section.get("opponents") or [section["opponent"]]
        against = f"{len(opponents)} × {opponents[0]}" if len(opponents) > 1 else opponents[0]
        low, high = section["ci95"]
        margin = section.get("mean_margin", section.get("mean_margin_vs_best_other"))
        rows.append([f"{section['player']} vs {against}", f"{section['games']:,}", f"{section['win_rate']:.1%}",
                     f"{low:.1%} - {high:.1%}", f"{margin:+.1f}" if margin is not None else "-"])  # fmt: skip
    return _table(["match", "games", "win rate", "95% interval", "mean margin"], rows)


def ai_timing() -> str:
    timing = _load("ai.json")["sections"]["timing"]
    rows = [[name, f"{t['decisions']:,}", f"{t['median_ms']:.2f} ms", f"{t['p99_ms']:.1f} ms"]
            for name, t in [("all", timing["all"]), *timing["by_decision"].items()]]  # fmt: skip
    rows.append(["a whole 2-player game", "", f"{timing['game_seconds_median'] * 1000:,.0f} ms", ""])
    return _table([f"{timing['player']} decisions ({timing['games']} games vs {timing['opponent']})", "count",
                   "median", "p99"], rows)  # fmt: skip


def _interval(values: list[float], fmt: str) -> str:
    return f"{values[1]:{fmt}} .. {values[2]:{fmt}}"


def master_strength() -> str:
    data = _load("master.json")
    ex, ev, four = data["master_vs_expert"], data["vs_ev"], data["master_vs_3_expert"]

    def row(name: str, games: int, stats: dict[str, Any], margin: list[float]) -> list[str]:
        low, high = stats["ci95"]
        return [name, f"{games:,}", f"{stats['win_rate']:.1%}", f"{low:.1%} - {high:.1%}", f"{margin[0]:+.1f}",
                _interval(margin, "+.1f")]  # fmt: skip

    gain = ev["margin_gain"]
    rows = [
        row("master vs expert", ex["games"], ex, ex["margin"]),
        row("master vs ev", ev["games_each"], ev["master"], ev["master"]["margin"]),
        row("expert vs ev, the same deals", ev["games_each"], ev["expert"], ev["expert"]["margin"]),
        ["master's gain vs ev over the expert", f"{ev['games_each'] // 2:,} deals", "", "",
         f"{gain[0]:+.1f}", _interval(gain, "+.1f")],
        row("1 master vs 3 expert", four["games"], four, four["margin_vs_best_other"]),
    ]  # fmt: skip
    return _table(["match", "games", "win rate", "95% (Wilson)", "margin", "95%"], rows)


def master_timing() -> str:
    data = _load("master.json")
    times = data["decision_times"]
    rows = [[what, f"{t['decisions']:,}", f"{t['median_ms']:.2f} ms" if t["median_ms"] < 10 else
             f"{t['median_ms']:.0f} ms", f"{t['p99_ms']:.0f} ms" if t["p99_ms"] >= 10 else f"{t['p99_ms']:.1f} ms",
             f"{t['max_ms']:.0f} ms"]
            for what, t in (("master, searched", times["searched_cpu"]), ("master, all", times["all_cpu"]),
                            ("the expert in the same games, all", times["expert_all_cpu_same_games"]),
                            ("master at four players, searched", times["four_players_searched_cpu"]))]  # fmt: skip
    game = times["two_player_game_cpu_s"]
    rows.append(["master's thinking per two-player game", "", f"{game['median']:.2f} s", f"p90 {game['p90']:.2f} s",
                 f"{game['max']:.2f} s"])  # fmt: skip
    return _table(["decisions (CPU time of one core)", "count", "median", "p99", "max"], rows)


def master_turns() -> str:
    data = _load("master.json")["turns_per_round"]
    rows = [[who, f"{t['rounds']:,}", f"{t['mean']:.2f}", str(t["max"]), str(t["rounds_at_turn_limit"])]
            for who, t in data.items()]  # fmt: skip
    return _table(["games", "rounds", "turns per player per round, mean", "max", "rounds at the turn limit"], rows)


def master_rollouts() -> str:
    data = _load("master_rollouts.json")
    rows = [[name, f"{v['cpu_s_median']:.2f} s", f"{v['ratio']:.2f}", f"{v['search_median_ms']:.0f} ms",
             f"{v['search_p99_ms']:.0f} ms", f"{v['same_move']} of {v['searches']}"]
            for name, v in data["variants"].items()]  # fmt: skip
    return _table([f"rollout policies ({data['positions']} positions)", "CPU", "ratio", "search median",
                   "search p99", "same move as explained"], rows)  # fmt: skip


FIRST_USE = {
    "first_cli_s": "first `quiddler solve`, empty caches",
    "warm_cli_s": "the same command again",
    "first_library_solve_call_s": "first `solve()` in a new process, empty numba cache",
    "compile_all_cpu_s": "compiling every kernel (CPU seconds)",
    "warm_numba_cpu_s": "loading the compiled kernels from the cache (CPU seconds)",
}


def first_use() -> str:
    data = _load("first_use.json")
    runs = data["runs"]

    def median(tree: str, key: str) -> float:
        values = sorted(run[key] for run in runs[tree] if key in run)
        middle = len(values) // 2
        return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

    rows = [[label, f"{median('baseline', key):.2f} s", f"{median('this tree', key):.2f} s"]
            for key, label in FIRST_USE.items() if key in runs["this tree"][0]]  # fmt: skip
    return _table(["what", "before", "after"], rows)  # the trees are named in the JSON, not here


def extremes() -> str:
    rows = []
    for case in _load("extremes.json")["cases"]:
        for result in case["results"]:
            seconds = result.get("median_seconds")
            rows.append([case["case"], result["backend"], f"{seconds:,.2f} s" if seconds is not None else "-",
                         f"{result['peak_mb']:,} MB" if result.get("peak_mb") is not None else "-",
                         str(result.get("outcome", ""))])  # fmt: skip
    return _table(["hand", "backend", "median time", "peak memory", "outcome"], rows)


def scale() -> str:
    data = _load("scale.json")
    sim, dask, odds = data["simulate"], data["dask"], data["odds"]
    per_second = f"{sim['games_per_second_1_worker']:,.0f} / {sim['games_per_second_2_workers']:,.0f} games/s"
    speedup = f"{sim['speedup']:.2f}×; {sim['speedup_if_2_free_cores']:.2f}× estimated with a free core each"
    same = "yes" if dask["identical_results"] else "NO"
    rows = [
        [f"simulate, {sim['games']:,} games, 1 worker / 2 workers", f"{per_second} ({speedup})"],
        ["the same on a Dask LocalCluster (2 workers)",
         f"{dask['games_per_second_dask']:,.0f} games/s, identical results: {same}"],
    ]  # fmt: skip
    for size, row in odds["one_size"].items():
        seconds = sorted(row["seconds"])[len(row["seconds"]) // 2]
        ratio = f"{row['ratio_vs_published_47s']:.0f}× faster than the published tool's 47 s"
        rows.append([f"odds, {odds['trials']:,} deals of {size} cards", f"{seconds:.2f} s ({ratio})"])
    rows.append([f"odds table, sizes 3-10, {odds['trials']:,} deals each",
                 f"{odds['table_3_10_seconds_median']:.1f} s"])  # fmt: skip
    return _table(["what", "measured"], rows)  # fmt: skip


def odds_table() -> str:
    table = _load("scale.json")["odds"]["table"]
    rows = [[str(r["cards"]), f"{r['go_out']:.2%}", f"{r['se']:.2%}", f"{r['best_score']['mean']:.1f}",
             ", ".join(f"{q:g}" for q in r["best_score"]["quartiles"])] for r in table["rows"]]  # fmt: skip
    return _table(["cards", "go out on the first turn", "se", "best score mean", "quartiles"], rows)


def web() -> str:
    data = _load("web.json")
    rows = [[f"{s['tables']:,}", f"{s['actions_per_s']:,.0f}", f"{s['rtt_ms']['median']:.1f} ms",
             f"{s['rtt_ms']['p99']:.0f} ms", f"{s['ping_ms']['median']:.1f} ms", f"{s['ping_ms']['p99']:.0f} ms",
             f"{s['server_ms']['median']:.2f} ms" if s.get("server_ms", {}).get("median") is not None else "-",
             f"{s['server_ms']['p99']:.1f} ms" if s.get("server_ms", {}).get("p99") is not None else "-",
             f"{s['computer_turn_ms']['median']:.0f} ms", f"{s['rss_per_table_kib']:,.0f} KiB",
             f"{s['server_cpu']:.2f}", f"{s['load_average']:.1f}"] for s in data["steps"]]  # fmt: skip
    return _table(
        ["tables", "actions/s", "action median", "action p99", "ping median", "ping p99", "in server median",
         "in server p99", "computer turn",
         "memory per table", "server CPU", "machine load"], rows,
    )  # fmt: skip


def _review_rows(section: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name in ("random", "greedy", "ev", "expert"):
        row = section[name]
        loss, accuracy = row["mean_loss"], row["accuracy"]
        rows.append([name, f"{row['games']:,}", f"{row['decisions']:,}", f"{loss[0]:.2f}", _interval(loss, ".2f"),
                     f"{accuracy[0]:.1f}", _interval(accuracy, ".1f"), f"{row['share_imperfect']:.0%}"])  # fmt: skip
    return rows


def review_players() -> str:
    data = _load("review.json")
    return _table(["player", "games", "decisions", "loss per decision", "95%", "accuracy", "95%", "imperfect"],
                  _review_rows(data["players"]))  # fmt: skip


def review_master() -> str:
    data = _load("review.json")
    return _table(["player", "games", "decisions", "loss per decision", "95%", "accuracy", "95%", "imperfect"],
                  _review_rows(data["players_master"]))  # fmt: skip


def review_quantiles() -> str:
    data = _load("review.json")
    pooled = data["players"]["pooled_imperfect"]
    limits = data["label_limits"]
    sets = {"p10": "good below it", "p25": "inaccuracy below it", "p50": "", "p75": "mistake below it, blunder above",
            "p90": ""}  # fmt: skip
    rows = [[f"{q[1:]}th percentile", f"{value:.2f}", sets[q]] for q, value in pooled["losses"].items()]
    rows.append(["label limits in use", ", ".join(f"{k} < {v:g}" for k, v in list(limits.items())[:4]), ""])
    return (f"{pooled['decisions']:,} imperfect decisions (a loss of {limits['best']:g} or more) of "
            f"{', '.join(pooled['players'])}, reviewed by the expert:\n\n"
            + _table(["of their losses (points)", "value", "sets"], rows))  # fmt: skip


def review_speed() -> str:
    data = _load("review.json")
    speed = data["speed"]
    parts = speed["expert_seconds_by_part"]
    rows = [["expert, one core", f"{speed['expert_s']['median']:.2f} s", f"{speed['expert_s']['max']:.2f} s"],
            [f"master, {speed['workers_master']} worker processes", f"{speed['master_s']['median']:.1f} s",
             f"{speed['master_s']['max']:.1f} s"]]  # fmt: skip
    where = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in parts.items())
    load = speed.get("load_before", data["load_before"])[0], speed.get("load_after", data["load_after"])[0]
    return (_table([f"review of an 8-round two-player game ({speed['games']} games)", "median", "max"], rows)
            + f"\n\nOne core, per game: {where}; master searched "
              f"{speed['master_searched_decisions_per_game']:.1f} decisions a game. "
              f"Load average {load[0]:.1f} when the run started, {load[1]:.1f} when it ended (2 cores).")


def review_late_wait() -> str:
    data = _load("review.json")["late_wait"]
    rows = [[what, f"{data[key][0]:+.2f}", _interval(data[key], "+.2f")]
            for what, key in (("the formula (look-ahead, no credit)", "formula_gap"),
                              (f"{data['samples']} simulated finishes", "simulated_gap"),
                              ("simulated less formula", "simulated_less_formula"))]  # fmt: skip
    return (f"{data['positions']} of the expert's going-out moves after its first turn, {data['games']} games; "
            "going out less the best wait, in points:\n\n" + _table(["valued by", "mean", "95%"], rows))


def mutation() -> str:
    data = _load("mutation.json")
    rows = []
    for name, m in [*data["by_module"].items(), ("all", data["overall"])]:
        module = f"`{m['path']}`" if "path" in m else f"**{name}**"
        run = f"{m['mutants']:,}" if m["mutants"] == m["in_code"] else f"{m['mutants']:,} of {m['in_code']:,}"
        low, high = m.get("score_95") or (None, None)
        if "path" not in m:
            interval = "-"  # samples of different sizes: no one interval for them all
        elif m["mutants"] < m["in_code"]:
            interval = f"{low:.0%} - {high:.0%}"
        else:
            interval = "(all run)"
        rows.append([module, run, f"{m['caught']:,}", f"{m['timeout']:,}", f"{m['survived']:,}",
                     f"{m['score']:.0%}" if m["score"] is not None else "-", interval])  # fmt: skip
    return _table(["module", "mutants run", "caught", "timed out", "survived", "score", "95% (sample)"], rows)


def machine() -> str:
    info = _load("solver.json")["machine"]
    text = (f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores, Python {info.get('python', '?')}, "
            f"numba {info.get('numba', '?')}")  # fmt: skip
    load = info.get("load_average")
    if load:
        text += f" (load average {load[0]:.1f} when the solver benchmark ran)"
    return text


TABLES: dict[str, Callable[[], str]] = {
    "solver-latency": solver_latency,
    "solver-batch": solver_batch,
    "startup": startup,
    "game": game,
    "first-use": first_use,
    "scale": scale,
    "odds": odds_table,
    "extremes": extremes,
    "ai-strength": ai_strength,
    "ai-timing": ai_timing,
    "machine": machine,
    "web": web,
    "master-strength": master_strength,
    "master-timing": master_timing,
    "master-turns": master_turns,
    "master-rollouts": master_rollouts,
    "review-players": review_players,
    "review-master": review_master,
    "review-quantiles": review_quantiles,
    "review-speed": review_speed,
    "review-late-wait": review_late_wait,
    "mutation": mutation,
}


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        try:
            return TABLES[name]()
        except (KeyError, OSError, ValueError, TypeError) as exc:
            log.warning("benchmark table %r could not be made: %s: %s", name, type(exc).__name__, exc)
            return f"*(table {name} unavailable)*"

    return MARKER.sub(replace, markdown)
