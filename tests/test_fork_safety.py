"""A process forked while another thread of its parent is inside a
word list's cached property (loading the solver's index, say) must not
inherit that thread's lock: the child's first use of any word list would
wait for ever."""

from __future__ import annotations

import os
import sys
import threading
import time
from functools import cached_property

import pytest

from quiddler import WordList


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX only")
@pytest.mark.parametrize("name", [n for n, a in vars(WordList).items() if isinstance(a, cached_property)])
def test_a_child_forked_while_a_cached_property_is_computed_can_use_word_lists(name: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    lock = getattr(vars(WordList)[name], "lock", None)
    if lock is None:
        pytest.skip(f"Python {sys.version_info[:2]} keeps no lock in cached_property")  # pragma: no cover
    held, release = threading.Event(), threading.Event()

    def inside_the_property() -> None:  # as a thread computing it holds the shared lock
        with lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=inside_the_property)
    thread.start()
    held.wait(30)
    try:
        pid = os.fork()
        if pid == 0:  # the child: use a fresh word list's cached properties
            try:
                os.environ["QUIDDLER_CACHE_DIR"] = str(tmp_path)  # the child's card trie is cached there
                words = WordList(["cat", "dog"], name="child")
                ok = "cat" in words and len(words.digest) == 64 and words.trie.has_key("dog")
                ok = ok and words.card_trie is not None
                os._exit(0 if ok else 1)
            finally:
                os._exit(2)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung on a lock its parent's thread held")
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        release.set()
        thread.join()
