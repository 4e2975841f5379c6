"""The Pyodide runtime the static site runs the engine on: its pinned npm
release, where it is fetched to, and which of its files the site ships.

Pyodide (https://pyodide.org, MPL-2.0) is CPython compiled to WebAssembly;
its npm package ``pyodide`` holds the runtime alone (the interpreter, the
standard library and their loader), which is all the site needs: quiddler
and pygtrie are pure Python and go in as wheels of their own.

The runtime is not inside quiddler's wheel: it is 13 MB that every user of
the library and the command line would download for a command few run.
``quiddler site`` fetches it instead, once, with ``npm`` into the user
cache (``npm`` checks the package's integrity against the registry's
lock); ``--pyodide PATH`` names a copy already at hand (offline builds,
a mirror).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from ..errors import QuiddlerError
from ..wordlist import cache_dir

__all__ = ["PYODIDE_VERSION", "RUNTIME_FILES", "SiteError", "fetch_runtime", "find_runtime", "python_version"]

#: The npm release of ``pyodide`` the site is built and tested with (its
#: Python: :func:`python_version`, 3.14 for this release).
PYODIDE_VERSION = "314.0.8"
#: The runtime's files the site ships: the loader, the interpreter, the
#: standard library and the package lock the loader reads at start-up.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Pyodide's licence (MPL-2.0); its npm package carries none, so quiddler ships the text.
LICENSE_TEXT = Path(__file__).with_name("licenses") / "MPL-2.0.txt"
#: CPython's licence (the PSF License Agreement and the history of its terms): the runtime is
#: CPython compiled to WebAssembly, with CPython's standard library.  The terms are the same for
#: every Python 3 release; the text is the one CPython 3.11 ships.
CPYTHON_LICENSE_TEXT = Path(__file__).with_name("licenses") / "PSF-CPython.txt"


class SiteError(QuiddlerError, OSError):
    """The site cannot be built: a folder that cannot be written, or a
    runtime that cannot be found or fetched (the message says which)."""


def _version_of(folder: Path) -> str | None:
    try:
        data = json.loads((folder / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("version") if isinstance(data, dict) and data.get("name") == "pyodide" else None


def find_runtime(folder: Path) -> Path:
    """The pinned Pyodide package in ``folder``: the package itself, or a
    folder holding ``node_modules/pyodide``.  SiteError if it is not there,
    is another release, or misses a file the site ships."""
    for candidate in (folder, folder / "node_modules" / "pyodide"):
        version = _version_of(candidate)
        if version is None:
            continue
        if version != PYODIDE_VERSION:
            raise SiteError(f"{str(candidate)!r} holds pyodide {version}, not {PYODIDE_VERSION}: "
                            f"npm install pyodide@{PYODIDE_VERSION}")  # fmt: skip
        missing = [name for name in RUNTIME_FILES if not (candidate / name).is_file()]
        if missing:
            raise SiteError(f"the pyodide package in {str(candidate)!r} misses {', '.join(missing)}")
        return candidate
    raise SiteError(f"no pyodide npm package in {str(folder)!r} (expected package.json naming pyodide "
                    f"{PYODIDE_VERSION}, or node_modules/pyodide)")  # fmt: skip


def default_runtime_cache() -> Path:
    """Where :func:`fetch_runtime` keeps the runtime: the user cache, one folder per release."""
    return cache_dir() / f"pyodide-{PYODIDE_VERSION}"


def fetch_runtime(cache: Path | None = None, npm: str = "npm") -> Path:
    """The pinned Pyodide package, fetched with ``npm`` into ``cache`` (by
    default :func:`default_runtime_cache`) unless it is there already."""
    cache = cache or default_runtime_cache()
    try:
        return find_runtime(cache)
    except SiteError:
        pass
    program = shutil.which(npm)
    if program is None:
        raise SiteError(f"the site's Python runtime (pyodide {PYODIDE_VERSION}) comes from the npm registry, and "
                        f"npm is not installed: install Node.js, or pass --pyodide PATH with a copy of the "
                        f"npm package pyodide@{PYODIDE_VERSION}")  # fmt: skip
    try:
        cache.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [program, "install", "--prefix", str(cache), "--no-save", "--ignore-scripts", "--no-audit",
             "--no-fund", "--loglevel=error", f"pyodide@{PYODIDE_VERSION}"],
            check=False, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SiteError(f"npm install pyodide@{PYODIDE_VERSION} failed: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SiteError(f"npm install pyodide@{PYODIDE_VERSION} failed (exit code {done.returncode}): {last}")
    return find_runtime(cache)


def python_version(runtime: Path) -> str:
    """The Python version the runtime carries, from its package lock (``"3.14.2"``)."""
    try:
        info = json.loads((runtime / "pyodide-lock.json").read_text("utf-8"))["info"]
        return str(info["python"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SiteError(f"cannot read the Python version from {runtime / 'pyodide-lock.json'}: {exc}") from None
