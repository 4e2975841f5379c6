"""The documentation site builds strictly, and covers what the code offers.

The examples on the pages are run by Sybil (the project's top-level
conftest.py); this module checks the site as a whole, and
test_browser.py loads every page in a browser.
"""

from __future__ import annotations

import html
import importlib
import re
import subprocess
from dataclasses import fields
from pathlib import Path

import click
import pytest
import yaml

from quiddler import FACES, Card, solve
from quiddler.cli import main
from quiddler.game import Game, Rules, hint, make_player, play_game
from quiddler.game.record import game_record
from quiddler.odds import go_out_odds

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: The how-to guides: each a page of its own whose examples the suite runs.
HOW_TO = ["player", "hint", "wordlist", "pipeline", "dask", "web-table"]


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)


def test_mkdocs_build_strict(site_build: subprocess.CompletedProcess[str], site: Path) -> None:
    """`mkdocs build --strict`: a broken link or anchor, a page missing from
    the nav, an API object that no longer exists or a cross-reference that
    no longer resolves fails the build."""
    assert site_build.returncode == 0, site_build.stdout + site_build.stderr
    for page in [
        "index.html",
        "cli.html",
        "reference/cli.html",
        "api/index.html",
        "api/game.html",
        "rules.html",
    ]:
        assert (site / page).is_file(), page
    api_page = (site / "api" / "index.html").read_text()
    assert 'id="quiddler.solve"' in api_page


def _commands() -> list[str]:
    with click.Context(main) as ctx:
        return main.list_commands(ctx)


def test_every_command_has_a_generated_reference(site: Path) -> None:
    """The command line reference is generated from `quiddler.cli:main`
    (the lazily loaded commands included): each command's section, its
    usage line, its examples and every option it has."""
    page = (site / "reference" / "cli.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    with click.Context(main, info_name="quiddler") as ctx:
        for name in _commands():
            command = main.get_command(ctx, name)
            assert command is not None, name
            assert f'id="quiddler-{name}"' in page, f"the command line reference lacks quiddler {name}"
            assert f"Usage: quiddler {name} [OPTIONS]" in text, name
            examples = (command.epilog or "").replace("\b", "").partition("Examples:")[2].strip().splitlines()
            for example in examples:
                shown = re.split(r"\s{3,}|\s+#", example.strip())[0]
                assert f"$ {shown}" in text, f"quiddler {name}: the example {shown!r} is not shown"
            for param in command.params:
                if isinstance(param, click.Option) and not param.hidden:
                    assert f"<code>{param.opts[-1]}" in page, f"quiddler {name} {param.opts[-1]}"


def test_the_command_line_reference_shows_defaults_as_the_command_does(site: Path) -> None:
    """Defaults read as `--help` prints them, never as Python values: no
    None, True, False or click's no-default sentinel."""
    page = (site / "reference" / "cli.html").read_text()
    assert "Default: <code>1</code>" in page  # --top
    assert "Default: <code>paired</code>" in page  # --paired/--unpaired
    for python_value in ["None", "True", "False", "UNSET", "Sentinel"]:
        assert f"<code>{python_value}</code>" not in page, python_value
        assert f"default: {python_value}" not in page.lower().replace("<code>", "").replace("</code>", "")


def test_the_nav_groups_the_pages() -> None:
    """Tutorial, how-to guides, explanation, reference and development, and
    every page is in the nav once."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    sections = [next(iter(entry)) for entry in config["nav"]]
    for wanted in ["Tutorial", "How-to guides", "Explanation", "Reference", "Development"]:
        assert wanted in sections

    def files(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [f for value in node.values() for f in files(value)]
        if isinstance(node, list):
            return [f for item in node for f in files(item)]
        return []

    listed = files(config["nav"])
    assert len(listed) == len(set(listed))
    on_disk = {str(p.relative_to(DOCS)) for p in _pages()}
    assert on_disk == set(listed), on_disk ^ set(listed)
    how_to = next(entry["How-to guides"] for entry in config["nav"] if "How-to guides" in entry)
    assert [f"howto/{name}.md" for name in HOW_TO] == files(how_to)


@pytest.mark.parametrize("name", HOW_TO)
def test_each_how_to_guide_has_examples(name: str) -> None:
    """Each guide shows code; Sybil runs its examples with the rest."""
    text = (DOCS / "howto" / f"{name}.md").read_text()
    assert re.search(r"^```(pycon|python|console|sh)$", text, re.MULTILINE), name


#: A reference to an issue or pull request, or a commit hash (7 to 12 hex
#: digits with at least one letter and one digit: not a number, not a word).
_HISTORY = re.compile(r"\b(issue|pull request|PR) ?#?\d+\b|#\d{1,5}\b|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12}\b",
                      re.IGNORECASE)  # fmt: skip


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_no_page_refers_to_issues_or_commits(page: Path) -> None:
    text = page.read_text()
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)  # code shows hashes of data
    found = [m.group(0) for m in _HISTORY.finditer(text)]
    assert not found, f"{page.relative_to(ROOT)} refers to {found}"


#: Words that mark a page as lab notes: they belong under docs/dev/.
_LAB_NOTES = re.compile(r"tried and dropped|load average|what paid and what did not|mutation|survivors|"
                        r"\bbefore and after\b|\bA/B\b", re.IGNORECASE)  # fmt: skip


@pytest.mark.parametrize("page", [p for p in _pages() if p.parts[-2] != "dev" and p.name != "benchmarks.md"],
                         ids=lambda p: str(p.relative_to(DOCS)))  # fmt: skip
def test_user_pages_hold_no_lab_notes(page: Path) -> None:
    """Optimisation history belongs in the development notes (docs/dev/),
    which the benchmarks page links to."""
    found = [m.group(0) for m in _LAB_NOTES.finditer(page.read_text())]
    assert not found, f"{page.relative_to(ROOT)} holds lab notes: {found}"


def test_the_benchmarks_page_links_the_development_notes() -> None:
    text = (DOCS / "benchmarks.md").read_text()
    for notes in (DOCS / "dev").glob("*-notes.md"):
        assert f"dev/{notes.name}" in text, notes.name


def test_the_home_page_says_how_to_install() -> None:
    text = (DOCS / "index.md").read_text()
    assert "pip install" in text and "<!-- version -->" in text


def test_no_page_loads_from_a_cdn(site: Path) -> None:
    """Every script and stylesheet is the site's own (the offline plugin
    would add the iframe-worker shim from a CDN)."""
    for page in site.rglob("*.html"):
        html = page.read_text()
        remote = re.findall(r"<(?:script|link)[^>]+(?:src|href)=\"(?:https?:)?//[^\"]+\"", html)
        remote = [tag for tag in remote if "<link" not in tag or "stylesheet" in tag or "preload" in tag]
        assert not remote, f"{page.relative_to(site)}: {remote}"


def test_every_rules_field_is_on_the_rules_page() -> None:
    text = (DOCS / "rules.md").read_text()
    missing = [f.name for f in fields(Rules) if f"`{f.name}`" not in text]
    assert not missing, f"docs/rules.md does not describe Rules fields {missing}"


def test_the_deck_table_on_the_rules_page_is_the_deck() -> None:
    text = (DOCS / "rules.md").read_text()
    table = text[text.index("| card | copies | points |") :].split("\n\n", 1)[0]
    cells = [c.strip() for line in table.splitlines()[2:] for c in line.strip("|").split("|")]
    rows = {cells[i]: (int(cells[i + 1]), int(cells[i + 2])) for i in range(0, len(cells), 3) if cells[i]}
    assert rows == {face: (Card(face).copies, Card(face).points) for face in FACES}


def _documented_fields(page: str) -> set[str]:
    """Field names in the first column of a page's tables."""
    return set(re.findall(r"^\| `(\w+)` \|", (DOCS / page).read_text(), re.MULTILINE))


def test_every_json_field_is_on_the_json_page() -> None:
    solution = solve("d,cl,o,g,a,b,er,in,n,y,s", discard=True, backend="python").to_dict()
    advice = hint(Game(2, seed=7).view(1)).to_dict()
    keys = set(solution) | set(solution["best"]) | set(solution["best"]["words"][0])
    keys |= set(advice) | set(advice["recommended"])
    odds = go_out_odds([3], trials=50, seed=1).to_dict()
    keys |= set(odds) | set(odds["rows"][0])
    missing = keys - _documented_fields("json.md")
    assert not missing, f"docs/json.md does not describe {sorted(missing)}"


def test_every_game_record_field_is_on_the_records_page() -> None:
    game = play_game([make_player("greedy"), make_player("random", seed=1)], seed=7)
    record = game_record(game, ["greedy", "random"])
    first_round = record["rounds"][0]
    keys = set(record) | set(first_round) | set(first_round["result"])
    missing = keys - _documented_fields("reference/records.md") - {"scores"}  # scores: in the result row
    assert not missing, f"docs/reference/records.md does not describe record fields {sorted(missing)}"


@pytest.mark.parametrize("module", ["quiddler", "quiddler.game", "quiddler.game.record", "quiddler.odds"])
def test_every_export_is_in_the_api_reference(module: str) -> None:
    """Each name a namespace exports has its own `::: module.name` entry on
    an API page (the griffe extension links only to these)."""
    pages = "\n".join(p.read_text() for p in (DOCS / "api").glob("*.md"))
    exports = [name for name in importlib.import_module(module).__all__ if name != "__version__"]
    missing = [name for name in exports if f"::: {module}.{name}\n" not in pages]
    assert not missing, f"docs/api/ lacks {module}: {missing}"


def test_identifiers_in_the_text_link_to_the_api_reference(site: Path) -> None:
    """`solve()` or `Rules` written in a narrative page links to its entry."""
    solver = (site / "solver.html").read_text()
    assert 'href="api/index.html#quiddler.solve"' in solver
    assert 'href="api/index.html#quiddler.Solution.best_go_out"' in solver
    rules = (site / "rules.html").read_text()
    assert 'href="api/game.html#quiddler.game.Rules"' in rules


def test_every_table_renders_as_a_table(site: Path) -> None:
    """A table not set off by a blank line renders as a paragraph of pipes."""
    for page in site.rglob("*.html"):
        paragraphs = re.findall(r"<p>(.*?)</p>", page.read_text(), re.DOTALL)
        raw = [p for p in paragraphs if re.search(r"(^|\n)\s*\|.*\|\s*($|\n)", p)]
        assert not raw, f"{page.relative_to(site)}: {raw[:2]}"


def test_no_rendered_page_refers_to_issues_or_commits(site: Path) -> None:
    """The same on the built site, which also shows the docstrings and the
    changelog."""
    for page in site.rglob("*.html"):
        text = re.sub(r"<(pre|code|script|svg)\b.*?</\1>", "", page.read_text(), flags=re.DOTALL)
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
        found = [m.group(0) for m in _HISTORY.finditer(text)]
        assert not found, f"{page.relative_to(site)} refers to {found}"
