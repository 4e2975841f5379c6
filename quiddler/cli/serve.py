"""``quiddler serve``: the browser game, for you and your friends.

A thin command over :func:`quiddler.web.server.run`; everything else is in
:mod:`quiddler.web`, which needs the ``web`` extra and is imported only
when the command runs (``quiddler --help`` and the other commands never
load Starlette).  Binding anything but loopback must be asked for with
``--host``, and is announced with a warning.
"""

from __future__ import annotations

import importlib
import ipaddress
from pathlib import Path

import click

from .errors import InputError, OneLineErrors

__all__ = ["serve"]

_EPILOG = """\b
Examples:
  quiddler serve                               http://127.0.0.1:8000, for this machine only
  quiddler serve --port 0                      any free port (printed)
  quiddler serve --host 0.0.0.0 --port 8000    friends on your network can join
  quiddler serve --trusted-proxy 127.0.0.1     behind a proxy on this machine"""

#: What the command needs beyond quiddler's own dependencies.
WEB_MODULES = ("starlette", "uvicorn", "websockets")


def _require_web() -> None:
    for name in WEB_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            raise InputError(f"quiddler serve needs the web extra ({name} is missing): "
                             "pip install 'quiddler[web]'") from None  # fmt: skip


@click.command("serve", cls=OneLineErrors, epilog=_EPILOG,
               short_help="Play in the browser: against the computer, or with friends.")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
              help="Address to listen on; anything but loopback lets other machines connect.")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, metavar="N",
              help="Port to listen on; 0 picks a free one (printed).")  # fmt: skip
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="The database of tables and games (default: tables.sqlite3 in "
                   "$XDG_DATA_HOME/quiddler or ~/.local/share/quiddler).")  # fmt: skip
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Another origin whose pages may connect, e.g. https://quiddler.example "
                   "(behind a proxy); repeatable.")  # fmt: skip
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="A proxy (an address, or a network such as 10.0.0.0/8) whose X-Forwarded-For header "
                   "names the real client; repeatable. From anyone else the header is ignored.")  # fmt: skip
@click.pass_context
def serve(ctx: click.Context, /, host: str, port: int, db_path: str | None, allow_origins: tuple[str, ...],
          trusted_proxies: tuple[str, ...]) -> None:  # fmt: skip
    """Serve the browser game: play against the computer, or invite
    friends to a table.  The first line printed is the address to open,
    "Serving on http://HOST:PORT".  Every move is saved as it is made:
    stop the server and start it again and every game goes on."""
    _require_web()
    from ..solver import hide_notices
    from ..web.server import default_db, is_loopback, run

    hide_notices()  # the server's log prints each notice (one line with its level); ours would repeat it

    explicit = ctx.get_parameter_source("host") is click.core.ParameterSource.COMMANDLINE
    if not is_loopback(host):
        if not explicit:
            raise InputError(f"--host {host} would let other machines connect: give --host on the command line")
        click.echo(f"warning: serving on {host}: anyone who can reach this machine on port {port or 'the printed port'} "
                   "can open tables and watch them", err=True)  # fmt: skip
    for origin in allow_origins:
        if not origin.startswith(("http://", "https://")) or origin.rstrip("/").count("/") != 2:
            raise InputError(f"--allow-origin must be an origin such as https://quiddler.example, not {origin!r}")
    for proxy in trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise InputError(f"--trusted-proxy must be an address or a network such as 10.0.0.0/8, not {proxy!r}") from None
    db = Path(db_path) if db_path is not None else default_db()
    try:
        run(host, port, db, allow_origins, trusted_proxies=trusted_proxies, announce=lambda line: click.echo(line))
    except OSError as exc:
        raise InputError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
