"""A process forked while another thread of its parent is inside a
word list's cached property (loading the solver's index, say) must not
inherit that thread's lock: the child's first use of any word list would
wait for ever."""

from __future__ import annotations

import os
import sys
from functools import cached_property

import pytest

from quiddler import WordList

from .forking import HUNG, exit_code_of_child_forked_while_held


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() is POSIX only")
@pytest.mark.parametrize("name", [n for n, a in vars(WordList).items() if isinstance(a, cached_property)])
def test_a_child_forked_while_a_cached_property_is_computed_can_use_word_lists(name: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    lock = getattr(vars(WordList)[name], "lock", None)
    if lock is None:
        pytest.skip(f"Python {sys.version_info[:2]} keeps no lock in cached_property")  # pragma: no cover
    def child() -> bool:  # use a fresh word list's cached properties
        os.environ["QUIDDLER_CACHE_DIR"] = str(tmp_path)  # the child's card trie is cached there
        words = WordList(["cat", "dog"], name="child")
        return "cat" in words and len(words.digest) == 64 and words.trie.has_key("dog") and words.card_trie is not None

    code = exit_code_of_child_forked_while_held(lock, child)
    assert code != HUNG, "the forked child hung on a lock its parent's thread held"
    assert code == 0
