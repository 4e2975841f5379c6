"""The static site (``quiddler site``) in Chromium on loopback: its size,
how soon a first and a cached visit has a playable hand, and how long the
engine in the page takes to solve and to decide at each computer level.

The site is built into a temporary folder (or ``--site DIR`` is measured
as it is), served by a plain static file server on 127.0.0.1, and opened
in headless Chromium with every request beyond that address refused.

Measured:

* ``size``: every file's bytes, raw and gzip -9 (what a host that
  compresses sends), in total and by part (the runtime, the wheels, the page);
* ``first_visit_s``: from opening the page in a fresh browser profile (no
  cache) to a playable hand, through the home page's "Play now": the hand
  shown and the person to move; ``cached_visit_s``: the same in a new tab of
  a profile that visited once (the service worker's cache); each also split
  into ``engine_ready_s`` (the worker's first answer: Pyodide started, the
  wheels unpacked, quiddler imported); the baseline is Pyodide alone started
  in a page of the same browser, ``pyodide_alone_first_s``, and the first
  visit is given as a ratio to it;
* ``engine_start``: how the game page's engine started on each first and
  cached visit (``from``: "start", or "snapshot": the copy of its memory a
  visit before kept, see worker.js), its time to ready and the medians of
  the parts of that time;
* ``solve_ms``: the engine's time for one solve in the page (the worker's
  own clock: no message passing), per hand size, and the same solves natively
  in this Python (pure-Python backend) as the baseline of the same run;
* ``decision_ms``: each computer level's decisions in the browser's
  Python over whole games (``--games``, rounds of 3, 6 and 10 cards, two players; the
  person's moves are the hints'), median, p90 and max, measured with
  Pyodide started in the page itself, so that levels the site does not
  offer are measured too; ``hint_ms`` likewise for the person's hints.

The machine is shared and noisy: the 1-minute load average is recorded,
and the figures compare only within one run.

Usage: python benchmarks/bench_site.py [--visits 3] [--levels easy,medium,hard,expert,master] [--rounds 3,6,10]
                                      [--site DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from quiddler import solve
from quiddler.site import build_site
from quiddler.site.runtime import fetch_runtime

RESULTS = Path(__file__).resolve().parent / "results" / "site.json"
CHROMIUM = os.environ.get("QUIDDLER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip
HANDS = {
    5: "qu,i,e,t,s",
    8: "d,cl,o,g,a,b,er,in",
    11: "d,cl,o,g,a,b,er,in,n,y,s",
}
#: One game per level in the page: two players, these rounds (--rounds).
ROUNDS = "3,6,10"
WAIT_MS = 300_000


class _Files(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                                                ".mjs": "text/javascript", ".js": "text/javascript",
                                                ".wasm": "application/wasm"}  # fmt: skip

    def log_message(self, format: str, *args: object) -> None:
        pass


def sizes(folder: Path) -> dict[str, Any]:
    parts: dict[str, dict[str, int]] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        part = path.relative_to(folder).parts[0] if path.parent != folder else "page"
        part = {"static": "page"}.get(part, part)
        entry = parts.setdefault(part, {"raw": 0, "gzip": 0, "files": 0})
        data = path.read_bytes()
        entry["raw"] += len(data)
        entry["gzip"] += len(gzip.compress(data, 9))
        entry["files"] += 1
    total = {key: sum(p[key] for p in parts.values()) for key in ("raw", "gzip", "files")}
    return {"total": total, "parts": parts}


def spread(values: list[float], digits: int = 1) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), digits),
            "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], digits),
            "max": round(ordered[-1], digits), "count": len(ordered)}  # fmt: skip


def refuse_elsewhere(context: Any, base: str, refused: list[str]) -> None:
    def only_the_site(route: Any) -> None:
        if route.request.url.startswith((base, "blob:", "data:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)


#: Added to every page: what the page's engine reports when it has started (worker.js's
#: {started: {from, ms, phases}}: from its snapshot or a start, and the parts of its time).
WATCH_ENGINE = """
window.__engineStarted = null;
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      if (event.data && event.data.started && !window.__engineStarted) window.__engineStarted = event.data.started;
    });
  }
};
"""


def visit(context: Any, base: str) -> dict[str, Any]:
    """Open the site, "Play now" at once, and wait for a playable hand."""
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    started = time.perf_counter()
    page.goto(base)
    page.evaluate("localStorage.setItem('quiddler.pace', 'instant')")
    page.click("#play-now")
    page.locator("#hand button.card").first.wait_for()
    page.locator("#turn-line.mine").wait_for()
    playable = time.perf_counter() - started
    engine = page.evaluate("window.__engineStarted")
    page.close()
    return {"playable_s": round(playable, 2), "engine": engine}


def engine_ready(context: Any, base: str) -> tuple[float, dict[str, Any]]:
    """From opening a page to the worker's first answer (a page of the
    site that starts no engine of its own: its manifest), and how it started."""
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(base + "quiddler-site.json")
    seconds, started = page.evaluate("""async () => {
        const started = performance.now();
        const { Engine } = await import("./static/worker-transport.js");
        const engine = new Engine();
        await engine.call("players");
        return [(performance.now() - started) / 1000, await engine.started];
    }""")
    page.close()
    return round(float(seconds), 2), started


def pyodide_boot(context: Any, base: str) -> float:
    """The baseline: Pyodide alone started in a page (no quiddler), in the same browser."""
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(base + "quiddler-site.json")
    seconds = page.evaluate("""async () => {
        const started = performance.now();
        const { loadPyodide } = await import("./pyodide/pyodide.mjs");
        await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
        return (performance.now() - started) / 1000;
    }""")
    page.close()
    return round(float(seconds), 2)


#: Whole games in the browser's Python: Pyodide started in the page itself
#: (the worker's runtime and wheels, without the worker, so that levels the
#: site does not offer can be measured too); the computer seat plays the
#: level, the person plays the hints' recommended moves.
GAMES = """async ({ levels, rounds, games }) => {
    const { loadPyodide } = await import("./pyodide/pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
    const manifest = await (await fetch("./quiddler-site.json")).json();
    for (const wheel of manifest.wheels) pyodide.unpackArchive(await (await fetch(wheel)).arrayBuffer(), "wheel");
    pyodide.globals.set("levels", levels.join(","));
    pyodide.globals.set("rounds", rounds.join(","));
    pyodide.globals.set("games", games);
    return JSON.parse(pyodide.runPython(`
import json, time
from quiddler import solve
from quiddler.game import Game, Rules, hint
from quiddler.game.decisions import computer_action
solve("qu,i,t")  # the word list loaded, as the site's first answer does
out = {}
for level in levels.split(","):
    decisions, hints = [], []
    for seed in range(11, 11 + games):
        game = Game(2, seed=seed, rules=Rules(round_sizes=tuple(int(n) for n in rounds.split(","))))
        while not game.over:
            view = game.view(game.turn)
            started = time.perf_counter()
            if game.turn == 0:
                action = hint(view).recommended.to_action(0)
                hints.append((time.perf_counter() - started) * 1000)
            else:
                action = computer_action(level, game.seed, view)
                decisions.append((time.perf_counter() - started) * 1000)
            game.apply(action)
    out[level] = {"decisions": decisions, "hints": hints}
json.dumps(out)
`));
}"""

SOLVES = """async (hands) => {
    const { Engine } = await import("./static/worker-transport.js");
    const engine = new Engine();
    await engine.call("solve", { cards: "qu,i,t" });
    const out = {};
    for (const [size, cards] of Object.entries(hands)) {
        const times = [];
        for (let i = 0; i < 7; i++) times.push((await engine.call("solve", { cards, discard: true })).ms);
        out[size] = times;
    }
    return out;
}"""


def native_solves() -> dict[str, list[float]]:
    out = {}
    solve("qu,i,t", backend="python")
    for size, cards in HANDS.items():
        times = []
        for _ in range(7):
            started = time.perf_counter()
            solve(cards, discard=True, backend="python")
            times.append((time.perf_counter() - started) * 1000)
        out[str(size)] = times
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    scratch = tempfile.TemporaryDirectory(prefix="quiddler-bench-site-")
    folder = Path(args.site) if args.site else Path(scratch.name) / "public"
    if not args.site:
        build_site(folder, runtime=fetch_runtime())
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    refused: list[str] = []
    result: dict[str, Any] = {"size": sizes(folder), "load_average_start": round(os.getloadavg()[0], 2)}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            first, cached, ready_first, ready_cached, boot = [], [], [], [], []
            engines: dict[str, list[dict[str, Any]]] = {"first": [], "cached": []}
            for _ in range(args.visits):
                context = browser.new_context()
                refuse_elsewhere(context, base, refused)
                boot.append(pyodide_boot(context, base))
                context.close()
                context = browser.new_context()
                refuse_elsewhere(context, base, refused)
                ready_first.append(engine_ready(context, base)[0])
                context.close()
                context = browser.new_context()
                context.add_init_script(WATCH_ENGINE)
                refuse_elsewhere(context, base, refused)
                seen = visit(context, base)
                first.append(seen["playable_s"])
                engines["first"].append(seen["engine"])
                page = context.new_page()
                page.goto(base)
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT_MS)
                page.close()
                seen = visit(context, base)
                cached.append(seen["playable_s"])
                engines["cached"].append(seen["engine"])
                ready_cached.append(engine_ready(context, base)[0])
                context.close()
            result["first_visit_s"] = spread(first, 2)
            result["cached_visit_s"] = spread(cached, 2)
            result["engine_ready_first_s"] = spread(ready_first, 2)
            result["engine_ready_cached_s"] = spread(ready_cached, 2)
            result["pyodide_alone_first_s"] = spread(boot, 2)
            result["first_visit_over_pyodide_alone"] = round(statistics.median(first) / statistics.median(boot), 2)
            # (A site built before its worker said how it started reports nothing here.)
            result["engine_start"] = {visit_kind: {
                "from": [seen["from"] if seen else None for seen in seen_list],
                "ms": spread([seen["ms"] for seen in seen_list if seen], 0) if any(seen_list) else None,
                "phases_ms": {phase: spread([seen["phases"][phase] for seen in seen_list
                                             if seen and phase in seen["phases"]], 0)
                              for phase in dict.fromkeys(p for seen in seen_list if seen for p in seen["phases"])},
            } for visit_kind, seen_list in engines.items()}  # fmt: skip
            context = browser.new_context()
            refuse_elsewhere(context, base, refused)
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(base + "solver.html")
            in_page = page.evaluate(SOLVES, {str(k): v for k, v in HANDS.items()})
            native = native_solves()
            result["solve_ms"] = {size: {"page": spread(times, 2), "native_python": spread(native[size], 2),
                                         "page_over_native": round(statistics.median(times)
                                                                   / statistics.median(native[size]), 2)}
                                  for size, times in in_page.items()}  # fmt: skip
            page.goto(base + "quiddler-site.json")
            played = page.evaluate(GAMES, {"levels": args.levels.split(","), "games": args.games,
                                           "rounds": [int(n) for n in args.rounds.split(",")]})  # fmt: skip
            decisions = {level: spread(entry["decisions"]) for level, entry in played.items()}
            hints = [ms for entry in played.values() for ms in entry["hints"]]
            result["decision_ms"] = decisions
            result["hint_ms"] = spread(hints)
            browser.close()
    finally:
        server.shutdown()
        scratch.cleanup()
    result["refused_requests"] = refused
    result["rounds"] = [int(n) for n in args.rounds.split(",")]
    result["load_average_end"] = round(os.getloadavg()[0], 2)
    return result


def show(result: dict[str, Any]) -> None:
    size = result["size"]
    print(f"site: {size['total']['raw'] / 1e6:.1f} MB raw, {size['total']['gzip'] / 1e6:.1f} MB gzip, "
          f"{size['total']['files']} files")  # fmt: skip
    for part, entry in size["parts"].items():
        print(f"  {part:<10} {entry['raw'] / 1e6:6.2f} MB raw  {entry['gzip'] / 1e6:6.2f} MB gzip")
    for key in ("first_visit_s", "cached_visit_s", "engine_ready_first_s", "engine_ready_cached_s",
                "pyodide_alone_first_s"):
        entry = result[key]
        print(f"{key:<22} median {entry['median']:.2f} s  max {entry['max']:.2f} s  ({entry['count']} visits)")
    print(f"first visit / Pyodide alone: {result['first_visit_over_pyodide_alone']}x")
    for kind, entry in result["engine_start"].items():
        if entry["ms"] is None:
            continue
        phases = ", ".join(f"{phase} {spread_['median']:.0f}" for phase, spread_ in entry["phases_ms"].items())
        print(f"engine of the {kind} visit: from {entry['from']}, {entry['ms']['median']:.0f} ms median ({phases})")
    for size_key, entry in result["solve_ms"].items():
        print(f"solve {size_key:>2} cards: page {entry['page']['median']:.1f} ms, native pure Python "
              f"{entry['native_python']['median']:.1f} ms ({entry['page_over_native']}x)")  # fmt: skip
    for level, entry in result["decision_ms"].items():
        print(f"decision {level:<7} median {entry['median']:7.1f} ms  p90 {entry['p90']:7.1f} ms  "
              f"max {entry['max']:8.1f} ms  ({entry['count']})")  # fmt: skip
    print(f"hint: median {result['hint_ms']['median']:.1f} ms, max {result['hint_ms']['max']:.1f} ms")
    print(f"load average {result['load_average_start']} -> {result['load_average_end']}; "
          f"requests refused: {len(result['refused_requests'])}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=3, help="first and cached visits measured")
    parser.add_argument("--levels", default="easy,medium,hard,expert,master")
    parser.add_argument("--games", type=int, default=2, help="games per level")
    parser.add_argument("--rounds", default=ROUNDS, help="the cards dealt in each round of the levels' games")
    parser.add_argument("--site", help="measure this built site instead of building one")
    parser.add_argument("--json", default=str(RESULTS), help="where to write the results")
    args = parser.parse_args()
    result = run(args)
    show(result)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
