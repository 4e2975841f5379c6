"""A game session driven by a script that reads the game: bad input at every
prompt is explained and costs nothing, hints and ``auto``, final-turn
questions, the first-turn rule, the computer players' decision seeds, and
a save that fails mid-game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiddler import find_words
from quiddler.cards import FACES, Card
from quiddler.game import Game, Phase, Rules
from quiddler.game.state import Discard, Draw, GoOut
from quiddler.play import render
from quiddler.play.saves import HUMAN, load_game
from quiddler.play.session import decision_seed
from quiddler.play.spelling import WordProblem, match_words
from quiddler.solver.types import Word

from .helpers import (
    WORDS,
    Script,
    actions_of,
    always_auto,
    cards,
    prompt_of,
    run_session,
)


def not_held(hand: tuple[Card, ...]) -> str:
    return next(face for face in FACES if Card(face) not in hand and len(face) == 1)


def unspellable(hand: tuple[Card, ...]) -> str:
    for word in ("jazz", "fuzz", "quiz", "jukebox", "pizzazz"):
        try:
            match_words([word], hand, WORDS, mode="lay-down")
        except WordProblem as problem:
            if "cannot spell" in str(problem):
                return word
    raise AssertionError("every test word is spellable")  # pragma: no cover


def bad_lines(game: Game) -> list[str]:
    """Every kind of mistake that fits the prompt in front of the person."""
    hand = game.hand(game.turn)
    meta = ["help", "score", "table", "hint"]
    match prompt_of(game):
        case "draw":
            return ["", "blah", "discard x", "go ax", "p x", *meta]
        case "end":
            lines = ["pile", "discard", "discard zz", f"discard {not_held(hand)}", "go", "go xyzzyq",
                     f"go {unspellable(hand)}", "foo bar", "go ax discard zz", *meta]  # fmt: skip
            short = [w for w in find_words(hand, wordlist=WORDS) if len(w.cards) <= len(hand) - 3]
            return lines + ([f"go {short[0].text}"] if short else [])
        case _:
            return ["pile", "none", "zz", f"xyzzyq discard {hand[0]}", f"{unspellable(hand)} discard {hand[0]}",
                    f"discard {not_held(hand)}", *meta]  # fmt: skip


def test_bad_input_at_every_prompt_is_explained_and_loses_nothing() -> None:
    rules = Rules(round_sizes=(3, 4))
    for seed in range(11, 60):  # a deal in which Ada goes out once: the person then has a final turn
        straight = Game(2, seed=seed, rules=rules)
        assert run_session(straight, [HUMAN, "greedy"], Script(always_auto))[0] == 0
        if any(result.went_out != 0 for result in straight.history):
            break
    seen: set[tuple[int, int, str]] = set()
    prompts: set[str] = set()

    def mistakes_then_auto(game: Game) -> list[str]:
        key = (game.round, sum(len(e["actions"]) for e in game.log), prompt_of(game))
        if key in seen:
            return ["auto"]
        seen.add(key)
        prompts.add(prompt_of(game))
        return [*bad_lines(game), "auto"]

    game = Game(2, seed=seed, rules=rules)
    status, out = run_session(game, [HUMAN, "greedy"], Script(mistakes_then_auto))
    assert status == 0 and "Game over." in out and "Traceback" not in out
    assert prompts == {"draw", "end", "final"}
    assert actions_of(game) == actions_of(straight)  # no mistake cost a turn or changed a move
    for message in ["type a move, or help", "'blah': draw from the pile (p) or take the discard (d)",
                    "draw a card first: pile (p) or discard (d)", "you have drawn already",
                    "discard which card?", "'zz' is not a card", "you hold no ", "go out with which words?",
                    "'xyzzyq' is not in the word list (ENABLE)", "with your cards: it needs",
                    "to go out, type go and the words: go foo bar", "Start your turn by drawing a card",
                    "You hold one card too many", "this is your final turn. Lay down", "Hint: ",
                    "round  cards  You  Ada"]:  # fmt: skip
        assert message in out, message


def test_hint_shows_the_recommended_move_and_auto_plays_it() -> None:
    from quiddler.game import hint

    game = Game(2, seed=4, rules=Rules(round_sizes=(3,)))
    game.apply(Draw(1, "pile"))
    game.apply(Discard(1, game.hand(1)[-1]))
    advice = hint(game.view(0))
    script = Script(lambda g: ["hint", "auto"] if g.phase is Phase.DRAW and g.turn == 0 else ["auto"], limit=2)
    status, out = run_session(game, [HUMAN, "greedy"], script)
    assert status == 0
    assert f"Hint: {render._option_text(advice.recommended).plain}" in out
    assert advice.reason in out
    for rank, option in enumerate(advice.options[:5], 1):
        assert re.search(rf"^{rank}\s+{re.escape(render._option_text(option).plain)}\s+{option.value:.1f}$",
                         out, re.MULTILINE), option  # fmt: skip
    assert game.log[0]["actions"][2] == advice.recommended.to_action(0).to_dict()


def test_auto_round_plays_the_rest_of_the_round() -> None:
    game = Game(2, seed=8, rules=Rules(round_sizes=(3, 4)))
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: ["auto round"], limit=1))
    assert status == 0 and len(game.history) == 1 and game.round == 1  # round 1 played, then input ended
    assert out.count("> auto round") == 1


def final_turn_game(hand: str) -> Game:
    """One round of 6 cards in which Ada (seat 1) has gone out and the
    person holds ``hand`` after drawing (hands set directly: test only)."""
    game = Game(2, seed=5, rules=Rules(round_sizes=(6,)))
    game.apply(Draw(1, "pile"))
    game._hands[1] = list(cards("a,x,b,e,t,o,z"))
    game.apply(GoOut(1, (Word("ax", cards("a,x")), Word("be", cards("b,e")), Word("to", cards("t,o"))), Card("z")))
    game.apply(Draw(0, "pile"))
    game._hands[0] = list(cards(hand))
    return game


def test_final_turn_asks_which_spelling_when_points_differ() -> None:
    game = final_turn_game("th,e,t,h,e,a,x")
    lines = iter(["the discard x", "3", "two", "2"])
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: [next(lines)]))
    assert status == 0
    assert "Your cards spell that in more than one way, worth different points:" in out
    assert "type a number from 1 to 2, or cancel" in out
    assert game.log[0]["actions"][-1] == {"type": "lay_down", "player": 0, "words": [["th", "e"]], "discard": "x"}
    assert "You lay down the [th e] 11, discard x (12), keeping t, h, e, a (-14)." in out


def test_final_turn_asks_which_card_to_discard_and_can_cancel() -> None:
    game = final_turn_game("q,u,a,x,b,e,t")
    lines = iter(["qua", "zz", "cancel", "qua", "x"])
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: [next(lines)]))
    assert status == 0
    assert "Discard which card (b, e, t, x; the others count against you)> zz" in out
    assert "type one of b, e, t, x, or cancel" in out and "Cancelled." in out
    assert game.log[0]["actions"][-1] == {"type": "lay_down", "player": 0, "words": [["q", "u", "a"]], "discard": "x"}


# -- a command word that is also a word: go, out, lay -------------------------------------


def laid(game: Game) -> dict:  # type: ignore[type-arg]
    return game.log[0]["actions"][-1]  # type: ignore[no-any-return]


def test_a_command_word_the_hand_also_spells_is_asked_about() -> None:
    game = final_turn_game("o,u,t,e,a,x,b")
    lines = iter(["out discard e", "1"])
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: [next(lines)]))
    assert status == 0
    assert "out is a command and a word: which did you mean?" in out
    assert "1  lay down out, discard e" in out and "2  lay down nothing, discard e" in out
    assert laid(game) == {"type": "lay_down", "player": 0, "words": [["o", "u", "t"]], "discard": "e"}


def test_a_command_word_the_hand_cannot_spell_is_taken_as_the_command_and_said() -> None:
    game = final_turn_game("o,t,e,a,x,b,z")
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: ["out discard e"]))
    assert status == 0
    assert "Taking out as the command: lay down nothing, discard e." in out
    assert laid(game) == {"type": "lay_down", "player": 0, "words": [], "discard": "e"}


@pytest.mark.parametrize(("word", "hand", "spelled"), [
    ("out", "o,u,t,e,a,x,b", ["o", "u", "t"]),
    ("go", "g,o,e,a,x,b,z", ["g", "o"]),
    ("lay", "l,a,y,e,o,x,b", ["l", "a", "y"]),
])  # fmt: skip
def test_a_command_word_alone_on_a_final_turn_is_the_word(word: str, hand: str, spelled: list[str]) -> None:
    game = final_turn_game(hand)
    lines = iter([word, "x"])
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: [next(lines)]))
    assert status == 0
    assert f"Taking {word} as a word: lay down {word}." in out and "Discard which card (" in out
    assert laid(game) == {"type": "lay_down", "player": 0, "words": [spelled], "discard": "x"}


def test_out_before_words_that_only_fit_with_it_goes_out_with_the_word_out() -> None:
    game = Game(2, seed=5, rules=Rules(round_sizes=(5,)))
    game.apply(Draw(1, "pile"))
    game.apply(Discard(1, game.hand(1)[0]))
    game.apply(Draw(0, "pile"))
    game._hands[0] = list(cards("o,u,t,a,x,e"))
    status, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: ["out ax discard e", "auto"], limit=2))
    assert status == 0
    assert "Taking out as a word: go out with out, ax, discard e." in out
    assert game.log[0]["actions"][3] == {"type": "go_out", "player": 0, "words": [["o", "u", "t"], ["a", "x"]],
                                         "discard": "e"}  # fmt: skip


def test_help_lists_out_at_the_end_of_a_turn() -> None:
    assert "out WORD..." in render.help_text("end").plain


def test_first_turn_rule_is_explained() -> None:
    game = Game(2, seed=6, rules=Rules(round_sizes=(3,), no_going_out_first_turn=True))
    answers = {"draw": ["pile"], "end": ["go ax", "auto"], "final": ["auto"]}
    _, out = run_session(game, [HUMAN, "greedy"], Script(lambda g: answers[prompt_of(g)], limit=3))
    assert "no going out on your first turn of this round (house rule)" in out


def test_decision_seeds_differ_by_seat_round_turn_and_phase() -> None:
    game = Game(3, seed=2)
    views = [game.view(s) for s in range(3)]
    seeds = {decision_seed(2, v.seat, v) for v in views}
    assert len(seeds) == 3 and decision_seed(2, 1, views[1]) == decision_seed(2, 1, views[1])
    assert decision_seed(3, 1, views[1]) != decision_seed(2, 1, views[1])


def test_a_save_that_fails_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    good = tmp_path / "elsewhere.json"
    answers = iter(["auto", "auto", "quit", "yes", str(good)])

    def break_the_folder_then(game: Game) -> list[str]:
        if folder.is_dir():
            folder.rmdir()
            folder.write_text("a file where the folder was")
        return [next(answers)]

    game = Game(2, seed=12, rules=Rules(round_sizes=(3, 4, 5)))
    status, out = run_session(game, [HUMAN, "greedy"], Script(break_the_folder_then), save=folder / "g.json")
    assert status == 0
    assert f"cannot save the game to '{folder / 'g.json'}'" in out
    assert "(the game goes on; quit offers to save elsewhere)" in out
    assert "Save the game before you quit? (yes, no, or cancel)> yes" in out
    assert f"Game saved to {good}." in out
    assert load_game(good)[0].log == game.log
