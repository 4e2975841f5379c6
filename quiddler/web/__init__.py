"""``quiddler serve``: the browser game over the engine, its players and hints.

A Starlette app (:mod:`~quiddler.web.app`) serves the page in
``quiddler/web/static`` and speaks the protocol of
:mod:`~quiddler.web.protocol` over REST and WebSockets; the tables live in
memory (:mod:`~quiddler.web.tables`) and every accepted action is stored
(:mod:`~quiddler.web.store`: SQLite, or PostgreSQL for several server
processes, kept in step by :mod:`~quiddler.web.coordination`) before
anyone sees it.  The server needs the ``web`` extra (starlette, uvicorn,
websockets; PostgreSQL also the ``postgres`` extra) and is imported only by
``quiddler serve``.  The protocol and :mod:`~quiddler.web.local` (the same
protocol played in-process, for the static site's Web Worker) need nothing
beyond quiddler itself, so the names below are imported on first use: the
browser's own Python imports ``quiddler.web.protocol`` without Starlette.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .limits import Limits
    from .protocol import encode_view
    from .server import default_db, run

__all__ = ["Limits", "create_app", "default_db", "encode_view", "run"]

_HOMES = {"Limits": "limits", "create_app": "app", "default_db": "server", "encode_view": "protocol", "run": "server"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
