"""The computer players (``ev``, ``expert``/``hard``, ``medium``, ``easy``)
and their hints: hand-made positions with a clear right answer, decisions
that depend on the view alone, hints that are the expert's moves, the
smaller vocabularies, and complete games.

Strength is measured in benchmarks/bench_ai.py, not here."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections import Counter

import pytest

from quiddler.cards import Card, full_deck, parse_hand
from quiddler.game import (
    Discard,
    Draw,
    Game,
    GoOut,
    LayDown,
    Phase,
    Rules,
    hint,
    make_player,
    play_game,
    player_names,
)
from quiddler.game.ai import EV, EXPERT, AIPlayer, advise
from quiddler.game.counting import known_holdings
from quiddler.game.hints import position_view
from quiddler.game.plans import next_action
from quiddler.game.state import PublicEvent
from quiddler.game.vocabulary import vocabulary, vocabulary_wordlist
from quiddler.solver import Word, solve
from quiddler.wordlist import default_wordlist

DECK = Counter(full_deck())


def cards(text: str) -> tuple[Card, ...]:
    return parse_hand(text)


def test_takes_the_discard_top_that_lets_the_hand_go_out() -> None:
    # j,a,z,x + z: "jazz" goes out for 43; a blind draw rarely goes out at all.
    view = position_view(cards("j,a,z,x"), discard_top=Card("z"))
    for tuning in (EXPERT, EV):
        h = advise(view, tuning)
        assert h.recommended.action == "take-discard" and h.recommended.card == Card("z")
    assert "Take the z" in hint(view).reason


def test_draws_blind_when_the_top_is_useless() -> None:
    view = position_view(cards("d,o,g,e"), discard_top=Card("q"))
    assert hint(view).recommended.action == "draw-pile"


def test_discard_keeps_the_hand_most_likely_to_go_out() -> None:
    # n,a,u,i,o,u: discarding a u keeps n,a,u,i,o, which goes out after 96% of
    # draws; the discard that keeps the best score now (the i) only after 61%.
    hand = cards("n,a,u,i,o,u")
    assert solve(hand, discard=True).best.discard == Card("i")
    rest = DECK - Counter(hand)

    def chance(card: Card) -> float:
        kept = list(hand)
        kept.remove(card)
        goes = sum(n for f, n in rest.items() if solve(kept + [f], discard=True).can_go_out)
        return goes / sum(rest.values())

    best = hint(position_view(hand)).recommended
    assert best.action == "discard" and best.card == Card("u")
    assert chance(Card("u")) == max(chance(c) for c in set(hand)) > chance(Card("i")) + 0.3


def test_discard_avoids_feeding_a_card_the_next_player_collects() -> None:
    # The next player took an x face up: an i (xi) is worth far more to them
    # than to a typical hand, so the expert values discarding it lower; a
    # card that makes no word with an x is not affected.
    from quiddler.game.state import PublicEvent

    hand = cards("c,a,t,s,i,o,e")
    plain = position_view(hand, seen=(Card("x"), Card("z")))
    log = (PublicEvent(Draw(1, "discard"), taken=Card("x")), PublicEvent(Discard(1, Card("z"))))
    watched = dataclasses.replace(plain, log=log)
    assert known_holdings(watched)[1] == Counter({Card("x"): 1})
    before = {o.card: o.value for o in hint(plain).options if o.action == "discard"}
    after = {o.card: o.value for o in hint(watched).options if o.action == "discard"}
    assert after[Card("i")] < before[Card("i")] - 5
    assert after[Card("c")] == pytest.approx(before[Card("c")], abs=0.5)


def test_final_turn_one_more_word_wins_the_most_words_bonus() -> None:
    # The opponent went out with one word; two short words win the most-words
    # bonus and beat the one four-letter word worth more points.
    went_out = (_word("quiet", 4),)
    view = position_view(cards("c,a,t,e,r"), went_out=went_out)
    assert view.final_turn
    best = hint(view).recommended
    assert best.action == "lay-down" and best.words is not None and len(best.words) == 2
    action = best.to_action(0)
    assert isinstance(action, LayDown)


def test_final_turn_ties_the_longest_word_to_void_the_bonus() -> None:
    # quiet (5 letters) went out; "tread" ties it, which voids the goer's bonus:
    # worth more to the expert (2 players) than the higher-scoring shorter play.
    went_out = (_word("quiet", 5),)
    view = position_view(cards("t,r,e,a,d,z"), went_out=went_out)
    options = hint(view).options
    best = options[0]
    assert best.words is not None and max(w.letters for w in best.words) == 5
    assert "tying the longest word laid down so its holder loses the bonus" in hint(view).reason


def test_goes_out_at_once_when_leading_in_the_last_round() -> None:
    hand = cards("c,a,t,s,d,o,g,e,a,r,z")  # 10 dealt + 1 drawn: goes out
    view = position_view(hand, round_number=8)
    assert solve(hand, discard=True).can_go_out
    leading = dataclasses.replace(view, totals=(200, 150))
    assert hint(leading).recommended.action == "go-out"


def test_ev_goes_out_as_soon_as_it_can() -> None:
    view = position_view(cards("qu,i,e,t,er"))
    assert advise(view, EV).recommended.action == "go-out"


def test_expert_waits_on_its_first_turn_but_not_later() -> None:
    # A complete hand is never lost by waiting, and being the last to lay
    # down is worth more than going out first (measured): the expert waits
    # on its first turn of a round, never after.
    first = hint(position_view(cards("qu,i,e,t,er")))
    assert first.recommended.action == "discard" and first.reason.startswith("Wait")
    assert any(o.action == "go-out" for o in first.options)
    later = hint(position_view(cards("qu,i,e,t,er"), turn=2))
    assert later.recommended.action == "go-out"


def test_when_waiting_is_ruled_out_every_value_is_a_finite_number() -> None:
    # Waiting used to be charged an infinite cost, listing each discard at
    # -inf, which JSON cannot carry (json.dumps wrote -Infinity).
    later = hint(position_view(cards("qu,i,e,t,er"), turn=2))
    assert later.options and all(o.action == "go-out" for o in later.options)
    values = [o.value for o in later.options]
    assert all(math.isfinite(v) for v in values) and values == sorted(values, reverse=True)
    json.dumps(later.to_dict(), allow_nan=False)


def test_only_the_allowed_draw_is_offered() -> None:
    view = position_view(cards("d,o,g,e"), discard_top=Card("q"))
    no_top = dataclasses.replace(view, discard_top=None, discard_pile_size=0)
    assert [o.action for o in hint(no_top).options] == ["draw-pile"]
    no_pile = dataclasses.replace(view, draw_pile_size=0, discard_pile_size=1)
    only = hint(no_pile)
    assert [o.action for o in only.options] == ["take-discard"] and "only draw" in only.reason


def test_hint_to_dict_shape() -> None:
    data = hint(position_view(cards("qu,i,e,t,er"))).to_dict()
    assert set(data) == {"recommended", "options", "reason", "explanation"}
    assert data["recommended"] == data["options"][0]
    for option in data["options"]:
        assert set(option) == {"action", "card", "words", "value"}
        assert option["action"] in ("discard", "go-out")
        if option["action"] == "go-out":
            assert all(set(w) == {"word", "cards", "points"} for w in option["words"])
        else:
            assert option["words"] is None
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True)
    json.dumps(data)


def test_hint_refuses_a_view_not_to_move() -> None:
    game = Game(2, seed=1)
    with pytest.raises(ValueError, match="not seat"):
        hint(game.view(1 - game.turn))


def _word(text: str, ncards: int) -> Word:
    """``text`` spelled with ``ncards`` cards."""
    spelling = next(s for s in default_wordlist().spellings(text) if len(s) == ncards)
    return Word(text, spelling)


def _advance(game: Game, players: list, moves: int) -> None:  # type: ignore[type-arg]
    for _ in range(moves):
        if game.over:
            return
        game.apply(next_action(game, players))


@pytest.mark.parametrize(("seed", "moves"), [(3, 3), (11, 2), (12, 5)])
def test_decisions_depend_on_the_view_alone(seed: int, moves: int) -> None:
    """Two games that differ only in hidden cards (the deck order and the
    opponent's hand) give the same decisions for the same view."""
    a = Game(2, seed=seed)
    players = [make_player("greedy", 1), make_player("greedy", 2)]
    _advance(a, players, moves)
    b = Game(2, seed=seed)
    _advance(b, players, moves)
    # Swap the opponent's hand with cards of the draw pile, and shuffle the pile.
    me = b.turn
    other = 1 - me
    hidden = b._hands[other] + b._draw
    random.Random(seed).shuffle(hidden)
    b._hands[other] = hidden[: len(b._hands[other])]
    b._draw = hidden[len(b._hands[other]) :]
    assert a.hand(other) != b.hand(other) or a.draw_pile != b.draw_pile
    assert a.view(me) == b.view(me)
    for name in ("expert", "ev", "medium", "easy"):
        pa, pb = make_player(name, 5), make_player(name, 5)
        assert next_action(a, [pa, pa]) == next_action(b, [pb, pb])


def test_hints_are_the_experts_moves() -> None:
    game = Game(3, seed=21)
    players = [make_player("expert", s) for s in range(3)]
    checked = 0
    while not game.over and checked < 40:
        view = game.view(game.turn)
        action = next_action(game, players)
        assert hint(view).recommended.to_action(game.turn) == action
        game.apply(action)
        checked += 1


def test_a_player_moving_ranks_the_options_as_the_hint_does() -> None:
    """``explain=False`` (what a player uses to move) skips only the sentence."""
    game = Game(3, seed=23)
    players = [make_player("expert", s) for s in range(3)]
    phases = Counter()
    while not game.over:
        view = game.view(game.turn)
        for tuning in (EXPERT, EV):
            told, silent = advise(view, tuning), advise(view, tuning, explain=False)
            assert silent.options == told.options and silent.reason == "" and told.reason
        phases["final" if view.final_turn else view.phase.name] += 1
        game.apply(next_action(game, players))
    assert phases["DRAW"] and phases["DISCARD"] and phases["final"]


def test_a_final_draw_valued_without_bonuses_counts_plain_scores_only() -> None:
    # quiet went out as one word; with the r, c,a,t,e,r lays down two words and
    # wins the most-words bonus.  The bonus-aware draw counts it; the plain one
    # (the rollouts' cheaper policy) values the same hand by its score alone,
    # and its lay-down still aims at the bonus.
    went_out = (_word("quiet", 4),)
    view = position_view(cards("c,a,t,e"), discard_top=Card("r"), went_out=went_out)
    assert view.final_turn
    plain = dataclasses.replace(EXPERT, final_draw_bonuses=False)
    take = {t.final_draw_bonuses: next(o for o in advise(view, t).options if o.action == "take-discard")
            for t in (EXPERT, plain)}  # fmt: skip
    score = solve(cards("c,a,t,e,r"), discard=True).best.score
    assert take[False].value == score
    with_bonus = solve(cards("c,a,t,e,r"), discard=True, beat_longest=5, beat_words=1, bonus=10).best.score
    assert take[True].value == with_bonus > score
    after = position_view(cards("c,a,t,e,r"), went_out=went_out)
    best = advise(after, plain).recommended
    assert best.words is not None and len(best.words) == 2


def test_vocabularies_are_common_words_of_the_game_list() -> None:
    easy, medium = vocabulary(4.0), vocabulary(3.0)
    assert easy < medium and {"cat", "dog", "the", "at"} <= easy and "qi" not in medium
    words = vocabulary_wordlist("easy", default_wordlist())
    assert 5_000 < len(words) < 8_000 and all(w in default_wordlist() for w in list(words)[:500])
    assert vocabulary_wordlist(None, default_wordlist()) is default_wordlist()
    with pytest.raises(ValueError, match="unknown vocabulary"):
        vocabulary_wordlist("genius", default_wordlist())


def test_easy_and_medium_play_only_their_vocabulary() -> None:
    game = play_game([make_player("easy", 1), make_player("medium", 2)], seed=8)
    easy, medium = vocabulary(4.0), vocabulary(3.0)
    for result in game.history:
        for seat, words in ((0, easy), (1, medium)):
            assert all(w.text in words for w in result.scores[seat].words)


def test_the_computer_players_are_registered_by_name() -> None:
    assert {"ev", "expert", "hard", "medium", "easy", "greedy"} <= set(player_names())
    hard = make_player("hard", 1)
    assert isinstance(hard, AIPlayer) and hard.tuning == EXPERT and hard.name == "hard"


def test_an_expert_game_completes() -> None:
    game = play_game([make_player("expert", 1), make_player("greedy", 2), make_player("easy", 3)], seed=5)
    assert game.over and len(game.history) == 8
    assert all(r.went_out is not None for r in game.history)


def test_computer_players_act_legally_in_every_phase() -> None:
    game = Game(2, seed=17)
    players = [make_player("expert", 1), make_player("medium", 2)]
    kinds = set()
    while not game.over:
        action = next_action(game, players)
        assert game.is_legal(action)
        kinds.add(type(action))
        game.apply(action)
    assert {Draw, GoOut, LayDown} <= kinds and game.phase is Phase.GAME_OVER


# -- the expert with three and four players: the terms that only matter then -------------------------


def _option(advice, action: str, card: str):  # type: ignore[no-untyped-def]
    return next(o for o in advice.options if o.action == action and o.card == Card(card))


@pytest.mark.parametrize(("opponents", "deny"), [(1, 1.0), (2, 1 / 2), (3, 1 / 3)])
def test_tying_to_cancel_a_bonus_is_weighted_by_the_rivals_it_is_shared_with(opponents: int, deny: float) -> None:
    """A final turn: one player went out with cat (3 letters, 1 word); dog ties
    both, which takes both bonuses from that player.  With two players that
    is worth the whole bonus to you; with more, the goer is one of several
    rivals, so the bonus they lose counts 1/(players - 1)."""
    went_out = (Word("cat", parse_hand("c,a,t")),)
    view = position_view(parse_hand("d,o,g,z"), opponents=opponents, went_out=went_out)
    advice = hint(view)
    best = advice.recommended
    assert [w.text for w in best.words or ()] in (["dog"], ["god"]) and best.card == Card("z")
    card_score = sum(Card(f).points for f in "dog")
    assert best.value == pytest.approx(card_score + deny * 10 + deny * 10)
    assert ("weighted" in advice.reason) == (opponents > 1)


@pytest.mark.parametrize("opponents", [2, 3])
def test_the_gift_penalty_counts_what_the_next_player_holds_not_the_others(opponents: int) -> None:
    """The player after you takes your discard; what another opponent is known
    to hold does not matter.  The next player took an e face up: discarding
    b hands them be (b 8 + e 2 = 10 points, from -2 for the lone e), a gift of
    (10 - (-2) + 8) / 2 = 10, charged at the expert's weight 0.5."""
    base = position_view(parse_hand("a,b,r,s,t,x"), opponents=opponents)

    def values(holder: int) -> dict[tuple[str, str], float]:
        view = dataclasses.replace(base, log=(PublicEvent(Draw(holder, "discard"), taken=Card("e")),))
        return {(o.action, str(o.card)): o.value for o in advise(view, EXPERT).options}

    nxt, later = values(1), values(opponents)  # seat 1 plays after you; the last seat plays before you
    hand_made = {"b": (10 + 2 + 8) / 2, "x": (14 + 2 + 12) / 2, "a": (4 + 2 + 2) / 2}  # be, ex, ae
    for face, gift in hand_made.items():
        assert nxt[("discard", face)] - later[("discard", face)] == pytest.approx(-EXPERT.gift_weight * gift)
    assert nxt[("go-out", "x")] - later[("go-out", "x")] == pytest.approx(-EXPERT.gift_weight * hand_made["x"])


def test_the_chance_of_keeping_a_bonus_falls_with_each_opponent() -> None:
    """Going out keeps a bonus only if every other player ends below it: the
    chance one does (the share of sampled best plays below the play) is
    raised to the number of opponents."""
    from quiddler.game.ai import _bonus_parts, _Position, _share_below, _table
    from quiddler.solver.types import Play

    hand = parse_hand("a,b,r,s,t,x")
    last = Rules(round_sizes=(5,))  # the last round with level totals: going out at once (so the hint explains it)
    kept: dict[int, tuple[float, float]] = {}
    for opponents in (1, 2, 3):
        view = position_view(hand, opponents=opponents, rules=last)
        out = _option(advise(view, EXPERT), "go-out", "x")
        words = tuple(out.words or ())
        pos = _Position(view, EXPERT)
        kept[opponents] = _bonus_parts(pos, Play(words, (), None))
        _, longest, counts = _table(pos.words, pos.n)
        below_long = _share_below(longest, max(w.letters for w in words))
        below_count = _share_below(counts, len(words))
        assert kept[opponents] == pytest.approx((10 * below_long**opponents, 10 * below_count**opponents))
        assert 0 < below_long < 1  # the position is one where the number of opponents matters
        against = "" if opponents == 1 else f" against {opponents} others"
        assert f"longest-word bonus it should keep{against}" in advise(view, EXPERT).reason
    assert kept[1][0] > kept[2][0] > kept[3][0]
    # The going-out values differ by exactly the bonus terms (the rest does not depend on the opponents).
    values = {k: _option(advise(position_view(hand, opponents=k, rules=last), EXPERT), "go-out", "x").value
              for k in (1, 2, 3)}  # fmt: skip
    assert values[1] - values[3] == pytest.approx(sum(kept[1]) - sum(kept[3]))


@pytest.mark.parametrize(("others", "waits", "cost"), [
    ((40, 0, 0), True, EXPERT.wait_cost),  # one rival ahead, the others far behind: not leading
    ((20, 25, 29), False, None),  # ahead of every rival: go out at once
    ((70, 0, 0), True, 0.0),  # 40 behind the leader: waiting is free, only a bigger hand can win
])  # fmt: skip
def test_the_standings_in_the_last_round_count_the_best_rival(others: tuple[int, ...], waits: bool,
                                                             cost: float | None) -> None:  # fmt: skip
    """With four players the lead is measured against the best of the three others."""
    rules = Rules(round_sizes=(5,))
    view = dataclasses.replace(position_view(parse_hand("a,b,r,s,t,x"), opponents=3, rules=rules),
                               totals=(30, *others))  # fmt: skip
    options = advise(view, EXPERT).options
    assert any(o.action == "discard" for o in options) == waits
    if waits:
        level = dataclasses.replace(view, totals=(30, 31, 0, 0))  # 1 behind: the ordinary waiting cost
        base = {str(o.card): o.value for o in advise(level, EXPERT).options if o.action == "discard"}
        for o in options:
            if o.action == "discard":
                assert o.value == pytest.approx(base[str(o.card)] + EXPERT.wait_cost - cost)  # type: ignore[operator]
