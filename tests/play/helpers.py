"""What the terminal game's tests share: hands from text, the plain
rendering of a renderable, a finished one-round game with known hands, a
scripted stdin that reads the game in front of it, and ``quiddler play``
run through click's CliRunner.

Deals depend on the engine's shuffles, so scripts decide what to type
from the game in front of them (see :class:`Script`) rather than from
hands written down for one seed."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from quiddler import default_wordlist, parse_hand
from quiddler.cards import Card
from quiddler.cli import main
from quiddler.game import Game, Phase, Rules
from quiddler.game.state import Discard, Draw, GoOut, LayDown
from quiddler.play.screen import Screen
from quiddler.play.session import Session
from quiddler.solver.types import Word

WORDS = default_wordlist()

SHORT = ["--rounds", "2"]

AUTO = "auto\n" * 3000


def cards(text: str) -> tuple[Card, ...]:
    return parse_hand(text)


def plain(*renderables: object) -> list[str]:
    out = io.StringIO()
    Screen(plain=True, stdout=out).show(*renderables)  # type: ignore[arg-type]
    return out.getvalue().split("\n")


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

    def readline(self, size: int = -1) -> str:
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
    return CliRunner().invoke(main, ["play", *args], input=input)


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, (result.output, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]
