"""Card counting: what a player's view says is unseen and known to be held
matches the true table at every step, and the log shows the taken card
and resets each round."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from quiddler.cards import Card
from quiddler.game import (
    Discard,
    Draw,
    Game,
    LayDown,
    PlayerView,
    Rules,
    make_player,
)
from quiddler.game.counting import discard_pile, holdings, known_holdings, unseen, unseen_counts
from quiddler.game.runner import next_action


class _Staller:
    """Never goes out (so the draw pile runs out and is reshuffled); takes
    the discard top every third draw, discards a random card."""

    name = "staller"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.draws = 0

    def choose_draw(self, view: PlayerView) -> Draw:
        self.draws += 1
        take = self.draws % 3 == 0 or not view.may_draw_from_pile
        return Draw(view.seat, "discard" if take else "pile")

    def choose_end(self, view: PlayerView) -> Discard:
        return Discard(view.seat, self.rng.choice(view.hand))

    def choose_lay_down(self, view: PlayerView) -> LayDown:
        return LayDown(view.seat, (), view.hand[0])


def _check_counting(game: Game) -> None:
    view = game.view(game.turn)
    assert discard_pile(view) == list(reversed(game.discard_pile))
    held = known_holdings(view)
    rest = Counter(game.draw_pile)
    for seat in range(game.players):
        if seat != view.seat:
            assert not held[seat] - Counter(game.hand(seat))
            rest += Counter(game.hand(seat)) - held[seat]
    assert unseen(view) == rest
    _check_plain_counting(view)
    for event in view.log:
        if isinstance(event.action, Draw) and event.action.source == "pile":
            assert event.taken is None


def _check_plain_counting(view: PlayerView) -> None:
    """The computer players' counting (plain dicts, the unseen cards as
    faces in order and counts) says what the Counters say, in their order."""
    held, plain = known_holdings(view), holdings(view)
    for seat in range(view.players):
        assert list(plain[seat].items()) == ([] if seat == view.seat else list(held[seat].items()))
    pool = unseen(view)
    faces = sorted(pool)
    assert unseen_counts(view, plain) == (faces, bytes(pool[f] for f in faces))


def test_counting_matches_the_table() -> None:
    """At every move (reshuffles and whole games included): the discard pile
    the log implies is the real one, the known holdings are in the real
    hands, and the unseen cards are exactly the draw pile plus the unknown
    part of the other hands."""
    stall = Game(3, seed=2, rules=Rules(turn_limit=1000))  # stallers never go out: no round-ending limit here
    stallers = [_Staller(s) for s in range(3)]
    for _ in range(400):
        _check_counting(stall)
        stall.apply(next_action(stall, stallers))
    assert any(e.reshuffled for e in stall.view(0).log)
    game = Game(3, seed=5)
    players = [make_player(name, s) for s, name in enumerate(("random", "greedy", "expert"))]
    while not game.over:
        _check_counting(game)
        game.apply(next_action(game, players))


def test_log_shows_the_taken_card_and_resets_each_round() -> None:
    game = Game(2, seed=4)
    top = game.discard_top
    seat = game.turn
    game.apply(Draw(seat, "discard"))
    event = game.view(1 - seat).log[-1]
    assert event.action == Draw(seat, "discard") and event.taken == top and event.player == seat
    game.apply(Discard(seat, game.hand(seat)[0]))
    assert len(game.view(0).log) == 2
    while game.round == 0:
        game.apply(next_action(game, [make_player("greedy"), make_player("greedy")]))
    assert game.view(0).log == ()


def test_unseen_counts_of_a_position_no_game_reaches() -> None:
    """More copies of a face in sight than the deck holds: the faces below
    zero are dropped, as :func:`unseen` drops them, and no other face's
    count borrows from them."""
    view = Game(2, seed=7).view(0)
    zs = Card("z")  # the deck holds two
    odd = replace(view, hand=(*view.hand, zs, zs, zs))
    faces, counts = unseen_counts(odd, holdings(odd))
    pool = unseen(odd)
    assert zs not in faces and faces == sorted(pool) and counts == bytes(pool[f] for f in faces)
    assert sum(counts) == sum(pool.values())


def test_unseen_counts_of_a_face_seen_a_hundred_times_too_often() -> None:
    """A face seen so often that its byte would borrow from the next face's
    (more than 128 over the deck's count) is still counted as :func:`unseen`
    counts it: every face's count is the deck's less the cards in sight,
    the face below zero dropped."""
    view = Game(2, seed=7).view(0)
    zs = Card("z")  # the deck holds two
    odd = replace(view, hand=(*view.hand, *[zs] * 200))
    faces, counts = unseen_counts(odd, holdings(odd))
    pool = unseen(odd)
    assert zs not in faces and faces == sorted(pool) and counts == bytes(pool[f] for f in faces)
