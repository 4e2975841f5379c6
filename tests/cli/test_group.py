"""The ``quiddler`` group: --version, help with examples, and the table of
commands, each imported only when it runs or is listed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import quiddler
from quiddler.cli import group as cli_group

from .helpers import run


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"quiddler {quiddler.__version__}\n"


@pytest.mark.parametrize("command", [[], ["solve"], ["words"], ["check"]])
def test_help_with_an_example(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0 and result.stderr == ""
    name = command[0] if command else "solve"
    assert "Usage: " in result.stdout and f"quiddler {name} " in result.stdout.partition("Example")[2]
    short = run(*command, "-h")
    assert short.stdout == result.stdout


def test_the_group_lists_its_commands() -> None:
    out = run("--help").stdout
    for name in ("solve", "words", "check"):
        assert re.search(rf"^  {name}\s+\S", out, re.MULTILINE)


def _group(lazy: dict[str, str]) -> click.Group:
    @click.group(cls=cli_group.QuiddlerGroup, lazy_commands=lazy)
    def group() -> None:
        pass

    return group


def test_lazy_command_is_offered_only_when_its_module_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lazy_cmd_ok.py").write_text(
        "import click\n@click.command()\ndef hello():\n    'Say hello.'\n    click.echo('hello')\n"
    )
    (tmp_path / "lazy_cmd_broken.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    group = _group(
        {"hello": "lazy_cmd_ok:hello", "gone": "lazy_cmd_missing:hello", "noattr": "lazy_cmd_ok:nope"}
    )
    runner = CliRunner()
    listing = runner.invoke(group, ["--help"]).stdout
    assert re.search(r"^  hello\s+Say hello\.$", listing, re.MULTILINE)
    assert "gone" not in listing and "noattr" not in listing
    assert runner.invoke(group, ["hello"]).stdout == "hello\n"
    missing = runner.invoke(group, ["gone"])
    assert missing.exit_code == 2 and "No such command 'gone'" in missing.stderr
    # A module that exists but fails to import is a bug to show, not a missing command.
    broken = _group({"broken": "lazy_cmd_broken:hello"})
    with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
        runner.invoke(broken, ["broken"], catch_exceptions=False)


def test_every_command_is_in_the_table_and_imported_only_when_used() -> None:
    main = cli_group.main
    assert main.commands == {}  # nothing is imported up front
    assert main.lazy_commands == {
        "check": "quiddler.cli.solve:check",
        "hint": "quiddler.cli.hint:hint",
        "odds": "quiddler.cli.odds:odds",
        "play": "quiddler.cli.play:play",
        "serve": "quiddler.cli.serve:serve",
        "simulate": "quiddler.cli.simulate:simulate",
        "solve": "quiddler.cli.solve:solve",
        "words": "quiddler.cli.solve:words",
    }
    with click.Context(main) as ctx:
        names = main.list_commands(ctx)
        assert names == sorted(main.lazy_commands)
        for name in names:
            command = main.get_command(ctx, name)
            assert command is not None and command.name == name


def test_the_help_lists_every_command_once_with_what_it_does() -> None:
    shown = run("--help").stdout
    for name in cli_group.COMMANDS:
        assert len(re.findall(rf"^  {name}\s+\w", shown, re.MULTILINE)) == 1, name


def test_python_dash_m_runs_the_command_line() -> None:
    import subprocess
    import sys

    from .helpers import REPO

    for module in ("quiddler", "quiddler.cli"):
        done = subprocess.run([sys.executable, "-m", module, "solve", "a,t", "--json"], cwd=REPO,
                              capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == quiddler.solve("a,t").to_dict()
