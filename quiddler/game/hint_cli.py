"""``quiddler hint``: the expert's advice for a position typed in.

Parsing and printing only: the position becomes a
:class:`~quiddler.game.state.PlayerView` and :func:`~quiddler.game.hints.hint`
ranks the moves.  The ``quiddler`` group loads this command lazily.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import click

from ..cards import DECK_SIZE, Card, format_hand, parse_hand
from ..errors import QuiddlerError
from ..solver.types import Word
from ..wordlist import WordList, default_wordlist, load_wordlist
from .cli import _InputError, _OneLineErrors
from .hints import Hint, hint
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .state import Phase, PlayerView

__all__ = ["hint_command", "position_view"]

_EPILOG = """\b
Examples:
  quiddler hint q,i,t,e --discard-top er          # before drawing: pile or discard top?
  quiddler hint qu,i,e,t,er                       # just drew: what to discard, or go out?
  quiddler hint d,o,g,c,a,t,s --seen z,x,q --opponents 2 --json
  quiddler hint c,a,t,e,r --went-out quiet        # final turn: someone went out with 'quiet'"""


def position_view(hand: tuple[Card, ...], *, discard_top: Card | None = None, seen: tuple[Card, ...] = (),
                  opponents: int = 1, round_number: int | None = None, went_out: tuple[Word, ...] = (),
                  rules: Rules | None = None) -> PlayerView:  # fmt: skip
    """The view of seat 0 in a position described by hand: before drawing
    when ``discard_top`` is given (the hand as dealt), else just after
    drawing (one card more than dealt).  ``seen`` are other cards known to
    be out of play (face up earlier); ``went_out`` the words an opponent
    went out with, which makes this the final turn.  Raises ValueError
    naming what does not fit."""
    rules = rules or Rules()
    players = opponents + 1
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"--opponents must be 1 to {MAX_PLAYERS - 1}, not {opponents}")
    drawing = discard_top is not None
    n = len(hand) if drawing else len(hand) - 1
    if n < 2:
        what = "before drawing" if drawing else "after drawing (one more than dealt)"
        raise ValueError(f"a hand of {len(hand)} cards {what} is too small: rounds deal at least 2 cards")
    if round_number is None:
        round_index = rules.round_sizes.index(n) if n in rules.round_sizes else len(rules.round_sizes) - 1
    else:
        if not 1 <= round_number <= rules.rounds:
            raise ValueError(f"--round must be 1 to {rules.rounds}, not {round_number}")
        round_index = round_number - 1
        dealt = rules.round_sizes[round_index]
        if dealt != n:
            shape = f"{len(hand)} cards before drawing" if drawing else f"{len(hand)} cards after drawing"
            raise ValueError(f"round {round_number} deals {dealt} cards, but the hand has {shape}")
    face_up = seen + ((discard_top,) if discard_top is not None else ())
    in_words = tuple(c for w in went_out for c in w.cards)
    for card, count in (Counter(hand) + Counter(face_up) + Counter(in_words)).items():
        if count > card.copies:
            raise ValueError(f"{count} {card} cards given, but the deck holds {card.copies}")
    if went_out and drawing is False and len(in_words) != n:
        raise ValueError(f"going out lays down {n} cards in this round, the words given use {len(in_words)}")
    hands_out = players * n + len(face_up) + len(in_words) + (0 if drawing else 1)
    laid = ((), went_out) + ((),) * (opponents - 1) if went_out else ((),) * players
    return PlayerView(
        seat=0, players=players, rules=rules, round=round_index, round_size=n, dealer=players - 1, turn=0,
        phase=Phase.DRAW if drawing else Phase.DISCARD, hand=hand, discard_top=face_up[-1] if face_up else None,
        draw_pile_size=max(1, DECK_SIZE - hands_out), discard_pile_size=len(face_up),
        hand_sizes=(len(hand),) + ((0,) if went_out else (n,)) + (n,) * (opponents - 1),
        seen=face_up, laid_down=laid, totals=(0,) * players, went_out=1 if went_out else None,
        turns_taken=1 if (went_out or not drawing) else 0, history=(),
    )  # fmt: skip


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


@click.command("hint", cls=_OneLineErrors, epilog=_EPILOG,
               short_help="The expert's advice for a position: which pile, which discard, go out or not.")  # fmt: skip
@click.argument("hand_text", metavar="HAND", nargs=-1, required=True)
@click.option("--discard-top", metavar="CARD", default=None,
              help="The face-up card: HAND is then the hand before drawing, and the hint is the draw.")  # fmt: skip
@click.option("--seen", metavar="CARDS", default=None, help="Other cards known to be out of play (face up earlier).")
@click.option("--opponents", type=int, default=1, show_default=True, help="Number of other players.")
@click.option("--round", "round_number", type=int, default=None, metavar="N",
              help="Round number, 1-8 (default: the round that deals this many cards).")  # fmt: skip
@click.option("--went-out", metavar="WORDS", default=None,
              help="Words an opponent went out with: this is your final turn (HAND after drawing).")  # fmt: skip
@click.option("--wordlist", "wordlist_path", type=click.Path(dir_okay=False), default=None,
              help="Word list file (default: ENABLE).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def hint_command(hand_text: tuple[str, ...], discard_top: str | None, seen: str | None, opponents: int,
                 round_number: int | None, went_out: str | None, wordlist_path: str | None,
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
        raise _InputError(f"HAND: {exc}") from None
    top_cards = _cards(discard_top, "--discard-top")
    if discard_top is not None and len(top_cards) != 1:
        raise _InputError(f"--discard-top must be one card, not {discard_top!r}")
    wordlist = load_wordlist(wordlist_path) if wordlist_path else default_wordlist()
    words = _parse_words(went_out, wordlist, len(hand) - 1) if went_out is not None else ()
    if words and top_cards:
        raise _InputError("--went-out describes a final turn after drawing: leave out --discard-top")
    view = position_view(hand, discard_top=top_cards[0] if top_cards else None, seen=_cards(seen, "--seen"),
                         opponents=opponents, round_number=round_number, went_out=words,
                         rules=Rules(wordlist=wordlist if wordlist_path else None))  # fmt: skip
    result = hint(view)
    click.echo(json.dumps(result.to_dict()) if as_json else _hint_text(result))
