"""How ``master``'s search values and races its candidates: a finish is
worth the margin over the best other player (in the last round, a share
of the win, 1/k for k tied first), a candidate is dropped on the standard
error of its paired deficit, and the expert's own choice is always a
candidate.

The values are checked against the simulated finishes the search played
(each one recorded as it is set up), so the tests say what a finish is
worth without repeating how the search plays one."""

from __future__ import annotations

import dataclasses
import statistics
import types
from collections.abc import Iterator

import pytest

from quiddler.game import Game, Rules
from quiddler.game import master as master_module
from quiddler.game.ai import EXPERT, AIPlayer, advise
from quiddler.game.hint_types import HintOption
from quiddler.game.master import MASTER, Search, SearchSettings, _survivors, search, searchable
from quiddler.game.plans import next_action
from quiddler.game.sampling import HiddenState, RolloutGame, Sampler
from quiddler.game.state import Draw, PlayerView

#: Every candidate played on every sample (no racing), few samples: fast.
ALL = SearchSettings(samples=4, race=0.0)


def searched_views(seed: int, players: int = 2, rules: Rules | None = None) -> Iterator[PlayerView]:
    """The positions of an expert game where master would search."""
    experts = [AIPlayer(EXPERT)] * players
    game = Game(players, seed=seed, rules=rules)
    while not game.over:
        view = game.view(game.turn)
        if searchable(view, ALL):
            yield view
        game.apply(next_action(game, experts))


class Finishes:
    """Every simulated finish a search sets up, recorded as the search's
    sampler makes it (the search plays it to the end afterwards)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.games: list[RolloutGame] = []
        games = self.games

        class Recording(Sampler):
            def game(self, hidden: HiddenState) -> RolloutGame:
                game = super().game(hidden)
                # A simulated finish keeps no record; these keep the engine's, to be read here.
                game._record = types.MethodType(Game._record, game)  # type: ignore[method-assign]
                games.append(game)
                return game

        monkeypatch.setattr(master_module, "Sampler", Recording)

    def search(self, view: PlayerView, settings: SearchSettings = ALL) -> Search | None:
        self.games.clear()
        return search(view, settings)

    def of(self, option: HintOption, seat: int) -> list[RolloutGame]:
        """The finishes that began with ``option``, each played to the round's end."""
        first = option.to_action(seat).to_dict()
        games = [g for g in self.games if g.log[0]["actions"][0] == first]
        assert games and all(g.result is not None for g in games)
        return games


@pytest.fixture
def finishes(monkeypatch: pytest.MonkeyPatch) -> Finishes:
    return Finishes(monkeypatch)


def margin(game: RolloutGame, seat: int) -> int:
    assert game.result is not None
    scores = [s.score for s in game.result.scores]
    return scores[seat] - max(s for other, s in enumerate(scores) if other != seat)


def own_score(game: RolloutGame, seat: int) -> int:
    assert game.result is not None
    return game.result.scores[seat].score


def win_share(game: RolloutGame, seat: int) -> float:
    """A game's win as the simulation statistics count it: 1/k for each of k tied first."""
    return 1 / len(game.winners) if seat in game.winners else 0.0


# -- what a finish is worth ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_a_finish_is_worth_the_margin_over_the_best_other_player(finishes: Finishes, players: int) -> None:
    """Before the last round each candidate is valued at its mean round
    margin: its own round score less the best other player's, bonuses
    included; the search ranks the candidates by it."""
    checked = 0
    others_scored = False
    for view in searched_views(3, players):
        result = finishes.search(view)
        if result is None or result.last_round:
            continue
        expected = [statistics.fmean(margin(g, view.seat) for g in finishes.of(o, view.seat)) for o in result.options]
        assert [o.value for o in result.options] == pytest.approx(expected)
        assert list(result.margins) == pytest.approx(expected)
        assert expected == sorted(expected, reverse=True)
        others_scored |= any(own_score(g, view.seat) != margin(g, view.seat) for g in finishes.games)
        checked += 1
        if checked == 3:
            break
    assert checked == 3 and others_scored


def test_the_margin_not_the_own_score_decides(finishes: Finishes) -> None:
    """A position where the candidate with the best own round score is not
    the one with the best margin: master takes the best margin."""
    for view in searched_views(0):
        result = finishes.search(view)
        if result is None or result.last_round:
            continue
        seat = view.seat
        by_margin = max(result.options, key=lambda o: statistics.fmean(margin(g, seat) for g in finishes.of(o, seat)))
        by_own = max(result.options, key=lambda o: statistics.fmean(own_score(g, seat) for g in finishes.of(o, seat)))
        if by_margin != by_own:
            assert result.best == by_margin
            return
    pytest.fail("no position where the own round score and the margin disagree")


def test_in_the_last_round_a_shared_first_place_counts_one_over_k(finishes: Finishes) -> None:
    """In the game's last round a candidate is valued at its share of the
    wins over the finishes, a first place shared by k players counting 1/k
    (as the simulation statistics count them).  The search meets a
    position where the ties decide: a whole win for every tied player
    would choose another move."""
    for view in searched_views(0, rules=Rules(round_sizes=(3,))):
        result = finishes.search(view)
        if result is None:
            continue
        assert result.last_round
        seat, options = view.seat, result.options
        shares = [statistics.fmean(win_share(g, seat) for g in finishes.of(o, seat)) for o in options]
        assert list(result.wins) == pytest.approx(shares)
        assert [o.value for o in options] == pytest.approx([100 * share for share in shares])
        whole = [statistics.fmean(float(seat in g.winners) for g in finishes.of(o, seat)) for o in options]
        by_share = max(range(len(options)), key=lambda k: (shares[k], result.margins[k]))
        by_whole = max(range(len(options)), key=lambda k: (whole[k], result.margins[k]))
        if by_share != by_whole:
            assert result.best == options[by_share]
            return
    pytest.fail("no position where the ties decide")


# -- the candidates and the race ----------------------------------------------------------


def test_the_registered_master_searches_as_its_page_describes(finishes: Finishes) -> None:
    """The computer players' page: 32 samples at most, a finish cut six
    turns after the furthest seat's, no search after a player's third turn."""
    game = Game(2, seed=46)
    game.apply(Draw(1))  # seat 1 has started one turn, seat 0 none
    view = game.view(1)
    result = finishes.search(view, dataclasses.replace(MASTER, race=0.0))
    assert result is not None and set(result.samples) == {32}
    assert {g.rules.turn_limit for g in finishes.games} == {1 + 6}
    assert searchable(dataclasses.replace(view, turns_taken=3))
    assert not searchable(dataclasses.replace(view, turns_taken=4))


def test_the_experts_own_choice_is_always_a_candidate() -> None:
    """Even where the settings ask for no waiting candidates, a position
    where the expert would wait has the expert's discard among the searched
    options."""
    no_waiting = SearchSettings(samples=2, race=0.0, waiting=0)
    checked = 0
    for view in searched_views(0):
        expert = advise(view, EXPERT, explain=False).recommended
        if expert.action != "discard":
            continue
        result = search(view, no_waiting)
        if result is None:
            continue  # the hand cannot go out: nothing to search
        assert result.expert == expert
        assert [o.action for o in result.options].count("discard") == 1
        assert any((o.action, o.card) == ("discard", expert.card) for o in result.options)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_a_candidate_is_dropped_when_beaten_by_more_than_z_standard_errors() -> None:
    """The leader's paired lead over a candidate (sample by sample) is
    compared with z standard errors of that lead, so the same lead with the
    same spread becomes clear with more samples."""
    leader = [10.0] * 16
    beaten = [10.0 - gap for gap in [0.0, 3.0] * 8]  # lead 1.5, spread 1.55: 3.9 standard errors
    close = [10.0 - gap for gap in [-1.0, 2.0] * 8]  # lead 0.5: 1.3 standard errors
    assert _survivors([0, 1, 2], [leader, beaten, close], 2.0) == [0, 2]
    more = [10.0 - gap for gap in [-1.0, 2.0] * 32]  # the same lead and spread over 64 samples: 2.6
    assert _survivors([0, 1], [[10.0] * 64, more], 2.0) == [0]
    assert _survivors([0, 1], [[10.0] * 64, more], 3.0) == [0, 1]
    # One sample has no spread: nothing is dropped on it; two can show a clear lead.
    assert _survivors([0, 1], [[10.0], [0.0]], 2.0) == [0, 1]
    assert _survivors([0, 1], [[10.0, 10.0], [0.0, 1.0]], 2.0) == [0]
