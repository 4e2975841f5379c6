"""benchmarks/plots.py draws the docs' pictures from benchmark JSON."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from quiddler.game.runner import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def plots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("plots_under_test", ROOT / "benchmarks" / "plots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(module, "IMAGES", tmp_path / "images")
    (tmp_path / "results").mkdir()
    return module


def _write(plots: ModuleType, name: str, data: object) -> None:
    (plots.RESULTS / name).write_text(json.dumps(data))


def test_wilson_interval_of_the_strength_picture() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28  # not the useless [0, 0] of the normal approximation


def test_pictures_from_results(plots: ModuleType) -> None:
    timing = {"median_us": 10.0, "p99_us": 30.0}
    _write(plots, "solver.json", {"hands_per_size": 5, "latency": {
        "4": {"kernel": timing, "solve": timing, "python": timing, "naive": timing},
        "5": {"kernel": timing, "solve": timing, "python": timing},
    }})  # fmt: skip
    sim = {"games": 10, "seed": 1, "players": ["greedy", "random"], "strategies": {
        "greedy": {"wins": 9.0, "win_rate": 0.9, "seats": 10},
        "random": {"wins": 1.0, "win_rate": 0.1, "seats": 10},
    }}  # fmt: skip
    _write(plots, "game.json", {"nested": {"greedy_vs_random": sim}, "other": [1, 2]})
    _write(plots, "odds.json", {"trials": 100, "seed": 1, "turn": "first", "rows": [
        {"cards": 3, "go_out": 0.85, "se": 0.01}, {"cards": 4, "go_out": 0.83, "se": 0.01},
    ]})  # fmt: skip
    _write(plots, "ai.json", {"sections": {"duel": {"player": "expert", "opponents": ["greedy"] * 3,
                                                     "games": 40, "wins": 12.0, "win_rate": 0.3}}})  # fmt: skip
    rows = plots.matchups()
    assert [row.label for row in rows] == ["expert vs 3 greedy  (40 games)", "greedy vs random  (10 games)"]
    assert rows[0].fair_share == 0.25 and rows[0].ci95 == wilson_interval(12, 40)
    written = plots.draw(["solve_time", "ai_strength", "go_out_odds", "split"])
    assert sorted(p.name for p in written) == ["ai_strength.png", "go_out_odds.png", "solve_time.png", "split.png"]
    for path in written:
        assert path.read_bytes().startswith(PNG)


def test_no_results_no_picture(plots: ModuleType) -> None:
    """Without benchmark JSON the measured pictures are not drawn (the
    committed ones stay), rather than drawn empty."""
    assert plots.draw(["solve_time", "ai_strength", "go_out_odds"]) == []
