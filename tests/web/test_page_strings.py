"""No sentence of the browser game is written in its code: every string the
page shows comes from a catalog (locales/*.json, through messages.js).

Every string literal of the game's modules (the front end's and the static
site's) is read, template literals included (a `${...}` part is code, and
is read as such); one that has letters must be code, not words for a
person: a catalog key, an identifier, a CSS class list, a selector, an
address, a developer's Error; or be one of the few allowed below, each
with its reason.  Anything else (a label, a sentence, a word in a
template) fails the test with its file and line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "quiddler"
STATIC = ROOT / "web" / "static"
#: The game's modules: the front end's, and the static site's on the game's page (its solver page,
#: solver.js, stays English, as the command line does; worker.js runs the engine and shows nothing).
MODULES = sorted(STATIC.glob("*.js")) + [ROOT / "site" / "static" / name for name in ("site.js", "worker-transport.js")]
KEYS = set(json.loads((STATIC / "locales" / "en.json").read_text("utf-8")))

#: Literals with letters that are not words for a person, and why.
ALLOWED = {
    "quiet ax", "quiet ax discard z",  # the words box's examples: the game's words are English
    "ArrowLeft", "ArrowRight", "Home", "End", "G", "U",  # keyboard keys (KeyboardEvent.key)
    "INPUT",  # an element's tagName
    "GET", "POST", "Content-Type",  # HTTP
    "translate(0, 0)", "translate(\0px, \0px)",  # CSS transforms
}

HOLE = "\0"  # where a template's ${...} was
REGEX_MAY_FOLLOW = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "=>", ""}
TOKEN = re.compile(r"[A-Za-z_$][\w$]*|=>|\d[\d.]*|.", re.DOTALL)


def string_literals(source: str, first_line: int = 1) -> Iterator[tuple[int, str, str]]:
    """(line, text, the code just before it) for each string literal; a
    template's ${...} parts become HOLE in its text and are read as code."""
    i, prev = 0, ""
    while i < len(source):
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = len(source) if end < 0 else end
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif source[i] in "'\"`":
            quote, j, text = source[i], i + 1, []
            while source[j] != quote:
                if source[j] == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                elif quote == "`" and source.startswith("${", j):
                    end = expression_end(source, j + 2)
                    yield from string_literals(source[j + 2 : end], first_line + source.count("\n", 0, j))
                    text.append(HOLE)
                    j = end + 1
                else:
                    text.append(source[j])
                    j += 1
            decoded = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), "".join(text))
            yield first_line + source.count("\n", 0, i), decoded, source[max(0, i - 60) : i]
            i, prev = j + 1, "string"
        elif source[i] == "/" and prev in REGEX_MAY_FOLLOW:  # a regular expression, not a division
            j, in_class = i + 1, False
            while source[j] != "/" or in_class:
                if source[j] == "\\":
                    j += 1
                elif source[j] in "[]":
                    in_class = source[j] == "["
                j += 1
            i, prev = j + 1, "regex"
        elif source[i].isspace():
            i += 1
        else:
            match = TOKEN.match(source, i)
            assert match is not None
            prev, i = match.group(0), match.end()


def expression_end(source: str, start: int) -> int:
    """The index of the } that closes a template's ${ at `start`."""
    depth, j = 1, start
    while depth:
        if source[j] in "'\"`":
            quote, j = source[j], j + 1
            while source[j] != quote:
                j += 2 if source[j] == "\\" else 1
        depth += {"{": 1, "}": -1}.get(source[j], 0)
        j += 1
    return j - 1


def is_code(text: str, before: str) -> bool:
    """Whether a literal with letters is code rather than words for a person."""
    pattern = re.escape(text).replace(re.escape(HOLE), ".+")
    return bool(
        text in KEYS or any(re.fullmatch(pattern, key) for key in KEYS)  # a catalog key, or a family of them
        or re.fullmatch(r"[a-z0-9_.:#\-\0]*|\.?[a-z]+[A-Z][A-Za-z0-9]*", text)  # an identifier, a name, a key's part
        or re.fullmatch(r"\S*/\S*", text)  # an address or a path
        or re.search(r"(querySelector|querySelectorAll|closest|matchMedia)\(\s*$", before)  # a selector
        or re.search(r"\bclass:\s*$", before) or re.fullmatch(r" [a-z][a-z0-9-]*", text)  # CSS classes
        or re.search(r"\bnew Error\(\s*$", before)  # a developer's error: the page says its own sentence
        or text in ALLOWED
    )


def words_in(source: str) -> list[str]:
    """Every literal of `source` that reads as words for a person."""
    return [f"line {line}: {text!r}" for line, text, before in string_literals(source)
            if re.search(r"[^\W\d_]", text) and not is_code(text, before)]  # fmt: skip


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.name)
def test_no_module_writes_words_for_the_player(module: Path) -> None:
    found = words_in(module.read_text("utf-8"))
    assert not found, f"{module.name} shows words of its own (use a catalog key): {found}"


def test_the_check_finds_words_however_they_are_written() -> None:
    """The check itself: a label, a sentence in a template, an attribute and a thrown message are each found."""
    source = """
        el("p", {}, "Draw a card");
        const line = `${name} drew from the pile`;
        el("button", { "aria-label": "Close" }, t("hint"));
        throw new WordProblem("no such card");
        replace(node, ok ? t("copied") : 'Copied!');
    """
    assert [found.split(": ", 1)[1] for found in words_in(source)] == [
        "'Draw a card'", "'\\x00 drew from the pile'", "'Close'", "'no such card'", "'Copied!'",
    ]


def test_the_check_lets_code_through() -> None:
    source = """
        // A comment "with words" is not shown.
        import { t } from "./messages.js";
        el("span", { class: "pts corner-start", "aria-hidden": "true" }, t(final ? "yourFinalDraw" : "yourDraw"));
        document.querySelector(".site-note p"); const re = /"not a string"/g; t(`pace${p}`);
    """
    assert words_in(source) == []


def test_every_key_the_code_names_is_in_the_english_catalog() -> None:
    """A literal that looks like a key (camelCase, or dotted) and is passed to t() exists in en.json."""
    missing = []
    for module in MODULES:
        for line, text, before in string_literals(module.read_text("utf-8")):
            if re.search(r"\b(t|has|tWith)\(\s*$", before) and HOLE not in text and text not in KEYS:
                missing.append(f"{module.name} line {line}: {text!r}")
    assert not missing


def test_the_page_s_own_html_says_its_words_through_keys() -> None:
    """index.html: every element with words names its key (data-text), which the catalog has."""
    html = (STATIC / "index.html").read_text("utf-8")
    keys = re.findall(r'data-text="([^"]+)"', html)
    assert keys and set(keys) <= KEYS
    body = re.sub(r"<noscript>.*?</noscript>|<!--.*?-->", "", html.split("<body>", 1)[1], flags=re.DOTALL)
    texts = [m.group(1).strip() for m in re.finditer(r">([^<]+)<", body) if m.group(1).strip()]
    keyed = re.findall(r'data-text="[^"]+">([^<]+)<', body)
    assert texts == keyed
