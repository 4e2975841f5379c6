"""Loading the numba build of :mod:`quiddler.solver._kernels`, and where it is cached.

:func:`load` imports numba (slow, next to a one-off solve), has
:mod:`quiddler.solver._build` run the kernel source a second time as its
own module with ``kernel_decorator`` set to ``numba.njit``, so the
pure-Python backend and this one share one source of truth, and compiles
every kernel (or loads it from numba's on-disk cache).

Compiling is what makes a first use slow, so it is kept small:

* every kernel is compiled for exactly one signature, derived from its
  parameter names (see :data:`~quiddler.solver._kernels.ARRAY_PARAMETERS`),
  callees before callers, and then frozen.  Left to itself numba compiles a
  new copy of a kernel, and of everything it calls, for each literal
  argument it is called with (``find_words(edges, ranks, 0, ...)``): the big
  search kernels were compiled several times each;
* there is no ``parallel=True`` kernel (its compile alone is slow): a batch
  runs the same serial entry point on Python threads (the kernels release
  the GIL).

Importing this module imports nothing heavy: the auto backend asks
:func:`ready` (is the cache warm?) without importing numba, and
``python -m quiddler.solver._native`` fills the cache in a background
process (:func:`start_background_compile`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from ..notices import logger
from . import _build

__all__ = ["cache_folder", "load", "ready", "start_background_compile"]

log = logger("quiddler.solver")

KERNEL_FILE = _build.KERNEL_FILE
_lock = threading.Lock()


def _renew_lock() -> None:
    """In a forked child: a fresh lock (see ``_backends._renew_lock``): a
    thread of the parent loading the kernels at the fork is not in the child."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_renew_lock)
_loaded: ModuleType | None = None


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def cache_folder() -> Path | None:
    """Where numba caches the compiled kernels, or None if nowhere is writable.

    numba caches next to the source (``__pycache__``) or in
    ``NUMBA_CACHE_DIR``; with neither writable, ``cache=True`` fails.  Fall
    back to quiddler's user cache folder (setting ``NUMBA_CACHE_DIR`` for
    this process, which numba reads again before each compile), and to no
    caching at all if nothing is writable.
    """
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit) if _writable(Path(explicit)) else None
    in_tree = KERNEL_FILE.parent / "__pycache__"
    if _writable(in_tree):
        return in_tree
    from ..wordlist import cache_dir

    folder = cache_dir() / "numba"
    if _writable(folder):
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        return folder
    return None


def _choose_cache() -> bool:
    """True if the compiled kernels can be cached (see :func:`cache_folder`)."""
    return cache_folder() is not None


def _declare() -> ModuleType:
    """The kernel module with numba dispatchers, nothing compiled yet (see
    :func:`quiddler.solver._build.kernel_module`), caching where
    :func:`cache_folder` says."""
    cache = _choose_cache()  # before numba is imported: it may set NUMBA_CACHE_DIR
    from numba.core import config

    wanted = os.environ.get("NUMBA_CACHE_DIR", "")
    if wanted and getattr(config, "CACHE_DIR", None) != wanted:
        # numba was imported before quiddler chose the folder: make it read
        # its configuration again, or the kernels would find no cache locator.
        config.reload_config()  # type: ignore[no-untyped-call]
    return _build.kernel_module(cache)


#: Kernels compiled only when first used (top-K: a large part of the compile
#: time, and most programs never ask for it).
ON_DEMAND = frozenset({"top_plays"})
#: The kernels the backend calls from Python.  When the cache is known to be
#: warm only these are loaded: each cached entry holds the code of
#: everything it calls, so loading the callees too would only cost time.
ENTRY_POINTS = frozenset({"solve_rows", "score_rows", "score_plus_rows", "class_rows", "kept_rows", "find_words",
                          "layout_hand", "top_plays"})  # fmt: skip
_compiled: set[str] = set()


def load(everything: bool = False) -> ModuleType:
    """The compiled kernels (compiled on the first call in a process with a
    cold cache, else loaded from numba's cache), each for its one signature;
    those in :data:`ON_DEMAND` only if ``everything`` (else see :func:`kernel`)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _declare()
        started = time.perf_counter()
        # A cold cache compiles every kernel, callees first, so that each is
        # compiled once for its one signature; a warm one loads the entry points.
        wanted = ENTRY_POINTS if ready() and not everything else frozenset(_build.kernel_names(_loaded))
        for name in _build.kernel_names(_loaded):
            if name in wanted and (everything or name not in ON_DEMAND):
                _compile(_loaded, name)
        log.debug("solver kernels ready in %.1f s", time.perf_counter() - started)
        return _loaded


def kernel(name: str) -> Any:
    """The compiled kernel ``name`` (compiled now if it is on demand).

    Called on every top-K solve: once the kernel is compiled it is returned
    at once, without :func:`load`, whose :func:`ready` reads and hashes the
    kernel source."""
    module = _loaded
    if module is None or name not in _compiled:
        module = load()
        with _lock:
            _compile(module, name)
    return getattr(module, name)


def _compile(module: ModuleType, name: str) -> None:
    dispatcher = getattr(module, name)
    if name in _compiled or not hasattr(dispatcher, "py_func"):  # NUMBA_DISABLE_JIT: plain Python
        return
    dispatcher.compile(_build.signature(dispatcher))
    dispatcher.disable_compile()  # callers use this signature, literal arguments included
    _compiled.add(name)
    if _compiled >= set(_build.kernel_names(module)):  # the cache holds every kernel now
        folder = cache_folder()
        if folder is not None:
            _mark_ready(folder)


# -- is the cache warm?  (answered without importing numba) -------------------


def _ready_file(folder: Path) -> Path | None:
    """The marker file saying the kernels are compiled in ``folder`` for this
    kernel source, build, numba and Python; None if numba is not installed."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return None
    digest = hashlib.sha256()
    for path in (KERNEL_FILE, Path(_build.__file__), Path(__file__), Path(spec.origin)):
        try:
            stat = path.stat()
            digest.update(f"{stat.st_size}\0{stat.st_mtime_ns}\0".encode())  # not the path: links differ
        except OSError:
            return None
    digest.update(KERNEL_FILE.read_bytes())
    digest.update(f"{sys.version}\0{platform.machine()}\0{platform.node()}".encode())
    return folder / f"quiddler-kernels-{digest.hexdigest()[:24]}.ready"


def _mark_ready(folder: Path) -> None:
    marker = _ready_file(folder)
    if marker is not None:
        try:
            marker.touch()
        except OSError:
            pass


def ready() -> bool:
    """True if the compiled kernels are in numba's cache (or loaded), so
    :func:`load` loads them rather than compiles them."""
    folder = cache_folder()
    marker = _ready_file(folder) if folder is not None else None
    return marker is not None and marker.is_file()


def _open_regular(path: Path) -> int:
    """A descriptor of the regular file at ``path``, made if missing, for
    appending.  The cache folder is the user's: a FIFO put there in place of
    the log or the lock file must be refused, not waited on for ever."""
    from ..files import open_regular

    return open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0))


def start_background_compile() -> subprocess.Popen[bytes] | None:
    """Compile the kernels into the cache in a separate process, so this one
    keeps solving (in pure Python) meanwhile; None if there is no cache to
    fill or no process could be started.  The process outlives this one if
    need be (a later run then finds the cache warm), and processes that start
    one at the same time take turns (a lock file): the kernels compile once."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        with os.fdopen(_open_regular(folder / "quiddler-kernels.log"), "ab") as log_file:
            # Run from the folder holding this very package, so the child
            # imports the same quiddler whatever the current folder holds.
            return subprocess.Popen(
                [sys.executable, "-m", "quiddler.solver._native"], stdin=subprocess.DEVNULL,
                stdout=log_file, stderr=log_file, start_new_session=True, close_fds=True,
                cwd=KERNEL_FILE.parent.parent.parent,
            )  # fmt: skip
    except OSError as exc:
        log.warning("could not start compiling the solver kernels in the background: %s", exc)
        return None


def compile_running() -> bool:
    """Whether another process is compiling the kernels into the cache now
    (it holds the lock file): an earlier command's background compile."""
    folder = cache_folder()
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock to ask
        return False
    if folder is None:
        return False
    try:
        with os.fdopen(_open_regular(folder / "quiddler-kernels.lock"), "a+b") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False  # (closing the file lets the lock go)
    except OSError:
        return False


def _compile_here() -> int:
    """``python -m quiddler.solver._native``: fill the cache (one process at a time)."""
    folder = cache_folder()
    if folder is None:
        return 1
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, the compile may happen twice
        load(everything=True)
        return 0
    with os.fdopen(_open_regular(folder / "quiddler-kernels.lock"), "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready():
            load(everything=True)
    return 0


if __name__ == "__main__":
    sys.exit(_compile_here())
