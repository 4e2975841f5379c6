"""A one-shot ``quiddler solve`` imports :mod:`logging` only when it has
something to say, and then still says it on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_PROBE = """
import sys
from quiddler.cli import main
try:
    main(sys.argv[1:], prog_name="quiddler")
except SystemExit as exit:
    assert not exit.code, exit.code
print("logging imported" if "logging" in sys.modules else "no logging", file=sys.stderr)
"""


def _solve(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QUIDDLER_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", _PROBE, "solve", *args], capture_output=True, text=True,
                          env=env, check=False, timeout=120)  # fmt: skip


def test_a_quiet_solve_never_imports_logging(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("quit\nit\n")
    done = _solve("qu,i,t", "--wordlist", str(words), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert "quit" in done.stdout
    assert done.stderr.splitlines()[-1] == "no logging"


def test_a_notice_due_is_still_printed(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("quit\nit\n")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = _solve("qu,i,t", "--wordlist", str(words), cache=blocker / "cache")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert any(line.startswith("quiddler: cannot cache the indexed word list") for line in lines), done.stderr
    assert lines[-1] == "logging imported"
