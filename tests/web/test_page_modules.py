"""The page's modules as files: the one transport, and what each module may use.

The screens talk to a game only through ``transport.js``'s interface, so
that a second transport (the engine in a Web Worker) can replace the
server's without touching them; only ``server-transport.js`` may call
``fetch`` or open a ``WebSocket``.  New sentences are built in
``messages.js`` alone, and the stylesheet uses logical properties only, so a
later translation and a right-to-left layout need no change elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "quiddler" / "web" / "static"
NETWORK = re.compile(r"\bfetch\s*\(|\bWebSocket\b|\bXMLHttpRequest\b|\bEventSource\b|navigator\.sendBeacon")


def code_of(path: Path) -> str:
    """The module's text without its comments (a comment may name fetch)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.DOTALL)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def test_only_the_server_transport_touches_the_network() -> None:
    users = sorted(p.name for p in STATIC.glob("*.js") if NETWORK.search(code_of(p)))
    assert users == ["server-transport.js"]


def test_every_module_the_page_loads_exists() -> None:
    for path in STATIC.glob("*.js"):
        for name in re.findall(r'from\s+"\./([\w.-]+)"', path.read_text()):
            assert (STATIC / name).is_file(), f"{path.name} imports {name}, which is missing"


PHYSICAL = re.compile(r"(?<![\w-])(?:(?:margin|padding|border|inset)-(?:left|right)|left|right|text-align:\s*(?:left|right)"
                      r"|float:\s*(?:left|right)|(?:min-|max-)?(?:width|height))\s*:")  # fmt: skip


@pytest.mark.parametrize("sheet", ["app.css", "review.css"])
def test_the_stylesheets_use_logical_properties_only(sheet: str) -> None:
    """margin-inline-start, inset-inline, inline-size...: a right-to-left page mirrors by itself."""
    text = re.sub(r"/\*.*?\*/", "", (STATIC / sheet).read_text(), flags=re.DOTALL)
    text = re.sub(r"@media[^{]*", "", text)  # a media query's (max-width: ...) is the screen's, not a property
    assert not [m.group(0) for m in PHYSICAL.finditer(text)]
