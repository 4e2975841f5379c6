"""The command line at its limits: huge options, big hands, output that
cannot be written, a closed input, Ctrl-C, byte-order marks."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time

import pytest

from quiddler import solve
from quiddler.cli import solve as solve_command
from quiddler.solver.core import MAX_BONUS

from .helpers import assert_one_error_line, run, run_process

DISTINCT_20 = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c,h,y,er,th"



# -- --top of any size ---------------------------------------------------------


@pytest.mark.parametrize("top", ["1000000000", "100000000000000000000"])
def test_huge_top_lists_every_play(top):
    result = run("solve", "a,b", "--top", top, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["plays"] == solve("a,b", top=10).to_dict()["plays"]


def test_huge_top_in_a_batch_keeps_going():
    result = run("solve", "--batch", "-", "--top", "100000000000000000000", input="a,b\nq,zz\nc,a,t\n")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3] and "error" in records[1]
    assert records[2]["plays"] == solve("c,a,t", top=100).to_dict()["plays"]


# -- big hands -----------------------------------------------------------------


def test_a_big_search_uses_the_compiled_backend(monkeypatch):
    backends: list[str] = []

    def recording_solve(*args: object, backend: str, **kwargs: object) -> object:
        backends.append(backend)
        return solve(*args, backend=backend, **kwargs)

    monkeypatch.setattr(solve_command, "solve_hand", recording_solve)
    assert run("solve", "d,cl,o,g,a,b,er,in,n,y,s", "--discard").exit_code == 0
    assert run("solve", DISTINCT_20, "--discard").exit_code == 0
    assert run("solve", "a,e,r,s,t,l,n,i,o,d,g,p", "--top", "2").exit_code == 0
    assert backends == ["python", "numba", "numba"]


def test_a_search_over_the_memory_bound_is_one_error_line(monkeypatch):
    monkeypatch.setenv("QUIDDLER_MAX_MEMORY_MB", "16")
    result = run("solve", DISTINCT_20, "--discard", "--beat-longest", "20", "--beat-words", "8")
    assert_one_error_line(result, 2, "over the limit of 16 MB", "QUIDDLER_MAX_MEMORY_MB")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_long_work_shows_a_progress_line_on_a_terminal(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(solve_command, "PROGRESS_AFTER_SECONDS", 0.0)

    def work_until_the_line_shows() -> int:
        deadline = time.monotonic() + 120
        while "(Ctrl-C stops)" not in terminal.getvalue():
            assert time.monotonic() < deadline, "no progress line in 2 minutes"
            time.sleep(0.01)
        return 42

    assert solve_command._with_progress("solving 20 cards", work_until_the_line_shows) == 42
    shown = terminal.getvalue()
    assert re.search(r"\rsolving 20 cards\.\.\. \d+ s \(Ctrl-C stops\)", shown), shown
    assert shown.endswith("\r\033[K")  # the line is cleared at the end


def test_progress_is_silent_off_a_terminal_and_passes_errors_on(monkeypatch):
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    monkeypatch.setattr(solve_command, "PROGRESS_AFTER_SECONDS", 0.0)
    with pytest.raises(ZeroDivisionError):
        solve_command._with_progress("solving", lambda: time.sleep(0.3) or 1 // 0)
    assert quiet.getvalue() == ""


# -- numbers in range ------------------------------------------------------------


def test_huge_bonus_is_one_error_line():
    result = run("solve", "--batch", "-", "--bonus", str(10**20), input="a,b\n")
    assert_one_error_line(result, 2, "--bonus", f"{MAX_BONUS}")
    assert result.stdout == ""


def test_huge_targets_are_fine():
    result = run("solve", "q,u,i,t", "--beat-longest", str(10**20), "--beat-words", str(10**20), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout) == solve("q,u,i,t", beat_longest=99).to_dict()


# -- word lists with words no hand can lay down -----------------------------------


def test_unplayable_words_are_one_warning_line(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("cat\n" + "in" * 22 + "\n")
    result = run("check", "in" * 22, "cat", "--wordlist", str(path))
    assert result.exit_code == 0
    warning = (f"warning: word list {path}: 1 word needs more than 20 cards and can never be played "
               "(such as 'inininininininininininininini...' (44 characters)); the solver skips them")
    assert result.stderr.splitlines() == [warning]
    assert f"{'in' * 22}: in the list, but needs more than 20 cards: can never be played" in result.stdout


# -- output errors ---------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", ["solve a,t", "solve a,t --json", "words c,a,t", "check cat",
                                  "solve --batch - < /dev/null"])  # fmt: skip
def test_a_full_disk_is_one_error_line(args):
    done = run_process(f"{args} > /dev/full")
    if "batch" in args:  # nothing to write: nothing fails
        assert done.returncode == 0 and done.stderr == ""
        return
    assert done.returncode == 1
    assert done.stderr == "Error: input/output error: No space left on device\n"


def test_a_closed_standard_input_is_one_error_line():
    done = run_process("solve --batch - <&-")
    assert done.returncode == 2
    assert done.stderr == "Error: Invalid value for '--batch': standard input is closed\n"


# -- byte-order marks, empty words, Ctrl-C, huge tokens ---------------------------


def test_a_batch_file_may_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_bytes("\ufeffa,t\nc,a,t\n".encode())
    result = run("solve", "--batch", str(path))
    assert result.exit_code == 0, result.stdout
    assert [json.loads(line)["line"] for line in result.stdout.splitlines()] == [1, 2]
    assert run("solve", "--batch", "-", input="\ufeffa,t\n").exit_code == 0


@pytest.mark.parametrize("words", [[""], ["cat", "  "]])
def test_check_of_an_empty_word_is_an_input_error(words):
    assert_one_error_line(run("check", *words), 2, "WORD", "empty word")


@pytest.mark.parametrize("args", [["solve", "a,b"], ["words", "a,b"], ["check", "ab"]])
def test_ctrl_c_outside_a_batch_exits_130_quietly(monkeypatch, args):
    def interrupted(*_: object, **__: object) -> object:
        raise KeyboardInterrupt

    for name in ("solve_hand", "find_words", "default_wordlist"):
        monkeypatch.setattr(solve_command, name, interrupted)
    result = run(*args)
    assert result.exit_code == 130
    assert result.stderr == "" and "Aborted" not in result.stdout


def test_a_huge_bad_token_is_shortened():
    result = run("solve", "a," + "z" * 100_000)
    assert_one_error_line(result, 2, "unknown card", "(100,000 characters)")
    assert len(result.stderr) < 200


def test_simulate_log_to_a_folder_is_an_input_error(tmp_path):
    result = run("simulate", "--games", "1", "--seed", "1", "--log", str(tmp_path))
    assert_one_error_line(result, 2, "is a directory")
