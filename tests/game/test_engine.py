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
    MalformedActionError,
    Phase,
    Rules,
    WrongPhaseError,
    WrongPlayerError,
    word_of,
)
from quiddler.solver import Word


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


def test_taking_the_discard_counts_as_a_turn_like_a_pile_draw() -> None:
    game = Game(2, seed=6)
    assert game.turns_taken(1) == 0
    game.apply(Draw(1, "discard"))
    assert game.turns_taken(1) == 1 and game.view(1).turns_taken == 1
    game.apply(Discard(1, game.hand(1)[0]))
    game.apply(Draw(0))
    assert game.turns_taken(0) == 1 and game.turns_taken(1) == 1


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


def test_a_view_is_the_value_its_constructor_makes() -> None:
    """Game.view builds its views without the dataclass constructor: each
    must still be that very value, for equality, hashing, pickling and
    immutability, at every point of a game."""
    import pickle

    from quiddler.game import PlayerView, make_player
    from quiddler.game.runner import next_action

    game = Game(3, seed=8)
    players = [make_player("greedy", seat) for seat in range(3)]
    for _ in range(40):
        for seat in range(3):
            view = game.view(seat)
            built = PlayerView(**{f.name: getattr(view, f.name) for f in dataclasses.fields(PlayerView)})
            assert type(view) is PlayerView and view == built and hash(view) == hash(built)
            assert repr(view) == repr(built) and pickle.loads(pickle.dumps(view)) == built
            assert dataclasses.astuple(view) == dataclasses.astuple(built)
        game.apply(next_action(game, players))
    with pytest.raises(dataclasses.FrozenInstanceError):
        del view.hand
    assert not hasattr(view, "__dict__")


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
    from quiddler.game.players import _final_valuer, best_final_play

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
    assert _final_valuer(view)(chosen) >= _final_valuer(view)(plain)
    assert game.is_legal(greedy.choose_lay_down(view))
    assert view.laid_down[1][0].text == "act" and view.others_best() == (3, 1)
    assert view.seen[-1] == Card("z") and view.final_turn and not view.may_go_out


def test_greedy_with_the_first_turn_rule_does_not_go_out() -> None:
    from quiddler.game import GreedyPlayer

    game = Game(2, seed=21, rules=Rules(no_going_out_first_turn=True))
    rig(game, 1, "c,a,t", top="z")
    game.apply(Draw(1))
    assert isinstance(GreedyPlayer().choose_end(game.view(1)), Discard)


# -- the turn limit (RULES.md: a round must end) ------------------------------


def discard_only(game: Game, turns: int) -> None:
    """Every player draws from the pile and discards the card drawn, ``turns`` times each."""
    for _ in range(turns * game.players):
        seat = game.turn
        card = game.apply(Draw(seat)).drawn
        assert card is not None
        game.apply(Discard(seat, card))


def test_a_round_nobody_goes_out_of_ends_at_the_turn_limit_with_the_best_words() -> None:
    rules = Rules(round_sizes=(4, 5), turn_limit=3)
    game = Game(3, seed=12, rules=rules)
    discard_only(game, 2)
    for _ in range(2):  # the first two players take their third turn: not yet the end
        game.apply(Draw(game.turn))
        assert game.apply(Discard(game.turn, game.hand(game.turn)[-1])).round_result is None
    assert game.round == 0 and game.turn == game.dealer
    # the dealer's third turn completes everyone's third: the round ends there
    game.apply(Draw(game.turn))
    last = game.turn
    held = [list(game.hand(s)) for s in range(3)]
    card = game.hand(last)[0]
    held[last].remove(card)
    result = game.apply(Discard(last, card)).round_result
    assert result is not None and result.turn_limit and result.went_out is None
    assert game.round == 1 and game.turn == (game.dealer + 1) % 3 and len(game.hand(0)) == 5
    for seat, score in enumerate(result.scores):
        best = solve(held[seat]).best
        assert score.words == best.words and sorted(score.unused) == sorted(best.unused)
        assert sorted([c for w in score.words for c in w.cards] + list(score.unused)) == sorted(held[seat])
    assert any(score.words for score in result.scores)
    # scored as usual, bonuses included
    from quiddler.game import score_round

    assert result.scores == score_round([s.words for s in result.scores], [s.unused for s in result.scores],
                                        None, rules)  # fmt: skip
    assert result.to_dict()["turn_limit"] is True


def test_the_turn_limit_counts_every_players_turns_and_going_out_before_it_ends_the_round_normally() -> None:
    game = Game(2, seed=4, rules=Rules(round_sizes=(3, 3), turn_limit=2))
    discard_only(game, 1)
    rig(game, 1, "c,a,t", top="s")
    game.apply(Draw(1, "discard"))
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    game.apply(Draw(0))
    out = game.apply(LayDown(0, (), game.hand(0)[0]))
    assert out.round_result is not None and not out.round_result.turn_limit
    assert out.round_result.went_out == 1


def test_a_word_list_nobody_can_go_out_with_still_ends_the_game() -> None:
    from quiddler.game import make_player, play_game

    words = WordList(["quit", "queen"], name="quit-queen")
    players = [make_player("greedy", 1), make_player("random", 2)]
    game = play_game(players, seed=1, rules=Rules(wordlist=words, turn_limit=4))
    assert game.over and len(game.history) == 8
    assert all(r.turn_limit and r.went_out is None for r in game.history)
    assert game.finished == frozenset({0, 1})  # every seat is done with the last round, as after going out


# -- seeds and shuffles -------------------------------------------------------


@pytest.mark.parametrize("seed", ["abc", 1.5, True, None.__class__, [1]])
def test_seeds_must_be_integers(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an integer"):
        Game(2, seed=seed)  # type: ignore[arg-type]


def test_the_deal_follows_the_documented_per_round_seed_and_starts_left_of_the_dealer() -> None:
    import random

    from quiddler import full_deck
    from quiddler.game.shuffle import stream_seed

    for players, seed in ((2, 3), (3, 77), (5, -4)):
        game = Game(players, seed=seed, rules=Rules(round_sizes=(3, 4, 5)))
        for round_index in range(3):
            deck = list(full_deck())
            random.Random(stream_seed(seed, round_index + 1)).shuffle(deck)  # top card = last
            n, dealer = game.round_size, game.dealer
            assert dealer == round_index % players
            first = (dealer + 1) % players
            for i in range(n * players):  # one card at a time, from the player left of the dealer
                seat = (first + i) % players
                assert game.hand(seat)[i // players] == deck[-1 - i]
            assert game.discard_top == deck[-1 - n * players]
            assert game.draw_pile == tuple(reversed(deck[: -1 - n * players]))
            assert game.turn == first
            game._end_round()


def test_per_round_shuffles_keep_later_deals_whatever_happened_before() -> None:
    """A reshuffle in round 1 must not shift the deal of round 2 (paired
    deals); under the old single stream it did."""

    def round_two_deal(shuffle: str, reshuffle: bool) -> object:
        game = Game(2, seed=31, rules=Rules(round_sizes=(3, 3), turn_limit=60 if reshuffle else 1),
                    shuffle=shuffle)  # type: ignore[arg-type]  # fmt: skip
        reshuffled = False
        while game.round == 0:
            seat = game.turn
            out = game.apply(Draw(seat))
            reshuffled |= out.reshuffled
            game.apply(Discard(seat, game.hand(seat)[-1]))
        assert reshuffled == reshuffle
        return game.log[1]["hands"], game.log[1]["draw_pile"]

    assert round_two_deal("per-round", True) == round_two_deal("per-round", False)
    assert round_two_deal("single-stream", True) != round_two_deal("single-stream", False)
    with pytest.raises(ValueError, match="unknown shuffle scheme"):
        Game(2, seed=1, shuffle="fresh")  # type: ignore[arg-type]


def test_each_reshuffle_is_seeded_on_its_own_and_logged_with_its_new_pile() -> None:
    import random

    from quiddler.game.shuffle import stream_seed

    game = Game(2, seed=9, rules=Rules(round_sizes=(3,), turn_limit=200))
    reshuffles = 0
    while reshuffles < 2:
        seat = game.turn
        before = list(game._discard)
        out = game.apply(Draw(seat))
        if out.reshuffled:
            reshuffles += 1
            pile = before[:-1]
            random.Random(stream_seed(9, 1, reshuffles)).shuffle(pile)
            entry = game.log[0]["reshuffles"][-1]
            assert entry == {"action": len(game.log[0]["actions"]) - 1,
                             "draw_pile": [c.face for c in reversed(pile)]}  # fmt: skip
            assert out.drawn == pile[-1] and game.draw_pile == tuple(reversed(pile[:-1]))
            assert game.discard_pile == (before[-1],)
        game.apply(Discard(seat, game.hand(seat)[-1]))
    assert len(game.log[0]["reshuffles"]) == 2


# -- final turns: a tie for a bonus wins nothing --------------------------------


def test_a_final_turn_that_ties_the_longest_word_takes_the_bonus_from_nobody() -> None:
    game = Game(2, seed=2)
    rig(game, 1, "c,a,t", top="s")
    rig(game, 0, "d,o,g")
    game.apply(Draw(1, "discard"))
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    game.apply(Draw(0))
    drawn = game.hand(0)[-1]
    out = game.apply(LayDown(0, (word_of(["d", "o", "g"]),), drawn))
    result = out.round_result
    assert result is not None
    # cat (13) and dog (12): three letters and one word each, both bonuses tied
    assert [s.bonus for s in result.scores] == [0, 0]
    assert [s.score for s in result.scores] == [13, 13]  # d5 o2 g6, c8 a2 t3


def test_a_view_is_only_for_a_seat_at_the_table_and_a_random_seed_is_kept() -> None:
    game = Game(3)
    assert isinstance(game.seed, int) and 0 <= game.seed < 2**63
    for seat in (-1, 3):
        with pytest.raises(ValueError, match=f"no seat {seat} in a game of 3"):
            game.view(seat)
    assert game.view(0).seat == 0 and game.view(2).seat == 2
    with pytest.raises(TypeError, match="rules must be a Rules"):
        Game(2, rules={"turn_limit": 3})  # type: ignore[arg-type]


def test_a_discard_pile_of_two_cards_refills_an_empty_draw_pile_with_one() -> None:
    game = Game(2, seed=9)
    game._discard = [game._draw.pop(), game._draw.pop()]
    kept, under = game._discard[1], game._discard[0]
    game._draw, spare = [], list(game._draw)
    assert game.view(1).may_draw_from_pile and game.is_legal(Draw(1))
    out = game.apply(Draw(1))
    assert out.reshuffled and out.drawn == under and game.discard_pile == (kept,) and game.draw_pile == ()
    assert spare  # the rest of the deck was set aside for this test


def test_the_first_turn_rule_allows_going_out_on_the_second_turn() -> None:
    game = Game(2, seed=4, rules=Rules(no_going_out_first_turn=True))
    discard_only(game, 1)
    rig(game, 1, "c,a,t", top="s")
    game.apply(Draw(1, "discard"))
    assert game.turns_taken(1) == 2 and game.view(1).may_go_out
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    assert game.went_out == 1


def test_every_card_stays_on_the_table_through_a_whole_game() -> None:
    from quiddler.game import make_player
    from quiddler.game.runner import next_action

    game = Game(3, seed=17, rules=Rules(round_sizes=(3, 5, 7)))
    players = [make_player("greedy"), make_player("random", 1), make_player("random-eager", 2)]
    laid_words = 0
    while not game.over:
        game.apply(next_action(game, players))
        assert game.card_count() == 118
        laid_words = max(laid_words, sum(len(game.laid_down(s)) for s in range(3)))
    assert laid_words > 0  # the count included cards in laid-down words


def test_a_final_turn_must_draw_first_and_lay_down_real_words() -> None:
    game = Game(2, seed=2)
    rig(game, 1, "c,a,t", top="s")
    game.apply(Draw(1, "discard"))
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    with pytest.raises(WrongPhaseError, match="draw a card first"):
        game.legal(LayDown(0, (), game.hand(0)[0]))
    game.apply(Draw(0))
    card = game.hand(0)[0]
    with pytest.raises(MalformedActionError, match=r"words\[0\] must be a Word .*not 'cat'"):
        game.legal(LayDown(0, ("cat",), card))  # type: ignore[arg-type]
    with pytest.raises(InvalidWordError, match="not a word"):
        game.legal(LayDown(0, (Word("at", (Card("a"), "t")),), card))  # type: ignore[arg-type]


def test_each_refusal_names_its_rule_and_the_values_its_message_names() -> None:
    """A page in another language says why from ``reason`` and ``params`` alone."""
    game = Game(2, seed=11, rules=Rules(wordlist=WordList(["cat", "at", "in", "thin"], name="tiny"),
                                        round_sizes=(3,), no_going_out_first_turn=True))  # fmt: skip
    rig(game, 1, "c,a,t", top="s")

    def refused(action: object) -> tuple[str, dict[str, object]]:
        with pytest.raises(IllegalActionError) as info:
            game.legal(action)  # type: ignore[arg-type]
        return info.value.reason, info.value.params

    assert refused(Draw(0)) == ("wrong_player", {"turn": 1, "player": 0})
    assert refused(Discard(1, Card("c"))) == ("draw_first", {})
    assert refused(LayDown(1, (), Card("c"))) == ("draw_first", {})
    assert refused("draw") == ("malformed", {})
    game.apply(Draw(1, "discard"))  # hand c,a,t,s
    assert refused(Draw(1)) == ("already_drew", {})
    assert refused(Discard(1, Card("z"))) == ("not_in_hand", {"card": "z"})
    assert refused(GoOut(1, (word_of(["c", "a", "t"]),), Card("s"))) == ("first_turn_no_go_out", {})
    assert refused(LayDown(1, (), Card("s"))) == ("nobody_went_out", {})
    game._turns[1] = 2  # a later turn: going out is allowed by the first-turn rule
    assert refused(GoOut(1, (word_of(["a", "t"]),), Card("s"))) == ("cards_left", {"count": 1})
    assert refused(GoOut(1, (word_of(["t", "a", "c"]),), Card("s"))) == ("not_a_word", {"word": "tac"})
    assert refused(GoOut(1, (word_of(["c"]),), Card("s"))) == ("too_short", {"word": "c"})
    forged = dataclasses.replace(word_of(["a", "t"]), text="cat")
    assert refused(GoOut(1, (forged,), Card("s"))) == ("misspelled", {"cards": "at", "word": "cat"})
    assert refused(GoOut(1, (word_of(["c", "a", "t"]),), Card("c"))) == (
        "used_too_often", {"card": "c", "used": 2, "held": 1})  # fmt: skip
    game.apply(GoOut(1, (word_of(["c", "a", "t"]),), Card("s")))
    game.apply(Draw(0))
    assert refused(Discard(0, game.view(0).hand[0])) == ("final_turn", {})
    assert refused(GoOut(0, (), game.view(0).hand[0])) == ("already_went_out", {"player": 1})
    game.apply(LayDown(0, (), game.view(0).hand[0]))
    assert refused(Draw(1)) == ("game_over", {})


def test_the_discard_pile_and_the_draw_pile_refusals_name_their_pile() -> None:
    game = Game(2, seed=9, rules=Rules(reshuffle_discards=False))
    game._discard, game._draw = [], []
    with pytest.raises(WrongPhaseError) as info:
        game.legal(Draw(1, "discard"))
    assert info.value.reason == "discard_pile_empty"
    with pytest.raises(WrongPhaseError) as info:
        game.legal(Draw(1))
    assert info.value.reason == "draw_pile_empty"


def test_cards_leave_a_hand_as_list_remove_takes_them() -> None:
    """The engine takes a played action's cards out of the hand by counting
    them (cards are equal only to themselves): the first copies go and the
    rest keep their order, exactly as one ``list.remove`` per card would, and
    a card not there to take (or one copy too many) is refused."""
    import random

    from quiddler import full_deck
    from quiddler.game.engine import _without

    def one_by_one(hand: list[Card], cards: list[Card]) -> list[Card] | None:
        left = list(hand)
        for card in cards:
            if card not in left:
                return None
            left.remove(card)
        return left

    rng = random.Random(5)
    deck = list(full_deck())
    for _ in range(500):
        hand = rng.sample(deck, rng.randint(0, 12))  # copies of a face are the same card
        cards = rng.sample(hand, rng.randint(0, len(hand)))
        if rng.random() < 0.3:
            cards.append(rng.choice(deck))  # maybe held, maybe not, maybe one copy too many
        assert _without(hand, cards) == one_by_one(hand, cards)


def test_the_engines_shuffle_is_the_librarys() -> None:
    """The deals and reshuffles use :func:`shuffle_cards`, the library's
    ``random.Random.shuffle`` written out: for any seed and length (a whole
    deck, a round's leftovers, a small discard pile, lengths past its
    table of bit counts) it gives the same permutation and leaves the source in the
    same state, so every record dealt by the library's shuffle replays."""
    import random

    from quiddler.game.shuffle import shuffle_cards

    for seed in range(400):
        for length in (0, 1, 2, 3, 7, 16, 17, 64, 100, 118, 255, 256, 257, 300 + seed % 7):
            ours, theirs = random.Random(seed * 7919 + length), random.Random(seed * 7919 + length)
            dealt, expected = list(range(length)), list(range(length))
            shuffle_cards(ours, dealt)
            theirs.shuffle(expected)
            assert dealt == expected
            assert ours.getstate() == theirs.getstate()
