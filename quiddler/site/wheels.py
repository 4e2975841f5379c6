"""The Python packages inside the static site, as wheels made from what
is installed here.

The site's worker imports quiddler and, of its dependencies, pygtrie alone
(the word list's trie): click, rich and tqdm serve the command line and
the terminal game, and numba and numpy are left out under Pyodide (see
``pyproject.toml``).  Each wheel is made from the installed copy, so the
site runs exactly the code ``quiddler`` runs here, and building it needs
no network for them (a checkout, an editable install and a wheel install
all work alike).  quiddler's wheel adds ENABLE's prebuilt card trie, as
the package's own wheel build does (``hatch_build.py``), so the page does
not index the list on every visit; it leaves out the page's own files,
which the site serves beside it.

Wheels are written byte for byte the same for the same input (sorted
entries, fixed times), so a rebuilt site changes only where its content
does.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import importlib.util
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .runtime import SiteError

__all__ = ["SITE_PACKAGES", "Package", "package_sources", "prebuilt_enable_trie", "vocabulary_tries", "write_wheel"]

_EPOCH = (1980, 1, 1, 0, 0, 0)
#: Folders of a package that the site ships apart or the worker never reads.
_SKIPPED_DIRS = frozenset({"__pycache__"})


@dataclass(frozen=True, slots=True)
class Package:
    """An installed distribution to ship: its name, the import name of its
    top-level module or package, and paths inside that package left out."""

    dist: str
    module: str
    leave_out: tuple[str, ...] = ()


#: What the worker needs: quiddler (less the page, served beside it) and pygtrie.
SITE_PACKAGES = (
    Package("quiddler", "quiddler", leave_out=("web/static", "site/static", "site/pages", "site/licenses")),
    Package("pygtrie", "pygtrie"),
)


def _module_files(package: Package) -> Iterator[tuple[str, Path]]:
    """(name in the wheel, file) for every file of the installed module or package."""
    spec = importlib.util.find_spec(package.module)
    if spec is None or spec.origin is None:
        raise SiteError(f"{package.dist} is not installed: the site ships it")
    origin = Path(spec.origin)
    if not spec.submodule_search_locations:
        yield origin.name, origin
        return
    root = origin.parent
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if set(relative.parts) & _SKIPPED_DIRS or path.suffix == ".pyc" or not path.is_file():
            continue
        if any(relative.as_posix() == out or relative.as_posix().startswith(out + "/") for out in package.leave_out):
            continue
        yield f"{package.module}/{relative.as_posix()}", path


def package_sources(package: Package) -> dict[str, bytes]:
    """The Python sources of the installed ``package`` the wheel carries, by their name in it."""
    return {name: path.read_bytes() for name, path in _module_files(package) if name.endswith(".py")}


def _dist_info(dist: importlib.metadata.Distribution) -> Iterator[tuple[str, bytes]]:
    """The dist-info files a wheel carries: METADATA and the licence files."""
    metadata = dist.read_text("METADATA")
    if metadata is None:
        raise SiteError(f"{dist.metadata['Name']} has no METADATA: reinstall it")
    yield "METADATA", metadata.encode("utf-8")
    for file in dist.files or ():
        parts = file.parts
        if len(parts) >= 2 and parts[0].endswith(".dist-info") and parts[1] in ("licenses", "LICENSE", "LICENSE.txt"):
            yield "/".join(parts[1:]), Path(str(file.locate())).read_bytes()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(package: Package, folder: Path, extra: dict[str, bytes] | None = None) -> Path:
    """Write the pure-Python wheel of the installed ``package`` into
    ``folder`` and return its path; ``extra`` adds files by their name in
    the wheel (quiddler's prebuilt trie)."""
    try:
        dist = importlib.metadata.distribution(package.dist)
    except importlib.metadata.PackageNotFoundError:
        raise SiteError(f"{package.dist} is not installed: the site ships it") from None
    version = dist.version
    info = f"{package.dist.replace('-', '_')}-{version}.dist-info"
    entries: dict[str, bytes] = {name: path.read_bytes() for name, path in _module_files(package)}
    entries.update(extra or {})
    entries.update({f"{info}/{name}": data for name, data in _dist_info(dist)})
    entries[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: quiddler site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [_record_line(name, data) for name, data in sorted(entries.items())] + [f"{info}/RECORD,,"]
    entries[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    target = folder / f"{package.dist.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name in sorted(entries):
            item = zipfile.ZipInfo(name, _EPOCH)
            item.compress_type = zipfile.ZIP_DEFLATED
            item.external_attr = 0o644 << 16
            wheel.writestr(item, entries[name])
    return target


def vocabulary_tries() -> dict[str, bytes]:
    """The card tries of the easy and medium players' vocabularies (see
    :mod:`quiddler.game.vocabulary`) in ENABLE games, by the name of their
    file in quiddler's cache (``cardtrie-<digest>.bin``), in the cache format.
    Without them the page would index a vocabulary on every visit, at its
    player's first move (slow in the browser's Python); with them
    in the engine's cache folder it reads it."""
    from ..game.vocabulary import VOCABULARY_ZIPF, vocabulary_wordlist
    from ..wordlist import default_wordlist

    tries = {}
    for name in VOCABULARY_ZIPF:
        words = vocabulary_wordlist(name, default_wordlist())
        tries[words.cache_file.name] = words.card_trie.to_bytes(bytes.fromhex(words.digest))
    return tries


def prebuilt_enable_trie() -> bytes:
    """ENABLE's card trie in the cache format, as the wheel build hook
    writes it (``write_prebuilt_trie``), here from the trie quiddler loads
    (from its cache when it has built it before: no second indexing)."""
    from ..wordlist import default_wordlist

    words = default_wordlist()
    return words.card_trie.to_bytes(bytes.fromhex(words.digest))
