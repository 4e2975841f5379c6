"""MkDocs hook: small substitutions in the narrative pages.

* ``<!-- version -->`` becomes the version of the quiddler being documented.
* An identifier written as inline code (`` `solve()` ``, `` `Rules` ``,
  `` `Solution.best_go_out` ``, `` `quiddler.game.Game` ``) links to its
  entry in the API reference, once per paragraph: the names are the exports
  of the namespaces the API pages render, so a name that stops being
  exported simply stops being linked.  The links are autorefs marked
  optional, so a member the reference does not render stays plain code
  rather than failing the build.  A member name on its own
  (`` `best_go_out` ``) links when only one exported class has it, except
  on the pages whose code names JSON fields or command options.  Code blocks, headings, existing links and
  the API pages themselves are left alone.
"""

from __future__ import annotations

import html
import importlib
import re
from functools import cache
from typing import Any

#: Pages whose code spans name JSON fields or command options, not Python.
NOT_PYTHON = {"json.md", "reference/records.md", "reference/cli.md"}
#: The namespaces whose exports the API pages render (see docs/api/).
NAMESPACES = ["quiddler", "quiddler.game", "quiddler.game.record", "quiddler.odds"]
_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE = re.compile(r"(?<![\[`])`([A-Za-z_][\w.]*)(\(\))?`(?![\]`])")


@cache
def identifiers() -> dict[str, str]:
    """Each linkable name (``Rules``, ``quiddler.game.Rules``) -> its API id."""
    found: dict[str, str] = {}
    for namespace in reversed(NAMESPACES):  # the top level wins a clash
        module = importlib.import_module(namespace)
        for name in getattr(module, "__all__", []):
            if name.startswith("_"):
                continue
            found[name] = f"{namespace}.{name}"
            found[f"{namespace}.{name}"] = f"{namespace}.{name}"
    return found


@cache
def members() -> dict[str, str]:
    """A member name that only one exported class has (``best_go_out``,
    ``round_sizes``) -> its API id, for the name written on its own."""
    owners: dict[str, set[str]] = {}
    for path in set(identifiers().values()):
        obj = _object(path)
        if not isinstance(obj, type):
            continue
        names = set(getattr(obj, "__dataclass_fields__", {})) | set(vars(obj))
        for name in names:
            if not name.startswith("_") and ("_" in name or len(name) >= 8):
                owners.setdefault(name, set()).add(f"{path}.{name}")
    return {name: next(iter(paths)) for name, paths in owners.items() if len(paths) == 1}


def _target(text: str, bare_members: bool) -> str | None:
    names = identifiers()
    if text in names:
        return names[text]
    if bare_members and text in members():
        return members()[text]
    head, _, member = text.rpartition(".")
    if head in names and member and not member.startswith("_"):
        obj = _object(names[head])
        if obj is not None and (hasattr(obj, member) or member in getattr(obj, "__dataclass_fields__", {})):
            return f"{names[head]}.{member}"
    return None


def _object(path: str) -> Any:
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def link_identifiers(markdown: str, bare_members: bool = True) -> str:
    out = []
    in_fence = False
    linked: set[str] = set()
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (not line.strip() or line.lstrip().startswith("#")):
            linked.clear()  # each paragraph links its names again
        elif not in_fence and not line.startswith(("    ", ":::", "<!--")):
            line = _CODE.sub(lambda m: _link(m, linked, bare_members), line)
        out.append(line)
    return "\n".join(out)


def _link(match: re.Match[str], linked: set[str], bare_members: bool) -> str:
    target = _target(match.group(1), bare_members)
    if target is None or target in linked:
        return match.group(0)
    linked.add(target)
    shown = html.escape(match.group(1) + (match.group(2) or ""))
    return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    from quiddler import __version__

    markdown = markdown.replace("<!-- version -->", __version__)
    if page.file.src_uri.startswith("api/"):
        return markdown
    return link_identifiers(markdown, bare_members=page.file.src_uri not in NOT_PYTHON)
