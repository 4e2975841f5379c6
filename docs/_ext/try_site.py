"""MkDocs hook: the static site (``quiddler site``) inside the documentation,
at ``play/``, so the "try it" page runs the live solver and a game from the
documentation's own files.

It is built after the pages, into the built site's folder, with the
Pyodide runtime from the user cache (fetched with npm the first time, as
``quiddler site`` does); a build that cannot make it fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def on_post_build(config: Any, **kwargs: Any) -> None:
    from quiddler.site import build_site
    from quiddler.site.runtime import fetch_runtime

    build_site(Path(config["site_dir"]) / "play", force=True, runtime=fetch_runtime())
