"""quiddler's notices (a compile starting or done, a cache that cannot be
written), and the :mod:`logging` they go through, imported only when needed.

A notice goes to a logger under ``quiddler``, so an application's own
logging sees it; the command line also prints it on stderr
(:func:`show_notices`).  Importing :mod:`logging` takes a few milliseconds,
a noticeable part of a one-shot ``quiddler solve``, which usually has
nothing to say.  So the modules that may give a notice ask for their logger
when they give one (:func:`logger`).  :func:`show_notices` imports it and adds the handler at once, as an
application or a test expects; :func:`show_notices_later` is for a process
whose only notices come through :func:`logger` (a one-shot ``quiddler
solve``): it notes that notices are wanted, and the handler goes on with the
first logger asked for.  (Other modules, such as the web server's, log
through :mod:`logging` directly, so a process that runs them uses
:func:`show_notices`.)
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import logging

__all__ = ["hide_notices", "logger", "show_notices", "show_notices_later"]

_wanted = False  # show_notices_later() was called: the handler goes on with the first logger
_handler_class: Any = None  # the handler's class, made with the first one


def logger(name: str) -> logging.Logger:
    """The logger ``name`` (under ``quiddler``), with the notice handler
    added first if :func:`show_notices` asked for it."""
    import logging

    if _wanted:
        _install(logging)
    return logging.getLogger(name)


def _install(logging: Any) -> None:
    """Add the handler that prints notices to the ``quiddler`` logger, once."""
    global _wanted, _handler_class
    _wanted = False
    if _handler_class is None:

        class NoticeHandler(logging.Handler):  # type: ignore[misc]
            """Writes ``quiddler: <message>`` to whatever ``sys.stderr`` is
            when a record comes (the command line's tests swap it)."""

            def emit(self, record: logging.LogRecord) -> None:
                try:
                    sys.stderr.write(f"quiddler: {record.getMessage()}\n")
                    sys.stderr.flush()
                except Exception:  # noqa: BLE001 - a notice must never break a run
                    self.handleError(record)

        _handler_class = NoticeHandler
    top = logging.getLogger("quiddler")
    if not any(isinstance(handler, _handler_class) for handler in top.handlers):
        # Records still propagate: an application's own logging sees them
        # too (and with no handler above, logging's last resort stays quiet).
        top.addHandler(_handler_class(logging.INFO))
        top.setLevel(logging.INFO)


def show_notices() -> None:
    """Print quiddler's log notices (a compile starting or done, a cache
    that cannot be written) as ``quiddler: ...`` lines on stderr: what the
    command line does, so a person watching knows why a run is slow.  Each
    such notice happens once per process at most."""
    import logging

    _install(logging)


def show_notices_later() -> None:
    """:func:`show_notices` for a process whose notices all come through
    :func:`logger`: :mod:`logging` is imported, and the handler added, only
    when a notice is due (or at once, if :mod:`logging` is imported already)."""
    global _wanted
    logging = sys.modules.get("logging")
    if logging is None:
        _wanted = True
    else:
        _install(logging)


def hide_notices() -> None:
    """Stop printing quiddler's notices in this process (undoes
    :func:`show_notices`): a worker process forked from the command line
    inherits them, and the command has said its piece once already."""
    global _wanted
    _wanted = False
    logging = sys.modules.get("logging")
    if logging is None or _handler_class is None:
        return
    top = logging.getLogger("quiddler")
    for handler in [h for h in top.handlers if isinstance(h, _handler_class)]:
        top.removeHandler(handler)
