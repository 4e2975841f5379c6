"""``quiddler play`` on a real pseudo-terminal: colour, a hint, Ctrl-C
saves, Ctrl-D resumes, and NO_COLOR gives plain text."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def run_on_terminal(args: list[str], keys: list[tuple[bytes, bytes]], env: dict[str, str] | None = None
                    ) -> tuple[int, bytes]:  # fmt: skip
    """Run ``quiddler play ARGS`` on a pseudo-terminal; for each (wait_for, keys)
    read until ``wait_for`` appears, then type ``keys``.  Returns the exit
    status and everything the terminal showed."""
    import pty
    import select
    import signal
    import sys
    import termios
    import time

    # A clean environment, as a login shell gives: nothing other tests set in this process leaks in.
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_CACHE_HOME", "QUIDDLER_CACHE_DIR", "PYTHONPATH")
    environ = {k: os.environ[k] for k in keep if k in os.environ} | {"TERM": "xterm-256color",
                                                                     "COLUMNS": "100"} | (env or {})  # fmt: skip
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        # As a shell starts a program: Ctrl-C interrupts it, whatever this test process does with
        # SIGINT just now (an ignored signal stays ignored across exec, and Python then never sees it).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a blocked one too
        os.execve(sys.executable, [sys.executable, "-m", "quiddler.cli", "play", *args], environ)
    shown = b""
    start = 0  # each marker is looked for in what appeared after the previous one
    exit_status: int | None = None

    def read_until(marker: bytes | None, timeout: float = 120.0, nudge: bytes = b"") -> None:
        """Read until ``marker`` shows (None: until the program has exited),
        typing ``nudge`` again every two seconds meanwhile (a Ctrl-D typed in
        the instant readline switches the terminal's mode can be lost).  The
        end is the program's exit, not the terminal's: a background process
        it started (the solver's compiler) may hold the terminal open."""
        nonlocal shown, start, exit_status
        deadline = time.monotonic() + timeout
        while marker is None or marker not in shown[start:]:
            if marker is None and exit_status is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    exit_status = os.waitstatus_to_exitcode(status)
            ready, _, _ = select.select([fd], [], [], 0.2 if exit_status is not None else 2.0)
            if not ready:
                if marker is None and exit_status is not None:
                    return  # exited, and everything it wrote has been read
                if time.monotonic() > deadline:
                    raise AssertionError(f"waited for {marker!r} (SIGINT here: {signal.getsignal(signal.SIGINT)}, "
                                         f"blocked: {signal.pthread_sigmask(signal.SIG_BLOCK, [])}); "
                                         f"the terminal shows:\n{shown.decode(errors='replace')}")  # fmt: skip
                if nudge and exit_status is None:
                    os.write(fd, nudge)
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal was closed
                chunk = b""
            if not chunk:
                if marker is None:
                    if exit_status is None:
                        exit_status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                    return
                raise AssertionError(f"ended before {marker!r}:\n{shown.decode(errors='replace')}")
            shown += chunk

    def wait_until_reading() -> None:
        """Until the program reads a line (its line editor has the terminal
        out of canonical mode), so that a key is typed as a person types it
        at the prompt, not in the instant the terminal's mode changes."""
        deadline = time.monotonic() + 120
        while termios.tcgetattr(fd)[3] & termios.ICANON:
            assert time.monotonic() < deadline, f"not reading input:\n{shown.decode(errors='replace')}"
            time.sleep(0.01)

    for marker, typed in keys:
        read_until(marker)
        start = shown.index(marker, start) + len(marker)
        wait_until_reading()
        os.write(fd, typed)
    read_until(None, nudge=keys[-1][1] if keys[-1][1] == b"\x04" else b"")
    os.close(fd)
    assert exit_status is not None
    return exit_status, shown


PROMPT = b"Draw: pile or discard"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_on_a_terminal_colour_hint_ctrl_c_saves_and_ctrl_d_resumes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["--seed", "2", "--rounds", "2", "--pace", "0", "--save", str(save)]
    status, shown = run_on_terminal(args, [(PROMPT, b"hint\r"), (b"Hint:", b""), (PROMPT, b"\x03")])
    text = shown.decode()
    assert status == 130, text
    assert "\x1b[" in text  # colour on a terminal
    assert "Interrupted: game saved to" in text and "Traceback" not in text
    assert not json.loads(save.read_text())["finished"]
    status, shown = run_on_terminal(["--resume", str(save), "--pace", "0"], [(PROMPT, b"\x04")])
    assert status == 0, shown.decode()
    assert "Resuming at round 1" in shown.decode() and "End of input: game saved to" in shown.decode()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a pseudo-terminal")
def test_no_color_on_a_terminal_is_plain() -> None:
    status, shown = run_on_terminal(["--seed", "2", "--pace", "0"], [(PROMPT, b"\x04")], env={"NO_COLOR": "1"})
    assert status == 0
    assert b"\x1b" not in shown and b"End of input: the game stops here" in shown
