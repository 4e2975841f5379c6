"""The final turn's solves that cannot change the answer are skipped
(:mod:`quiddler.game.finals`): on every final-turn position of many games,
under several rules, the answers are those of every solve done, as the
players did before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quiddler.cards import Card
from quiddler.game import Game, Rules, make_player
from quiddler.game.ai import EXPERT, _advise, advise
from quiddler.game.plans import next_action
from quiddler.game.players import TARGET_BONUS, _final_draw_takes, _final_value, best_final_play, solve_hand
from quiddler.game.state import Phase, PlayerView
from quiddler.solver import Play

RULES = {
    "default": Rules(),
    "longest only": Rules(two_player_bonuses="longest"),
    "bonus needs going out": Rules(bonus_requires_going_out=True),
    "big bonuses": Rules(longest_word_bonus=25, most_words_bonus=5),
}


def final_views(rules: Rules, players: int, games: int, seed: int) -> Iterator[PlayerView]:
    """Every final-turn view of ``games`` expert and greedy games."""
    for g in range(games):
        names = ["expert", "greedy"] * players
        seats = [make_player(names[(g + s) % 2], seed + s) for s in range(players)]
        game = Game(players, seed=seed + g, rules=rules)
        while not game.over:
            if game.final_turn:
                yield game.view(game.turn)
            game.apply(next_action(game, seats))


def every_solve_best(cards: list[Card], view: PlayerView, discard: bool) -> Play:
    """The best final play as it was found before: all four solves, the first best."""
    longest_bonus, most_bonus = view.rules.bonuses(view.players)
    longest, count = view.others_best()
    plays = [solve_hand(cards, view, discard=discard).best]
    if longest_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_longest=longest, bonus=TARGET_BONUS).best)
    if most_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_words=count, bonus=TARGET_BONUS).best)
    if longest_bonus and most_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_longest=longest, beat_words=count,
                                bonus=TARGET_BONUS).best)  # fmt: skip
    return max(plays, key=lambda p: _final_value(p, view))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_final_turns_decide_as_with_every_solve(rules: Rules, players: int) -> None:
    checked = {"draw": 0, "lay-down": 0}
    for view in final_views(rules, players, games=4, seed=900 + players):
        hand = list(view.hand)
        if view.phase is Phase.DRAW:
            if view.discard_top is None:
                continue
            top = view.discard_top
            taking = _final_value(every_solve_best(hand + [top], view, True), view)
            keeping = _final_value(every_solve_best(hand, view, False), view)
            assert _final_draw_takes(hand, top, view) == (taking > keeping)
            checked["draw"] += 1
        else:
            assert best_final_play(hand, view) == every_solve_best(hand, view, True)
            full = advise(view, EXPERT, explain=False).options
            assert _advise(view, EXPERT, False, best_only=True).options == full[:1]
            checked["lay-down"] += 1
    assert checked["draw"] and checked["lay-down"]
