"""The bytecode of the site's Python modules, compiled by the site's own
runtime: Pyodide's CPython, run in Node.js.

Importing quiddler is most of the engine's own start in the page after
Python's, and compiling each module's source is much of an import.  A wheel
that carries each module's ``.pyc`` for the runtime's Python is imported
without compiling, as Pyodide's own packages are.  The runtime's Python
(3.14 for the pinned release) need not be the one building the site, so the
runtime compiles them itself: ``quiddler site`` runs it in Node.js (which
``npm`` needs anyway) over the wheels' sources.  Each file is an
unchecked-hash ``.pyc`` (PEP 552): it is used without looking at the
source's time, which a file unpacked in the browser does not keep.  Without
Node.js the site is built without them, and imports compile the sources.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["compile_with_runtime", "pyc_name"]

#: Run by ``node``: the runtime compiles every source under /src (the host folder argv[3]).
_COMPILE = """
import { pathToFileURL } from "node:url";
const [runtime, folder] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: runtime + "/", stdout: () => {}, stderr: (t) => console.error(t) });
pyodide.mountNodeFS("/src", folder);
const done = pyodide.runPython(`
import compileall, json, py_compile, sys
ok = compileall.compile_dir("/src", quiet=1, workers=1,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
json.dumps({"ok": bool(ok), "tag": sys.implementation.cache_tag})
`);
process.stdout.write(done);
"""


def pyc_name(source: str, tag: str) -> str:
    """Where a module's bytecode goes beside its source: ``a/b.py`` -> ``a/__pycache__/b.<tag>.pyc``."""
    folder, _, name = source.rpartition("/")
    return f"{folder + '/' if folder else ''}__pycache__/{name[:-3]}.{tag}.pyc"


def compile_with_runtime(runtime: Path, sources: dict[str, bytes], node: str = "node",
                         timeout: float = 300) -> tuple[dict[str, tuple[str, bytes]], str | None]:  # fmt: skip
    """The runtime's bytecode of ``sources`` (``.py`` files by their name in
    the wheels): ``({source name: (pyc name, bytes)}, None)``, or ``({}, why
    not)`` when Node.js is missing or the runtime cannot compile them."""
    program = shutil.which(node)
    if program is None:
        return {}, "node is not installed"
    with tempfile.TemporaryDirectory(prefix="quiddler-site-bytecode-") as scratch:
        root = Path(scratch) / "src"
        for name, data in sources.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        script = Path(scratch) / "compile.mjs"
        script.write_text(_COMPILE, "utf-8")
        try:
            done = subprocess.run([program, str(script), str(runtime.resolve()), str(root)], capture_output=True,
                                  text=True, timeout=timeout, check=False)  # fmt: skip
            answer = json.loads(done.stdout) if done.returncode == 0 else None
        except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
            return {}, f"the runtime did not run in node: {exc}"
        if not isinstance(answer, dict) or not answer.get("ok") or not isinstance(answer.get("tag"), str):
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return {}, f"the runtime did not compile the sources (exit code {done.returncode}): {last}"
        compiled = {}
        for name in sources:
            target = pyc_name(name, answer["tag"])
            path = root / target
            if not path.is_file():
                return {}, f"the runtime wrote no bytecode for {name}"
            compiled[name] = (target, path.read_bytes())
        return compiled, None
