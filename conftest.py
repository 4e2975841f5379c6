"""Run the examples in README.md and docs/*.md as tests (with Sybil).

* ```` ```pycon ```` blocks (and ```` ```python ```` blocks that start with
  ``>>>``) are doctests: each output shown must be what the code prints.
* Other ```` ```python ```` blocks are executed.
* ```` ```console ```` blocks are shell sessions: each ``$ command`` runs in
  bash with the ``quiddler`` of this source tree first on PATH, and when the
  page shows output under it, that output (stdout and stderr together, as a
  terminal shows them; ``...`` matches anything) must be what it prints. A
  command shown without output must exit 0. The one-time notices about
  compiling the solver kernels (printed the first time on a machine, so
  present or not depending on what ran before) are left out of the
  comparison.
* ``<!-- slow: why -->`` before a block marks its commands as slow (over a
  second): they are skipped unless ``QUIDDLER_DOCS_SLOW=1`` is set, and
  then run from the repository root (they are benchmark commands and the
  like, which a page tells you to run from a source checkout).

Each page runs in a fresh temporary folder (examples may write files
there), with its Python namespace shared from one block to the next.  So
under pytest-xdist (``pytest -n 2``) a page's examples must run in order on
one worker: a plain ``-n`` run hands each page to one worker whole, and
every other test on its own (:func:`pytest_xdist_make_scheduler`).
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from unittest import SkipTest

import pytest
from sybil import Example, Region, Sybil
from sybil.document import Document
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import SkipParser
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, FencedCodeBlockLexer

ROOT = Path(__file__).resolve().parent
RUN_SLOW = os.environ.get("QUIDDLER_DOCS_SLOW") == "1"
OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
#: A command taking longer than this fails: a slow example must be marked.
COMMAND_TIMEOUT = 120
#: First-use notices that depend on the machine's state, not on the example.
FIRST_USE_NOTICE = re.compile(
    r"^quiddler: (compiling the solver kernels in the background( \(once|: another)|solver kernels compiled in ).*\n?", re.MULTILINE
)


class PythonBlocks:
    """```pycon and ```python blocks: doctests when they start with ``>>>``,
    otherwise code to execute."""

    def __init__(self) -> None:
        self.lexer = FencedCodeBlockLexer(language=r"pycon|python")
        self.doctests = DocTestStringParser(DocTestEvaluator(OPTIONFLAGS))
        self.execute = PythonEvaluator()

    def __call__(self, document: Document) -> Any:
        for region in self.lexer(document):
            source = region.lexemes["source"]
            if source.lstrip().startswith(">>>"):
                for doctest_region in self.doctests(source, document.path):
                    doctest_region.adjust(region, source)
                    yield doctest_region
            elif region.lexemes["language"] == "python":
                region.parsed = source
                region.evaluator = self.execute
                yield region
            else:
                raise ValueError(f"{document.path}: a pycon block must start with '>>>'")


def _commands(source: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block; ``\\`` at the
    end of a line continues the command."""
    pairs: list[tuple[str, list[str]]] = []
    continuing = False
    for line in source.splitlines():
        if continuing:
            pairs[-1] = (pairs[-1][0] + "\n" + line, pairs[-1][1])
        elif line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"console block must start with '$ ': {line!r}")
        continuing = bool(pairs) and line.endswith("\\") and not pairs[-1][1]
    return [(command, "\n".join(output).strip("\n")) for command, output in pairs]


def _quiddler_bin(namespace: dict[str, Any]) -> str:
    """A folder holding a ``quiddler`` that runs this tree's CLI with this
    interpreter, whatever else is installed."""
    folder = Path(namespace["_workdir"]) / ".bin"
    folder.mkdir(exist_ok=True)
    script = folder / "quiddler"
    script.write_text(
        "#!/bin/sh\n"
        f'exec "{sys.executable}" -c "import sys; sys.path.insert(0, \'{ROOT}\'); '
        f'from quiddler.cli import main; main(prog_name=\'quiddler\')" "$@"\n'
    )
    script.chmod(0o755)
    return str(folder)


def run_console(example: Example) -> str | None:
    namespace = example.namespace
    slow = namespace.pop("_slow_next", None)
    if slow is not None and not RUN_SLOW:
        raise SkipTest(f"slow example ({slow}); QUIDDLER_DOCS_SLOW=1 runs it")
    env = {
        **os.environ,
        "PATH": _quiddler_bin(namespace) + os.pathsep + os.environ.get("PATH", ""),
        "NO_COLOR": "1",
        "COLUMNS": "80",
        "TERM": "dumb",
    }
    checker = doctest.OutputChecker()
    for command, expected in _commands(str(example.parsed)):
        done = subprocess.run(
            ["bash", "-c", command], cwd=ROOT if slow else namespace["_workdir"], env=env,
            check=False, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, timeout=COMMAND_TIMEOUT,
        )  # fmt: skip
        printed = FIRST_USE_NOTICE.sub("", done.stdout)
        got = "\n".join(line.rstrip() for line in printed.strip("\n").splitlines())
        if expected:
            if not checker.check_output(expected + "\n", got + "\n", OPTIONFLAGS):
                return f"$ {command}\n--- the page shows:\n{expected}\n--- it printed (exit {done.returncode}):\n{got}"
        elif done.returncode != 0:
            return f"$ {command}\nexited {done.returncode}:\n{got}"
    return None


def mark_slow(example: Example) -> None:
    example.namespace["_slow_next"] = str(example.parsed).strip() or "slow"


def console_blocks(document: Document) -> Any:
    for region in FencedCodeBlockLexer(language="console")(document):
        region.parsed = region.lexemes["source"]
        region.evaluator = run_console
        yield region
    for lexed in DirectiveInHTMLCommentLexer(directive="slow", arguments=".*?")(document):
        yield Region(lexed.start, lexed.end, lexed.lexemes.get("arguments", ""), mark_slow)


def _setup(namespace: dict[str, Any]) -> None:
    namespace["_workdir"] = tempfile.mkdtemp(prefix="quiddler-docs-")
    namespace["_cwd"] = os.getcwd()
    os.chdir(namespace["_workdir"])


def _teardown(namespace: dict[str, Any]) -> None:
    os.chdir(namespace["_cwd"])
    shutil.rmtree(namespace["_workdir"], ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """(pytest-xdist) ``-n N`` with the default ``--dist load``: hand out
    tests one by one as usual, but each page's examples together, in order,
    to one worker (see the module docstring)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class PagesTogether(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path.endswith(".md") else nodeid

    return PagesTogether(config, log)


pytest_collect_file = Sybil(
    parsers=[PythonBlocks(), console_blocks, SkipParser()],
    patterns=["README.md", "docs/*.md", "docs/*/*.md"],
    setup=_setup,
    teardown=_teardown,
).pytest()

__all__ = ["pytest_collect_file", "pytest_xdist_make_scheduler"]
