"""The solves that cannot change a player's move are skipped: a final
turn's bonus targets (:mod:`quiddler.game.finals`) and the going-out
plays of discards that cannot be the best.  On every position of many
games, under several rules, the answers are those of every solve done,
as the players did before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quiddler import default_wordlist
from quiddler.cards import Card
from quiddler.game import Game, Rules, ai, make_player
from quiddler.game.ai import EV, EXPERT, _advise, _bonus_parts, _going_out_plays, _Position, advise
from quiddler.game.plans import next_action
from quiddler.game.players import (
    TARGET_BONUS,
    GreedyPlayer,
    _best_value,
    _Bonuses,
    _even_discards,
    _final_draw_takes,
    _final_search,
    _final_valuer,
    _value_aim,
    best_final_play,
    solve_cards,
    solve_hand,
)
from quiddler.game.state import Phase, PlayerView
from quiddler.solver import Play

RULES = {
    "default": Rules(),
    "longest only": Rules(two_player_bonuses="longest"),
    "bonus needs going out": Rules(bonus_requires_going_out=True),
    "big bonuses": Rules(longest_word_bonus=25, most_words_bonus=5),
}


def views(rules: Rules, players: int, games: int, seed: int, final: bool) -> Iterator[PlayerView]:
    """Every view to move (``final``: of a final turn only) of ``games`` games of the expert, greedy and ev."""
    names = ["expert", "greedy", "ev"]
    for g in range(games):
        seats = [make_player(names[(g + s) % 3], seed + s) for s in range(players)]
        game = Game(players, seed=seed + g, rules=rules)
        while not game.over:
            if game.final_turn or not final:
                yield game.view(game.turn)
            game.apply(next_action(game, seats))


def every_solve_best(cards: list[Card], view: PlayerView, discard: bool) -> Play:
    """The best final play as it was found before: all four solves, the first best."""
    longest_bonus, most_bonus = view.rules.bonuses(view.players)
    longest, count = view.others_best()
    plays = [solve_hand(cards, view, discard=discard).best]
    if longest_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_longest=longest, bonus=TARGET_BONUS).best)
    if most_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_words=count, bonus=TARGET_BONUS).best)
    if longest_bonus and most_bonus:
        plays.append(solve_hand(cards, view, discard=discard, beat_longest=longest, beat_words=count,
                                bonus=TARGET_BONUS).best)  # fmt: skip
    return max(plays, key=lambda p: _final_valuer(view)(p))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_final_turns_decide_as_with_every_solve(rules: Rules, players: int) -> None:
    checked = {"draw": 0, "lay-down": 0}
    for view in views(rules, players, games=4, seed=900 + players, final=True):
        hand = list(view.hand)
        if view.phase is Phase.DRAW:
            if view.discard_top is None:
                continue
            top = view.discard_top
            taking = _final_valuer(view)(every_solve_best(hand + [top], view, True))
            keeping = _final_valuer(view)(every_solve_best(hand, view, False))
            assert _final_draw_takes(hand, top, view) == (taking > keeping)
            checked["draw"] += 1
        else:
            assert best_final_play(hand, view) == every_solve_best(hand, view, True)
            full = advise(view, EXPERT, explain=False).options
            assert _advise(view, EXPERT, False, best_only=True).options == full[:1]
            checked["lay-down"] += 1
    assert checked["draw"] and checked["lay-down"]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", RULES.keys())
def test_one_solve_finds_the_best_final_value(name: str, players: int) -> None:
    """Where the rules allow it (the bonuses alike, won without going out),
    the solve with the true bonuses as its targets' bonus scores the best
    final play's value, of a hand with a discard and of one without
    (greedy's final draw compares those)."""
    checked = 0
    for view in views(RULES[name], players, games=3, seed=600 + players, final=True):
        aim = _value_aim(_Bonuses.of(view))
        assert (aim is not None) == (name in ("default", "longest only"))
        if aim is None:
            continue
        value = _final_valuer(view)
        hand = list(view.hand)
        hands = [(hand, view.phase is not Phase.DRAW)]
        if view.phase is Phase.DRAW and view.discard_top is not None:
            hands.append((hand + [view.discard_top], True))
        for cards, discard in hands:
            assert _best_value(cards, view, discard, aim) == value(every_solve_best(cards, view, discard))
            checked += 1
    assert checked or name not in ("default", "longest only")


@pytest.mark.parametrize("players", [2, 3])
def test_the_discards_that_reach_the_best_final_value(players: int) -> None:
    """The cards whose discard reaches a hand's best final value are those
    whose rest, every solve done, is worth that much (greedy takes the
    discard top exactly when it is not one of them)."""
    checked = taken = 0
    for view in views(Rules(), players, games=3, seed=200 + players, final=True):
        if view.phase is not Phase.DRAW or view.discard_top is None:
            continue
        cards = list(view.hand) + [view.discard_top]
        aim = _value_aim(_Bonuses.of(view))
        assert aim is not None
        found = _even_discards(cards, view, aim)
        assert found is not None
        value = _final_valuer(view)
        best = value(every_solve_best(cards, view, True))
        rests = {}
        for card in set(cards):
            rest = list(cards)
            rest.remove(card)
            rests[card] = value(every_solve_best(rest, view, False))
        assert found == (best, frozenset(card for card, worth in rests.items() if worth == best))
        assert max(rests.values()) == best
        checked += 1
        taken += view.discard_top not in found[1]
    assert checked and taken


def test_the_final_draw_without_the_even_discards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the solver will not say which discards reach the best value (a
    memory bound it might pass), greedy's final draw runs the two searches."""
    monkeypatch.setattr("quiddler.game.players._even_discards", lambda cards, view, aim: None)
    checked = 0
    for view in views(Rules(), 2, games=2, seed=901, final=True):
        if view.phase is Phase.DRAW and view.discard_top is not None:
            hand, top = list(view.hand), view.discard_top
            taking = _final_valuer(view)(every_solve_best(hand + [top], view, True))
            keeping = _final_valuer(view)(every_solve_best(hand, view, False))
            assert _final_draw_takes(hand, top, view) == (taking > keeping)
            checked += 1
    assert checked


def test_a_final_search_stops_at_the_best_value_it_is_given() -> None:
    """Told the best value, a final search finds the same play and does no
    solve once it has a play worth that much (every lay-down of greedy
    games, where one solve gives that value)."""
    checked = 0
    for view in views(Rules(), 2, games=3, seed=300, final=True):
        if view.phase is Phase.DRAW:
            continue
        hand, bonuses = list(view.hand), _Bonuses.of(view)
        aim = _value_aim(bonuses)
        assert aim is not None
        most = _best_value(hand, view, True, aim)
        free, told = _final_search(hand, view, True, bonuses), _final_search(hand, view, True, bonuses, most)
        assert told.high == most
        while told.value < most:
            assert told.step()
        assert not told.step()
        assert told.finish() == free.finish() == (best_final_play(hand, view), most)
        checked += 1
    assert checked


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_the_experts_best_final_value_is_the_best_of_every_target_solve(rules: Rules, players: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The best value the expert's lay-down is told (its classes of plays
    searched once, and again for a longest word that ties where that might
    be worth more) is the best of the plays of every target solve at their
    true values (the full ranking's first), for two players (a bonus denied
    worth a whole one) and more (a fraction); and its lay-down is that
    ranking's first."""
    told: list[float | None] = []
    searches: list[int | None] = []
    real_worth, real_scores = ai._best_worth, ai.class_scores
    monkeypatch.setattr(ai, "_best_worth", lambda *args: told.append(real_worth(*args)) or told[-1])
    monkeypatch.setattr(ai, "class_scores", lambda *args: searches.append(args[2]) or real_scores(*args))
    checked, tied = 0, 0
    for view in views(rules, players, games=3, seed=500 + players, final=True):
        if view.phase is Phase.DRAW:
            continue
        told.clear()
        searches.clear()
        best = _advise(view, EXPERT, False, best_only=True).options
        full = advise(view, EXPERT, explain=False).options
        assert best == full[:1]
        if told and told[0] is not None:
            assert told[0] == full[0].value
            checked += 1
            tied += len(searches) > 1
    assert checked or rules.bonus_requires_going_out
    assert tied or rules.bonus_requires_going_out or players > 2


def test_the_greedy_draw_solves_the_hand_as_it_is_only_when_it_must() -> None:
    """Greedy's ordinary draw takes the discard top as it did when it
    always compared with the hand as it is (the hand with the top going
    out, or scoring more)."""
    greedy = GreedyPlayer()
    checked = 0
    for view in views(Rules(), 2, games=6, seed=400, final=False):
        if view.phase is not Phase.DRAW or view.final_turn or view.discard_top is None or not view.may_draw_from_pile:
            continue
        hand = list(view.hand)
        taken = solve_hand(hand + [view.discard_top], view)
        take = (taken.can_go_out and view.may_go_out) or taken.best.score > solve_hand(hand, view, discard=False).best.score
        assert greedy.choose_draw(view).source == ("discard" if take else "pile")
        checked += take
    assert checked


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_a_player_moving_chooses_as_the_full_ranking(rules: Rules, players: int) -> None:
    """What the expert and ev play (their best option, the going-out
    plays of some discards unsolved) is the first option of the full ranking."""
    going_out = 0
    for view in views(rules, players, games=3, seed=700 + players, final=False):
        for tuning in (EXPERT, EV):
            best = _advise(view, tuning, False, best_only=True).options[0]
            assert best == advise(view, tuning, explain=False).options[0]
            going_out += best.action == "go-out"
    assert going_out


def every_going_out_play(pos: _Position, kept: list[Card]) -> list[Play]:
    """The going-out plays the expert weighed before: the best, and the best with a longer word or more words."""
    first = solve_cards(kept, pos.words, discard=False).best_go_out
    assert first is not None
    plays = [first]
    for longest, count in ((first.longest_word, None), (None, first.word_count)):
        other = solve_cards(kept, pos.words, discard=False, beat_longest=longest, beat_words=count,
                            bonus=TARGET_BONUS).best  # fmt: skip
        if other.goes_out and other.bonus and other not in plays:
            plays.append(Play(other.words, other.unused, None))
    return plays


def test_no_going_out_play_has_a_longer_word_than_the_solvers() -> None:
    """What the expert's going-out plays rest on: the solver's going-out
    play has the longest word of any going-out play of the cards (a solve
    aiming past it never goes out), but not always the most words."""
    longer = more = 0
    for view in views(Rules(), 2, games=4, seed=510, final=False):
        if view.phase is not Phase.DISCARD:
            continue
        for card in set(view.hand):
            kept = list(view.hand)
            kept.remove(card)
            first = solve_cards(kept, view.rules.words, discard=False).best_go_out
            if first is None:
                continue
            aimed = solve_cards(kept, view.rules.words, discard=False, beat_longest=first.longest_word,
                                bonus=TARGET_BONUS).best  # fmt: skip
            assert not (aimed.goes_out and aimed.bonus)
            longer += 1
            aimed = solve_cards(kept, view.rules.words, discard=False, beat_words=first.word_count,
                                bonus=TARGET_BONUS).best  # fmt: skip
            more += aimed.goes_out and aimed.bonus > 0
    assert longer > 100 and more


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_the_going_out_plays_left_unsolved_keep_no_more_bonuses(rules: Rules) -> None:
    def best(plays: list[Play]) -> tuple[Play, float]:
        return max(((p, p.card_score + sum(_bonus_parts(pos, p))) for p in plays), key=lambda way: way[1])

    checked = 0
    for view in views(rules, 2, games=3, seed=500, final=False):
        if view.phase is not Phase.DISCARD or not view.may_go_out:
            continue
        pos = _Position(view, EXPERT, explain=False)
        for card in set(view.hand):
            kept = list(view.hand)
            kept.remove(card)
            if solve_cards(kept, pos.words, discard=False).best_go_out is not None:
                assert best(_going_out_plays(pos, kept)) == best(every_going_out_play(pos, kept))
                checked += 1
    assert checked


def test_a_best_value_the_second_search_cannot_tell_is_left_to_the_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The class searches' answers are cached by hand and targets, "cannot
    tell" (None: the pure-Python backend, which the automatic one starts on)
    included: a hand's second search may find a None cached while the
    compiled backend answered its first.  The best value is then left to the
    target solves (None), not asserted."""
    answers = iter([(20, None, None, None, None, None), None])
    monkeypatch.setattr(ai, "class_scores", lambda *args: next(answers))

    def worth(score: int, letters: int, count: int) -> float:
        return score + (100 if letters >= 5 else 0)  # a longest word of five letters or more earns the bonus

    hand = [Card(face) for face in "cates"]
    assert ai._best_worth(hand, default_wordlist(), [None, 5, 4], [None], worth) is None
    assert next(answers, "both asked") == "both asked"
