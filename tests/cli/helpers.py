"""What the command-line tests share: running ``quiddler`` through click's
CliRunner (stdout, stderr and exit code apart) or as a real process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

import quiddler
from quiddler.cli import main

HAND = "d,cl,o,g,a,b,er,in,n,y,s"
REPO = Path(quiddler.__file__).resolve().parent.parent


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def row(word: str, cards: str, points: int) -> re.Pattern[str]:
    """A printed word row: the word, its cards, its points, blanks between."""
    return re.compile(rf"^\s+{word}\s+{re.escape(cards)}\s+{points}$", re.MULTILINE)


def assert_one_error_line(result: Result, code: int, *fragments: str) -> None:
    """Nothing on stdout, one ``Error:`` line on stderr holding every fragment, and ``code``."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def assert_input_error(result: Result, *fragments: str) -> None:
    assert_one_error_line(result, 2, *fragments)


def run_process(shell_command: str) -> subprocess.CompletedProcess[str]:
    """``quiddler`` as a real process, under /bin/sh (for redirections)."""
    command = f"{sys.executable} -m quiddler {shell_command}"
    return subprocess.run(["/bin/sh", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
