"""A hint's explanation (the structure of its reason) carries everything its
English sentence says: rendered from the JSON alone, by the templates the
JSON shapes page documents, it gives the very sentence the hints gave
before the structure existed (recorded in ``data/hint_reasons.json`` from
seeded games at every level, master's simulated finishes included).

The renderer here is a second, independent reading of the documented
format, as a page in another language reads it: it sees only the JSON."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quiddler.cards import full_deck, parse_hand
from quiddler.game import Game, PlayerView, Rules
from quiddler.game.ai import EXPERT, advise
from quiddler.game.hints import hint, position_view
from quiddler.game.players import solve_cards

RECORDED = json.loads((Path(__file__).parent / "data" / "hint_reasons.json").read_text(encoding="utf-8"))

# -- the documented English templates, read from the JSON only --------------------------------

BASES = {
    "words": ("your best words make {v} points", 0),
    "go_out_now": ("you can go out now for {v} points", 0),
    "keep_hand": ("keeping your hand as it is is valued {v}", 1),
    "blind_draw": ("a blind draw averages {v} points", 1),
    "kept_average": ("after your next draw the hand you keep averages {v} points", 1),
    "waiting_average": ("after your next draw it averages {v} points", 1),
    "kept_now": ("the hand you keep scores {v} points now", 0),
}


def term(t: dict[str, Any]) -> str:
    others = t.get("others", 0)
    against = f" against {others} others" if others > 1 else ""
    weighted = f" weighted 1/{others} with {others} rivals" if others > 1 else ""
    how = "tying" if t.get("tie") else "beating"
    what = {
        "going_out": "going out",
        "out_chance": f"its {t.get('percent')}% chance to go out",
        "bonuses_won": "the bonuses they win against the words laid down",
        "longest_kept": "the longest-word bonus it should keep" + against,
        "most_kept": "the most-words bonus it should keep" + against,
        "gift": f"what the {t.get('card')} is worth to the next player",
        "wait": "waiting with a complete hand that cannot be lost",
        "extra_turn": "the others' extra turn",
        "longest_won": f"the longest-word bonus: {t.get('letters')} letters beat the {t.get('laid')} laid down",
        "most_won": f"the most-words bonus: {t.get('count')} words beat the {t.get('laid')} laid down",
        "longest_denied": f"{how} the longest word laid down so its holder loses the bonus{weighted}",
        "most_denied": f"{how} the most words laid down so their holder loses the bonus{weighted}",
    }[t["kind"]]
    return f"{t['value']:+.1f} for {what}"


def total(s: dict[str, Any]) -> str:
    if s["kind"] == "play":
        base = f"{', '.join(s['words']) or 'no words'} and discard the {s['card']}: {s['value']} points"
    else:
        text, digits = BASES[s["kind"]]
        base = text.format(v=f"{s['value']:.{digits}f}")
    if not s["terms"]:
        return base
    return f"{base}, {', '.join(term(t) for t in s['terms'])} ({s['total']:.1f} in all)"


def phrase(c: dict[str, Any]) -> str:
    return {"going_out_now": "going out now",
            "going_out_with": f"going out with {', '.join(c.get('words', []))} (discarding the {c['card']})",
            "waiting_with": f"waiting with the {c['card']}"}[c["kind"]]  # fmt: skip


def render(e: dict[str, Any]) -> str:
    """The English sentence of an explanation, from its JSON."""
    match e["kind"]:
        case "only_draw":
            return f"The only draw allowed: {'the draw pile' if e['source'] == 'pile' else 'the discard top'}."
        case "take_discard":
            return f"Take the {e['card']}: with it {total(e['take'])}; {total(e['pile'])}."
        case "draw_pile":
            return f"Draw from the pile: {total(e['pile'])}; taking the {e['card']}, {total(e['take'])}."
        case "go_out":
            waiting = e["waiting"]
            tail = "" if waiting is None else f"; waiting (discard the {waiting['card']}) is worth {waiting['value']:.1f}"
            return f"Go out with {total(e['value'])}{tail}."
        case "wait":
            last = "; if the other player goes out first, yours is the last say" if e["last_say"] else ""
            out = e["going_out"]
            return (f"Wait: discard the {e['card']} and keep your hand; {total(e['value'])}{last}; going out now "
                    f"(discard the {out['card']}) is worth {out['value']:.1f}.")  # fmt: skip
        case "discard":
            return f"Discard the {e['card']}: {total(e['value'])}."
        case "lay_down":
            return f"Lay down {total(e['value'])}."
        case "simulated":
            last = e["last_round"]
            unit = "%" if last else ""
            if e["action"] == "go-out":
                move = f"Go out with {', '.join(e['words'])} and discard the {e['card']}"
            else:
                move = f"Wait: discard the {e['card']} and keep your hand"
            best, *rest = e["candidates"]
            margin = "" if last else " (your round score less the best other player's)"
            head = (f"{phrase(best)} {'wins' if last else 'averages'} {best['value']:.0f}{unit} over {e['samples']} "
                    f"simulated finishes of the {'game' if last else 'round'}{margin}")  # fmt: skip
            others = [f"{phrase(c)} {c['value']:.0f}{unit}" + (f" (over {c['samples']})" if c["samples"] != e["samples"]
                                                             else "") for c in rest]  # fmt: skip
            return f"{move}: {head}" + (f", {', '.join(others)}." if others else ".")
    raise AssertionError(f"unknown explanation kind {e['kind']!r}")


# -- the tests ------------------------------------------------------------------------------


def kinds_in(value: Any) -> set[str]:
    """Every ``kind`` named anywhere in a JSON value."""
    if isinstance(value, dict):
        return ({value["kind"]} if "kind" in value else set()).union(*map(kinds_in, value.values()))
    if isinstance(value, list):
        return set().union(*map(kinds_in, value))
    return set()


def test_the_sentence_rendered_from_the_json_is_the_recorded_reason() -> None:
    """Every position of the recorded games: the English reason is exactly
    what it was, and the JSON alone says all of it; the positions cover
    each kind of explanation, base and term the hints make."""
    seen: set[str] = set()
    for game in RECORDED:
        played = Game(game["players"], seed=game["seed"], rules=Rules.from_dict(game["rules"]))
        for recorded in game["reasons"]:
            advice = hint(played.view(played.turn), game["level"])
            data = json.loads(json.dumps(advice.to_dict(), allow_nan=False))
            assert advice.reason == recorded, game
            assert render(data["explanation"]) == recorded, data["explanation"]
            seen |= kinds_in(data["explanation"])
            played.apply(advice.recommended.to_action(played.turn))
        assert played.over
    # extra_turn needs a player charged for waiting and only_draw an empty pile: none of these games meets them
    expected = {"take_discard", "draw_pile", "go_out", "wait", "discard", "lay_down", "simulated", "words",
                "go_out_now", "keep_hand", "blind_draw", "kept_average", "waiting_average", "kept_now", "play",
                "going_out", "out_chance", "bonuses_won", "longest_kept", "most_kept", "gift", "longest_won",
                "most_won", "longest_denied", "most_denied", "going_out_now", "going_out_with",
                "waiting_with"}  # fmt: skip
    assert expected <= seen, expected - seen


def test_each_value_the_explanation_quotes_is_the_hints_own() -> None:
    """The total of the recommended move's value is its value in the hint's table, to a tenth."""
    view = position_view(parse_hand("qu,i,e,t,er"))
    advice = hint(view)
    data = advice.to_dict()
    assert data["explanation"]["kind"] == "wait"
    assert data["explanation"]["value"]["total"] == round(advice.recommended.value, 1)
    going = [o for o in advice.options if o.action == "go-out"]
    assert data["explanation"]["going_out"] == {"card": going[0].card.face if going[0].card else None,
                                                "value": round(max(o.value for o in going), 1)}  # fmt: skip


def test_a_player_moving_without_the_reason_gets_no_explanation() -> None:
    view = position_view(parse_hand("qu,i,e,t,er"))
    quick = advise(view, EXPERT, explain=False)
    assert quick.reason == "" and quick.explanation is None and quick.to_dict()["explanation"] is None
    assert quick.options == advise(view, EXPERT).options


def random_positions(count: int, seed: int) -> Iterator[PlayerView]:
    """Positions typed in as ``quiddler hint`` takes them: draws, discards
    and final turns after an opponent's words, two to six players."""
    rng = random.Random(seed)
    deck = list(full_deck())
    words = [solve_cards(list(parse_hand(text)), Rules().words).best.words for text in
             ("qu,i,e,t", "d,o,g,c,a,t", "th,in,g,s", "j,a,m,b,o,x")]  # fmt: skip
    for _ in range(count):
        n = rng.choice((3, 4, 5, 6, 8))
        cards = rng.sample(deck, n + 2)
        opponents = rng.randint(1, 5)
        match rng.randrange(3):
            case 0:
                yield position_view(tuple(cards[:n]), discard_top=cards[n], opponents=opponents, turn=rng.randint(1, 3))
            case 1:
                yield position_view(tuple(cards[: n + 1]), opponents=opponents, turn=rng.randint(1, 3))
            case _:
                went_out = rng.choice(words)
                used = sum(len(w.cards) for w in went_out)
                hand = tuple(c for c in cards if c not in {c for w in went_out for c in w.cards})[: used + 1]
                if len(hand) == used + 1:
                    yield position_view(hand, opponents=opponents, went_out=went_out)


@pytest.mark.parametrize("level", ["expert", "ev", "medium", "easy"])
def test_random_positions_render_from_the_json_alone(level: str) -> None:
    seen: set[str] = set()
    for view in random_positions(25, seed=len(level)):
        advice = hint(view, level)
        data = json.loads(json.dumps(advice.to_dict(), allow_nan=False))
        assert render(data["explanation"]) == advice.reason
        seen.add(data["explanation"]["kind"])
    assert len(seen) >= 3, seen
