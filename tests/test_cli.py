"""The command line, through click's CliRunner: stdout, stderr and exit codes
separately, JSON checked against the library's own answers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

import quiddler
from quiddler import cli, find_words, load_wordlist, solve

HAND = "d,cl,o,g,a,b,er,in,n,y,s"
REPO = Path(quiddler.__file__).resolve().parent.parent


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.main, list(args), input=input, catch_exceptions=False)


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def row(word: str, cards: str, points: int) -> re.Pattern[str]:
    """A printed word row: the word, its cards, its points, blanks between."""
    return re.compile(rf"^\s+{word}\s+{re.escape(cards)}\s+{points}$", re.MULTILINE)


def assert_input_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


# -- solve -----------------------------------------------------------------------


def test_solve_prints_the_best_play() -> None:
    expected = solve(HAND, discard=True)
    result = run("solve", HAND, "--discard")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert out.startswith(f"hand: {HAND} (11 cards, discard one)\n")
    assert expected.best.words
    for word in expected.best.words:
        assert row(word.text, ",".join(c.face for c in word.cards), word.points).search(out), out
    assert f"discard: {expected.best.discard.face}" in out
    assert re.search(rf"^  score: {expected.best.score}, goes out$", out, re.MULTILINE), out
    assert "unused: none" in out
    assert "cannot go out" not in out


def test_solve_without_discard_has_no_discard_line() -> None:
    expected = solve(HAND)
    out = run("solve", HAND).stdout
    assert "discard" not in out
    assert f"score: {expected.best.score}," in out


def test_solve_json_is_the_library_solution() -> None:
    assert run_json("solve", HAND, "--discard") == solve(HAND, discard=True).to_dict()
    data = run_json("solve", HAND)
    assert data == solve(HAND).to_dict()
    assert set(data) >= {"cards", "discard_required", "can_go_out", "best", "best_go_out", "plays"}
    assert set(data["best"]) >= {
        "score",
        "goes_out",
        "discard",
        "words",
        "unused",
        "longest_word",
        "word_count",
    }


def test_several_card_arguments_make_one_hand() -> None:
    expected = solve("qu,i,th,er,a").to_dict()
    assert run_json("solve", "qu,i", "th", "er,", "a") == expected
    assert run_json("solve", "QU I TH ER A") == expected


def test_solve_shows_the_best_going_out_play_when_it_differs() -> None:
    hand = "z,t,r,o,y,e"
    expected = solve(hand, discard=True)
    assert expected.best_go_out is not None and expected.best_go_out != expected.best  # the premise
    out = run("solve", hand, "--discard").stdout
    best, _, going_out = out.partition("best play that goes out:")
    assert f"score: {expected.best.score}, does not go out" in best
    assert f"score: {expected.best_go_out.score}, goes out" in going_out
    for word in expected.best_go_out.words:
        assert row(word.text, ",".join(c.face for c in word.cards), word.points).search(going_out)


def test_solve_says_when_a_hand_cannot_go_out() -> None:
    result = run("solve", "x,z,q", "--discard")
    assert result.exit_code == 0
    assert "no words" in result.stdout and "cannot go out" in result.stdout
    assert re.search(r"unused: \S+ \(-\d+\)", result.stdout)
    data = run_json("solve", "x,z,q", "--discard")
    assert data["best_go_out"] is None and data["can_go_out"] is False


def test_top_lists_the_k_best_plays() -> None:
    data = run_json("solve", "qu,i,th,er,a", "--top", "3")
    assert data == solve("qu,i,th,er,a", top=3).to_dict()
    assert len(data["plays"]) == 3
    out = run("solve", "qu,i,th,er,a", "--top", "3").stdout
    assert [line for line in out.splitlines() if line.startswith("play ")] == [
        "play 1:",
        "play 2:",
        "play 3:",
    ]


@pytest.mark.parametrize(
    "options, kwargs",
    [
        (["--beat-longest", "5"], {"beat_longest": 5}),
        (["--beat-words", "1"], {"beat_words": 1}),
        (
            ["--beat-longest", "3", "--beat-words", "2", "--bonus", "15"],
            {"beat_longest": 3, "beat_words": 2, "bonus": 15},
        ),
    ],
)
def test_bonus_targets_reach_the_solver(options: list[str], kwargs: dict) -> None:
    expected = solve(HAND, discard=True, **kwargs)
    assert expected.best.bonus > 0  # the targets are reachable, so the option matters
    assert run_json("solve", HAND, "--discard", *options) == expected.to_dict()
    out = run("solve", HAND, "--discard", *options).stdout
    assert f"score: {expected.best.score} including {expected.best.bonus} bonus" in out


def test_wordlist_option(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("Cat\nact\ntac\nat\n\n")
    data = run_json("solve", "c,a,t,s", "--wordlist", str(path))
    assert data == solve("c,a,t,s", wordlist=load_wordlist(path)).to_dict()
    assert data["best"]["words"][0]["word"] in {"cat", "act", "tac"}
    assert data != solve("c,a,t,s").to_dict()  # not the default list


# -- bad input -----------------------------------------------------------------


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["solve", "qu,zz"], ["Invalid value for CARDS: unknown card: 'zz'"]),
        (["solve", "qu,,i"], ["empty card"]),
        (["solve", " "], ["empty hand"]),
        (["solve"], ["missing CARDS"]),
        (["solve", ",".join(["a"] * 21)], ["21 cards", "too large"]),
        (["solve", "a,b", "--top", "0"], ["--top"]),
        (["solve", "a,b", "--top", "many"], ["--top"]),
        (["solve", "a,b", "--beat-longest", "-1"], ["--beat-longest"]),
        (["solve", "a,b", "--beat-words", "-1"], ["--beat-words"]),
        (["solve", "a,b", "--bonus", "-5"], ["--bonus"]),
        (["solve", "a,b", "--wordlist", "/no/such/list.txt"], ["--wordlist", "not found"]),
        (["solve", "a,b", "--frob"], ["--frob"]),
        (["solve", "a,b", "--batch", "/no/such/hands.txt"], ["--batch"]),
        (["solve", "--batch", "-", "a,b"], ["not both"]),
        (["words", "a,zz"], ["unknown card: 'zz'"]),
        (["words"], ["CARDS"]),
        (["words", "a,b", "--sort", "random"], ["--sort"]),
        (["words", "a,b", "--min-letters", "-1"], ["--min-letters"]),
        (["check"], ["WORD"]),
        (["nosuchcommand"], ["nosuchcommand"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], fragments: list[str]) -> None:
    assert_input_error(run(*args), *fragments)


@pytest.mark.parametrize(
    "content, fragment",
    [(b"", "empty"), (b"cat\nd-og\n", "line 2"), (b"\xff\xfe\n", "UTF-8")],
)
@pytest.mark.parametrize("command", [["solve", "c,a,t"], ["words", "c,a,t"], ["check", "cat"]])
def test_bad_word_lists_are_input_errors(
    tmp_path: Path, content: bytes, fragment: str, command: list[str]
) -> None:
    path = tmp_path / "words.txt"
    path.write_bytes(content)
    assert_input_error(run(*command, "--wordlist", str(path)), "--wordlist", fragment)


def test_a_directory_is_not_a_word_list(tmp_path: Path) -> None:
    assert_input_error(run("check", "cat", "--wordlist", str(tmp_path)), "directory")


# -- batch -----------------------------------------------------------------------


BATCH = (
    textwrap.dedent("""\
    # hands for the batch test
    d,cl,o,g,a,b,er,in,n,y,s

    qu, i, th, er   # a comment after a hand
    q,zz,a
    """)
    + ",".join(["e"] * 21)
    + "\nx,z,q\n"
)


def batch_records(stdout: str) -> list[dict]:
    lines = stdout.splitlines()
    assert all(line.startswith("{") for line in lines)
    return [json.loads(line) for line in lines]


def test_batch_solves_good_lines_and_reports_bad_ones(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(BATCH)
    result = run("solve", "--batch", str(path), "--discard", "--beat-longest", "6")
    assert result.exit_code == 1
    assert result.stderr == ""
    records = batch_records(result.stdout)
    assert [r["line"] for r in records] == [2, 4, 5, 6, 7]
    for record, hand in zip([records[0], records[1], records[4]], [HAND, "qu,i,th,er", "x,z,q"]):
        expected = solve(hand, discard=True, beat_longest=6).to_dict()
        assert {k: v for k, v in record.items() if k != "line"} == expected
    assert records[2] == {"line": 5, "error": "unknown card: 'zz'"}
    assert (
        records[3]["line"] == 6
        and "too large" in records[3]["error"]
        and set(records[3]) == {"line", "error"}
    )


def test_batch_from_stdin_with_only_good_lines_exits_0() -> None:
    result = run("solve", "--batch", "-", "--top", "2", input="qu,i,th,er,a\n\na b\n")
    assert result.exit_code == 0 and result.stderr == ""
    records = batch_records(result.stdout)
    assert [r["line"] for r in records] == [1, 3]
    assert records[0]["plays"] == solve("qu,i,th,er,a", top=2).to_dict()["plays"]
    assert records[1]["best"] == solve("a,b").best.to_dict()


def test_batch_uses_the_auto_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    # auto: pure Python until loading numba pays off (tests/test_backends.py)
    backends: list[str] = []

    def recording_solve(*args: object, backend: str, **kwargs: object) -> object:
        backends.append(backend)
        return solve(*args, backend=backend, **kwargs)

    monkeypatch.setattr(cli, "solve", recording_solve)
    result = run("solve", "--batch", "-", input="a,b\nq,u,e,e,n\nd,o,g\n")
    assert backends == ["auto"] * 3 and result.exit_code == 0


def test_ctrl_c_during_a_batch_exits_130_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def interrupted_solve(*args: object, **kwargs: object) -> object:
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return solve(*args, **kwargs)

    monkeypatch.setattr(cli, "solve", interrupted_solve)
    result = run("solve", "--batch", "-", input="a,b\nd,o,g\nq,u,e,e,n\n")
    assert result.exit_code == 130
    assert result.stderr == ""
    assert [r["line"] for r in batch_records(result.stdout)] == [1]


# -- words ---------------------------------------------------------------------


def test_words_lists_every_spelling() -> None:
    expected = find_words("qu,e,e,n,s")
    result = run("words", "qu,e,e,n,s")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{len({w.text for w in expected})} words, {len(expected)} spellings")
    assert len(lines) == 1 + len(expected)
    for word, line in zip(expected, lines[1:]):  # best first, as the library orders them
        assert row(word.text, ",".join(c.face for c in word.cards), word.points).match(line), line


def test_words_json_min_letters_and_sort_by_length() -> None:
    data = run_json("words", HAND, "--min-letters", "4", "--sort", "length")
    expected = [w for w in find_words(HAND) if w.letters >= 4]
    assert expected and len(expected) < len(find_words(HAND))  # the filter matters
    assert data["cards"] == HAND.split(",")
    assert sorted(map(json.dumps, data["words"])) == sorted(
        json.dumps({**w.to_dict(), "letters": w.letters}) for w in expected
    )
    letters = [w["letters"] for w in data["words"]]
    assert letters == sorted(letters, reverse=True) and min(letters) >= 4
    assert len(set(letters)) > 1  # so the order was tested


def test_words_sorted_by_points_by_default() -> None:
    points = [w["points"] for w in run_json("words", HAND)["words"]]
    assert points == sorted(points, reverse=True) and len(set(points)) > 1


# -- check ---------------------------------------------------------------------


def test_check_shows_every_spelling_with_points() -> None:
    result = run("check", "queen", "QUEST")
    assert result.exit_code == 0 and result.stderr == ""
    assert "queen: in the list, 2 spellings" in result.stdout
    assert row("queen", "qu,e,e,n", 18).search(result.stdout)
    assert row("queen", "q,u,e,e,n", 28).search(result.stdout)
    assert "quest: in the list" in result.stdout


def test_check_a_word_not_in_the_list_exits_1() -> None:
    result = run("check", "quee", "in")
    assert result.exit_code == 1 and result.stderr == ""
    assert "quee: not in the list" in result.stdout
    assert "in: in the list, 1 spelling" in result.stdout and row("in", "i,n", 7).search(result.stdout)


def test_check_json() -> None:
    result = run("check", "thin", "xq", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    wordlist = quiddler.default_wordlist()
    assert data == {
        "words": [
            {"word": "thin", "in_list": True,
             "spellings": [quiddler.Word("thin", s).to_dict() for s in wordlist.spellings("thin")]},
            {"word": "xq", "in_list": False, "spellings": []},
        ]
    }  # fmt: skip
    assert len(data["words"][0]["spellings"]) == 4  # t,h,i,n / th,i,n / t,h,in / th,in


def test_check_a_listed_word_that_needs_one_card(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("a\nab\n")
    result = run("check", "a", "ab", "--wordlist", str(path))
    assert result.exit_code == 0
    assert "a: in the list, but no spelling uses two or more cards" in result.stdout
    assert row("ab", "a,b", 10).search(result.stdout)


# -- the group -----------------------------------------------------------------


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
    @click.group(cls=cli.QuiddlerGroup, lazy_commands=lazy)
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


def test_main_offers_play_simulate_hint_and_odds_lazily() -> None:
    assert cli.main.lazy_commands == {
        "hint": "quiddler.game.hint_cli:hint_command",
        "odds": "quiddler.odds_cli:odds",
        "play": "quiddler.play.cli:play",
        "simulate": "quiddler.game.cli:simulate",
        "serve": "quiddler.cli_serve:serve",
    }
    assert {"play", "simulate", "hint", "odds"} <= set(cli.main.list_commands(click.Context(cli.main)))


# -- start-up ------------------------------------------------------------------


def test_single_commands_import_neither_numba_nor_the_game(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("a,b\nq,u,e,e,n\n")
    script = textwrap.dedent(f"""
        import sys
        from quiddler.cli import main
        for args in (["solve", {HAND!r}, "--discard"], ["solve", "qu,i,th,er,a", "--top", "2"],
                     ["words", "qu,e,e,n"], ["check", "queen"], ["solve", "--batch", {str(hands)!r}]):
            assert main(args, standalone_mode=False) in (None, 0), args
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "numpy")
                       or m.startswith("quiddler.game"))
        print("HEAVY", heavy)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "score: 57, goes out" in done.stdout  # the commands really ran
    assert done.stdout.splitlines()[-1] == "HEAVY []"
