"""The static site, built once per test session, and a loopback server for it.

The Pyodide runtime is fetched with npm into the user cache the first time
(``quiddler.site.runtime.fetch_runtime``, as ``quiddler site`` does), so
these tests need npm and, once, the npm registry; without them they fail,
they never skip.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from quiddler.site import build_site
from quiddler.site.runtime import fetch_runtime


@pytest.fixture(scope="session")
def pyodide_runtime() -> Path:
    """The pinned Pyodide npm package, from the user cache (fetched with npm once)."""
    return fetch_runtime()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, pyodide_runtime: Path) -> Path:
    """The site ``quiddler site`` writes, built once for every test that needs one."""
    folder = tmp_path_factory.mktemp("site") / "public"
    build_site(folder, runtime=pyodide_runtime)
    return folder


class _Files(http.server.SimpleHTTPRequestHandler):
    """A plain static host: the site's files, with the types a host gives
    JavaScript modules and WebAssembly (not left to /etc/mime.types)."""

    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}  # fmt: skip

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served on loopback (an ephemeral port): its address, ending in '/'."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
