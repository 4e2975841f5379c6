"""The review offered at the end of a terminal game: the person's decisions
against the expert's best (:func:`~quiddler.game.reviews.review`), as a
table on the screen.

The offer is one question, asked of a person at a terminal (a screen that
does not echo its input); any answer but yes, or the end of input,
declines it.  A game whose moves come from a script ends as it always did.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..game.engine import Game
from ..game.record import game_record
from ..game.reviews import GameReview, review
from .screen import Screen

__all__ = ["offer_review", "review_panel"]

#: The style of each label in the table.
_STYLES = {"best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "red", "blunder": "bold red"}


def offer_review(game: Game, labels: Sequence[str], seat: int, screen: Screen) -> None:
    """Ask whether to review ``seat``'s game; show the review if the answer is yes."""
    if screen.echo_input:  # the moves come from a script, not a person at the terminal
        return
    try:
        answer = screen.ask("Review your decisions against the expert's? (yes/no)").strip().lower()
    except EOFError:
        return
    if answer not in ("y", "yes"):
        return
    with screen.working("Reviewing the game..."):
        result = review(game_record(game, list(labels)), seat)
    screen.show(review_panel(result))


def review_panel(result: GameReview) -> Group:
    """The review as the terminal shows it: each decision (the costliest
    marked), the loss per round, the accuracy and why the worst were worst."""
    worst = set(result.worst())
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False, padding=(0, 2, 0, 0))
    for column, justify in (("round", "right"), ("turn", "right"), ("your move", "left"), ("best move", "left"),
                            ("loss", "right"), ("", "left")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for i, d in enumerate(result.decisions):
        style = _STYLES[d.label]
        label = Text(d.label + (" (worst)" if i in worst else ""), style=style)
        table.add_row(str(d.round + 1), str(d.turn + 1), d.played_text, "" if d.label == "best" else d.best_text,
                      f"{d.loss:.1f}", label, style="reverse" if i in worst else None)  # fmt: skip
    rounds = Text("Loss by round: " + ", ".join(f"round {r.round + 1} {r.loss:.1f}" for r in result.rounds))
    summary = Text.assemble(("Your review: ", "bold"),
                            f"{len(result.decisions)} decisions, {result.loss_total:.1f} points lost "
                            f"({result.mean_loss:.2f} a decision), accuracy {result.accuracy:.0f} of 100.")  # fmt: skip
    why = [Text(f"Round {d.round + 1}, turn {d.turn + 1}: {d.played_text} ({d.label}, {d.loss:.1f}). "
                f"{d.explanation}") for d in (result.decisions[i] for i in result.worst())]  # fmt: skip
    return Group(summary, table, rounds, *why)
