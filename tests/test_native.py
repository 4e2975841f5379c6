"""Where the compiled kernels are cached (quiddler.solver._native._choose_cache).

numba caches next to the source or in NUMBA_CACHE_DIR, and with neither
writable ``cache=True`` fails at import; the package must fall back to its
user cache folder, then to no caching, and never crash.
"""

from __future__ import annotations

import os
import subprocess
import sys
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


# -- numba imported before quiddler (issue 11, item 4) ---------------------------

_DECLARE = """
import numba  # first: numba reads its configuration now, before quiddler chooses a cache
from quiddler.solver import _native
module = _native._declare()
kernel = module.find_words
print(type(kernel._cache).__name__, getattr(kernel._cache, "_cache_path", ""))
"""


def _read_only_package_copy(tmp_path: Path) -> dict[str, str]:
    """A copy of the package where nothing beside the source can be written:
    its __pycache__ and the user-wide cache folders are files (file modes do
    not stop root, which the CI runs as)."""
    import shutil

    import quiddler

    root = tmp_path / "site"
    shutil.copytree(Path(quiddler.__file__).parent, root / "quiddler",
                    ignore=shutil.ignore_patterns("__pycache__", "*.cardtrie"))  # fmt: skip
    (root / "quiddler" / "solver" / "__pycache__").write_text("not a folder")
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "QUIDDLER_", "XDG_"))}
    env.update(PYTHONPATH=str(root), HOME=str(blocker), XDG_CACHE_HOME=str(blocker / "xdg"),
               PYTHONDONTWRITEBYTECODE="1")  # fmt: skip
    return env


def test_numba_imported_first_with_a_read_only_package_still_caches(tmp_path):
    env = _read_only_package_copy(tmp_path)
    env["QUIDDLER_CACHE_DIR"] = str(tmp_path / "quiddler-cache")
    done = subprocess.run([sys.executable, "-c", _DECLARE], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kind, path = done.stdout.split()
    assert kind == "FunctionCache" and path.startswith(str(tmp_path / "quiddler-cache" / "numba"))


def test_numba_imported_first_with_nothing_writable_compiles_without_a_cache(tmp_path):
    env = _read_only_package_copy(tmp_path)
    env["QUIDDLER_CACHE_DIR"] = str(tmp_path / "blocker" / "cache")
    done = subprocess.run([sys.executable, "-c", _DECLARE], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "NullCache"


def test_every_kernel_gets_exactly_one_signature():
    module = _native._declare()
    names = _native.kernel_names(module)
    assert names.index("state_value") < names.index("best_play") < names.index("solve_rows")
    for name in names:
        signature = _native._signature(getattr(module, name))
        assert len(signature) == getattr(module, name).py_func.__code__.co_argcount


def test_cache_readiness_marker(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not _native.ready()
    _native._mark_ready(tmp_path)
    assert _native.ready()
    marker = _native._ready_file(tmp_path)
    assert marker is not None and marker.parent == tmp_path


def test_compiled_kernels_index_with_unsigned_integers():
    """The numba build wraps every element index of every kernel (and only
    those: not slices, not plain helpers) in index_cast, which numba compiles
    without the negative-index fix-up."""
    import ast

    source = (
        "@kernel\ndef k(a, b, i):\n    a[i + 1] = b[a[i]]\n    return a[1:i]\n\n"
        "def helper(a):\n    return a[0]\n"
    )
    text = ast.unparse(_native._unsigned_indices(source))
    assert "a[index_cast(i + 1)] = b[index_cast(a[index_cast(i)])]" in text
    assert "return a[1:i]" in text
    assert "return a[0]" in text
    module = _native._declare()
    assert str(module.index_cast) == "uint64"
    assert "index_cast" in module.find_words.py_func.__code__.co_names
