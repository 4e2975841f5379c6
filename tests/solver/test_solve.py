"""The exact solver against the reference in ``naive.py``, and its properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiddler import (
    MAX_CARDS,
    HandTooLargeError,
    InvalidCardError,
    QuiddlerError,
    WordList,
    default_wordlist,
    find_words,
    full_deck,
    parse_hand,
    solve,
)

from .. import strategies as qst
from ..naive import NO_TARGETS, Reference, RefPlay, Targets, enable_reference, points

BACKENDS = ["python", "numba"]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory):
    """Tries of the small random word lists go to a scratch folder, not the user's
    cache; ENABLE's is loaded first, from the user's cache."""
    assert default_wordlist().card_trie.multiset_count > 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("QUIDDLER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


def solve_with(hand, targets: Targets, **kwargs):
    return solve(hand, beat_longest=targets.beat_longest, beat_words=targets.beat_words,
                 bonus=targets.bonus, **kwargs)  # fmt: skip


def key(play) -> tuple[int, bool, int, int]:
    return (play.score, play.goes_out, play.longest_word, play.word_count)


def spelled(words) -> Counter[tuple[str, tuple[str, ...]]]:
    """How often each (text, faces) occurs among found words."""
    return Counter((w.text, tuple(c.face for c in w.cards)) for w in words)


def assert_legal(play, hand, discard: bool, words, targets: Targets) -> None:
    """``play`` is a play of ``hand`` under the rules, and its numbers follow from its parts."""
    for word in play.words:
        assert word.text in words
        assert len(word.cards) >= 2
        assert "".join(card.face for card in word.cards) == word.text
    assert Counter(play.cards) == Counter(hand)
    assert (play.discard is not None) == discard
    in_words = [card.face for word in play.words for card in word.cards]
    assert play.card_score == points(in_words) - points(c.face for c in play.unused)
    assert play.longest_word == max((len(w.text) for w in play.words), default=0)
    assert play.bonus == targets.bonus_of(play.longest_word, play.word_count)
    assert play.score == play.card_score + play.bonus
    assert play.goes_out == (not play.unused)


def assert_matches_reference(solution, reference: Reference, hand, discard: bool, words,
                             targets: Targets) -> None:  # fmt: skip
    ranked = reference.ranked(hand, discard, targets)
    best = solution.best
    assert_legal(best, hand, discard, words, targets)
    assert RefPlay.of(best) in ranked
    assert key(best) == RefPlay.of(best).key(targets) == ranked[0].key(targets)
    going_out = [play for play in ranked if play.goes_out]
    assert solution.can_go_out == bool(going_out)
    if going_out:
        out = solution.best_go_out
        assert out.goes_out
        assert_legal(out, hand, discard, words, targets)
        assert RefPlay.of(out) in going_out
        assert key(out) == going_out[0].key(targets)
    else:
        assert solution.best_go_out is None


# -- against the reference -------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@given(hand=qst.mixed_hands(1, 8), discard=st.booleans())
def test_best_play_matches_reference(backend, hand, discard):
    solution = solve(hand, discard=discard, backend=backend)
    assert solution.cards == hand
    assert solution.discard_required == discard
    assert_matches_reference(solution, enable_reference(), hand, discard, default_wordlist(), NO_TARGETS)


@pytest.mark.parametrize("backend", BACKENDS)
@given(hand=qst.mixed_hands(1, 8), discard=st.booleans(), targets=qst.targets())
def test_bonus_targets_match_reference(backend, hand, discard, targets):
    solution = solve_with(hand, targets, discard=discard, backend=backend)
    assert_matches_reference(solution, enable_reference(), hand, discard, default_wordlist(), targets)


@pytest.mark.parametrize("backend", BACKENDS)
@given(words=qst.small_word_lists(), hand=qst.small_hands(1, 9), discard=st.booleans(),
       targets=st.just(NO_TARGETS) | qst.targets())  # fmt: skip
def test_custom_word_list_matches_reference(backend, words, hand, discard, targets):
    solution = solve_with(hand, targets, discard=discard, wordlist=words, backend=backend)
    assert_matches_reference(solution, Reference(words), hand, discard, words, targets)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=40)
@given(words=qst.few_face_word_lists(), hand=qst.few_face_hands(), discard=st.booleans(),
       targets=st.just(NO_TARGETS) | qst.targets())  # fmt: skip
def test_large_hands_of_few_faces_match_reference(backend, words, hand, discard, targets):
    reference = Reference(words)
    solution = solve_with(hand, targets, discard=discard, wordlist=words, backend=backend)
    assert_matches_reference(solution, reference, hand, discard, words, targets)
    assert spelled(find_words(hand, wordlist=words, backend=backend)) == Counter(reference.find_words(hand))


@pytest.mark.parametrize("backend", BACKENDS)
@given(hand=qst.mixed_hands(1, 8))
def test_find_words_matches_reference(backend, hand):
    found = find_words(hand, backend=backend)
    assert spelled(found) == Counter(enable_reference().find_words(hand))
    order = [(-w.points, -w.letters, w.text) for w in found]
    assert order == sorted(order)


@pytest.mark.parametrize("backend", BACKENDS)
@given(words=qst.small_word_lists(), hand=qst.small_hands(1, 9))
def test_find_words_custom_list_matches_reference(backend, words, hand):
    found = find_words(hand, wordlist=words, backend=backend)
    assert spelled(found) == Counter(Reference(words).find_words(hand))


# -- top K -----------------------------------------------------------------


def assert_top_matches_reference(hand, discard, top, targets, words, reference, backend) -> None:
    solution = solve_with(hand, targets, discard=discard, top=top, wordlist=words, backend=backend)
    ranked = reference.ranked(hand, discard, targets)
    plays = solution.plays
    assert len(plays) == min(top, len(ranked))
    assert plays[0] == solve_with(hand, targets, discard=discard, wordlist=words, backend=backend).best
    assert len({RefPlay.of(play) for play in plays}) == len(plays), "plays are not distinct"
    for play in plays:
        assert_legal(play, hand, discard, words or default_wordlist(), targets)
        assert key(play) == RefPlay.of(play).key(targets)
    keys = [key(play) for play in plays]
    assert keys == sorted(keys, reverse=True)
    assert sorted(play.score for play in plays) == sorted(p.score(targets) for p in ranked[:top])


@pytest.mark.parametrize("backend", BACKENDS)
@given(hand=qst.mixed_hands(1, 7), discard=st.booleans(), top=st.integers(1, 8),
       targets=st.just(NO_TARGETS) | qst.targets())  # fmt: skip
def test_top_plays_match_reference(backend, hand, discard, top, targets):
    assert_top_matches_reference(hand, discard, top, targets, None, enable_reference(), backend)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30)
@given(words=qst.few_face_word_lists(), hand=qst.few_face_hands(), discard=st.booleans(),
       top=st.integers(2, 12), targets=st.just(NO_TARGETS) | qst.targets())  # fmt: skip
def test_top_plays_of_large_hands_match_reference(backend, words, hand, discard, top, targets):
    assert_top_matches_reference(hand, discard, top, targets, words, Reference(words), backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_top_plays_example(backend):
    # 'aaaa' and 'aa'+'aa' score alike; the longer word ranks first.  Then
    # every play leaving cards over, best first.
    words = WordList(["aa", "aaaa"])
    plays = solve("a,a,a,a", wordlist=words, top=10, backend=backend).plays
    shapes = [([w.text for w in p.words], len(p.unused)) for p in plays]
    assert shapes == [(["aaaa"], 0), (["aa", "aa"], 0), (["aa"], 2), ([], 4)]
    assert [p.score for p in plays] == [8, 8, 0, -8]


# -- properties that need no reference -------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@given(hand=qst.mixed_hands(1, 12), discard=st.booleans(), targets=st.just(NO_TARGETS) | qst.targets(),
       top=st.sampled_from([1, 1, 3]), data=st.data())  # fmt: skip
def test_order_of_cards_does_not_matter(backend, hand, discard, targets, top, data):
    shuffled = data.draw(st.permutations(hand))
    first = solve_with(hand, targets, discard=discard, top=top, backend=backend)
    again = solve_with(shuffled, targets, discard=discard, top=top, backend=backend)
    assert again.plays == first.plays
    assert again.best_go_out == first.best_go_out


@settings(max_examples=40)
@given(hand=qst.mixed_hands(9, 14), discard=st.booleans(), targets=st.just(NO_TARGETS) | qst.targets())
def test_large_hands_legal_and_backends_agree(hand, discard, targets):
    compiled = solve_with(hand, targets, discard=discard, backend="numba")
    python = solve_with(hand, targets, discard=discard, backend="python")
    assert python == compiled
    for play in filter(None, (compiled.best, compiled.best_go_out)):
        assert_legal(play, hand, discard, default_wordlist(), targets)
    if compiled.best.goes_out:
        assert compiled.best_go_out == compiled.best
    elif compiled.can_go_out:
        assert key(compiled.best_go_out) < key(compiled.best)


@given(hand=qst.mixed_hands(1, 8), discard=st.booleans(), targets=st.just(NO_TARGETS) | qst.targets())
def test_backends_agree(hand, discard, targets):
    assert solve_with(hand, targets, discard=discard, backend="python") == solve_with(
        hand, targets, discard=discard, backend="numba"
    )


@pytest.mark.parametrize(("size", "discard"), [(9, True), (10, True), (9, False)])
def test_hands_that_cannot_go_out_at_once_match_reference(size, discard):
    """Hands dealt so that the compiled search's first question, can every
    card go in words (after discarding a cheapest card), is answered no:
    it then searches with leftovers, and each of its two searches takes
    the values the other has settled (a cover is the best play there is;
    a best play that leaves a card means there is no cover)."""
    rng = random.Random(size)
    deck = full_deck()
    checked = 0
    for _ in range(2000):
        hand = rng.sample(deck, size)
        rest = list(hand)
        if discard:
            rest.remove(min(hand, key=lambda card: card.points))
        if solve(rest, backend="python").can_go_out:
            continue
        checked += 1
        solution = solve(hand, discard=discard, backend="numba")
        assert_matches_reference(solution, enable_reference(), hand, discard, default_wordlist(), NO_TARGETS)
        assert solution == solve(hand, discard=discard, backend="python")
        if checked == 25:
            break
    assert checked == 25


@settings(max_examples=10)
@given(hand=qst.mixed_hands(MAX_CARDS - 2, MAX_CARDS), discard=st.booleans(),
       targets=st.just(NO_TARGETS) | qst.targets())  # fmt: skip
def test_largest_hands(hand, discard, targets):
    solution = solve_with(hand, targets, discard=discard, backend="numba")
    for play in filter(None, (solution.best, solution.best_go_out)):
        assert_legal(play, hand, discard, default_wordlist(), targets)


# -- examples --------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_eleven_card_example_scores_59_and_57_with_a_discard(backend):
    hand = parse_hand("d,cl,o,g,a,b,er,in,n,y,s")
    best = solve(hand, backend=backend).best
    assert best.score == 59
    assert best.goes_out and sum(len(w.cards) for w in best.words) == 11
    assert_legal(best, hand, False, default_wordlist(), NO_TARGETS)
    with_discard = solve(hand, discard=True, backend=backend)
    assert with_discard.best.score == 57
    assert_legal(with_discard.best, hand, True, default_wordlist(), NO_TARGETS)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bonus_targets_change_the_best_play(backend):
    words = WordList(["aa", "aaaa"])

    def best(**targets):
        play = solve("a,a,a,a", wordlist=words, backend=backend, **targets).best
        return sorted(w.text for w in play.words), play.card_score, play.bonus

    assert best() == (["aaaa"], 8, 0)  # a tie on score: the longer word wins
    assert best(beat_words=1) == (["aa", "aa"], 8, 10)
    assert best(beat_words=1, bonus=3) == (["aa", "aa"], 8, 3)
    assert best(beat_longest=3) == (["aaaa"], 8, 10)
    assert best(beat_longest=3, beat_words=1) == (["aaaa"], 8, 10)
    assert best(beat_longest=4, beat_words=2) == (["aaaa"], 8, 0)
    assert best(beat_longest=1, beat_words=0) == (["aaaa"], 8, 20)


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_letter_card_alone_is_not_a_word(backend):
    words = WordList(["in", "er"])
    alone = solve("in,er", wordlist=words, backend=backend)
    assert alone.best.words == () and alone.best.score == -14 and not alone.can_go_out
    play = solve("i,n,e,r", wordlist=words, backend=backend).best
    assert sorted(w.text for w in play.words) == ["er", "in"] and play.score == 14
    assert find_words("in,er", wordlist=words, backend=backend) == ()


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_card(backend):
    kept = solve("q", backend=backend)
    assert kept.best.unused == parse_hand("q") and kept.best.score == -15
    assert not kept.can_go_out and kept.best_go_out is None
    discarded = solve("q", discard=True, backend=backend)
    assert discarded.best.discard == parse_hand("q")[0]
    assert discarded.best.score == 0 and discarded.best.goes_out and discarded.can_go_out


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_playable_word_in_the_list(backend):
    words = WordList(["a", "i"])
    solution = solve("a,i,t", wordlist=words, backend=backend)
    assert solution.best.words == () and solution.best.score == -7
    assert find_words("a,i,t", wordlist=words, backend=backend) == ()


@pytest.mark.parametrize("backend", BACKENDS)
def test_hand_size_limit(backend):
    hand = qst.DECK[:MAX_CARDS]
    assert MAX_CARDS == 20
    assert_legal(solve(hand, backend=backend).best, hand, False, default_wordlist(), NO_TARGETS)
    with pytest.raises(HandTooLargeError) as info:
        solve(qst.DECK[: MAX_CARDS + 1], backend=backend)
    assert isinstance(info.value, QuiddlerError) and isinstance(info.value, ValueError)
    with pytest.raises(HandTooLargeError):
        find_words(qst.DECK[: MAX_CARDS + 1], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("empty", [(), [], "", "  "])
def test_empty_hand(backend, empty):
    with pytest.raises(InvalidCardError):
        solve(empty, backend=backend)
    with pytest.raises(InvalidCardError):
        find_words(empty, backend=backend)


def test_hand_given_as_text_or_strings():
    cards = parse_hand("q,u,i,t")
    assert solve("Q, u i,T") == solve(cards) == solve(["q", "u", "i", "t"])
    assert find_words("q,u,i,t") == find_words(cards)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("targets", [Targets(beat_words=1, bonus=-10), Targets(beat_longest=2, bonus=-10)])
def test_negative_bonus_is_rejected_or_exact(backend, targets):
    words = WordList(["aa", "aaaa"])
    hand = parse_hand("a,a,a,a")
    try:
        solution = solve_with(hand, targets, wordlist=words, backend=backend)
    except ValueError:
        return
    assert_matches_reference(solution, Reference(words), hand, False, words, targets)


@pytest.mark.parametrize(
    "kwargs",
    [{"top": 0}, {"top": -1}, {"beat_longest": -1}, {"beat_words": -2}, {"backend": "fortran"}],
)
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        solve("c,a,t", **kwargs)


@pytest.mark.parametrize("bad", [["c", "zz"], ["c", 3], [None]])
def test_bad_cards(bad):
    with pytest.raises(InvalidCardError):
        solve(bad)


@pytest.mark.parametrize("backend", BACKENDS)
def test_threads_get_the_answers_of_one_thread(backend):
    from concurrent.futures import ThreadPoolExecutor

    deals = [qst.DECK[i::7][:n] for i in range(7) for n in (5, 9, 12)]
    alone = [solve(hand, discard=True, backend=backend) for hand in deals]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda hand: solve(hand, discard=True, backend=backend), deals * 3))
    assert together == alone * 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_kernel_writes_a_plays_words_in_display_order_and_flags_ties(backend):
    """Each play block lists its words most points first, then most letters,
    and its ties flag says whether two words tie on both (the only case the
    caller still orders by text)."""
    import random

    from quiddler import default_wordlist, full_deck
    from quiddler.solver import _kernels as K
    from quiddler.solver._backends import get_backend
    from quiddler.solver.core import _face_counts, _memo_size, _name, _names, _params

    trie = default_wordlist().card_trie
    engine = get_backend(backend)
    rng = random.Random(11)
    deck = full_deck()
    seen_ties = seen_plain = 0
    for _ in range(150 if backend == "numba" else 40):
        hand = rng.sample(deck, rng.randint(5, 12))
        counts = _face_counts(hand)
        params = _params(len(hand), True, None, None, 10)
        out = list(engine.solve_counts(trie, counts, params, _memo_size(counts, params)))
        for ob in (0, K.OUT_BLOCK):
            if out[ob + 3] < 0:
                continue
            ranks = out[ob + K.OUT_HEAD : ob + K.OUT_HEAD + out[ob + 1]]
            keys = [(w.points, w.letters) for w in (_name(trie, r, _names(trie)) for r in ranks)]
            assert keys == sorted(keys, reverse=True), hand
            assert out[ob + K.OUT_TIES] == (len(set(keys)) < len(keys)), hand
            seen_ties += out[ob + K.OUT_TIES]
            seen_plain += len(keys) > 1 and not out[ob + K.OUT_TIES]
    assert seen_ties and seen_plain  # both cases were met
