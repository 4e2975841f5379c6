"""Help that reads the same everywhere: every command answers ``-h``, an
option several commands take has one metavar and one help text, files are
``PATH`` and counts ``N``, and the player names are read from the registry."""

from __future__ import annotations

import re
from collections import defaultdict

import click
import pytest
from click.testing import CliRunner

from quiddler.cli import main
from quiddler.game import players

from .helpers import run


def _commands() -> dict[str, click.Command]:
    with click.Context(main) as ctx:
        found = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


COMMANDS = sorted(_commands())


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_answers_dash_h(name: str) -> None:
    long = run(name, "--help")
    short = run(name, "-h")
    assert long.exit_code == short.exit_code == 0
    assert short.stdout == long.stdout and f" {name} [OPTIONS]" in short.stdout
    alone = CliRunner().invoke(_commands()[name], ["-h"])  # also when the command runs on its own
    assert alone.exit_code == 0 and "Usage: " in alone.stdout


def _options() -> dict[str, list[tuple[str, click.Option]]]:
    """Each visible option's long name -> (command, option) for every command that takes it."""
    found: dict[str, list[tuple[str, click.Option]]] = defaultdict(list)
    for name, command in _commands().items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden and param.name != "help":
                found[max(param.opts, key=len)].append((name, param))
    return found


def test_the_shared_options_are_each_defined_once() -> None:
    options = _options()
    for flag in ("--wordlist", "--json", "--seed", "--progress", "--rounds", "--turn-limit"):
        assert len(options[flag]) >= 2, flag  # the premise: several commands take it
    shared = ("--wordlist", "--json", "--seed", "--progress", "--rounds", "--round-sizes", "--no-first-turn-out",
              "--no-bonuses", "--no-floor", "--turn-limit")  # fmt: skip
    for flag in shared:
        seen = {(option.metavar, option.help, str(option.type)) for _, option in options[flag]}
        assert len(seen) == 1, (flag, seen)


def test_the_word_list_is_everywhere_the_same_option() -> None:
    takers = {name for name, _ in _options()["--wordlist"]}
    assert takers == {"check", "hint", "odds", "play", "review", "simulate", "solve", "words"}


def test_files_are_path_and_counts_are_n() -> None:
    for flag, takers in _options().items():
        for name, option in takers:
            if isinstance(option.type, (click.Path, click.File)):
                assert option.metavar == "PATH", (name, flag)
            if isinstance(option.type, click.types.IntParamType) and flag not in ("--top", "--bonus", "--game"):
                # --top K, --bonus POINTS and review's --game K name their help's words
                assert option.metavar == "N", (name, flag)


@pytest.mark.parametrize("name", COMMANDS)
def test_no_help_shows_clicks_type_names(name: str) -> None:
    out = run(name, "--help").stdout
    assert not re.search(r"\b(INTEGER|FILENAME|FILE|TEXT|FLOAT)\b", out), out


@pytest.mark.parametrize(("name", "flag"), [("simulate", "--players"), ("play", "--level")])
def test_player_options_list_the_registered_players_when_shown(
    name: str, flag: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def shown() -> str:
        """The option's help, without the spaces and line breaks of its wrapping."""
        text = "".join(run(name, "--help").stdout.split())
        start = text.index(flag) + len(flag)
        return text[start : text.index("--", start)]

    assert ",".join(players.player_names()) in shown()  # every name, in the registry's order
    monkeypatch.setitem(players._REGISTRY, "zeta-tester", players._REGISTRY["random"])
    assert ",random-eager,zeta-tester" in shown()  # read at help time, not when the module was imported


def test_odds_threads_and_simulate_workers_are_different_names() -> None:
    odds = run("odds", "--help").stdout
    simulate = run("simulate", "--help").stdout
    assert "--threads N" in odds and "--workers" not in odds
    assert "-w, --workers N" in simulate and "processes" in simulate.partition("--workers")[2]


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "a,b", "--top", "0"],
        ["odds", "--trials", "0"],
        ["simulate", "--games", "0"],
        ["simulate", "--turn-limit", "0"],
        ["hint", "a,b,c,d", "--turn", "0"],
        ["hint", "a,b,c,d", "--opponents", "9"],
        ["play", "--opponents", "9"],
    ],
)
def test_one_wording_for_every_number_out_of_range(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert re.fullmatch(r"Error: Invalid value for '[-\w]+'( / '-\w')?: -?\d+ is not in the range [x<>=\d ]+\.\n",
                        result.stderr), result.stderr  # fmt: skip
