"""How close ``solve()`` is to the least Python any wrapper of the kernel
could run: ``solve()`` over its kernel, beside two straight-line stand-ins
for the quick path that give the same ``Solution`` on every hand.

* ``kernel``: the backend's ``solve_counts`` with the hand's counts made
  beforehand, the figure ``compare_calls.py`` divides by;
* ``solve``: ``solve(hand, discard=True, backend="numba")``, as there;
* ``written_out``: the quick path as one function, no call but the
  compiled kernel's: every check ``solve()`` makes before it trusts a
  call to its quick path (the options, the hand's type and size, the
  backend, the thread's buffers, the parameters in the row, the
  kernel's status), the hand's faces looked up and written into the job
  row, the kernel, the words named and the values built in place;
* ``floor``: the same without the checks (the thread's buffers taken as
  ready): only the steps that build the answer.

Both stand-ins are measuring devices, not code to ship: they reach into
the solver's and the compiled backend's internals and hold for this tree
only.  Each checks itself first: it must give a ``Solution`` equal to
``solve()``'s on every hand (where the real path names a word or orders
tied words, and for the rare going-out play that is not the best, they
call the solver's own ``_play_from`` and ``_plain_play``), else the script
stops.

CPU time, 300 seeded 11-card discard hands (those of ``compare_calls.py``),
in a fresh process per repeat; a process reports each figure's fastest of
15 sweeps, the figures' sweeps taking turns, and its own ratios over its
kernel; the table gives the medians over processes.

Usage: python benchmarks/solve_floor.py [--processes N] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
from pathlib import Path

from compare import ROOT, run_probe

_PROBE = """
import json, random, time
from operator import itemgetter
from quiddler import default_wordlist, full_deck, solve
from quiddler.solver import core
from quiddler.solver._backends import FACE_SLOTS, JOB_STATUS, PACKED_WORDS, get_backend
from quiddler.solver.core import (JOB_OUT, _BONUS, _CARD_OR_NONE, _DEFAULT_SOLVERS, _FACE_BYTES, _KERNEL_CARDS,
    _OUT_BLOCK_KEY, _OUT_HEAD, _OUT_LEFT, _OUT_LEFTOVERS, _OUT_TIES, _OUT_WORDS, _PLAIN_PARAMS, _ROOMY,
    _ROOMY_CARDS, _TOP, OUT_BLOCK, _face_counts, _memo_size, _params)
from quiddler.solver.types import Play, Solution, _PlayDraft, _SolutionDraft

engine = get_backend("numba")
trie = default_wordlist().card_trie
rng = random.Random(2026)
deck = full_deck()
for size in (4, 6, 8):  # the hands compare_calls.py deals before its 11-card ones
    [rng.sample(deck, size) for _ in range(300)]
hands = [rng.sample(deck, 11) for _ in range(300)]
for hand in hands:  # every word of the hands named, the thread's buffers set up
    solve(hand, discard=True, backend="numba")
jobs = []
for hand in hands:
    counts, params = _face_counts(hand), _params(11, True, None, None, 10)
    jobs.append((counts, params, _memo_size(counts, params)))
solver = _DEFAULT_SOLVERS["numba"]
words_of = solver._words
local = engine._local
rows = engine._solve_rows
ready = local.solo


def floor(cards, *, discard=False, wordlist=None, top=1, beat_longest=None, beat_words=None, bonus=10,
          backend="auto"):
    hand = tuple(cards)
    solo = ready
    row = solo.row
    row[FACE_SLOTS - 1] = -len(hand)
    solo.bytes[: 8 * len(hand)] = b"".join(itemgetter(*hand)(_FACE_BYTES))
    rows(solo.edges, solo.ranks, solo.job, solo.work, 0, 1, PACKED_WORDS)
    ob = JOB_OUT
    left = row[ob + _OUT_LEFT]
    if row[ob + _OUT_TIES] or left > 1:
        best = solver._play_from(row, ob, _PLAIN_PARAMS[0])
    else:
        start = ob + _OUT_HEAD
        count = row[ob + _OUT_WORDS]
        if count > 1:
            words = itemgetter(*row[start : start + count])(words_of)
        else:
            words = tuple(map(words_of.__getitem__, row[start : start + count]))
        best = _PlayDraft()
        best.words = words
        best.unused = (_KERNEL_CARDS[row[ob + _OUT_LEFTOVERS]],) if left else ()
        best.discard = _CARD_OR_NONE[row[ob]]
        best.bonus = 0
        best.__class__ = Play
    solution = _SolutionDraft()
    solution.cards = hand
    solution.discard_required = discard
    solution.plays = (best,)
    if not left:
        solution.best_go_out = best
    else:
        solution.best_go_out = None if row[ob + _OUT_BLOCK_KEY] < 0 else solver._plain_play(row, ob + OUT_BLOCK)
    solution.__class__ = Solution
    return solution


def written_out(cards, *, discard=False, wordlist=None, top=1, beat_longest=None, beat_words=None, bonus=10,
                backend="auto"):
    solver = _DEFAULT_SOLVERS.get(backend) if wordlist is None and type(backend) is str else None
    if solver is None or not (top is _TOP and beat_longest is None and beat_words is None and bonus is _BONUS):
        return None
    if type(cards) is tuple:
        hand = cards
    elif type(cards) is list:
        hand = tuple(cards)
    else:
        return None
    if not 0 < len(hand) <= _ROOMY_CARDS or (discard is not True and discard is not False):
        return None
    params, memo_size = _PLAIN_PARAMS[discard], _ROOMY[len(hand)]
    if solver._engine is solver._auto:
        return None
    trie = solver._trie
    solo = local.__dict__.get("solo")
    if solo is None or solo.trie() is not trie or memo_size > solo.memo_room:
        return None
    try:
        faces = itemgetter(*hand)(_FACE_BYTES)
    except (KeyError, TypeError):
        return None
    if len(hand) > 1:
        faces = b"".join(faces)
    row = solo.row
    row[FACE_SLOTS - 1] = -len(hand)
    solo.bytes[: len(faces)] = faces
    if params is not solo.params:
        return None
    rows(solo.edges, solo.ranks, solo.job, solo.work, 0, 1, PACKED_WORDS)
    if row[JOB_STATUS] < 0:
        return None
    ob = JOB_OUT
    left = row[ob + _OUT_LEFT]
    best = None
    if not (row[ob + _OUT_TIES] or left > 1):
        start = ob + _OUT_HEAD
        count = row[ob + _OUT_WORDS]
        try:
            if count > 1:
                words = itemgetter(*row[start : start + count])(words_of)
            else:
                words = tuple(map(words_of.__getitem__, row[start : start + count]))
        except KeyError:
            pass
        else:
            best = _PlayDraft()
            best.words = words
            best.unused = (_KERNEL_CARDS[row[ob + _OUT_LEFTOVERS]],) if left else ()
            best.discard = _CARD_OR_NONE[row[ob]]
            best.bonus = 0
            best.__class__ = Play
    if best is None:
        best = solver._play_from(row, ob, _PLAIN_PARAMS[0])
    if not left:
        go_out = best
    elif row[ob + _OUT_BLOCK_KEY] < 0:
        go_out = None
    else:
        go_out = solver._plain_play(row, ob + OUT_BLOCK)
    solution = _SolutionDraft()
    solution.cards = hand
    solution.discard_required = discard
    solution.plays = (best,)
    solution.best_go_out = go_out
    solution.__class__ = Solution
    return solution


for hand in hands:
    expected = solve(hand, discard=True, backend="numba")
    for stand_in in (floor, written_out):
        got = stand_in(hand, discard=True, backend="numba")
        if got != expected:
            raise SystemExit(f"{stand_in.__name__} gives {got} for {hand}, solve() {expected}")


def sweep(fn, items):
    started = time.process_time()
    for item in items:
        fn(item)
    return (time.process_time() - started) / len(items) * 1e6


figures = {
    "kernel": (lambda job: engine.solve_counts(trie, *job), jobs),
    "solve": (lambda hand: solve(hand, discard=True, backend="numba"), hands),
    "written_out": (lambda hand: written_out(hand, discard=True, backend="numba"), hands),
    "floor": (lambda hand: floor(hand, discard=True, backend="numba"), hands),
}
best = dict.fromkeys(figures, float("inf"))
for _ in range(15):
    for key, (fn, items) in figures.items():
        best[key] = min(best[key], sweep(fn, items))
out = {f"{key}_cpu_us": value for key, value in best.items()}
out.update({f"{key}_over_kernel": best[key] / best["kernel"] for key in ("solve", "written_out", "floor")})
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=9, help="fresh processes to measure in (default 9)")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "solve-floor.json"))
    args = parser.parse_args()
    load_before = os.getloadavg()
    run_probe(ROOT, _PROBE)  # fill the numba cache first
    runs = []
    for i in range(args.processes):
        runs.append(run_probe(ROOT, _PROBE))
        print(f"process {i + 1}: " + ", ".join(f"{k} {v:.3f}" for k, v in runs[-1].items()), flush=True)
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(f"\nmedians of {args.processes} processes (CPU µs per call, the fastest of 15 sweeps; ratios per process)")
    print(f"{'':<12} {'µs':>8} {'over kernel':>12}")
    for key in ("kernel", "solve", "written_out", "floor"):
        ratio = "" if key == "kernel" else f"{medians[f'{key}_over_kernel']:.3f}"
        print(f"{key:<12} {medians[f'{key}_cpu_us']:>8.3f} {ratio:>12}")
    machine = {"cores": os.cpu_count(), "python": platform.python_version(), "load_average_before": load_before,
               "load_average_after": os.getloadavg()}  # fmt: skip
    result = {"machine": machine, "hands": 300, "cards": 11, "runs": runs, "medians": medians}
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
