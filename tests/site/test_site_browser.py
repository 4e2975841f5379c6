"""The static site in a real headless Chromium: built once (conftest.py),
served from its folder on loopback by a plain static file server, and
driven by clicking as a person would, with every request that does not go
to that loopback address refused.  The game runs in the page's own Web
Worker on Pyodide; the page is the front end of ``quiddler serve``, so the
tools that play it are the web tests' own (tests/web/browsertools.py).

The browser is required: without Playwright or Chromium these tests fail,
they never skip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.game.record import replay

from ..web import browsertools
from ..web.browsertools import (
    Tab,
    game_over,
    hand,
    play_hinted_move,
    play_now,
    play_to_the_end,
    wait_for_move_or_end,
)

# A first visit loads the runtime (about 17 MB, then Python starts): give each test room.
pytestmark = pytest.mark.timeout(600)

# The fixtures: one browser for the module, a fresh tab per test.
browser = browsertools.browser
open_tab = browsertools.open_tab


@pytest.fixture
def site_tab(open_tab: Callable[..., Tab], site_url: str) -> Iterator[Callable[[], tuple[Tab, list[str]]]]:
    """site_tab(): a tab in a fresh browser context whose every request
    beyond the site's loopback address is refused, and the list of those
    refused (a test asserts it stays empty)."""
    refused: list[str] = []

    def make() -> tuple[Tab, list[str]]:
        tab = open_tab()

        def only_the_site(route: Any) -> None:
            url = route.request.url
            if url.startswith((site_url, "blob:", "data:")):
                route.continue_()
            else:
                refused.append(url)
                route.abort()

        tab.page.context.route("**/*", only_the_site)
        return tab, refused

    yield make
    assert not refused, f"the site asked for something beyond itself: {refused}"


def base(site_url: str) -> str:
    return site_url.rstrip("/")


def test_a_whole_game_by_clicking_with_hints_an_offline_reload_that_resumes_and_a_rematch(
        site_tab: Callable[[], tuple[Tab, list[str]]], site_url: str) -> None:  # fmt: skip
    tab, _ = site_tab()
    page = tab.page
    play_now(page, base(site_url), level="easy", rounds=2)
    assert "needs a server" in page.inner_text(".site-note")
    page.locator("#turn-line").wait_for()
    moves = []
    while len(moves) < 3:
        current = wait_for_move_or_end([page])
        assert current is not None, "the game ended within three moves"
        moves.append(play_hinted_move(page))
    wait_for_move_or_end([page])
    # The same cards: their order on the page is the player's own arrangement,
    # which a reload does not keep (on the server's page neither).
    before = (sorted(hand(page)), page.inner_text("#round-line"), page.inner_text("#turn-line"))
    address = page.url

    # Once loaded the site needs no network: the service worker has every file.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    page.locator("#hand button.card").first.wait_for()
    wait_for_move_or_end([page])
    assert page.url == address
    assert (sorted(hand(page)), page.inner_text("#round-line"), page.inner_text("#turn-line")) == before
    page.context.set_offline(False)

    moves += play_to_the_end([page])
    assert game_over(page)
    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["finished"] is True and len(record["rounds"]) == 2
    assert record["players"][1] == "easy"
    game = replay(record)  # the record of the page's game replays with quiddler itself
    totals = page.eval_on_selector_all("#score-sheet tr.totals td", "cells => cells.map(c => Number(c.textContent))")
    assert list(game.totals) == totals

    # A rematch: the same seats and rules at a new table, a new deal.
    page.click("#rematch")
    page.wait_for_url(lambda url: "?/t/" in url and url != address)
    page.locator("#hand button.card").first.wait_for()
    assert page.inner_text("#round-line").startswith("Round 1 of 2")


HANDS = [("d, cl, o, g, a, b, er, in, n, y, s", False), ("qu i e t er s", True), ("x z q", False),
         ("th,e,cl,a,w,s,i", True)]  # fmt: skip


def test_the_solver_page_answers_as_quiddler_solve(site_tab: Callable[[], tuple[Tab, list[str]]],
                                                   site_url: str) -> None:  # fmt: skip
    tab, _ = site_tab()
    page = tab.page
    page.goto(site_url + "solver.html")
    page.locator("#solve:enabled").wait_for()
    for cards, discard in HANDS:
        page.fill("#hand", cards)
        page.set_checked("#discard", discard)
        page.click("#solve")
        page.wait_for_function("cards => document.getElementById('answer').dataset.cards === cards", arg=cards)
        solved = json.loads(CliRunner().invoke(main, ["solve", cards, "--json", *(["--discard"] if discard else [])]).stdout)
        listed = json.loads(CliRunner().invoke(main, ["words", cards, "--json"]).stdout)["words"]
        best = solved["best"]
        assert page.inner_text("#best-score") == str(best["score"])
        shown = page.eval_on_selector_all("#best-words li", "items => items.map(i => [i.dataset.word, i.dataset.cards])")
        assert shown == [[w["word"], " ".join(w["cards"])] for w in best["words"]]
        rows = page.eval_on_selector_all("#all-words tbody tr", "rows => rows.map(r => r.dataset.word)")
        assert rows == [w["word"] for w in listed]
    page.fill("#hand", "qu, zz")
    page.click("#solve")
    page.locator("#solve-error:has-text(\"unknown card: 'zz'\")").wait_for()


# The engine's memory snapshot (worker.js): kept in Cache Storage under the
# build's name on a first start, started from on the next, dropped when it
# fails or belongs to another build.  Each check opens an engine of its own
# in a page of the site (a Worker, as the game's page does), and stops it only
# once a fresh start's snapshot is kept: the worker writes it after answering,
# and stopping it sooner (as a loaded machine let happen) loses the snapshot.
ENGINE = """async ({ cards }) => {
    const { Engine } = await import("./static/worker-transport.js");
    const engine = new Engine();
    const started = await engine.started;
    const solved = await engine.call("solve", { cards });
    await engine.call("create", { seats: ["human", "medium"], rules: { round_sizes: [3] } });
    const step = await engine.call("step");
    const saved = await engine.call("save");
    if (started.from === "start") {  // the worker keeps its snapshot after its first answers: let it finish
        const build = (await (await fetch("./quiddler-site.json")).json()).build;
        for (let i = 0; i < 1200; i++) {
            if ((await (await caches.open("quiddler-engine-" + build)).keys()).length > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    }
    engine.worker.terminate();
    return { from: started.from, phases: started.phases, solved: solved.body, step: step.status,
             saved: JSON.parse(saved.body) };
}"""
SNAPSHOT_KEPT = """async () => {
    const build = (await (await fetch("./quiddler-site.json")).json()).build;
    for (let i = 0; i < 1800; i++) {
        const cache = await caches.open("quiddler-engine-" + build);
        if ((await cache.keys()).length > 0) return build;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
}"""
#: Garbage where the snapshot goes: for this build's cache or another's.
SPOIL = """async ({ build }) => {
    const cache = await caches.open("quiddler-engine-" + build);
    const keys = await cache.keys();
    const key = keys.length ? keys[0] : new URL("./quiddler-engine.snapshot", location.href).href;
    await cache.put(key, new Response(new Uint8Array(4096).fill(7)));
}"""
HAND = "d,cl,o,g,a,b,er,in,n,y,s"


def engine_in(page: Any, cards: str = HAND) -> dict[str, Any]:
    return page.evaluate(ENGINE, {"cards": cards})


@pytest.fixture
def manifest_page(site_tab: Callable[[], tuple[Tab, list[str]]], site_url: str) -> Any:
    """A page of the site that starts no engine of its own (its manifest), in a fresh context."""
    tab, _ = site_tab()
    tab.page.goto(site_url + "quiddler-site.json")
    return tab.page


def test_a_later_start_is_from_the_snapshot_the_first_kept_and_plays_exactly(manifest_page: Any) -> None:
    page = manifest_page
    native = json.loads(CliRunner().invoke(main, ["solve", HAND, "--json"]).stdout)
    first = engine_in(page)
    assert first["from"] == "start"
    build = page.evaluate(SNAPSHOT_KEPT)
    assert build is not None, "no snapshot was kept"
    later = [engine_in(page), engine_in(page)]
    for started in (first, *later):
        assert started["solved"]["solution"]["best"]["score"] == native["best"]["score"]
        assert started["solved"]["solution"]["best"]["words"] == native["best"]["words"]
        assert started["step"] == 200
    assert [started["from"] for started in later] == ["snapshot", "snapshot"]
    # Nothing of a game is in the snapshot: each start deals its own game, at its own table.
    games = [started["saved"] for started in (first, *later)]
    assert len({g["record"]["seed"] for g in games}) == 3 and len({g["table"] for g in games}) == 3
    assert len({g["token"] for g in games}) == 3


def test_a_snapshot_that_does_not_start_is_dropped_and_the_engine_starts_afresh(manifest_page: Any) -> None:
    page = manifest_page
    assert engine_in(page)["from"] == "start"
    build = page.evaluate(SNAPSHOT_KEPT)
    page.evaluate(SPOIL, {"build": build})
    spoiled = engine_in(page)
    assert spoiled["from"] == "start" and spoiled["step"] == 200
    assert page.evaluate(SNAPSHOT_KEPT) == build  # a good one kept again
    assert engine_in(page)["from"] == "snapshot"


def test_another_builds_snapshot_is_deleted_and_never_started_from(manifest_page: Any) -> None:
    page = manifest_page
    page.evaluate(SPOIL, {"build": "0123456789abcdef"})
    assert "quiddler-engine-0123456789abcdef" in page.evaluate("caches.keys()")
    started = engine_in(page)
    assert started["from"] == "start" and started["step"] == 200
    build = page.evaluate(SNAPSHOT_KEPT)
    assert page.evaluate("caches.keys()").count(f"quiddler-engine-{build}") == 1
    assert not [name for name in page.evaluate("caches.keys()")
                if name.startswith("quiddler-engine-") and name != f"quiddler-engine-{build}"]  # fmt: skip


COUNT_WORKERS = """
window.__workers = [];
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(url, ...rest) {
    super(url, ...rest);
    window.__workers.push([String(url), document.currentScript ? document.currentScript.src : null]);
  }
};
"""


def test_each_page_runs_one_engine_started_from_its_head(site_tab: Callable[[], tuple[Tab, list[str]]],
                                                         site_url: str) -> None:  # fmt: skip
    tab, _ = site_tab()
    page = tab.page
    page.context.add_init_script(COUNT_WORKERS)
    play_now(page, base(site_url), level="easy", rounds=1)
    page.locator("#hand button.card").first.wait_for()
    # engine-early.js started it (a classic script: the page's modules had not loaded), the transport took it over.
    started = [site_url + "static/worker.js", site_url + "static/engine-early.js"]
    assert page.evaluate("window.__workers") == [started]
    assert page.evaluate("window.quiddlerEarlyEngine") is None
    page.goto(site_url + "solver.html")
    page.locator("#solve:enabled").wait_for()
    assert page.evaluate("window.__workers") == [started]
