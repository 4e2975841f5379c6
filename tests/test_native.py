"""Where the compiled kernels are cached (quiddler.solver._native._choose_cache).

numba caches next to the source or in NUMBA_CACHE_DIR, and with neither
writable ``cache=True`` fails at import; the package must fall back to its
user cache folder, then to no caching, and never crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quiddler.solver import _native
from quiddler.wordlist import cache_dir


@pytest.fixture
def no_numba_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(tmp_path / "quiddler-cache"))
    return tmp_path


def test_source_folder_cache_is_used_when_writable(no_numba_cache_dir, monkeypatch):
    monkeypatch.setattr(_native, "_writable", lambda folder: True)
    assert _native._choose_cache() is True
    assert "NUMBA_CACHE_DIR" not in _native.os.environ


def test_read_only_package_falls_back_to_the_user_cache(no_numba_cache_dir, monkeypatch):
    package_cache = Path(_native._kernels.__file__).parent / "__pycache__"
    monkeypatch.setattr(_native, "_writable", lambda folder: folder != package_cache)
    assert _native._choose_cache() is True
    assert _native.os.environ["NUMBA_CACHE_DIR"] == str(cache_dir() / "numba")


def test_nothing_writable_means_no_cache(no_numba_cache_dir, monkeypatch):
    monkeypatch.setattr(_native, "_writable", lambda folder: False)
    assert _native._choose_cache() is False
    assert "NUMBA_CACHE_DIR" not in _native.os.environ


def test_an_explicit_numba_cache_dir_is_respected(no_numba_cache_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert _native._choose_cache() is True
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    assert _native._choose_cache() is False  # unwritable: compile without caching


def test_writable_probe(tmp_path):
    assert _native._writable(tmp_path / "new" / "folder")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert not _native._writable(blocker / "below-a-file")


def test_numba_backend_source_runs_as_plain_python():
    """With NUMBA_DISABLE_JIT=1 the numba backend's own entry points (the
    packed call, the parallel batch, top-K on numpy arrays) run as plain
    Python and agree with the pure-Python backend."""
    import os
    import subprocess
    import sys

    code = """
import json
from quiddler import solve, solve_many
hands = ['d,cl,o,g,a,b', 'qu,i,th,er,a', 'a,b,c', 'e,r,t,s,a,e', 'z,z']
compiled = [solve(h, discard=True, backend='numba') for h in hands]
plain = [solve(h, discard=True, backend='python') for h in hands]
batch = solve_many(hands, discard=True)
top = [solve(h, top=3, beat_words=1, backend='numba') for h in hands]
top_plain = [solve(h, top=3, beat_words=1, backend='python') for h in hands]
print(json.dumps([compiled == plain == batch, top == top_plain, [s.best.score for s in plain]]))
"""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(root))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    same, same_top, scores = __import__("json").loads(result.stdout)
    assert same and same_top
    assert scores == [28, 16, 10, 15, -14]  # z,z: one discarded, one left over
