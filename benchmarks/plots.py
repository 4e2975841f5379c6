"""The documentation's pictures, drawn with matplotlib from the benchmarks'
JSON (benchmarks/results/*.json) and written to docs/images/.

    python benchmarks/plots.py                 # every picture
    python benchmarks/plots.py solve_time      # just some of them

The benchmark scripts call this at the end of a run, so the pictures always
show the numbers in the results folder.  Pictures:

* solve_time.png: solve time by hand size, ours (compiled kernel, solve(),
  the pure-Python backend) and the tests' naive reference, log scale
  (results/solver.json);
* go_out_odds.png: the chance a hand can go out on its first turn, by round,
  from the first-turn odds table in results/ (benchmarks/bench_scale.py);
* ai_strength.png: win rates with their 95% intervals for every head-to-head
  result in results/*.json (the AI benchmark's duels, and anything in the
  simulate JSON shape);
* split.png: how one hand is split into words (solved when drawn).

Needs the ``docs`` extra (``pip install '.[docs]'``) for matplotlib.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a source tree too

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from quiddler.game.runner import wilson_interval

RESULTS = ROOT / "benchmarks" / "results"
IMAGES = ROOT / "docs" / "images"

#: Published first-turn go-out odds for a 20,000-word common-word list
#: (hand of n cards, the face-up discard or else a blind draw, perfect play).
PUBLISHED_ODDS = {3: 0.787, 4: 0.786, 5: 0.830, 6: 0.864, 7: 0.878, 8: 0.889, 9: 0.902, 10: 0.920}

TEAL, ORANGE, GREY, PURPLE = "#00897b", "#ef6c00", "#757575", "#6a1b9a"
NOTE = "shared, noisy 2-core machine; medians"


def _style() -> None:
    plt.rcParams.update({
        "figure.dpi": 110, "savefig.dpi": 110, "font.size": 10, "axes.spines.top": False,
        "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "savefig.bbox": "tight",
    })  # fmt: skip


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / name
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _save(fig: Any, name: str) -> Path:
    IMAGES.mkdir(parents=True, exist_ok=True)
    path = IMAGES / name
    fig.savefig(path, metadata={"Software": None})  # no version stamp: redraws differ only by data
    plt.close(fig)
    return path


# -- solve time ------------------------------------------------------------------


def solve_time() -> Path | None:
    """Median time per hand by hand size, log scale, from results/solver.json."""
    data = _load("solver.json")
    if not data or "latency" not in data:
        return None
    sizes = sorted(int(k) for k in data["latency"])
    series = [
        ("kernel", "compiled kernel (numba)", TEAL, "o"),
        ("solve", "solve(), numba backend", ORANGE, "s"),
        ("python", "solve(), pure-Python backend", PURPLE, "^"),
        ("naive", "naive reference (tests/naive.py)", GREY, "x"),
    ]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for key, label, colour, marker in series:
        points = [(n, data["latency"][str(n)][key]) for n in sizes if key in data["latency"][str(n)]]
        if not points:
            continue
        xs = [n for n, _ in points]
        ax.plot(xs, [p["median_us"] for _, p in points], marker=marker, color=colour, label=label)
        if "p99_us" in points[0][1]:
            ax.fill_between(xs, [p["median_us"] for _, p in points], [p["p99_us"] for _, p in points],
                            color=colour, alpha=0.08, linewidth=0)  # fmt: skip
    ax.set_yscale("log")
    ax.set_xlabel("cards in hand (dealt + drawn, one to discard)")
    ax.set_ylabel("time per hand (µs, log scale)")
    ax.set_xticks(sizes)
    hands = data.get("hands_per_size", "?")
    ax.set_title(f"Solve time by hand size: median (line) to p99 (shade)\n{hands} dealt hands a size; {NOTE}",
                 fontsize=10)  # fmt: skip
    ax.legend(frameon=False, fontsize=9)
    return _save(fig, "solve_time.png")


# -- go-out odds -------------------------------------------------------------------


def _find(data: Any, test: Callable[[dict[str, Any]], bool], path: str = "") -> Iterator[tuple[str, Any]]:
    """Every dict inside ``data`` (depth first) that passes ``test``, with its path."""
    if isinstance(data, dict):
        if test(data):
            yield path, data
            return
        for key, value in data.items():
            yield from _find(value, test, f"{path}/{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _find(value, test, f"{path}[{i}]")


def _is_odds_table(d: dict[str, Any]) -> bool:
    rows = d.get("rows")
    return isinstance(rows, list) and bool(rows) and all(isinstance(r, dict) and "go_out" in r for r in rows)


def _odds_from_results() -> tuple[dict[int, tuple[float, float]], str] | None:
    for path in sorted(RESULTS.glob("*.json")):
        data = _load(path.name)
        for _, table in _find(data, _is_odds_table):
            if table.get("turn", "first") != "first":
                continue
            rows = {int(r["cards"]): (float(r["go_out"]), float(r.get("se", 0.0))) for r in table["rows"]}
            trials = table.get("trials")
            count = f"{trials:,}" if isinstance(trials, int) else "?"
            return rows, f"{count} deals a size (benchmarks/results/{path.name})"
    return None


def go_out_odds() -> Path | None:
    """The first-turn odds table of the scale benchmark (results/scale.json)."""
    found = _odds_from_results()
    if found is None:
        return None
    rows, source = found
    sizes = sorted(rows)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.errorbar(sizes, [rows[n][0] for n in sizes], yerr=[1.96 * rows[n][1] for n in sizes], marker="o",
                color=TEAL, capsize=3, label="ENABLE (quiddler), 95% interval")  # fmt: skip
    published = [n for n in sizes if n in PUBLISHED_ODDS]
    ax.plot(published, [PUBLISHED_ODDS[n] for n in published], linestyle="--", marker="x", color=GREY,
            label="published, 20,000 common words")  # fmt: skip
    ax.set_xticks(sizes)
    ax.set_xticklabels([f"{n}\n(round {n - 2})" for n in sizes])
    ax.set_xlabel("cards dealt")
    ax.set_ylabel("chance to go out on the first turn")
    ax.set_ylim(0.5, 1.0)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_title(f"Go-out odds by round: dealt hand + the up card, else a blind draw\n{source}", fontsize=10)
    ax.legend(frameon=False, loc="lower right", fontsize=9)
    return _save(fig, "go_out_odds.png")


# -- AI strength -------------------------------------------------------------------


def _is_simulation(d: dict[str, Any]) -> bool:
    """The `quiddler simulate --json` shape: per-strategy statistics."""
    strategies = d.get("strategies")
    return isinstance(strategies, dict) and bool(strategies) and "games" in d and all(
        isinstance(s, dict) and "win_rate" in s for s in strategies.values()
    )


def _is_duel(d: dict[str, Any]) -> bool:
    """The AI benchmark's shape: one player's wins against named opponents."""
    return "player" in d and "win_rate" in d and ("opponent" in d or "opponents" in d)


@dataclass(frozen=True)
class Matchup:
    """One strategy's win rate against others, with its 95% interval."""

    label: str
    win_rate: float
    ci95: tuple[float, float]
    fair_share: float


def matchups() -> list[Matchup]:
    """Every head-to-head result in results/*.json: the AI benchmark's duels,
    then simulate-shaped results (their first-named strategy)."""
    found = []
    every = [_load(path.name) for path in sorted(RESULTS.glob("*.json"))]
    for data in every:
        for _, duel in _find(data, _is_duel):
            opponents = duel.get("opponents") or [duel["opponent"]]
            against = (f"{len(opponents)} {opponents[0]}" if len(set(opponents)) == 1 and len(opponents) > 1
                       else ", ".join(opponents))  # fmt: skip
            low, high = duel.get("ci95") or wilson_interval(duel["wins"], duel["games"])
            found.append(Matchup(f"{duel['player']} vs {against}  ({duel['games']:,} games)", duel["win_rate"],
                                 (low, high), duel.get("fair_share", 1 / (1 + len(opponents)))))  # fmt: skip
    for data in every:
        for _, sim in _find(data, _is_simulation):
            names = sim.get("players") or list(sim["strategies"])
            first = sim["strategies"][names[0]]
            low, high = first.get("ci95") or wilson_interval(first["wins"], first.get("seats", sim["games"]))
            found.append(Matchup(f"{' vs '.join(dict.fromkeys(names))}  ({sim['games']:,} games)",
                                 first["win_rate"], (low, high), 1 / len(names)))  # fmt: skip
    return found


def ai_strength() -> Path | None:
    """Each matchup's win rate and 95% interval, against the fair share."""
    rows = matchups()
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(rows) + 1.6))
    for y, row in enumerate(reversed(rows)):
        low, high = row.ci95
        ax.errorbar(row.win_rate, y, xerr=[[row.win_rate - low], [high - row.win_rate]], fmt="o", color=TEAL,
                    capsize=4)  # fmt: skip
        ax.annotate(f"{row.win_rate:.1%}", (row.win_rate, y), textcoords="offset points", xytext=(0, 6),
                    ha="center", fontsize=8)  # fmt: skip
        ax.plot([row.fair_share] * 2, [y - 0.35, y + 0.35], color=GREY, linestyle=":")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([row.label for row in reversed(rows)])
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("win rate of the first-named player, with its 95% interval (dotted: fair share)")
    ax.set_title("AI strength: head-to-head win rates with 95% intervals", fontsize=10)
    return _save(fig, "ai_strength.png")


# -- a hand split into words ---------------------------------------------------------


def split(hand: str = "d,cl,o,g,a,b,er,in,n,y,s") -> Path:
    """The best play of ``hand`` on a turn (discard one): each card as a
    little card with its points, grouped into the words it spells."""
    from quiddler import parse_hand, solve

    cards = parse_hand(hand)
    best = solve(cards, discard=True, backend="python").best
    groups: list[tuple[str, list[Any], str]] = [(f"{w.text}  {w.points}", list(w.cards), TEAL) for w in best.words]
    if best.unused:
        groups.append((f"left in hand  -{sum(c.points for c in best.unused)}", list(best.unused), ORANGE))
    if best.discard is not None:
        groups.append(("discard  0", [best.discard], GREY))

    w, h, gap, group_gap = 0.8, 1.1, 0.12, 0.7
    fig, ax = plt.subplots(figsize=(10, 3.4))
    ax.set_axis_off()
    # The hand as dealt, then the play.
    for i, card in enumerate(cards):
        _card(ax, i * (w + gap), 2.0, w, h, card, "#37474f")
    ax.text(-0.2, 2.0 + h / 2, "hand", ha="right", va="center", fontsize=11)
    x = 0.0
    for title, group, colour in groups:
        start = x
        for card in group:
            _card(ax, x, 0.0, w, h, card, colour)
            x += w + gap
        ax.text((start + x - gap) / 2, -0.35, title, ha="center", va="top", fontsize=11, color=colour,
                fontweight="bold")  # fmt: skip
        x += group_gap
    ax.text(-0.2, h / 2, "best play", ha="right", va="center", fontsize=11)
    ax.set_xlim(-1.6, max(x, len(cards) * (w + gap)))
    ax.set_ylim(-1.0, 3.3)
    ax.set_title(f"{', '.join(c.face for c in cards)} with a discard: score {best.score}"
                 + (", goes out" if best.goes_out else ""), fontsize=11)  # fmt: skip
    return _save(fig, "split.png")


def _card(ax: Any, x: float, y: float, w: float, h: float, card: Any, colour: str) -> None:
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.08",
                                facecolor="white", edgecolor=colour, linewidth=1.6))  # fmt: skip
    ax.text(x + w / 2, y + h * 0.55, card.face, ha="center", va="center", fontsize=15, color=colour,
            fontweight="bold")  # fmt: skip
    ax.text(x + w - 0.08, y + 0.1, str(card.points), ha="right", va="bottom", fontsize=8, color=colour)


PICTURES: dict[str, Callable[[], Path | None]] = {
    "solve_time": solve_time,
    "go_out_odds": go_out_odds,
    "ai_strength": ai_strength,
    "split": split,
}


def draw(names: list[str] | None = None) -> list[Path]:
    """Draw the named pictures (all by default); return the files written."""
    _style()
    written = []
    for name in names or list(PICTURES):
        path = PICTURES[name]()
        if path is not None:
            written.append(path)
    return written


def draw_after_benchmark(*names: str) -> None:
    """For the benchmark scripts: redraw their pictures, or say why not."""
    try:
        for path in draw(list(names)):
            print(f"picture: {path.relative_to(ROOT)}")
    except Exception as exc:  # noqa: BLE001 (a picture never fails a benchmark run)
        print(f"pictures not drawn ({type(exc).__name__}: {exc})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pictures", nargs="*", metavar="PICTURE",
                        help=f"which to draw: {', '.join(PICTURES)} (default: all)")  # fmt: skip
    args = parser.parse_args(argv)
    unknown = [name for name in args.pictures if name not in PICTURES]
    if unknown:
        parser.error(f"unknown picture {unknown[0]!r}; choose from {', '.join(PICTURES)}")
    for path in draw(args.pictures or None):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
