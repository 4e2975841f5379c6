"""MkDocs hook: mkdocs-click's option tables show click 8.2+'s "no default"
sentinel as ``Sentinel.UNSET``; show a dash instead, as ``--help`` does."""

from __future__ import annotations

from typing import Any


def on_page_content(html: str, **kwargs: Any) -> str:
    return html.replace("<code>Sentinel.UNSET</code>", "-")
