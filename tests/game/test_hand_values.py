"""A decision's hand values, read off the tables of the scorer's pairs,
are what the formula gives: the going-out score plus the premium where
the hand can go out (and may), else the best score, of the premium's own
type (a premium of 2 adds an int, of 2.0 a float)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from quiddler.game import Game
from quiddler.game.ai import EXPERT, _Position


@pytest.mark.parametrize("may_out", [True, False])
def test_going_values_are_the_formulas(may_out: bool) -> None:
    game = Game(2, seed=0)
    view = game.view(game.turn)
    hand = list(view.hand)
    for premium in (2.0, 2, 0.0):  # 2 after 2.0: the two are one dict key, not one table
        pos = _Position(view, replace(EXPERT, out_premium=premium), explain=False)
        values, outs = pos.going_values([hand], pos.faces, may_out)
        scored = pos.scorer.scores_plus([hand], pos.faces, discard=True)
        expected = [float(best) if out is None or not may_out else out + premium for best, out in scored]
        assert any(outs) and not all(outs)  # both kinds of hand are met
        assert outs == [out is not None for _, out in scored]
        assert values == expected and list(map(type, values)) == list(map(type, expected))
