"""No line typed at any prompt ends a game: bytes that are not text, digits
``int()`` refuses, file names no file can have; and the commands of every
prompt (help, hint, score, table, auto, quit) work at the follow-up
questions too (which spelling, which discard, whether and where to save)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from quiddler.cards import Card
from quiddler.game import Game, Rules
from quiddler.game.rules import RoundScore
from quiddler.game.state import Draw, GoOut, RoundResult
from quiddler.play import render
from quiddler.play.commands import HintRequest, parse
from quiddler.play.saves import HUMAN
from quiddler.play.screen import Screen
from quiddler.play.spelling import match_words
from quiddler.solver.types import Word

from .helpers import AUTO, WORDS, Script, cards, invoke, plain, run_session


def run_cli(args: list[str], data: bytes):  # type: ignore[no-untyped-def]
    """``quiddler play`` with stdin given as bytes (click's runner decodes them strictly as UTF-8)."""
    return invoke(args, io.BytesIO(data))  # type: ignore[arg-type]


def test_bytes_that_are_not_utf8_are_asked_again_and_the_moves_around_them_count() -> None:
    result = run_cli(["--seed", "3", "--rounds", "1"], b"p\n\xff\xfe\n" + b"auto\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "codec" not in result.output + result.stderr
    assert "You draw from the pile" in result.output  # the line before the bad one was played
    assert "that line is not UTF-8 text" in result.output
    assert "Game over." in result.output  # and the lines after it too


def test_bytes_that_are_not_utf8_at_the_save_questions_are_asked_again(tmp_path: Path) -> None:
    save = tmp_path / "kept.json"
    data = b"quit\n\xc3\n" + b"yes\n" + b"\x80name\n" + str(save).encode() + b"\n"
    result = run_cli(["--seed", "3"], data)
    assert result.exit_code == 0, result.output
    assert result.output.count("that line is not UTF-8 text") == 2
    assert json.loads(save.read_text())["finished"] is False  # the game is kept


def test_a_utf8_locale_that_decodes_strictly_still_keeps_the_lines() -> None:
    """The screen itself makes a strict text stdin keep undecodable bytes."""
    raw = io.BytesIO(b"one\n\xff\ntwo\n")
    stdin = io.TextIOWrapper(raw, encoding="utf-8", errors="strict")
    out = io.StringIO()
    screen = Screen(plain=True, echo_input=True, stdin=stdin, stdout=out)
    assert screen.ask("First") == "one"
    assert screen.ask("Second") == "two"
    assert "that line is not UTF-8 text" in out.getvalue()


def test_a_line_too_long_to_hold_is_skipped_and_explained() -> None:
    from quiddler.play.screen import MAX_LINE

    stdin = io.StringIO("p\n" + "x" * (5 * MAX_LINE + 7) + "\n" + "quit\n" + "no\n")
    out = io.StringIO()
    screen = Screen(plain=True, echo_input=True, stdin=stdin, stdout=out)
    assert screen.ask("First") == "p"
    assert screen.ask("Second") == "quit"
    assert f"that line is over {MAX_LINE:,} characters long" in out.getvalue()
    assert len(out.getvalue()) < 1000


# -- a final turn whose words are spelled two ways: the follow-up questions -----------------


def final_turn_game() -> Game:
    """A one-round game at the person's final turn draw (hands set directly:
    test only): Ada went out with qua and discarded th; the person holds
    t, h, e, so taking the th lets ``the`` be spelled t-h-e or th-e."""
    game = Game(2, seed=3, rules=Rules(round_sizes=(3,)))
    game._hands = [list(cards("t,h,e")), list(cards("q,u,a"))]
    game.apply(Draw(1, "pile"))  # seat 1 plays first
    game._hands[1] = list(cards("q,u,a,th"))
    game.apply(GoOut(1, (Word("qua", cards("q,u,a")),), Card("th")))
    return game


def the_choices() -> tuple[int, int]:
    """The numbers of the two ways to lay down ``the``: (discard fixed, discard asked)."""
    matches = match_words(["the"], cards("t,h,e,th"), WORDS, mode="lay-down")
    fixed = next(i for i, m in enumerate(matches, 1) if m.discard is not None)
    return fixed, 3 - fixed


def play_final(lines: list[str]) -> tuple[int, str, Game]:
    game = final_turn_game()
    queue = ["d", *lines]
    script = Script(lambda g: [queue.pop(0)] if queue else [])
    status, out = run_session(game, [HUMAN, "expert"], script)
    return status, out, game


def test_digits_that_are_not_numbers_and_other_junk_are_asked_again() -> None:
    fixed, _ = the_choices()
    status, out, game = play_final(["the", "²", "٣", "1" * 30, "0", "", str(fixed)])
    assert status == 0 and game.over
    assert out.count("type a number from 1 to 2, or cancel") == 5
    assert "'²'" in out and "Traceback" not in out


@pytest.mark.parametrize("command", ["score", "table", "hint", "hint all", "help", "?"])
def test_commands_work_at_the_which_spelling_and_which_discard_questions(command: str) -> None:
    _, asked = the_choices()
    status, out, game = play_final(["the", command, str(asked), command, "h"])
    assert status == 0 and game.over, out
    told = out.count("type one of") + out.count("type a number")
    assert told == out.count("To answer: type")  # only in the help: the command was never taken for an answer
    marker = {"score": "total", "table": "Discard pile:", "hint": "Hint:", "hint all": "Hint:",
              "help": "To answer: type", "?": "To answer: type"}[command]  # fmt: skip
    after = out.split(f"> {command}\n")[1:]
    assert len(after) == 2
    for text, question in zip(after, ("Which one", "Discard which card")):
        shown = text.partition("> ")[0]
        assert marker in shown and shown.splitlines()[-1].startswith(question)  # then the same question again
    assert "You lay down the [t h e]" in out or "You lay down the [th e]" in out


def test_auto_at_a_follow_up_question_plays_the_recommended_move() -> None:
    status, out, game = play_final(["the", "auto"])
    assert status == 0 and game.over
    assert "Which one" in out and "type a number" not in out
    assert game.history[-1].scores[0].words  # the expert laid words down


def test_quit_at_a_follow_up_question_offers_to_save_and_cancel_comes_back() -> None:
    fixed, _ = the_choices()
    status, out, game = play_final(["the", "quit", "quit", "cancel", "the", str(fixed)])
    assert status == 0 and game.over
    assert "Save the game before you quit?" in out and "you are quitting already" in out
    assert "Cancelled." in out


# -- where to save: names no file can have -------------------------------------------------


@pytest.mark.parametrize("bad", ["a\x00b", "x" * 5000, "tab\there", "score"])
def test_a_file_name_no_file_can_have_is_asked_again(tmp_path: Path, bad: str) -> None:
    save = tmp_path / "game.json"
    answers = ["quit", "yes", bad, str(save)]
    game = Game(2, seed=4)
    status, out = run_session(game, [HUMAN, "medium"], Script(lambda g: [answers.pop(0)] if answers else []))
    assert status == 0, out
    assert "Game saved to" in out and json.loads(save.read_text())["finished"] is False
    assert "Traceback" not in out
    assert out.count("Save to which file") == 2
    if bad == "score":  # a command word is the command, even here: the score sheet, and the question again
        assert re.search(r"> score\nround +cards", out)
        assert not (Path.cwd() / "score").exists()


def test_a_long_file_name_does_not_flood_the_screen(tmp_path: Path) -> None:
    answers = ["quit", "yes", "y" * 5000, "cancel", "quit", "no"]
    status, out = run_session(Game(2, seed=4), [HUMAN, "medium"],
                              Script(lambda g: [answers.pop(0)] if answers else []))  # fmt: skip
    assert status == 0
    assert max(len(line) for line in out.splitlines() if "y" * 50 not in line) < 300
    problem = next(line for line in out.splitlines() if "too long" in line)
    assert "5,000 characters" in problem and "y" * 100 not in problem


def test_a_huge_token_at_the_move_prompt_is_named_briefly() -> None:
    answers = ["z" * 10_000, "quit", "no"]
    status, out = run_session(Game(2, seed=4), [HUMAN, "medium"],
                              Script(lambda g: [answers.pop(0)] if answers else []))  # fmt: skip
    assert status == 0
    problems = [line for line in out.splitlines() if "zzz" in line and "> " not in line]
    assert problems and all(len(line) < 200 for line in problems)


# -- hint all ----------------------------------------------------------------------------------


def test_hint_all_shows_every_option() -> None:
    assert parse("hint all", "end") == HintRequest(all=True)
    assert parse("hint", "final") == HintRequest()
    game = Game(2, seed=1, rules=Rules(round_sizes=(8,)))  # a hand that cannot go out: nine discards
    seen: list[str] = []

    def answer(g: Game) -> list[str]:
        if seen:
            return ["quit", "no"]
        seen.append("asked")
        return ["p", "hint", "hint all"]

    status, out = run_session(game, ["medium", HUMAN], Script(answer))
    assert status == 0
    more = re.search(r"\((\d+) more options not shown: hint all shows them\)", out)
    assert more is not None
    after = out.split("> hint all")[1].split("> ")[0]
    assert "not shown" not in after
    rows = [line for line in after.splitlines() if re.match(r"\s*\d+\s+(discard|go out)", line)]
    assert len(rows) == 5 + int(more.group(1))


# -- what the screen says ----------------------------------------------------------------------


def test_the_zero_floor_is_said_when_it_applies() -> None:
    bad = RoundScore((), cards("q,z"))  # -29
    good = RoundScore((Word("ax", cards("a,x")),), ())
    result = RoundResult(round=2, cards=3, dealer=0, went_out=1, scores=(bad, good), totals=(0, 14))
    text = "\n".join(plain(render.round_summary(result, ["You", "Ada"], 0, before=(14, 0))))
    assert "A total never goes below zero: You 14 -29 = -15, kept at 0." in text
    quiet = "\n".join(plain(render.round_summary(result, ["You", "Ada"], 0, before=(29, 0))))
    assert "below zero" not in quiet  # 29 - 29 = 0: no floor applied
    first = RoundResult(round=1, cards=3, dealer=1, went_out=1, scores=(good, good), totals=(14, 14))
    sheet = "\n".join(plain(render.score_sheet([first, result], ["You", "Ada"], 0, (0, 28))))
    assert "A total never goes below zero" in sheet
    assert "below zero" not in "\n".join(plain(render.score_sheet([first], ["You", "Ada"], 0, (14, 14))))


def test_a_finished_game_resumed_does_not_promise_to_save_after_each_turn(tmp_path: Path) -> None:
    save = tmp_path / "done.json"
    assert invoke(["--seed", "2", "--rounds", "1", "--save", str(save)], AUTO).exit_code == 0
    result = invoke(["--resume", str(save)], "")
    assert result.exit_code == 0
    assert "after each of your turns" not in result.output
    assert "already over" in result.output and "Game over." in result.output


@pytest.mark.parametrize("opponents", [1, 3, 7])
def test_the_table_is_paced_as_a_whole(monkeypatch: pytest.MonkeyPatch, opponents: int) -> None:
    """The pauses between two of the person's prompts add up to at most TABLE_PACE seconds."""
    from quiddler.play import screen as screen_module

    slept: list[float] = []
    monkeypatch.setattr(screen_module.time, "sleep", lambda seconds: slept.append(seconds))
    between: list[float] = []

    def answer(g: Game) -> list[str]:
        between.append(sum(slept))
        slept.clear()
        return ["auto"] if len(between) < 12 else ["quit", "no"]

    game = Game(opponents + 1, seed=5, rules=Rules(round_sizes=(3, 4)))
    script = Script(answer)
    script.game = game
    out = io.StringIO()
    screen = Screen(plain=True, pace=0.8, echo_input=True, stdin=script, stdout=out)  # type: ignore[arg-type]
    from quiddler.play.session import Session

    labels: list[str] = [HUMAN] + ["easy"] * opponents
    assert Session(game, labels, screen).run() == 0
    assert max(between) <= screen_module.TABLE_PACE + 1e-9
    assert max(between) > 0  # the computer players are still paced
    if opponents == 1:
        assert max(between) == pytest.approx(1.5)  # two moves of 0.75 s


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(("options", "named"), [
    (["--round-sizes", "20"], "a round of 20 cards is too large"),
    (["--round-sizes", "3,25"], "a round of 25 cards is too large"),
    (["--round-sizes", "1"], "at least 2 cards, not 1"),
])  # fmt: skip
def test_options_that_make_an_impossible_game_are_refused_before_it_starts(
    command: str, options: list[str], named: str
) -> None:
    from click.testing import CliRunner

    from quiddler.cli import main

    extra = ["--games", "1"] if command == "simulate" else []
    result = CliRunner().invoke(main, [command, *options, *extra], input=AUTO)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and named in lines[0]
    assert "Round 1" not in result.output  # refused before the game started
