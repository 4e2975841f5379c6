"""Every cost threshold in one place: the numbers that decide whether
something is worth doing yet (loading the compiled kernels, starting worker
processes, showing a progress line).

They are estimates of what work costs on the project's reference machine
(2 cores, Python 3.11, numba 0.68); each says how it was measured. None of
them changes an answer: only how, and how fast, it is found. The benchmarks
in ``benchmarks/`` re-measure the costs behind them (``bench_first_use.py``,
``bench_startup.py``, ``bench_scale.py``).
"""

# -- the solver: pure Python or the compiled kernels -------------------------

#: Seconds of pure-Python solving after which loading numba pays off: loading
#: the cached kernels costs about this much (``bench_first_use.py``), so a run
#: never spends much more than twice what the better choice in hindsight
#: would have.
PAYOFF_SECONDS = 0.5
#: How often, in seconds, a run solving in Python looks whether a background
#: compile has finished (a ``poll()`` of a process: cheap, but not free).
POLL_SECONDS = 0.1
#: Python seconds one hand takes, for sizing up a batch before it runs
#: (``bench_solver.py``: about 0.3-1 ms for 9-11 cards).
PYTHON_SECONDS_PER_HAND = 0.001
#: Hands solved one by one in Python between two looks at whether the
#: compiled batch kernel is ready (about 30 ms of pure Python).
PYTHON_CHUNK = 32
#: Bytes that ``solve_many``'s per-thread memos may take together; a batch of
#: big hands runs on fewer threads rather than past this.
BATCH_MEMO_BYTES = 1 << 29
#: A one-shot solve whose search may visit more states than this runs on the
#: compiled backend: the pure-Python one takes about a second there, what
#: loading numba costs (``bench_extremes.py``). A ``--top`` search is far
#: slower per state (0.2 s for 10 distinct cards, 3 s for 12), so it moves at
#: a 256th of that.
COMPILED_SEARCH_STATES = 1 << 18

# -- simulation: worker processes --------------------------------------------

#: A worker process is started for at most every this-many games.
GAMES_PER_WORKER = 8
#: What starting a spawned worker process costs (Python, numba, the compiled
#: kernels), for ``workers="auto"`` (``bench_scale.py``).
WORKER_START_SECONDS = 1.0
#: What starting forked worker processes costs: they inherit all of that
#: (``bench_scale.py``: about 0.05 s for two).
FORKED_WORKER_START_SECONDS = 0.1
#: At most this many games in one task: more tasks give finer progress and
#: balance, fewer cost less to send (``bench_scale.py``).
MAX_CHUNK = 50
#: A task holds about ``1/SHARES`` of a worker slot's share of the games left,
#: so the last tasks are small and no worker waits long for another.
SHARES = 4

# -- the command line --------------------------------------------------------

#: Seconds of work after which a terminal shows a progress line.
PROGRESS_AFTER_SECONDS = 1.0
