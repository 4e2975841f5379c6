"""``quiddler play``: parsing, word matching, the plain rendering of a known
position, whole scripted games through click's CliRunner, bad input at
every prompt, hints, saving/quitting/resuming, end of input and Ctrl-C.

Deals depend on the engine's shuffles, so the scripts here decide what to
type from the game in front of them (see :class:`Script`) rather than from
hands written down for one seed.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from quiddler import default_wordlist, find_words, parse_hand
from quiddler.cards import FACES, Card
from quiddler.cli.play import play
from quiddler.game import Game, Phase, Rules
from quiddler.game.record import replay
from quiddler.game.state import Discard, Draw, GoOut, LayDown
from quiddler.play import render
from quiddler.play.commands import (
    Auto,
    DiscardCard,
    DrawCard,
    GoOutWith,
    Help,
    HintRequest,
    InputProblem,
    LayDownWords,
    Quit,
    Score,
    Table,
    parse,
)
from quiddler.play.saves import HUMAN, SaveError, check_save_target, load_game, save_game
from quiddler.play.screen import Screen
from quiddler.play.session import Session, decision_seed
from quiddler.play.spelling import WordProblem, distinct_choices, match_words
from quiddler.solver.types import Word

WORDS = default_wordlist()
SHORT = ["--rounds", "2"]


def cards(text: str) -> tuple[Card, ...]:
    return parse_hand(text)


# -- parsing what is typed ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "prompt", "expected"),
    [
        ("pile", "draw", DrawCard("pile")),
        ("P", "draw", DrawCard("pile")),
        ("  discard ", "draw", DrawCard("discard")),
        ("d", "draw", DrawCard("discard")),
        ("take", "draw", DrawCard("discard")),
        ("hint", "draw", HintRequest()),
        ("auto", "end", Auto()),
        ("auto round", "final", Auto(round=True)),
        ("?", "end", Help()),
        ("score", "draw", Score()),
        ("look", "final", Table()),
        ("quit", "end", Quit()),
        ("discard x", "end", DiscardCard(Card("x"))),
        ("d QU", "end", DiscardCard(Card("qu"))),
        ("th", "end", DiscardCard(Card("th"))),
        ("d", "end", DiscardCard(Card("d"))),
        ("go clingers by an do", "end", GoOutWith(("clingers", "by", "an", "do"))),
        ("go quiet, ax discard e", "end", GoOutWith(("quiet", "ax"), Card("e"))),
        ("out ax d e", "end", GoOutWith(("ax",), Card("e"))),
        ("quiet ax discard z", "final", LayDownWords(("quiet", "ax"), Card("z"))),
        ("lay auto", "final", LayDownWords(("auto",))),
        ("go ax", "final", LayDownWords(("ax",))),
        ("discard z", "final", LayDownWords((), Card("z"))),
        ("z", "final", LayDownWords((), Card("z"))),
        ("none discard z", "final", LayDownWords((), Card("z"))),
        ("quiet", "final", LayDownWords(("quiet",))),
    ],
)
def test_parse(line: str, prompt: str, expected: object) -> None:
    assert parse(line, prompt) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "prompt", "message"),
    [
        ("", "draw", "type a move, or help"),
        ("blah", "draw", "'blah': draw from the pile (p) or take the discard (d)"),
        ("discard x", "draw", "draw a card first"),
        ("go ax", "draw", "draw a card first"),
        ("pile", "end", "you have drawn already"),
        ("discard", "end", "discard which card?"),
        ("discard x y", "end", "discard one card"),
        ("zz", "end", "'zz' is not a card"),
        ("discard 7", "end", "'7' is not a card"),
        ("go", "end", "go out with which words?"),
        ("go ax discard", "end", "discard which card? put it after the word"),
        ("go ax discard zz", "end", "'zz' is not a card"),
        ("quiet ax", "end", "to go out, type go and the words: go quiet ax"),
        ("pile", "final", "you have drawn already"),
        ("quiet discard", "final", "discard which card?"),
        ("none", "final", "discard which card?"),
    ],
)
def test_parse_explains_mistakes(line: str, prompt: str, message: str) -> None:
    with pytest.raises(InputProblem, match=re.escape(message)):
        parse(line, prompt)  # type: ignore[arg-type]


# -- matching typed words to the hand -------------------------------------------------------


def spelled(match_words_result: list) -> list[list[tuple[str, ...]]]:  # type: ignore[type-arg]
    return [[tuple(c.face for c in w.cards) for w in m.words] for m in match_words_result]


def test_words_find_the_spelling_the_hand_holds() -> None:
    found = match_words(["queen"], cards("q,u,e,e,n,x"), WORDS)
    assert spelled(found) == [[("q", "u", "e", "e", "n")]] and found[0].discard == Card("x")
    found = match_words(["queen", "ax"], cards("qu,e,e,n,a,x,b"), WORDS)
    assert spelled(found) == [[("qu", "e", "e", "n"), ("a", "x")]] and found[0].discard == Card("b")
    assert not distinct_choices(found)


def test_spellings_that_differ_in_points_are_offered_best_first() -> None:
    found = match_words(["the"], cards("th,e,t,h,e,a,x"), WORDS, mode="lay-down")
    assert spelled(found) == [[("t", "h", "e")], [("th", "e")]]
    assert [m.points for m in found] == [12, 11] and distinct_choices(found)
    assert found[1].left == cards("a,e,h,t,x")  # what stays in hand; the discard is asked for


def test_going_out_needs_the_one_spelling_that_leaves_one_card() -> None:
    found = match_words(["the"], cards("th,e,t,h"), WORDS)
    assert spelled(found) == [[("t", "h", "e")]] and found[0].discard == Card("th")


@pytest.mark.parametrize(
    ("words", "hand", "options", "message"),
    [
        ("queenz", "a,b", {}, "'queenz' is not in the word list (ENABLE)"),
        ("th3", "a,b", {}, "'th3' is not a word: use the letters a to z only"),
        ("queen", "a,b", {}, "you cannot spell 'queen' with your cards: it needs two e's, an n and a qu"),
        ("queen", "qu,e,n,x,a", {}, "it needs another e"),
        ("queen", "q,u,e,e,n,x", {"discard": Card("q")},
         "it needs a q (the q you discard cannot be in a word too)"),
        ("by bay", "b,y,a,y,x", {}, "your cards cannot spell 'by' and 'bay' at once: together they need another b"),
        ("the", "th,e,t,h,x", {}, "those words leave x and th over: going out lays down every card but one"),
        ("queen", "q,u,e,e,n", {}, "those words use all 5 of your cards: going out keeps one card to discard"),
        ("ax", "a,x,b,c", {"discard": Card("b")}, "those words and the discard b leave c over"),
        ("ax", "a,b", {"discard": Card("x")}, "you hold no x to discard"),
        ("at", "a,t", {"mode": "lay-down"}, "those words use every card you hold: keep one card to discard"),
    ],
)  # fmt: skip
def test_words_that_cannot_be_laid_down_are_explained(words: str, hand: str, options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(WordProblem, match=re.escape(message)):
        match_words(words.split(), cards(hand), WORDS, **options)


# -- the plain rendering of one known position ------------------------------------------


def known_view() -> object:
    game = Game(2, seed=1)
    view = game.view(0)
    return replace(
        view, round=2, round_size=5, dealer=1, turn=0, phase=Phase.DRAW,
        hand=cards("qu,e,e,n,th"), discard_top=Card("z"), draw_pile_size=87, discard_pile_size=6,
        hand_sizes=(5, 0), totals=(25, 40), went_out=1,
        laid_down=((), (Word("quit", cards("qu,i,t")), Word("ax", cards("a,x")))),
    )  # fmt: skip


def plain(*renderables: object) -> list[str]:
    out = io.StringIO()
    Screen(plain=True, stdout=out).show(*renderables)  # type: ignore[arg-type]
    return out.getvalue().split("\n")


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


def finished_one_round_game() -> Game:
    """A one-round game with known hands (set directly: test only): You go
    out with qua and discard t; Ada lays down ax and keeps b."""
    game = Game(2, seed=3, rules=Rules(round_sizes=(3,)))
    game._hands = [list(cards("q,u,a")), list(cards("a,x,b"))]
    game.apply(Draw(1, "pile"))  # seat 1 plays first
    game._hands[1] = list(cards("a,x,b,t"))
    game.apply(Discard(1, Card("t")))
    game.apply(Draw(0, "discard"))
    game.apply(GoOut(0, (Word("qua", cards("q,u,a")),), Card("t")))
    game.apply(Draw(1, "pile"))
    game.apply(LayDown(1, (Word("ax", cards("a,x")),), game.hand(1)[-1]))
    assert game.over
    return game


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


# -- sessions driven by a script that reads the game -----------------------------------------


class Script:
    """A stdin for a :class:`Session` whose lines come from ``answer(game)``,
    asked again whenever the lines it gave run out.  Stops with end of input
    (or ``KeyboardInterrupt``) after ``limit`` lines."""

    def __init__(self, answer: Callable[[Game], list[str]], limit: int | None = None,
                 interrupt: bool = False) -> None:  # fmt: skip
        self.answer = answer
        self.limit = limit
        self.interrupt = interrupt
        self.game: Game | None = None
        self.pending: list[str] = []
        self.read = 0

    def readline(self) -> str:
        if self.limit is not None and self.read >= self.limit:
            if self.interrupt:
                raise KeyboardInterrupt
            return ""
        if not self.pending:
            assert self.game is not None
            self.pending = list(self.answer(self.game))
        self.read += 1
        return self.pending.pop(0) + "\n"


def run_session(game: Game, labels: list[str], script: Script, save: Path | None = None) -> tuple[int, str]:
    out = io.StringIO()
    script.game = game
    screen = Screen(plain=True, echo_input=True, stdin=script, stdout=out)  # type: ignore[arg-type]
    status = Session(game, labels, screen, save).run()
    return status, out.getvalue()


def always_auto(game: Game) -> list[str]:
    return ["auto"]


def actions_of(game: Game) -> list[list[dict]]:  # type: ignore[type-arg]
    return [entry["actions"] for entry in game.log]


def prompt_of(game: Game) -> str:
    if game.phase is Phase.DRAW:
        return "draw"
    return "final" if game.final_turn else "end"


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


# -- the command through CliRunner -----------------------------------------------------------------


class LinesThenInterrupt(io.BufferedIOBase):
    """Binary stdin giving one line per read, then Ctrl-C (KeyboardInterrupt)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        if size == 0:
            return b""
        if not self.lines:
            raise KeyboardInterrupt
        return (self.lines.pop(0) + "\n").encode()

    read = read1  # type: ignore[assignment]


def invoke(args: list[str], input: str | io.BufferedIOBase | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(play, args, input=input)


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, (result.output, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


AUTO = "auto\n" * 3000


def test_scripted_whole_game_runs_to_the_score_sheet(tmp_path: Path) -> None:
    """`yes auto | quiddler play --seed 1`: all eight rounds, the score sheet, exit 0."""
    save = tmp_path / "game.json"
    result = invoke(["--seed", "1", "--save", str(save)], AUTO)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    out = result.output
    assert out.startswith("Quiddler: you against Ada (medium). 8 rounds of 3 to 10 cards. Game seed 1.")
    assert "\x1b[" not in out
    for number in range(1, 9):
        assert f"End of round {number} (" in out
    record = json.loads(save.read_text())
    assert record["finished"] and record["players"] == [HUMAN, "medium"]
    sheet = out[out.index("Score sheet"):].splitlines()
    assert [line.split()[0] for line in sheet[2:10]] == [str(n) for n in range(1, 9)]
    assert [int(x) for x in sheet[10].split()[1:]] == record["final_scores"] == list(replay(record).totals)


def test_levels_and_opponents(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(["--seed", "2", "--opponents", "3", "--level", "easy,hard,greedy", *SHORT, "--save", str(save)],
                    AUTO)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "you against Ada (easy), Bram (hard), Cleo (greedy). 2 rounds of 3 to 4 cards" in result.output
    assert json.loads(save.read_text())["players"] == [HUMAN, "easy", "hard", "greedy"]


@pytest.fixture(scope="module")
def straight_record(tmp_path_factory: pytest.TempPathFactory) -> dict:  # type: ignore[type-arg]
    save = tmp_path_factory.mktemp("straight") / "game.json"
    result = invoke([*RESUMED, "--save", str(save)], AUTO)
    assert result.exit_code == 0, result.output
    assert result.output.count("> auto") > 6  # every stop point below is mid-game
    return json.loads(save.read_text())  # type: ignore[no-any-return]


#: The games resumed: seed 9, three rounds (played straight through the person answers more than six prompts).
RESUMED = ["--seed", "9", "--rounds", "3"]


@pytest.mark.parametrize(("lines", "how"), [(k, ("quit", "eof", "interrupt")[k % 3]) for k in range(6)])
def test_stopping_and_resuming_gives_the_game_played_straight_through(
    tmp_path: Path, straight_record: dict, lines: int, how: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    args = [*RESUMED, "--save", str(save)]
    if how == "interrupt":
        stopped = invoke(args, LinesThenInterrupt(["auto"] * lines))
        assert stopped.exit_code == 130 and isinstance(stopped.exception, SystemExit)
        assert f"Interrupted: game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    elif how == "eof":
        stopped = invoke(args, "auto\n" * lines)
        assert stopped.exit_code == 0
        assert f"End of input: game saved to {save}." in stopped.output
    else:
        stopped = invoke(args, "auto\n" * lines + "quit\n")
        assert stopped.exit_code == 0
        assert f"Game saved to {save}. Continue it with: quiddler play --resume {save}" in stopped.output
    assert "Traceback" not in stopped.output
    assert not json.loads(save.read_text())["finished"]
    resumed = invoke(["--resume", str(save)], AUTO)
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming at round" in resumed.output or lines == 0
    if lines == 1:  # stopped after drawing: what happened this round is told again, the person's draw too
        assert "Round 1 so far:" in resumed.output and "You draw from the pile." in resumed.output
    assert json.loads(save.read_text()) == straight_record


def test_quit_asks_whether_and_where_to_save(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    target = tmp_path / "later.json"
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    script = f"auto\nauto\nquit\nmaybe\ncancel\nauto\nquit\nyes\n{foreign}\n{target}\n"
    result = invoke(RESUMED, script)
    assert result.exit_code == 0, result.output
    assert "type yes, no or cancel" in result.output and "Cancelled." in result.output
    assert f"'{foreign}' exists and is not a saved game: choose another file" in result.output
    assert f"Game saved to {target}. Continue it with: quiddler play --resume {target}" in result.output
    assert foreign.read_text() == "my notes\n"
    resumed = invoke(["--resume", str(target)], AUTO)
    assert resumed.exit_code == 0
    assert json.loads(target.read_text()) == straight_record


def test_quit_without_saving_and_end_of_input_without_a_file() -> None:
    result = invoke(["--seed", "9", *SHORT], "auto\nquit\nno\n")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Game not saved. Bye.")
    result = invoke(["--seed", "9", *SHORT], "auto\n")
    assert result.exit_code == 0
    assert "End of input: the game stops here, not saved (use --save FILE to keep games)." in result.output
    result = invoke(["--seed", "9", *SHORT], LinesThenInterrupt(["auto"]))
    assert result.exit_code == 130 and "Interrupted: the game stops here, not saved" in result.output


def test_resuming_a_finished_game_shows_the_score_sheet(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    save = tmp_path / "done.json"
    save.write_text(json.dumps(straight_record))
    result = invoke(["--resume", str(save)], "")
    assert result.exit_code == 0 and "Game over." in result.output and "Score sheet" in result.output


def damaged_saves(record: dict) -> dict[str, str]:  # type: ignore[type-arg]
    text = json.dumps(record)
    tampered = json.loads(text)
    tampered["rounds"][0]["actions"][1] = {"type": "discard", "player": 1, "card": "zz"}
    illegal = json.loads(text)
    illegal["rounds"][0]["actions"].insert(0, {"type": "discard", "player": 0, "card": "a"})
    dealt = json.loads(text)
    dealt["rounds"][0]["hands"][0][0] = "q" if dealt["rounds"][0]["hands"][0][0] != "q" else "z"
    no_human = json.loads(text)
    no_human["players"] = ["medium", "medium"]
    stranger = json.loads(text)
    stranger["players"] = [HUMAN, "deep-blue"]
    rounds = json.loads(text)
    rounds["rounds"] = "all of them"
    return {
        "truncated": text[: len(text) // 2],
        "empty": "",
        "not json": "hello\n",
        "a list": "[1, 2, 3]",
        "another format": json.dumps({**record, "format": "chess-pgn/1"}),
        "bad card": json.dumps(tampered),
        "illegal action": json.dumps(illegal),
        "another deal": json.dumps(dealt),
        "no human seat": json.dumps(no_human),
        "unknown player": json.dumps(stranger),
        "rounds not a list": json.dumps(rounds),
        "binary": "\udcff\udcfe",
    }


@pytest.mark.parametrize("kind", ["truncated", "empty", "not json", "a list", "another format", "bad card",
                                  "illegal action", "another deal", "no human seat", "unknown player",
                                  "rounds not a list", "binary"])  # fmt: skip
def test_a_damaged_or_foreign_save_is_one_error_line_and_left_untouched(
    tmp_path: Path, straight_record: dict, kind: str  # type: ignore[type-arg]
) -> None:
    save = tmp_path / "game.json"
    data = damaged_saves(straight_record)[kind].encode("utf-8", "surrogateescape")
    save.write_bytes(data)
    before = save.stat().st_mtime_ns
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert str(save) in line
    assert save.read_bytes() == data and save.stat().st_mtime_ns == before


def test_resume_errors(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    missing = tmp_path / "nothing.json"
    assert one_error_line(invoke(["--resume", str(missing)])) == f"Error: no saved game at '{missing}'"
    save = tmp_path / "game.json"
    save.write_text(json.dumps(straight_record))
    line = one_error_line(invoke(["--resume", str(save), "--seed", "3"]))
    assert line == "Error: --resume continues the saved game as it was set up: drop --seed"
    assert "drop --level" in one_error_line(invoke(["--resume", str(save), "--level", "easy"]))
    assert "drop --no-bonuses" in one_error_line(invoke(["--resume", str(save), "--no-bonuses"]))


def test_save_never_overwrites_a_foreign_file_or_an_unfinished_game(tmp_path: Path, straight_record: dict) -> None:  # type: ignore[type-arg]
    foreign = tmp_path / "notes.txt"
    foreign.write_text("keep me")
    line = one_error_line(invoke(["--save", str(foreign)], AUTO))
    assert line == f"Error: '{foreign}' exists and is not a saved game: choose another file"
    assert foreign.read_text() == "keep me"
    unfinished = tmp_path / "unfinished.json"
    invoke([*RESUMED, "--save", str(unfinished)], "auto\nquit\n")
    text = unfinished.read_text()
    assert "holds an unfinished game: continue it with --resume" in one_error_line(
        invoke(["--save", str(unfinished)], AUTO))
    assert unfinished.read_text() == text
    finished = tmp_path / "finished.json"
    finished.write_text(json.dumps(straight_record))
    assert invoke(["--seed", "9", *SHORT, "--save", str(finished)], "auto\nquit\n").exit_code == 0
    assert "cannot save the game to" in one_error_line(invoke(["--save", str(tmp_path / "no" / "x.json")]))
    assert "is a directory" in one_error_line(invoke(["--save", str(tmp_path)]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "0"], "Invalid value for '--opponents'"),
        (["--opponents", "8"], "Invalid value for '--opponents'"),
        (["--level", "genius"], "unknown level: 'genius' (expected easy, medium or hard"),
        (["--level", "easy,hard", "--opponents", "3"], "2 levels for 3 opponents"),
        (["--rounds", "0"], "Invalid value for '--rounds'"),
        (["--rounds", "2", "--round-sizes", "3,4"], "give --rounds or --round-sizes, not both"),
        (["--round-sizes", "3,x"], "expected card counts such as 3,5,7, not '3,x'"),
        (["--round-sizes", "1"], "a round must deal at least 2 cards, not 1"),
        (["--round-sizes", "25"], "a round of 25 cards is too large"),
        (["--opponents", "7", "--round-sizes", "15"], "8 hands of 15 cards do not fit the 118-card deck"),
        (["--wordlist", "/no/such/file"], "word list not found"),
        (["--seed", "x"], "Invalid value for '--seed'"),
        (["--pace", "-1"], "Invalid value for '--pace'"),
    ],
)
def test_bad_options_are_one_error_line(args: list[str], message: str) -> None:
    assert message in one_error_line(invoke(args, AUTO))


def test_group_offers_play_with_help() -> None:
    from quiddler.cli import main

    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0
    assert "yes auto | quiddler play --seed 1" in result.output and "--no-first-turn-out" in result.output
    result = CliRunner().invoke(main, ["play", "--opponents", "9"])
    assert result.exit_code == 2 and result.stderr.startswith("Error: ")


def test_simulate_and_play_share_the_rule_options() -> None:
    from quiddler.cli.simulate import simulate

    def options(command) -> set[str]:  # type: ignore[no-untyped-def]
        return {o for p in command.params for o in p.opts}

    shared = {"--wordlist", "--rounds", "--round-sizes", "--no-first-turn-out", "--no-bonuses", "--no-floor"}
    assert shared <= options(simulate) & options(play)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = finished_one_round_game()
    path = tmp_path / "g.json"
    with pytest.raises(SaveError):
        load_game(path)
    check_save_target(path)
    save_game(path, Game(2, seed=4), [HUMAN, "easy"])
    with pytest.raises(SaveError, match="unfinished game"):
        check_save_target(path)
    loaded, labels = load_game(path)
    assert labels == (HUMAN, "easy") and loaded.seed == 4 and not loaded.over
    assert game.over
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o644  # an ordinary file, not mkstemp's private one
        fresh.chmod(0o600)
        save_game(fresh, game, [HUMAN, "easy"])
        assert fresh.stat().st_mode & 0o777 == 0o600  # a file's own permissions are kept
    finally:
        os.umask(umask)


# -- on a real (pseudo-)terminal ---------------------------------------------------------------


def run_on_terminal(args: list[str], keys: list[tuple[bytes, bytes]], env: dict[str, str] | None = None
                    ) -> tuple[int, bytes]:  # fmt: skip
    """Run ``quiddler play ARGS`` on a pseudo-terminal; for each (wait_for, keys)
    read until ``wait_for`` appears, then type ``keys``.  Returns the exit
    status and everything the terminal showed."""
    import pty
    import select
    import signal
    import sys
    import time

    # A clean environment, as a login shell gives: nothing other tests set in this process leaks in.
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_CACHE_HOME", "QUIDDLER_CACHE_DIR", "PYTHONPATH")
    environ = {k: os.environ[k] for k in keep if k in os.environ} | {"TERM": "xterm-256color",
                                                                     "COLUMNS": "100"} | (env or {})  # fmt: skip
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        # As a shell starts a program: Ctrl-C interrupts it, whatever this test process does with
        # SIGINT just now (an ignored signal stays ignored across exec, and Python then never sees it).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a blocked one too
        os.execve(sys.executable, [sys.executable, "-m", "quiddler.cli", "play", *args], environ)
    shown = b""
    start = 0  # each marker is looked for in what appeared after the previous one
    exit_status: int | None = None

    def read_until(marker: bytes | None, timeout: float = 120.0, nudge: bytes = b"") -> None:
        """Read until ``marker`` shows (None: until the program has exited),
        typing ``nudge`` again every two seconds meanwhile (a Ctrl-D typed in
        the instant readline switches the terminal's mode can be lost).  The
        end is the program's exit, not the terminal's: a background process
        it started (the solver's compiler) may hold the terminal open."""
        nonlocal shown, start, exit_status
        deadline = time.monotonic() + timeout
        while marker is None or marker not in shown[start:]:
            if marker is None and exit_status is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    exit_status = os.waitstatus_to_exitcode(status)
            ready, _, _ = select.select([fd], [], [], 0.2 if exit_status is not None else 2.0)
            if not ready:
                if marker is None and exit_status is not None:
                    return  # exited, and everything it wrote has been read
                if time.monotonic() > deadline:
                    raise AssertionError(f"waited for {marker!r} (SIGINT here: {signal.getsignal(signal.SIGINT)}, "
                                         f"blocked: {signal.pthread_sigmask(signal.SIG_BLOCK, [])}); "
                                         f"the terminal shows:\n{shown.decode(errors='replace')}")  # fmt: skip
                if nudge and exit_status is None:
                    os.write(fd, nudge)
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal was closed
                chunk = b""
            if not chunk:
                if marker is None:
                    if exit_status is None:
                        exit_status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                    return
                raise AssertionError(f"ended before {marker!r}:\n{shown.decode(errors='replace')}")
            shown += chunk

    for marker, typed in keys:
        read_until(marker)
        start = shown.index(marker, start) + len(marker)
        time.sleep(0.3)  # type as a person does, not in the microsecond the prompt appears
        os.write(fd, typed)
    read_until(None, nudge=keys[-1][1] if keys[-1][1] == b"\x04" else b"")
    os.close(fd)
    assert exit_status is not None
    return exit_status, shown


PROMPT = b"Draw: pile or discard"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_on_a_terminal_colour_hint_ctrl_c_saves_and_ctrl_d_resumes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["--seed", "2", "--rounds", "2", "--pace", "0", "--save", str(save)]
    status, shown = run_on_terminal(args, [(PROMPT, b"hint\r"), (b"Hint:", b""), (PROMPT, b"\x03")])
    text = shown.decode()
    assert status == 130, text
    assert "\x1b[" in text  # colour on a terminal
    assert "Interrupted: game saved to" in text and "Traceback" not in text
    assert not json.loads(save.read_text())["finished"]
    status, shown = run_on_terminal(["--resume", str(save), "--pace", "0"], [(PROMPT, b"\x04")])
    assert status == 0, shown.decode()
    assert "Resuming at round 1" in shown.decode() and "End of input: game saved to" in shown.decode()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_no_color_on_a_terminal_is_plain() -> None:
    status, shown = run_on_terminal(["--seed", "2", "--pace", "0"], [(PROMPT, b"\x04")], env={"NO_COLOR": "1"})
    assert status == 0
    assert b"\x1b" not in shown and b"End of input: the game stops here" in shown


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


def test_a_game_on_another_word_list_resumes_from_the_file_it_names(tmp_path: Path) -> None:
    words = tmp_path / "short-words.txt"
    words.write_text("\n".join(w for w in WORDS if len(w) <= 4) + "\n")
    save = tmp_path / "game.json"
    stopped = invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    assert stopped.exit_code == 0, stopped.output
    resumed = invoke(["--resume", str(save)], AUTO)  # the record names the list's file: found again
    assert resumed.exit_code == 0 and "Game over." in resumed.output
    invoke(["--seed", "3", "--rounds", "1", "--wordlist", str(words), "--save", str(save)], "auto\nquit\n")
    words.rename(tmp_path / "moved.txt")
    line = one_error_line(invoke(["--resume", str(save)], AUTO))
    assert line.startswith(f"Error: cannot resume '{save}': ") and "word list" in line
    resumed = invoke(["--resume", str(save), "--wordlist", str(tmp_path / "moved.txt")], AUTO)
    assert resumed.exit_code == 0 and "Game over." in resumed.output


def test_a_round_ended_by_the_turn_limit_says_so() -> None:
    result = replace(finished_one_round_game().history[0], went_out=None, turn_limit=True)
    assert plain(render.round_summary(result, ("You", "Ada"), 0))[0] == (
        "End of round 1 (3 cards): nobody went out before the turn limit; each player's best words were laid down.")
    args = ["--seed", "3", "--rounds", "1", "--turn-limit", "1", "--no-first-turn-out"]  # nobody can go out
    result = invoke(args, "p\nauto\n")
    assert result.exit_code == 0 and "nobody went out before the turn limit" in result.output
