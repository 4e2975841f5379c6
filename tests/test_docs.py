"""The documentation site builds strictly, and covers what the code offers.

The examples on the pages are run by Sybil (the project's top-level
conftest.py); this module checks the site as a whole.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import click
import pytest

from quiddler import FACES, Card, solve
from quiddler.cli import main
from quiddler.game import Game, Rules, hint, make_player, play_game
from quiddler.game.record import game_record
from quiddler.odds import go_out_odds

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict`: a broken link or anchor, a page missing from
    the nav, an API object that no longer exists or a cross-reference that
    no longer resolves fails the build."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    site = tmp_path / "site"
    for page in ["index.html", "cli.html", "api/index.html", "api/game.html", "rules.html"]:
        assert (site / page).is_file(), page
    cli_page = (site / "cli.html").read_text()
    for name in _commands():
        assert f"quiddler {name} [OPTIONS]" in cli_page, f"the generated command line reference lacks {name}"
    api_page = (site / "api" / "index.html").read_text()
    assert 'id="quiddler.solve"' in api_page
    assert "UNSET" not in cli_page


def _commands() -> list[str]:
    with click.Context(main) as ctx:
        return main.list_commands(ctx)


def test_every_command_has_a_generated_reference() -> None:
    """docs/cli.md generates each command's reference with mkdocs-click,
    never a hand-copied option list.  The group's directive renders every
    command of its table: the group imports none up front, so mkdocs-click
    asks it to list them."""
    text = (DOCS / "cli.md").read_text()
    directives = re.findall(r"^::: mkdocs-click\n((?:    :\w+: .*\n)+)", text, re.MULTILINE)
    documented = set()
    for block in directives:
        options = dict(re.findall(r":(\w+): (.*)", block))
        if options["command"] == "main":  # the group, with every command of its table
            documented |= set(_commands())
        else:
            documented.add(options["prog_name"].removeprefix("quiddler").strip())
    assert set(_commands()) <= documented


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


def test_every_game_record_field_is_on_the_game_page() -> None:
    game = play_game([make_player("greedy"), make_player("random", seed=1)], seed=7)
    record = game_record(game, ["greedy", "random"])
    first_round = record["rounds"][0]
    keys = set(record) | set(first_round) | set(first_round["result"])
    missing = keys - _documented_fields("game.md") - {"scores"}  # scores: described in the result row
    assert not missing, f"docs/game.md does not describe record fields {sorted(missing)}"


@pytest.mark.parametrize("module", ["quiddler", "quiddler.game", "quiddler.game.record", "quiddler.odds"])
def test_every_export_is_in_the_api_reference(module: str) -> None:
    """Each name a namespace exports has its own `::: module.name` entry on
    an API page (the griffe extension links only to these)."""
    pages = "\n".join(p.read_text() for p in (DOCS / "api").glob("*.md"))
    exports = [name for name in importlib.import_module(module).__all__ if name != "__version__"]
    missing = [name for name in exports if f"::: {module}.{name}\n" not in pages]
    assert not missing, f"docs/api/ lacks {module}: {missing}"
