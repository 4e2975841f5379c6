"""How the numba build of :mod:`quiddler.solver._kernels` is made.

The kernel source is plain Python (the pure-Python backend runs it as it
stands).  The numba build runs the same file a second time as its own
module, ``quiddler.solver._kernels_jit``, changed in three ways; the kernel
module's docstring states what each demands of the source:

* **a source rewrite**: every element index of every ``@kernel`` function
  is wrapped in ``index_cast`` (numba's ``uint64``), see
  :func:`unsigned_indices`;
* **injected names**: ``kernel_decorator`` (``numba.njit`` with
  :data:`OPTIONS`), ``index_cast``, and ``count_ones_native`` and
  ``lowest_bit_native``, LLVM intrinsics for the CPU's ``popcnt`` and
  ``tzcnt`` (see :func:`bit_intrinsics`);
* **one signature per kernel**, from its parameter names (see
  :func:`signature`), compiled callees first (see :func:`kernel_names`).

numba's cache keys on the kernel source file and the bytecode, not on
anything here: after changing the options or the intrinsics in a source
tree, delete ``quiddler/solver/__pycache__/*.nb*``.  Where the cache lives
and when it is warm is :mod:`quiddler.solver._native`'s business.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from ..notices import logger
from . import _kernels

__all__ = ["KERNEL_FILE", "MODULE_NAME", "OPTIONS", "kernel_module", "kernel_names", "signature",
           "unsigned_indices"]  # fmt: skip

log = logger("quiddler.solver")

KERNEL_FILE = Path(_kernels.__file__)
MODULE_NAME = "quiddler.solver._kernels_jit"

#: How every kernel is compiled.  ``nogil``: batches run the kernels on
#: Python threads.  ``_nrt=False`` (numba's private switch for its runtime):
#: the kernels only read and write arrays they are given (they allocate
#: nothing), so numba's reference counting has nothing to protect, yet it
#: costs an atomic increment and decrement per array argument on every call
#: and slice.  With it off, a kernel that allocates does not compile.
OPTIONS = {"nogil": True, "_nrt": False}


def decorator(numba: Any, cache: bool) -> Any:
    """``numba.njit`` for a kernel: cached if possible, never failing for want of a cache."""

    def decorate(fn: Any) -> Any:
        if cache:
            try:
                return numba.njit(cache=True, **OPTIONS)(fn)
            except RuntimeError as exc:  # "cannot cache function ...: no locator available"
                log.warning("compiled solver kernels cannot be cached (%s); set NUMBA_CACHE_DIR", exc)
        return numba.njit(**OPTIONS)(fn)

    return decorate


def kernel_module(cache: bool) -> ModuleType:
    """The kernel source run as the module :data:`MODULE_NAME`, its kernels
    numba dispatchers (cached if ``cache``), nothing compiled yet."""
    import numba
    from numba.core import config

    spec = importlib.util.spec_from_file_location(MODULE_NAME, KERNEL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.kernel_decorator = decorator(numba, cache)  # type: ignore[attr-defined]
    module.index_cast = numba.uint64  # type: ignore[attr-defined]
    if not getattr(config, "DISABLE_JIT", False):  # plain Python keeps int's own bit counting
        module.count_ones_native, module.lowest_bit_native = bit_intrinsics()  # type: ignore[attr-defined]
    sys.modules[MODULE_NAME] = module
    # The package's own kernel source, run as its module (as the import
    # system would run it), after the unsigned-index pass.
    code = compile(unsigned_indices(KERNEL_FILE.read_text(encoding="utf-8")), str(KERNEL_FILE), "exec")
    exec(code, module.__dict__)  # noqa: S102
    return module


def bit_intrinsics() -> tuple[Any, Any]:
    """The CPU's population count and count of trailing zeros for the
    kernels' ``count_ones`` and ``lowest_bit`` (LLVM's ``ctpop`` and
    ``cttz``: one instruction each on a CPU that has them)."""
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


def unsigned_indices(source: str) -> ast.Module:
    """The kernel source with every array index of every kernel made an
    unsigned integer for numba.

    numba makes ``a[i]`` with a signed ``i`` work from the end when ``i`` is
    negative, three more instructions per access that LLVM can only drop
    where it can prove ``i >= 0``; with an unsigned index there is nothing to
    check.  The kernels never index from the end, so this changes no result
    (and a kernel that did would read out of range: see the kernel module's
    docstring).  Only functions decorated ``@kernel`` are rewritten, and only
    element indices, not slices.  The pure-Python backend runs the source as
    written; numba's cache keys on the bytecode, so cached kernels of the
    untransformed source are never reused.
    """

    class UnsignedIndex(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.Subscript:
            self.generic_visit(node)
            if not isinstance(node.slice, (ast.Slice, ast.Tuple)):  # an element, not a slice
                cast = ast.Call(func=ast.Name(id="index_cast", ctx=ast.Load()), args=[node.slice], keywords=[])
                node.slice = ast.copy_location(cast, node.slice)
            return node

    tree = ast.parse(source)
    for node in kernel_functions(tree):
        UnsignedIndex().visit(node)
    return ast.fix_missing_locations(tree)


def kernel_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The functions of a module's syntax tree decorated ``@kernel``."""
    return [
        node for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "kernel" for d in node.decorator_list)
    ]  # fmt: skip


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


def signature(fn: Any) -> tuple[Any, ...]:
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
