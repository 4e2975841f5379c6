"""``quiddler serve``: the browser game over the engine, its players and hints.

A Starlette app (:mod:`~quiddler.web.app`) serves the page in
``quiddler/web/static`` and speaks the protocol of
:mod:`~quiddler.web.protocol` over REST and WebSockets; the tables live in
memory (:mod:`~quiddler.web.tables`) and every accepted action is stored
(:mod:`~quiddler.web.store`: SQLite, or PostgreSQL for several server
processes, kept in step by :mod:`~quiddler.web.coordination`) before
anyone sees it.  Needs the ``web`` extra (starlette, uvicorn, websockets;
PostgreSQL also the ``postgres`` extra): this package is imported only by
``quiddler serve``, never by the rest of quiddler.
"""

from .app import create_app
from .limits import Limits
from .protocol import encode_view
from .server import default_db, run

__all__ = ["Limits", "create_app", "default_db", "encode_view", "run"]
