"""Game reviews: each decision of a seat judged against the evaluator's best
in the position the seat saw.

A game the expert played loses nothing when the expert reviews it (and
master's, reviewed by master, loses nothing beyond its noise); known bad
moves planted into real records are labelled mistakes or blunders where
they were planted, with the review before them unchanged; records of every
format replay into a review; records that cannot be reviewed are refused
with the reason."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from quiddler.game import Game, GameRecordError, GameReview, Rules, judging, make_player, review
from quiddler.game.counting import unseen
from quiddler.game.hints import hint
from quiddler.game.judging import going_out_value, judge, lay_down_value
from quiddler.game.master import MasterPlayer
from quiddler.game.plans import play_game
from quiddler.game.players import solve_hand
from quiddler.game.record import game_record
from quiddler.game.reviews import LABEL_LIMITS, LABELS, accuracy_of, label_of
from quiddler.game.state import Action, Discard, Draw, GoOut, LayDown, PlayerView, action_from_dict
from quiddler.wordlist import load_wordlist

GOLDEN = Path(__file__).parents[1] / "data" / "golden"
SHORT = Rules(round_sizes=(3, 4, 5, 6))


def played(names: list[str], seed: int, rules: Rules = SHORT) -> dict[str, Any]:
    """The record of a game (the same game is played once per test run; do not change the record)."""
    return _played(tuple(names), seed, rules)


@cache
def _played(names: tuple[str, ...], seed: int, rules: Rules) -> dict[str, Any]:
    players = [make_player(name, seed * 10 + seat) for seat, name in enumerate(names)]
    return game_record(play_game(players, seed=seed, rules=rules), list(names))


@pytest.fixture(scope="module")
def expert_vs_greedy() -> dict[str, Any]:
    return played(["expert", "greedy"], 11)


def seat_actions(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [a for entry in record["rounds"] for a in entry["actions"] if a["player"] == seat]


# -- what a review holds -------------------------------------------------------------


def test_the_expert_reviewed_by_the_expert_loses_nothing(expert_vs_greedy: dict[str, Any]) -> None:
    for record, seat in ((expert_vs_greedy, 0), (played(["random", "greedy", "expert"], 4), 2)):
        result = review(record, seat)
        assert len(result.decisions) == len(seat_actions(record, seat)) >= 8
        assert all(d.loss == 0 and d.label == "best" and d.played == d.best for d in result.decisions)
        assert result.loss_total == 0 and result.accuracy == 100
        assert_explained(result)


def test_every_move_of_the_seat_is_a_decision_in_order(expert_vs_greedy: dict[str, Any]) -> None:
    result = review(expert_vs_greedy, 1)
    assert [d.played for d in result.decisions] == seat_actions(expert_vs_greedy, 1)
    for d in result.decisions:
        kind = {"draw": "draw", "discard": "discard", "go_out": "discard", "lay_down": "final"}[d.played["type"]]
        assert d.kind == kind
        assert d.view.seat == 1 and d.view.my_turn and d.view.round == d.round
    # turns count from 0 in each round; a draw and the move after it share the turn
    for first, second in zip(result.decisions[::2], result.decisions[1::2]):
        assert first.kind == "draw" and (second.round, second.turn) == (first.round, first.turn)
    firsts = {d.round: d.turn for d in reversed(result.decisions)}
    assert set(firsts.values()) == {0}


def test_the_loss_is_the_best_value_less_the_played_value(expert_vs_greedy: dict[str, Any]) -> None:
    result = review(expert_vs_greedy, 1)
    assert any(d.loss > 0 for d in result.decisions)
    for d in result.decisions:
        assert d.loss == pytest.approx(max(0.0, d.best_value - d.played_value))
        assert d.loss >= 0 and d.label == label_of(d.loss) and d.se == 0 and d.samples == 0
        assert (d.played == d.best) <= (d.loss == 0)
        # the explanation is the hint's reason for the best move, in the same position
        assert d.explanation == hint(d.view).reason
    assert result.loss_total == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.accuracy == pytest.approx(accuracy_of(result.loss_total / len(result.decisions)))
    assert sum(r.loss for r in result.rounds) == pytest.approx(result.loss_total)
    assert [r.round for r in result.rounds] == [0, 1, 2, 3]
    assert [r.score for r in result.rounds] == [s["scores"][1]["score"] for s in
                                                (e["result"] for e in expert_vs_greedy["rounds"])]  # fmt: skip


def test_labels_rise_with_the_loss() -> None:
    losses = [0.0, 0.5, 1.5, 6.0, 10.0]
    assert [label_of(x) for x in losses] == list(LABELS)
    assert accuracy_of(0) == 100 and 0 < accuracy_of(30) < accuracy_of(6) < accuracy_of(0.5) < 100


def test_the_json_names_every_field(expert_vs_greedy: dict[str, Any]) -> None:
    data = json.loads(json.dumps(review(expert_vs_greedy, 1).to_dict()))
    assert {"seat", "player", "players", "level", "decisions", "rounds", "loss_total", "loss_se", "mean_loss",
            "accuracy", "labels", "worst"} <= set(data)  # fmt: skip
    assert (data["seat"], data["player"], data["level"]) == (1, "greedy", "expert")
    decision = data["decisions"][0]
    assert {"round", "turn", "kind", "played", "best", "loss", "label", "explanation", "best_value",
            "played_value", "se", "samples", "position"} <= set(decision)  # fmt: skip
    assert set(decision["position"]) >= {"hand", "discard_top", "seen", "laid_down", "totals", "went_out"}
    assert sum(data["labels"].values()) == len(data["decisions"])
    losses = [d["loss"] for d in data["decisions"]]
    assert [losses[i] for i in data["worst"]] == sorted((losses[i] for i in data["worst"]), reverse=True)


def test_worker_processes_give_the_same_review(expert_vs_greedy: dict[str, Any]) -> None:
    calls: list[tuple[int, int]] = []
    alone = review(expert_vs_greedy, 1)
    pooled = review(expert_vs_greedy, 1, workers=2, progress=lambda done, total: calls.append((done, total)))
    assert pooled.to_dict() == alone.to_dict()
    n = len(alone.decisions)
    assert calls == [(k, n) for k in range(1, n + 1)]


def test_the_values_of_unlisted_moves_agree_with_the_experts_own() -> None:
    """The formulas that value a going out or a lay-down the expert does
    not list give the listed ones exactly the expert's values."""
    record = played(["expert", "expert", "expert"], 5)
    checked = {"go-out": 0, "lay-down": 0}
    for view, _ in positions(record):
        for option in hint(view).options:
            if option.action == "go-out":
                assert option.card is not None
                assert going_out_value(view, option.words or (), option.card) == pytest.approx(option.value)
            elif option.action == "lay-down":
                assert option.card is not None
                assert lay_down_value(view, option.words or (), option.card) == pytest.approx(option.value)
            else:
                continue
            checked[option.action] += 1
    assert min(checked.values()) >= 3


# -- planted mistakes ---------------------------------------------------------------


def positions(record: dict[str, Any]) -> Iterator[tuple[PlayerView, Action]]:
    """Every position of a record, as the seat to move saw it, and the move made."""
    game = Game(len(record["players"]), seed=record["seed"], rules=Rules.from_dict(record["rules"]),
                shuffle=record["shuffle"])  # fmt: skip
    for entry in record["rounds"]:
        for data in entry["actions"]:
            action = action_from_dict(data)
            yield game.view(game.turn), action
            game.apply(action)


def planted(record: dict[str, Any], index: int, bad: Action) -> dict[str, Any]:
    """The record up to its move ``index`` (from 0, over the whole game), then ``bad``: an unfinished game."""
    game = Game(len(record["players"]), seed=record["seed"], rules=Rules.from_dict(record["rules"]),
                shuffle=record["shuffle"])  # fmt: skip
    actions = [action_from_dict(a) for entry in record["rounds"] for a in entry["actions"]]
    for action in actions[:index]:
        game.apply(action)
    game.apply(bad)
    return game_record(game, record["players"])


def find_plants(kind: str, games: int = 16) -> list[tuple[dict[str, Any], int, Action]]:
    """(record, move index, the bad move) of each position of ``kind`` in expert games:

    - ``discard-the-word``: the card just drawn completes the hand's only
      word (without it the hand makes none), and it is discarded;
    - ``blind-draw``: the discard top completes a going out that fewer than
      half of the blind draws would, and the player draws blind;
    - ``wait``: the expert goes out, valuing it a wide margin (the
      mistake label's limit) above any wait, and the player waits
      (discards the card of the best wait).
    """
    found = []
    for seed in range(games):
        record = played(["expert", "expert"], 100 + seed)
        drew = False
        for index, (view, action) in enumerate(positions(record)):
            if kind == "blind-draw" and isinstance(action, Draw) and view.discard_top and view.may_go_out \
                    and not view.final_turn and view.may_draw_from_pile:  # fmt: skip
                pool = unseen(view)
                share = sum(n for c, n in pool.items() if solve_hand(view.hand + (c,), view).can_go_out)
                if solve_hand(view.hand + (view.discard_top,), view).can_go_out and share < sum(pool.values()) / 2:
                    found.append((record, index, Draw(view.seat, "pile")))
            elif kind == "discard-the-word" and drew and isinstance(action, (Discard, GoOut)):
                card = view.hand[-1]  # the card just drawn
                words = solve_hand(view.hand, view).best.words
                rest = list(view.hand)
                rest.remove(card)
                if len(words) == 1 and card in words[0].cards and not solve_hand(rest, view, discard=False).best.words:
                    found.append((record, index, Discard(view.seat, card)))
            elif kind == "wait" and isinstance(action, GoOut):
                options = hint(view).options
                # every discard as the review values it (a wait the expert does not list, too)
                values = {c: judge(view, Discard(view.seat, c)).played_value for c in set(view.hand)}
                card = max(values, key=values.__getitem__)
                if options[0].value - values[card] >= LABEL_LIMITS[2]:
                    found.append((record, index, Discard(view.seat, card)))
            drew = isinstance(action, Draw) and not view.final_turn
    return found


@pytest.mark.parametrize("kind", ["discard-the-word", "blind-draw", "wait"])
def test_a_planted_bad_move_is_a_mistake_or_a_blunder_where_it_was_planted(kind: str) -> None:
    plants = find_plants(kind)
    assert len(plants) >= 2, f"too few {kind} positions found"
    for record, index, bad in plants[:4]:
        seat = bad.player
        before = review(record, seat)
        after = review(planted(record, index, bad), seat)
        moves = [a for entry in record["rounds"] for a in entry["actions"]]
        k = sum(1 for a in moves[:index] if a["player"] == seat)  # the seat's decisions before the planted one
        assert [d.to_dict() for d in after.decisions[:k]] == [d.to_dict() for d in before.decisions[:k]]
        decision = after.decisions[k]
        assert decision.played == bad.to_dict() and decision.label in ("mistake", "blunder"), (kind, decision)
        assert len(after.decisions) == k + 1


# -- master -------------------------------------------------------------------------


def test_master_reviewed_by_master_on_its_own_samples_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A master player that searches as the review does, seeded as the review
    seeds its samples (by the game's seed), makes the review's best move at
    every decision but the last round's (where it plays for the win, and the
    review counts points)."""
    settings = replace(judging.REVIEW_SEARCH, samples=12)
    monkeypatch.setattr(judging, "REVIEW_SEARCH", settings)
    rules = Rules(round_sizes=(3, 4, 5, 6, 7))
    seed = 21
    game = play_game([MasterPlayer(seed, settings=settings), make_player("greedy", 2)], seed=seed, rules=rules)
    result = review(game_record(game, ["master", "greedy"]), 0, level="master")
    searched = [d for d in result.decisions if d.samples]
    assert len(searched) >= 2 and all(d.samples == 12 for d in searched)
    for d in result.decisions:
        if d.round < rules.rounds - 1:
            assert d.loss == 0 and d.played == d.best, d
        if not d.samples:
            assert d.se == 0
    assert all(d.explanation_terms.to_dict()["kind"] == "simulated" for d in searched if d.explanation_terms)
    assert_explained(result)


def assert_explained(result: GameReview) -> None:
    """Each decision's explanation comes as structure too, which renders to the very sentence."""
    for d in result.decisions:
        assert d.explanation_terms is not None and d.explanation_terms.english() == d.explanation
        terms = d.to_dict()["explanation_terms"]
        assert terms == json.loads(json.dumps(d.explanation_terms.to_dict())) and terms["kind"]


def test_master_judges_a_planted_wait_on_the_same_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judging, "REVIEW_SEARCH", replace(judging.REVIEW_SEARCH, samples=12))
    record, index, bad = find_plants("wait")[0]
    result = review(planted(record, index, bad), bad.player, level="master")
    decision = result.decisions[-1]
    assert decision.played == bad.to_dict() and decision.played != decision.best
    assert decision.loss > 0 and decision.se > 0 and decision.samples == 12


# -- records of every format, and records refused ------------------------------------


GOLDEN_CASES = ["v1/two-greedy-random", "v1/two-custom-list", "v1/three-unfinished", "v2/two-greedy-random",
                "v2/two-turn-limit-words", "v2/three-unfinished", "v2/two-one-bonus-most"]  # fmt: skip


@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_records_of_every_format_are_reviewed(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    record = json.loads(path.read_text())
    listed = record["rules"]["wordlist"]
    words = None if listed == "ENABLE" else load_wordlist(GOLDEN / listed)
    for given in (record, path, path.read_text(), str(path)):
        result = review(given, 1, wordlist=words)  # type: ignore[arg-type]
        assert isinstance(result, GameReview)
        assert [d.played for d in result.decisions] == seat_actions(record, 1)
    assert all(d.loss >= 0 and d.label in LABELS for d in result.decisions)


def test_a_record_played_with_another_word_list_is_refused_naming_it() -> None:
    record = json.loads((GOLDEN / "v2" / "two-custom-list.json").read_text())
    with pytest.raises(GameRecordError, match="word list .*short-words.txt.*pass that list"):
        review(record, 0)


@pytest.mark.parametrize(("given", "reason"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "not an object"),
    ({"format": "chess-game/1"}, "not a game record of a known format"),
    ("/no/such/record.json", "No such file"),
])  # fmt: skip
def test_what_is_not_a_record_is_refused_with_the_reason(given: Any, reason: str) -> None:
    with pytest.raises(GameRecordError, match=reason):
        review(given, 0)


def test_a_record_that_does_not_replay_is_refused_with_the_reason(expert_vs_greedy: dict[str, Any]) -> None:
    unreadable = json.loads(json.dumps(expert_vs_greedy))
    unreadable["rounds"][0]["actions"][1]["card"] = "zz"
    with pytest.raises(GameRecordError, match="bad action .*unknown card: 'zz'"):
        review(unreadable, 0)
    illegal = json.loads(json.dumps(expert_vs_greedy))
    illegal["rounds"][0]["actions"][1] = dict(illegal["rounds"][0]["actions"][0])  # a second draw
    with pytest.raises(GameRecordError, match="round 1, action 2: already drew"):
        review(illegal, 0)
    changed = json.loads(json.dumps(expert_vs_greedy))
    changed["final_scores"][0] += 1
    with pytest.raises(GameRecordError, match="final_scores"):
        review(changed, 0)


@pytest.mark.parametrize(("seat", "level", "workers", "message"), [
    (2, "expert", None, "no seat 2 in this game: its seats are 0 to 1"),
    (-1, "expert", None, "no seat -1"),
    (0, "grandmaster", None, "unknown review level: 'grandmaster'"),
    (0, "expert", 0, "workers must be a positive integer"),
])  # fmt: skip
def test_bad_arguments_are_refused_naming_them(expert_vs_greedy: dict[str, Any], seat: int, level: str,
                                               workers: int | None, message: str) -> None:  # fmt: skip
    with pytest.raises(ValueError, match=message):
        review(expert_vs_greedy, seat, level=level, workers=workers)
    with pytest.raises(TypeError, match="a seat is an integer"):
        review(expert_vs_greedy, True)  # type: ignore[arg-type]


def test_accuracy_falls_as_the_mean_loss_grows() -> None:
    values = [accuracy_of(x) for x in (0, 1, 2, 4, 8, 16)]
    assert values == sorted(values, reverse=True) and values[0] == 100 and values[-1] > 0
    assert math.isclose(accuracy_of(-1), 100)


def test_a_lay_down_the_expert_would_not_make_is_valued_by_its_points() -> None:
    """A final turn that lays down nothing, judged: it loses what the best lay-down is worth over it."""
    record = played(["expert", "greedy"], 3)
    for view, action in positions(record):
        if isinstance(action, LayDown) and action.words:
            nothing = LayDown(view.seat, (), action.discard)
            result = judge(view, nothing)
            kept = list(view.hand)
            kept.remove(action.discard)
            assert result.played_value == -sum(c.points for c in kept)
            assert result.loss > 0
            return
    pytest.fail("no final turn laid words down")
