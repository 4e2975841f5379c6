"""``quiddler hint``: the expert's advice for a position typed in.

Parsing and printing only: the position becomes a
:class:`~quiddler.game.state.PlayerView` and :func:`~quiddler.game.hints.hint`
ranks the moves.  The ``quiddler`` group loads this command lazily.
"""

from __future__ import annotations

import itertools
import json

import click

from ..cards import Card, format_hand, parse_hand
from ..cli import InputError, OneLineErrors
from ..errors import QuiddlerError
from ..solver.types import Word
from ..wordlist import WordList, default_wordlist, load_wordlist
from .hints import Hint, hint, position_view
from .rules import Rules

__all__ = ["hint_command"]

_EPILOG = """\b
Examples:
  quiddler hint q,i,t,e --discard-top er          # before drawing: pile or discard top?
  quiddler hint qu,i,e,t,er                       # just drew: what to discard, or go out?
  quiddler hint d,o,g,c,a,t,s --seen z,x,q --opponents 2 --json
  quiddler hint c,a,t,e,r --went-out quiet        # final turn: someone went out with 'quiet'"""


def _parse_words(text: str, wordlist: WordList, cards: int | None) -> tuple[Word, ...]:
    """Words such as ``quiet,dog``: of the ways to spell them with cards,
    the one using ``cards`` cards in all (a going-out play lays down exactly
    the round's cards) that scores most."""
    options = []
    for raw in text.replace(",", " ").split():
        spellings = wordlist.spellings(raw)
        if not spellings:
            raise ValueError(f"--went-out: {raw.strip().lower()!r} is not a playable word in {wordlist.name}")
        options.append(spellings)
    if not options:
        raise ValueError("--went-out names no words")
    fitting = [combo for combo in itertools.product(*options)
               if cards is None or sum(len(s) for s in combo) == cards]  # fmt: skip
    if not fitting:
        raise ValueError(f"--went-out: those words cannot be spelled with the {cards} cards going out lays down")
    best = max(fitting, key=lambda combo: sum(c.points for s in combo for c in s))
    return tuple(Word("".join(c.face for c in s), s) for s in best)


def _hint_text(result: Hint) -> str:
    def describe(action: str, card: Card | None, words: tuple[Word, ...] | None) -> str:
        if action == "take-discard":
            return f"take the discard top ({card})"
        if action == "draw-pile":
            return "draw from the pile"
        if action == "discard":
            return f"discard {card}"
        laid = ", ".join(f"{w.text} ({format_hand(w.cards)})" for w in words or ()) or "no words"
        verb = "go out with" if action == "go-out" else "lay down"
        return f"{verb} {laid}, discard {card}"

    best = result.recommended
    lines = [f"hint: {describe(best.action, best.card, best.words)}", result.reason, "",
             "options (expected points, best first):"]  # fmt: skip
    rows = [(describe(o.action, o.card, o.words), o.value) for o in result.options]
    width = max(len(text) for text, _ in rows)
    lines += [f"  {text:<{width}}  {value:>7.1f}" for text, value in rows]
    return "\n".join(lines)


def _cards(text: str | None, what: str) -> tuple[Card, ...]:
    if text is None or not text.strip():
        return ()
    try:
        return parse_hand(text)
    except QuiddlerError as exc:
        raise ValueError(f"{what}: {exc}") from None


@click.command("hint", cls=OneLineErrors, epilog=_EPILOG,
               short_help="The expert's advice for a position: which pile, which discard, go out or not.")  # fmt: skip
@click.argument("hand_text", metavar="HAND", nargs=-1, required=True)
@click.option("--discard-top", metavar="CARD", default=None,
              help="The face-up card: HAND is then the hand before drawing, and the hint is the draw.")  # fmt: skip
@click.option("--seen", metavar="CARDS", default=None, help="Other cards known to be out of play (face up earlier).")
@click.option("--opponents", type=int, default=1, show_default=True, help="Number of other players.")
@click.option("--round", "round_number", type=int, default=None, metavar="N",
              help="Round number, 1-8 (default: the round that deals this many cards).")  # fmt: skip
@click.option("--turn", type=int, default=1, show_default=True, metavar="N",
              help="Your turn number in this round, this turn included (the expert waits only early).")  # fmt: skip
@click.option("--went-out", metavar="WORDS", default=None,
              help="Words an opponent went out with: this is your final turn (HAND after drawing).")  # fmt: skip
@click.option("--wordlist", "wordlist_path", type=click.Path(dir_okay=False), default=None,
              help="Word list file (default: ENABLE).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def hint_command(hand_text: tuple[str, ...], discard_top: str | None, seen: str | None, opponents: int,
                 round_number: int | None, turn: int, went_out: str | None, wordlist_path: str | None,
                 as_json: bool) -> None:  # fmt: skip
    """Advise on a Quiddler position: with --discard-top, HAND is your hand
    before drawing and the hint says whether to take the discard top or draw
    blind; without it, HAND has just drawn (one card more than dealt) and the
    hint says which card to discard, or how to go out.  Every option is
    listed with its expected value in points, best first.

    Cards are faces separated by commas or spaces (two-letter cards: er, in,
    qu, th, cl).
    """
    try:
        hand = parse_hand(" ".join(hand_text))
    except QuiddlerError as exc:
        raise InputError(f"HAND: {exc}") from None
    top_cards = _cards(discard_top, "--discard-top")
    if discard_top is not None and len(top_cards) != 1:
        raise InputError(f"--discard-top must be one card, not {discard_top!r}")
    wordlist = load_wordlist(wordlist_path) if wordlist_path else default_wordlist()
    words = _parse_words(went_out, wordlist, len(hand) - 1) if went_out is not None else ()
    if words and top_cards:
        raise InputError("--went-out describes a final turn after drawing: leave out --discard-top")
    view = position_view(hand, discard_top=top_cards[0] if top_cards else None, seen=_cards(seen, "--seen"),
                         opponents=opponents, round_number=round_number, went_out=words, turn=turn,
                         rules=Rules(wordlist=wordlist if wordlist_path else None))  # fmt: skip
    result = hint(view)
    click.echo(json.dumps(result.to_dict()) if as_json else _hint_text(result))
