"""Every file named on the command line is handled as an untrusted file: a
word list, a game log or a batch of hands that is a FIFO, a device, a
directory, a loop of links or far too large gives one ``Error:`` line and
exit 2 at once, before any work, and the file is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from quiddler.cli import main

from ..hostile import file_state, hostile_path
from .helpers import assert_input_error


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


KINDS = ["fifo", "link to /dev/zero", "directory", "loop of links", "100 MB file"]
COMMANDS = {
    "solve": ["solve", "qu,e,e,n"],
    "hint": ["hint", "qu,e,e,n"],
    "odds": ["odds", "--cards", "3", "--trials", "10"],
    "simulate": ["simulate", "--games", "1", "--workers", "1"],
    "play": ["play", "--seed", "1", "--rounds", "1"],
}


@pytest.mark.timeout(60)  # a FIFO was waited on forever, /dev/zero read until memory ran out
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_word_list_that_is_not_a_word_list_file_is_one_error_line(tmp_path: Path, command: str, kind: str) -> None:
    path = hostile_path(kind, tmp_path, "words.txt")
    before = file_state(path)
    result = invoke(*COMMANDS[command], "--wordlist", str(path), input="auto\n" * 50)
    assert_input_error(result, "--wordlist", "cannot read word list: ", f"'{path}'")
    assert file_state(path) == before


@pytest.mark.timeout(60)  # opening a FIFO to write waits for a reader; the rest failed only after the games
@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "link to /dev/full", "directory", "loop of links"])
def test_a_game_log_that_cannot_be_written_is_one_error_line_before_any_game(tmp_path: Path, kind: str) -> None:
    path = hostile_path(kind, tmp_path, "games.jsonl")
    before = file_state(path)
    result = invoke("simulate", "--games", "2", "--workers", "1", "--log", str(path))
    assert_input_error(result, "--log", f"'{path}'")
    assert file_state(path) == before


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero"])
def test_a_game_log_on_a_device_is_one_error_line(device: str) -> None:
    result = invoke("simulate", "--games", "2", "--workers", "1", "--log", device)
    assert_input_error(result, "--log", f"cannot write '{device}': it is a character device, not a regular file")


def test_a_game_log_in_a_folder_that_cannot_be_written_is_one_error_line(unwritable_folder: Path) -> None:
    log = unwritable_folder / "games.jsonl"
    assert_input_error(invoke("simulate", "--games", "2", "--workers", "1", "--log", str(log)), f"cannot write '{log}'")
    assert list(unwritable_folder.iterdir()) == []


def test_a_game_log_in_a_missing_folder_is_one_error_line(tmp_path: Path) -> None:
    log = tmp_path / "no" / "games.jsonl"
    assert_input_error(invoke("simulate", "--games", "2", "--workers", "1", "--log", str(log)), "no folder")


def test_a_run_refused_for_another_option_leaves_the_old_log(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    log.write_text("yesterday's games\n")
    result = invoke("simulate", "--log", str(log), "--players", "greedy,wizard")
    assert_input_error(result, "wizard")
    assert log.read_text() == "yesterday's games\n"
    result = invoke("simulate", "--games", "2", "--workers", "1", "--seed", "1", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert len(log.read_text().splitlines()) == 2


def test_a_game_log_through_a_link_writes_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.jsonl"
    link = tmp_path / "games.jsonl"
    link.symlink_to(target)
    result = invoke("simulate", "--games", "2", "--workers", "1", "--seed", "1", "--log", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and len(target.read_text().splitlines()) == 2


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["link to /dev/zero", "directory", "loop of links"])
def test_a_batch_file_that_is_not_a_file_of_hands_is_one_error_line(tmp_path: Path, kind: str) -> None:
    path = hostile_path(kind, tmp_path, "hands.txt")
    before = file_state(path)
    assert_input_error(invoke("solve", "--batch", str(path)), str(path) if kind != "link to /dev/zero" else "line 1")
    assert file_state(path) == before


def test_a_batch_line_too_long_to_be_a_hand_is_one_error_line() -> None:
    result = invoke("solve", "--batch", "-", input="a,b\n" + "x" * (2 << 20) + "\n")
    assert result.exit_code == 2
    assert result.stdout.count("\n") == 1  # the hand before it was answered
    assert result.stderr.strip() == "Error: --batch: line 2 is longer than 1,048,576 characters, so it is not a hand"


@pytest.mark.parametrize("option", [["simulate", "--games", "1", "--log"], ["solve", "a,b", "--wordlist"],
                                    ["solve", "--batch"], ["play", "--save"], ["play", "--resume"]])  # fmt: skip
def test_a_file_name_of_thousands_of_characters_is_cut_in_the_middle_of_the_error_line(tmp_path: Path,
                                                                                      option: list[str]) -> None:  # fmt: skip
    name = str(tmp_path / ("x" * 5000) / "end.json")
    result = invoke(*option, name, input="")
    assert_input_error(result)
    line = result.stderr.strip()
    assert len(line) < 400 and "x" * 300 not in line, line
    assert str(tmp_path)[:20] in line and ("end.json" in line or "characters)" in line), line
