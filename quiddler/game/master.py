"""``master``: the expert, with the move that carries a round decided by simulation.

The expert (:mod:`.ai`) decides going out now or waiting by a fixed rule
(a few points' credit for waiting on a player's first turn).  ``master``
plays exactly as the expert does everywhere else, but whenever it could go
out it simulates instead, as the strongest Scrabble and Gin Rummy programs
decide their key moves:

- the candidates are the expert's two best going-out plays and its two best
  discards (the expert's own choice is always among them);
- each simulated finish samples the cards it cannot see
  (:mod:`.sampling`: the others' known cards plus a uniform fill, the rest
  as the draw pile) and plays the round to its end on the real engine,
  every seat played by a policy: itself by the expert, the others by the
  expert on half the samples and by ``ev`` on the other half (a search
  that assumed one opponent model only would be a best response to it),
  each choosing a final turn's draw by plain scores (valuing every
  possible draw with its bonuses is the costliest part of a finish);
- every candidate is played on the same samples (common random numbers:
  the comparison between candidates is far less noisy than each mean);
- a finish is worth its round score less the best other player's round
  score, bonuses included; in the last round, whether it wins the game.

The samples are seeded from the position and the player's seed, so a
seeded game plays the same way in any process.  With a ``deadline`` the
search stops when the time is up and decides on the samples it has
(then the move depends on the machine's speed: the registered ``master``
has none).  After a few turns of a round it goes out as the expert does,
so rounds end.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass, replace

from .ai import EV, EXPERT, AIPlayer, advise
from .explanations import Candidate, CandidateKind, Simulated, rounded
from .gcpause import collection_paused
from .hint_types import Hint, HintOption
from .players import Player, register_player
from .sampling import Sampler, decision_seed
from .state import Discard, Draw, GoOut, LayDown, Phase, PlayerView

__all__ = ["MasterPlayer", "Search", "SearchSettings", "master_hint", "search"]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How ``master`` searches.  Every field is one knob of the search."""

    #: simulated finishes per decision (each candidate is played on every one)
    samples: int = 32
    #: going-out candidates (the expert's best this-many going-out plays)
    going_out: int = 2
    #: waiting candidates (the expert's best this-many discards)
    waiting: int = 2
    #: the policies the other seats are played by, sample ``i`` by ``models[i % len(models)]``
    models: tuple[str, ...] = ("expert", "ev")
    #: search only on a player's first this-many turns of a round (later: go out as the expert does)
    wait_turns: int = 3
    #: a simulated finish that has not ended after every seat takes this many more turns ends there
    extra_turns: int = 6
    #: drop a candidate once the leader's paired lead over it exceeds this many standard errors (0: never)
    race: float = 2.0
    #: ... checked after every this-many samples
    race_every: int = 8
    #: seconds a decision may search; None: all the samples, whatever the time
    deadline: float | None = None


#: The registered ``master``: no deadline, so a seeded game replays exactly.
MASTER = SearchSettings()

#: The rollouts' policies: the expert and ``ev``, except that on a final turn they
#: choose the draw by plain scores (the bonus-aware valuation of every possible
#: draw is the costliest part of a finish, and seldom changes the searched move).
_POLICIES: dict[str, AIPlayer] = {name: AIPlayer(replace(tuning, final_draw_bonuses=False)) for name, tuning in
                                  (("expert", EXPERT), ("ev", EV))}  # fmt: skip

#: The expert's valuation with waiting always allowed: the source of the waiting
#: candidates (their order is the expert's; the credit for waiting shifts them all alike).
_CANDIDATES = replace(EXPERT, wait_turns=1_000_000, standings=False)


@dataclass(frozen=True, slots=True)
class Search:
    """The outcome of one search: the candidates, best first, each valued
    at its mean over the simulated finishes (``HintOption.value``: points
    of round margin, or in the last round the percentage of games won)."""

    options: tuple[HintOption, ...]
    #: mean round margin (own round score less the best other) per option
    margins: tuple[float, ...]
    #: share of simulated finishes after which the player wins the game, per option
    wins: tuple[float, ...]
    #: simulated finishes per option (fewer for a candidate dropped as clearly beaten)
    samples: tuple[int, ...]
    last_round: bool
    #: the move the expert would have made
    expert: HintOption

    @property
    def best(self) -> HintOption:
        return self.options[0]


def searchable(view: PlayerView, settings: SearchSettings = MASTER) -> bool:
    """Whether ``master`` would search this move: after drawing on an
    ordinary turn it may go out on, early enough in the round."""
    return (view.my_turn and view.phase is Phase.DISCARD and not view.final_turn and view.may_go_out
            and view.turns_taken <= settings.wait_turns)  # fmt: skip


def _same(a: HintOption, b: HintOption) -> bool:
    return a.action == b.action and a.card == b.card and a.words == b.words


def search(view: PlayerView, settings: SearchSettings = MASTER, *, salt: int = 0) -> Search | None:
    """Simulate the candidates of going out or waiting; None when there is
    nothing to search (the move is not :func:`searchable`, or the hand
    cannot go out)."""
    if not searchable(view, settings):
        return None
    with collection_paused():  # see gcpause: the simulated moves make no cycles to collect
        return _search(view, settings, salt)


def _search(view: PlayerView, settings: SearchSettings, salt: int) -> Search | None:
    """:func:`search` of a searchable move."""
    # Equivalent mutants: explain=True gives the same options with a sentence nobody reads here.
    expert = advise(view, EXPERT, explain=False).recommended  # pragma: no mutate
    wide = advise(view, _CANDIDATES, explain=False).options  # pragma: no mutate
    outs = [o for o in wide if o.action == "go-out"][: settings.going_out]
    if not outs:
        return None
    waits = [o for o in wide if o.action == "discard"][: settings.waiting]
    candidates = [expert] + [o for o in outs + waits if not _same(o, expert)]
    rng = random.Random(decision_seed(view, salt))
    seat = view.seat
    last = view.round == view.rules.rounds - 1
    margins: list[list[float]] = [[] for _ in candidates]
    wins: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    started = time.perf_counter()
    sampler = Sampler(view, extra_turns=settings.extra_turns)
    for i in range(settings.samples):
        hidden = sampler.sample(rng)
        model = _POLICIES[settings.models[i % len(settings.models)]]
        players: list[Player] = [model] * view.players
        players[seat] = _POLICIES["expert"]
        for k in alive:
            game = sampler.game(hidden)
            game.apply(candidates[k].to_action(seat))
            while game.result is None:
                game.play_chosen(_next_action(game.view(game.turn), players[game.turn]))
            scores = game.result.scores
            margins[k].append(scores[seat].score - max(s.score for o, s in enumerate(scores) if o != seat))
            top = max(game.totals)
            wins[k].append(1 / game.totals.count(top) if game.totals[seat] == top else 0.0)
        if settings.deadline is not None and time.perf_counter() - started > settings.deadline:
            break
        if settings.race and (i + 1) % settings.race_every == 0 and len(alive) > 1:
            alive = _survivors(alive, wins if last else margins, settings.race)
            if len(alive) == 1:
                break
    rows = [(statistics.fmean(margins[k]), statistics.fmean(wins[k]), len(margins[k]), k) for k in
            range(len(candidates))]  # fmt: skip

    def order(row: tuple[float, float, int, int]) -> tuple[bool, float, float]:
        margin, win, _, k = row
        return (k in alive, win if last else margin, margin)

    rows.sort(key=order, reverse=True)  # stable: on a tie the expert's choice (listed first) stays first
    options = tuple(replace(candidates[k], value=100 * w if last else m) for m, w, _, k in rows)
    return Search(options, tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
                  last, expert)  # fmt: skip


def _survivors(alive: list[int], values: list[list[float]], z: float) -> list[int]:
    """The candidates not yet clearly beaten: a candidate is dropped when the
    leader's mean lead over it, sample by sample (the samples are shared),
    exceeds ``z`` standard errors.  Deterministic: it reads values, not time."""
    means = {k: statistics.fmean(values[k]) for k in alive}
    lead = max(alive, key=lambda k: means[k])
    keep = []
    for k in alive:
        if k == lead:
            keep.append(k)
            continue
        gaps = [a - b for a, b in zip(values[lead], values[k])]
        spread = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else math.inf
        if statistics.fmean(gaps) <= z * spread:
            keep.append(k)
    return keep


def _next_action(view: PlayerView, player: Player) -> Draw | Discard | GoOut | LayDown:
    if view.phase is Phase.DRAW:
        return player.choose_draw(view)
    if view.final_turn:
        return player.choose_lay_down(view)
    return player.choose_end(view)


# -- explaining a search -----------------------------------------------------------


def explanation(result: Search) -> Simulated:
    """The search in the expert's terms: the move, then what each candidate
    averaged over the simulated finishes."""
    best = result.best
    last = result.last_round
    seen_out = False
    candidates = []
    for option, n in zip(result.options, result.samples):
        assert option.card is not None
        words = None if option.action == "discard" else tuple(w.text for w in option.words or ())
        kind: CandidateKind = ("waiting_with" if option.action == "discard"
                               else "going_out_with" if seen_out else "going_out_now")  # fmt: skip
        seen_out = seen_out or option.action == "go-out"
        candidates.append(Candidate(kind, option.card, words, rounded(option.value, 0), n))
    assert best.card is not None
    return Simulated("go-out" if best.action == "go-out" else "discard", best.card, candidates[0].words, last,
                     result.samples[0], tuple(candidates))  # fmt: skip


def explain(result: Search) -> str:
    """:func:`explanation` as one English sentence."""
    return explanation(result).english()


def master_hint(view: PlayerView, settings: SearchSettings = MASTER, *, salt: int = 0) -> Hint:
    """``master``'s advice: the expert's, except where it could go out,
    where the options are the searched candidates valued by the simulation.
    The samples are seeded by the position and ``salt``: the hint is the move
    of a master player seeded ``salt`` (another seed samples other finishes,
    which can change a close decision)."""
    result = search(view, settings, salt=salt)
    if result is None:
        return advise(view, EXPERT)
    return Hint.of(result.options, explanation(result))


# -- the player -------------------------------------------------------------------


class MasterPlayer:
    """The expert, searching the going-out-or-waiting moves (see the module).

    ``searches`` keeps every search of the player's last game's moves
    (benchmarks read it); it is cleared by nobody and grows with the game.
    """

    def __init__(self, seed: int | None = None, *, settings: SearchSettings = MASTER,
                 name: str = "master") -> None:  # fmt: skip
        self.name = name
        self.settings = settings
        self.salt = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.expert = AIPlayer(EXPERT)
        self.searches: list[Search] = []

    def choose_draw(self, view: PlayerView) -> Draw:
        return self.expert.choose_draw(view)

    def choose_end(self, view: PlayerView) -> Discard | GoOut:
        result = search(view, self.settings, salt=self.salt)
        if result is None:
            return self.expert.choose_end(view)
        self.searches.append(result)
        action = result.best.to_action(view.seat)
        assert isinstance(action, (Discard, GoOut))
        return action

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        return self.expert.choose_lay_down(view)


register_player("master", lambda seed: MasterPlayer(seed))
