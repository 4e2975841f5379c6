"""``quiddler site DIR``: write the browser game and the solver as a static site.

A thin command over :func:`quiddler.site.build_site`.  The Pyodide runtime
comes from the npm registry the first time (``npm``, into the user cache),
or from ``--pyodide PATH``.
"""

from __future__ import annotations

from pathlib import Path

import click

from .errors import InputError, OneLineErrors

__all__ = ["site"]

_EPILOG = """\b
Examples:
  quiddler site public/                      then serve public/ from any static host
  python -m http.server -d public/ 8000      try it: http://127.0.0.1:8000/
  quiddler site public/ --force              rebuild over an earlier site
  quiddler site public/ --pyodide node_modules/pyodide  a runtime at hand"""


@click.command("site", cls=OneLineErrors, epilog=_EPILOG,
               short_help="Write the browser game as a static site: no server needed.")  # fmt: skip
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=True, dir_okay=True, path_type=Path))
@click.option("--force", is_flag=True, help="Write over a folder that is not empty (an earlier site's files are replaced).")
@click.option("--pyodide", "runtime", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="PATH",
              help="The pyodide npm package (or a folder with node_modules/pyodide) to ship, instead of "
                   "fetching it with npm.")  # fmt: skip
def site(folder: Path, force: bool, runtime: Path | None) -> None:
    """Write the browser game and the solver to DIR as a static site.

    The game against the computer (with hints, round results, the game kept
    in the browser and its record to download) and the solver run in the
    reader's browser, on Pyodide: serve DIR from any static host, and it
    plays with no server of ours, no request to any other origin, and,
    once loaded, offline.  A table with friends needs quiddler serve.
    """
    from ..site import SiteError, build_site

    try:
        report = build_site(folder, force=force, runtime=runtime, progress=lambda line: click.echo(f"{line}...", err=True))
    except SiteError as exc:
        raise InputError(str(exc)) from None
    click.echo(f"Wrote {report.files} files ({report.size / 1e6:.1f} MB) to {report.folder}: "
               f"Python {report.python} on Pyodide {report.pyodide}")  # fmt: skip
