"""Helpers of the web tests: a real ``quiddler serve`` process on a free
loopback port, and a scripted player that answers states with moves."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Self

REPO = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``quiddler serve --port 0`` in a child process; ``url`` is what its first line names."""

    def __init__(self, db: Path, *args: str, startup_seconds: float = 120) -> None:
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "quiddler.cli", "serve", "--port", "0", "--db", str(db), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
        )  # fmt: skip
        lines: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()), daemon=True).start()  # type: ignore[union-attr]
        try:
            self.first_line = lines.get(timeout=startup_seconds).rstrip("\n")
        except queue.Empty:
            self.kill()
            raise AssertionError("the server printed nothing") from None
        if not self.first_line.startswith("Serving on http://"):
            self.kill()
            raise AssertionError(f"unexpected first line {self.first_line!r}: {self.stderr()}")
        self.url = self.first_line.removeprefix("Serving on ")
        self.port = int(self.url.rpartition(":")[2])
        self.ws_url = "ws://" + self.url.removeprefix("http://")

    def stderr(self) -> str:
        if self.process.poll() is None:
            return ""
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def scripted_action(view: dict[str, Any], turn_number: int = 0) -> dict[str, Any]:
    """A person's move read from the VIEW alone: draw (the pile, or the
    discard now and then), then go out when the solver says the hand can,
    else discard; a final turn lays down the best words it finds."""
    from quiddler.cards import Card
    from quiddler.solver import solve

    hand = [Card(face) for face in view["hand"]]
    if view["phase"] == "draw":
        take = view["discard_top"] is not None and (turn_number % 3 == 2 or not view["may_draw_from_pile"])
        return {"type": "draw", "source": "discard" if take else "pile"}
    solution = solve(hand, discard=True)
    if view["final_turn"]:
        play = solution.best
        assert play.discard is not None
        return {"type": "lay_down", "words": [[c.face for c in w.cards] for w in play.words],
                "discard": play.discard.face}  # fmt: skip
    out = solution.best_go_out
    if out is not None and view["may_go_out"]:
        assert out.discard is not None
        return {"type": "go_out", "words": [[c.face for c in w.cards] for w in out.words], "discard": out.discard.face}
    return {"type": "discard", "card": max(hand, key=lambda c: (c.points, c.face)).face}


def loads(text: str) -> dict[str, Any]:
    data = json.loads(text)
    assert isinstance(data, dict)
    return data
