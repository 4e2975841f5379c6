"""Reviewing a game: every decision of one seat against the evaluator's
best move in the same position, the points it cost, and a label.

A game record replays exactly (:func:`~quiddler.game.record.replay`), so
the position of every decision can be rebuilt: :func:`review` replays the
record, takes the seat's view before each of its moves (its hand and the
public log, nothing hidden, nothing that came later) and has
:func:`~quiddler.game.judging.judge` value the move made against the best.
The loss is the evaluator's value of its best move less its value of the
move made, in points; the labels and the accuracy figure map losses to
words and to 0-100 by the thresholds below, which come from the measured
distributions of the losses of the random, greedy and ev players
(``benchmarks/bench_review.py``; [reviewing a game](../review.md) has the figures).

>>> from quiddler.game import Game, Rules, make_player
>>> from quiddler.game.plans import play_game
>>> from quiddler.game.record import game_record
>>> game = play_game([make_player("expert", 1), make_player("greedy", 2)], seed=3, rules=Rules(round_sizes=(3,)))
>>> result = review(game_record(game, ["expert", "greedy"]), 0)
>>> result.loss_total, result.accuracy
(0.0, 100.0)
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import ArgumentTypeError, InvalidArgumentError, shown
from ..files import loads_json, read_text
from ..wordlist import WordList
from .engine import Game
from .errors import GameRecordError
from .explanations import Explanation
from .judging import LEVELS, Judgement, judge
from .record import replay
from .state import Action, Phase, PlayerView, action_from_dict

__all__ = [
    "ACCURACY_SCALE",
    "LABELS",
    "LABEL_LIMITS",
    "MAX_RECORD_BYTES",
    "Decision",
    "GameReview",
    "RoundReview",
    "accuracy_of",
    "describe_move",
    "label_of",
    "load_record",
    "review",
]

Kind = Literal["draw", "discard", "final"]
Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]

#: The labels, from no loss to the worst.
LABELS: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

#: The loss (points) below which a decision gets each label but the last;
#: a loss at or above the last limit is a blunder.  ``best`` is no loss
#: (ties included); the others are quantiles of the losses of the random,
#: greedy and ev players' imperfect decisions, reviewed by the expert
#: (benchmarks/bench_review.py, pooled; to one decimal): ``good`` below
#: their 10th percentile, ``inaccuracy`` below the 25th, ``mistake`` below
#: the 75th, ``blunder`` the costliest quarter.
LABEL_LIMITS: tuple[float, ...] = (0.05, 0.8, 2.0, 9.0)

#: Accuracy is ``100 * exp(-mean loss per decision / ACCURACY_SCALE)``, the
#: scale chosen so that greedy play (the baseline other Quiddler programs
#: use: measured 3.09 points per decision) scores 50.
ACCURACY_SCALE = 4.45

#: The largest record file :func:`load_record` reads (a game's record is tens of kilobytes).
MAX_RECORD_BYTES = 32 << 20


def label_of(loss: float) -> Label:
    """The label of a decision that lost ``loss`` points (see :data:`LABEL_LIMITS`).

    >>> label_of(0.0), label_of(0.5), label_of(1.5), label_of(5.0), label_of(10.0)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for label, limit in zip(LABELS, LABEL_LIMITS):
        if loss < limit:
            return label
    return LABELS[-1]


def accuracy_of(mean_loss: float) -> float:
    """The accuracy (0-100) of decisions that lost ``mean_loss`` points each on average.

    >>> accuracy_of(0.0), round(accuracy_of(3.09))
    (100.0, 50)
    """
    return 100.0 * math.exp(-max(0.0, mean_loss) / ACCURACY_SCALE)


def describe_move(move: dict[str, Any], discard_top: str | None = None) -> str:
    """A move in the record's encoding, for a person (``discard_top``: the
    face-up card a draw from the discard pile takes).

    >>> describe_move({"type": "draw", "player": 0, "source": "discard"}, "x")
    'take the x'
    >>> describe_move({"type": "go_out", "player": 0, "words": [["qu", "i", "t"]], "discard": "e"})
    'go out: quit, discard e'
    """
    match move.get("type"):
        case "draw":
            if move.get("source") == "discard":
                return f"take the {discard_top}" if discard_top else "take the discard top"
            return "draw from the pile"
        case "discard":
            return f"discard {move['card']}"
        case kind:
            words = ", ".join("".join(word) for word in move["words"]) or "no words"
            verb = "go out" if kind == "go_out" else "lay down"
            return f"{verb}: {words}, discard {move['discard']}"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat, judged.

    :ivar round: The round, from 0.
    :ivar turn: The seat's turn in the round, from 0.
    :ivar kind: ``"draw"``, ``"discard"`` (which includes going out or
        waiting) or ``"final"`` (a final turn's lay-down).
    :ivar played: The move made, in the record's action encoding.
    :ivar best: The evaluator's best move, in the same encoding.
    :ivar loss: Points the move made cost: best value less played value, at least 0.
    :ivar label: ``"best"``, ``"good"``, ``"inaccuracy"``, ``"mistake"`` or ``"blunder"``.
    :ivar explanation: Why the best is best, in the hint's terms.
    :ivar best_value: The evaluator's value of its best move (points).
    :ivar played_value: Its value of the move made (points).
    :ivar se: The loss's standard error (0 for an exact valuation).
    :ivar samples: Simulated finishes behind the values (0 for an exact valuation).
    :ivar view: The position as the seat saw it.
    :ivar explanation_terms: ``explanation`` as structure (the hint's
        :attr:`~quiddler.game.Hint.explanation`), for a page in another language.
    """

    round: int
    turn: int
    kind: Kind
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float
    label: Label
    explanation: str
    best_value: float
    played_value: float
    se: float
    samples: int
    view: PlayerView
    explanation_terms: Explanation | None = None

    @property
    def played_text(self) -> str:
        """The move made, for a person."""
        return describe_move(self.played, _face(self.view))

    @property
    def best_text(self) -> str:
        """The best move, for a person."""
        return describe_move(self.best, _face(self.view))

    @property
    def played_action(self) -> Action:
        """The move made, as an engine action."""
        return action_from_dict(self.played)

    @property
    def best_action(self) -> Action:
        """The best move, as an engine action."""
        return action_from_dict(self.best)

    def to_dict(self) -> dict[str, Any]:
        """The decision's JSON shape (see [JSON shapes](../json.md#reviews)).

        :returns: The fields above (``view`` as ``"position"``: what the seat could see), numbers rounded.
        """
        return {
            "round": self.round,
            "turn": self.turn,
            "kind": self.kind,
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 2),
            "label": self.label,
            "explanation": self.explanation,
            "explanation_terms": None if self.explanation_terms is None else self.explanation_terms.to_dict(),
            "best_value": round(self.best_value, 2),
            "played_value": round(self.played_value, 2),
            "se": round(self.se, 2),
            "samples": self.samples,
            "position": _position(self.view),
        }


def _face(view: PlayerView) -> str | None:
    return None if view.discard_top is None else view.discard_top.face


def _position(view: PlayerView) -> dict[str, Any]:
    """What the seat could see when it decided."""
    return {
        "hand": [c.face for c in view.hand],
        "discard_top": None if view.discard_top is None else view.discard_top.face,
        "seen": [c.face for c in view.seen],
        "laid_down": [[[c.face for c in w.cards] for w in words] for words in view.laid_down],
        "hand_sizes": list(view.hand_sizes),
        "draw_pile_size": view.draw_pile_size,
        "totals": list(view.totals),
        "went_out": view.went_out,
        "dealer": view.dealer,
    }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """One round's part of a review.

    :ivar round: The round, from 0.
    :ivar decisions: The seat's decisions in it.
    :ivar loss: Their total loss (points).
    :ivar se: The total's standard error.
    :ivar accuracy: Their accuracy (0-100).
    :ivar score: The seat's score in the round, or None if the round did not finish.
    """

    round: int
    decisions: int
    loss: float
    se: float
    accuracy: float
    score: int | None

    def to_dict(self) -> dict[str, Any]:
        """The round's JSON shape (see [JSON shapes](../json.md#reviews)).

        :returns: The fields above, numbers rounded.
        """
        return {"round": self.round, "decisions": self.decisions, "loss": round(self.loss, 2),
                "se": round(self.se, 2), "accuracy": round(self.accuracy, 1), "score": self.score}  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every decision of one seat in one game, judged by one evaluator.

    :ivar seat: The seat reviewed, from 0.
    :ivar level: The evaluator: ``"expert"`` or ``"master"``.
    :ivar decisions: The seat's decisions, in the order made.
    :ivar player: The seat's name in the record.
    :ivar players: Every seat's name in the record.
    :ivar rounds: A summary per round the seat decided in.
    """

    seat: int
    level: str
    decisions: tuple[Decision, ...]
    player: str
    players: tuple[str, ...]
    rounds: tuple[RoundReview, ...]

    @property
    def loss_total(self) -> float:
        """Points lost over the game (the sum of the decisions' losses)."""
        return sum(d.loss for d in self.decisions)

    @property
    def loss_se(self) -> float:
        """The total's standard error (the decisions' noise is independent)."""
        return math.sqrt(sum(d.se**2 for d in self.decisions))

    @property
    def mean_loss(self) -> float:
        """Points lost per decision."""
        return self.loss_total / len(self.decisions) if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        """0-100: :func:`accuracy_of` the mean loss per decision."""
        return accuracy_of(self.mean_loss)

    def worst(self, count: int = 3) -> tuple[int, ...]:
        """The costliest decisions labelled an inaccuracy or worse.

        :param count: At most this many.
        :returns: Their indices in :attr:`decisions`, costliest first.
        """
        bad = [i for i, d in enumerate(self.decisions) if LABELS.index(d.label) >= LABELS.index("inaccuracy")]
        return tuple(sorted(bad, key=lambda i: (-self.decisions[i].loss, i))[:count])

    def to_dict(self) -> dict[str, Any]:
        """The review's JSON shape, as ``quiddler review --json`` prints it
        (see [JSON shapes](../json.md#reviews)).

        :returns: The fields above, the totals, how many decisions got each label and :meth:`worst`.
        """
        labels = {label: sum(1 for d in self.decisions if d.label == label) for label in LABELS}
        return {
            "seat": self.seat,
            "player": self.player,
            "players": list(self.players),
            "level": self.level,
            "decisions": [d.to_dict() for d in self.decisions],
            "rounds": [r.to_dict() for r in self.rounds],
            "loss_total": round(self.loss_total, 2),
            "loss_se": round(self.loss_se, 2),
            "mean_loss": round(self.mean_loss, 3),
            "accuracy": round(self.accuracy, 1),
            "labels": labels,
            "worst": list(self.worst()),
        }


# -- reading records -------------------------------------------------------------------


def load_record(record: dict[str, Any] | str | os.PathLike[str]) -> dict[str, Any]:
    """A record given as a dict, a path or JSON text, as a dict (not yet
    checked: :func:`~quiddler.game.record.replay` does that).  A string that
    starts with ``{`` or ``[`` is JSON text, any other string a path."""
    if isinstance(record, dict):
        return record
    if isinstance(record, str) and record.lstrip()[:1] in ("{", "["):
        text = record
    elif isinstance(record, (str, os.PathLike)):
        try:
            text = read_text(os.fspath(record), limit=MAX_RECORD_BYTES)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise GameRecordError(f"cannot read the game record {str(Path(record))!r}: {reason}") from None
    else:
        raise ArgumentTypeError(f"a game record is a dict, a path or JSON text, not {shown(record)}")
    try:
        data = loads_json(text)
    except ValueError as exc:
        raise GameRecordError(f"not a game record: not JSON ({str(exc)[:200]})") from None
    if not isinstance(data, dict):
        raise GameRecordError(f"not a game record: the JSON is {type(data).__name__}, not an object")
    return data


@dataclass(frozen=True, slots=True)
class _Moment:
    """One decision before it is judged: where it falls, the view, the move."""

    round: int
    turn: int
    kind: Kind
    view: PlayerView
    played: Action


def _moments(record: dict[str, Any], game: Game, seat: int) -> list[_Moment]:
    """Each of ``seat``'s decisions as the seat saw it (``game``: the record replayed)."""
    again = Game(game.players, seed=game.seed, rules=game.rules, shuffle=game.shuffle)
    moments = []
    for entry in record["rounds"]:
        for data in entry["actions"]:
            action = action_from_dict(data)
            if action.player == seat:
                view = again.view(seat)
                if view.phase is Phase.DRAW:
                    kind: Kind = "draw"
                    turn = view.turns_taken
                else:
                    kind = "final" if view.final_turn else "discard"
                    turn = view.turns_taken - 1
                moments.append(_Moment(view.round, turn, kind, view, action))
            again.apply(action)
    return moments


# -- judging, here or in worker processes -------------------------------------------


@dataclass(frozen=True, slots=True)
class _Job:
    """What a worker needs to rebuild the decisions: the record, its word list's digest, the seat."""

    record: dict[str, Any]
    key: str
    words: str | None
    seat: int
    level: str
    salt: int


_rebuilt: dict[str, list[_Moment]] = {}


def _judge_in_worker(job: _Job, index: int) -> Judgement:
    """Judge decision ``index`` of the job (in a worker; the moments are
    rebuilt once per worker and record)."""
    moments = _rebuilt.get(job.key)
    if moments is None:
        from .workers import _wordlists

        _rebuilt.clear()
        wordlist = _wordlists[job.words] if job.words is not None else None
        moments = _rebuilt[job.key] = _moments(job.record, replay(job.record, wordlist), job.seat)
    moment = moments[index]
    return judge(moment.view, moment.played, job.level, salt=job.salt)


def _judged_here(moments: Sequence[_Moment], level: str, salt: int) -> Iterator[Judgement]:
    for moment in moments:
        yield judge(moment.view, moment.played, level, salt=salt)


def _judged_by_workers(job: _Job, count: int, workers: int, rules_words: WordList,
                       custom: bool) -> Iterator[Judgement]:  # fmt: skip
    """The judgements of ``count`` decisions from a pool of worker
    processes (forked where safe, as the simulations' are), in order."""
    from ..solver import warm
    from .workers import WordSource, _abandon, _init_worker, _sigint_deferred, start_method

    method = start_method()
    if method == "fork":
        warm()  # the compiled kernels load once, here, not in every worker
    source = WordSource(rules_words.name, rules_words.digest, rules_words.canonical_text) if custom else None
    pool = ProcessPoolExecutor(min(workers, count), mp_context=multiprocessing.get_context(method),
                               initializer=_init_worker, initargs=(source,))  # fmt: skip
    finished = False
    try:
        with _sigint_deferred():
            futures: list[Future[Judgement]] = [pool.submit(_judge_in_worker, job, i) for i in range(count)]
        for future in futures:
            yield future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _abandon(pool)


def _check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ArgumentTypeError(f"a seat is an integer, not {shown(seat)}")
    if not 0 <= seat < players:
        raise InvalidArgumentError(f"no seat {seat} in this game: its seats are 0 to {players - 1}")
    return seat


def review(record: dict[str, Any] | str | os.PathLike[str], seat: int, *, level: str = "expert",
           wordlist: WordList | None = None, workers: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> GameReview:  # fmt: skip
    """Review ``seat``'s decisions in a game: each against the evaluator's
    best move in the position the seat saw, with the points it cost.

    :param record: A game record of any format :func:`~quiddler.game.record.replay`
        reads: a dict, a path to its file, or its JSON text.  An unfinished
        game is reviewed as far as it goes.
    :param seat: The seat to review, from 0.
    :param level: The evaluator: ``"expert"`` (exact, fast) or ``"master"``
        (simulated finishes where going out or waiting is decided).
    :param wordlist: The word list the game was played with; None: ENABLE.
    :param workers: Worker processes to judge in (None or 1: this process).
    :param progress: Called with ``(decisions judged, decisions)`` as the review goes.
    :returns: The review.
    :raises GameRecordError: The record cannot be read, is not a record, was
        played with another word list or does not replay (the message says why).
    :raises InvalidArgumentError: No such seat, an unknown level, or a bad ``workers``.
    """
    if level not in LEVELS:
        raise InvalidArgumentError(f"unknown review level: {shown(level)} (expected one of: {', '.join(LEVELS)})")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InvalidArgumentError(f"workers must be a positive integer or None, not {shown(workers)}")
    data = load_record(record)
    game = replay(data, wordlist)  # a record that does not replay is refused here, with the reason
    seat = _check_seat(seat, game.players)
    moments = _moments(data, game, seat)
    salt = game.seed
    if workers is not None and workers > 1 and len(moments) > 1:
        key = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        words = game.rules.words
        custom = game.rules.wordlist is not None
        job = _Job(data, key, words.digest if custom else None, seat, level, salt)
        judged = _judged_by_workers(job, len(moments), workers, words, custom)
    else:
        judged = _judged_here(moments, level, salt)
    decisions = []
    for done, (moment, judgement) in enumerate(zip(moments, judged), 1):
        decisions.append(_decision(moment, judgement))
        if progress is not None:
            progress(done, len(moments))
    names = tuple(str(name) for name in data["players"])
    return GameReview(seat, level, tuple(decisions), names[seat], names, _rounds(game, seat, decisions))


def _decision(moment: _Moment, judgement: Judgement) -> Decision:
    loss = judgement.loss
    return Decision(round=moment.round, turn=moment.turn, kind=moment.kind, played=moment.played.to_dict(),
                    best=judgement.best.to_dict(), loss=loss, label=label_of(loss),
                    explanation=judgement.explanation, best_value=judgement.best_value,
                    played_value=judgement.played_value, se=judgement.se, samples=judgement.samples,
                    view=moment.view, explanation_terms=judgement.terms)  # fmt: skip


def _rounds(game: Game, seat: int, decisions: Sequence[Decision]) -> tuple[RoundReview, ...]:
    out = []
    for number in sorted({d.round for d in decisions}):
        mine = [d for d in decisions if d.round == number]
        loss = sum(d.loss for d in mine)
        score = game.history[number].scores[seat].score if number < len(game.history) else None
        out.append(RoundReview(number, len(mine), loss, math.sqrt(sum(d.se**2 for d in mine)),
                               accuracy_of(loss / len(mine)), score))  # fmt: skip
    return tuple(out)
