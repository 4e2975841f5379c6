"""The engine on fixed seeds: dealing, turn order, every kind of illegal
action (raised, and nothing changed), final turns, reshuffling, variants
and what a player's view may show."""

from __future__ import annotations

import dataclasses

import pytest

from quiddler import Card, IllegalActionError, InvalidWordError, QuiddlerError, WordList, parse_hand, solve
from quiddler.game import (
    CardNotInHandError,
    Discard,
    Draw,
    Game,
    GoingOutError,
    GoOut,
    LayDown,
    Phase,
    Rules,
    WrongPhaseError,
    WrongPlayerError,
    word_of,
)


def rig(game: Game, seat: int, hand: str, top: str | None = None) -> None:
    """Swap cards so ``seat`` holds ``hand`` (and the discard top is ``top``),
    taking them from the draw pile: the 118 cards stay accounted for."""
    wanted = list(parse_hand(hand)) + ([Card(top)] if top else [])
    pool = game._draw + game._hands[seat] + game._discard
    for card in wanted:
        pool.remove(card)
    game._hands[seat] = wanted[: len(parse_hand(hand))]
    game._discard = [Card(top)] if top else pool[-1:]
    if not top:
        pool.pop()
    game._draw = pool
    assert game.card_count() == 118


def test_deal_turn_order_and_dealer_rotation() -> None:
    game = Game(3, seed=5)
    assert (game.round, game.round_size, game.dealer, game.turn) == (0, 3, 0, 1)
    assert [len(game.hand(s)) for s in range(3)] == [3, 3, 3]
    assert len(game.discard_pile) == 1 and len(game.draw_pile) == 118 - 9 - 1
    assert game.card_count() == 118
    assert Game(3, seed=5).draw_pile == game.draw_pile  # seeded
    assert Game(3, seed=6).draw_pile != game.draw_pile


def test_each_illegal_action_raises_and_changes_nothing() -> None:
    game = Game(2, seed=11)
    rig(game, 1, "c,a,t", top="s")
    before = game._snapshot()
    cases = [
        (Draw(0), WrongPlayerError),
        (Discard(1, Card("c")), WrongPhaseError),
        (GoOut(1, (word_of(["c", "a", "t"]),), Card("s")), WrongPhaseError),
        (LayDown(1, (), Card("c")), WrongPhaseError),
    ]
    for action, error in cases:
        with pytest.raises(error):
            game.apply(action)
        assert game._snapshot() == before and not game.is_legal(action)
    game.apply(Draw(1, "discard"))  # hand c,a,t,s
    before = game._snapshot()
    cases = [
        (Draw(1), WrongPhaseError),
        (Discard(0, Card("c")), WrongPlayerError),
        (Discard(1, Card("z")), CardNotInHandError),
        (GoOut(1, (word_of(["c", "a", "t"]),), Card("c")), CardNotInHandError),  # c used twice
        (GoOut(1, (word_of(["a", "t"]),), Card("s")), GoingOutError),  # c left over
        (GoOut(1, (word_of(["t", "a", "c"]),), Card("s")), InvalidWordError),  # not a word
        (GoOut(1, (word_of(["c", "a", "t", "s"]),), Card("s")), CardNotInHandError),
        (LayDown(1, (), Card("s")), WrongPhaseError),  # nobody went out
    ]
    for action, error in cases:
        with pytest.raises(error) as info:
            game.apply(action)
        assert isinstance(info.value, (IllegalActionError, QuiddlerError, ValueError))
        assert game._snapshot() == before
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    assert game.went_out == 1 and game.turn == 0 and game.final_turn
    assert game.laid_down(1)[0].text == "cat" and game.discard_top == Card("s")


def test_word_checks() -> None:
    game = Game(2, seed=3, rules=Rules(wordlist=WordList(["in", "thin", "cat"], name="tiny")))
    rig(game, 1, "i,n,th", top="in")
    game.apply(Draw(1, "discard"))
    with pytest.raises(InvalidWordError, match="two cards"):
        game.legal(GoOut(1, (word_of(["in"]),), Card("th")))
    forged = dataclasses.replace(word_of(["i", "n"]), text="at")
    with pytest.raises(InvalidWordError, match="do not spell"):
        game.legal(GoOut(1, (forged,), Card("th")))
    with pytest.raises(InvalidWordError, match="not in the word list"):
        game.legal(GoOut(1, (word_of(["n", "i"]), word_of(["th", "in"])), Card("in")))
    game.legal(GoOut(1, (word_of(["th", "i", "n"]),), Card("in")))  # "thin", spelled th+i+n
    with pytest.raises(GoingOutError, match="1 left over"):
        game.legal(GoOut(1, (word_of(["th", "in"]),), Card("i")))


def test_final_turns_each_other_player_once_then_scoring() -> None:
    game = Game(3, seed=2)
    rig(game, 1, "c,a,t", top="s")
    game.apply(Draw(1, "discard"))
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    totals = game.totals
    for seat in (2, 0):
        assert game.turn == seat and game.phase is Phase.DRAW
        with pytest.raises(WrongPhaseError):
            game.legal(Discard(seat, game.hand(seat)[0]))
        game.apply(Draw(seat))
        with pytest.raises(WrongPhaseError):
            game.legal(Discard(seat, game.hand(seat)[0]))
        with pytest.raises(WrongPhaseError):
            game.legal(GoOut(seat, (), game.hand(seat)[0]))
        assert game.totals == totals
        out = game.apply(LayDown(seat, (), game.hand(seat)[0]))
    assert out.round_result is not None and out.round_result.went_out == 1
    assert out.round_result.scores[1].score == 13 + 20  # cat plus both bonuses
    assert game.round == 1 and game.round_size == 4 and game.dealer == 1 and game.turn == 2
    assert game.totals == out.round_result.totals and game.totals[1] == 33


def test_no_going_out_on_first_turn_variant() -> None:
    for rules, forbidden in ((Rules(no_going_out_first_turn=True), True), (Rules(), False),
                             (Rules(no_going_out_first_turn=True, first_turn_rule_rounds=0), False)):  # fmt: skip
        game = Game(2, seed=4, rules=rules)
        rig(game, 1, "c,a,t", top="s")
        game.apply(Draw(1, "discard"))
        assert game.view(1).may_go_out is not forbidden
        go = GoOut(1, (word_of(["c", "a", "t"]),), Card("s"))
        assert game.is_legal(go) is not forbidden
        if forbidden:
            with pytest.raises(GoingOutError, match="first turn"):
                game.apply(go)


def test_empty_draw_pile_is_reshuffled_keeping_the_top() -> None:
    game = Game(2, seed=9)
    top = game.discard_top
    game._discard = game._draw + game._discard  # everything face up, top unchanged
    game._draw = []
    out = game.apply(Draw(1))
    assert out.reshuffled and game.discard_pile == (top,)
    assert len(game.draw_pile) == 118 - 6 - 1 - 1 and game.card_count() == 118


def test_nothing_to_draw_means_taking_the_discard() -> None:
    for rules in (Rules(), Rules(reshuffle_discards=False)):
        game = Game(2, seed=9, rules=rules)
        game._discard = game._draw[:5] + game._discard if rules.reshuffle_discards is False else game._discard
        game._draw = []
        assert not game.view(1).may_draw_from_pile
        with pytest.raises(WrongPhaseError, match="draw pile is empty"):
            game.apply(Draw(1))
        game.apply(Draw(1, "discard"))


def test_view_shows_only_what_the_player_may_see() -> None:
    game = Game(4, seed=1)
    view = game.view(2)
    assert view.hand == game.hand(2) and view.discard_top == game.discard_top
    assert view.draw_pile_size == len(game.draw_pile)
    names = {f.name for f in dataclasses.fields(view)}
    assert names == {"seat", "players", "rules", "round", "round_size", "dealer", "turn", "phase", "hand", "hand_sizes",
                     "discard_top", "draw_pile_size", "discard_pile_size", "seen", "laid_down", "totals",
                     "went_out", "turns_taken", "history", "log"}  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    assert not view.my_turn and game.view(1).my_turn


def test_custom_round_sizes() -> None:
    game = Game(2, seed=1, rules=Rules(round_sizes=(2, 5)))
    assert game.round_size == 2 and len(game.hand(0)) == 2
    while not game.over:
        seat = game.turn
        if game.phase is Phase.DRAW:
            game.apply(Draw(seat))
        elif game.final_turn:
            game.apply(LayDown(seat, (), game.hand(seat)[0]))
        else:
            best = solve(game.hand(seat), discard=True).best_go_out
            if best is not None:
                game.apply(GoOut(seat, best.words, best.discard))
            else:
                game.apply(Discard(seat, game.hand(seat)[0]))
    assert len(game.history) == 2 and game.history[1].cards == 5
    with pytest.raises(WrongPhaseError, match="over"):
        game.apply(Draw(game.turn))


def test_greedy_takes_the_discard_to_go_out_and_discards_the_least_useful_card() -> None:
    from quiddler.game import GreedyPlayer
    from quiddler.game.players import _final_value, best_final_play

    game = Game(2, seed=21)
    rig(game, 1, "c,a,z", top="t")
    greedy = GreedyPlayer()
    assert greedy.choose_draw(game.view(1)) == Draw(1, "discard")
    game.apply(Draw(1, "discard"))
    end = greedy.choose_end(game.view(1))
    assert (
        isinstance(end, GoOut) and end.discard == Card("z") and [w.text for w in end.words] == ["act"]
    )  # first spelling of the multiset
    game.apply(end)
    # the final turn: greedy's lay-down is legal and worth at least the plain best play
    view = game.view(0)
    game.apply(greedy.choose_draw(view))
    view = game.view(0)
    plain = solve(view.hand, discard=True).best
    chosen = best_final_play(view.hand, view)
    assert _final_value(chosen, view) >= _final_value(plain, view)
    assert game.is_legal(greedy.choose_lay_down(view))
    assert view.laid_down[1][0].text == "act" and view.others_best() == (3, 1)
    assert view.seen[-1] == Card("z") and view.final_turn and not view.may_go_out


def test_greedy_with_the_first_turn_rule_does_not_go_out() -> None:
    from quiddler.game import GreedyPlayer

    game = Game(2, seed=21, rules=Rules(no_going_out_first_turn=True))
    rig(game, 1, "c,a,t", top="z")
    game.apply(Draw(1))
    assert isinstance(GreedyPlayer().choose_end(game.view(1)), Discard)
