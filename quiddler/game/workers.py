"""Playing a simulation's games in other processes: worker processes of the
standard library's ``concurrent.futures`` (forked where that is safe, else
spawned: see :func:`start_method`), or the workers of a Dask
(``dask.distributed``) cluster.

Both run one task, :func:`play_chunk`: a run of consecutive planned games
(see :func:`~quiddler.game.plans.plan_games`), played exactly as this
process would play them.  Results come back in chunks and are handed on in
game order, so statistics and logs do not depend on who played what.

The word list never travels with a task.  A forked worker has it already
(this process loads it, its card trie and the compiled kernels before
forking).  A spawned or Dask worker loads ENABLE from the package and its
card trie from the on-disk cache (which this process fills first); a custom
list's words are sent once per worker (the pool's initializer; a Dask
``scatter`` to every worker) and kept per process by their hash, its card
trie then read from the same cache.

Worker processes ignore Ctrl-C and SIGHUP: the parent stops them (it asks
for no more results, cancels what has not started and terminates the
rest), and on Linux they also end as soon as the parent does, however it
ends (even ``kill -9``).  Tasks are made from the plan as results come back,
a few per worker ahead, so memory does not grow with the number of games.
"""

from __future__ import annotations

import collections
import ctypes
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import ArgumentTypeError, InvalidArgumentError, shown
from ..thresholds import MAX_CHUNK, SHARES
from ..wordlist import WordList
from .listhash import wordlist_sha256
from .plans import GamePlan, GameResult, Plans, play_planned
from .rules import Rules

__all__ = ["ChunkJob", "WordSource", "dask_client", "dask_results", "play_chunk", "process_results", "start_method"]



class _Stop(Protocol):
    requested: bool


@dataclass(frozen=True, slots=True)
class WordSource:
    """A custom word list as it is sent to a worker once: its name and text."""

    name: str
    digest: str
    text: bytes


@dataclass(frozen=True, slots=True)
class ChunkJob:
    """One task: consecutive planned games under one set of rules."""

    names: tuple[str, ...]
    rules: dict[str, Any]  #: ``Rules.settings()``
    words: str | None  #: the custom word list's digest; None for ENABLE
    plans: tuple[GamePlan, ...]
    records: bool


_wordlists: dict[str, WordList] = {}
_rules: dict[tuple[str, str | None], Rules] = {}


def _install(source: WordSource | None) -> None:
    if source is not None and source.digest not in _wordlists:
        _wordlists[source.digest] = WordList.from_canonical_text(source.text, source.name)


def _expect_much_solving() -> None:
    """A worker exists because there are many games to play: let the solver's
    auto backend load the compiled kernels now (at once when they are cached)
    instead of first spending its pure-Python allowance on the first games."""
    from ..solver import warm

    warm()


def play_chunk(job: ChunkJob, source: WordSource | None = None) -> list[GameResult]:
    """Play a chunk's games (in a worker).  ``source``: the custom word list,
    when Dask passes it along (a process pool installs it at start-up)."""
    _expect_much_solving()
    _install(source)
    key = (repr(sorted(job.rules.items())), job.words)
    rules = _rules.get(key)
    if rules is None:
        wordlist = _wordlists[job.words] if job.words is not None else None
        rules = _rules[key] = Rules.from_dict(job.rules, wordlist)
    return [play_planned(job.names, plan, rules, record=job.records) for plan in job.plans]


def _init_worker(source: WordSource | None) -> None:
    """Start-up of a pool worker: ignore Ctrl-C and SIGHUP (the parent stops
    its workers itself), end at SIGTERM and with the parent; print no notices (a forked
    worker inherits the command's, and each worker's "compiling the kernels"
    would repeat the command's own line); install the custom word list, if any."""
    from ..solver import hide_notices

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    # A forked worker inherits the parent's handler, which only asks to stop:
    # SIGTERM, which the parent sends to end its workers, must end them at once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent()
    hide_notices()
    _install(source)


#: prctl's option that sends the process a signal when its parent ends (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _end_with_parent() -> None:
    """On Linux, have the kernel kill this worker when the process that
    started it ends, however it ends, so no worker is left behind as an
    orphan; elsewhere the parent's own shutdown has to do."""
    parent = multiprocessing.parent_process()
    if not sys.platform.startswith("linux") or parent is None:
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return
    if os.getppid() != parent.pid:  # the parent ended before the request was made
        os._exit(1)


def _chunks(plans: Plans, slots: int) -> Iterator[tuple[GamePlan, ...]]:
    """The plans cut into chunks, in order, each about 1/:data:`SHARES` of
    a worker slot's share of what is left and at most :data:`MAX_CHUNK`
    games: long chunks while there is much to do, short ones at the end, so
    no worker waits long for another to finish its last chunk.  A chunk
    never splits games that share a deal (paired games): one worker plays
    them, and its solve cache answers the second and later ones."""
    left = len(plans)
    stream = iter(plans)
    pending = next(stream, None)
    while pending is not None:
        size = max(1, min(MAX_CHUNK, -(-left // (SHARES * slots))))
        chunk = [pending]
        pending = next(stream, None)
        while pending is not None and (len(chunk) < size or pending.seed == chunk[-1].seed):
            chunk.append(pending)
            pending = next(stream, None)
        left -= len(chunk)
        yield tuple(chunk)


def _jobs(names: Sequence[str], plans: Plans, rules: Rules, records: bool,
          slots: int) -> tuple[list[ChunkJob], WordSource | None]:  # fmt: skip
    """The tasks (see :func:`_chunks`) and the word list to send once per worker."""
    jobs, source = _job_stream(names, plans, rules, records, slots)
    return list(jobs), source


def _job_stream(names: Sequence[str], plans: Plans, rules: Rules, records: bool,
                slots: int) -> tuple[Iterator[ChunkJob], WordSource | None]:  # fmt: skip
    """The tasks, made one by one as they are asked for, and the word list
    to send once per worker."""
    words = rules.words
    words.card_trie  # noqa: B018 - build and cache the trie here once, not in every worker
    source = None
    if rules.wordlist is not None:
        source = WordSource(words.name, words.digest, words.canonical_text)
    settings = rules.settings()  # not to_dict(): the workers need no hash of the words
    digest = source.digest if source else None
    jobs = (ChunkJob(tuple(names), settings, digest, chunk, records) for chunk in _chunks(plans, slots))
    return jobs, source


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Child processes (and threads) started inside have SIGINT blocked, so a
    Ctrl-C at the terminal (sent to the whole process group) never reaches
    them, not even while they start up (a blocked signal stays blocked
    across exec).  In this process a Ctrl-C that comes meanwhile is kept
    and handled as the block ends, instead of being lost.  (Where signals
    cannot be blocked, SIGINT is ignored meanwhile: children inherit that.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, ignored)
        return
    from multiprocessing import resource_tracker

    # multiprocessing unblocks SIGINT after starting its resource tracker,
    # which the first process started inside would do: start it now.
    resource_tracker.ensure_running()
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C kept meanwhile reaches `came` here
        signal.signal(signal.SIGINT, previous)
    if came and callable(previous):
        previous(signal.SIGINT, None)  # as if it came now: KeyboardInterrupt, or a simulation's stop


def start_method() -> str:
    """How worker processes are started: ``fork`` where it is safe, else ``spawn``.

    A forked worker starts with everything this process has loaded (numba,
    the compiled kernels, the word list and its card trie, even the solve
    cache), where a spawned one loads them all again (what each start costs
    is in :mod:`quiddler.thresholds`).  Forking is safe on Linux when this process runs no
    other Python thread: a lock another thread holds at the fork (logging's,
    a progress bar's, a Dask client's event loop's) would stay locked in the
    child for ever.  Threads outside Python do not count: numpy's OpenBLAS
    pool stops its threads around a fork, and the solver runs no threading
    layer (its batches use Python threads, joined before they return).
    Elsewhere (macOS, Windows) or with other threads running, workers are
    spawned.
    """
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _prepare_to_fork(rules: Rules, records: bool) -> None:
    """Do here, once, what every forked worker would otherwise do on its
    own: load the compiled kernels and, when games are recorded, hash the
    word list (each record names it).  (multiprocessing flushes stdout and
    stderr before it forks, so nothing buffered is written twice.)"""
    _expect_much_solving()
    if records:
        wordlist_sha256(rules.words)


#: Tasks handed out ahead of the results read, per worker slot: enough to
#: keep every worker busy, few enough that the plan is made as it is played.
_AHEAD = 2


def _in_order(started: Sequence[Any], jobs: Iterator[ChunkJob], submit: Callable[[ChunkJob], Any], slots: int,
              stop: _Stop, idle: Callable[[], None] | None = None) -> Iterator[GameResult]:  # fmt: skip
    """The games of the ``started`` futures, then of ``jobs`` as they are
    submitted, in order, with at most ``_AHEAD * slots + 1`` futures not yet
    read; polling, so a stop request is seen at once.  (Polling ``done()``
    works for both kinds of future; a Dask ``result(timeout=...)`` that
    times out can fail inside Dask.)  ``idle()`` is called while waiting."""
    window: collections.deque[Any] = collections.deque(started)

    def top_up() -> None:
        while len(window) <= _AHEAD * slots and not stop.requested:
            job = next(jobs, None)
            if job is None:
                return
            window.append(submit(job))

    top_up()
    while window:
        future = window.popleft()
        while not future.done():
            if stop.requested:
                return
            if idle is not None:
                idle()
            if isinstance(future, Future):
                wait([future], timeout=0.1)
            else:
                time.sleep(0.02)
        if stop.requested:
            return
        try:
            games = future.result()
            top_up()
        except BrokenProcessPool:
            time.sleep(0.2)  # a signal to the whole process group ended the workers: let its handler run
            if stop.requested:
                return
            raise
        yield from games


def process_results(workers: int, names: Sequence[str], plans: Plans, rules: Rules,
                    records: bool, stop: _Stop) -> Iterator[GameResult]:  # fmt: skip
    """The games played by up to ``workers`` worker processes, in game order."""
    jobs, source = _job_stream(names, plans, rules, records, workers)
    first = _take(jobs, workers)
    if not first:
        return
    processes = len(first)
    method = start_method()
    if method == "fork":
        _prepare_to_fork(rules, records)
    pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context(method),
                               initializer=_init_worker, initargs=(source,))  # fmt: skip
    finished = False
    try:
        with _sigint_deferred():  # the pool starts its processes on the first submits
            started = [pool.submit(play_chunk, job) for job in first]
        if method != "fork":
            _expect_much_solving()  # as a forked pool's parent did before forking, while the workers start
        # The parent started the kernels' compile, if one was needed: it goes
        # on checking it while it waits, so the "compiled" notice comes (the
        # workers print none, and wait for the parent's compile to end).
        yield from _in_order(started, jobs, lambda job: pool.submit(play_chunk, job), processes, stop,
                             _expect_much_solving)  # fmt: skip
        finished = not stop.requested
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _abandon(pool)


def _take(jobs: Iterator[ChunkJob], count: int) -> list[ChunkJob]:
    """The next ``count`` tasks (fewer when the plan ends first)."""
    return [job for _, job in zip(range(count), jobs)]


def _abandon(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: end its workers, then let it wind down.

    The futures are deliberately not cancelled first: on Python 3.11 the
    pool's manager thread then fails (InvalidStateError) when it marks the
    pending work broken, printing a traceback.  Ended workers break the pool
    and fail whatever was pending, which nobody reads any more.
    """
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
            if process.is_alive():  # pragma: no cover - a worker that outlived SIGTERM
                process.kill()
    _close_result_pipe(pool)
    pool.shutdown(wait=True)


def _close_result_pipe(pool: ProcessPoolExecutor) -> None:
    """A worker ended while it sent a result (a chunk of game records is
    hundreds of KB) leaves the rest of that message unsent, and the pool's
    manager thread, reading it, would wait for the rest for ever: this
    process holds the pipe's sending end open too, so no end of file comes,
    and shutting the pool down (or exiting) waits on that thread.  With the
    workers ended, closing this process's end makes the wait an end of file,
    which breaks the pool and lets it shut down."""
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


# -- Dask ---------------------------------------------------------------------------


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InvalidArgumentError("Dask is not installed: pip install 'quiddler[dask]' "
                                   "(or dask[distributed]) to play games on Dask") from None  # fmt: skip
    return distributed


def _quiet_distributed_logs() -> None:
    """Show only Dask's critical log records.  Dask logs routine shutdown
    races (a worker's heartbeat meeting a scheduler that is closing) as
    errors with tracebacks, which a local cluster's workers write to this
    terminal after the results are printed; a failure that matters reaches
    the client as an exception instead."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


_NO_DASHBOARD = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}


@contextmanager
def dask_client(scheduler: str | None, workers: int, *, timeout: float = 10.0) -> Iterator[Any]:
    """A ``dask.distributed`` client: of the scheduler at ``scheduler``, or
    of a ``LocalCluster`` of ``workers`` single-threaded worker processes
    on this machine (``scheduler=None``), closed afterwards.  Raises
    ValueError, with one line to say why, when Dask is missing or the
    scheduler cannot be reached within ``timeout`` seconds (a positive,
    finite number).  Ctrl-C while connecting stops at once; during the
    local cluster's start, which starts processes, it stops as soon as the
    cluster has started (its processes never see it)."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise ArgumentTypeError(f"timeout must be a number of seconds, not {shown(timeout)}")
    if not (math.isfinite(timeout) and timeout > 0):
        raise InvalidArgumentError(f"timeout must be a positive, finite number of seconds, not {timeout}")
    distributed = _import_distributed()
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    cluster = client = None
    try:
        if scheduler is None:
            with _sigint_deferred():
                # No dashboard, and the scheduler's HTTP server (its metrics)
                # on any free port of the loopback: on Dask's 8787, held by
                # another cluster, it would warn of a port nobody here uses.
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=logging.ERROR,
                                                   scheduler_kwargs=_NO_DASHBOARD)  # fmt: skip
                client = distributed.Client(cluster)
                client.register_worker_callbacks(setup=_quiet_distributed_logs)
        else:
            try:
                client = distributed.Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise InvalidArgumentError(
                    f"cannot reach the Dask scheduler at {shown(scheduler)}: {reason}"
                ) from None
        yield client
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        quiet.setLevel(level)


def dask_results(client: Any, names: Sequence[str], plans: Plans, rules: Rules, records: bool,
                 stop: _Stop) -> Iterator[GameResult]:  # fmt: skip
    """The games played as Dask tasks on ``client``'s workers, in game order."""
    slots = max(1, sum(client.nthreads().values()))
    jobs, source = _job_stream(names, plans, rules, records, slots)
    sent = client.scatter(source, broadcast=True) if source is not None else None
    futures: list[Any] = []
    count = 0

    def submit(job: ChunkJob) -> Any:
        nonlocal count
        count += 1
        # Earlier chunks first (higher priority), so results stream in game order.
        future = client.submit(play_chunk, job, sent, pure=False, priority=-count)
        futures.append(future)
        del futures[: -(_AHEAD * slots + 2)]  # only those not read yet need cancelling
        return future

    try:
        yield from _in_order([], jobs, submit, slots, stop)
    finally:
        client.cancel(futures)
