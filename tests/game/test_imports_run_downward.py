"""The game engine and the terminal game import downward only: among the
modules of ``quiddler.game`` and ``quiddler.play`` no import, at module
level or inside a function, closes a cycle.  A type two modules share
lives below both of them (the hint values in ``game/hint_types.py``, the
planned games in ``game/plans.py``)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "quiddler"
SUBPACKAGES = ("game", "play")


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, package_root: Path = PACKAGE) -> set[str]:
    """Every module ``path`` imports (relative imports resolved), wherever the import statement is."""
    here = module_name(path, package_root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import render`
    return found


def graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the game and play modules it imports (a package counts as its __init__)."""
    paths = [p for sub in SUBPACKAGES for p in sorted((package / sub).glob("*.py"))]
    modules = {module_name(p, package): p for p in paths}
    return {name: {m for m in imported_modules(path, package) if m in modules and m != name}
            for name, path in modules.items()}  # fmt: skip


def test_the_game_and_play_modules_import_without_cycles() -> None:
    edges = graph()
    assert "quiddler.game.ai" in edges and "quiddler.play.session" in edges
    try:
        tuple(TopologicalSorter(edges).static_order())
    except CycleError as error:  # pragma: no cover - the failure message
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")


@pytest.mark.parametrize(
    ("lower", "upper"),
    [
        ("quiddler.game.hint_types", "quiddler.game.ai"),
        ("quiddler.game.ai", "quiddler.game.hints"),
        ("quiddler.game.plans", "quiddler.game.runner"),
        ("quiddler.game.plans", "quiddler.game.workers"),
        ("quiddler.game.workers", "quiddler.game.runner"),
    ],
)
def test_shared_types_sit_below_the_modules_that_use_them(lower: str, upper: str) -> None:
    edges = graph()
    assert lower in edges[upper], f"{upper} should import {lower}"
    assert upper not in edges[lower], f"{lower} imports {upper}: imports must run downward"


def test_an_import_inside_a_function_that_closes_a_cycle_is_found(tmp_path: Path) -> None:
    """The check can fail: in a made-up package, a module that imports its
    importer inside a function is a cycle."""
    game = tmp_path / "quiddler" / "game"
    game.mkdir(parents=True)
    (tmp_path / "quiddler" / "play").mkdir()
    (game / "__init__.py").write_text("")
    (game / "ai.py").write_text("from .hints import Hint\n")
    (game / "hints.py").write_text("def hint():\n    from .ai import advise\n    return advise\n")
    edges = graph(tmp_path / "quiddler")
    assert edges["quiddler.game.hints"] == {"quiddler.game.ai"}
    with pytest.raises(CycleError):
        tuple(TopologicalSorter(edges).static_order())
