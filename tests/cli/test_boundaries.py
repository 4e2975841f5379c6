"""The command line sits on top of the library: click is imported only in
``quiddler/cli/``, the library never imports its command line (only
``python -m quiddler`` starts it), and the command line reaches no private
module of another package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import quiddler

PACKAGE = Path(quiddler.__file__).resolve().parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module a source file imports, relative imports made absolute."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts if path.name == "__init__.py" else parts[:-1]
    if package and package[-1] == "__init__":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def _in_cli(path: Path) -> bool:
    """In the command line: the cli package, or ``quiddler/__main__.py`` that runs it."""
    return path.relative_to(PACKAGE).parts[0] in ("cli", "__main__.py")


def test_the_premise_sources_are_found() -> None:
    assert any(_in_cli(p) for p in SOURCES) and any(not _in_cli(p) for p in SOURCES)
    assert "click" in _imports(PACKAGE / "cli" / "group.py")
    assert "quiddler.cli.errors.OneLineErrors" in _imports(PACKAGE / "cli" / "solve.py")


@pytest.mark.parametrize("path", [p for p in SOURCES if not _in_cli(p)], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_outside_the_cli_imports_click_or_the_cli(path: Path) -> None:
    imported = _imports(path)
    assert not {m for m in imported if m == "click" or m.startswith("click.")}
    assert not {m for m in imported if m == "quiddler.cli" or m.startswith("quiddler.cli.")}


@pytest.mark.parametrize("path", [p for p in SOURCES if _in_cli(p)], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_cli_reaches_no_private_module_of_another_package(path: Path) -> None:
    private = {m for m in _imports(path) if m.startswith("quiddler.") and not m.startswith("quiddler.cli.")
               and any(part.startswith("_") for part in m.split(".")[1:-1])}  # fmt: skip
    assert not private
