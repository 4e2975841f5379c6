"""What the benchmarks that measure this tree against another commit share:
the baseline commit, a clean copy of it, the round-robin of measurements
(so drift on this shared machine hits both trees alike), and the medians
with their ratios.  Imported by the scripts beside it (run as
``python benchmarks/<script>.py``)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
Tree = TypeVar("Tree")
Runs = dict[str, list[dict[str, float]]]


def baseline_rev(given: str | None) -> str:
    """``given``, else the commit where this branch left main."""
    if given:
        return given
    return subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()  # fmt: skip


def checkout(rev: str, into: Path) -> Path:
    """A clean copy of commit ``rev`` (no working-tree changes) in the new folder ``into``."""
    into.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def start_probe(tree: Path, code: str) -> subprocess.Popen[str]:
    """Start ``code`` in a fresh Python with ``tree`` first on the import path
    (from a temporary folder, so the current one's package cannot shadow
    it); :func:`finish_probe` reads its figures."""
    return subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(tree)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tempfile.gettempdir())  # fmt: skip


def finish_probe(tree: Path, process: subprocess.Popen[str]) -> dict[str, Any]:
    """Wait for a probe; its last line of output is the JSON of its figures."""
    out, err = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"{tree}: {err[-800:]}")
    return json.loads(out.splitlines()[-1])  # type: ignore[no-any-return]


def run_probe(tree: Path, code: str) -> dict[str, Any]:
    """Run ``code`` as :func:`start_probe` does and return its figures."""
    return finish_probe(tree, start_probe(tree, code))


def round_robin(trees: Mapping[str, Tree], repeats: int, measure: Callable[[Tree], dict[str, float]],
                number: str) -> Runs:  # fmt: skip
    """``measure`` each tree in turn, ``repeats`` times round, printing each
    run's figures (formatted with ``number``) as they come."""
    runs: Runs = {name: [] for name in trees}
    for repeat in range(repeats):
        for name, tree in trees.items():
            runs[name].append(measure(tree))
            print(f"repeat {repeat + 1}, {name}: " + ", ".join(f"{k} {v:{number}}" for k, v in runs[name][-1].items()),
                  flush=True)  # fmt: skip
    return runs


def side_by_side(trees: Mapping[str, Path], repeats: int, code: str, number: str,
                 figures: Callable[[Path, dict[str, Any]], dict[str, float]]) -> Runs:  # fmt: skip
    """Like :func:`round_robin` for a probe, but each repeat runs every tree's
    process at the same time: on a machine shared with other work the load
    (and a virtual machine's stolen time, which a process's CPU time counts)
    then weighs on both alike, where runs one after the other can meet very
    different loads.  ``figures`` picks the figures out of a probe's output."""
    runs: Runs = {name: [] for name in trees}
    for repeat in range(repeats):
        started = {name: start_probe(tree, code) for name, tree in trees.items()}
        for name, tree in trees.items():
            runs[name].append(figures(tree, finish_probe(tree, started[name])))
            print(f"repeat {repeat + 1}, {name}: " + ", ".join(f"{k} {v:{number}}" for k, v in runs[name][-1].items()),
                  flush=True)  # fmt: skip
    return runs


def medians_and_ratios(runs: Runs) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Each tree's median of each figure, and "this tree" over "baseline" for each."""
    medians = {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]} for name, rs in runs.items()}
    ratios = {key: medians["this tree"][key] / medians["baseline"][key] for key in medians["baseline"]}
    return medians, ratios
