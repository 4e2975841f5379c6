"""Saving, quitting and resuming: a game stopped anywhere (quit, end of
input, Ctrl-C) and resumed is the game played straight through; quitting
asks whether and where to save; damaged or foreign saves are one error
line and left untouched; a save never overwrites a foreign file or an
unfinished game; a game on another word list resumes from the file it
names."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import quiddler
from quiddler.game import Game
from quiddler.play.saves import HUMAN, SaveError, check_save_target, load_game, save_game

from ..hostile import file_state
from ..hostile import hostile_path as make_hostile
from .helpers import (
    AUTO,
    SHORT,
    WORDS,
    LinesThenInterrupt,
    finished_one_round_game,
    invoke,
    one_error_line,
)


@pytest.fixture(scope="module")
def straight_record(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    save = tmp_path_factory.mktemp("straight") / "game.json"
    result = invoke([*RESUMED, "--save", str(save)], AUTO)
    assert result.exit_code == 0, result.output
    assert result.output.count("> auto") > 6  # every stop point below is mid-game
    return json.loads(save.read_text())  # type: ignore[no-any-return]


#: The games resumed: seed 9, three rounds (played straight through the person answers more than six prompts).
RESUMED = ["--seed", "9", "--rounds", "3"]


@pytest.mark.parametrize(("lines", "how"), [(k, ("quit", "eof", "interrupt")[k % 3]) for k in range(6)])
def test_stopping_and_resuming_gives_the_game_played_straight_through(
    tmp_path: Path, straight_record: dict, lines: int, how: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    args = [*RESUMED, "--save", str(save)]
    if how == "interrupt":
        stopped = invoke(args, LinesThenInterrupt(["auto"] * lines))
        assert stopped.exit_code == 130 and isinstance(stopped.exception, SystemExit)
        assert f"Interrupted: game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    elif how == "eof":
        stopped = invoke(args, "auto\n" * lines)
        assert stopped.exit_code == 0
        assert f"End of input: game saved to {save}." in stopped.output
    else:
        stopped = invoke(args, "auto\n" * lines + "quit\n")
        assert stopped.exit_code == 0
        assert f"Game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    assert "Traceback" not in stopped.output
    assert not json.loads(save.read_text())["finished"]
    resumed = invoke(["--resume", str(save)], AUTO)
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming at round" in resumed.output or lines == 0
    if lines == 1:  # stopped after drawing: what happened this round is told again, the person's draw too
        assert "Round 1 so far:" in resumed.output and "You draw from the pile." in resumed.output
    assert json.loads(save.read_text()) == straight_record


def test_quit_asks_whether_and_where_to_save(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    target = tmp_path / "later.json"
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    script = f"auto\nauto\nquit\nmaybe\ncancel\nauto\nquit\nyes\n{foreign}\n{target}\n"
    result = invoke(RESUMED, script)
    assert result.exit_code == 0, result.output
    assert "type yes, no or cancel" in result.output and "Cancelled." in result.output
    assert f"'{foreign}' exists and is not a saved game: choose another file" in result.output
    assert f"Game saved to {target}. Continue it with: quiddler play --resume {target}" in result.output
    assert foreign.read_text() == "my notes\n"
    resumed = invoke(["--resume", str(target)], AUTO)
    assert resumed.exit_code == 0
    assert json.loads(target.read_text()) == straight_record


def test_quit_without_saving_and_end_of_input_without_a_file() -> None:
    result = invoke(["--seed", "9", *SHORT], "auto\nquit\nno\n")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Game not saved. Bye.")
    result = invoke(["--seed", "9", *SHORT], "auto\n")
    assert result.exit_code == 0
    assert "End of input: the game stops here, not saved (use --save FILE to keep games)." in result.output
    result = invoke(["--seed", "9", *SHORT], LinesThenInterrupt(["auto"]))
    assert result.exit_code == 130 and "Interrupted: the game stops here, not saved" in result.output


def test_resuming_a_finished_game_shows_the_score_sheet(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    save = tmp_path / "done.json"
    save.write_text(json.dumps(straight_record))
    result = invoke(["--resume", str(save)], "")
    assert result.exit_code == 0 and "Game over." in result.output and "Score sheet" in result.output


def damaged_saves(record: dict) -> dict[str, str]:  # type: ignore[type-arg]
    text = json.dumps(record)
    tampered = json.loads(text)
    tampered["rounds"][0]["actions"][1] = {"type": "discard", "player": 1, "card": "zz"}
    illegal = json.loads(text)
    illegal["rounds"][0]["actions"].insert(0, {"type": "discard", "player": 0, "card": "a"})
    dealt = json.loads(text)
    dealt["rounds"][0]["hands"][0][0] = "q" if dealt["rounds"][0]["hands"][0][0] != "q" else "z"
    no_human = json.loads(text)
    no_human["players"] = ["medium", "medium"]
    stranger = json.loads(text)
    stranger["players"] = [HUMAN, "deep-blue"]
    rounds = json.loads(text)
    rounds["rounds"] = "all of them"
    return {
        "truncated": text[: len(text) // 2],
        "empty": "",
        "not json": "hello\n",
        "a list": "[1, 2, 3]",
        "another format": json.dumps({**record, "format": "chess-pgn/1"}),
        "bad card": json.dumps(tampered),
        "illegal action": json.dumps(illegal),
        "another deal": json.dumps(dealt),
        "no human seat": json.dumps(no_human),
        "unknown player": json.dumps(stranger),
        "rounds not a list": json.dumps(rounds),
        "binary": "\udcff\udcfe",
    }


@pytest.mark.parametrize("kind", ["truncated", "empty", "not json", "a list", "another format", "bad card",
                                  "illegal action", "another deal", "no human seat", "unknown player",
                                  "rounds not a list", "binary"])  # fmt: skip
def test_a_damaged_or_foreign_save_is_one_error_line_and_left_untouched(
    tmp_path: Path, straight_record: dict, kind: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    data = damaged_saves(straight_record)[kind].encode("utf-8", "surrogateescape")
    save.write_bytes(data)
    before = save.stat().st_mtime_ns
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert str(save) in line
    assert save.read_bytes() == data and save.stat().st_mtime_ns == before


def test_resume_errors(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    missing = tmp_path / "nothing.json"
    assert one_error_line(invoke(["--resume", str(missing)])) == f"Error: no saved game at '{missing}'"
    save = tmp_path / "game.json"
    save.write_text(json.dumps(straight_record))
    line = one_error_line(invoke(["--resume", str(save), "--seed", "3"]))
    assert line == "Error: --resume continues the saved game as it was set up: drop --seed"
    assert "drop --level" in one_error_line(invoke(["--resume", str(save), "--level", "easy"]))
    assert "drop --no-bonuses" in one_error_line(invoke(["--resume", str(save), "--no-bonuses"]))


def test_save_never_overwrites_a_foreign_file_or_an_unfinished_game(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    foreign = tmp_path / "notes.txt"
    foreign.write_text("keep me")
    line = one_error_line(invoke(["--save", str(foreign)], AUTO))
    assert line == f"Error: '{foreign}' exists and is not a saved game: choose another file"
    assert foreign.read_text() == "keep me"
    unfinished = tmp_path / "unfinished.json"
    invoke([*RESUMED, "--save", str(unfinished)], "auto\nquit\n")
    text = unfinished.read_text()
    assert "holds an unfinished game: continue it with --resume" in one_error_line(
        invoke(["--save", str(unfinished)], AUTO))
    assert unfinished.read_text() == text
    finished = tmp_path / "finished.json"
    finished.write_text(json.dumps(straight_record))
    assert invoke(["--seed", "9", *SHORT, "--save", str(finished)], "auto\nquit\n").exit_code == 0
    assert "cannot save the game to" in one_error_line(invoke(["--save", str(tmp_path / "no" / "x.json")]))
    assert "is a directory" in one_error_line(invoke(["--save", str(tmp_path)]))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = finished_one_round_game()
    path = tmp_path / "g.json"
    with pytest.raises(SaveError):
        load_game(path)
    check_save_target(path)
    save_game(path, Game(2, seed=4), [HUMAN, "easy"])
    with pytest.raises(SaveError, match="unfinished game"):
        check_save_target(path)
    loaded, labels = load_game(path)
    assert labels == (HUMAN, "easy") and loaded.seed == 4 and not loaded.over
    assert game.over
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o644  # an ordinary file, not mkstemp's private one
        fresh.chmod(0o600)
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o600  # a file's own permissions are kept
    finally:
        os.umask(umask)


def test_a_game_on_another_word_list_resumes_from_the_file_it_names(tmp_path: Path) -> None:
    words = tmp_path / "short-words.txt"
    words.write_text("\n".join(w for w in WORDS if len(w) <= 4) + "\n")
    save = tmp_path / "game.json"
    stopped = invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    assert stopped.exit_code == 0, stopped.output
    resumed = invoke(["--resume", str(save)], AUTO)  # the record names the list's file: found again
    assert resumed.exit_code == 0 and "Game over." in resumed.output
    invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    words.rename(tmp_path / "moved.txt")
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line.startswith(f"Error: cannot resume '{save}': ") and "word list" in line
    resumed = invoke(["--resume", str(save), "--wordlist", str(tmp_path / "moved.txt")], AUTO)
    assert resumed.exit_code == 0 and "Game over." in resumed.output


# -- save files handled as untrusted files -------------------------------------------


def hostile_path(kind: str, tmp_path: Path) -> Path:
    """A path that is anything but a save file to read or write."""
    return make_hostile(kind, tmp_path, "game.json", head=b'{"format": "quiddler-game/2", "notes": "')


_NOT_SAVES = ["fifo", "link to /dev/zero", "link to /dev/full", "directory", "loop of links"]


@pytest.mark.timeout(120)  # a FIFO or /dev/full used to be waited on or read forever
@pytest.mark.parametrize("kind", _NOT_SAVES)
def test_saving_to_what_is_not_a_file_is_one_error_line_before_the_game(tmp_path: Path, kind: str) -> None:
    path = hostile_path(kind, tmp_path)
    before = file_state(path)
    result = invoke(["--seed", "9", *SHORT, "--save", str(path)], AUTO)
    assert str(path) in one_error_line(result)
    assert result.stdout == ""  # refused before the first move
    assert file_state(path) == before and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero", "/dev/null"])
def test_saving_to_a_device_is_one_error_line(device: str) -> None:
    result = invoke(["--seed", "9", *SHORT, "--save", device], AUTO)
    assert one_error_line(result) == f"Error: cannot save the game to '{device}': it is a character device, " \
                                      "not a regular file"  # fmt: skip
    assert result.stdout == ""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", [*_NOT_SAVES, "100 MB file"])
def test_resuming_what_is_not_a_file_is_one_error_line_at_once(tmp_path: Path, kind: str) -> None:
    path = hostile_path(kind, tmp_path)
    before = file_state(path)
    result = invoke(["--resume", str(path)], AUTO)
    line = one_error_line(result)
    assert str(path) in line and result.stdout == ""
    assert file_state(path) == before


#: The largest save file read, as docs/play.md says (a game's record is tens of kilobytes).
SAVE_BOUND = 32 * 1024 * 1024


def test_a_save_at_the_size_bound_resumes_and_one_byte_more_is_refused_unread(tmp_path: Path,
                                                                             straight_record: dict) -> None:  # type: ignore[type-arg]  # fmt: skip
    text = json.dumps(straight_record)
    save = tmp_path / "game.json"
    for size in (SAVE_BOUND, SAVE_BOUND + 1):
        save.write_text(text + " " * (size - len(text.encode())))  # trailing blanks: still the same record
        assert save.stat().st_size == size
        result = invoke(["--resume", str(save)], "")
        if size == SAVE_BOUND:
            assert result.exit_code == 0 and "already over" in result.output, result.output
    line = one_error_line(result)
    assert line.startswith(f"Error: cannot read '{save}': ") and f"{SAVE_BOUND:,}" in line, line


def test_a_save_nested_without_end_is_one_error_line(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text('{"format": "quiddler-game/2", "rules": ' + "[" * 100_000)
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line == f"Error: '{save}' is not a saved game: JSON nested 100001 levels deep (at most 32)"


def test_a_record_nested_deep_inside_is_one_error_line(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    save = tmp_path / "game.json"
    rules = {**straight_record["rules"], "round_sizes": "DEEP"}
    text = json.dumps({**straight_record, "finished": False, "rules": rules})
    save.write_text(text.replace('"DEEP"', "[" * 5000 + "3" + "]" * 5000))
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line == f"Error: '{save}' is not a saved game: JSON nested 5002 levels deep (at most 32)"


@pytest.mark.timeout(120)  # the word list a save names used to be read however it was
def test_a_save_naming_a_fifo_as_its_word_list_is_one_error_line(tmp_path: Path, straight_record: dict, fifo: Path) -> None:  # type: ignore[type-arg]
    save = tmp_path / "game.json"
    rules = {**straight_record["rules"], "wordlist": str(fifo), "wordlist_sha256": "0" * 64}
    save.write_text(json.dumps({**straight_record, "rules": rules}))
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line.startswith(f"Error: cannot resume '{save}': the game was played with word list")


def test_a_save_in_a_folder_that_cannot_be_written_is_refused_before_the_game(unwritable_folder: Path) -> None:
    save = unwritable_folder / "game.json"
    result = invoke(["--seed", "9", *SHORT, "--save", str(save)], AUTO)
    assert one_error_line(result).startswith(f"Error: cannot save the game to '{save}': ")
    assert result.stdout == "" and list(unwritable_folder.iterdir()) == []


def test_resuming_a_save_that_cannot_be_written_back_is_refused_before_the_game(
    tmp_path: Path, unwritable_folder: Path
) -> None:
    save = tmp_path / "game.json"
    invoke([*RESUMED, "--save", str(save)], "auto\nquit\n")
    # An unfinished save in a folder that has since become unwritable:
    subprocess_chattr(unwritable_folder, "-i")
    moved = unwritable_folder / "game.json"
    save.rename(moved)
    subprocess_chattr(unwritable_folder, "+i")
    text = moved.read_text()
    result = invoke(["--resume", str(moved)], AUTO)
    assert one_error_line(result).startswith(f"Error: cannot save the game to '{moved}': ")
    assert result.stdout == "" and moved.read_text() == text
    elsewhere = tmp_path / "elsewhere.json"
    resumed = invoke(["--resume", str(moved), "--save", str(elsewhere)], AUTO)  # --save names a writable place
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(elsewhere.read_text())["finished"] and moved.read_text() == text


def subprocess_chattr(folder: Path, flag: str) -> None:
    """Undo or redo what the unwritable_folder fixture did (as root: the immutable flag; else: the mode)."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", flag, str(folder)], check=True)
    else:
        folder.chmod(0o755 if flag == "-i" else 0o555)


@pytest.mark.parametrize("option", ["--save", "--resume"])
def test_a_save_through_a_link_writes_its_target_and_keeps_the_link(tmp_path: Path, option: str) -> None:
    target = tmp_path / "saves" / "real.json"
    target.parent.mkdir()
    link = tmp_path / "game.json"
    link.symlink_to(target)
    if option == "--resume":
        invoke([*RESUMED, "--save", str(target)], "auto\nquit\n")
        first = json.loads(target.read_text())
        result = invoke(["--resume", str(link)], "auto\nauto\nquit\n")
    else:
        result = invoke([*RESUMED, "--save", str(link)], "auto\nauto\nquit\n")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    record = json.loads(target.read_text())
    assert not record["finished"]
    if option == "--resume":
        assert sum(map(len, (r["actions"] for r in record["rounds"]))) > sum(map(len, (r["actions"] for r in first["rounds"])))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "saves"]  # no lock or temporary file left


# -- two games, one save file ---------------------------------------------------------

_QUIDDLER = [sys.executable, "-m", "quiddler"]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(Path(quiddler.__file__).resolve().parent.parent))


@pytest.mark.timeout(240)
def test_a_second_game_saving_to_the_same_file_is_refused_at_its_start(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = subprocess.Popen([*_QUIDDLER, "play", *RESUMED, "--pace", "0", "--save", str(save)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())  # fmt: skip
    try:
        assert first.stdin is not None and first.stdout is not None
        first.stdin.write("auto\nauto\n")  # one whole turn: the first game saves
        first.stdin.flush()
        deadline = time.monotonic() + 150
        while not save.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert save.exists(), "the first game did not save"
        text = save.read_text()
        for args in (["--seed", "4", *SHORT, "--save", str(save)], ["--resume", str(save)]):
            second = invoke(args, AUTO)
            assert one_error_line(second) == f"Error: cannot save the game to '{save}': another game is saving " \
                                             "to it (finish that one, or choose another file)"  # fmt: skip
            assert second.stdout == "" and save.read_text() == text
        quitter = invoke(["--seed", "4", *SHORT], f"auto\nquit\nyes\n{save}\n{tmp_path / 'mine.json'}\n")
        assert "another game is saving to it" in quitter.output and quitter.exit_code == 0
        out, err = first.communicate("auto\nquit\n", timeout=180)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0, err
    assert f"Game saved to {save}." in out
    record = json.loads(save.read_text())
    assert record["seed"] == 9 and not record["finished"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "mine.json"]  # the lock file is gone


@pytest.mark.timeout(240)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_or_sighup_while_the_computer_moves_saves_the_game_and_leaves_no_lock(tmp_path: Path,
                                                                                      signum: int) -> None:  # fmt: skip
    save = tmp_path / "game.json"
    game = subprocess.Popen([*_QUIDDLER, "play", *RESUMED, "--pace", "30", "--save", str(save)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
                            start_new_session=True)  # fmt: skip
    try:
        assert game.stdin is not None
        game.stdin.write("auto\nauto\n")  # one whole turn; then the computer moves (paced: most of a second)
        game.stdin.flush()
        deadline = time.monotonic() + 150
        while not save.exists() and game.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert save.exists(), "the game did not save"
        assert (tmp_path / ".game.json.lock").exists()  # held while the game goes on
        game.send_signal(signum)
        out, err = game.communicate(timeout=120)
    finally:
        game.kill()
        game.wait()
    name = signal.Signals(signum).name
    assert game.returncode == 128 + signum, err
    assert f"Stopped by {name}: game saved to {save}." in out and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # the lock file is gone
    resumed, _ = load_game(save)
    assert not resumed.over and resumed.seed == 9


def test_a_lock_left_by_a_game_that_was_killed_does_not_block_the_next(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    (tmp_path / ".game.json.lock").write_text("")  # what a killed game leaves: the file, no lock on it
    result = invoke([*RESUMED, "--save", str(save)], "auto\nquit\n")
    assert result.exit_code == 0, result.output
    assert not json.loads(save.read_text())["finished"]


# -- a save that fails part-way leaves the previous one --------------------------------


def test_a_save_that_fails_part_way_leaves_the_previous_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    invoke([*RESUMED, "--save", str(save)], "auto\nquit\n")
    previous = save.read_bytes()
    real_fsync = os.fsync

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    result = invoke(["--resume", str(save)], "auto\nauto\nauto\n")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert "No space left on device (the game goes on" in result.output
    assert "End of input: cannot save the game to" in result.output
    assert save.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file left
    assert invoke(["--resume", str(save)], AUTO).exit_code == 0  # the previous save resumes


_LIMITED = """
import resource, sys
size = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
from quiddler.cli import main
main(["play", "--resume", sys.argv[2], "--pace", "0"])
"""


@pytest.mark.timeout(240)
def test_a_save_over_a_file_size_limit_leaves_the_previous_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    invoke([*RESUMED, "--save", str(save)], "auto\nquit\n")
    previous = save.read_bytes()
    limit = str(len(previous) + 20)  # the next save, one move longer, does not fit
    done = subprocess.run([sys.executable, "-c", _LIMITED, limit, str(save)], input="auto\nauto\nquit\nno\n",
                          capture_output=True, text=True, env=_env(), timeout=200, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "File too large" in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert save.read_bytes() == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize("name", ["a\0b.json", "x" * 5000, "d/" + "y" * 300 + "/g.json", ""])
def test_a_save_name_that_no_file_can_have_is_a_save_error_with_a_short_message(tmp_path: Path, name: str) -> None:
    game = Game(2, seed=4)
    for attempt in (lambda p: check_save_target(p), lambda p: save_game(p, game, [HUMAN, "easy"]),
                    lambda p: load_game(p)):  # fmt: skip
        with pytest.raises(SaveError) as caught:
            attempt(tmp_path / name if name else Path(name))
        message = str(caught.value)
        assert len(message) < 1000 and "\0" not in message  # a 5,000-character name is cut
