"""Word lists: loading, lookups, the shipped ENABLE file and the card-trie cache."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import quiddler.wordlist
from quiddler import (
    Card,
    QuiddlerError,
    WordList,
    WordListError,
    cache_dir,
    default_wordlist,
    find_words,
    load_wordlist,
    parse_hand,
    solve,
)

from ..hostile import hostile_path
from ..naive import spell

DATA = Path(__file__).parent.parent / "data"
SMALL = DATA / "small_words.txt"
SMALL_WORDS = ["clint", "in", "net", "quee", "queen", "rein", "ten", "tent", "the", "then"]
ENABLE = Path(quiddler.__file__).parent / "data" / "enable.txt"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty cache folder of its own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(folder))
    return folder


# -- loading ----------------------------------------------------------------


def test_load_folds_case_and_skips_blank_lines():
    words = load_wordlist(SMALL)
    assert list(words) == SMALL_WORDS  # sorted, unique, lower case
    assert len(words) == len(SMALL_WORDS)
    assert "queen" in words and "then" in words and "in" in words
    assert "Queen" not in words and "" not in words and "quee n" not in words and 3 not in words


def test_load_accepts_str_paths_and_crlf(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"Cat\r\n\r\nDOG\r\n \t \r\nbird")
    assert list(load_wordlist(str(path))) == ["bird", "cat", "dog"]


@pytest.mark.parametrize(
    ("content", "line"),
    [
        ("cat\ndo-g\n", 2),
        ("cat\n\n\nb4d\n", 4),
        ("don't\n", 1),
        ("cat\ntwo words\n", 2),
        ("ok\ncafé\n", 2),
        ("ok\nfine\nx_y", 3),
    ],
)
def test_a_line_that_is_not_a_word_names_file_and_line(tmp_path, content, line):
    path = tmp_path / "bad.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(WordListError) as info:
        load_wordlist(path)
    assert isinstance(info.value, QuiddlerError)
    message = str(info.value)
    assert str(path) in message and f"line {line}" in message


def test_invalid_utf8_names_file_and_line(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"ok\nfine\ncaf\xe9\n")
    with pytest.raises(WordListError, match="line 3"):
        load_wordlist(path)


@pytest.mark.parametrize("content", [b"", b"\n\n", b"  \n\t\n"])
def test_empty_file_is_an_error(tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    with pytest.raises(WordListError, match="empty"):
        load_wordlist(path)


def test_missing_file_or_directory_is_an_error(tmp_path):
    with pytest.raises(WordListError, match="nowhere.txt"):
        load_wordlist(tmp_path / "nowhere.txt")
    with pytest.raises(WordListError):
        load_wordlist(tmp_path)


_LOAD = """
import sys
from quiddler import WordListError, load_wordlist
try:
    load_wordlist(sys.argv[1])
except WordListError as exc:
    print(exc)
"""


def test_unreadable_file_is_an_error(tmp_path, held_to_file_modes):
    path = tmp_path / "secret.txt"
    path.write_text("cat\n")
    path.chmod(0)
    done = held_to_file_modes(_LOAD, str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"cannot read word list '{path}': Permission denied"


def _hostile_wordlist(kind: str, tmp_path: Path) -> Path:
    return hostile_path(kind, tmp_path, "words.txt")  # a 100 MB one: every line a word


@pytest.mark.timeout(60)  # a FIFO used to be waited on forever
@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "directory", "loop of links", "100 MB file"])
def test_what_is_not_a_word_list_file_is_refused_at_once_and_left_alone(kind, tmp_path):
    path = _hostile_wordlist(kind, tmp_path)
    before = os.lstat(path)
    with pytest.raises(WordListError, match=f"'{path}'") as caught:
        load_wordlist(path)
    assert str(caught.value).startswith("cannot read word list: ")
    after = os.lstat(path)
    assert (after.st_mode, after.st_size, after.st_mtime_ns) == (before.st_mode, before.st_size, before.st_mtime_ns)


def test_a_word_list_under_the_size_bound_loads(tmp_path, monkeypatch):
    path = tmp_path / "words.txt"
    path.write_text("cat\ndog\n")
    monkeypatch.setattr(quiddler.wordlist, "MAX_WORDLIST_BYTES", 8)
    assert list(load_wordlist(path)) == ["cat", "dog"]
    monkeypatch.setattr(quiddler.wordlist, "MAX_WORDLIST_BYTES", 7)
    with pytest.raises(WordListError, match="too large: 8 bytes, at most 7"):
        load_wordlist(path)


def test_word_list_from_words():
    words = WordList(["Cat", " dog ", "cat"])
    assert list(words) == ["cat", "dog"]
    with pytest.raises(WordListError):
        WordList([])
    with pytest.raises(WordListError):
        WordList(["ok", "not ok"])


# -- lookups ----------------------------------------------------------------


def test_prefixes():
    words = load_wordlist(SMALL)
    assert words.has_prefix("") and words.has_prefix("qu") and words.has_prefix("queen")
    assert words.has_prefix("TH")
    assert not words.has_prefix("queens") and not words.has_prefix("x")
    assert words.words_with_prefix("te") == ["ten", "tent"]
    assert words.words_with_prefix("Th") == ["the", "then"]
    assert words.words_with_prefix("zzz") == []
    assert words.words_with_prefix("") == SMALL_WORDS


def test_spellings():
    words = load_wordlist(SMALL)
    qu, e, n, i = Card("qu"), Card("e"), Card("n"), Card("i")
    assert set(words.spellings("queen")) == {(Card("q"), Card("u"), e, e, n), (qu, e, e, n)}
    assert words.spellings("in") == ((i, n),)  # the card 'in' alone is one card, not a word
    assert set(words.spellings("rein")) == {(Card("r"), e, i, n), (Card("r"), e, Card("in"))}
    assert words.spellings("queens") == ()
    assert words.spellings(" QUEEN ") == words.spellings("queen")


@given(words=st.lists(st.text(alphabet="aeinrtqucl", min_size=1, max_size=6), min_size=1, max_size=20),
       prefix=st.text(alphabet="aeinrtqucl", max_size=3))  # fmt: skip
def test_lookups_agree_with_the_words(words, prefix):
    wordlist = WordList(words)
    assert sorted(wordlist) == sorted(set(words)) and len(wordlist) == len(set(words))
    starting = sorted({w for w in words if w.startswith(prefix)})
    assert wordlist.words_with_prefix(prefix) == starting
    assert wordlist.has_prefix(prefix) == bool(starting)
    for word in words:
        spelled = {tuple(c.face for c in cards) for cards in wordlist.spellings(word)}
        assert spelled == {faces for faces in spell(word) if len(faces) >= 2}


@given(words=st.lists(st.text(alphabet="abcxyz", min_size=1, max_size=5), min_size=1, max_size=20),
       data=st.data())  # fmt: skip
def test_load_round_trip(tmp_path_factory, words, data):
    lines = [data.draw(st.sampled_from([w, w.upper(), w.capitalize(), f" {w} "])) for w in words]
    lines = data.draw(st.permutations(lines + ["", "  "]))
    path = tmp_path_factory.mktemp("lists") / "words.txt"
    path.write_text("\n".join(lines))
    assert list(load_wordlist(path)) == sorted(set(words))


# -- the shipped list ---------------------------------------------------------


def test_enable_is_shipped_normalised():
    raw = ENABLE.read_bytes()
    assert hashlib.md5(raw).hexdigest() == "33f2b09e2d9dfb732fa16b5f05a5a8d1"
    assert raw.endswith(b"\n") and not raw.endswith(b"\n\n")
    lines = raw.decode("ascii").split("\n")[:-1]
    assert len(lines) == 172_823
    assert lines == sorted(set(lines))
    assert all(line.isalpha() and line.islower() and line.isascii() for line in lines)
    assert (
        ENABLE.resolve().read_bytes()
        == (Path(quiddler.__file__).parent.parent / "wordlists" / "enable.txt").read_bytes()
    )


def test_default_wordlist_is_enable():
    enable = default_wordlist()
    assert default_wordlist() is enable
    assert len(enable) == 172_823
    with pytest.warns(quiddler.wordlist.UnplayableWordsWarning, match="76 words need more than 20 cards"):
        assert list(enable) == list(load_wordlist(ENABLE))
    assert "quiddler" not in enable and "queen" in enable and "zyzzyva" in enable


# -- the card-trie cache ------------------------------------------------------

HANDS = ["qu,e,e,n,t,th,e,n", "t,e,n,t,r,e,i,n", "cl,in,t,q,u,e,e,n", "er,in,th,qu", "a,b,c"]


def answers(words: WordList) -> list[object]:
    """What the solver says with ``words``, on both backends."""
    return [
        (
            solve(hand, wordlist=words, backend=backend, top=1),
            find_words(hand, wordlist=words, backend=backend),
        )
        for hand in HANDS
        for backend in ("python", "numba")
    ]


@pytest.fixture(scope="module")
def expected() -> list[object]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("QUIDDLER_CACHE_DIR", os.devnull + "/no-cache")
        return answers(load_wordlist(SMALL))


def test_expected_answers_use_the_list(expected):
    best = expected[0][0].best
    assert sorted(w.text for w in best.words) == ["queen", "then"]


def warm(words: WordList) -> None:
    """Build (or load) the card trie of ``words``, writing the cache entry."""
    assert words.card_trie.multiset_count >= 0


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def test_cache_dir_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"
    monkeypatch.delenv("QUIDDLER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "quiddler"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "quiddler"


def test_cache_is_written_once_and_reused(private_cache, expected, monkeypatch):
    assert answers(load_wordlist(SMALL)) == expected
    (entry,) = cache_files(private_cache)
    stamp = entry.stat().st_mtime_ns
    # Same words in another order and case: the same cache entry, read not rebuilt.
    monkeypatch.setattr(quiddler.wordlist, "build_card_trie", pytest.fail)
    assert answers(WordList([w.upper() for w in reversed(SMALL_WORDS)])) == expected
    assert cache_files(private_cache) == [entry] and entry.stat().st_mtime_ns == stamp


def test_another_list_gets_another_entry(private_cache):
    warm(load_wordlist(SMALL))
    warm(WordList(SMALL_WORDS[:-1]))
    assert len(cache_files(private_cache)) == 2


def damaged(pristine: bytes) -> dict[str, bytes]:
    half = len(pristine) // 2
    return {
        "empty": b"",
        "truncated header": pristine[:10],
        "truncated half": pristine[:half],
        "truncated last byte": pristine[:-1],
        "extra byte": pristine + b"\0",
        "garbage": bytes(range(256)) * (len(pristine) // 256 + 1),
        "text": b"not a trie\n",
        **{f"bit flip in header byte {i}": flip(pristine, i) for i in (0, 7, 8, 12, 16, 20, 24, 28, 32)},
        "bit flip in the middle": flip(pristine, half),
        "bit flip in the last byte": flip(pristine, len(pristine) - 1),
    }


def flip(data: bytes, index: int) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x10]) + data[index + 1 :]


@pytest.mark.parametrize("damage", list(damaged(b"x" * 64)))
def test_damaged_cache_is_rebuilt(private_cache, expected, damage):
    warm(load_wordlist(SMALL))
    (entry,) = cache_files(private_cache)
    pristine = entry.read_bytes()
    entry.write_bytes(damaged(pristine)[damage])
    assert answers(load_wordlist(SMALL)) == expected
    assert entry.read_bytes() == pristine  # rewritten


@given(index=st.integers(0, 10**6), bit=st.integers(0, 7))
def test_any_bit_flip_is_caught(tmp_path_factory, expected, index, bit):
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("QUIDDLER_CACHE_DIR", str(folder))
        warm(load_wordlist(SMALL))
        (entry,) = cache_files(folder)
        pristine = entry.read_bytes()
        index %= len(pristine)
        entry.write_bytes(pristine[:index] + bytes([pristine[index] ^ (1 << bit)]) + pristine[index + 1 :])
        assert answers(load_wordlist(SMALL)) == expected


def test_stale_cache_of_another_list_is_not_trusted(private_cache, expected, tmp_path):
    """A well-formed cache file that belongs to other words (a stale entry) is rebuilt."""
    warm(load_wordlist(SMALL))
    (entry,) = cache_files(private_cache)
    pristine = entry.read_bytes()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("QUIDDLER_CACHE_DIR", str(tmp_path / "other"))
        warm(WordList(["cat", "dog", "ten"]))
        (other,) = cache_files(tmp_path / "other")
    entry.write_bytes(other.read_bytes())
    assert answers(load_wordlist(SMALL)) == expected
    assert entry.read_bytes() == pristine


def test_cache_entry_that_is_a_folder(private_cache, expected):
    warm(load_wordlist(SMALL))
    (entry,) = cache_files(private_cache)
    entry.unlink()
    entry.mkdir()
    assert answers(load_wordlist(SMALL)) == expected
    assert entry.is_dir() and cache_files(private_cache) == [entry]  # no temporary files left


def test_unwritable_cache_folder_means_no_cache(monkeypatch, tmp_path, expected):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(blocker / "cache"))
    assert answers(load_wordlist(SMALL)) == expected
    assert answers(load_wordlist(SMALL)) == expected
    assert blocker.read_text() == ""


def test_read_only_cache_folder_means_no_cache(unwritable_folder, monkeypatch, expected):
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(unwritable_folder))
    words = load_wordlist(SMALL)
    assert answers(words) == expected
    assert cache_files(unwritable_folder) == [] and load_wordlist(SMALL).needs_indexing()


def test_a_word_needs_two_cards():
    words = WordList(["zz", "qu"])
    assert solve("z,z", wordlist=words).best.score == 28
    assert solve(parse_hand("qu"), wordlist=words).best.words == ()


def test_concurrent_builds_share_one_entry(private_cache, expected):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        lists = list(pool.map(lambda _: load_wordlist(SMALL), range(8)))
        list(pool.map(lambda words: words.card_trie, lists))  # build concurrently
    tries = [words.card_trie.to_bytes(bytes.fromhex(words.digest)) for words in lists]
    assert len(set(tries)) == 1
    (entry,) = cache_files(private_cache)  # no temporary files left behind
    assert entry.read_bytes() == tries[0]
    assert answers(load_wordlist(SMALL)) == expected


def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffcat\r\ndog\r\n".encode("utf-8"))
    words = load_wordlist(path)
    assert "cat" in words and "dog" in words and len(words) == 2


def test_needs_indexing_until_built_or_cached(private_cache):
    words = load_wordlist(SMALL)
    assert words.needs_indexing() and not words.cache_file.exists()
    assert words.card_trie.edge_count > 0
    assert not words.needs_indexing() and words.cache_file.is_file()
    assert not load_wordlist(SMALL).needs_indexing()  # a new object finds the cache
    words.cache_file.unlink()
    assert load_wordlist(SMALL).needs_indexing()


# -- hostile cache paths -----------------------------------

_PROBE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # /dev/zero must not eat the machine
from quiddler import load_wordlist, solve
words = load_wordlist(sys.argv[1])
print(solve("qu,e,e,n,t,th,e,n", wordlist=words, backend="python").best.score)
"""


def _probe_with_cache_entry(tmp_path: Path, make_entry) -> subprocess.CompletedProcess[str]:
    """Solve with SMALL in a fresh process whose cache file is ``make_entry(path)``."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("QUIDDLER_CACHE_DIR", str(folder))
        entry = load_wordlist(SMALL).cache_file
    make_entry(entry)
    env = dict(os.environ, QUIDDLER_CACHE_DIR=str(folder), PYTHONPATH=str(Path(quiddler.__file__).parent.parent))
    return subprocess.run([sys.executable, "-c", _PROBE, str(SMALL)], env=env, capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_at_the_cache_path_does_not_hang(tmp_path, expected):
    done = _probe_with_cache_entry(tmp_path, os.mkfifo)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == expected[0][0].best.score


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_link_to_dev_zero_at_the_cache_path_is_not_read(tmp_path, expected):
    done = _probe_with_cache_entry(tmp_path, lambda entry: entry.symlink_to("/dev/zero"))
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == expected[0][0].best.score


def test_a_cache_file_over_the_size_bound_is_not_read(private_cache, expected, monkeypatch):
    warm(load_wordlist(SMALL))
    (entry,) = cache_files(private_cache)
    monkeypatch.setattr(quiddler.wordlist, "MAX_CACHE_BYTES", entry.stat().st_size - 1)
    built = []
    real_build = quiddler.wordlist.build_card_trie
    monkeypatch.setattr(quiddler.wordlist, "build_card_trie", lambda words: built.append(1) or real_build(words))
    assert answers(load_wordlist(SMALL)) == expected
    assert built == [1]


def test_an_unwritable_cache_is_a_warning_naming_the_variable(monkeypatch, tmp_path, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(blocker / "cache"))
    with caplog.at_level("WARNING", logger="quiddler"):
        warm(load_wordlist(SMALL))
    (record,) = caplog.records
    assert "QUIDDLER_CACHE_DIR" in record.getMessage() and str(blocker) in record.getMessage()


# -- the cache key follows the build code -------------------------------------


def test_cache_key_is_derived_from_the_build_code():
    from quiddler import cardtrie

    source = Path(cardtrie.__file__).read_bytes()
    assert cardtrie.build_version(source) == cardtrie.BUILD_VERSION
    assert cardtrie.BUILD_VERSION.encode() in quiddler.wordlist._CACHE_FORMAT
    # Any change to the build (here one constant in the DAWG layout) is a new key.
    changed = source.replace(b"next_edge = 1  # edge 0", b"next_edge = 2  # edge 0")
    assert changed != source
    assert cardtrie.build_version(changed) != cardtrie.BUILD_VERSION


def test_cache_key_of_a_sourceless_install_still_follows_the_code(monkeypatch):
    from quiddler import cardtrie

    monkeypatch.setattr(cardtrie, "__file__", "/nonexistent/cardtrie.py")
    first = cardtrie.build_version()
    assert first == cardtrie.build_version() and first != cardtrie.BUILD_VERSION
    monkeypatch.setattr(cardtrie._build_dawg, "__code__", cardtrie.card_spellings.__code__)
    assert cardtrie.build_version() != first


# -- the card trie shipped in the wheel ----------------------------------------


def _with_prebuilt(path: Path | None) -> WordList:
    words = load_wordlist(SMALL)
    return WordList._from_validated_text(words._text, words.name, path)


def test_a_prebuilt_trie_is_used_without_building(private_cache, expected, tmp_path, monkeypatch):
    prebuilt = tmp_path / "small.cardtrie"
    words = load_wordlist(SMALL)
    prebuilt.write_bytes(words.card_trie.to_bytes(bytes.fromhex(words.digest)))
    for entry in cache_files(private_cache):
        entry.unlink()
    monkeypatch.setattr(quiddler.wordlist, "build_card_trie", pytest.fail)
    shipped = _with_prebuilt(prebuilt)
    assert not shipped.needs_indexing()
    assert answers(shipped) == expected
    assert cache_files(private_cache) == []  # nothing to cache


@pytest.mark.parametrize("damage", ["bit flip in the middle", "truncated half", "text"])
def test_a_damaged_prebuilt_trie_is_rebuilt_into_the_user_cache(private_cache, expected, tmp_path, damage):
    prebuilt = tmp_path / "small.cardtrie"
    words = load_wordlist(SMALL)
    pristine = words.card_trie.to_bytes(bytes.fromhex(words.digest))
    prebuilt.write_bytes(damaged(pristine)[damage])
    for entry in cache_files(private_cache):
        entry.unlink()
    assert answers(_with_prebuilt(prebuilt)) == expected
    (entry,) = cache_files(private_cache)
    assert entry.read_bytes() == pristine
    assert prebuilt.read_bytes() == damaged(pristine)[damage]  # the package is never written to


def test_the_trie_the_wheel_ships_is_the_one_enable_loads(tmp_path, monkeypatch):
    # What hatch_build.py writes must pass every check for ENABLE in this
    # build, or a fresh install would index the list again on first use.
    shipped = tmp_path / "enable.cardtrie"
    quiddler.wordlist.write_prebuilt_trie(default_wordlist(), shipped)
    enable = default_wordlist()
    monkeypatch.setattr(quiddler.wordlist, "build_card_trie", pytest.fail)
    loaded = WordList._from_validated_text(enable._text, enable.name, shipped)
    assert not loaded.needs_indexing()
    assert loaded.card_trie.multiset_count == 238_553  # spellings of more than 20 cards are not indexed
    assert solve("d,cl,o,g,a,b,er,in,n,y,s", wordlist=loaded, backend="python").best.score == 59


def test_enable_looks_for_its_trie_in_the_package():
    assert default_wordlist()._prebuilt == Path(quiddler.__file__).parent / "data" / "enable.cardtrie"


# -- the walk's child masks (format 4) -----------------------------------------


def test_each_edge_mask_holds_the_faces_of_its_targets_edges():
    from quiddler.cardtrie import (
        DEGREE_MASK,
        DEGREE_SHIFT,
        FACE_MASK,
        FIRST_SHIFT,
        KERNEL_PAD,
        build_card_trie,
    )

    trie = build_card_trie(load_wordlist(SMALL))
    edges, masks = trie.edges, trie.masks
    assert len(masks) == len(edges) > 1
    for e, packed in enumerate(edges):
        first = packed >> FIRST_SHIFT
        below = range(first, first + ((packed >> DEGREE_SHIFT) & DEGREE_MASK))
        assert masks[e] == sum(1 << (edges[x] & FACE_MASK) for x in below), e
    # the kernels' one array: edges, padding, masks, padding (the masks from half)
    joined = trie.kernel_edges()
    half = len(joined) // 2
    assert half == len(edges) + KERNEL_PAD
    assert list(joined[: len(edges)]) == list(edges) and list(joined[half : half + len(masks)]) == list(masks)
    assert not any(joined[len(edges) : half]) and not any(joined[half + len(masks) :])
    ranks = trie.kernel_ranks()
    assert list(ranks) == list(trie.ranks) + [0] * KERNEL_PAD


def test_a_trie_file_keeps_its_masks():
    from quiddler.cardtrie import CardTrie, build_card_trie

    trie = build_card_trie(["cat", "act", "queen", "then"])
    again = CardTrie.from_bytes(trie.to_bytes(b"src"), b"src")
    assert list(again.masks) == list(trie.masks) and list(again.edges) == list(trie.edges)
