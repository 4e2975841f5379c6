"""Why a hint recommends its move, as structure rather than English: the
kind of recommendation and the named terms that make up each value it
quotes, from which any language renders its sentence.

A hint's English ``reason`` is :meth:`english` of its explanation: one
source, so the structure holds everything the sentence says.  Every number
is kept rounded as the sentence shows it (a card score whole, a value to a
tenth, a chance to a whole percent), so a renderer in another language
shows the same figures and never rounds again.

A value the sentence explains is a :class:`Sum`: a base (what the hand's
words make, what a blind draw averages...) and the :class:`Term` values
added to it (the premium for going out, the bonuses it should keep, what
the discard is worth to the next player...), then their total.  Terms
under 0.05 points are left out, as the sentence leaves them out.

[JSON shapes](../json.md#a-hints-explanation) lists every kind with its fields and its English.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..cards import Card

__all__ = [
    "Alternative",
    "Candidate",
    "Discarding",
    "DrawChoice",
    "Explanation",
    "GoingOut",
    "LayingDown",
    "OnlyDraw",
    "Simulated",
    "Sum",
    "Term",
    "Waiting",
]

TermKind = Literal[
    "going_out", "out_chance", "bonuses_won", "longest_kept", "most_kept", "gift", "wait", "extra_turn",
    "longest_won", "most_won", "longest_denied", "most_denied",
]  # fmt: skip
CandidateKind = Literal["going_out_now", "going_out_with", "waiting_with"]
BaseKind = Literal["words", "go_out_now", "keep_hand", "blind_draw", "kept_average", "waiting_average",
                   "kept_now", "play"]  # fmt: skip

#: Fraction digits each base value is shown with (a term, a total and an alternative's value: one).
BASE_DIGITS: dict[BaseKind, int] = {"words": 0, "go_out_now": 0, "keep_hand": 1, "blind_draw": 1,
                                    "kept_average": 1, "waiting_average": 1, "kept_now": 0, "play": 0}  # fmt: skip
#: Terms smaller than this (in points) are left out of a sum.
SHOWN_TERM = 0.05


def rounded(value: float, digits: int) -> float:
    """``value`` as the sentence shows it, with ``digits`` fraction digits.

    >>> rounded(2.345, 1), rounded(0.25, 1), rounded(13.5, 0)
    (2.3, 0.2, 14.0)
    """
    return float(f"{value:.{digits}f}")


def percent(chance: float) -> int:
    """A chance (0 to 1) as the whole percent the sentence shows.

    >>> percent(0.345), percent(1.0)
    (34, 100)
    """
    return int(f"{chance:.0%}"[:-1])


def _words(words: Sequence[str]) -> str:
    return ", ".join(words)


@dataclass(frozen=True, slots=True)
class Term:
    """One named term added to a value.

    :ivar kind: What the term is worth points for (``going_out``,
        ``out_chance``, ``gift``...; [JSON shapes](../json.md#a-hints-explanation) lists them).
    :ivar value: Its points, to a tenth (negative for a cost).
    :ivar card: ``gift``: the card handed to the next player.
    :ivar percent: ``out_chance``: the chance to go out, in whole percent.
    :ivar others: ``longest_kept``, ``most_kept``, ``longest_denied``,
        ``most_denied``: the number of other players.
    :ivar letters: ``longest_won``: the letters of the play's longest word.
    :ivar count: ``most_won``: the play's number of words.
    :ivar laid: ``longest_won``, ``most_won``: the longest word (letters)
        or most words the others laid down.
    :ivar tie: ``longest_denied``, ``most_denied``: the play ties (rather
        than beats) what was laid down.
    """

    kind: TermKind
    value: float
    card: Card | None = None
    percent: int | None = None
    others: int | None = None
    letters: int | None = None
    count: int | None = None
    laid: int | None = None
    tie: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "value"}`` and the fields its kind has (``card`` a face).

        :returns: The JSON object.
        """
        out: dict[str, Any] = {"kind": self.kind, "value": self.value}
        for name in ("card", "percent", "others", "letters", "count", "laid", "tie"):
            field = getattr(self, name)
            if field is not None:
                out[name] = field.face if isinstance(field, Card) else field
        return out

    def english(self) -> str:
        """``+2.0 for going out``: the term as the English sentence says it.

        :returns: The English text.
        """
        return f"{self.value:+.1f} for {self._what()}"

    def _what(self) -> str:
        others = self.others or 0
        against = f" against {others} others" if others > 1 else ""
        weighted = f" weighted 1/{others} with {others} rivals" if others > 1 else ""
        how = "tying" if self.tie else "beating"
        match self.kind:
            case "going_out":
                return "going out"
            case "out_chance":
                return f"its {self.percent}% chance to go out"
            case "bonuses_won":
                return "the bonuses they win against the words laid down"
            case "longest_kept":
                return "the longest-word bonus it should keep" + against
            case "most_kept":
                return "the most-words bonus it should keep" + against
            case "gift":
                return f"what the {self.card} is worth to the next player"
            case "wait":
                return "waiting with a complete hand that cannot be lost"
            case "extra_turn":
                return "the others' extra turn"
            case "longest_won":
                return f"the longest-word bonus: {self.letters} letters beat the {self.laid} laid down"
            case "most_won":
                return f"the most-words bonus: {self.count} words beat the {self.laid} laid down"
            case "longest_denied":
                return f"{how} the longest word laid down so its holder loses the bonus{weighted}"
            case "most_denied":
                return f"{how} the most words laid down so their holder loses the bonus{weighted}"


@dataclass(frozen=True, slots=True)
class Sum:
    """A value the sentence explains: its base, the terms added, the total.

    :ivar kind: The base (``words``, ``blind_draw``, ``play``...; [JSON
        shapes](../json.md#a-hints-explanation) lists them with the digits each is shown with).
    :ivar value: The base's points, rounded as shown (:data:`BASE_DIGITS`).
    :ivar terms: The terms added to it, each of 0.05 points or more.
    :ivar total: Base and terms: the value the hint's table shows, to a tenth.
    :ivar words: ``play``: the words laid down (their text).
    :ivar card: ``play``: the card discarded.
    """

    kind: BaseKind
    value: float
    terms: tuple[Term, ...]
    total: float
    words: tuple[str, ...] | None = None
    card: Card | None = None

    @classmethod
    def of(cls, kind: BaseKind, base: float, terms: Sequence[Term], total: float, *,
           words: Sequence[str] | None = None, card: Card | None = None) -> Sum:  # fmt: skip
        """The sum of the exact figures: rounded as shown, terms under
        :data:`SHOWN_TERM` left out.

        :param kind: The base's kind.
        :param base: The base's exact value (a ``play``'s card score as it is).
        :param terms: The terms with their exact values.
        :param total: The exact total: the option's value.
        :param words: ``play``: the words' text.
        :param card: ``play``: the card discarded.
        :returns: The sum as the sentence shows it.
        """
        shown = tuple(replace(t, value=rounded(t.value, 1)) for t in terms if abs(t.value) >= SHOWN_TERM)
        value = base if kind == "play" else rounded(base, BASE_DIGITS[kind])
        return cls(kind, value, shown, rounded(total, 1), None if words is None else tuple(words), card)

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "value", "terms": [TERM, ...], "total"}``, ``play`` with ``"words"`` and ``"card"``.

        :returns: The JSON object.
        """
        out: dict[str, Any] = {"kind": self.kind, "value": self.value, "terms": [t.to_dict() for t in self.terms],
                               "total": self.total}  # fmt: skip
        if self.kind == "play":
            out["words"] = list(self.words or ())
            out["card"] = None if self.card is None else self.card.face
        return out

    def english(self) -> str:
        """The base, then (when there are terms) each term and the total.
        A term's words hold no comma or bracket, so the sum reads (and
        parses) unambiguously.

        :returns: The English text.
        """
        base = self._base()
        if not self.terms:
            return base
        return f"{base}, {', '.join(t.english() for t in self.terms)} ({self.total:.1f} in all)"

    def _base(self) -> str:
        v = f"{self.value:.{BASE_DIGITS[self.kind]}f}"
        match self.kind:
            case "words":
                return f"your best words make {v} points"
            case "go_out_now":
                return f"you can go out now for {v} points"
            case "keep_hand":
                return f"keeping your hand as it is is valued {v}"
            case "blind_draw":
                return f"a blind draw averages {v} points"
            case "kept_average":
                return f"after your next draw the hand you keep averages {v} points"
            case "waiting_average":
                return f"after your next draw it averages {v} points"
            case "kept_now":
                return f"the hand you keep scores {v} points now"
            case "play":
                return f"{_words(self.words or ()) or 'no words'} and discard the {self.card}: {self.value:.0f} points"


@dataclass(frozen=True, slots=True)
class Alternative:
    """The other move a sentence names, with its value (to a tenth).

    :ivar card: The card that move discards.
    :ivar value: Its value, as the hint's table shows it.
    """

    card: Card
    value: float

    @classmethod
    def of(cls, card: Card | None, value: float) -> Alternative:
        """The alternative of an option, its value rounded as shown.

        :param card: The option's card (an alternative always discards one).
        :param value: The option's value.
        :returns: The alternative.
        """
        assert card is not None
        return cls(card, rounded(value, 1))

    def to_dict(self) -> dict[str, Any]:
        """``{"card": FACE, "value"}``.

        :returns: The JSON object.
        """
        return {"card": self.card.face, "value": self.value}


@dataclass(frozen=True, slots=True)
class OnlyDraw:
    """One pile only may be drawn from (the other is empty).

    :ivar source: ``"pile"`` or ``"discard"``.
    """

    source: Literal["pile", "discard"]

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "only_draw", "source"}``.

        :returns: The JSON object.
        """
        return {"kind": "only_draw", "source": self.source}

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        return f"The only draw allowed: {'the draw pile' if self.source == 'pile' else 'the discard top'}."


@dataclass(frozen=True, slots=True)
class DrawChoice:
    """Take the discard top or draw from the pile, each valued.

    :ivar kind: The move recommended: ``"take_discard"`` or ``"draw_pile"``.
    :ivar card: The discard top.
    :ivar take: The value of taking it.
    :ivar pile: The value of drawing from the pile (base ``blind_draw``), or of
        keeping the hand as it is (``keep_hand``, a player that does not count cards).
    """

    kind: Literal["take_discard", "draw_pile"]
    card: Card
    take: Sum
    pile: Sum

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "card", "take": SUM, "pile": SUM}``.

        :returns: The JSON object.
        """
        return {"kind": self.kind, "card": self.card.face, "take": self.take.to_dict(), "pile": self.pile.to_dict()}

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        if self.kind == "take_discard":
            return f"Take the {self.card}: with it {self.take.english()}; {self.pile.english()}."
        return f"Draw from the pile: {self.pile.english()}; taking the {self.card}, {self.take.english()}."


@dataclass(frozen=True, slots=True)
class GoingOut:
    """Go out: the play and what it should keep.

    :ivar value: The play (base ``play``) and its terms.
    :ivar waiting: Waiting's best discard and value, when waiting was an option.
    """

    value: Sum
    waiting: Alternative | None

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "go_out", "value": SUM, "waiting": ALTERNATIVE or null}``.

        :returns: The JSON object.
        """
        return {"kind": "go_out", "value": self.value.to_dict(),
                "waiting": None if self.waiting is None else self.waiting.to_dict()}  # fmt: skip

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        if self.waiting is None:
            return f"Go out with {self.value.english()}."
        return (f"Go out with {self.value.english()}; waiting (discard the {self.waiting.card}) is worth "
                f"{self.waiting.value:.1f}.")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Waiting:
    """Wait (discard and keep a hand that could go out).

    :ivar card: The card to discard.
    :ivar value: The kept hand's value and its terms.
    :ivar last_say: Two players: if the other goes out first, the player's
        turn is the round's final one.
    :ivar going_out: Going out now: its discard and value.
    """

    card: Card
    value: Sum
    last_say: bool
    going_out: Alternative

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "wait", "card", "value": SUM, "last_say", "going_out": ALTERNATIVE}``.

        :returns: The JSON object.
        """
        return {"kind": "wait", "card": self.card.face, "value": self.value.to_dict(), "last_say": self.last_say,
                "going_out": self.going_out.to_dict()}  # fmt: skip

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        last_say = "; if the other player goes out first, yours is the last say" if self.last_say else ""
        return (f"Wait: discard the {self.card} and keep your hand; {self.value.english()}{last_say}; going out now "
                f"(discard the {self.going_out.card}) is worth {self.going_out.value:.1f}.")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Discarding:
    """Discard (going out is not possible).

    :ivar card: The card to discard.
    :ivar value: The kept hand's value and its terms.
    """

    card: Card
    value: Sum

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "discard", "card", "value": SUM}``.

        :returns: The JSON object.
        """
        return {"kind": "discard", "card": self.card.face, "value": self.value.to_dict()}

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        return f"Discard the {self.card}: {self.value.english()}."


@dataclass(frozen=True, slots=True)
class LayingDown:
    """A final turn's lay-down.

    :ivar value: The play (base ``play``, perhaps no words) and the bonuses it wins or denies.
    """

    value: Sum

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "lay_down", "value": SUM}``.

        :returns: The JSON object.
        """
        return {"kind": "lay_down", "value": self.value.to_dict()}

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        return f"Lay down {self.value.english()}."


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move the master's search played out.

    :ivar kind: ``"going_out_now"`` (the first going-out candidate),
        ``"going_out_with"`` (another way to go out) or ``"waiting_with"``.
    :ivar card: The card it discards.
    :ivar words: The words it goes out with (a going-out candidate), else None.
    :ivar value: Its mean over its finishes, whole: points of round margin,
        or in the last round the percentage of games won.
    :ivar samples: The simulated finishes it was played in.
    """

    kind: CandidateKind
    card: Card
    words: tuple[str, ...] | None
    value: float
    samples: int

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "card", "value", "samples"}``, a going-out candidate with ``"words"``.

        :returns: The JSON object.
        """
        out: dict[str, Any] = {"kind": self.kind, "card": self.card.face, "value": self.value,
                               "samples": self.samples}  # fmt: skip
        if self.words is not None:
            out["words"] = list(self.words)
        return out

    def phrase(self) -> str:
        """``going out now``, ``going out with ... (discarding the x)``, ``waiting with the x``.

        :returns: The English phrase.
        """
        match self.kind:
            case "waiting_with":
                return f"waiting with the {self.card}"
            case "going_out_now":
                return "going out now"
            case "going_out_with":
                return f"going out with {_words(self.words or ())} (discarding the {self.card})"


@dataclass(frozen=True, slots=True)
class Simulated:
    """The master's choice between going out and waiting, by simulated finishes.

    :ivar action: The move: ``"go-out"`` or ``"discard"`` (wait).
    :ivar card: Its discard.
    :ivar words: The words it goes out with (``go-out``), else None.
    :ivar last_round: The values are games won (percent), not round margins.
    :ivar samples: The finishes the recommended move was played in.
    :ivar candidates: Every move searched, the recommended first.
    """

    action: Literal["go-out", "discard"]
    card: Card
    words: tuple[str, ...] | None
    last_round: bool
    samples: int
    candidates: tuple[Candidate, ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": "simulated", "action", "card", "last_round", "samples", "candidates"}``
        (``"words"`` for ``go-out``).

        :returns: The JSON object.
        """
        out: dict[str, Any] = {"kind": "simulated", "action": self.action, "card": self.card.face,
                               "last_round": self.last_round, "samples": self.samples,
                               "candidates": [c.to_dict() for c in self.candidates]}  # fmt: skip
        if self.words is not None:
            out["words"] = list(self.words)
        return out

    def english(self) -> str:
        """The sentence of the hint's ``reason``.

        :returns: The English text.
        """
        last = self.last_round
        if self.action == "go-out":
            move = f"Go out with {_words(self.words or ())} and discard the {self.card}"
        else:
            move = f"Wait: discard the {self.card} and keep your hand"
        unit = "%" if last else ""
        best, *rest = self.candidates
        finishes = f"{self.samples} simulated finishes of the {'game' if last else 'round'}"
        tail = "" if last else " (your round score less the best other player's)"
        head = f"{best.phrase()} {'wins' if last else 'averages'} {best.value:.0f}{unit} over {finishes}{tail}"
        others = ", ".join(f"{c.phrase()} {c.value:.0f}{unit}" + (f" (over {c.samples})" if c.samples != self.samples
                                                                  else "") for c in rest)  # fmt: skip
        return f"{move}: {head}" + (f", {others}." if others else ".")


#: Why a hint recommends its move: one of the kinds above.
Explanation = OnlyDraw | DrawChoice | GoingOut | Waiting | Discarding | LayingDown | Simulated
