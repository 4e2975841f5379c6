"""Known answers: 128 hands solved on ENABLE by an independent solver."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from quiddler import default_wordlist, parse_hand, solve

KNOWN = [json.loads(line) for line in (Path(__file__).parent.parent / "data" / "known_hands.jsonl").open()]


def test_the_file_is_complete():
    assert len(KNOWN) == 128
    assert Counter(row["mode"] for row in KNOWN) == {"keep": 64, "discard": 64}
    for row in KNOWN:
        assert row["can_go_out"] == (row["go_out_score"] is not None)
        assert row["go_out_score"] is None or row["go_out_score"] <= row["score"]


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("row", KNOWN, ids=lambda row: f"{row['mode']}:{','.join(row['hand'])}")
def test_known_hand(backend, row):
    hand = parse_hand(row["hand"])
    discard = row["mode"] == "discard"
    solution = solve(hand, discard=discard, backend=backend)
    assert solution.best.score == row["score"]
    assert solution.can_go_out == row["can_go_out"]
    if row["can_go_out"]:
        assert solution.best_go_out.score == row["go_out_score"]
        assert solution.best_go_out.goes_out
    words = default_wordlist()
    for play in filter(None, (solution.best, solution.best_go_out)):
        assert Counter(play.cards) == Counter(hand)
        assert (play.discard is not None) == discard
        assert all(w.text in words and len(w.cards) >= 2 for w in play.words)


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_the_eleven_card_example_goes_out_with_every_card(backend):
    hand = parse_hand("d,cl,o,g,a,b,er,in,n,y,s")
    solution = solve(hand, backend=backend)
    assert (solution.best.score, solution.best.goes_out) == (59, True)
    assert sorted(card for word in solution.best.words for card in word.cards) == sorted(hand)
    assert solve(hand, discard=True, backend=backend).best.score == 57
