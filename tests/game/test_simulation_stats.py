"""How a simulation counts: a win shared by k players counts 1/k for each
of them (ties decide published win rates), the per-player figures are
attributes as well as ``to_dict()`` keys, and the lazily made plan is the
plan ``plan_games`` lists."""

from __future__ import annotations

import itertools
import math

import pytest

from quiddler.game.plans import GamePlans, GameResult, plan_games
from quiddler.game.runner import PlayerStats, SimulationStats, wilson_interval


def _result(index: int, names: tuple[str, ...], totals: tuple[int, ...]) -> GameResult:
    best = max(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best)
    return GameResult(index, names, totals, winners, went_out=(0, None, 1))


def test_a_shared_win_counts_half_for_each_winner() -> None:
    stats = SimulationStats(games=0, seed=0, players=("a", "b"))
    stats.add(_result(0, ("a", "b"), (100, 100)))  # a tie: half a win each
    stats.add(_result(1, ("b", "a"), (90, 80)))  # b wins alone
    a, b = stats.strategies["a"], stats.strategies["b"]
    assert (a.wins, b.wins) == (0.5, 1.5)
    assert a.wins + b.wins == stats.games == 2
    assert a.to_dict(stats.games)["wins"] == 0.5 and b.to_dict(stats.games)["win_rate"] == 0.75


def test_a_three_way_tie_counts_a_third_and_two_seats_of_one_player_add_up() -> None:
    stats = SimulationStats(games=0, seed=0, players=("a", "a", "b"))
    stats.add(_result(0, ("a", "a", "b"), (50, 50, 50)))
    stats.add(_result(1, ("a", "b", "a"), (70, 70, 10)))
    a, b = stats.strategies["a"], stats.strategies["b"]
    assert math.isclose(a.wins, 2 / 3 + 1 / 2) and math.isclose(b.wins, 1 / 3 + 1 / 2)
    assert math.isclose(a.wins + b.wins, 2)
    assert a.seats == 4 and a.games == 2 and b.seats == 2 and b.games == 2
    assert math.isclose(a.win_rate, a.wins / 2)  # per game, not per seat


def test_the_per_player_figures_are_attributes_named_as_in_the_json() -> None:
    stats = SimulationStats(games=0, seed=0, players=("a", "b"))
    for index, totals in enumerate([(100, 60), (40, 90), (80, 20), (70, 70)]):
        stats.add(_result(index, ("a", "b"), totals))
    a = stats.strategies["a"]
    data = a.to_dict(stats.games)
    assert data == a.to_dict()  # the games it took part in: every game here
    assert a.win_rate == pytest.approx(data["win_rate"]) == 2.5 / 4
    assert list(a.ci95) == pytest.approx(data["ci95"], abs=1e-6) and a.ci95 == wilson_interval(2.5, 4)
    assert a.mean_score == pytest.approx(data["mean_score"]) == 72.5
    assert a.sd_score == a.score_sd == pytest.approx(data["sd_score"], abs=1e-3)
    assert a.going_out_rate == pytest.approx(data["going_out_rate"], abs=1e-6) and a.going_out_rate == 1 / 3
    assert set(data) - {"wins", "seats"} <= {name for name in dir(a) if not name.startswith("_")}


def test_an_empty_player_has_zero_figures() -> None:
    empty = PlayerStats()
    assert (empty.win_rate, empty.mean_score, empty.sd_score, empty.going_out_rate) == (0, 0, 0, 0)
    assert empty.ci95 == (0.0, 1.0)


@pytest.mark.parametrize(("games", "players", "paired"), list(itertools.product([1, 2, 7, 30], [2, 3, 5], [True, False])))
def test_the_lazy_plan_is_the_listed_plan(games: int, players: int, paired: bool) -> None:
    lazy = GamePlans(11, games, players, paired)
    listed = plan_games(11, games, players, paired=paired)
    assert len(lazy) == games and list(lazy) == listed
    for done in (0, 1, games // 2, games):
        assert list(lazy.skip(done)) == listed[done:] and len(lazy.skip(done)) == games - done


def test_the_plan_of_a_billion_games_starts_at_once() -> None:
    plans = GamePlans(3, 10**9, 4)
    first = list(itertools.islice(plans, 8))
    assert first == plan_games(3, 8, 4) and len(plans) == 10**9
