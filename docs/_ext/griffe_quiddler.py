"""A griffe extension that lets mkdocstrings render quiddler's docstrings as
they are written (reST-flavoured prose), without changing the code.

* ``#:`` comments above a dataclass field or constant become its docstring
  (the Sphinx convention the code uses for ``Rules`` and friends).
* Sphinx roles (``:func:`solve```, ``:class:`~quiddler.WordList```) become
  cross-references when they name something the site documents (an object
  exported by one of the ``namespaces`` the API pages render, or a member of
  one), else inline code.  Names are resolved in the docstring's own scope,
  as Sphinx does, and a strict build fails on a link that does not resolve.
* ``>>>`` examples become fenced ``pycon`` blocks (plain Markdown would read
  ``>>>`` as nested block quotes).
* ``:ivar name: text`` (or ``:cvar:``, ``:var:``) lines in a class docstring
  become the docstring of the member ``name`` and leave the class's own text:
  a field reads its description where the page shows the field, while
  ``help()`` still shows every field in the class's docstring.  (A field is
  documented in its class's docstring rather than by a comment beside it so
  the description is there at run time too.)

Docstrings the extension rewrites keep the parser they were loaded with, so
``:param:``, ``:returns:`` and ``:raises:`` fields render as sections.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(func|meth|class|attr|data|exc|obj|mod|const):`(~?)([^`<>]+?)`")
_CALLABLE_ROLES = {"func", "meth"}


def _comment_doc(attr: griffe.Attribute) -> str | None:
    """The ``#:`` comment lines right above ``attr``'s definition, if any."""
    if attr.lineno is None:
        return None
    lines = attr.module.lines
    found: list[str] = []
    index = attr.lineno - 2  # the line above, 0-based
    while index >= 0 and lines[index].strip().startswith("#:"):
        found.append(lines[index].strip()[2:].strip())
        index -= 1
    return " ".join(reversed(found)) or None


def _resolve(scope: griffe.Object, name: str) -> str | None:
    """The full path ``name`` refers to from ``scope``, or None."""
    modules = scope.modules_collection
    try:
        modules[name]  # a full path
        return name
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        pass
    head, _, rest = name.partition(".")
    obj: griffe.Object | None = scope
    while obj is not None:
        try:
            path = obj.resolve(head)
        except (griffe.NameResolutionError, ValueError, AttributeError):
            path = None
        if path is not None:
            full = f"{path}.{rest}" if rest else path
            try:
                modules[full]
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
            return full
        obj = obj.parent
    return None


def _rewrite_roles(text: str, scope: griffe.Object, documented: set[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        role, tilde, name = match.groups()
        name = name.strip()
        shown = name.rsplit(".", 1)[-1] if tilde else name
        if role in _CALLABLE_ROLES:
            shown += "()"
        target = _canonical(scope, _resolve(scope, name))
        if target is not None and (target in documented or target.rpartition(".")[0] in documented):
            return f"[`{shown}`][{target}]"
        return f"`{shown}`"

    return _ROLE.sub(replace, text)


def _fence_doctests(text: str) -> str:
    """Wrap each run of ``>>>`` lines (with their output) in a pycon fence."""
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if not in_example and stripped.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append("```")
            in_example = False
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


_FIELD = re.compile(r"^(\s*):(?:ivar|cvar|var) +(\w+): *(.*)$")


def _take_fields(text: str) -> tuple[str, dict[str, str]]:
    """``text`` without its ``:ivar name:`` fields, and each field's text by
    name (continuation lines are those indented deeper than the field)."""
    kept: list[str] = []
    found: dict[str, str] = {}
    current: tuple[str, int] | None = None
    for line in text.splitlines():
        match = _FIELD.match(line)
        if match:
            indent, name, first = match.groups()
            found[name] = first.strip()
            current = (name, len(indent))
            continue
        if current is not None and line.strip() and len(line) - len(line.lstrip()) > current[1]:
            found[current[0]] += " " + line.strip()
            continue
        current = None
        kept.append(line)
    return "\n".join(kept).strip("\n"), found


def _canonical(scope: griffe.Object, path: str | None) -> str | None:
    """The path where the object at ``path`` is defined (aliases followed)."""
    if path is None:
        return None
    try:
        obj = scope.modules_collection[path]
        return str(obj.target_path if obj.is_alias else obj.path)
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


class QuiddlerDocstrings(griffe.Extension):
    """See the module docstring.  ``namespaces``: the modules whose exports
    (``__all__``) the API pages render; ``objects``: other objects they
    render, by full path."""

    def __init__(self, namespaces: list[str] | None = None, objects: list[str] | None = None) -> None:
        super().__init__()
        self.namespaces = namespaces or []
        self.objects = objects or []

    def on_attribute_instance(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        if attr.docstring is None:
            text = _comment_doc(attr)
            if text:
                attr.docstring = griffe.Docstring(text, parent=attr)

    def _documented(self, pkg: griffe.Module) -> set[str]:
        """Canonical paths of everything the API pages render."""
        found = set()
        for name in self.namespaces:
            try:
                module = pkg.modules_collection[name]
            except KeyError:
                continue
            exports = module.exports if module.exports is not None else list(module.members)
            for export in exports:
                canonical = _canonical(module, f"{name}.{export}" if isinstance(export, str) else None)
                if canonical is not None:
                    found.add(canonical)
        return found

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        documented = self._documented(pkg) | set(self.objects)
        parser = pkg.docstring.parser if pkg.docstring is not None else None
        options = pkg.docstring.parser_options if pkg.docstring is not None else {}
        objects = _walk(pkg)
        for obj in objects:
            if obj.is_class and obj.docstring is not None:
                text, fields = _take_fields(obj.docstring.value)
                if fields:
                    obj.docstring = griffe.Docstring(text, lineno=obj.docstring.lineno, parent=obj)
                for name, description in fields.items():
                    member = obj.members.get(name)
                    if member is not None and not member.is_alias and member.docstring is None:
                        member.docstring = griffe.Docstring(description, parent=member)
        for obj in objects:
            if obj.docstring is not None:
                value = _fence_doctests(_rewrite_roles(obj.docstring.value, obj, documented))
                obj.docstring = griffe.Docstring(
                    value, lineno=obj.docstring.lineno, parent=obj,
                    parser=obj.docstring.parser or parser, parser_options=obj.docstring.parser_options or options,
                )  # fmt: skip


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_walk(member))  # type: ignore[arg-type]
    return found
