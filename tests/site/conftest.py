"""The static site, built once per test session by ``quiddler site``, and a
loopback server for it.

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
from click.testing import CliRunner, Result

from quiddler.cli import main
from quiddler.site.runtime import fetch_runtime


@pytest.fixture(scope="session")
def pyodide_runtime() -> Path:
    """The pinned Pyodide npm package, from the user cache (fetched with npm once)."""
    return fetch_runtime()


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory, pyodide_runtime: Path) -> tuple[Path, Result]:
    """The site as ``quiddler site DIR --pyodide RUNTIME`` writes it, built once
    for every test that needs one: its folder and the command's result."""
    folder = tmp_path_factory.mktemp("site") / "public"
    result = CliRunner().invoke(main, ["site", str(folder), "--pyodide", str(pyodide_runtime)])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return folder, result


@pytest.fixture(scope="session")
def built_site(site_build: tuple[Path, Result]) -> Path:
    return site_build[0]


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
