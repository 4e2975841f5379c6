"""Which word list a game record needs: the list's content hash, and the
keys records of format 1 hold instead.

A record names its word list by ``wordlist_sha256``, the SHA-256 (hex) of
the list's words, sorted in byte order, each once, each followed by a
newline (``"\\n"``).  It depends on the words alone, not on the file they
came from or on how the solver indexes them, so any tool can check it; for
a file of lowercase words, ``LC_ALL=C sort -u FILE | sha256sum`` gives it
(blank lines dropped), and for ENABLE it is the ``sha256sum`` of the shipped
``enable.txt``.

Records of format 1 (``"quiddler-game/1"``) hold instead the solver's
card-trie cache key of their day, which mixed a trie-format string into the
hash.  :func:`legacy_wordlist_keys` recomputes every key those versions
wrote, from a frozen copy of their formula, so those records keep replaying
whatever the solver's cache key becomes.
"""

from __future__ import annotations

import hashlib
import weakref

from ..wordlist import WordList

__all__ = ["legacy_wordlist_keys", "wordlist_sha256"]

# Both hashes of a list, computed once per WordList object.
_CACHE: weakref.WeakKeyDictionary[WordList, str] = weakref.WeakKeyDictionary()
_LEGACY_CACHE: weakref.WeakKeyDictionary[WordList, frozenset[str]] = weakref.WeakKeyDictionary()

# The card-trie format strings of every version that wrote format-1 records:
# "quiddler-cardtrie-1" and "-2", then "-4" with the solver's face order of
# that time.  Frozen here on purpose: never derive them from the solver.
_LEGACY_FORMATS = (
    b"quiddler-cardtrie-1",
    b"quiddler-cardtrie-2",
    b"quiddler-cardtrie-4 q,z,j,x,v,w,cl,qu,th,b,c,k,h,er,in,f,p,m,g,d,y,l,s,n,r,u,t,i,o,a,e",
)


def wordlist_sha256(wordlist: WordList) -> str:
    """The content hash a record names its word list by (see the module).

    >>> wordlist_sha256(WordList(["queen", "quit"])) == hashlib.sha256(b"queen\\nquit\\n").hexdigest()
    True
    """
    try:
        return _CACHE[wordlist]
    except KeyError:
        pass
    # A WordList keeps its words sorted, unique and joined by newlines (its
    # canonical text): no need to rebuild that from the words.
    digest = hashlib.sha256(wordlist.canonical_text + b"\n").hexdigest()
    _CACHE[wordlist] = digest
    return digest


def legacy_wordlist_keys(wordlist: WordList) -> frozenset[str]:
    """Every ``wordlist_sha256`` a format-1 record of ``wordlist`` can hold:
    SHA-256 of a trie-format string, a zero byte, and the sorted unique
    words joined by newlines (no final newline)."""
    try:
        return _LEGACY_CACHE[wordlist]
    except KeyError:
        pass
    keys = frozenset(hashlib.sha256(fmt + b"\0" + wordlist.canonical_text).hexdigest() for fmt in _LEGACY_FORMATS)
    _LEGACY_CACHE[wordlist] = keys
    return keys
