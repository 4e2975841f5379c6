"""The package's boundaries: what may import what.

The layout is meant to explain itself (see the contributing page): the
solver's kernels and backends are private to ``quiddler.solver``, click lives
only in ``quiddler.cli``, and modules import one another downward only, with
no cycles.  These tests read the source with :mod:`ast`, so they see every
import, including ones inside functions that a run may never reach.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import quiddler

PACKAGE = Path(quiddler.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports(module: str, path: Path) -> Iterator[str]:
    """The modules ``module`` imports, wherever the import stands (a lazy
    import inside a function still ties the two modules together), except
    under ``if TYPE_CHECKING:``, which never runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            yield target
            for alias in node.names:  # `from . import _kernels` imports a module
                yield f"{target}.{alias.name}"
        stack.extend(ast.iter_child_nodes(node))


ALL = modules()


@pytest.mark.parametrize("module", sorted(ALL))
def test_only_the_solver_reaches_its_private_modules(module):
    if module == "quiddler.solver" or module.startswith("quiddler.solver."):
        return
    private = sorted(
        name for name in imports(module, ALL[module])
        if name.startswith("quiddler.solver._")
    )
    assert not private, f"{module} imports {private}: use the public names of quiddler.solver"


@pytest.mark.parametrize("module", sorted(ALL))
def test_only_the_command_line_imports_click(module):
    if module == "quiddler.cli" or module.startswith("quiddler.cli."):
        return
    clicks = sorted(
        name for name in imports(module, ALL[module])
        if name == "click" or name.startswith("click.")
    )
    assert not clicks, f"{module} imports {clicks}: click belongs in quiddler.cli"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in ALL.items():
        targets = set()
        for name in imports(module, path):
            # `from .x import y` names either a module x.y or an attribute of x
            while name and name not in ALL:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_package_has_no_import_cycles():
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
