"""``quiddler check``: whether words are in the list, each spelling with its
points, and exit code 1 for a word that is not."""

from __future__ import annotations

import json
from pathlib import Path

import quiddler

from .helpers import row, run


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
