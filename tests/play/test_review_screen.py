"""The review offered at the end of a terminal game: asked of a person at
the terminal, shown on yes, skipped on anything else, the end of input, or
when the moves come from a script."""

from __future__ import annotations

import io

from quiddler.game import Game, Rules, make_player
from quiddler.game.plans import play_game
from quiddler.game.record import game_record
from quiddler.game.reviews import review
from quiddler.play.screen import Screen
from quiddler.play.session import Session

from .helpers import Script

QUESTION = "Review your decisions against the expert's? (yes/no)> "


def finished_game() -> Game:
    return play_game([make_player("greedy", 1), make_player("medium", 2)], seed=4, rules=Rules(round_sizes=(3, 4)))


def at_the_terminal(game: Game, answers: list[str], *, echo: bool = False) -> str:
    """A session on a finished game, read as a person at a terminal (no echo) unless ``echo``."""
    out = io.StringIO()
    script = Script(lambda _: list(answers), limit=len(answers))
    script.game = game
    screen = Screen(plain=True, echo_input=echo, stdin=script, stdout=out)  # type: ignore[arg-type]
    assert Session(game, ["human", "medium"], screen).run() == 0
    return out.getvalue()


def test_yes_shows_the_persons_review() -> None:
    game = finished_game()
    out = at_the_terminal(game, ["yes"])
    assert QUESTION in out
    expected = review(game_record(game, ["human", "medium"]), 0)
    assert f"{len(expected.decisions)} decisions, {expected.loss_total:.1f} points lost" in out
    assert f"accuracy {expected.accuracy:.0f} of 100" in out
    assert out.count("(worst)") == len(expected.worst())
    for d in expected.decisions:
        assert d.played_text in out


def test_no_or_the_end_of_input_declines() -> None:
    game = finished_game()
    for answers in (["no"], ["auto"], []):
        out = at_the_terminal(game, answers)
        assert QUESTION in out and "Your review" not in out


def test_a_scripted_game_is_not_asked() -> None:
    out = at_the_terminal(finished_game(), ["yes"], echo=True)
    assert "Review your decisions" not in out and "Your review" not in out
