"""The package installs under Pyodide: numba and numpy are left out where
``sys_platform`` is ``emscripten`` (what Pyodide reports), and nothing else
about the dependencies changes for anyone."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
#: The marker variables Pyodide's Python reports (checked under Pyodide by pyodide.test.mjs).
PYODIDE = {"sys_platform": "emscripten", "platform_system": "Emscripten", "platform_machine": "wasm32"}


def installed(environment: dict[str, str]) -> set[str]:
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    wanted = set()
    for line in dependencies:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            wanted.add(requirement.name)
    return wanted


def test_numba_and_numpy_are_left_out_under_pyodide_and_only_there() -> None:
    native = installed(dict(default_environment()))
    browser = installed({**default_environment(), **PYODIDE})
    assert {"numba", "numpy"} <= native
    assert native - browser == {"numba", "numpy"} and browser <= native
    assert {"pygtrie", "click", "rich", "tqdm"} <= browser
