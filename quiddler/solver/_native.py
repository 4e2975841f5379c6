"""The numba build of :mod:`quiddler.solver._kernels`, and where it is cached.

:func:`load` imports numba (a few hundred milliseconds), executes the kernel
source a second time as its own module with ``kernel_decorator`` set to
``numba.njit``, so the pure-Python backend and this one share one source of
truth, and compiles every kernel (or loads it from numba's on-disk cache).

Compiling is what makes a first use slow, so it is kept small:

* every kernel is compiled for exactly one signature, derived from its
  parameter names (see :data:`~quiddler.solver._kernels.ARRAY_PARAMETERS`),
  callees before callers, and then frozen.  Left to itself numba compiles a
  new copy of a kernel, and of everything it calls, for each literal
  argument it is called with (``find_words(edges, ranks, 0, ...)``): the big
  search kernels were compiled three or four times each;
* there is no ``parallel=True`` kernel (its compile alone took 8 s): a batch
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
import logging
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

from . import _kernels

__all__ = ["cache_folder", "load", "ready", "start_background_compile"]

log = logging.getLogger("quiddler.solver")

KERNEL_FILE = Path(_kernels.__file__)
_lock = threading.Lock()
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


#: How every kernel is compiled.  ``nogil``: batches run the kernels on
#: Python threads.  ``_nrt=False``: the kernels only read and write arrays
#: they are given (they allocate nothing), so numba's reference counting
#: has nothing to protect, yet it cost an atomic increment and decrement
#: per array argument on every call and slice (about 6% of an 11-card
#: discard solve, measured in a same-run A/B).  numba's cache keys on the
#: source file and bytecode, not on these options: after changing them in a
#: source tree, delete ``quiddler/solver/__pycache__/*.nb*``.
_OPTIONS = {"nogil": True, "_nrt": False}


def _decorator(numba: Any, cache: bool) -> Any:
    """``numba.njit`` for a kernel: cached if possible, never failing for want of a cache."""

    def decorate(fn: Any) -> Any:
        if cache:
            try:
                return numba.njit(cache=True, **_OPTIONS)(fn)
            except RuntimeError as exc:  # "cannot cache function ...: no locator available"
                log.warning("compiled solver kernels cannot be cached (%s); set NUMBA_CACHE_DIR", exc)
        return numba.njit(**_OPTIONS)(fn)

    return decorate


def _declare() -> ModuleType:
    """The kernel module with numba dispatchers, nothing compiled yet."""
    cache = _choose_cache()
    import numba
    from numba.core import config

    wanted = os.environ.get("NUMBA_CACHE_DIR", "")
    if wanted and getattr(config, "CACHE_DIR", None) != wanted:
        # numba was imported before quiddler chose the folder: make it read
        # its configuration again, or the kernels would find no cache locator.
        config.reload_config()  # type: ignore[no-untyped-call]
    name = "quiddler.solver._kernels_jit"
    spec = importlib.util.spec_from_file_location(name, KERNEL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.kernel_decorator = _decorator(numba, cache)  # type: ignore[attr-defined]
    module.index_cast = numba.uint64  # type: ignore[attr-defined]
    if not getattr(config, "DISABLE_JIT", False):  # plain Python keeps int's own bit counting
        module.count_ones_native, module.lowest_bit_native = _bit_intrinsics()  # type: ignore[attr-defined]
    sys.modules[name] = module
    # The package's own kernel source, run as its module (as the import
    # system would run it), after the unsigned-index pass.
    code = compile(_unsigned_indices(KERNEL_FILE.read_text(encoding="utf-8")), str(KERNEL_FILE), "exec")
    exec(code, module.__dict__)  # noqa: S102
    return module


def _bit_intrinsics() -> tuple[Any, Any]:
    """The CPU's population count and count of trailing zeros for the
    kernels' ``count_ones`` and ``lowest_bit`` (LLVM's ``ctpop`` and
    ``cttz``: one instruction each on a CPU that has them).  numba's cache
    keys on the kernel source, not on these: after changing them in a
    source tree, delete ``quiddler/solver/__pycache__/*.nb*``."""
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def count_ones(typingctx: Any, bits: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return (bits(bits), codegen) if isinstance(bits, types.Integer) else None

    @intrinsic
    def lowest_bit(typingctx: Any, bits: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))  # defined for 0 too

        return (bits(bits), codegen) if isinstance(bits, types.Integer) else None

    return count_ones, lowest_bit


def _unsigned_indices(source: str) -> Any:
    """The kernel source with every array index of every kernel made an
    unsigned integer for numba.

    numba makes ``a[i]`` with a signed ``i`` work from the end when ``i`` is
    negative, three more instructions per access that LLVM can only drop
    where it can prove ``i >= 0``; with an unsigned index there is nothing to
    check.  The kernels never index from the end, so this changes no result,
    and it made the trie walk 15-20% faster (same-run A/B).  The pure-Python
    backend runs the source as written; numba's cache keys on the bytecode,
    so cached kernels of the untransformed source are never reused.
    """
    import ast

    class UnsignedIndex(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.Subscript:
            self.generic_visit(node)
            if not isinstance(node.slice, (ast.Slice, ast.Tuple)):  # an element, not a slice
                cast = ast.Call(func=ast.Name(id="index_cast", ctx=ast.Load()), args=[node.slice], keywords=[])
                node.slice = ast.copy_location(cast, node.slice)
            return node

    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "kernel" for d in node.decorator_list
        ):
            UnsignedIndex().visit(node)
    return ast.fix_missing_locations(tree)


def kernel_names(module: ModuleType) -> list[str]:
    """The kernels of ``module``, callees before their callers."""
    kernels = {name: fn for name, fn in vars(module).items() if hasattr(fn, "py_func")}
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        for callee in kernels[name].py_func.__code__.co_names:
            if callee in kernels and callee != name:
                visit(callee)
        order.append(name)

    for name in sorted(kernels):
        visit(name)
    return order


def _signature(fn: Any) -> tuple[Any, ...]:
    """The one signature a kernel is compiled for, from its parameter names."""
    from numba import types

    vector = types.Array(types.int64, 1, "C")
    special = {
        "edges": types.Array(types.int32, 1, "C"),
        "ranks": types.Array(types.int32, 1, "C", readonly=True),
        "jobs": types.Array(types.int64, 2, "C"),
    }
    code = fn.py_func.__code__
    return tuple(
        special.get(name, vector if name in _kernels.ARRAY_PARAMETERS else types.int64)
        for name in code.co_varnames[: code.co_argcount]
    )


#: Kernels compiled only when first used (top-K: a quarter of the compile
#: time, and most programs never ask for it).
ON_DEMAND = frozenset({"top_plays"})
#: The kernels the backend calls from Python.  When the cache is known to be
#: warm only these are loaded: each cached entry holds the code of
#: everything it calls, so loading the callees too would only cost time.
ENTRY_POINTS = frozenset({"solve_rows", "find_words", "layout_hand", "top_plays"})
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
        wanted = ENTRY_POINTS if ready() and not everything else frozenset(kernel_names(_loaded))
        for name in kernel_names(_loaded):
            if name in wanted and (everything or name not in ON_DEMAND):
                _compile(_loaded, name)
        log.debug("solver kernels ready in %.1f s", time.perf_counter() - started)
        return _loaded


def kernel(name: str) -> Any:
    """The compiled kernel ``name`` (compiled now if it is on demand)."""
    module = load()
    with _lock:
        _compile(module, name)
    return getattr(module, name)


def _compile(module: ModuleType, name: str) -> None:
    dispatcher = getattr(module, name)
    if name in _compiled or not hasattr(dispatcher, "py_func"):  # NUMBA_DISABLE_JIT: plain Python
        return
    dispatcher.compile(_signature(dispatcher))
    dispatcher.disable_compile()  # callers use this signature, literal arguments included
    _compiled.add(name)
    if _compiled >= set(kernel_names(module)):  # the cache holds every kernel now
        folder = cache_folder()
        if folder is not None:
            _mark_ready(folder)


# -- is the cache warm?  (answered without importing numba) -------------------


def _ready_file(folder: Path) -> Path | None:
    """The marker file saying the kernels are compiled in ``folder`` for this
    kernel source, numba and Python; None if numba is not installed."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return None
    digest = hashlib.sha256()
    for path in (KERNEL_FILE, Path(__file__), Path(spec.origin)):
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
    :func:`load` takes about a second, not a compile."""
    folder = cache_folder()
    marker = _ready_file(folder) if folder is not None else None
    return marker is not None and marker.is_file()


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
        with open(folder / "quiddler-kernels.log", "ab") as log_file:
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
    with open(folder / "quiddler-kernels.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready():
            load(everything=True)
    return 0


if __name__ == "__main__":
    sys.exit(_compile_here())
