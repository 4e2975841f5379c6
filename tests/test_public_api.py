"""The public API: one sorted, complete ``__all__``, and the error hierarchy."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import json
import subprocess
import sys
import textwrap
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


def names_typed_in_init() -> dict[str, str]:
    """Public name -> its module, as the type checkers' imports at the top of
    ``quiddler/__init__.py`` give them (at run time the names load lazily)."""
    tree = ast.parse(Path(quiddler.__file__).read_text())
    homes = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            homes.update({alias.asname or alias.name: node.module for alias in node.names})
    return homes


def test_all_is_sorted_and_unique():
    assert quiddler.__all__ == sorted(set(quiddler.__all__), key=isort_key)


def test_all_is_complete():
    """Every name in ``__all__`` is typed for the type checkers and loaded at
    run time from the same module, and nothing else is."""
    typed = names_typed_in_init()
    assert set(quiddler.__all__) == set(typed) | {"__version__"}
    assert quiddler._HOMES == typed
    for name in quiddler.__all__:
        assert hasattr(quiddler, name), name
    for name, module in typed.items():
        assert getattr(quiddler, name) is getattr(importlib.import_module(f"quiddler.{module}"), name), name


def test_names_load_on_first_use():
    """``import quiddler`` imports none of its modules; a name imports its
    own module and what that needs, nothing more; every public name is in
    ``dir()`` and ``from quiddler import *`` gives them all."""
    script = textwrap.dedent("""
        import sys
        import quiddler
        loaded = lambda: sorted(m for m in sys.modules if m.startswith("quiddler."))
        print(loaded())
        print(set(quiddler.__all__) <= set(dir(quiddler)))
        from quiddler import Card
        print(loaded())
        namespace = {}
        exec("from quiddler import *", namespace)
        print(sorted(set(quiddler.__all__) - set(namespace)))
        import quiddler as again
        print(again.solver.solve is quiddler.solve, quiddler.Card is Card)
    """)
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True,
                          cwd=Path(quiddler.__file__).parent.parent, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "[]",
        "True",
        "['quiddler.cards', 'quiddler.errors']",
        "[]",
        "True True",
    ]


def test_a_bare_import_still_reaches_the_submodules():
    script = "import quiddler; print(quiddler.wordlist.default_wordlist is quiddler.default_wordlist)"
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True,
                          cwd=Path(quiddler.__file__).parent.parent, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solve_everything'"):
        quiddler.solve_everything  # noqa: B018


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
