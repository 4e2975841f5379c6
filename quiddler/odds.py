"""Go-out odds: how often a dealt hand can go out on its first turn, by hand size.

Monte Carlo over deals from the official 118-card deck.  Each trial deals a
hand of ``cards`` cards, the discard pile's first card (the face-up top)
and the next card of the draw pile (a blind draw), then asks the compiled
batch solver (:func:`~quiddler.solver.score_counts`, the engine of
:func:`~quiddler.score_many`) whether the hand plus the drawn card, less one
discard, can be laid down entirely:

* ``turn="first"``: as a player on a first turn would, take the discard top
  if that goes out, otherwise draw blind;
* ``turn="blind"``: a blind draw only.

Each row gives the go-out probability with its standard error and the
distribution (mean, quartiles) of the best score of the hand held after
that draw (the best play, going out or not, no bonuses).

Deals are generated with numpy from ``(seed, cards)`` in fixed batches, so
a row is the same whatever other rows are asked for and whatever the number
of threads, more trials extend the same deals, and :func:`deal` gives the
very deals a table was made of.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from .cards import DECK_SIZE, full_deck
from .cardtrie import KERNEL_ORDER
from .errors import ArgumentTypeError, InvalidArgumentError, shown
from .solver import FACE_SLOTS, MAX_CARDS
from .wordlist import WordList

__all__ = ["BATCH", "OddsRow", "OddsTable", "deal", "go_out_odds", "parse_cards_range"]

Turn = Literal["first", "blind"]
TURNS: tuple[Turn, ...] = ("first", "blind")

#: Deals are made and solved this many at a time, 20,000 (fixed: the deals depend on it).
BATCH = 20_000

#: The largest hand: with the drawn card it must fit the solver.
MAX_HAND = MAX_CARDS - 1


@dataclass(frozen=True, slots=True)
class OddsRow:
    """The odds for one hand size: one row of ``quiddler odds``.

    :ivar cards: The hand size: cards dealt, before the draw.
    :ivar trials: The deals tried.
    :ivar went_out: How many of them could go out after the draw.
    :ivar best_mean: The mean best score of the hand held after the draw
        (the best play, going out or not, no bonuses).
    :ivar best_quartiles: The quartiles (25%, 50%, 75%) of that best score.
    """

    cards: int
    trials: int
    went_out: int  #: trials whose hand could go out
    best_mean: float  #: mean best score of the hand held after the draw
    best_quartiles: tuple[float, float, float]

    @property
    def go_out(self) -> float:
        """The probability of going out: :attr:`went_out` over :attr:`trials`."""
        return self.went_out / self.trials

    @property
    def se(self) -> float:
        """Standard error of :attr:`go_out` (binomial)."""
        p = self.go_out
        return math.sqrt(p * (1 - p) / self.trials)

    def to_dict(self) -> dict[str, Any]:
        """The row's JSON shape (see [JSON shapes](../json.md#go-out-odds)).

        :returns: ``{"cards", "go_out", "se", "best_score"}``, rounded.
        """
        return {
            "cards": self.cards,
            "go_out": round(self.go_out, 6),
            "se": round(self.se, 6),
            "best_score": {"mean": round(self.best_mean, 3), "quartiles": [round(q, 3) for q in self.best_quartiles]},
        }


@dataclass(frozen=True, slots=True)
class OddsTable:
    """What :func:`go_out_odds` returns; :meth:`to_dict` is the ``--json`` output.

    :ivar trials: The deals tried per hand size.
    :ivar seed: The seed the deals were made from: the same seed gives the
        same table (:func:`deal` lists the deals).
    :ivar turn: ``"first"`` (take the discard top if it goes out, else draw
        blind) or ``"blind"`` (draw blind only).
    :ivar wordlist: The name of the word list used.
    :ivar rows: One :class:`OddsRow` per hand size, in the order asked for.
    """

    trials: int
    seed: int
    turn: Turn
    wordlist: str
    rows: tuple[OddsRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """The table's JSON shape (see [JSON shapes](../json.md#go-out-odds)).

        :returns: ``{"trials", "seed", "turn", "rows"}``, rows as :meth:`OddsRow.to_dict` gives them.
        """
        return {"trials": self.trials, "seed": self.seed, "turn": self.turn, "wordlist": self.wordlist,
                "rows": [row.to_dict() for row in self.rows]}  # fmt: skip


def parse_cards_range(text: str) -> range:
    """``"3-10"`` or ``"7"`` as a range of hand sizes; ValueError naming the problem.

    >>> parse_cards_range("3-10"), parse_cards_range("7")
    (range(3, 11), range(7, 8))

    :param text: ``"N"`` or ``"LOW-HIGH"``.
    :returns: The hand sizes, LOW to HIGH inclusive.
    :raises InvalidArgumentError: ``text`` is not of that form, or a size is outside
        1 to 19 (with the drawn card the hand must fit the solver).
    """
    low_text, dash, high_text = text.strip().partition("-")
    try:
        low = int(low_text)
        high = int(high_text) if dash else low
    except ValueError:
        raise InvalidArgumentError(f"hand sizes must be N or LOW-HIGH, such as 3-10, not {shown(text)}") from None
    if not 1 <= low <= high <= MAX_HAND:
        raise InvalidArgumentError(f"hand sizes must be from 1 to {MAX_HAND} cards, low to high, not {shown(text)}")
    return range(low, high + 1)


def _integer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an integer, not {shown(value)}")
    return value


def _deck() -> Any:
    import numpy as np

    index = {face: k for k, face in enumerate(KERNEL_ORDER)}
    return np.array([index[card.face] for card in full_deck()], dtype=np.int8)


def _deal_batch(rng: Any, deck: Any, count: int, width: int) -> Any:
    """``count`` deals of ``width`` cards each: the first ``width`` steps of a
    Fisher-Yates shuffle of the deck, for every deal at once."""
    import numpy as np

    cards = np.tile(deck, (count, 1))
    rows = np.arange(count)
    for j in range(width):
        pick = rng.integers(j, DECK_SIZE, size=count)
        chosen = cards[rows, pick]
        cards[rows, pick] = cards[rows, j]
        cards[:, j] = chosen
    return cards[:, :width]


def _batches(seed: int, cards: int, trials: int) -> Iterable[Any]:
    """The deals for one hand size, :data:`BATCH` at a time: per deal the
    hand's ``cards`` kernel face indices, then the discard top, then the
    blind draw."""
    import numpy as np

    rng = np.random.default_rng([seed, cards])
    deck = _deck()
    for start in range(0, trials, BATCH):
        # Always a whole batch from the generator, so a run of N deals
        # begins with the deals of every shorter run.
        yield _deal_batch(rng, deck, BATCH, cards + 2)[: trials - start]


def deal(seed: int, cards: int, trials: int) -> list[tuple[tuple[str, ...], str, str]]:
    """The deals a table with ``seed`` uses for hands of ``cards`` cards:
    ``(hand faces, discard top, blind draw)`` per trial (for checking).

    :param seed: The table's seed (:attr:`OddsTable.seed`).
    :param cards: The hand size.
    :param trials: How many deals.
    :returns: ``(hand faces, discard top, blind draw)`` per deal, in order.
    """
    out = []
    for batch in _batches(seed, cards, trials):
        for row in batch.tolist():
            faces = [KERNEL_ORDER[k] for k in row]
            out.append((tuple(faces[:cards]), faces[cards], faces[cards + 1]))
    return out


def _counts(hand_faces: Any) -> Any:
    """Face-count rows (n x 32) of the hands whose face indices are the rows of ``hand_faces``."""
    import numpy as np

    n = len(hand_faces)
    flat = (np.arange(n)[:, None] * FACE_SLOTS + hand_faces).ravel()
    return np.bincount(flat, minlength=n * FACE_SLOTS).reshape(n, FACE_SLOTS).astype(np.int64)


def _one_batch(batch: Any, cards: int, turn: Turn, wordlist: WordList | None,
               threads: int | None) -> tuple[int, Any]:  # fmt: skip
    """(hands that went out, best scores) for one batch of deals."""
    import numpy as np

    from .solver import NO_GO_OUT, score_counts

    hands = _counts(batch[:, :cards])
    n = len(batch)
    rows = np.arange(n)
    blind = hands.copy()
    blind[rows, batch[:, cards + 1]] += 1
    if turn == "blind":
        best, go_out = score_counts(blind, discard=True, wordlist=wordlist, threads=threads)
        return int((go_out != NO_GO_OUT).sum()), best
    with_top = hands
    with_top[rows, batch[:, cards]] += 1
    best, go_out = score_counts(with_top, discard=True, wordlist=wordlist, threads=threads)
    takes = go_out != NO_GO_OUT
    draws = np.flatnonzero(~takes)
    if len(draws):
        blind_best, blind_out = score_counts(blind[draws], discard=True, wordlist=wordlist, threads=threads)
        best[draws] = blind_best
        takes[draws] = blind_out != NO_GO_OUT
    return int(takes.sum()), best


#: Best scores are counted in a histogram over [-_SCORE_SHIFT, _SCORE_SHIFT):
#: far wider than any hand of at most 20 cards can score.
_SCORE_SHIFT = 1024


def _mean_and_quartiles(histogram: Any) -> tuple[float, tuple[float, float, float]]:
    """The mean and quartiles of the scores counted in ``histogram`` (index
    ``score + _SCORE_SHIFT``), the quartiles as numpy's default (linear)
    ``percentile`` computes them from the sorted scores."""
    import numpy as np

    n = int(histogram.sum())
    values = np.arange(len(histogram)) - _SCORE_SHIFT
    mean = float((histogram * values).sum() / n)
    cumulative = np.cumsum(histogram)

    def sorted_score(k: int) -> int:  # the k-th smallest score (from 0)
        return int(values[np.searchsorted(cumulative, k, side="right")])

    quartiles = []
    for q in (0.25, 0.5, 0.75):
        position = q * (n - 1)
        low = math.floor(position)
        a = sorted_score(low)
        b = sorted_score(min(low + 1, n - 1))
        quartiles.append(a + (b - a) * (position - low))
    return mean, (quartiles[0], quartiles[1], quartiles[2])


def go_out_odds(
    cards: Iterable[int] = range(3, 11),
    *,
    trials: int = 80_000,
    turn: Turn = "first",
    wordlist: WordList | None = None,
    seed: int | None = None,
    workers: int | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> OddsTable:
    """The go-out odds table for each hand size in ``cards``, from ``trials``
    random deals per size.

    Each trial deals a hand of that many cards from the official deck, the
    discard pile's face-up top and the next card of the draw pile, then asks
    the compiled batch solver whether the hand plus the drawn card, less one
    discard, can be laid down entirely.  Deals come from ``(seed, cards)``
    in fixed batches of :data:`BATCH`: a row is the same whatever other rows
    are asked for and whatever the number of threads, and more trials
    extend the same deals.

    ``workers`` caps the solver's threads (default: every core);
    ``seed`` fixes the deals (default: random, reported in the table).
    ``on_batch(cards, deals)`` is called after each batch (for progress).

    >>> table = go_out_odds([3], trials=2000, seed=1)
    >>> table.rows[0].cards, 0.7 < table.rows[0].go_out < 0.9
    (3, True)

    :param cards: The hand sizes, each 1 to 19.
    :param trials: Deals per hand size, at least 1.
    :param turn: ``"first"`` (take the discard top if that goes out, else
        draw blind, as on a first turn) or ``"blind"`` (a blind draw only).
    :param wordlist: The word list; None: the default ENABLE list.
    :param seed: Fixes the deals; None: a random seed, reported in the table.
    :param workers: The most solver threads; None: every core.
    :param on_batch: Called as ``on_batch(cards, deals)`` after each batch.
    :returns: One row per hand size, with the seed used.
    :raises ArgumentTypeError: An argument has the wrong type.
    :raises InvalidArgumentError: ``trials`` or ``workers`` is below 1,
        ``turn`` is neither name, or a hand size is outside 1 to 19.
    """
    import numpy as np

    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ArgumentTypeError(f"cards must be hand sizes (such as range(3, 11)), not {shown(cards)}")
    sizes = list(cards)
    if _integer("trials", trials) < 1:
        raise InvalidArgumentError(f"trials must be at least 1, not {trials}")
    if turn not in TURNS:
        raise InvalidArgumentError(f"turn must be 'first' or 'blind', not {shown(turn)}")
    for size in sizes:
        if not 1 <= _integer("a hand size", size) <= MAX_HAND:
            raise InvalidArgumentError(f"hand sizes must be from 1 to {MAX_HAND} cards, not {size}")
    if workers is not None and _integer("workers", workers) < 1:
        raise InvalidArgumentError(f"workers must be at least 1, not {workers}")
    if seed is not None:
        _integer("seed", seed)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rows = []
    for size in sizes:
        went_out = 0
        histogram = np.zeros(2 * _SCORE_SHIFT, dtype=np.int64)  # memory stays flat for any trials
        for batch in _batches(seed, size, trials):
            count, best = _one_batch(batch, size, turn, wordlist, workers)
            went_out += count
            histogram += np.bincount(best + _SCORE_SHIFT, minlength=2 * _SCORE_SHIFT)
            if on_batch is not None:
                on_batch(size, len(batch))
        rows.append(OddsRow(size, trials, went_out, *_mean_and_quartiles(histogram)))
    name = wordlist.name if wordlist is not None else "ENABLE"
    return OddsTable(trials=trials, seed=seed, turn=turn, wordlist=name, rows=tuple(rows))
