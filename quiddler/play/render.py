"""What the person sees, as ``rich`` renderables built from the game's
frozen values (views, actions, outcomes, round results, hints).

Nothing here reads input or holds state; :mod:`quiddler.play.screen`
prints these with colour on a terminal and as plain text otherwise (the
same renderables, styles dropped), so the plain transcript is exactly what
a terminal shows, minus the colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import Card
from ..game.state import Action, Discard, Draw, GoOut, LayDown, Outcome, PlayerView, RoundResult
from ..solver.types import Word
from .commands import Prompt
from .spelling import Match, Mode

if TYPE_CHECKING:
    from ..game.hint_types import Hint, HintOption

__all__ = [
    "action_line",
    "choices",
    "follow_up_help",
    "game_over",
    "help_text",
    "hint_panel",
    "numbered",
    "reading",
    "round_start",
    "round_summary",
    "score_sheet",
    "turn_table",
]

CARD = "bold cyan"
POINTS = "dim"
YOU = "bold green"
THEM = "yellow"
GOOD = "green"
BAD = "red"
HEAD = "bold"


def _grid() -> Table:
    """A borderless table: aligned columns that read the same without colour."""
    return Table(box=None, show_header=True, header_style=HEAD, pad_edge=False, padding=(0, 2, 0, 0))


def name_text(names: Sequence[str], seat: int, human: int) -> Text:
    return Text(names[seat], style=YOU if seat == human else THEM)


def card_text(card: Card) -> Text:
    return Text.assemble((card.face, CARD), (f" ({card.points})", POINTS))


def word_text(word: Word, spelled: bool = False) -> Text:
    """``quit 14``, with the cards shown when a card holds two letters (or
    ``spelled``): ``queen [qu e e n] 17``."""
    text = Text(word.text, style=CARD)
    if spelled or any(len(c.face) > 1 for c in word.cards):
        text.append(f" [{' '.join(c.face for c in word.cards)}]")
    text.append(f" {word.points}", style=POINTS)
    return text


def words_text(words: Sequence[Word], spelled: bool = False) -> Text:
    return Text(", ").join(word_text(w, spelled) for w in words) if words else Text("-")


def cards_text(cards: Sequence[Card]) -> Text:
    return Text(", ").join(Text(c.face, style=CARD) for c in cards)


def hand_grid(hand: Sequence[Card], label: str = "Your hand") -> Table:
    """The hand as two aligned rows: the cards, and each card's points beneath."""
    grid = Table.grid(padding=(0, 2, 0, 0))
    grid.add_column(min_width=len(label))
    for _ in hand:
        grid.add_column(justify="right")
    grid.add_row(Text(label, style=HEAD), *(Text(c.face, style=CARD) for c in hand))
    grid.add_row("", *(Text(str(c.points), style=POINTS) for c in hand))
    return grid


def round_start(view: PlayerView, names: Sequence[str], human: int) -> Text:
    first = (view.dealer + 1) % view.players
    mover = "you play first" if first == human else f"{names[first]} plays first"
    dealer = Text("you deal", style=YOU) if view.dealer == human else Text.assemble(
        name_text(names, view.dealer, human), " deals")
    return Text.assemble((f"Round {view.round + 1} of {view.rules.rounds}", HEAD),
                         f": {view.round_size} cards each; ", dealer, f", {mover}.")  # fmt: skip


_FINAL_TURN = (" went out: this is your final turn. Lay down what words you can; "
               "the cards left in your hand count against you.")


def turn_table(view: PlayerView, names: Sequence[str]) -> Group:
    """Everything the person needs at the start of their turn."""
    human = view.seat
    dealer = "you deal" if view.dealer == human else f"{names[view.dealer]} deals"
    title = Text.assemble((f"Round {view.round + 1} of {view.rules.rounds}", HEAD),
                          f" ({view.round_size} cards), {dealer}: ", ("your turn", YOU))  # fmt: skip
    table = _grid()
    table.add_column("player")
    table.add_column("total", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("laid down this round")
    for seat in range(view.players):
        laid = view.laid_down[seat]
        out = " (went out)" if view.went_out == seat else ""
        table.add_row(name_text(names, seat, human), str(view.totals[seat]), str(view.hand_sizes[seat]),
                      Text.assemble(words_text(laid) if laid else "", out))  # fmt: skip
    pile = Text.assemble("Discard pile: ", card_text(view.discard_top) if view.discard_top else "empty",
                         f"    Draw pile: {view.draw_pile_size} card{'' if view.draw_pile_size == 1 else 's'}")  # fmt: skip
    parts: list[RenderableType] = [title, table, pile]
    if view.final_turn and view.went_out is not None:
        parts.append(Text.assemble(name_text(names, view.went_out, human),
                                   (_FINAL_TURN, BAD)))  # fmt: skip
    parts.append(hand_grid(view.hand))
    return Group(*parts)


def action_line(action: Action, outcome: Outcome, names: Sequence[str], human: int,
                kept: Sequence[Card] = ()) -> Text:  # fmt: skip
    """One line saying what a player did.  Only the person is shown the
    card a pile draw gave; a computer's pile draw stays hidden.  ``kept``:
    the cards left in hand after a final turn (they count against the player)."""
    you = action.player == human
    who = name_text(names, action.player, human)
    line = Text.assemble(who, " ")
    match action:
        case Draw(source="pile"):
            line.append("draw from the pile" if you else "draws from the pile")
            if you and outcome.drawn is not None:
                line.append_text(Text.assemble(": ", card_text(outcome.drawn)))
        case Draw():
            line.append("take the discard " if you else "takes the discard ")
            if outcome.drawn is not None:
                line.append_text(card_text(outcome.drawn))
        case Discard(card=card):
            line.append_text(Text.assemble("discard " if you else "discards ", card_text(card)))
        case GoOut(words=words, discard=card):
            verb, discards = ("go out", "discard") if you else ("goes out", "discards")
            line.append_text(Text.assemble((verb, GOOD), " with ", words_text(words), f" and {discards} ",
                                           card_text(card)))  # fmt: skip
        case LayDown(words=words, discard=card):
            laid = Text.assemble("lay down " if you else "lays down ", words_text(words)) if words else Text(
                "lay down nothing" if you else "lays down nothing")
            line.append_text(Text.assemble(laid, ", discard" if you else ", discards", " ", card_text(card)))
            if kept:
                minus = sum(c.points for c in kept)
                line.append_text(Text.assemble(", keeping ", cards_text(kept), (f" (-{minus})", BAD)))
    line.append(".")
    if outcome.reshuffled:
        line.append(" (The draw pile ran out: the discards were shuffled into a new one.)")
    return line


def round_summary(result: RoundResult, names: Sequence[str], human: int,
                  before: Sequence[int] | None = None) -> Group:  # fmt: skip
    """Each player's words, cards left, bonuses, round score and total;
    with the totals ``before`` the round, a line naming every total the zero
    floor kept from going negative (the sum would not add up unexplained)."""
    if result.went_out is not None:
        ending = f"{names[result.went_out]} went out."
    elif result.turn_limit:
        ending = "nobody went out before the turn limit; each player's best words were laid down."
    else:
        ending = "nobody went out."
    title = Text.assemble((f"End of round {result.round}", HEAD), f" ({result.cards} cards): {ending}")
    table = _grid()
    for column, justify in (("player", "left"), ("words", "left"), ("left in hand", "left"),
                            ("bonus", "left"), ("round", "right"), ("total", "right")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for seat, score in enumerate(result.scores):
        left = (Text.assemble(cards_text(score.unused), (f" -{score.unused_points}", BAD))
                if score.unused else Text("-"))  # fmt: skip
        bonuses = [f"longest word +{score.longest_bonus}"] if score.longest_bonus else []
        bonuses += [f"most words +{score.most_words_bonus}"] if score.most_words_bonus else []
        table.add_row(name_text(names, seat, human), words_text(score.words), left,
                      Text(", ".join(bonuses) or "-", style=GOOD if bonuses else ""),
                      f"{score.score:+d}", str(result.totals[seat]))  # fmt: skip
    parts: list[RenderableType] = [title, table]
    if before is not None:
        floored = [f"{names[seat]} {old} {score.score:+d} = {old + score.score}"
                   for seat, (old, score, new) in enumerate(zip(before, result.scores, result.totals))
                   if old + score.score != new]  # fmt: skip
        if floored:
            parts.append(Text(f"A total never goes below zero: {'; '.join(floored)}, kept at 0.", style=POINTS))
    return Group(*parts)


def score_sheet(history: Sequence[RoundResult], names: Sequence[str], human: int,
                totals: Sequence[int]) -> RenderableType:  # fmt: skip
    """Round by round scores and the totals (and, when the zero floor made
    them differ from the rounds' sum, a line saying so)."""
    table = _grid()
    table.add_column("round")
    table.add_column("cards", justify="right")
    for seat in range(len(names)):
        table.add_column(name_text(names, seat, human), justify="right")
    for result in history:
        table.add_row(str(result.round), str(result.cards), *(f"{s.score:+d}" for s in result.scores))
    table.add_row(Text("total", style=HEAD), "", *(Text(str(t), style=HEAD) for t in totals))
    if [sum(r.scores[seat].score for r in history) for seat in range(len(totals))] != list(totals):
        return Group(table, Text("(A total never goes below zero: a round that would take it lower leaves it at 0.)",
                                 style=POINTS))  # fmt: skip
    return table


def game_over(history: Sequence[RoundResult], names: Sequence[str], human: int,
              totals: Sequence[int]) -> Group:  # fmt: skip
    best = max(totals)
    points = f"{best} point{'' if best == 1 else 's'}"
    winners = [seat for seat, t in enumerate(totals) if t == best]
    if winners == [human]:
        verdict = Text.assemble(("You win", YOU), f" with {points}!")
    elif len(winners) == 1:
        verdict = Text.assemble(name_text(names, winners[0], human), f" wins with {points}.")
    else:
        tied = Text(" and ").join(name_text(names, s, human) for s in winners)
        verdict = Text.assemble("A tie: ", tied, f" with {points} each.")
    return Group(Text.assemble(("Game over. ", HEAD), verdict), Text("Score sheet", style=HEAD),
                 score_sheet(history, names, human, totals))  # fmt: skip


def _option_text(option: HintOption) -> Text:
    match option.action:
        case "take-discard":
            return Text.assemble("take the discard ", card_text(option.card) if option.card else "")
        case "draw-pile":
            return Text("draw from the pile")
        case "discard":
            return Text.assemble("discard ", card_text(option.card) if option.card else "")
        case "go-out" | "lay-down":
            verb = "go out with " if option.action == "go-out" else "lay down "
            laid = words_text(option.words or ()) if option.words else Text("nothing")
            discard = Text.assemble(", discard ", card_text(option.card)) if option.card else Text()
            return Text.assemble(verb, laid, discard)
    return Text(option.action)  # pragma: no cover - a kind added later


def hint_panel(hint: Hint, shown: int = 5) -> Group:
    """The recommended move, the best few options with their values, and the reason."""
    table = _grid()
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("value", justify="right")
    for rank, option in enumerate(hint.options[:shown], 1):
        table.add_row(str(rank), _option_text(option), f"{option.value:.1f}")
    more = len(hint.options) - shown
    parts: list[RenderableType] = [
        Text.assemble(("Hint: ", HEAD), (_option_text(hint.recommended).plain, GOOD)),
        Text(hint.reason),
        table,
    ]
    if more > 0:
        parts.append(Text(f"({more} more option{'' if more == 1 else 's'} not shown: hint all shows them)",
                          style=POINTS))  # fmt: skip
    return Group(*parts)


def reading(mode: Mode, words: Sequence[str], discard: Card | None) -> Text:
    """A move as the person typed it, before it is matched to cards:
    ``lay down out, ax, discard e``."""
    laid = ", ".join(words)
    move = f"go out with {laid}" if mode == "go-out" else f"lay down {laid or 'nothing'}"
    return Text(move + (f", discard {discard}" if discard is not None else ""))


def numbered(heading: str, options: Sequence[Text]) -> Group:
    """A question's options, numbered from 1, under a heading."""
    table = _grid()
    table.show_header = False
    table.add_column(justify="right")
    table.add_column()
    for number, option in enumerate(options, 1):
        table.add_row(str(number), option)
    return Group(Text(heading), table)


def choices(matches: Sequence[Match]) -> Group:
    """The ways to spell the words, numbered, for the person to pick one."""
    table = _grid()
    table.add_column("#", justify="right")
    table.add_column("words")
    table.add_column("points", justify="right")
    table.add_column("discard / left in hand")
    for number, m in enumerate(matches, 1):
        rest = Text.assemble("discard ", card_text(m.discard)) if m.discard else Text()
        if m.left:
            rest.append_text(Text.assemble("; keep " if m.discard else "keep ", cards_text(m.left)))
        table.add_row(str(number), words_text(m.words, spelled=True), str(m.points), rest)
    return Group(Text("Your cards spell that in more than one way, worth different points:"), table)


_HELP_COMMON = """\
  hint           the recommended move, the ranked options and why (hint all: every option)
  auto           play the recommended move (auto round: play to the end of the round)
  table          show the table again;  score: the score sheet so far
  help           this help;  quit: stop (offers to save)"""

_HELP = {
    "draw": """\
Start your turn by drawing a card:
  pile   (p)     draw the top card of the draw pile (you see it, the others don't)
  discard (d)    take the top card of the discard pile (everyone sees it)""",
    "end": """\
You hold one card too many. End your turn with one of:
  discard CARD   (or just CARD, or d CARD) discard that card, e.g. discard x
  go WORD...     go out: lay down every card but one as words, and discard that one,
                 e.g. go clingers by an  (add "discard o" to choose the discard);
                 out WORD... works too
Words are typed as plain text; when your cards spell a word in ways worth
different points (th or t+h) you are asked which you mean.""",
    "final": """\
Someone went out: this is your final turn. Lay down what words you can and
discard one card; cards left in your hand count against you.
  WORD... discard CARD   e.g. quiet ax discard z
  discard CARD           lay nothing down (a lone letter works too: z)
  lay WORD...            if a word is also a command (lay auto score ...)
  go or out WORD...      the same, unless your cards spell go (or out) too:
                         then you are asked which you meant""",
}


def help_text(prompt: Prompt) -> Text:
    return Text(_HELP[prompt] + "\nAt any prompt:\n" + _HELP_COMMON)


def follow_up_help(expected: str) -> Text:
    """Help at a follow-up question (which spelling, which discard, saving): its answer, then the commands."""
    return Text(f"To answer: {expected}.\nAt any prompt:\n" + _HELP_COMMON)
