"""Judging one move: the evaluator's best move in a position, its value of
the move actually made, and the difference in points.

A move is judged on the seat's view alone (its hand and the public log),
never on hidden cards or on what happened later.  Two evaluators:

- ``expert``: the expert's own valuation (:func:`~quiddler.game.ai.advise`).
  Its best move is the one it would play, so a game played by the expert
  has no loss.  A move the expert does not list is valued by the same
  formulas as its listed kin: another way to go out with the same discard
  by its card points and the bonuses it should keep; another lay-down by
  its points and the bonuses it wins or denies; waiting after the turns the
  expert would wait on by the discard's look-ahead value with no credit
  for waiting.  Exact: no noise.
- ``master``: where ``master`` searches (it could go out, early in the
  round), the best move and the move made are played out on the same
  simulated finishes of the round (common random numbers), together with
  ``master``'s other candidates; each is valued at its mean round margin
  (own round score less the best other player's), and the loss's
  standard error is that of the paired differences.  Elsewhere ``master``
  plays as the expert does, and so is judged.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, replace

from ..cards import Card
from ..solver.types import Play, Word
from .ai import EXPERT, _bonus_holders, _bonus_parts, _gifts, _Position, advise
from .explanations import Explanation
from .hint_types import Hint, HintOption
from .master import (
    _CANDIDATES,
    _POLICIES,
    MASTER,
    Search,
    SearchSettings,
    _next_action,
    explanation,
    searchable,
)
from .players import Player
from .sampling import Sampler, decision_seed
from .state import Action, Discard, Draw, GoOut, LayDown, PlayerView

__all__ = ["LEVELS", "REVIEW_SEARCH", "Judgement", "going_out_value", "judge", "lay_down_value", "option_for"]

#: The evaluators a review can use.
LEVELS = ("expert", "master")

#: How ``master`` searches when it judges: every candidate on every sample
#: (no candidate dropped early, so each difference has the same samples).
REVIEW_SEARCH = replace(MASTER, samples=48, race=0.0)

#: The expert's valuation with waiting allowed on every turn and no credit
#: for it: what a wait the expert would not consider is worth.
_LATE_WAIT = replace(EXPERT, wait_turns=1_000_000, wait_cost=0.0, standings=False)


@dataclass(frozen=True, slots=True)
class Judgement:
    """One move judged: the evaluator's best move and values (points)."""

    best: Action
    best_value: float
    played_value: float
    #: standard error of the loss (0: an exact valuation)
    se: float
    #: simulated finishes behind the figures (0: an exact valuation)
    samples: int
    explanation: str
    #: the explanation as structure (the hint's), from which ``explanation`` is rendered
    terms: Explanation | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.played_value)


def judge(view: PlayerView, played: Action, level: str = "expert", *, salt: int = 0,
          settings: SearchSettings | None = None) -> Judgement:  # fmt: skip
    """Judge ``played`` in ``view`` (the seat to move's view) at ``level``;
    master searches as ``settings`` say (None: :data:`REVIEW_SEARCH`)."""
    settings = settings if settings is not None else REVIEW_SEARCH
    if level == "master" and searchable(view, settings):
        searched = _judge_by_search(view, played, settings, salt)
        if searched is not None:
            return searched
    return _judge_expert(view, played)


# -- the expert's valuation --------------------------------------------------------


def _judge_expert(view: PlayerView, played: Action) -> Judgement:
    advice = advise(view, EXPERT)
    best = advice.recommended
    value = _listed_value(advice, played)
    if value is None:
        value = _unlisted_value(view, played, advice)
    if value > best.value:  # valued above the expert's own choice: the best of the moves it valued
        return Judgement(played, value, value, 0.0, 0, advice.reason, advice.explanation)
    return Judgement(best.to_action(view.seat), best.value, value, 0.0, 0, advice.reason, advice.explanation)


def _words_key(words: tuple[Word, ...] | None) -> Counter[tuple[str, tuple[Card, ...]]]:
    return Counter((w.text, w.cards) for w in words or ())


def _matches(option: HintOption, action: Action) -> bool:
    match action:
        case Draw(source="discard"):
            return option.action == "take-discard"
        case Draw():
            return option.action == "draw-pile"
        case Discard(card=card):
            return option.action == "discard" and option.card == card
        case GoOut(words=words, discard=card):
            return option.action == "go-out" and option.card == card and _words_key(option.words) == _words_key(words)
        case LayDown(words=words, discard=card):
            return (option.action == "lay-down" and option.card == card
                    and _words_key(option.words) == _words_key(words))  # fmt: skip
    return False  # pragma: no cover - every action is matched above


def option_for(options: tuple[HintOption, ...], action: Action) -> HintOption | None:
    """The option that plays ``action``, if it is listed."""
    return next((o for o in options if _matches(o, action)), None)


def _listed_value(advice: Hint, action: Action) -> float | None:
    option = option_for(advice.options, action)
    return None if option is None else option.value


def _unlisted_value(view: PlayerView, action: Action, advice: Hint) -> float:
    """The expert's formulas applied to a move it does not list (see the module)."""
    match action:
        case Discard():
            late = advise(view, _LATE_WAIT, explain=False)
            value = _listed_value(late, action)
            assert value is not None, "every discard is an option when waiting is allowed"
            return value
        case GoOut(words=words, discard=card):
            return going_out_value(view, words, card)
        case LayDown(words=words, discard=card):
            return lay_down_value(view, words, card)
    raise AssertionError(f"a {action} is always listed")  # pragma: no cover


def going_out_value(view: PlayerView, words: tuple[Word, ...], discard: Card) -> float:
    """The expert's value of going out with ``words``, discarding ``discard``:
    the card points, the bonuses the words should keep, less what the
    discard is worth to the next player (the formula of its going-out options)."""
    pos = _Position(view, EXPERT, explain=False)
    play = Play(tuple(words), (), None)
    gift = EXPERT.gift_weight * _gifts(pos, [discard])[discard] if EXPERT.gift_weight else 0.0
    return play.card_score + sum(_bonus_parts(pos, play)) - gift


def lay_down_value(view: PlayerView, words: tuple[Word, ...], discard: Card) -> float:
    """The expert's value of a final turn's lay-down: card points (the cards
    kept count against), the bonuses the words win against those laid down,
    and the bonus they deny its holder by a tie (the formula of its lay-down options)."""
    used = Counter(c for w in words for c in w.cards)
    used[discard] += 1
    unused = tuple((Counter(view.hand) - used).elements())
    play = Play(tuple(words), unused, discard)
    lb, mb = view.rules.bonuses(view.players)
    longest, count = view.others_best()
    value = float(play.card_score)
    if not view.rules.bonus_requires_going_out and play.words:
        value += lb if play.longest_word > longest else 0
        value += mb if play.word_count > count else 0
        if EXPERT.deny_bonus:
            holder_long, holder_words = _bonus_holders(view)
            deny = 1.0 if view.players == 2 else 1.0 / (view.players - 1)
            value += deny * lb if holder_long and play.longest_word >= longest else 0
            value += deny * mb if holder_words and play.word_count >= count else 0
    return value


# -- master's search -----------------------------------------------------------------


def _judge_by_search(view: PlayerView, played: Action, settings: SearchSettings, salt: int) -> Judgement | None:
    """``master``'s candidates and the move made, each played out on the
    same simulated finishes; None when the hand cannot go out (master then
    plays as the expert)."""
    expert = advise(view, EXPERT, explain=False).recommended
    wide = advise(view, _CANDIDATES, explain=False).options
    outs = [o for o in wide if o.action == "go-out"][: settings.going_out]
    if not outs:
        return None
    waits = [o for o in wide if o.action == "discard"][: settings.waiting]
    options: list[HintOption] = [expert]
    for option in outs + waits:
        if option_for(tuple(options), option.to_action(view.seat)) is None:
            options.append(option)
    actions = [o.to_action(view.seat) for o in options]
    mine = next((k for k, option in enumerate(options) if option_for((option,), played) is not None), None)
    if mine is None:
        mine = len(actions)
        actions.append(played)
        options.append(_option_of(played))
    margins = _finishes(view, actions, settings, salt)
    means = [statistics.fmean(m) for m in margins]
    top = max(range(len(means)), key=lambda k: (means[k], -k))  # on a tie, the earlier (the expert's first)
    gaps = [a - b for a, b in zip(margins[top], margins[mine])]
    se = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else 0.0
    order = sorted(range(len(options)), key=lambda k: (-means[k], k))
    ranked = tuple(replace(options[k], value=means[k]) for k in order)
    result = Search(ranked, tuple(means[k] for k in order), tuple(0.0 for _ in order),
                    tuple(len(margins[k]) for k in order), False, expert)  # fmt: skip
    why = explanation(result)
    return Judgement(actions[top], means[top], means[mine], se, len(gaps), why.english(), why)


def _option_of(action: Action) -> HintOption:
    """A move made, as an option of master's search (its value is filled in by the search)."""
    match action:
        case Discard(card=card):
            return HintOption("discard", card, None, 0.0)
        case GoOut(words=words, discard=card):
            return HintOption("go-out", card, tuple(words), 0.0)
    raise AssertionError(f"master searches only discards and going out, not {action}")  # pragma: no cover


def _finishes(view: PlayerView, actions: list[Action], settings: SearchSettings, salt: int) -> list[list[float]]:
    """Each action's round margin on each of the same simulated finishes,
    played as master's search plays them."""
    rng = random.Random(decision_seed(view, salt))
    seat = view.seat
    sampler = Sampler(view, extra_turns=settings.extra_turns)
    margins: list[list[float]] = [[] for _ in actions]
    for i in range(settings.samples):
        hidden = sampler.sample(rng)
        model = _POLICIES[settings.models[i % len(settings.models)]]
        players: list[Player] = [model] * view.players
        players[seat] = _POLICIES["expert"]
        for k, action in enumerate(actions):
            game = sampler.game(hidden)
            game.apply(action)
            while game.result is None:
                game.play_chosen(_next_action(game.view(game.turn), players[game.turn]))
            scores = game.result.scores
            margins[k].append(scores[seat].score - max(s.score for o, s in enumerate(scores) if o != seat))
    return margins
