"""Every object the API reference renders says what it is, and every callable
there says what it takes, what it returns and what it raises.

The objects are read with griffe as mkdocstrings reads them for the site:
the handler options and the griffe extension come from mkdocs.yml, so a
``:ivar:`` line or a ``#:`` comment counts exactly when the site shows it.
What is checked is what the pages render: each ``::: name`` entry on a page
under docs/api/ (with its own ``options:``), every export (``__all__``) of
the extension's namespaces and of each package an entry comes from, and,
inside each class, the members the handler's filters let through.

* An object has a description: the text of its docstring, before any
  field list, is not empty.
* A function or method lists each parameter (``self``, ``cls``, ``*args``
  and ``**kwargs`` aside) in ``:param name:`` fields, and names no
  parameter it does not have; it has a ``:returns:`` field unless it returns
  None; and if its body raises, a ``:raises Error:`` field for each
  exception it raises by name.  A class is called like its ``__init__``
  (a dataclass like its generated one, whose fields are documented as
  attributes), its ``__post_init__`` included.
* A whole-number constant states its value: the pages show no values
  (the source of one, ``MAX_CARDS = K.MAX_CARDS``, would say nothing).
* No text follows the field list (the parser reads it as part of the last
  field: an example there renders inside the Raises table), and no
  docstring names a page's file (``docs/json.md``) where a link belongs.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import griffe
import yaml

ROOT = Path(__file__).resolve().parents[2]
API_PAGES = ROOT / "docs" / "api"
_SKIPPED_PARAMETERS = {"self", "cls"}
_VARIADIC = {griffe.ParameterKind.var_positional, griffe.ParameterKind.var_keyword}


def _handler_options() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    plugin = next(p["mkdocstrings"] for p in config["plugins"] if isinstance(p, dict) and "mkdocstrings" in p)
    return plugin["handlers"]["python"]["options"]  # type: ignore[no-any-return]


@cache
def _package() -> griffe.Object:
    options = _handler_options()
    extensions = griffe.load_extensions(*options.get("extensions", []))
    return griffe.load(
        "quiddler",
        extensions=extensions,
        search_paths=[str(ROOT)],
        docstring_parser=griffe.Parser(options["docstring_style"]),
        resolve_aliases=True,
    )  # type: ignore[return-value]


def _entries() -> dict[str, dict[str, Any]]:
    """Each ``::: name`` entry on the API pages, with its ``options:``."""
    entries = {}
    for page in sorted(API_PAGES.glob("*.md")):
        for match in re.finditer(
            r"^::: *([\w.]+) *\n((?:[ \t]+\S.*\n)*)", page.read_text(), flags=re.MULTILINE
        ):
            block = yaml.safe_load(textwrap.dedent(match.group(2))) if match.group(2).strip() else None
            entries[match.group(1)] = (block or {}).get("options", {})
    return entries


def _namespaces() -> list[str]:
    """The modules the griffe extension links the exports of."""
    for extension in _handler_options().get("extensions", []):
        if isinstance(extension, dict):
            for options in extension.values():
                if isinstance(options, dict) and "namespaces" in options:
                    return list(options["namespaces"])
    return []


def _rendered_roots() -> dict[str, dict[str, Any]]:
    """The full paths the API pages render at top level, with their options:
    each entry, and every export of the extension's namespaces and of each
    package an entry comes from (a package's ``__all__`` is its public API)."""
    roots = _entries()
    modules = list(_namespaces())
    for entry in list(roots):
        module_name = entry.rpartition(".")[0]
        try:
            spec = importlib.util.find_spec(module_name) if module_name else None
        except ImportError:  # the entry is a member of a class of a module
            spec = None
        if spec is not None and spec.submodule_search_locations is not None:
            modules.append(module_name)
    for module_name in dict.fromkeys(modules):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in getattr(module, "__all__", []):
            if name != "__version__":
                roots.setdefault(f"{module_name}.{name}", {})
    return roots


def _shown(name: str, filters: list[str]) -> bool:
    """Whether ``filters`` (as the handler reads them) let a member called ``name`` through."""
    keep = None
    for pattern in filters:
        negated = pattern.startswith("!")
        if re.search(pattern.lstrip("!"), name):
            keep = not negated
        elif keep is None and not negated:
            keep = False
    return keep is not False


def _target(obj: griffe.Object | griffe.Alias) -> griffe.Object:
    return obj.final_target if obj.is_alias else obj  # type: ignore[return-value]


def _sections(obj: griffe.Object) -> list[griffe.DocstringSection]:
    if obj.docstring is None:
        return []
    return obj.docstring.parse(griffe.Parser(_handler_options()["docstring_style"]), warnings=False)


def _description(obj: griffe.Object) -> str:
    return " ".join(
        str(section.value) for section in _sections(obj) if section.kind is griffe.DocstringSectionKind.text
    ).strip()


def _field_names(sections: list[griffe.DocstringSection], kind: griffe.DocstringSectionKind) -> set[str]:
    names = set()
    for section in sections:
        if section.kind is kind:
            for item in section.value:
                names.add(str(getattr(item, "name", "") or getattr(item, "annotation", "") or "?"))
    return names


def _has_section(sections: list[griffe.DocstringSection], kind: griffe.DocstringSectionKind) -> bool:
    return any(section.kind is kind for section in sections)


def _body(function: griffe.Function) -> ast.AST | None:
    if not function.source:
        return None
    try:
        tree = ast.parse(textwrap.dedent(function.source))
    except SyntaxError:
        return None
    return tree.body[0] if tree.body else None


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, leaving out nested functions and classes."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child
        yield from _own_nodes(child)


#: Raised for a broken invariant, never for anything a caller does.
_NOT_API_ERRORS = {"AssertionError"}


def _raised(function: griffe.Function) -> set[str]:
    """The names of the exceptions the function's own body raises (a bare
    ``raise`` that passes an error on names none)."""
    node = _body(function)
    if node is None:
        return set()
    names = set()
    for child in _own_nodes(node):
        if isinstance(child, ast.Raise) and child.exc is not None:
            exc = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
            names.add(ast.unparse(exc).rpartition(".")[2])
    return names - _NOT_API_ERRORS


def _returns_value(function: griffe.Function) -> bool:
    annotation = function.returns
    if annotation is not None:
        return str(annotation) not in {"None", "NoReturn", "Never"}
    node = _body(function)
    return node is not None and any(
        isinstance(child, ast.Return) and child.value is not None for child in _own_nodes(node)
    )


def _documented_raises(sections: list[griffe.DocstringSection]) -> set[str]:
    return {name.rpartition(".")[2] for name in _field_names(sections, griffe.DocstringSectionKind.raises)}


def _check_callable(
    path: str,
    parameters: griffe.Parameters,
    sections: list[griffe.DocstringSection],
    returns: bool,
    raised: set[str],
) -> list[str]:
    problems = []
    wanted = [p.name for p in parameters if p.name not in _SKIPPED_PARAMETERS and p.kind not in _VARIADIC]
    listed = _field_names(sections, griffe.DocstringSectionKind.parameters)
    missing = [name for name in wanted if name not in listed]
    if missing:
        problems.append(f"{path}: no :param: for {', '.join(missing)}")
    extra = sorted(listed - {p.name for p in parameters})
    if extra:
        problems.append(f"{path}: :param: for parameters it does not have: {', '.join(extra)}")
    if returns and not _has_section(sections, griffe.DocstringSectionKind.returns):
        problems.append(f"{path}: no :returns:")
    unlisted = sorted(raised - _documented_raises(sections))
    if unlisted:
        problems.append(f"{path}: raises {', '.join(unlisted)} but has no :raises: for it")
    return problems


def _check_function(function: griffe.Function, path: str) -> list[str]:
    problems = [] if _description(function) else [f"{path}: no description"]
    if "property" in function.labels:
        return problems
    return problems + _check_callable(
        path, function.parameters, _sections(function), _returns_value(function), _raised(function)
    )


def _is_dataclass(cls: griffe.Class) -> bool:
    return "dataclass" in cls.labels


def _check_class(cls: griffe.Class, path: str, options: dict[str, Any]) -> list[str]:
    problems = [] if _description(cls) else [f"{path}: no description"]
    members = cls.all_members if _handler_options().get("inherited_members") else cls.members
    init = members.get("__init__")
    sections = _sections(cls)
    if init is not None and _target(init).is_function and not _is_dataclass(cls):
        init_function: griffe.Function = _target(init)  # type: ignore[assignment]
        if init_function.parent is not None and init_function.parent.path.startswith("quiddler"):
            sections = sections + _sections(init_function)
            problems += _check_callable(
                path, init_function.parameters, sections, False, _raised(init_function)
            )
    post_init = members.get("__post_init__")
    if post_init is not None and _target(post_init).is_function:
        unlisted = sorted(_raised(_target(post_init)) - _documented_raises(sections))  # type: ignore[arg-type]
        if unlisted:
            problems.append(f"{path}: raises {', '.join(unlisted)} but has no :raises: for it")
    filters = options.get("filters", _handler_options().get("filters", []))
    for name, member in members.items():
        if not _shown(name, filters):
            continue
        try:
            target = _target(member)
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue  # a member from outside the package: not rendered
        problems += _check(target, f"{path}.{name}", {})
    return problems


def _states(text: str, value: int) -> bool:
    """Whether ``text`` gives the number ``value`` (digits grouped or not)."""
    spellings = {str(value), f"{value:,}", f"{value:_}"}
    return any(re.search(rf"(?<![\w.]){re.escape(s)}(?!\w|\.\d)", text) for s in spellings)


def _check_attribute(attribute: griffe.Attribute, path: str) -> list[str]:
    description = _description(attribute)
    if not description:
        return [f"{path}: no description"]
    problems = []
    if "property" not in attribute.labels and isinstance(attribute.parent, griffe.Module):
        value = getattr(importlib.import_module(attribute.parent.path), attribute.name, None)
        if isinstance(value, int) and not isinstance(value, bool) and not _states(description, value):
            problems.append(f"{path}: the page shows no value; say it is {value} in the description")
    return problems


_FIELD = re.compile(
    r":(?:param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|raise|except|"
    r"exception|ivar|cvar|var|vartype)\b[^:]*:"
)
#: A file named where a link belongs: the page shows the name, not the page.
_FILE_NAME = re.compile(r"(?<![(/\w])(?:RULES|AI-NOTES|STYLE|docs/[\w/-]+)\.md\b")


def _layout_problems(obj: griffe.Object, path: str) -> list[str]:
    """Text after the field list reads as part of the last field; a file
    named in the text is no link."""
    if obj.docstring is None:
        return []
    problems = []
    lines = obj.docstring.value.splitlines()
    first = next((i for i, line in enumerate(lines) if _FIELD.match(line)), None)
    if first is not None:
        after = [
            line
            for line in lines[first:]
            if line.strip() and not line[0].isspace() and not _FIELD.match(line)
        ]
        if after:
            problems.append(f"{path}: text after the :param:/:returns:/:raises: fields: {after[0].strip()!r}")
    for name in _FILE_NAME.findall(obj.docstring.value):
        problems.append(f"{path}: names {name} instead of linking to its page")
    return problems


def _check(obj: griffe.Object, path: str, options: dict[str, Any]) -> list[str]:
    return _layout_problems(obj, path) + _check_kind(obj, path, options)


def _check_kind(obj: griffe.Object, path: str, options: dict[str, Any]) -> list[str]:
    if obj.is_class:
        return _check_class(obj, path, options)  # type: ignore[arg-type]
    if obj.is_function:
        return _check_function(obj, path)  # type: ignore[arg-type]
    if obj.is_attribute:
        return _check_attribute(obj, path)  # type: ignore[arg-type]
    return [] if _description(obj) else [f"{path}: no description"]


def _problems() -> list[str]:
    package = _package()
    problems: list[str] = []
    for path, options in _rendered_roots().items():
        try:
            obj = _target(package.modules_collection[path])
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            problems.append(f"{path}: rendered by docs/api/ but griffe cannot find it")
            continue
        problems += _check(obj, path, options)
    return problems


#: The packages a user programs against: each that exists has API entries.
USER_PACKAGES = ["quiddler", "quiddler.game", "quiddler.web"]


def test_every_user_package_is_in_the_api_reference() -> None:
    """The browser game's package, once it exists, is on an API page like
    the library and the engine (and so checked below)."""
    rendered = list(_entries())
    present = [name for name in USER_PACKAGES if importlib.util.find_spec(name) is not None]
    assert "quiddler.game" in present
    missing = [name for name in present if not any(entry.startswith(name + ".") for entry in rendered)]
    assert not missing, f"docs/api/ renders nothing of {missing}"


def test_the_api_pages_render_the_exports() -> None:
    """The check below covers the package's main namespaces at least."""
    roots = _rendered_roots()
    for name in ["quiddler.solve", "quiddler.Solution", "quiddler.game.Game", "quiddler.game.simulate"]:
        assert name in roots, name


def test_every_rendered_object_is_documented() -> None:
    """See the module docstring for what each object must say."""
    problems = _problems()
    assert not problems, f"{len(problems)} gaps in the API reference:\n" + "\n".join(problems)
