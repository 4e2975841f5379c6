"""``quiddler serve``'s log: each notice once, in the server's log format."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")


def _serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "quiddler.cli", "serve", "--port", "0", "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline()  # "Serving on http://127.0.0.1:PORT", once it listens
    assert line.startswith("Serving on "), process.communicate()
    return process, line.split()[-1]


def _stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return err


def test_each_notice_is_logged_once(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    process, url = _serve(db)
    try:
        request = urllib.request.Request(f"{url}/api/tables", data=json.dumps({"seats": ["human", "easy"]}).encode(),
                                         headers={"Content-Type": "application/json", "Origin": url}, method="POST")  # fmt: skip
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status in (200, 201)
    finally:
        _stop(process)
    process, _ = _serve(db)  # the table is resumed, and that is said once
    try:
        err = _stop(process)
    finally:
        process.kill()
    resumed = [line for line in err.splitlines() if "resumed" in line]
    assert len(resumed) == 1 and resumed[0].endswith(f"resumed 1 table from {db}"), err
