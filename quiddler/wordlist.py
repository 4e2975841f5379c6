"""Word lists: loading, validation, the Python-side lookups and the cached card trie.

A :class:`WordList` is cheap to create: the word set, the pygtrie trie and the
solver's :class:`~quiddler.cardtrie.CardTrie` are each built on first use.
The card trie is cached on disk, keyed by a hash of the list's content, so
every later process loads it in milliseconds instead of rebuilding it.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from .cards import Card
from .cardtrie import (
    BUILD_VERSION,
    MAX_WORD_CARDS,
    MIN_WORD_CARDS,
    CardTrie,
    build_card_trie,
    card_spellings,
    fewest_cards,
    fingerprint,
)
from .errors import ArgumentTypeError, WordListError, shown
from .files import FileRefusedError, read_bytes
from .notices import logger

if TYPE_CHECKING:
    import pygtrie

__all__ = ["UnplayableWordsWarning", "WordList", "cache_dir", "default_wordlist", "load_wordlist"]

_WORD = re.compile(r"[a-z]+")
# Part of every cache key: a change to the trie build, layout or face order
# must never meet an old file (derived from the build code: see build_version).
_CACHE_FORMAT = f"quiddler-cardtrie {BUILD_VERSION}".encode("ascii")
#: The largest cache file read back (ENABLE's is about 6 MB): a damaged
#: folder holding something huge, or a link to /dev/zero, costs nothing.
MAX_CACHE_BYTES = 256 << 20
#: The largest word list file read (ENABLE is 1.7 MB): a link to /dev/zero or
#: a huge file by mistake is refused at once instead of filling memory.
MAX_WORDLIST_BYTES = 32 << 20
#: The card trie of the shipped ENABLE list, built when the wheel is built
#: (see hatch_build.py); absent in a source checkout.
PACKAGED_ENABLE_TRIE = Path(__file__).parent / "data" / "enable.cardtrie"


class UnplayableWordsWarning(UserWarning):
    """A word list holds words that need more cards than any hand holds
    (:data:`~quiddler.cardtrie.MAX_WORD_CARDS`); they stay in the list
    (``word in words`` is true) but the solver never offers them."""


def _warn_unplayable(words: Iterable[str], name: str) -> None:
    """Warn once per list, with a count, about words no hand can lay down.
    Only long words are looked at, so this costs next to nothing."""
    unplayable = [w for w in words if len(w) > MAX_WORD_CARDS and fewest_cards(w) > MAX_WORD_CARDS]
    if unplayable:
        example = min(unplayable, key=len)
        many = len(unplayable) != 1
        warnings.warn(UnplayableWordsWarning(
            f"word list {name}: {len(unplayable):,} word{'s' if many else ''} need{'' if many else 's'} more than "
            f"{MAX_WORD_CARDS} cards and can never be played (such as {shown(example)}); the solver skips them"
        ), stacklevel=3)  # fmt: skip


def cache_dir() -> Path:
    """Where compiled word lists are cached: ``$QUIDDLER_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/quiddler``, else ``~/.cache/quiddler``.

    :returns: The folder (it need not exist yet).
    """
    explicit = os.environ.get("QUIDDLER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "quiddler"


class WordList:
    """An agreed list of playable words.

    Build one from words (``WordList(["cat", "dog"])``) or load one with
    :func:`load_wordlist`.  Words are plain lowercase a-z; a word is playable
    only if it can be spelled with at least two cards.  ``word in words``,
    ``len(words)`` and iteration (sorted) work as for a set of strings.
    Words that need more cards than any hand holds stay in the list, with an
    :class:`UnplayableWordsWarning`.

    >>> words = WordList(["queen", "in", "at"])
    >>> "queen" in words, "quee" in words
    (True, False)
    >>> words.spellings("queen")
    ((Card('q'), Card('u'), Card('e'), Card('e'), Card('n')), (Card('qu'), Card('e'), Card('e'), Card('n')))

    :param words: The words, any case; surrounding blanks are ignored and
        duplicates count once.
    :param name: What messages call the list (a file's path, say).
    :ivar name: What messages call the list: ``"ENABLE"``, a file's path or
        the ``name`` given.
    :raises ArgumentTypeError: ``words`` is one string rather than an
        iterable of them, or holds something that is not a string.
    :raises WordListError: A word is not plain a-z letters, or there is none.
    """

    def __init__(self, words: Iterable[str], *, name: str = "<words>") -> None:
        if isinstance(words, (str, bytes)):
            raise ArgumentTypeError(f"WordList() takes an iterable of words, not one {type(words).__name__} "
                                    f"{shown(words)}: WordList([...]), or load_wordlist(path) for a file")  # fmt: skip
        cleaned = []
        for number, word in enumerate(words, 1):
            if not isinstance(word, str):
                raise ArgumentTypeError(f"WordList() words must be str, not {type(word).__name__} {shown(word)} "
                                        f"(word {number})")
            folded = word.strip().lower()
            if not _WORD.fullmatch(folded):
                raise WordListError(f"not a plain a-z word: {shown(word)}")
            cleaned.append(folded)
        if not cleaned:
            raise WordListError(f"word list {name} is empty")
        self.name = name
        unique = sorted(set(cleaned))
        _warn_unplayable(unique, name)
        self._text = "\n".join(unique).encode("ascii")
        self._prebuilt: Path | None = None

    @classmethod
    def _from_validated_text(cls, text: bytes, name: str, prebuilt: Path | None = None) -> WordList:
        wordlist = cls.__new__(cls)
        wordlist.name = name
        wordlist._text = text
        wordlist._prebuilt = prebuilt
        return wordlist

    @property
    def canonical_text(self) -> bytes:
        """The list as one ASCII text: its distinct words, lower case, sorted,
        one a line.  Two lists with the same words have the same text; it is
        what the list's hashes are taken over, and what
        :meth:`from_canonical_text` rebuilds the list from (in another
        process, say) without checking every word again."""
        return self._text

    @classmethod
    def from_canonical_text(cls, text: bytes, name: str) -> WordList:
        """The list whose :attr:`canonical_text` is ``text``, named ``name``.
        ``text`` must come from :attr:`canonical_text` (its words are not
        checked again): for a list of unknown origin use :class:`WordList`
        or :func:`load_wordlist`.

        :param text: A list's :attr:`canonical_text`.
        :param name: The new list's :attr:`name`.
        :returns: The list.
        :raises ArgumentTypeError: ``text`` is not bytes.
        """
        if not isinstance(text, bytes):
            raise ArgumentTypeError(f"canonical text must be bytes, not {type(text).__name__}")
        return cls._from_validated_text(text, name)

    # -- the words themselves ------------------------------------------------

    @cached_property
    def _words(self) -> frozenset[str]:
        return frozenset(self._text.decode("ascii").split())

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._words))

    def __repr__(self) -> str:
        return f"<WordList {self.name}>"

    @cached_property
    def trie(self) -> pygtrie.CharTrie:
        """A pygtrie ``CharTrie`` of the words (built on first use: ~1 s for ENABLE)."""
        import pygtrie

        trie = pygtrie.CharTrie()
        for word in self._words:
            trie[word] = True
        return trie

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (the word itself counts).

        :param prefix: Letters, any case.
        :returns: True if a word of the list starts with them.
        """
        return bool(self.trie.has_node(prefix.lower()))

    def words_with_prefix(self, prefix: str) -> list[str]:
        """Every word starting with ``prefix``, sorted.

        :param prefix: Letters, any case.
        :returns: The words (the prefix itself among them if it is a word).
        """
        prefix = prefix.lower()
        if not self.trie.has_node(prefix):
            return []
        return sorted(self.trie.iterkeys(prefix))

    def spellings(self, word: str) -> tuple[tuple[Card, ...], ...]:
        """Every way to lay ``word`` down with cards (two to
        :data:`~quiddler.cardtrie.MAX_WORD_CARDS` cards); empty if the word
        is not in the list.

        :param word: The word, any case.
        :returns: Each spelling as a tuple of cards.
        """
        word = word.strip().lower()
        if word not in self:
            return ()
        return tuple(
            tuple(Card(face) for face in spelling)
            for spelling in card_spellings(word, max_cards=MAX_WORD_CARDS)
            if len(spelling) >= MIN_WORD_CARDS
        )

    # -- the solver's index --------------------------------------------------

    @cached_property
    def digest(self) -> str:
        """A fingerprint of the normalised list and of the trie's build
        (:func:`~quiddler.cardtrie.fingerprint`): identifies it in the cache."""
        return fingerprint(_CACHE_FORMAT + b"\0" + self._text)

    @property
    def cache_file(self) -> Path:
        """Where the compiled card trie of this list is cached."""
        return cache_dir() / f"cardtrie-{self.digest[:32]}.bin"

    def needs_indexing(self) -> bool:
        """True if using the solver on this list will first build its card
        trie (a few seconds for ENABLE): not built in this process and not
        in the cache.  The command line uses it to say what it is doing.

        :returns: Whether the first solve on this list builds its index.
        """
        if "card_trie" in self.__dict__:
            return False
        return not any(path is not None and path.is_file() for path in (self._prebuilt, self.cache_file))

    @cached_property
    def card_trie(self) -> CardTrie:
        """The solver's card-multiset DAWG: the one shipped in the package
        (ENABLE), else the disk cache's, else built and cached.  A file is
        used only if it is a regular file of sane size that passes every
        check of :meth:`CardTrie.from_bytes` (checksum, this list's hash,
        this build's version, shape); anything else is rebuilt."""
        source = bytes.fromhex(self.digest)
        for path in (self._prebuilt, self.cache_file):
            data = _read_regular_file(path, MAX_CACHE_BYTES) if path is not None else None
            if data is not None:
                try:
                    return CardTrie.from_bytes(data, source)
                except ValueError:
                    pass  # damaged, stale or another list's: try the next, or rebuild
        trie = build_card_trie(self._text.decode("ascii").split())
        problem = _write_atomically(self.cache_file, trie.to_bytes(source))
        if problem is not None:
            logger("quiddler.wordlist").warning("cannot cache the indexed word list %s in %s (%s), so every run indexes it again; "
                        "set QUIDDLER_CACHE_DIR to a writable folder", self.name, self.cache_file.parent,
                        problem)  # fmt: skip
        return trie


def _read_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit``
    bytes, else None: a FIFO in its place is not waited on and a link to
    /dev/zero is not read (see :func:`quiddler.files.read_bytes`)."""
    try:
        return read_bytes(path, limit=limit)
    except OSError:
        return None


def _write_atomically(path: Path, data: bytes) -> str | None:
    """Write the cache file via a temporary file and a rename, so a reader
    never sees half a file.  Returns None, or why it could not be written
    (then there is simply no cache)."""
    import tempfile  # here, not at the top: only a process that builds a card trie writes one

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def load_wordlist(path: str | os.PathLike[str]) -> WordList:
    """Load a word list file: one word per line, any case; blank lines are
    skipped.  A line that is not plain a-z letters is an error naming the file
    and the line number.
    Words that need more cards than any hand holds stay in the list, with an
    :class:`UnplayableWordsWarning`.

    :param path: The file.
    :returns: The list, named by ``path``.
    :raises WordListError: The file is missing, unreadable, not UTF-8 text,
        empty or holds a line that is not a word.
    """
    path = Path(path)
    try:
        raw = read_bytes(path, limit=MAX_WORDLIST_BYTES)
    except FileNotFoundError:
        raise WordListError(f"word list not found: '{path}'") from None
    except FileRefusedError as exc:
        raise WordListError(f"cannot read word list: {exc}") from None
    except OSError as exc:
        raise WordListError(f"cannot read word list '{path}': {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the name
        raise WordListError(f"cannot read word list {shown(str(path))}: {exc}") from None
    return _parse(raw, str(path))


def _parse(raw: bytes, name: str) -> WordList:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"{name}, line {bad_line}: not valid UTF-8 text") from None
    lines = text.removeprefix("\ufeff").lower().split("\n")  # a byte-order mark is not a word
    words = set()
    for number, line in enumerate(lines, 1):
        word = line.strip()
        if not word:
            continue
        if not _WORD.fullmatch(word):
            raise WordListError(f"{name}, line {number}: not a plain a-z word: {shown(line.strip())}")
        words.add(word)
    if not words:
        raise WordListError(f"word list is empty: '{name}'")
    unique = sorted(words)
    _warn_unplayable(unique, name)
    return WordList._from_validated_text("\n".join(unique).encode("ascii"), name)


def write_prebuilt_trie(words: WordList, path: Path) -> None:
    """Build the card trie of ``words`` and write it to ``path`` in the cache
    format, keyed for this list and this build: what the wheel build hook
    ships as ENABLE's trie (``hatch_build.py``)."""
    trie = build_card_trie(words._text.decode("ascii").split())
    path.write_bytes(trie.to_bytes(bytes.fromhex(words.digest)))


_default: WordList | None = None


def default_wordlist() -> WordList:
    """ENABLE, the public-domain list shipped with quiddler (172,823 words);
    loaded once per process.

    :returns: The same list on every call.
    """
    global _default
    if _default is None:
        raw = (Path(__file__).parent / "data" / "enable.txt").read_bytes()
        # The shipped file is already normalised (sorted, unique, lowercase;
        # a test checks it), so skip the 100+ ms of parsing every process.
        _default = WordList._from_validated_text(raw.rstrip(b"\n"), "ENABLE", PACKAGED_ENABLE_TRIE)
    return _default


def _renew_cached_property_locks() -> None:
    """In a forked child: renew the locks of WordList's cached properties.

    On Python 3.11 each ``cached_property`` holds one lock, shared by every
    instance, while it computes (``card_trie`` loads or builds the solver's
    index); a child forked while another thread of the parent held it would
    wait for ever on its first ``card_trie``, ``digest`` or ``in``.  (Later
    Pythons keep no such lock.)"""
    import threading

    for attribute in vars(WordList).values():
        if isinstance(attribute, cached_property) and hasattr(attribute, "lock"):
            attribute.lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_renew_cached_property_locks)
