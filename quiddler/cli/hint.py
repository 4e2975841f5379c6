"""``quiddler hint``: the expert's advice for a position typed in.

Parsing and printing only: the position becomes a
:class:`~quiddler.game.state.PlayerView` and :func:`~quiddler.game.hints.hint`
ranks the moves.
"""

from __future__ import annotations

import json

import click

from ..cards import Card, format_hand
from ..cardtrie import MIN_WORD_CARDS
from ..errors import shown
from ..game.hints import Hint, position_view
from ..game.hints import hint as hint_for
from ..game.rules import MAX_PLAYERS, Rules
from ..solver import Word
from ..wordlist import WordList, default_wordlist
from .errors import InputError, OneLineErrors
from .params import Hand, cards_argument, json_option, wordlist_option

__all__ = ["hint"]

_ROUNDS = len(Rules().round_sizes)

_EPILOG = """\b
Examples:
  quiddler hint q,i,t,e --discard-top er          # before drawing: pile or discard top?
  quiddler hint qu,i,e,t,er                       # just drew: what to discard, or go out?
  quiddler hint d,o,g,c,a,t,s --seen z,x,q --opponents 2 --json
  quiddler hint c,a,t,e,r --went-out quiet        # final turn: someone went out with 'quiet'
  quiddler hint j,a,z,z,x --level master          # go out now, or wait? by simulated finishes"""


def _parse_words(text: str, wordlist: WordList, cards: int | None) -> tuple[Word, ...]:
    """Words such as ``quiet,dog``: of the ways to spell them with cards,
    the one using ``cards`` cards in all (a going-out play lays down exactly
    the round's cards) that scores most.

    The count is checked first (every word takes at least two cards) and
    the spellings are chosen word by word over the cards used so far, so
    the work grows with the words given, not with the product of their
    spellings."""
    raws = text.replace(",", " ").split()
    if not raws:
        raise ValueError("--went-out names no words")
    if cards is not None and len(raws) * MIN_WORD_CARDS > cards:
        words = f"{len(raws)} words need" if len(raws) > 1 else "1 word needs"
        raise ValueError(f"--went-out: {words} at least {len(raws) * MIN_WORD_CARDS} cards, "
                         f"but going out lays down {cards}")  # fmt: skip
    options = []
    for raw in raws:
        spellings = wordlist.spellings(raw)
        if not spellings:
            raise ValueError(f"--went-out: {shown(raw.strip().lower())} is not a playable word in {wordlist.name}")
        options.append(spellings)
    # best[used]: the highest-scoring choice of spellings so far using ``used``
    # cards (on a tie, the earliest spellings), as (points, spelling indices).
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for spellings in options:
        step: dict[int, tuple[int, tuple[int, ...]]] = {}
        for used, (points, chosen) in best.items():
            for k, spelling in enumerate(spellings):
                total = used + len(spelling)
                if cards is not None and total > cards:
                    continue
                candidate = (points + sum(c.points for c in spelling), chosen + (k,))
                held = step.get(total)
                if held is None or candidate[0] > held[0] or (candidate[0] == held[0] and candidate[1] < held[1]):
                    step[total] = candidate
        best = step
    if cards is None:
        fitting = max(best.values(), key=lambda entry: entry[0]) if best else None
    else:
        fitting = best.get(cards)
    if fitting is None:
        raise ValueError(f"--went-out: those words cannot be spelled with the {cards} cards going out lays down")
    combo = [options[i][k] for i, k in enumerate(fitting[1])]
    return tuple(Word("".join(c.face for c in s), s) for s in combo)


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


@click.command("hint", cls=OneLineErrors, epilog=_EPILOG,
               short_help="The expert's advice for a position: which pile, which discard, go out or not.")  # fmt: skip
@cards_argument("hand", metavar="HAND", example="quiddler hint qu,i,e,t,er")
@click.option("--discard-top", type=Hand(), metavar="CARD", default=None,
              help="The face-up card: HAND is then the hand before drawing, and the hint is the draw.")  # fmt: skip
@click.option("--seen", type=Hand(allow_empty=True), metavar="CARDS", default=None,
              help="Other cards known to be out of play (face up earlier).")  # fmt: skip
@click.option("--opponents", type=click.IntRange(1, MAX_PLAYERS - 1), default=1, show_default=True, metavar="N",
              help="Number of other players.")  # fmt: skip
@click.option("--round", "round_number", type=click.IntRange(1, _ROUNDS), default=None, metavar="N",
              help=f"Round number, 1-{_ROUNDS} (default: the round that deals this many cards).")  # fmt: skip
@click.option("--turn", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Your turn number in this round, this turn included (the expert waits only early).")  # fmt: skip
@click.option("--went-out", metavar="WORDS", default=None,
              help="Words an opponent went out with: this is your final turn (HAND after drawing).")  # fmt: skip
@click.option("--level", default="expert", show_default=True, metavar="NAME",
              help="Whose advice: expert, or master (searches going out against waiting by "
                   "simulated finishes of the round), ev, medium or easy.")  # fmt: skip
@wordlist_option
@json_option
def hint(hand: tuple[Card, ...], discard_top: tuple[Card, ...] | None, seen: tuple[Card, ...] | None,
         opponents: int, round_number: int | None, turn: int, went_out: str | None, level: str,
         wordlist: WordList | None, as_json: bool) -> None:  # fmt: skip
    """Advise on a Quiddler position: with --discard-top, HAND is your hand
    before drawing and the hint says whether to take the discard top or draw
    blind; without it, HAND has just drawn (one card more than dealt) and the
    hint says which card to discard, or how to go out.  Every option is
    listed with its expected value in points, best first.

    Cards are faces separated by commas or spaces (two-letter cards: er, in,
    qu, th, cl).
    """
    if discard_top is not None and len(discard_top) != 1:
        raise InputError(f"--discard-top must be one card, not {format_hand(discard_top)!r}")
    words_from = wordlist if wordlist is not None else default_wordlist()
    words = _parse_words(went_out, words_from, len(hand) - 1) if went_out is not None else ()
    if words and discard_top:
        raise InputError("--went-out describes a final turn after drawing: leave out --discard-top")
    view = position_view(hand, discard_top=discard_top[0] if discard_top else None, seen=seen or (),
                         opponents=opponents, round_number=round_number, went_out=words, turn=turn,
                         rules=Rules(wordlist=wordlist))  # fmt: skip
    result = hint_for(view, level=level.lower())
    click.echo(json.dumps(result.to_dict()) if as_json else _hint_text(result))
