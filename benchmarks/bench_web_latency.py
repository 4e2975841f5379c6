"""The browser game's server, one client at a time: the small waits that
add up.  This tree against a baseline commit (by default where this branch
left main), each a real ``quiddler serve`` on loopback, measured in turns
(round robin, so drift on the shared machine hits both alike).

Measured, each the median of ``--requests`` tries:

* ``fresh_ms``: ``GET /api/players`` on a new connection each time;
* ``kept_alive_ms``: the same request, the second and later on one
  kept-alive connection (a socket without TCP_NODELAY makes it wait for
  the client's delayed ACK, about 40 ms);
* ``ws_second_ms``: two pings sent back to back on one WebSocket, until
  the second pong;
* ``summary_ms`` and ``record_ms``: ``GET /api/tables/{table}`` and its
  ``/record`` for a finished game read again and again, each on a new
  connection like ``fresh_ms`` (rebuilt by replaying the whole game at
  each request, or kept at hand).

Usage: python benchmarks/bench_web_latency.py [--baseline REV] [--repeats 3] [--requests 30] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from compare import ROOT, baseline_rev, checkout, medians_and_ratios, round_robin

RESULTS = ROOT / "benchmarks" / "results" / "web_latency.json"


def _server(tree: Path, folder: Path) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    process = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "serve", "--port", "0", "--db",
                                str(folder / "tables.sqlite3")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, cwd=tempfile.gettempdir(), env=env)  # fmt: skip
    assert process.stdout is not None
    return process, int(process.stdout.readline().strip().rpartition(":")[2])


def _request(sock: socket.socket, path: str, port: int) -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += sock.recv(65536)
    return body


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _finished_table(port: int) -> str:
    """A one-round game against ``random``, played to its end by the simplest person."""
    import httpx
    from websockets.sync.client import connect

    url = f"http://127.0.0.1:{port}"
    data = httpx.post(f"{url}/api/tables", json={"seats": ["human", "random"], "rules": {"round_sizes": [3]}}).json()
    with connect(f"ws://127.0.0.1:{port}/ws/{data['table']}", origin=url) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "token": data["token"]}))
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] != "state":
                continue
            view = message["view"]
            if view["phase"] == "game_over":
                return str(data["table"])
            if not view["my_turn"]:
                continue
            if view["phase"] == "draw":
                action: dict[str, Any] = {"type": "draw", "source": "pile"}
            elif view["final_turn"]:
                action = {"type": "lay_down", "words": [], "discard": view["hand"][0]}
            else:
                action = {"type": "discard", "card": view["hand"][0]}
            ws.send(json.dumps({"type": "action", "action": action}))


def measure(tree: Path, requests: int) -> dict[str, float]:
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory() as folder:
        process, port = _server(tree, Path(folder))
        try:
            fresh, kept, ws_second, summary, record = [], [], [], [], []
            for _ in range(requests):
                start = time.perf_counter()
                with socket.create_connection(("127.0.0.1", port)) as sock:
                    _request(sock, "/api/players", port)
                fresh.append(_ms(start))
            with socket.create_connection(("127.0.0.1", port)) as sock:
                _request(sock, "/api/players", port)
                for _ in range(requests):
                    start = time.perf_counter()
                    _request(sock, "/api/players", port)
                    kept.append(_ms(start))
            table = _finished_table(port)
            with connect(f"ws://127.0.0.1:{port}/ws/{table}", origin=f"http://127.0.0.1:{port}") as ws:  # type: ignore[arg-type]
                ws.send(json.dumps({"type": "hello", "watch": True}))
                ws.recv(timeout=60), ws.recv(timeout=60)  # welcome, state
                for _ in range(requests):
                    start = time.perf_counter()
                    ws.send(json.dumps({"type": "ping"}))
                    ws.send(json.dumps({"type": "ping"}))
                    ws.recv(timeout=60), ws.recv(timeout=60)
                    ws_second.append(_ms(start))
            for _ in range(requests):  # each on a new connection, as fresh_ms, apart from the ACK stall
                for path, times in ((f"/api/tables/{table}", summary), (f"/api/tables/{table}/record", record)):
                    start = time.perf_counter()
                    with socket.create_connection(("127.0.0.1", port)) as sock:
                        _request(sock, path, port)
                    times.append(_ms(start))
        finally:
            process.terminate()
            process.wait(timeout=60)
    return {name: statistics.median(values) for name, values in
            [("fresh_ms", fresh), ("kept_alive_ms", kept), ("ws_second_ms", ws_second), ("summary_ms", summary),
             ("record_ms", record)]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="the commit to compare with (default: the merge base with main)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--json", type=Path, default=RESULTS)
    args = parser.parse_args()
    rev = baseline_rev(args.baseline)
    with tempfile.TemporaryDirectory() as folder:
        trees = {"baseline": checkout(rev, Path(folder) / "baseline"), "this tree": ROOT}
        runs = round_robin(trees, args.repeats, lambda tree: measure(tree, args.requests), ".2f")
    medians, ratios = medians_and_ratios(runs)
    print(f"\n{'figure':16} {'baseline':>10} {'this tree':>10} {'ratio':>7}")
    for key, ratio in ratios.items():
        print(f"{key:16} {medians['baseline'][key]:10.2f} {medians['this tree'][key]:10.2f} {ratio:7.2f}")
    result = {"baseline": rev, "repeats": args.repeats, "requests": args.requests, "medians": medians, "ratios": ratios,
              "load_average": os.getloadavg()[0], "machine": platform.machine(), "python": platform.python_version()}  # fmt: skip
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
