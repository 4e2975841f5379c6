"""The library's limits and bad input: huge ``top``, bounded
numbers, the search's memory bound, type errors naming the argument, caches
that die with their word list, and word lists no hand can exhaust."""

from __future__ import annotations

import gc
import time
import tracemalloc
import warnings
import weakref
from pathlib import Path

import pytest

from quiddler import (
    HandTooLargeError,
    InvalidArgumentError,
    InvalidCardError,
    QuiddlerError,
    Solver,
    UnplayableWordsWarning,
    WordList,
    WordListError,
    default_wordlist,
    find_words,
    load_wordlist,
    parse_hand,
    score_many,
    solve,
    solve_many,
)
from quiddler.cardtrie import MAX_WORD_CARDS, card_spellings
from quiddler.solver import core
from quiddler.solver._backends import get_backend

from ..naive import NO_TARGETS, Reference, RefPlay

BACKENDS = ["python", "numba"]
#: Twenty distinct faces: the largest search a 20-card hand can need.
DISTINCT_20 = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c,h,y,er,th"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(tmp_path / "cache"))


# -- top=K and the tie gap ---------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("top", [10**6, 10**9, 10**20])
def test_huge_top_is_sized_by_the_plays_that_exist(backend, top):
    # Used to allocate `top` result blocks: MemoryError, OverflowError, or 4 GB.
    words = WordList(["ab", "ba", "at"])
    solution = solve("a,b,t", top=top, wordlist=words, backend=backend)
    expected = Reference(words).ranked(parse_hand("a,b,t"), False, NO_TARGETS)
    assert len(solution.plays) == len(expected) == 3  # ab + t, at + b, all left over
    assert sorted(p.score for p in solution.plays) == sorted(p.score() for p in expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_top_grows_past_its_first_guess(backend, monkeypatch):
    monkeypatch.setattr(core, "_FIRST_TOP", 2)
    hand = parse_hand("a,e,r,s,t")
    every = solve(hand, top=1000, backend=backend).plays
    monkeypatch.undo()
    assert every == solve(hand, top=1000, backend=backend).plays
    assert len(every) > 2 * 16  # grew twice


@pytest.mark.parametrize("backend", BACKENDS)
def test_more_plays_than_top_can_list_is_a_clear_error(backend, monkeypatch):
    monkeypatch.setattr(core, "MAX_TOP_PLAYS", 5)
    hand = "a,e,r,s,t"
    assert len(solve(hand, top=5, backend=backend).plays) == 5  # at the limit: fine
    with pytest.raises(ValueError, match="more than 5 distinct plays"):
        solve(hand, top=6, backend=backend)
    assert len(solve("a,b", top=10**9, backend=backend).plays) == 2  # few plays: any K


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("top", [2, 3])
def test_top_when_more_plays_tie_for_the_best_than_k(backend, top):
    # a,b,c,d go out three ways, all alike: 2 words of 2 letters, same points.
    words = WordList(["ab", "cd", "ac", "bd", "ad", "bc"])
    hand = parse_hand("a,b,c,d")
    reference = Reference(words).ranked(hand, False, NO_TARGETS)
    tied = {play for play in reference if play.key() == reference[0].key()}
    assert len(tied) == 3
    solution = solve(hand, top=top, wordlist=words, backend=backend)
    assert len(solution.plays) == top
    assert solution.plays[0] == solve(hand, wordlist=words, backend=backend).best
    found = [RefPlay.of(play) for play in solution.plays]
    assert len(set(found)) == top and set(found) <= tied


@pytest.fixture
def compiled_loaded():
    solve("a,b", top=2, backend="numba")  # compiling the kernels is not the test's time


@pytest.mark.timeout(60, func_only=True)
def test_top_on_a_20_card_hand_does_not_visit_every_tied_play(compiled_loaded):
    # Every play tied on score with the 10th was visited: over 2 minutes here.
    hand = parse_hand("a,e,e,i,o,r,s,t,n,l,a,d,u,e,g,th,er,y,o,t")
    solution = solve(hand, top=10, backend="numba")
    keys = [(p.score, p.goes_out, p.longest_word, p.word_count) for p in solution.plays]
    assert len(set(solution.plays)) == 10 and keys == sorted(keys, reverse=True)
    assert solution.plays[0] == solve(hand, backend="numba").best
    for play in solution.plays:
        assert sorted(play.cards) == sorted(hand)
        assert all(word.text in default_wordlist() for word in play.words)


# -- the compiled word search past its first buffer ----------------------------------


def test_compiled_find_words_on_a_20_card_hand_matches_python():
    hand = "a,e,i,o,u,r,s,t,l,n,e,a,s,t,r,d,i,o,p,c"
    compiled = find_words(hand, backend="numba")
    # More card multisets than the first words buffer holds (4096 words).
    assert len({tuple(sorted(w.cards)) for w in compiled}) > 4096
    assert compiled == find_words(hand, backend="python")


# -- numbers in range ---------------------------------------------------


@pytest.mark.parametrize("bonus", [core.MAX_BONUS + 1, 2**55, 10**20])
def test_huge_bonus_is_rejected_naming_the_limit(bonus):
    for call in (lambda: solve("q,u,i,t", beat_words=0, bonus=bonus),
                 lambda: score_many(["q,u,i,t,e,a,t,s"], beat_words=0, bonus=bonus),
                 lambda: solve_many(["q,u,i,t"], bonus=bonus)):  # fmt: skip
        with pytest.raises(ValueError, match=f"bonus must be at most {core.MAX_BONUS:,}"):
            call()


def test_the_largest_bonus_is_exact_on_every_path():
    # score_many packed bonus=2**55 into an int64 key and returned 34.
    hands = ["q,u,i,t,e,a,t,s", "a,b"]
    expected = [solve(h, beat_words=0, bonus=core.MAX_BONUS, backend="python") for h in hands]
    assert expected[0].best.bonus == core.MAX_BONUS
    assert solve_many(hands, beat_words=0, bonus=core.MAX_BONUS) == expected
    assert score_many(hands, beat_words=0, bonus=core.MAX_BONUS) == [
        (s.best.score, s.best_go_out.score if s.best_go_out else None) for s in expected
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_unreachable_targets_of_any_size(backend):
    plain = solve("q,u,i,t,e", beat_longest=40, beat_words=10, backend=backend)
    huge = solve("q,u,i,t,e", beat_longest=10**30, beat_words=10**30, backend=backend)
    assert huge == plain and huge.best.bonus == 0
    assert score_many(["q,u,i,t,e"], beat_longest=10**30) == [(plain.best.score, plain.best_go_out.score)]


# -- type errors name the argument ---------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, fragment",
    [
        ({"wordlist": "words.txt"}, TypeError, "wordlist must be a WordList"),
        ({"wordlist": Path("words.txt")}, TypeError, "load_wordlist"),
        ({"discard": "0"}, TypeError, "discard must be True or False"),
        ({"discard": 2}, TypeError, "discard"),
        ({"bonus": 1.5}, TypeError, "bonus must be an integer"),
        ({"bonus": "10"}, TypeError, "bonus"),
        ({"top": 2.0}, TypeError, "top must be an integer"),
        ({"top": True}, TypeError, "top"),
        ({"beat_longest": 2.5}, TypeError, "beat_longest"),
        ({"beat_words": "1"}, TypeError, "beat_words"),
        ({"beat_words": -1}, ValueError, "beat_words must be at least 0"),
        ({"backend": ["numba"]}, TypeError, "backend"),
    ],
)
def test_bad_solve_arguments_are_named(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        solve("c,a,t", **kwargs)


def test_discard_takes_bools_and_zero_or_one():
    assert solve("c,a,t,s", discard=1) == solve("c,a,t,s", discard=True)
    assert solve("c,a,t,s", discard=0).discard_required is False


def test_bad_arguments_of_the_other_entry_points():
    with pytest.raises(TypeError, match="wordlist"):
        find_words("c,a,t", wordlist="words.txt")
    with pytest.raises(TypeError, match="wordlist"):
        solve_many(["c,a,t"], wordlist="words.txt")
    with pytest.raises(TypeError, match="discard"):
        score_many(["c,a,t"], discard="yes")
    with pytest.raises(TypeError, match="hands must be an iterable of hands"):
        solve_many("c,a,t")  # one str: not three hands 'c', ',' and 'a'...
    with pytest.raises(TypeError, match="threads"):
        solve_many(["c,a,t"], threads=1.5)
    with pytest.raises(TypeError, match="cards must be a str or an iterable of cards"):
        solve(None)


@pytest.mark.parametrize("bad", [[1, 2], ["a", None], [b"a"]])
def test_parse_hand_of_non_cards(bad):
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_hand(bad)


@pytest.mark.parametrize("bad", [None, 5])
def test_parse_hand_of_a_non_iterable(bad):
    with pytest.raises(TypeError, match="cards must be a str or an iterable of cards"):
        parse_hand(bad)


@pytest.mark.parametrize("text", ["a  b", "a\t\tb", "a ,  b", "  a \n\n b  "])
def test_several_blanks_in_a_row_are_one_separator(text):
    assert parse_hand(text) == parse_hand("a,b")


def test_wordlist_type_errors():
    with pytest.raises(TypeError, match="iterable of words, not one str"):
        WordList("queen")  # would have been the list {q, u, e, n}
    with pytest.raises(TypeError, match="word 2"):
        WordList(["cat", None])
    with pytest.raises(TypeError, match="must be str"):
        WordList([b"cat"])


def test_long_bad_tokens_are_shortened():
    token = "z" * 100_000
    for call in (lambda: parse_hand(f"a,{token}"), lambda: WordList([token + "1"])):
        with pytest.raises(QuiddlerError) as info:
            call()
        assert len(str(info.value)) < 120 and "100,00" in str(info.value)


# -- the memory bound ------------------------------------------------------


def test_the_search_has_a_memory_bound_naming_the_limit(monkeypatch):
    hand = DISTINCT_20
    # 20 distinct faces and both targets: a 1.8 GB memo, about the most any hand needs.
    assert 8 * core._memo_size(core._face_counts(parse_hand(hand)), core._params(20, True, 20, 8, 10)) > 1.5e9
    assert core.max_memory_bytes() == core.DEFAULT_MAX_MEMORY_MB << 20
    monkeypatch.setenv(core.MEMORY_ENV, "64")
    monkeypatch.setattr(core, "_DEFAULT_SOLVERS", {})  # default Solvers made from now on read the setting
    for call in (lambda: solve(hand, discard=True, beat_longest=20, beat_words=8, backend="python"),
                 lambda: solve(hand, discard=True, beat_longest=20, beat_words=8, backend="numba"),
                 lambda: score_many([hand], discard=True, beat_longest=20, beat_words=8)):  # fmt: skip
        with pytest.raises(HandTooLargeError, match=r"with these bonus targets needs 1,\d{3} MB, over the limit "
                                                    r"of 64 MB \(set QUIDDLER_MAX_MEMORY_MB"):  # fmt: skip
            call()
    assert solve("q,u,i,t", beat_words=0).best.words  # a normal hand is far below any bound


@pytest.mark.parametrize("value", ["lots", "0", "-3"])
def test_a_bad_memory_setting_is_named(monkeypatch, value):
    monkeypatch.setenv(core.MEMORY_ENV, value)
    monkeypatch.setattr(core, "_DEFAULT_SOLVERS", {})
    with pytest.raises(InvalidArgumentError, match=core.MEMORY_ENV):
        solve("c,a,t")
    with pytest.raises(ValueError, match=core.MEMORY_ENV):
        Solver(backend="python")


def test_search_size_measures_the_memo():
    assert core.search_size("a,b") == 4
    assert core.search_size(DISTINCT_20) == 2**20
    assert core.search_size(DISTINCT_20, beat_longest=5, beat_words=2) == 2**20 * 4 * 2


# -- caches die with their word list ------------------------------------------


def _solve_with_fresh_lists(count: int, size: int) -> list[weakref.ref]:
    refs = []
    for i in range(count):
        words = WordList([f"{a}{b}{c}" for a in "aeiost" for b in "rnltcd" for c in "aeiou"][:size] + ["cat"],
                         name=f"list {i}")  # fmt: skip
        for backend in BACKENDS:
            solve("c,a,t,s,e,r,o", wordlist=words, backend=backend)
        solve_many(["c,a,t", "r,o,s,e"], wordlist=words)
        refs.append(weakref.ref(words.card_trie))
    return refs


def test_solving_with_many_word_lists_does_not_keep_them():
    # Each list used to stay alive in core._NAMES and NumbaBackend._tries.
    gc.collect()
    before = len(core._NAMES), len(get_backend("numba")._tries)  # lists other tests still hold
    refs = _solve_with_fresh_lists(5, 180)
    gc.collect()
    assert all(ref() is None for ref in refs)
    assert len(core._NAMES) <= before[0] and len(get_backend("numba")._tries) <= before[1]


def test_memory_does_not_grow_with_the_number_of_lists():
    _solve_with_fresh_lists(3, 180)  # warm: compiled kernels, scratch buffers
    gc.collect()
    tracemalloc.start()
    try:
        _solve_with_fresh_lists(3, 180)
        gc.collect()
        after_few, _ = tracemalloc.get_traced_memory()
        _solve_with_fresh_lists(30, 180)
        gc.collect()
        after_many, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after_many - after_few < 200_000  # 27 more lists, each ~100 kB when kept


# -- word lists no hand can exhaust -----------------------------------------


def test_a_thousand_letter_word_is_skipped_not_a_recursion_error():
    with pytest.warns(UnplayableWordsWarning, match="1 word needs more than 20 cards"):
        words = WordList(["a" * 1000, "at", "cat"])
    assert "a" * 1000 in words
    assert words.spellings("a" * 1000) == ()
    assert solve("c,a,t", wordlist=words).best.score == 13
    assert words.words_with_prefix("aaa") == ["a" * 1000]


def test_a_word_of_many_two_letter_cards_is_fast():
    started = time.perf_counter()
    with pytest.warns(UnplayableWordsWarning, match="1 word needs"):
        words = WordList(["in" * 22, "in" * 20, "th" * 14, "at"])  # 2**22 spellings, none playable
    assert words.card_trie.multiset_count > 0
    assert time.perf_counter() - started < 20  # was 47 s and 650 MB (a hang, in a test)
    assert [len(s) for s in words.spellings("in" * 20)] == [20]  # only the all-'in' spelling fits
    assert len(words.spellings("th" * 14)) == sum(1 for s in card_spellings("th" * 14) if len(s) <= 20) == 6476
    assert solve(",".join(["in"] * 20), wordlist=words).best.words[0].text == "in" * 20


def test_no_spelling_of_more_than_twenty_cards_is_indexed():
    with pytest.warns(UnplayableWordsWarning):
        words = WordList(["abcdefghijklmnopqrstu", "thththththththththththa"])  # 21 cards; 12..23 cards
    trie = words.card_trie
    lengths = {len(faces) for rank in range(trie.multiset_count) for faces in trie.spellings_of(rank)}
    assert max(lengths) == MAX_WORD_CARDS
    assert words.spellings("abcdefghijklmnopqrstu") == ()


def test_loading_a_list_with_unplayable_words_says_how_many(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("cat\n" + "x" * 21 + "\n" + "y" * 30 + "\nat\n")
    with pytest.warns(UnplayableWordsWarning, match=r"words.txt: 2 words need more than 20 cards"):
        words = load_wordlist(path)
    assert len(words) == 4
    (tmp_path / "ok.txt").write_text("cat\n" + "th" * 20 + "\n")  # 40 letters, 20 cards: playable
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_wordlist(tmp_path / "ok.txt")


def test_a_bad_word_list_line_is_still_an_error():
    with pytest.raises(WordListError):
        WordList(["c-at"])


def test_a_deck_deals_only_a_whole_number_of_cards():
    import random

    from quiddler import Deck

    deck = Deck(random.Random(1))
    with pytest.raises(ValueError, match="negative"):
        deck.deal(-1)  # used to deal 117 cards
    with pytest.raises(TypeError, match="integer"):
        deck.deal(2.5)
    assert len(deck) == 118 and len(deck.deal(0)) == 0
