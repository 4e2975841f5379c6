"""The browser game's server under load: many tables at once, each a
scripted person over a real WebSocket on loopback against one computer
player, in steps of more and more tables.

The server is one or more real ``quiddler serve`` processes (their limits
raised so one address may open every connection) on one store: ``--configs``
names each setup to measure, ``STORE:PROCESSES``, by default one process on
SQLite, one on PostgreSQL and two on PostgreSQL (a throw-away cluster
started for the run, durable: fsync on).  With several processes the tables
are spread over them (table ``i`` on process ``i mod N``, its REST calls and
its WebSocket alike), as a proxy would.  This script is the clients, one
asyncio task per table.  A client plays like a person: it waits a think
time (half of ``--think`` seconds a turn, +-50 %) before each action: it
draws from the pile, and after drawing discards its costliest card (on a final turn
it lays down nothing); a finished game is replaced by a new table.  Each
client also sends a ``ping`` every few seconds: the ping's round trip is
the baseline (the server's event loop and the network, no game), measured
in the same run, and the action's round trip is given as a ratio to it.

Measured at each step, over ``--seconds`` once every table of the step plays:

* ``actions_per_s``: actions accepted at all tables (the people's and the
  computers'), from the ``moves`` counters the clients see;
* ``rtt_ms``: an action's round trip, from sending it to the next state
  (none of these needs a computer move: the server answers before the
  computer thinks), median and p99; ``ping_ms`` likewise for a ping;
* ``computer_turn_ms``: from a person's discard to their next turn (the
  computer's draw and discard, decided in the thread pool), median and p99;
* ``server_ms``: the same actions' handling inside the server (from the
  parsed message to the new state queued: the table's lock, the engine,
  the commit to SQLite, the encoding), median and p99: what the server
  itself adds, apart from the network and the waits for a core;
* ``store_ms``: storing a move (any move, the computers' too: SQLite's
  commit, or PostgreSQL's round trip and commit), median and p99, and
  ``db_share``, its median over ``server_ms``'s; ``db_cpu``: the PostgreSQL
  processes' CPU use (1.0 = one core);
* ``rss_per_table_kib``: the server's own memory (anonymous, resident or swapped out)
  above the server with one table, divided by the tables; ``server_cpu``: the server process's CPU
  use (1.0 = one core busy), ``client_cpu`` this script's (the clients
  share the two cores with the server); ``load_average``: the machine's (1 minute),
  which says how much other work competed for the two cores.

The steps go on until the action p99 passes ``--target-ms`` (100) at two
steps in a row (from 200 tables on) or the last step is played;
``tables_within_target`` is the largest step within it and
``first_step_over_target`` the first one past it.  When the ping's p99 is
as high as the action's, the tail is the machine's (the server process not
running), not the game's.
The machine is shared and noisy: compare within one run.

Usage: python benchmarks/bench_web.py [--steps 50,100,200,400] [--seconds 20] [--think 1.0] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
POINTS = {"a": 2, "b": 8, "c": 8, "d": 5, "e": 2, "f": 6, "g": 6, "h": 7, "i": 2, "j": 13, "k": 8, "l": 3, "m": 5,
          "n": 5, "o": 2, "p": 6, "q": 15, "r": 5, "s": 3, "t": 3, "u": 4, "v": 11, "w": 10, "x": 12, "y": 4,
          "z": 14, "er": 7, "in": 7, "qu": 9, "th": 9, "cl": 10}  # fmt: skip

#: The server, with each action's handling timed inside it (from the parsed
#: message to the new state queued for every connection: the lock, the
#: engine, the commit, the encoding); SIGUSR1 writes the times since the
#: last SIGUSR1 to the file named by the second argument.
_SERVER = """
import json, signal, sys, time
from quiddler.web import app, store
from quiddler.web.limits import Limits
from quiddler.web.protocol import ActionRequest
from quiddler.web.server import run

times, store_times = [], []
answer = app._Server._answer

async def timed(self, connection, table, request):
    if not isinstance(request, ActionRequest):
        return await answer(self, connection, table, request)
    started = time.perf_counter()
    try:
        return await answer(self, connection, table, request)
    finally:
        times.append(time.perf_counter() - started)

def timed_store(cls):
    append = cls.append_action
    def append_action(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return append(self, *args, **kwargs)
        finally:
            store_times.append(time.perf_counter() - started)
    cls.append_action = append_action

def dump(signum, frame):
    taken = {"handling": times[:], "store": store_times[:]}
    del times[:], store_times[:]
    with open(sys.argv[2], "w") as out:
        json.dump(taken, out)

timed_store(store.SqliteStore)
if sys.argv[1].startswith("postgresql://"):
    from quiddler.web.store.postgres import PostgresStore
    timed_store(PostgresStore)
app._Server._answer = timed
signal.signal(signal.SIGUSR1, dump)
run("127.0.0.1", 0, sys.argv[1], limits=Limits(connections_per_address=100000, max_tables=100000,
    messages_per_second=1000.0, message_burst=1000, table_burst=100000, tables_per_client=100000))
"""


@dataclass
class Samples:
    rtt: list[float] = field(default_factory=list)
    ping: list[float] = field(default_factory=list)
    computer: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0

    def clear(self) -> None:
        self.rtt.clear()
        self.ping.clear()
        self.computer.clear()
        self.moves = self.errors = 0


def _action(view: dict[str, Any]) -> dict[str, Any]:
    if view["phase"] == "draw":
        return {"type": "draw", "source": "pile" if view["may_draw_from_pile"] else "discard"}
    card = max(view["hand"], key=lambda face: (POINTS[face], face))
    if view["final_turn"]:
        return {"type": "lay_down", "words": [], "discard": card}
    return {"type": "discard", "card": card}


async def _client(url: str, level: str, think: float, samples: Samples, stop: asyncio.Event,
                  ready: asyncio.Event, http: httpx.AsyncClient) -> None:  # fmt: skip
    """One table after another until ``stop``: the person's seat.  Messages
    are read (and timed) as they come; the person's moves and the pings
    are sent by tasks of their own, so a think time never delays a reading."""
    rng = random.Random()
    ws_url = "ws://" + url.removeprefix("http://")
    while not stop.is_set():
        data = (await http.post(f"{url}/api/tables", json={"seats": ["human", level]})).json()
        async with connect(f"{ws_url}/ws/{data['table']}", origin=url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": data["token"]}))
            ready.set()
            clock: dict[str, float | None] = {"sent": None, "discarded": None, "ping": None}
            pending: set[asyncio.Task[None]] = set()

            async def act(view: dict[str, Any], clock: dict[str, float | None] = clock) -> None:
                await asyncio.sleep(think * rng.uniform(0.25, 0.75))  # half of a turn's thought per action
                action = _action(view)
                clock["sent"] = time.perf_counter()
                if action["type"] != "draw":
                    clock["discarded"] = clock["sent"]
                await ws.send(json.dumps({"type": "action", "action": action}))

            async def pings(clock: dict[str, float | None] = clock) -> None:
                while True:
                    await asyncio.sleep(rng.uniform(2, 4))
                    clock["ping"] = time.perf_counter()
                    await ws.send('{"type":"ping"}')

            pinger = asyncio.create_task(pings())
            moves, acting = 0, False
            try:
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    arrived = time.perf_counter()
                    message = json.loads(text)
                    kind = message["type"]
                    if kind == "pong" and clock["ping"] is not None:
                        samples.ping.append(arrived - clock["ping"])
                        clock["ping"] = None
                    elif kind == "error":
                        samples.errors += 1
                        acting = False
                    if kind != "state":
                        continue
                    view = message["view"]
                    if message["moves"] > moves:
                        samples.moves += message["moves"] - moves
                        moves = message["moves"]
                        sent = clock["sent"]
                        if sent is not None:
                            samples.rtt.append(arrived - sent)
                            clock["sent"] = None
                            acting = False
                    if view["phase"] == "game_over":
                        break
                    if view["my_turn"] and not acting:
                        discarded = clock["discarded"]
                        if view["phase"] == "draw" and discarded is not None:
                            samples.computer.append(arrived - discarded)
                            clock["discarded"] = None
                        acting = True
                        task = asyncio.create_task(act(view))
                        pending.add(task)
                        task.add_done_callback(pending.discard)
            finally:
                pinger.cancel()
                for task in list(pending):
                    task.cancel()


def _rss_kib(pid: int) -> int:
    """The process's own memory in KiB: anonymous resident plus swapped out (the
    mapped files of the libraries come and go as a machine short of memory reclaims them)."""
    total = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("RssAnon:", "VmSwap:")):
            total += int(line.split()[1])
    return total


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _start_server(db: str, times: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", _SERVER, db, str(times)],
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)  # fmt: skip


async def _server_times(server: subprocess.Popen[str], path: Path) -> dict[str, list[float]]:
    """The server's own handling times, and its store's part, since the last call."""
    path.unlink(missing_ok=True)
    server.send_signal(signal.SIGUSR1)
    for _ in range(200):
        await asyncio.sleep(0.05)
        if path.exists():
            try:
                return dict(json.loads(path.read_text()))
            except json.JSONDecodeError:
                continue  # still being written
    return {"handling": [], "store": []}


def _database_pids(cluster: Any) -> list[int]:
    """The PostgreSQL server's processes: the postmaster and its children."""
    if cluster is None:
        return []
    main = int((cluster.data / "postmaster.pid").read_text().split()[0])
    children = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(status.read_text().rpartition(")")[2].split()[1]) == main:
                children.append(int(status.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return [main, *children]


def _cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            total += _cpu_seconds(pid)
        except (OSError, ValueError, IndexError):
            continue  # a backend that ended
    return total


async def _run(args: argparse.Namespace, store: str, processes: int, cluster: Any) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    db = str(folder / "tables.sqlite3") if store == "sqlite" else cluster.new_database()
    servers = [_start_server(db, folder / f"times{i}.json") for i in range(processes)]
    urls = []
    for server in servers:
        assert server.stdout is not None
        line = await asyncio.to_thread(server.stdout.readline)
        urls.append(line.strip().removeprefix("Serving on "))
    steps = []
    stop = asyncio.Event()
    samples = Samples()
    tasks: list[asyncio.Task[None]] = []
    limits = httpx.Limits(max_connections=50)
    try:
        async with httpx.AsyncClient(limits=limits, timeout=60) as http:
            # Warm up: the computer player's first decisions load the solver (and maybe compile it).
            warm_stop = asyncio.Event()
            warm = [asyncio.create_task(_client(url, args.level, 0.01, samples, warm_stop, asyncio.Event(), http))
                    for url in urls]  # fmt: skip
            await asyncio.sleep(args.warmup)
            warm_stop.set()
            await asyncio.gather(*warm)
            base_rss = sum(_rss_kib(server.pid) for server in servers)
            pids = [server.pid for server in servers]
            for count in args.steps:
                while len(tasks) < count:
                    ready = asyncio.Event()
                    url = urls[len(tasks) % len(urls)]
                    tasks.append(asyncio.create_task(_client(url, args.level, args.think, samples, stop, ready, http)))
                    await ready.wait()
                await asyncio.sleep(args.think * 2)  # every new table past its first turn
                samples.clear()
                for i, server in enumerate(servers):
                    await _server_times(server, folder / f"times{i}.json")
                database = _database_pids(cluster if store != "sqlite" else None)
                cpu0, db0, wall0 = _cpu_of(pids), _cpu_of(database), time.perf_counter()
                mine0 = time.process_time()
                await asyncio.sleep(args.seconds)
                wall = time.perf_counter() - wall0
                measured = [await _server_times(server, folder / f"times{i}.json") for i, server in enumerate(servers)]
                inside = [t for m in measured for t in m["handling"]]
                stored = [t for m in measured for t in m["store"]]
                cpu = (_cpu_of(pids) - cpu0) / wall
                db_cpu = (_cpu_of(database) - db0) / wall
                client_cpu = (time.process_time() - mine0) / wall
                rss = sum(_rss_kib(server.pid) for server in servers)
                step = {
                    "tables": count,
                    "actions_per_s": round(samples.moves / wall, 1),
                    "rtt_samples": len(samples.rtt),
                    "rtt_ms": {"median": round(1000 * statistics.median(samples.rtt), 2),
                               "p99": round(1000 * _quantile(samples.rtt, 0.99), 2)},
                    "ping_ms": {"median": round(1000 * statistics.median(samples.ping), 2),
                                "p99": round(1000 * _quantile(samples.ping, 0.99), 2)},
                    "server_ms": {"median": round(1000 * statistics.median(inside), 3) if inside else None,
                                  "p99": round(1000 * _quantile(inside, 0.99), 3) if inside else None,
                                  "max": round(1000 * max(inside), 3) if inside else None},
                    "store_ms": {"median": round(1000 * statistics.median(stored), 3) if stored else None,
                                 "p99": round(1000 * _quantile(stored, 0.99), 3) if stored else None},
                    "db_share": round(statistics.median(stored) / statistics.median(inside), 2)
                    if stored and inside else None,
                    "db_cpu": round(db_cpu, 2),
                    "rtt_over_ping": round(statistics.median(samples.rtt) / statistics.median(samples.ping), 2),
                    "computer_turn_ms": {"median": round(1000 * statistics.median(samples.computer), 2),
                                         "p99": round(1000 * _quantile(samples.computer, 0.99), 2)},
                    "rss_mib": round(rss / 1024, 1),
                    "rss_per_table_kib": round((rss - base_rss) / count, 1),
                    "server_cpu": round(cpu, 2),
                    "client_cpu": round(client_cpu, 2),
                    "errors": samples.errors,
                    "load_average": round(os.getloadavg()[0], 2),
                }  # fmt: skip
                steps.append(step)
                _print_row(step)
                over = [s["rtt_ms"]["p99"] > args.target_ms for s in steps]
                if count >= 200 and over[-2:] == [True, True]:
                    break  # twice in a row: past the machine's noise
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
    within = [s["tables"] for s in steps if s["rtt_ms"]["p99"] <= args.target_ms]
    first_over = next((s["tables"] for s in steps if s["rtt_ms"]["p99"] > args.target_ms), None)
    return {
        "store": store,
        "processes": processes,
        "steps": steps,
        "tables_within_target": max(within) if within else 0,
        "first_step_over_target": first_over,
    }


async def _run_all(args: argparse.Namespace) -> dict[str, Any]:
    """Every setup of ``--configs`` in one run (the machine's noise alike for all)."""
    from tests.web.pgcluster import Cluster

    setups = []
    cluster = Cluster(durable=True) if any(store != "sqlite" for store, _ in args.configs) else None
    try:
        for store, processes in args.configs:
            print(f"-- {store}, {processes} process{'es' if processes > 1 else ''}", flush=True)
            _print_row.header = False  # type: ignore[attr-defined]
            setups.append(await _run(args, store, processes, cluster))
    finally:
        if cluster is not None:
            cluster.stop()
    base = setups[0]["tables_within_target"]
    for setup in setups:
        setup["tables_vs_first"] = round(setup["tables_within_target"] / base, 2) if base else None
    return {
        "benchmark": "web_scale",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "settings": {"level": args.level, "think_s": args.think, "seconds_per_step": args.seconds,
                     "target_p99_ms": args.target_ms, "steps": args.steps},
        "setups": setups,
        "note": "clients, servers and PostgreSQL share the machine (2 cores, other work running): "
                "compare within one run",
    }


_HEADER = f"{'tables':>6} {'act/s':>7} {'rtt med':>8} {'rtt p99':>8} {'ping med':>8} {'ping p99':>8} " \
          f"{'rtt/ping':>8} {'srv med':>8} {'srv p99':>8} {'db med':>7} {'db shr':>6} {'db cpu':>6} {'comp turn':>9} {'comp p99':>8} {'KiB/tbl':>8} {'srv cpu':>7} {'cli cpu':>7} {'load':>5}"  # fmt: skip


def _print_row(step: dict[str, Any]) -> None:
    if not getattr(_print_row, "header", False):
        print(_HEADER)
        _print_row.header = True  # type: ignore[attr-defined]
    print(f"{step['tables']:>6} {step['actions_per_s']:>7} {step['rtt_ms']['median']:>8} {step['rtt_ms']['p99']:>8} "
          f"{step['ping_ms']['median']:>8} {step['ping_ms']['p99']:>8} {step['rtt_over_ping']:>8} "
          f"{step['server_ms']['median']!s:>8} {step['server_ms']['p99']!s:>8} "
          f"{step['store_ms']['median']!s:>7} {step['db_share']!s:>6} {step['db_cpu']!s:>6} "
          f"{step['computer_turn_ms']['median']:>9} {step['computer_turn_ms']['p99']:>8} "
          f"{step['rss_per_table_kib']:>8} {step['server_cpu']:>7} {step['client_cpu']:>7} {step['load_average']:>5}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="50,100,200,400,800", help="table counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds measured per step")
    parser.add_argument("--think", type=float, default=1.0, help="a person's think time before drawing, seconds")
    parser.add_argument("--level", default="medium", help="the computer player at every table")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of one table before measuring")
    parser.add_argument("--target-ms", type=float, default=100.0, help="the p99 round trip to stay within")
    parser.add_argument("--configs", default="sqlite:1,postgresql:1,postgresql:2",
                        help="the setups to measure, STORE:PROCESSES, comma-separated (STORE: sqlite or postgresql)")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "web_scale.json")
    args = parser.parse_args()
    args.steps = [int(n) for n in args.steps.split(",")]
    args.configs = [(store, int(n)) for store, _, n in (c.partition(":") for c in args.configs.split(","))]
    sys.path.insert(0, str(ROOT))  # the throw-away PostgreSQL cluster of the tests
    result = asyncio.run(_run_all(args))
    for setup in result["setups"]:
        ratio = "none held by the first setup" if setup["tables_vs_first"] is None else f"{setup['tables_vs_first']}x the first setup"
        print(f"{setup['store']}, {setup['processes']} process(es): tables within p99 <= {args.target_ms:.0f} ms: "
              f"{setup['tables_within_target']} ({ratio})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.json}")
    first = result["setups"][0]
    if (first["store"], first["processes"]) == ("sqlite", 1):  # the benchmarks page's table: one process on SQLite
        single = {"benchmark": "web", "machine": result["machine"], "settings": result["settings"], "steps": first["steps"],
                  "tables_within_target": first["tables_within_target"],
                  "first_step_over_target": first["first_step_over_target"], "note": result["note"]}  # fmt: skip
        web = args.json.with_name("web.json")
        web.write_text(json.dumps(single, indent=2) + "\n")
        print(f"wrote {web}")


if __name__ == "__main__":
    main()
