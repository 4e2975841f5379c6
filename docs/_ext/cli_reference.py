"""MkDocs hook: the command line reference, generated from the commands.

A page's ``<!-- cli-reference -->`` is replaced by one section per command
of ``quiddler.cli:main`` (the lazily imported ones included, asked for by
name as ``quiddler COMMAND`` would): its description, its usage line, the
examples from its help, and each option with the text ``--help`` shows.
Defaults and ranges are the ones ``--help`` prints (``1``, ``paired``,
``x>=1``), never Python values, and options are a definition list, not a
table, so that a long default or description wraps on a narrow screen.
"""

from __future__ import annotations

import html
import inspect
import logging
import re
from typing import Any

import click

log = logging.getLogger("mkdocs.hooks.cli_reference")
MARKER = "<!-- cli-reference -->"
ENTRY_POINT = "quiddler.cli:main"
#: The order a reader meets the commands in; any other command follows, by name.
ORDER = ["solve", "words", "check", "hint", "play", "serve", "simulate", "odds"]
_EXTRA = re.compile(r"\s+\[([^\[\]]*)\]\s*$")


def _main() -> click.Group:
    module_name, _, attribute = ENTRY_POINT.partition(":")
    module = __import__(module_name, fromlist=[attribute])
    group = getattr(module, attribute)
    assert isinstance(group, click.Group), ENTRY_POINT
    return group


def _paragraphs(text: str | None) -> str:
    """A click help text as Markdown paragraphs (``\\b`` blocks kept as lines)."""
    if not text:
        return ""
    text = inspect.cleandoc(text)
    out = []
    for block in re.split(r"\n\s*\n", text):
        if block.startswith("\b"):
            lines = block[1:].strip("\n").splitlines()
            out.append("  \n".join(html.escape(line.strip()) for line in lines))
        else:
            out.append(html.escape(" ".join(block.split())))
    return "\n\n".join(out)


def _examples(epilog: str | None) -> str:
    """The ``Examples:`` lines of a command's epilog as a console block."""
    if not epilog:
        return ""
    lines = [line.strip() for line in epilog.replace("\b", "").splitlines()]
    commands = [line for line in lines if line and not line.endswith(":")]
    if not commands:
        return ""
    shown = []
    for command in commands:
        if "#" not in command:  # "quiddler play    what it does": say it as a comment
            command = re.sub(r"\s{3,}(?=\S)", "  # ", command, count=1)
        shown.append(f"$ {command}")
    return "**Examples**\n\n```console\n" + "\n".join(shown) + "\n```"


def _option(record: tuple[str, str]) -> str:
    names, help_text = record
    extra = ""
    match = _EXTRA.search(help_text)
    if match:
        help_text = help_text[: match.start()]
        parts = []
        for part in match.group(1).split(";"):
            part = part.strip()
            if part.startswith("default: "):
                parts.append(f"Default: `{part.removeprefix('default: ')}`.")
            elif part == "required":
                parts.append("Required.")
            elif part:
                parts.append(f"Range: `{part}`.")
        extra = " " + " ".join(parts)
    help_text = " ".join(help_text.split()).strip()
    return f"`{names}`\n:   {html.escape(help_text)}{extra}"


def _command(name: str, command: click.Command, parent: click.Context) -> str:
    ctx = click.Context(command, info_name=name, parent=parent)
    prog = f"{parent.command_path} {name}"
    usage = " ".join([prog, *command.collect_usage_pieces(ctx)])
    parts = [f"## `{prog}` {{#{prog.replace(' ', '-')}}}", _paragraphs(command.help),
             f"```text\nUsage: {usage}\n```", _examples(command.epilog)]  # fmt: skip
    options = [p.get_help_record(ctx) for p in command.get_params(ctx) if isinstance(p, click.Option)]
    shown = [_option(r) for r in options if r is not None and not r[0].startswith("--help")]
    if shown:
        parts.append("**Options**\n\n" + "\n\n".join(shown))
    return "\n\n".join(part for part in parts if part)


def reference() -> str:
    main = _main()
    with click.Context(main, info_name="quiddler") as ctx:
        names = main.list_commands(ctx)
        ordered = [n for n in ORDER if n in names] + sorted(n for n in names if n not in ORDER)
        sections = []
        usage = " ".join(["quiddler", *main.collect_usage_pieces(ctx)])
        group = ["## `quiddler` {#quiddler}", _paragraphs(main.help), f"```text\nUsage: {usage}\n```"]
        group += [
            _option(r) for p in main.get_params(ctx) if (r := p.get_help_record(ctx)) and p.name != "help"
        ]
        sections.append("\n\n".join(group))
        for name in ordered:
            command = main.get_command(ctx, name)
            if command is None:
                log.warning("quiddler %s is listed but cannot be loaded", name)
                continue
            sections.append(_command(name, command, ctx))
    return "\n\n".join(sections)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference())
