"""Computer players that think: ``ev``, ``expert`` (= ``hard``), ``medium``, ``easy``.

Each is one :class:`Tuning` of the same decision procedure, registered
under its player name (:data:`TUNINGS`); ``play --level`` offers the
``easy``, ``medium`` and ``hard`` players as difficulty levels.

Every decision is made the same way: list the options of the move (draw
from the pile or take the discard top; discard each card or go out; lay
down which words on a final turn), give each an expected value in points,
and play the best (the weaker players pick among near-best options at random).
The options are :class:`~quiddler.game.hint_types.HintOption` values and the
ranking is :func:`advise`, so :func:`~quiddler.game.hints.hint` *is* the
expert explaining its own move.

What the expert values (docs/ai.md has the measurements):

- card counting: a blind draw is any unseen card (:mod:`.counting`), weighted
  by how many copies are unseen;
- the draw: the discard top against the expected blind draw, each valued as
  the best the hand can do after it (going out counted as such);
- the discard: the kept hand looking one draw ahead (its expected best score
  after each possible next card, plus a premium for the chance to go out),
  less a penalty for handing the next player a useful card;
- going out or waiting: going out scores now and keeps the bonuses it is
  likely to keep; waiting keeps a complete hand (it is never lost) and may
  improve it, but gives the others another turn, which costs points;
- the final turn: exact and bonus-aware, a tie that voids the goer's bonus
  included;
- the standings: in the last round a leader goes out at once and a player
  far behind waits for more.

All hands of one decision are scored in one batch (:mod:`.evaluate`).
"""

from __future__ import annotations

import bisect
import heapq
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul

from ..cards import _CARD_INDEX, Card, full_deck
from ..solver.core import CLASS_WORDS
from ..solver.types import Play, make_play
from ..wordlist import WordList
from .counting import holdings, unseen_counts
from .evaluate import HandScorer, scorer_for
from .explanations import (
    Alternative,
    Discarding,
    DrawChoice,
    Explanation,
    GoingOut,
    LayingDown,
    OnlyDraw,
    Sum,
    Term,
    Waiting,
    percent,
)
from .finals import best_final_play_of
from .hint_types import Hint, HintOption
from .players import TARGET_BONUS, class_scores, register_player, solve_cards
from .state import Discard, Draw, GoOut, LayDown, Phase, PlayerView
from .vocabulary import vocabulary_wordlist

__all__ = ["EASY", "EV", "EXPERT", "MEDIUM", "TUNINGS", "AIPlayer", "Tuning", "advise"]

_CARD_ORDER = _CARD_INDEX.__getitem__  # cards' own order, as a sort key at C speed
_LETTERS = {card: card.letters for card in _CARD_INDEX}  # a card's letters, without the property's call


@dataclass(frozen=True, slots=True)
class Tuning:
    """How one computer player decides.  Every field is one ingredient of
    the expert that a weaker player leaves out or weakens."""

    name: str  #: the player name it is registered under
    #: vocabulary name (see :mod:`.vocabulary`); None plays the game's whole list
    vocabulary: str | None = None
    #: draw: the discard top against the expected blind draw; False: greedy's
    #: rule (take the top if it lets the hand go out or raises its score now)
    blind_ev: bool = True
    #: discard: value the kept hand by its expected best after one more draw;
    #: False: by its score now
    lookahead: bool = True
    #: discards looked ahead (the best this-many by their score now)
    prune: int = 5
    #: points added to a hand that can go out, in the values above
    out_premium: float = 0.0
    #: lambda: points per unit of chance that the kept hand can go out after the next draw
    out_weight: float = 0.0
    #: mu: weight of the expected gain a discard hands to the next player
    gift_weight: float = 0.0
    #: value a going-out play by the bonuses it is likely to keep
    bonus_aware: bool = False
    #: points waiting costs when going out is possible (the others' extra
    #: turn); None: always go out as soon as possible
    wait_cost: float | None = None
    #: added to ``wait_cost`` per card the round deals above 6 (waiting pays more in long rounds)
    wait_slope: float = 0.0
    #: no waiting after this many turns of the round (rounds must end)
    wait_turns: int = 0
    #: go out at once when leading in the last round; wait more when far behind
    standings: bool = False
    #: final turn: also value ties that void the goer's bonus
    deny_bonus: bool = False
    #: final turn's draw: value each hand with the bonuses its words would win
    #: from those laid down; False: by its plain best score (several times
    #: cheaper to score; the lay-down after it still aims at the bonuses)
    final_draw_bonuses: bool = True
    #: softmax temperature in points for picking a move (0: always the best)
    noise: float = 0.0


EV = Tuning("ev", prune=32)  # looks ahead on every discard
EXPERT = Tuning("expert", out_premium=2.0, out_weight=4.0, gift_weight=0.5, bonus_aware=True, wait_cost=-4.0,
                wait_turns=1, standings=True, deny_bonus=True)  # fmt: skip
MEDIUM = Tuning("medium", vocabulary="medium", lookahead=False, noise=1.5)
EASY = Tuning("easy", vocabulary="easy", blind_ev=False, lookahead=False, noise=3.0)
#: Player name -> tuning (``hard`` is the expert under the name ``play --level`` offers).
TUNINGS = {"ev": EV, "expert": EXPERT, "hard": EXPERT, "medium": MEDIUM, "easy": EASY}


# -- the position a decision is made in -------------------------------------------


class _Position:
    """One view seen through one tuning: its vocabulary, scorer and the
    chances of each face on a blind draw."""

    def __init__(self, view: PlayerView, tuning: Tuning, explain: bool = True, best_only: bool = False) -> None:
        self.view = view
        self.tuning = tuning
        #: whether the decision's reason is wanted (a player moving needs only the ranking)
        self.explain = explain
        #: whether only the best option is wanted (a player moving without noise): a decision
        #: may then leave out options that provably rank below it
        self.best_only = best_only and not explain
        self.n = view.round_size
        self.words = vocabulary_wordlist(tuning.vocabulary, view.rules.words)
        self.scorer: HandScorer = scorer_for(self.words)
        self.longest_bonus, self.most_bonus = view.rules.bonuses(view.players)
        #: the bonus terms of a going-out play by its longest word and word count
        #: (see _bonus_parts_at: a decision asks for a few pairs many times)
        self.bonus_parts: dict[tuple[int, int], tuple[float, float]] = {}
        self._held: list[dict[Card, int]] | None = None
        self._counted: tuple[list[Card], list[float]] | None = None

    # Card counting is worked out when first read: a final turn's lay-down reads none of it.
    # (By hand, not functools.cached_property: in Python 3.11 its first read takes a lock, and
    # every decision makes a new position whose first reads are most of the reads.)

    @property
    def held(self) -> list[dict[Card, int]]:
        """The cards each other seat is known to hold (card counting reads them twice)."""
        if self._held is None:
            self._held = holdings(self.view)
        return self._held

    @property
    def _pool(self) -> tuple[list[Card], list[float]]:
        if self._counted is None:
            faces, counts = unseen_counts(self.view, self.held)
            total = sum(counts)
            self._counted = faces, [n / total for n in counts] if total else []
        return self._counted

    @property
    def faces(self) -> list[Card]:
        """The faces a blind draw may bring, in the cards' order."""
        return self._pool[0]

    @property
    def probs(self) -> list[float]:
        """Each face's chance on a blind draw (in ``faces`` order)."""
        return self._pool[1]

    def blind(self, values: Sequence[float]) -> float:
        """Expectation over a blind draw of per-face ``values`` (in ``self.faces`` order)."""
        total: float = sum(map(mul, self.probs, values))  # the same sum, in the same order, at C speed
        return total

    def final_targets(self) -> tuple[int | None, int | None, int]:
        """score_many's bonus options for a final turn: beat what the others laid down."""
        if self.view.rules.bonus_requires_going_out:
            return None, None, 0
        longest, count = self.view.others_best()
        lb, mb = self.longest_bonus, self.most_bonus
        if lb and mb:
            return longest, count, (lb + mb) // 2  # equal in every official variant
        if lb:
            return longest, None, lb
        if mb:
            return None, count, mb
        return None, None, 0

    def going_values(self, bases: Sequence[Sequence[Card]], extra: Sequence[Card],
                     may_out: bool) -> tuple[list[float], list[bool]]:  # fmt: skip
        """W(X) for the (n+1)-card hands X = base + [card] (each base, each
        card of ``extra``) on an ordinary turn: the going-out score (plus the
        premium) when the hand can and may go out, else its best score; and
        whether each can go out."""
        scored = self.scorer.scores_plus(bases, extra, discard=True)
        premium = self.tuning.out_premium
        if may_out:
            values = [float(best) if out is None else out + premium for best, out in scored]
        else:
            values = [float(best) for best, _ in scored]
        return values, [out is not None for _, out in scored]

    def final_values(self, base: Sequence[Card], extra: Sequence[Card]) -> list[float]:
        """Best score of the (n+1)-card hands ``base + [card]`` for each card
        of ``extra`` on a final turn, bonuses for beating the others counted."""
        if not self.tuning.final_draw_bonuses:
            return [float(best) for best, _ in self.scorer.scores_plus([base], extra, discard=True)]
        longest, count, bonus = self.final_targets()
        return [float(best) for best, _ in self.scorer.scores_plus([base], extra, discard=True, beat_longest=longest,
                                                                     beat_words=count, bonus=bonus)]  # fmt: skip


# -- tables learned once per word list and round size ------------------------------


@lru_cache(maxsize=64)
def _table(words: WordList, n: int) -> tuple[dict[Card, float], list[int], list[int]]:
    """For random hands of ``n`` cards: the expected gain of being handed
    each face (over a blind draw), and the longest word (letters) and word
    count of the best play of random (n+1)-card hands, sorted.  Sampled
    with a fixed seed, so decisions stay reproducible."""
    rng = random.Random(9_000 + n)
    deck = list(full_deck())
    faces = sorted(set(deck))
    samples = [rng.sample(deck, n) for _ in range(32)]
    scorer = scorer_for(words)
    gains = {f: 0.0 for f in faces}
    rows = scorer.scores([hand + [f] for hand in samples for f in faces], discard=True)
    for k in range(len(samples)):
        row = [float(rows[k * len(faces) + j][0]) for j in range(len(faces))]
        blind = sum(f.copies * v for f, v in zip(faces, row)) / len(deck)
        for f, v in zip(faces, row):
            gains[f] += max(0.0, v - blind) / len(samples)
    plays = [solve_cards(hand + [rng.choice(deck)], words).best for hand in samples]
    return gains, sorted(p.longest_word for p in plays), sorted(p.word_count for p in plays)


def _share_below(sorted_values: list[int], value: int) -> float:
    """Fraction of ``sorted_values`` strictly below ``value``."""
    return bisect.bisect_left(sorted_values, value) / len(sorted_values) if sorted_values else 0.0


# -- the three decisions ------------------------------------------------------------


def _draw_options(pos: _Position) -> tuple[list[HintOption], Explanation | None]:
    view, tuning = pos.view, pos.tuning
    hand = list(view.hand)
    top = view.discard_top
    can_pile = view.may_draw_from_pile
    drawn = ([top] if top is not None else []) + pos.faces  # the hand is valued with each card it may draw
    if view.final_turn:
        values = pos.final_values(hand, drawn)
        outs = [False] * len(values)
    else:
        values, outs = pos.going_values([hand], drawn, view.may_go_out)
    top_value = values[0] if top is not None else None
    face_values = values[1:] if top is not None else values
    blind = pos.blind(face_values) if pos.probs else (top_value or 0.0)
    if not tuning.blind_ev:  # greedy's rule: the top against keeping the hand as it is
        blind = float(pos.scorer.one(hand, discard=False)[0]) if not view.final_turn else blind
        if top is not None and outs[0] and not view.final_turn:
            blind = min(blind, (top_value or 0.0) - 0.5)
    options = []
    if top is not None:
        options.append(HintOption("take-discard", top, None, top_value or 0.0))
    if can_pile:
        options.append(HintOption("draw-pile", None, None, blind))
    options.sort(key=lambda o: -o.value)
    if not pos.explain:
        return options, None
    best = options[0]
    if top is None or not can_pile:
        return options, OnlyDraw("pile" if top is None else "discard")
    assert top is not None and top_value is not None
    premium = tuning.out_premium if view.may_go_out and not view.final_turn else 0.0
    if view.final_turn:  # the values count the bonuses the words would win from the others' words
        plain = [float(best) for best, _ in pos.scorer.scores_plus([hand], drawn, discard=True)]
        take = Sum.of("words", plain[0], [Term("bonuses_won", top_value - plain[0])], top_value)
    elif outs[0] and view.may_go_out:
        take = Sum.of("go_out_now", top_value - premium, [Term("going_out", premium)], top_value)
    else:
        take = Sum.of("words", top_value, [], top_value)
    if not tuning.blind_ev:
        pile = Sum.of("keep_hand", blind, [], blind)
    elif view.final_turn:
        plain_blind = pos.blind(plain[1:]) if pos.probs else plain[0]
        pile = Sum.of("blind_draw", plain_blind, [Term("bonuses_won", blind - plain_blind)], blind)
    else:
        p_out = pos.blind([float(o) for o in (outs[1:] if top is not None else outs)])
        chance = premium * p_out
        pile = Sum.of("blind_draw", blind - chance, [Term("out_chance", chance, percent=percent(p_out))], blind)
    return options, DrawChoice("take_discard" if best.action == "take-discard" else "draw_pile", top, take, pile)


def _gifts(pos: _Position, cards: Sequence[Card]) -> dict[Card, float]:
    """Expected gain each discard hands the next player: what it is worth to
    a typical hand over a blind draw, plus what it adds to the cards that
    player is known to hold (taken face up this round)."""
    view = pos.view
    gains, _, _ = _table(pos.words, pos.n)
    gift = {c: gains[c] for c in cards}
    nxt = (view.seat + 1) % view.players
    held = pos.held[nxt]
    if held and nxt != view.seat:
        base = [card for card, n in held.items() for _ in range(n)]  # a Counter's elements(), in its order
        scored = pos.scorer.scores([base] + [base + [c] for c in cards], discard=False)
        for c, (with_c, _) in zip(cards, scored[1:]):
            gift[c] += max(0.0, with_c - scored[0][0] + c.points) / 2
    return gift


def _bonus_keep(pos: _Position, play: Play) -> float:
    """The bonuses a going-out play is expected to keep: the chance that no
    other player ties or beats its longest word (its word count), times the
    bonus; the others' best plays are sampled once per round size."""
    return sum(_bonus_parts(pos, play))


def _bonus_parts(pos: _Position, play: Play) -> tuple[float, float]:
    """:func:`_bonus_keep`'s two terms: (longest-word, most-words).  Each is
    the bonus times the chance that each of the others, independently, ends
    below the play (their best plays' share below it, to the power of
    their number)."""
    if not play.words:
        return 0.0, 0.0
    return _bonus_parts_at(pos, play.longest_word, play.word_count)


def _bonus_parts_at(pos: _Position, letters: int, words: int) -> tuple[float, float]:
    """:func:`_bonus_parts` of a play with a longest word of ``letters`` and ``words`` words."""
    parts = pos.bonus_parts.get((letters, words))
    if parts is None:
        _, longest, counts = _table(pos.words, pos.n)
        others = pos.view.players - 1
        parts = pos.bonus_parts[letters, words] = (pos.longest_bonus * _share_below(longest, letters) ** others,
                                                   pos.most_bonus * _share_below(counts, words) ** others)  # fmt: skip
    return parts


def _wait_cost(pos: _Position) -> float:
    """Points waiting is charged when going out is possible (infinite: never wait)."""
    view, tuning = pos.view, pos.tuning
    if tuning.wait_cost is None or view.turns_taken > tuning.wait_turns:
        return math.inf
    cost = tuning.wait_cost + tuning.wait_slope * (view.round_size - 6)
    if tuning.standings and view.round == view.rules.rounds - 1:
        lead = view.totals[view.seat] - max(t for s, t in enumerate(view.totals) if s != view.seat)
        if lead >= 0:
            return math.inf  # leading in the last round: end it now
        if lead < -25:
            cost = 0.0  # far behind: only a bigger hand can win
    return cost


def _going_out_plays(pos: _Position, kept: Sequence[Card]) -> list[Play]:
    """Going-out plays of the ``n`` kept cards (no discard) worth trying:
    the best, and with bonus awareness the best with more words."""
    sol = solve_cards(list(kept), pos.words, discard=False)
    first = sol.best_go_out
    if first is None:
        return []
    plays = [first]
    if pos.tuning.bonus_aware:
        # Every going-out play of these cards scores the same card points, so another is
        # worth more only by the bonuses it keeps.  The solver ranks plays of one score by
        # their longest word, then their word count, so no going-out play has a longer word
        # than ``first``: another can only have more words (two cards a word at most), with
        # a longest word no longer than ``first``'s.
        most = len(kept) // 2
        if first.word_count >= most or sum(_bonus_parts_at(pos, first.longest_word, most)) <= sum(_bonus_parts(pos, first)):
            return plays
        other = solve_cards(list(kept), pos.words, discard=False, beat_words=first.word_count,
                            bonus=TARGET_BONUS).best  # fmt: skip
        if other.goes_out and other.bonus:
            plays.append(Play(other.words, other.unused, None))
    return plays


def _end_options(pos: _Position) -> tuple[list[HintOption], Explanation | None]:
    view, tuning = pos.view, pos.tuning
    hand = list(view.hand)
    cards = sorted(set(hand), key=_CARD_ORDER)
    kept = _Kept(hand)
    static = dict(zip(cards, pos.scorer.scores_less(hand, cards, discard=False)))
    out_cards = [c for c in cards if static[c][1] is not None] if view.may_go_out else []
    wait = _wait_cost(pos) if out_cards else 0.0
    # Where going out is the only option (no waiting), only the discards that go out are valued.
    valued = out_cards if math.isinf(wait) else cards
    gifts = _gifts(pos, valued) if tuning.gift_weight else dict.fromkeys(valued, 0.0)
    options: list[HintOption] = []
    kept_bonuses: dict[Card, tuple[float, float]] = {}  # per going-out discard: (longest-word, most-words) kept

    def going_out(c: Card) -> HintOption:
        ways = [(play, _bonus_parts(pos, play) if tuning.bonus_aware else (0.0, 0.0))
                for play in _going_out_plays(pos, kept[c])]  # fmt: skip
        # The best way to go out discarding c (most often the only one).
        play, parts = ways[0] if len(ways) == 1 else max(ways, key=lambda way: way[0].card_score + sum(way[1]))
        kept_bonuses[c] = parts
        value = play.card_score + sum(parts)
        return HintOption("go-out", c, play.words, value - tuning.gift_weight * gifts[c])

    if pos.best_only and len(out_cards) > 1:
        options.append(_best_going_out(pos, out_cards, kept, static, gifts, going_out))
    else:
        options += map(going_out, out_cards)
    can_go = bool(options)
    looked: list[Card] = []
    if tuning.lookahead and not math.isinf(wait):
        looked = sorted(cards, key=lambda c: (-static[c][0], -c.points, c))[: tuning.prune]
    values: dict[Card, float] = {}
    chances: dict[Card, float] = {}
    if looked and pos.probs:
        w, outs = pos.going_values([kept[c] for c in looked], pos.faces, True)
        k = len(pos.faces)
        for i, c in enumerate(looked):
            chances[c] = pos.blind(outs[i * k : (i + 1) * k])  # a bool weighs as 1.0 or 0.0
            values[c] = pos.blind(w[i * k : (i + 1) * k]) + tuning.out_weight * chances[c]
    if not math.isinf(wait):  # waiting is an option: each discard that keeps the hand, at its value
        for c in cards:
            value = values.get(c, float(static[c][0])) - tuning.gift_weight * gifts[c] - wait
            options.append(HintOption("discard", c, None, value))
    if tuning.wait_cost is None and can_go:  # go out as soon as possible
        options.sort(key=lambda o: (o.action != "go-out", -o.value))
    else:
        options.sort(key=lambda o: -o.value)
    if not pos.explain:
        return options, None
    best = options[0]
    assert best.card is not None
    c = best.card
    gift = Term("gift", -tuning.gift_weight * gifts[c], card=c)
    if best.action == "go-out":
        others = view.players - 1
        long_kept, most_kept = kept_bonuses[c]
        terms = [Term("longest_kept", long_kept, others=others), Term("most_kept", most_kept, others=others), gift]
        going = Sum.of("play", sum(w.points for w in best.words or ()), terms, best.value,
                       words=[w.text for w in best.words or ()], card=c)  # fmt: skip
        waiting = [o for o in options if o.action == "discard"]
        alternative = Alternative.of(waiting[0].card, waiting[0].value) if waiting and not math.isinf(wait) else None
        return options, GoingOut(going, alternative)
    terms = [gift]
    if not math.isinf(wait) and can_go:
        terms.append(Term("wait" if wait < 0 else "extra_turn", -wait))
    if c in values:
        chance = chances[c]
        lift = (tuning.out_weight + tuning.out_premium) * chance
        kept_value = Sum.of("waiting_average" if can_go else "kept_average", values[c] - lift,
                            [Term("out_chance", lift, percent=percent(chance)), *terms], best.value)  # fmt: skip
    else:
        kept_value = Sum.of("kept_now", float(static[c][0]), terms, best.value)
    if can_go:
        out = max((o for o in options if o.action == "go-out"), key=lambda o: o.value)
        # With two players, if the other goes out first yours is the round's final turn; with more,
        # the players after the goer and before you still play after you.
        return options, Waiting(c, kept_value, view.players == 2, Alternative.of(out.card, out.value))
    return options, Discarding(c, kept_value)


def _best_going_out(pos: _Position, outs: list[Card], kept: dict[Card, list[Card]],
                    static: dict[Card, tuple[int, int | None]], gifts: dict[Card, float],
                    going_out: Callable[[Card], HintOption]) -> HintOption:  # fmt: skip
    """The first best of the going-out options ``going_out(c)`` for ``c``
    in ``outs``, solving only those that can be it.  Going out discarding
    ``c`` scores every card kept (the scorer's going-out score), plus at
    most the bonuses of a play with every kept letter in one word and two
    cards a word, less the gift.  With bonus awareness a discard's bound
    is narrowed by its plain solve first, before the solve for more words:
    no going-out play of the kept cards has a longer word than the one the
    plain solve finds (see :func:`_going_out_plays`).  The discard with the
    highest bound (the first of them on a tie) is narrowed or valued next,
    until no bound can beat the best value found (or tie it from earlier
    in the list): every discard left is then worth no more."""
    tuning = pos.tuning

    def bound(c: Card, letters: int) -> float:
        score = static[c][1]
        assert score is not None
        parts = _bonus_parts_at(pos, letters, pairs) if tuning.bonus_aware else (0.0, 0.0)
        return score + sum(parts) - tuning.gift_weight * gifts[c]

    letters = sum(map(_LETTERS.__getitem__, pos.view.hand))
    pairs = (len(pos.view.hand) - 1) // 2  # the most words the kept cards can make
    # A heap of (-bound, place in outs, narrowed yet): its first entry has the highest bound, the first on a tie.
    heap = [(-bound(c, letters - _LETTERS[c]), i, not tuning.bonus_aware) for i, c in enumerate(outs)]
    heapq.heapify(heap)
    best: HintOption | None = None
    best_at = 0
    while heap:
        high, i, narrowed = heapq.heappop(heap)
        if best is not None and (-high, -i) <= (best.value, -best_at):
            break
        c = outs[i]
        if not narrowed:
            first = solve_cards(list(kept[c]), pos.words, discard=False).best_go_out
            assert first is not None  # the scorer found a going-out play
            heapq.heappush(heap, (-bound(c, first.longest_word), i, True))
            continue
        option = going_out(c)
        if best is None or (option.value, -i) > (best.value, -best_at):
            best, best_at = option, i
    assert best is not None
    return best


def _final_options(pos: _Position) -> tuple[list[HintOption], Explanation | None]:
    """A final turn: every bonus target worth aiming at is solved exactly
    and the plays are compared at their true value."""
    view, tuning = pos.view, pos.tuning
    hand = list(view.hand)
    longest, count = view.others_best()
    eligible = not view.rules.bonus_requires_going_out
    lb, mb = pos.longest_bonus, pos.most_bonus
    long_targets: list[int | None] = [None]
    word_targets: list[int | None] = [None]
    if eligible and lb:
        long_targets += [longest] + ([longest - 1] if tuning.deny_bonus and longest > 0 else [])
    if eligible and mb:
        word_targets += [count] + ([count - 1] if tuning.deny_bonus and count > 0 else [])
    holder_long, holder_words = _bonus_holders(view, (longest, count))
    deny = 1.0 if view.players == 2 else 1.0 / (view.players - 1)

    def worth(card_score: int, letters: int, words: int) -> float:
        """A play's value from its card score, longest word (letters) and word count."""
        v = float(card_score)
        if eligible and words:
            v += lb if letters > longest else 0
            v += mb if words > count else 0
            if tuning.deny_bonus:
                v += deny * lb if holder_long and letters >= longest else 0
                v += deny * mb if holder_words and words >= count else 0
        return v

    def value(play: Play) -> float:
        return worth(play.card_score, play.longest_word, play.word_count)

    def solve(lt: int | None, wt: int | None) -> Play:
        bonus = TARGET_BONUS if lt is not None or wt is not None else 10
        play = solve_cards(hand, pos.words, discard=True, beat_longest=lt, beat_words=wt, bonus=bonus).best
        return make_play(play.words, play.unused, play.discard, 0)  # valued by value(): the solve's bonus dropped

    targets = [(lt, wt) for lt in long_targets for wt in word_targets]
    if pos.best_only:  # only the best option is wanted: skip the solves that cannot change it
        most = _best_worth(hand, pos.words, long_targets, word_targets, worth) if len(targets) > 1 else None
        found, found_value = best_final_play_of(hand, True, targets, solve, value, worth, most)
        return [HintOption("lay-down", found.discard, found.words, found_value)], None
    plays: list[Play] = []
    for lt, wt in targets:
        play = solve(lt, wt)
        if play not in plays:
            plays.append(play)

    ranked = sorted(((HintOption("lay-down", p.discard, p.words, value(p)), p) for p in plays),
                    key=lambda pair: -pair[0].value)  # fmt: skip
    options = [option for option, _ in ranked]
    if not pos.explain:
        return options, None
    best, play = ranked[0]
    terms: list[Term] = []
    if eligible and play.words:
        if lb and play.longest_word > longest:
            terms.append(Term("longest_won", lb, letters=play.longest_word, laid=longest))
        if mb and play.word_count > count:
            terms.append(Term("most_won", mb, count=play.word_count, laid=count))
        if tuning.deny_bonus:
            others = view.players - 1
            if holder_long and play.longest_word >= longest:
                terms.append(Term("longest_denied", deny * lb, tie=play.longest_word == longest, others=others))
            if holder_words and play.word_count >= count:
                terms.append(Term("most_denied", deny * mb, tie=play.word_count == count, others=others))
    return options, LayingDown(Sum.of("play", play.card_score, terms, best.value,
                                      words=[w.text for w in play.words], card=best.card))  # fmt: skip


def _best_worth(hand: list[Card], words: WordList, long_targets: Sequence[int | None],
                word_targets: Sequence[int | None], worth: Callable[[int, int, int], float]) -> float | None:  # fmt: skip
    """The most any play of a final turn is worth, from a search or two
    (None where the solver cannot tell it so): what the lay-down's target
    solves then need not be done to prove.

    The lay-down's targets are levels of the longest word and of the word
    count: any play (``None``), more than the most laid down (the first
    target), and, to deny a bonus, at least that much (the second).  The
    value grows with the two, so a play of a class of plays reaching given
    levels is worth at least its card score at the least longest word and
    word count the class holds; for the best play, at the levels it
    reaches, that is its own value, computed by the same ``worth``: the
    very same number.  (A play reaching a longest-word level lays a word.)

    One search gives the classes of any longest word and of a longer one
    than the most laid down; the plays whose longest word ties it are
    searched for only when they might be worth more than those: at most
    the best card score of their word count's class plus their bonuses."""
    scores = _class_scores_at(hand, words, long_targets[1] if len(long_targets) > 1 else None, word_targets)
    if scores is None:
        return None
    best = max(_class_worths(scores, long_targets[:2], word_targets, worth))
    if len(long_targets) > 2:
        tie = long_targets[2]
        assert tie is not None
        if max(_class_worths([scores[0]], [tie], word_targets, worth)) > best:
            at_least = _class_scores_at(hand, words, tie, word_targets)
            if at_least is None:  # the solver moved off the compiled backend's answer, or cached a "cannot tell"
                return None
            best = max(best, *_class_worths([at_least[1]], [tie], word_targets, worth))
    return best


def _class_scores_at(hand: list[Card], words: WordList, beat_longest: int | None,
                     word_targets: Sequence[int | None]) -> list[tuple[int | None, ...]] | None:  # fmt: skip
    """:func:`~quiddler.game.players.class_scores` with a longest word to
    beat (any, if None), by longest-word level: per level, the best card
    score of each word-count level of ``word_targets``."""
    beat_words = word_targets[1] if len(word_targets) > 1 else None
    scores = class_scores(hand, words, beat_longest or 0, beat_words or 0)
    if scores is None:
        return None
    # The kernel's word levels: any, more than beat_words, at least beat_words (word_targets' order).
    return [scores[CLASS_WORDS * a : CLASS_WORDS * a + len(word_targets)] for a in range(2)]


def _class_worths(scores: Sequence[Sequence[int | None]], long_targets: Sequence[int | None],
                  word_targets: Sequence[int | None], worth: Callable[[int, int, int], float]) -> list[float]:  # fmt: skip
    """Each class's best card score valued at the least longest word and
    word count of the class, by its levels: ``scores[a][b]`` is of the
    plays longer than ``long_targets[a]`` with more words than
    ``word_targets[b]`` (None: any)."""
    worths = [-math.inf]
    for row, longest in zip(scores, long_targets):
        letters = 0 if longest is None else longest + 1
        for score, count in zip(row, word_targets):
            if score is not None:
                least = 0 if count is None else count + 1
                worths.append(worth(score, letters, max(least, 1) if letters else least))
    return worths


def _bonus_holders(view: PlayerView, best: tuple[int, int] | None = None) -> tuple[bool, bool]:
    """Whether one other player alone now holds the longest word / most words
    (and would get the bonus); ``best``: ``view.others_best()``, if the caller has it."""
    longest, count = view.others_best() if best is None else best
    lengths = [max((w.letters for w in laid), default=0) for s, laid in enumerate(view.laid_down) if s != view.seat]
    counts = [len(laid) for s, laid in enumerate(view.laid_down) if s != view.seat]
    return longest > 0 and lengths.count(longest) == 1, count > 0 and counts.count(count) == 1


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out


class _Kept(dict[Card, list[Card]]):
    """The hand less each card (the cards kept discarding it), each made
    when first read: a decision that values only the discards that go out
    reads few of them."""

    def __init__(self, hand: Sequence[Card]) -> None:
        super().__init__()
        self.hand = hand

    def __missing__(self, card: Card) -> list[Card]:
        kept = self[card] = _without(self.hand, card)
        return kept


def advise(view: PlayerView, tuning: Tuning = EXPERT, *, explain: bool = True) -> Hint:
    """Every option of the move ``view`` is at, valued the ``tuning``'s way,
    best first, with the reason for the first (``explain=False``: an empty
    reason and no explanation; a player only moving skips them and the
    extra scoring some of their figures take)."""
    return _advise(view, tuning, explain, best_only=False)


def _advise(view: PlayerView, tuning: Tuning, explain: bool, *, best_only: bool) -> Hint:
    """:func:`advise`; with ``best_only`` (and no explanation) the options
    may be the best alone, when the others cost more to value."""
    return Hint.of(*_ranked(view, tuning, explain, best_only=best_only))


def _ranked(view: PlayerView, tuning: Tuning, explain: bool, *,
            best_only: bool) -> tuple[list[HintOption], Explanation | None]:  # fmt: skip
    """:func:`_advise`'s options and explanation, not yet made a
    :class:`Hint`: a player moving reads only the options."""
    if not view.my_turn:
        raise ValueError(f"it is not seat {view.seat}'s move (seat {view.turn} is to move)")
    pos = _Position(view, tuning, explain, best_only)
    if view.phase is Phase.DRAW:
        return _draw_options(pos)
    if view.final_turn:
        return _final_options(pos)
    return _end_options(pos)


# -- players -------------------------------------------------------------------------


class AIPlayer:
    """A player that plays the option :func:`advise` ranks first, or with
    ``tuning.noise`` one of the near-best at random (softmax over the values).

    The registered computer players (``ev``, ``expert``, ``hard``,
    ``medium``, ``easy``) are AIPlayers; :func:`make_player` builds them.

    :param tuning: How it values its options: one of the ``Tuning`` values
        of :mod:`quiddler.game.ai`.
    :param seed: Seeds its random choices (with noise); None: unseeded.
    :param name: Its name; None: the tuning's.
    :ivar tuning: How it values its options.
    :ivar name: The name it plays under.
    :ivar rng: Its random generator.
    """

    def __init__(self, tuning: Tuning, seed: int | None = None, *, name: str | None = None) -> None:
        self.tuning = tuning
        self.name = name or tuning.name
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"<AIPlayer {self.name!r}>"

    def _choose(self, view: PlayerView) -> HintOption:
        greedy = self.tuning.noise <= 0
        options = _ranked(view, self.tuning, False, best_only=greedy)[0]
        if greedy or len(options) == 1:
            return options[0]
        top = options[0].value
        weights = [math.exp((o.value - top) / self.tuning.noise) if math.isfinite(o.value) else 0.0
                   for o in options]  # fmt: skip
        return self.rng.choices(options, weights)[0]

    def choose_draw(self, view: PlayerView) -> Draw:
        """Draw where the best-valued option says (see :meth:`Player.choose_draw`).

        :param view: What the player sees; it is this player's move.
        :returns: The draw.
        """
        action = self._choose(view).to_action(view.seat)
        assert isinstance(action, Draw)
        return action

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        """Discard or go out as the best-valued option says (see :meth:`Player.choose_end`).

        :param view: What the player sees; it is this player's move.
        :returns: The discard or the going out.
        """
        action = self._choose(view).to_action(view.seat)
        assert isinstance(action, (Discard, GoOut))
        return action

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        """Lay down as the best-valued option says (see :meth:`Player.choose_lay_down`).

        :param view: What the player sees; it is this player's move.
        :returns: The lay-down.
        """
        action = self._choose(view).to_action(view.seat)
        assert isinstance(action, LayDown)
        return action


def _register(name: str, tuning: Tuning) -> None:
    register_player(name, lambda seed: AIPlayer(tuning, seed, name=name))


for _name, _tuning in TUNINGS.items():
    _register(_name, _tuning)

