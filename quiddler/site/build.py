"""Writing the static site: the browser game and the solver page, with the
engine running in the page on Pyodide.

The layout of the site folder::

    index.html          the game: the front end of quiddler serve, on the worker transport
    solver.html         the solver page
    sw.js               the service worker: every file of the site cached, so it plays offline
    static/             the front end's files, the worker and the site's own scripts
    static/locales/     the front end's message catalogs, one per language
    pyodide/            the Pyodide runtime files, its licence and CPython's
    wheels/             quiddler's and pygtrie's wheels
    cache/              the card tries of the computer players' vocabularies, for the engine's cache folder
    quiddler-site.json  what was built: versions, the wheels, the computer levels offered,
                        and every file with its size and SHA-256

Nothing in it names another origin: every file is fetched from the folder
the site is served from, by relative address, so it plays from any static
host, at any path (a folder on a web server, GitHub Pages, ``python -m
http.server``).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..web.local import players_answer
from .bytecode import compile_with_runtime
from .runtime import (
    CPYTHON_LICENSE_TEXT,
    LICENSE_TEXT,
    PYODIDE_VERSION,
    RUNTIME_FILES,
    SiteError,
    fetch_runtime,
    find_runtime,
    python_version,
)
from .wheels import SITE_PACKAGES, package_sources, prebuilt_enable_trie, vocabulary_tries, write_wheel

__all__ = ["MANIFEST", "SiteReport", "build_site"]

#: The manifest's file name, at the top of the site.
MANIFEST = "quiddler-site.json"
#: Its ``format`` field.
MANIFEST_FORMAT = "quiddler-site/1"
#: The front end (quiddler serve's page) and the site's own files.
FRONT_END = Path(__file__).resolve().parents[1] / "web" / "static"
SITE_STATIC = Path(__file__).with_name("static")
SITE_PAGES = Path(__file__).with_name("pages")
#: Where the server's page links to instructions for hosting a table.
HOSTING_HELP = "https://quiddler.github.io/quiddler/howto/web-table/"


@dataclass(frozen=True, slots=True)
class SiteReport:
    """What :func:`build_site` wrote: the folder, its files and their total size."""

    folder: Path
    files: int
    size: int
    python: str
    pyodide: str


def _check_target(target: Path, force: bool) -> None:
    """``target`` may be written: missing, empty, or (with ``force``) anything but a file."""
    if target.exists() and not target.is_dir():
        raise SiteError(f"{str(target)!r} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise SiteError(f"{str(target)!r} is not empty: give --force to write the site over it")


def _previous_files(target: Path) -> list[Path]:
    """The files a site built into ``target`` before wrote (from its manifest), to remove on --force."""
    try:
        data = json.loads((target / MANIFEST).read_text("utf-8"))
        names = [name for name in data["files"] if isinstance(name, str)]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    root = target.resolve()
    found = []
    for name in names:
        path = (target / name).resolve()
        if path.is_relative_to(root) and path.is_file():
            found.append(path)
    return found


def site_index(front_index: str) -> str:
    """The site's index.html: the front end's own page with relative
    addresses (the site may live in any folder), a content security policy
    that allows nothing from elsewhere (a static host sends no headers of
    ours), the switch to the worker transport, and the note that a table
    with friends needs the server."""
    text = re.sub(r'(href|src)="/static/', r'\1="static/', front_index)
    # The policy governs only what the page loads after it: it goes right after the charset,
    # before the front end's own stylesheet and script.
    policy = (
        '\n  <meta http-equiv="Content-Security-Policy" content="default-src \'self\'; script-src \'self\'; '
        "style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'\">"
    )
    head = (
        '  <meta name="quiddler-transport" content="worker">\n'
        '  <script src="static/engine-early.js"></script>\n'
        '  <link rel="stylesheet" href="static/site.css">\n'
        '  <script type="module" src="static/site.js"></script>\n'
    )
    foot = (
        '  <footer class="site-note">\n'
        "    <p>This game runs in your browser, with nothing sent anywhere: play the computer, alone. "
        f'A table with friends needs a server: <a href="{HOSTING_HELP}">how to run one</a>. '
        '<a href="solver.html">The solver</a>.</p>\n'
        "  </footer>\n"
    )
    charset = '<meta charset="utf-8">'
    if "</head>" not in text or "</body>" not in text or charset not in text:
        raise SiteError("the front end's index.html has no </head>, </body> or charset: cannot make the site's page")
    text = text.replace(charset, charset + policy, 1)
    return text.replace("</head>", head + "</head>", 1).replace("</body>", foot + "</body>", 1)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_site(target: Path, *, force: bool = False, runtime: Path | None = None,
               progress: Callable[[str], None] = lambda line: None) -> SiteReport:  # fmt: skip
    """Write the static site into ``target``.

    :param target: the folder to write; it must be missing or empty unless ``force``.
    :param force: write over a folder that is not empty: the files of a site
        built there before are removed first (by its manifest), others stay.
    :param runtime: a folder holding the pinned Pyodide npm package; None:
        fetched with ``npm`` into the user cache, once.
    :param progress: called with a short line as each step starts.
    :returns: what was written.
    :raises SiteError: the folder cannot be written, or the runtime cannot be found or fetched.
    """
    target = Path(target)
    _check_target(target, force)
    progress(f"pyodide {PYODIDE_VERSION}: " + ("checking " + str(runtime) if runtime else "fetching (npm, cached)"))
    pyodide = find_runtime(runtime) if runtime is not None else fetch_runtime()
    python = python_version(pyodide)
    written: list[str] = []  # the site's files, by their path in it: the manifest lists these alone

    def copy(source: Path, name: str) -> None:
        shutil.copyfile(source, target / name)
        written.append(name)

    def write(name: str, text: str) -> None:
        (target / name).write_text(text, "utf-8")
        written.append(name)

    try:
        for path in _previous_files(target):
            path.unlink()
        target.mkdir(parents=True, exist_ok=True)
        for folder in ("static", "static/locales", "pyodide", "wheels", "cache"):
            (target / folder).mkdir(exist_ok=True)
        progress("the runtime")
        for name in RUNTIME_FILES:
            copy(pyodide / name, f"pyodide/{name}")
        copy(LICENSE_TEXT, "pyodide/LICENSE")
        copy(CPYTHON_LICENSE_TEXT, "pyodide/LICENSE-CPython")
        progress("the page")
        for source in (FRONT_END, SITE_STATIC):
            for path in sorted(source.iterdir()):
                if path.is_file() and path.name != "index.html":
                    copy(path, f"static/{path.name}")
        for path in sorted((FRONT_END / "locales").glob("*.json")):
            copy(path, f"static/locales/{path.name}")
        write("index.html", site_index((FRONT_END / "index.html").read_text("utf-8")))
        for path in sorted(SITE_PAGES.iterdir()):
            if path.name != "sw.js":
                copy(path, path.name)
        progress("the bytecode of the wheels' modules (the runtime's Python, in node)")
        extra: dict[str, dict[str, bytes]] = {"quiddler": {"quiddler/data/enable.cardtrie": prebuilt_enable_trie()}}
        sources = {package.dist: package_sources(package) for package in SITE_PACKAGES}
        bytecode, why_not = compile_with_runtime(pyodide, {n: d for files in sources.values() for n, d in files.items()})
        if why_not is not None:
            progress(f"no bytecode ({why_not}): the page compiles the modules as it imports them")
        for package in SITE_PACKAGES:
            extra.setdefault(package.dist, {}).update(bytecode[name] for name in sources[package.dist] if name in bytecode)
        progress("the wheels (quiddler with ENABLE's card trie, pygtrie)")
        wheels = [write_wheel(package, target / "wheels", extra.get(package.dist)) for package in SITE_PACKAGES]
        written += [w.relative_to(target).as_posix() for w in wheels]
        progress("the vocabularies' card tries")
        cache = []
        for name, data in sorted(vocabulary_tries().items()):
            (target / "cache" / name).write_bytes(data)
            cache.append(f"cache/{name}")
        written += cache
        listing = {name: {"size": (target / name).stat().st_size, "sha256": _sha256(target / name)}
                   for name in sorted(written)}  # fmt: skip
        build = hashlib.sha256(json.dumps(listing, sort_keys=True).encode("utf-8")).hexdigest()[:16]
        # The service worker names the build, so a rebuilt site is a new worker that replaces the cache.
        worker = (SITE_PAGES / "sw.js").read_text("utf-8")
        write("sw.js", worker.replace("__BUILD__", build).replace("__FILES__", json.dumps(["./", MANIFEST, *listing])))
        listing["sw.js"] = {"size": (target / "sw.js").stat().st_size, "sha256": _sha256(target / "sw.js")}
        manifest: dict[str, Any] = {
            "format": MANIFEST_FORMAT, "build": build, "pyodide": PYODIDE_VERSION, "python": python,
            "wheels": [w.relative_to(target).as_posix() for w in wheels], "cache": cache, "players": players_answer(),
            "files": listing,
        }  # fmt: skip
        write(MANIFEST, json.dumps(manifest, indent=1) + "\n")
    except OSError as exc:
        raise SiteError(f"cannot write the site into {str(target)!r}: {exc.strerror or exc}") from None
    return SiteReport(target, len(written), sum((target / name).stat().st_size for name in written), python,
                      PYODIDE_VERSION)  # fmt: skip
