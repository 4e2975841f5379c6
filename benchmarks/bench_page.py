"""The browser game's page: its weight, and how fast it answers on loopback.

Weight: the bytes of every file the page loads (index.html, the stylesheet,
every ES module; the page has no build step, so these are the files as
served), raw and gzip-compressed (level 6, what a server or proxy
typically sends), per kind and in all.

Speed, in headless Chromium against a real ``quiddler serve`` on loopback,
``--games`` times (a new one-round game each), the computer moves shown at
the "instant" pace (the "normal" pace pauses 0.8 s after each computer move
on purpose, which would measure the pause):

* ``play_now_to_hand_ms``: from the click on "Play now" to the hand's cards
  on screen;
* ``play_now_to_playable_ms``: to the pile being pressable on this seat's
  turn (it includes the computer's first move when it plays first: in
  round 1 the creator deals, so the computer does);
* ``click_to_change_ms``: from the click on the draw pile to the card drawn
  being on screen, measured inside the page (event time to the DOM
  change): the server's round trip, the state's rendering and layout;
* ``ping_ms``: the baseline measured in the same run: a WebSocket ping's
  round trip from the page (the network and the server's event loop, no
  game), so ``click_vs_ping`` is what the game's own work adds, as a ratio.

Medians over the games; the machine's load is recorded beside them.

Usage: python benchmarks/bench_page.py [--games 7] [--json benchmarks/results/page.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "quiddler" / "web" / "static"
CHROMIUM = os.environ.get("QUIDDLER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def weight() -> dict[str, Any]:
    """Raw and gzip bytes of the page's files, per kind (html, css, js) and in all."""
    kinds: dict[str, dict[str, int]] = {}
    files = sorted(p for p in STATIC.iterdir() if p.suffix in (".html", ".css", ".js"))
    for path in files:
        data = path.read_bytes()
        kind = kinds.setdefault(path.suffix.lstrip("."), {"files": 0, "raw": 0, "gzip": 0})
        kind["files"] += 1
        kind["raw"] += len(data)
        kind["gzip"] += len(gzip.compress(data, 6))
    total = {key: sum(k[key] for k in kinds.values()) for key in ("files", "raw", "gzip")}
    return {"kinds": kinds, "total": total}


def serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    process = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "serve", "--port", "0", "--db",
                                str(folder / "tables.sqlite3")], stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("Serving on "):
        process.kill()
        raise SystemExit(f"quiddler serve said {line!r}")
    return process, line.removeprefix("Serving on ")


MEASURE_CLICK = """() => {
    const pile = document.getElementById('pile');
    let start = null;
    window.__clickMs = null;
    pile.addEventListener('click', (e) => { start = e.timeStamp; }, { capture: true, once: true });
    const seen = new MutationObserver(() => {
        if (start !== null && document.querySelector('#hand .card.fresh')) {
            seen.disconnect();
            // The next frame: the change is laid out and painted.
            requestAnimationFrame(() => { window.__clickMs = performance.now() - start; });
        }
    });
    seen.observe(document.getElementById('main'), { childList: true, subtree: true });
}"""

PING = """(url) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    const times = [];
    let sent = 0;
    ws.onopen = () => { ws.send(JSON.stringify({ type: 'hello', watch: true })); };
    ws.onmessage = (m) => {
        const msg = JSON.parse(m.data);
        if (msg.type === 'welcome') { sent = performance.now(); ws.send('{"type":"ping"}'); }
        if (msg.type === 'pong') {
            times.push(performance.now() - sent);
            if (times.length === 9) { ws.close(); resolve(times); return; }
            sent = performance.now(); ws.send('{"type":"ping"}');
        }
    };
})"""


def one_game(browser: Any, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script("localStorage.setItem('quiddler.pace', 'instant')")
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url + "/")
    page.select_option("#quick-rounds", "1")
    page.locator("#play-now").wait_for()
    start = time.perf_counter()
    page.click("#play-now")
    page.locator("#hand button.card").first.wait_for()
    hand_ms = (time.perf_counter() - start) * 1000
    page.locator("#pile:not([disabled])").wait_for()
    playable_ms = (time.perf_counter() - start) * 1000
    page.evaluate(MEASURE_CLICK)
    page.click("#pile")
    click_ms = float(page.wait_for_function("() => window.__clickMs").json_value())
    table = page.url.rpartition("/")[2]
    pings = page.evaluate(PING, url.replace("http://", "ws://") + f"/ws/{table}")
    context.close()
    return {"hand": hand_ms, "playable": playable_ms, "click": click_ms, "ping": statistics.median(pings)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=7)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "page.json")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    sizes = weight()
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                one_game(browser, url)  # a first game warms the solver's compiled kernels and the browser's cache
                runs = [one_game(browser, url) for _ in range(args.games)]
                browser.close()
        finally:
            process.terminate()
            process.wait(20)
    median = {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}
    result = {
        "weight_bytes": sizes,
        "games": args.games,
        "play_now_to_hand_ms": median["hand"],
        "play_now_to_playable_ms": median["playable"],
        "click_to_change_ms": median["click"],
        "ping_ms": median["ping"],
        "click_vs_ping": round(median["click"] / median["ping"], 1) if median["ping"] else None,
        "load_average": round(os.getloadavg()[0], 2),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }
    print(f"{'kind':6} {'files':>5} {'raw B':>8} {'gzip B':>8}")
    for kind, k in sorted(sizes["kinds"].items()):
        print(f"{kind:6} {k['files']:>5} {k['raw']:>8} {k['gzip']:>8}")
    t = sizes["total"]
    print(f"{'all':6} {t['files']:>5} {t['raw']:>8} {t['gzip']:>8}")
    print(f"\nmedians over {args.games} games (load average {result['load_average']}):")
    for key in ("play_now_to_hand_ms", "play_now_to_playable_ms", "click_to_change_ms", "ping_ms", "click_vs_ping"):
        print(f"  {key:26} {result[key]}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
