"""The plain rendering, line by line: a known position, a round's summary,
the score sheet, and a round ended by the turn limit."""

from __future__ import annotations

from dataclasses import replace

from quiddler.cards import Card
from quiddler.game import Game, Phase
from quiddler.play import render
from quiddler.solver.types import Word

from .helpers import (
    cards,
    finished_one_round_game,
    invoke,
    plain,
)


def known_view() -> object:
    game = Game(2, seed=1)
    view = game.view(0)
    return replace(
        view, round=2, round_size=5, dealer=1, turn=0, phase=Phase.DRAW,
        hand=cards("qu,e,e,n,th"), discard_top=Card("z"), draw_pile_size=87, discard_pile_size=6,
        hand_sizes=(5, 0), totals=(25, 40), went_out=1,
        laid_down=((), (Word("quit", cards("qu,i,t")), Word("ax", cards("a,x")))),
    )  # fmt: skip


def test_plain_rendering_of_a_known_position_line_by_line() -> None:
    lines = plain(render.turn_table(known_view(), ("You", "Ada")))  # type: ignore[arg-type]
    assert lines == [
        "Round 3 of 8 (5 cards), Ada deals: your turn",
        "player  total  cards  laid down this round",
        "You        25      5",
        "Ada        40      0  quit [qu i t] 14, ax 14 (went out)",
        "Discard pile: z (14)    Draw pile: 87 cards",
        ("Ada went out: this is your final turn. Lay down what words you can; the cards left in your hand "
         "count against you."),
        "Your hand  qu  e  e  n  th",
        "            9  2  2  5   9",
        "",
    ]


def test_plain_rendering_of_a_round_and_the_score_sheet() -> None:
    game = finished_one_round_game()
    assert plain(render.round_summary(game.history[0], ("You", "Ada"), 0)) == [
        "End of round 1 (3 cards): You went out.",
        "player  words   left in hand  bonus             round  total",
        "You     qua 21  -             longest word +10    +31     31",
        "Ada     ax 14   b -8          -                    +6      6",
        "",
    ]
    assert plain(render.game_over(game.history, ("You", "Ada"), 0, game.totals)) == [
        "Game over. You win with 31 points!",
        "Score sheet",
        "round  cards  You  Ada",
        "1          3  +31   +6",
        "total          31    6",
        "",
    ]


def test_a_round_ended_by_the_turn_limit_says_so() -> None:
    result = replace(finished_one_round_game().history[0], went_out=None, turn_limit=True)
    assert plain(render.round_summary(result, ("You", "Ada"), 0))[0] == (
        "End of round 1 (3 cards): nobody went out before the turn limit; each player's best words were laid down.")
    args = ["--seed", "3", "--rounds", "1", "--turn-limit", "1", "--no-first-turn-out"]  # nobody can go out
    result = invoke(args, "p\nauto\n")
    assert result.exit_code == 0 and "nobody went out before the turn limit" in result.output
