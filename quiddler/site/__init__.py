"""``quiddler site``: the browser game and the solver as a static site.

The site is the page of ``quiddler serve`` on a second transport: instead
of a WebSocket to a server, a Web Worker in the page runs the engine, the
computer players and the hints on Pyodide (CPython compiled to
WebAssembly), speaking the same protocol (:mod:`quiddler.web.local`).
:func:`~quiddler.site.build.build_site` writes it; the Pyodide runtime
comes from the npm registry (:mod:`~quiddler.site.runtime`), the Python
packages are wheels of the installed ones (:mod:`~quiddler.site.wheels`).
"""

from .build import SiteReport, build_site
from .runtime import PYODIDE_VERSION, SiteError

__all__ = ["PYODIDE_VERSION", "SiteError", "SiteReport", "build_site"]
