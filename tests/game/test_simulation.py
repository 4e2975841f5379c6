"""Many-game simulations: the plan (paired deals, rotated seats), the
statistics and their Wilson intervals, and the same statistics and game
logs whatever plays the games (this process, forked or spawned worker
processes, a Dask LocalCluster, ``workers="auto"``); an interrupt keeps
the games finished so far; tasks do not carry the word list."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from quiddler import WordList, default_wordlist
from quiddler.game import Rules
from quiddler.game.plans import GameResult, plan_games
from quiddler.game.record import replay
from quiddler.game.runner import SimulationInterrupted, simulate, wilson_interval

SHORT = Rules(round_sizes=(3, 4, 5))  # three rounds: a fast game


def _run(**kwargs):
    results: list[GameResult] = []
    stats = simulate(["greedy", "random"], 24, seed=11, rules=kwargs.pop("rules", SHORT), records=True,
                     on_game=results.append, **kwargs)  # fmt: skip
    return stats.to_dict(), [r.record for r in results], [r.index for r in results]


@pytest.fixture(scope="module")
def in_process():
    return _run(workers=1)


@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("distributed")
    from quiddler.game.workers import dask_client as connect

    with connect(None, 2) as client:  # one LocalCluster for the module: it takes seconds to start
        yield client


def test_paired_plan_shares_a_deal_per_group_with_seats_rotated() -> None:
    plans = plan_games(3, 7, 3)
    assert [p.rotation for p in plans] == [0, 1, 2, 0, 1, 2, 0]
    assert plans[0].seed == plans[1].seed == plans[2].seed != plans[3].seed == plans[5].seed
    assert [p.seat_names(["a", "b", "c"]) for p in plans[:3]] == [("a", "b", "c"), ("b", "c", "a"),
                                                                    ("c", "a", "b")]  # fmt: skip
    assert plan_games(3, 4, 3) == plans[:4]  # a shorter run is a prefix of a longer one
    unpaired = plan_games(3, 4, 3, paired=False)
    assert len({p.seed for p in unpaired}) == 4 and [p.rotation for p in unpaired] == [0, 1, 2, 0]


def test_paired_games_deal_the_same_cards_to_each_seat() -> None:
    results: list[GameResult] = []
    simulate(["greedy", "random"], 4, seed=2, rules=SHORT, records=True, on_game=results.append)
    first, second = (json.loads(r.record) for r in results[:2])
    assert first["seed"] == second["seed"] and first["players"] == second["players"][::-1]
    # Each round's shuffle is seeded on its own (game seed, round): every round deals the same cards.
    assert [r["hands"] for r in first["rounds"]] == [r["hands"] for r in second["rounds"]]


def test_wilson_interval_of_whole_and_shared_wins() -> None:
    low, high = wilson_interval(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0) and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson_interval(5.5, 11)  # shared wins are fractional
    assert low < 0.5 < high and high - 0.5 == pytest.approx(0.5 - low)


def test_stats_carry_interval_and_spread(in_process) -> None:
    stats, records, indexes = in_process
    assert indexes == list(range(24)) and stats["games"] == 24 and stats["partial"] is False
    for name, s in stats["strategies"].items():
        low, high = s["ci95"]
        assert (low, high) == pytest.approx(wilson_interval(s["wins"], 24), abs=1e-6)
        assert low <= s["win_rate"] <= high
        scores = [json.loads(r)["final_scores"][json.loads(r)["players"].index(name)] for r in records]
        mean = sum(scores) / len(scores)
        sd = (sum((x - mean) ** 2 for x in scores) / (len(scores) - 1)) ** 0.5
        assert s["mean_score"] == pytest.approx(mean, abs=1e-3) and s["sd_score"] == pytest.approx(sd, abs=1e-3)
    for record in records[:3]:
        data = json.loads(record)
        assert list(replay(data).totals) == data["final_scores"]


def test_two_worker_processes_give_the_same_stats_and_log(in_process) -> None:
    assert _run(workers=2) == in_process


def test_spawned_worker_processes_give_the_same_stats_and_log(monkeypatch, in_process) -> None:
    from quiddler.game import workers

    # Where fork is unsafe (macOS, Windows, other threads running) workers are spawned.
    monkeypatch.setattr(workers, "start_method", lambda: "spawn")
    assert _run(workers=2) == in_process


_FORK_SCRIPT = """
import contextlib, io, json, sys, threading
from quiddler.cli import main
from quiddler.game import Rules, workers
from quiddler.game.runner import simulate

methods = []
real = workers.start_method
workers.start_method = lambda: methods.append(real()) or methods[-1]
out = []
shown = io.StringIO()
with contextlib.redirect_stdout(shown):  # the command's progress bar runs no monitor thread: the workers fork
    main(["simulate", "--players", "greedy,random", "-n", "24", "--seed", "11", "--round-sizes", "3,4,5",
          "--workers", "2", "--progress", "--json"], standalone_mode=False)
out.append(json.loads(shown.getvalue()))
from tqdm import tqdm
rules = Rules(round_sizes=(3, 4, 5))
with tqdm(total=24, file=sys.stderr, mininterval=0) as bar:  # a bar whose monitor thread runs: spawned
    threads = threading.active_count()
    out.append(simulate(["greedy", "random"], 24, seed=11, rules=rules, workers=2,
                        on_game=lambda r: bar.update(1)).to_dict())
print(json.dumps({"methods": methods, "threads": threads, "stats": out}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_workers_fork_unless_another_thread_runs(in_process) -> None:
    # A fresh interpreter: whether this test process runs other threads
    # depends on the tests before (a Dask client's).
    result = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], capture_output=True, text=True, timeout=240,
                            check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    data = json.loads(result.stdout)
    assert data["methods"] == ["fork", "spawn"] and data["threads"] > 1
    assert data["stats"] == [in_process[0], in_process[0]]  # forked, spawned: the same games
    assert "24/24" in result.stderr  # both bars were drawn


def test_chunks_keep_paired_games_together_and_shrink_at_the_end() -> None:
    from quiddler.game.workers import MAX_CHUNK, _chunks

    plans = plan_games(5, 1000, 3)
    for start in (0, 1, 2):  # workers="auto" hands the workers what this process has not played
        chunks = list(_chunks(plans[start:], 2))
        assert [plan for chunk in chunks for plan in chunk] == plans[start:]
        assert all(a[-1].seed != b[0].seed for a, b in itertools.pairwise(chunks))  # a deal's games stay together
        sizes = [len(chunk) for chunk in chunks]
        assert max(sizes) <= MAX_CHUNK + 2 and sizes[0] >= MAX_CHUNK - 2
        assert max(sizes[-4:]) <= 3  # a worker finishing first waits for one short chunk at most
    unpaired = list(_chunks(plan_games(5, 100, 2, paired=False), 2))
    assert [len(c) for c in unpaired][-1] == 1 and sum(len(c) for c in unpaired) == 100


def test_dask_local_cluster_gives_the_same_stats_and_log(in_process, dask_client) -> None:
    assert _run(client=dask_client) == in_process


def _distributed_level() -> int:
    import logging

    return logging.getLogger("distributed.worker").getEffectiveLevel()


def test_the_local_workers_show_only_critical_log_records(dask_client) -> None:
    """A worker's heartbeat that meets the scheduler as it closes is logged
    as an error with a traceback; at the run's end that is noise, so the
    local workers (and this process, while the client is open) show only
    critical records."""
    import logging

    levels = dask_client.run(_distributed_level)
    assert len(levels) == 2 and set(levels.values()) == {logging.CRITICAL}
    assert _distributed_level() == logging.CRITICAL


def test_a_custom_word_list_reaches_the_workers(dask_client) -> None:
    words = WordList([w for w in default_wordlist() if len(w) <= 4], name="short-words")
    rules = Rules(round_sizes=(3, 4), wordlist=words)
    here = _run(rules=rules, workers=1)
    assert json.loads(here[1][0])["rules"]["wordlist"] == "short-words"
    assert _run(rules=rules, workers=2) == here
    assert _run(rules=rules, client=dask_client) == here


def test_interrupt_keeps_the_games_finished_so_far() -> None:
    seen: list[GameResult] = []

    def stop_after_five(result: GameResult) -> None:
        seen.append(result)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as caught:
        simulate(["greedy", "random"], 24, seed=11, rules=SHORT, on_game=stop_after_five)
    partial = caught.value.stats.to_dict()
    assert partial["partial"] is True and partial["games"] == 5 and partial["requested"] == 24
    complete = simulate(["greedy", "random"], 5, seed=11, rules=SHORT).to_dict()
    assert partial["strategies"] == complete["strategies"]


def test_tasks_do_not_carry_the_word_list() -> None:
    import pickle

    from quiddler.game.workers import _jobs

    words = WordList([w for w in default_wordlist() if len(w) <= 6], name="six-letters")
    rules = Rules(wordlist=words)
    jobs, source = _jobs(["greedy", "random"], plan_games(1, 100, 2), rules, False, 2)
    assert source is not None and source.digest == words.digest and len(source.text) > 100_000
    assert all(len(pickle.dumps(job)) < 10_000 for job in jobs)  # the words go once per worker, not per task
    assert Rules.from_dict(jobs[0].rules, words) == rules and "wordlist_sha256" not in jobs[0].rules
    assert sum(len(job.plans) for job in jobs) == 100 and len(jobs) > 2
    _, no_source = _jobs(["greedy", "random"], plan_games(1, 10, 2), SHORT, False, 2)
    assert no_source is None  # ENABLE: each worker loads it itself


def test_auto_workers_stay_in_process_when_the_run_is_short(monkeypatch, in_process) -> None:
    from quiddler.game import runner, workers

    def no_pool(*args, **kwargs):
        raise AssertionError("a short run must not start worker processes")

    monkeypatch.setattr(runner, "available_cores", lambda: 2)
    monkeypatch.setattr(runner, "_worker_start_seconds", lambda: 1.0)  # spawned workers (forked: ~0.1 s)
    monkeypatch.setattr(workers, "process_results", no_pool)
    assert _run(workers="auto") == in_process


def test_auto_workers_take_over_once_the_games_show_it_pays(monkeypatch, in_process) -> None:
    from quiddler.game import runner, workers

    handed: list[int] = []
    real = workers.process_results

    def spy(count, names, plans, *args):
        handed.append(len(plans))
        return real(count, names, plans, *args)

    monkeypatch.setattr(runner, "available_cores", lambda: 2)
    monkeypatch.setattr(runner, "_worker_start_seconds", lambda: 0.0)  # any remaining work repays a start
    monkeypatch.setattr(workers, "process_results", spy)
    assert _run(workers="auto") == in_process
    assert handed == [20]  # 1 untimed game and 3 timed ones here, the other 20 on the workers
