"""Forking while another thread holds a lock: the child's view of it.

A thread of the parent that holds a lock at ``fork()`` does not exist in the
child, so a lock the child inherits held is never released there. Code that
keeps module- or class-level locks renews them after a fork; the tests of
that share this harness."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

#: What :func:`exit_code_of_child_forked_while_held` gives for a child that hung.
HUNG = -1


def exit_code_of_child_forked_while_held(lock: Any, child: Callable[[], bool], wait: float = 30.0) -> int:
    """Fork while another thread holds ``lock``; in the child run ``child()``.

    :returns: the child's exit code: 0 if ``child()`` was true, 1 if false,
        2 if it raised, :data:`HUNG` if it was still running after ``wait``
        seconds (it is then killed).
    """
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            release.wait(wait)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(wait)
    try:
        pid = os.fork()
        if pid == 0:
            try:
                os._exit(0 if child() else 1)
            finally:
                os._exit(2)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.05)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return HUNG
    finally:
        release.set()
        thread.join()
