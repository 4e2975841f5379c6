"""``quiddler words``: every spelling a hand makes, sorted and filtered, as text and JSON."""

from __future__ import annotations

import json

from quiddler import find_words

from .helpers import HAND, row, run, run_json


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
