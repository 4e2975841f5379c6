"""The numba build of :mod:`quiddler.solver._kernels`.

Importing this module imports numba (a few hundred milliseconds) and loads
the kernels from numba's on-disk cache (compiling them on the very first
use).  The kernel source is executed a second time as its own module with
``kernel_decorator`` set to ``numba.njit``, so the pure-Python backend and
this one share one source of truth.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from . import _kernels


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _choose_cache() -> bool:
    """Make sure numba has somewhere writable to cache compiled kernels.

    numba caches next to the source (``__pycache__``) or in
    ``NUMBA_CACHE_DIR``; with neither writable, ``cache=True`` fails at
    import.  Fall back to quiddler's user cache folder, and to no caching at
    all if nothing is writable.  Must run before numba is imported.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return _writable(Path(os.environ["NUMBA_CACHE_DIR"]))
    if _writable(Path(_kernels.__file__).parent / "__pycache__"):
        return True
    from ..wordlist import cache_dir

    folder = cache_dir() / "numba"
    if _writable(folder):
        os.environ["NUMBA_CACHE_DIR"] = str(folder)
        return True
    return False


def _build() -> ModuleType:
    cache = _choose_cache()
    import numba

    name = __name__.rsplit(".", 1)[0] + "._kernels_jit"
    spec = importlib.util.spec_from_file_location(name, _kernels.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.kernel_decorator = numba.njit(cache=cache, nogil=True)  # type: ignore[attr-defined]
    module.parallel_kernel_decorator = numba.njit(cache=cache, nogil=True, parallel=True)  # type: ignore[attr-defined]
    module.kernel_prange = numba.prange  # type: ignore[attr-defined]
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


kernels = _build()
