"""A hint's sentence agrees with the value column it explains: in positions
from real games (two to four players, final turns included) the points and
the terms the sentence names add up to the value shown for the recommended
move, and every other value it quotes is one of the options' values."""

from __future__ import annotations

import re

import pytest

from quiddler.game import Game, Rules
from quiddler.game.hint_types import Hint
from quiddler.game.hints import hint

#: ``39 points, +9.1 for ..., -0.6 for ... (47.5 in all)``: a value and the terms that make it up.
SUM = re.compile(r"(-?\d+(?:\.\d+)?) points((?:, [+-]\d+\.\d for [^,;()]*[^,;() ])*)(?: \((-?\d+\.\d) in all\))?")
TERM = re.compile(r"([+-]\d+\.\d) for ")
QUOTED = re.compile(r"(?:is worth|averages) (-?\d+\.\d)(?! points)")


def sums(reason: str) -> list[tuple[float, list[float], float]]:
    out = []
    for match in SUM.finditer(reason):
        base = float(match.group(1))
        terms = [float(t) for t in TERM.findall(match.group(2))]
        total = float(match.group(3)) if match.group(3) else base
        out.append((base, terms, total))
    return out


def check(advice: Hint) -> None:
    reason = advice.reason
    values = {f"{o.value:.1f}" for o in advice.options}
    if reason.startswith("The only draw allowed"):
        return
    found = sums(reason)
    assert found, reason
    base, terms, total = found[0]
    # Each printed number is rounded to a tenth (a card score is exact): the sum is within their rounding.
    assert abs(base + sum(terms) - total) <= 0.05 * (len(terms) + 1) + 1e-9, reason
    assert f"{total:.1f}" == f"{advice.recommended.value:.1f}", (reason, advice.recommended.value)
    for _, _, other in found[1:]:
        assert f"{other:.1f}" in values, (reason, values)
    for quoted in QUOTED.findall(reason):
        assert quoted in values, (reason, values)
    if len(advice.options) > 1 and advice.recommended.action in ("take-discard", "draw-pile"):
        assert len(found) == 2, reason  # both draws are valued in the sentence


def positions(players: int, seed: int, rules: Rules):  # type: ignore[no-untyped-def]
    """Every decision of a game the hints play for every seat."""
    game = Game(players, seed=seed, rules=rules)
    while not game.over:
        advice = hint(game.view(game.turn))
        yield game, advice
        game.apply(advice.recommended.to_action(game.turn))


@pytest.mark.parametrize(("players", "seed", "rules"), [
    (2, 1, Rules(round_sizes=(3, 5, 8))),
    (2, 15, Rules(round_sizes=(4, 7, 10))),
    (3, 2, Rules(round_sizes=(3, 6, 9))),
    (4, 3, Rules(round_sizes=(5, 8))),
    (4, 8, Rules(round_sizes=(4, 10), no_going_out_first_turn=True)),
    (3, 5, Rules(round_sizes=(6, 7), longest_word_bonus=0)),
])  # fmt: skip
def test_the_numbers_in_a_hint_add_up_to_the_value_shown(players: int, seed: int, rules: Rules) -> None:
    kinds = set()
    for game, advice in positions(players, seed, rules):
        check(advice)
        kinds.add((advice.recommended.action, game.final_turn))
    assert ("lay-down", True) in kinds and ("draw-pile", False) in kinds


def test_the_last_say_is_claimed_only_with_two_players() -> None:
    said = {2: 0, 3: 0, 4: 0}
    waits = {2: 0, 3: 0, 4: 0}
    for players, seed in ((2, 15), (2, 4), (3, 6), (3, 7), (4, 9), (4, 10)):
        for _, advice in positions(players, seed, Rules(round_sizes=(7, 8, 9, 10))):
            if advice.reason.startswith("Wait:"):
                waits[players] += 1
                said[players] += "last say" in advice.reason
    assert waits[2] and said[2] == waits[2]
    assert said[3] == 0 and said[4] == 0 and waits[3] + waits[4] > 0
