"""The import hook of benchmarks/mutation.py: serves one module's mutated source.

The mutation benchmark copies this file, as ``sitecustomize.py``, into a
folder it puts first on ``PYTHONPATH`` and names the mutant in the
``QUIDDLER_MUTANT`` variable (the module, its real path, the file holding
the mutated source).  So the mutant is planted in the benchmark's own test
process (which calls :func:`install`) and in every Python process the tests
start, such as a ``quiddler serve`` child; without the variable, nothing
happens.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from types import ModuleType


class MutantLoader(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads the one mutated module; leaves every other import alone."""

    def __init__(self, module: str, path: str, source: bytes) -> None:
        self.module, self.path, self.source = module, path, source

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.module:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        exec(compile(self.source, self.path, "exec"), module.__dict__)  # noqa: S102 - running the mutant is the point


def install() -> None:
    named = os.environ.get("QUIDDLER_MUTANT")
    if named:
        mutant = json.loads(named)
        with open(mutant["source"], "rb") as file:
            sys.meta_path.insert(0, MutantLoader(mutant["module"], mutant["path"], file.read()))


if __name__ == "sitecustomize":
    install()
