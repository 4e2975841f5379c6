"""The public API: one sorted, complete ``__all__``, and the error hierarchy."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

import quiddler
from quiddler import (
    ArgumentTypeError,
    HandTooLargeError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidWordError,
    QuiddlerError,
    WordListError,
    solve,
)


def isort_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then the rest."""
    if name.isupper():
        return (0, name)
    return (1 if name[:1].isupper() else 2, name)


def names_bound_in_init() -> set[str]:
    """Public names that ``quiddler/__init__.py`` imports from the package or defines."""
    tree = ast.parse(Path(quiddler.__file__).read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Try):  # the version fallback
            for inner in ast.walk(node):
                if isinstance(inner, ast.Assign):
                    names.update(t.id for t in inner.targets if isinstance(t, ast.Name))
    if "__getattr__" in names:  # the version is looked up lazily by a module __getattr__
        names.add("__version__")
    return {name for name in names if not name.startswith("_") or name == "__version__"} - {"__all__"}


def test_all_is_sorted_and_unique():
    assert quiddler.__all__ == sorted(set(quiddler.__all__), key=isort_key)


def test_all_is_complete():
    assert set(quiddler.__all__) == names_bound_in_init()
    for name in quiddler.__all__:
        assert hasattr(quiddler, name), name


@pytest.mark.parametrize("module", ["cards", "errors", "solver", "wordlist"])
def test_every_module_all_is_reexported(module):
    names = getattr(quiddler, module).__all__
    assert set(names) <= set(quiddler.__all__)


def test_version():
    assert isinstance(quiddler.__version__, str) and quiddler.__version__


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (InvalidCardError, ValueError),
        (InvalidArgumentError, ValueError),
        (ArgumentTypeError, TypeError),
        (HandTooLargeError, ValueError),
        (WordListError, OSError),
        (IllegalActionError, ValueError),
        (InvalidWordError, IllegalActionError),
    ],
)
def test_errors_are_quiddler_errors_and_builtins(error, builtin):
    assert issubclass(error, QuiddlerError) and issubclass(error, builtin)
    assert issubclass(QuiddlerError, Exception)


def test_values_are_frozen_and_json_ready():
    solution = solve("qu,e,e,n,s", discard=True, backend="python")
    for value, field in ((solution, "plays"), (solution.best, "words"), (solution.best.words[0], "text")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, ())
    data = json.loads(json.dumps(solution.to_dict()))
    assert data["cards"] == ["qu", "e", "e", "n", "s"] and data["discard_required"] is True
    best = data["best"]
    assert best["score"] == solution.best.score and best["goes_out"] == solution.best.goes_out
    assert best["discard"] == solution.best.discard.face
    assert [w["word"] for w in best["words"]] == [w.text for w in solution.best.words]
    assert data["plays"][0] == best
