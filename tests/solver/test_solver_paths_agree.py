"""Every way to the solver gives the same answer: a prepared :class:`Solver`
and the module-level functions, every form of a hand, every backend's
branches; bad arguments raise the same errors, of the library's classes."""

from __future__ import annotations

import gc
import os
import pickle
import random
import threading

import pytest

from quiddler import (
    ArgumentTypeError,
    Card,
    InvalidArgumentError,
    InvalidCardError,
    QuiddlerError,
    Solver,
    WordList,
    default_wordlist,
    find_words,
    full_deck,
    parse_hand,
    score_many,
    solve,
    solve_many,
)
from quiddler.errors import HandTooLargeError
from quiddler.solver import _backends, core, score_counts, search_size
from quiddler.solver._backends import AutoBackend, NumbaBackend, PythonBackend, get_backend
from quiddler.solver.types import Play, Solution, Word

HAND = "d,cl,o,g,a,b,er,in,n,y,s"


def _deals(count: int, size: int, seed: int = 9) -> list[list[Card]]:
    rng = random.Random(seed)
    deck = full_deck()
    return [rng.sample(deck, size) for _ in range(count)]


# -- value objects ---------------------------------------------


def _rebuilt(solution: Solution) -> Solution:
    """The same solution through the dataclass constructors."""
    plays = tuple(Play(words=p.words, unused=p.unused, discard=p.discard, bonus=p.bonus)
                  for p in solution.plays)  # fmt: skip
    go_out = solution.best_go_out
    if go_out is not None:
        go_out = Play(words=go_out.words, unused=go_out.unused, discard=go_out.discard, bonus=go_out.bonus)
    return Solution(cards=solution.cards, discard_required=solution.discard_required, plays=plays,
                    best_go_out=go_out)  # fmt: skip


def test_values_made_slot_by_slot_are_the_dataclass_values():
    import dataclasses

    from quiddler.solver.types import make_play, make_solution, make_word

    cat = Word("cat", tuple(parse_hand("c,a,t")))
    made = make_word("cat", tuple(parse_hand("c,a,t")))
    assert type(made) is Word and made == cat and hash(made) == hash(cat) and repr(made) == repr(cat)
    assert pickle.loads(pickle.dumps(made)) == cat and dataclasses.astuple(made) == dataclasses.astuple(cat)
    fast = make_play((cat,), (Card("q"),), Card("z"), 3)
    plain = Play(words=(cat,), unused=(Card("q"),), discard=Card("z"), bonus=3)
    assert type(fast) is Play and fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert dataclasses.astuple(fast) == dataclasses.astuple(plain)
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert dataclasses.replace(fast, bonus=4) == Play((cat,), (Card("q"),), Card("z"), 4)
    solution = make_solution(tuple(parse_hand("c,a,t,q,z")), True, (fast,), None)
    assert solution == Solution(tuple(parse_hand("c,a,t,q,z")), True, (plain,), None)
    assert hash(solution) == hash(Solution(tuple(parse_hand("c,a,t,q,z")), True, (plain,), None))
    for value, field in ((fast, "bonus"), (solution, "plays")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, ())
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, field)
    assert not hasattr(fast, "__dict__")  # still slotted: no attribute can be added


def test_a_named_word_is_its_first_spelling():
    trie = get_trie()
    rng = random.Random(5)
    names: core._Names = ({}, {})
    for rank in [0, 1, trie.multiset_count - 1, *rng.sample(range(trie.multiset_count), 3000)]:
        word = core._name(trie, rank, names)
        faces = next(trie.spellings_of(rank))
        assert word == Word("".join(faces), tuple(Card(face) for face in faces)) and type(word.cards) is tuple
        assert names[0][rank] is word
        assert names[1][rank] == core._play_order(sum(Card(face).points for face in faces), word.text)


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_solutions_equal_the_dataclass_built_ones(backend):
    for hand in _deals(40, 11) + _deals(10, 6):
        for options in ({"discard": True}, {"discard": False}, {"discard": True, "beat_words": 1, "top": 3}):
            solution = solve(hand, backend=backend, **options)  # type: ignore[arg-type]
            rebuilt = _rebuilt(solution)
            assert solution == rebuilt and hash(solution) == hash(rebuilt) and repr(solution) == repr(rebuilt)
            assert pickle.loads(pickle.dumps(solution)) == solution
            assert solution.to_dict() == rebuilt.to_dict()


# -- hands: counted at once when they are cards, parsed otherwise ---------------------


def test_every_form_of_a_hand_gives_the_same_solution():
    cards = parse_hand(HAND)
    expected = solve(HAND, discard=True)
    for form in (cards, list(cards), tuple(cards), [c.face for c in cards], [cards[0], *HAND.split(",")[1:]],
                 iter(cards), (c for c in cards)):  # fmt: skip
        solution = solve(form, discard=True)  # type: ignore[arg-type]
        assert solution == expected and type(solution.cards) is tuple and solution.cards == tuple(cards)


@pytest.mark.parametrize("bad", [[Card("a"), 5], [Card("a"), None], [Card("a"), [1]], [Card("a"), "zz"]])
def test_a_list_with_something_not_a_card_raises_the_parse_error(bad):
    with pytest.raises(InvalidCardError) as fast:
        solve(bad)
    with pytest.raises(InvalidCardError) as parsed:
        parse_hand(bad)
    assert str(fast.value) == str(parsed.value)


def test_lists_of_cards_are_size_checked():
    with pytest.raises(InvalidCardError, match="empty hand"):
        solve([])
    with pytest.raises(HandTooLargeError, match="hand of 21 cards"):
        solve(full_deck()[:21])


def test_options_keep_their_checks():
    bad = (({"top": True}, ArgumentTypeError), ({"top": 1.0}, ArgumentTypeError), ({"top": 0}, InvalidArgumentError),
           ({"discard": 2}, ArgumentTypeError), ({"discard": "yes"}, ArgumentTypeError),
           ({"bonus": 10.0}, ArgumentTypeError), ({"bonus": True}, ArgumentTypeError),
           ({"bonus": -1}, InvalidArgumentError), ({"bonus": core.MAX_BONUS + 1}, InvalidArgumentError),
           ({"backend": 3}, ArgumentTypeError), ({"backend": "gpu"}, InvalidArgumentError))  # fmt: skip
    for kwargs, error in bad:
        with pytest.raises(error) as info:
            solve("c,a,t", **kwargs)  # type: ignore[arg-type]
        builtin = TypeError if issubclass(error, TypeError) else ValueError
        assert isinstance(info.value, QuiddlerError) and isinstance(info.value, builtin)
        name = next(iter(kwargs))
        assert name in str(info.value) or "unknown backend" in str(info.value)
    assert solve("c,a,t", bonus=3) == solve("c,a,t")  # no targets: the bonus changes nothing
    assert solve("c,a,t", discard=1) == solve("c,a,t", discard=True)


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_the_usual_call_gives_what_the_checked_path_gives(backend):
    # The usual arguments skip most checks; an equal word list or another
    # spelling of an option goes through them.
    for size in (1, 2, 7, 11, 12, 13):
        for hand in _deals(12, size, seed=size):
            for discard in (True, False):
                usual = solve(hand, discard=discard, backend=backend)
                assert usual == solve(hand, discard=discard, wordlist=default_wordlist(), backend=backend)
                assert usual == solve(hand, discard=int(discard), top=1, bonus=10, backend=backend)


# -- a prepared Solver gives what the module-level functions give ------------------------------


@pytest.mark.parametrize("backend", ["auto", "python", "numba"])
def test_a_solver_gives_what_the_functions_give(backend):
    solver = Solver(backend=backend)
    hands = _deals(20, 11, seed=41) + _deals(10, 6, seed=42)
    for hand in hands:
        for options in ({"discard": True}, {"discard": False, "top": 3}, {"discard": True, "beat_longest": 5,
                                                                          "beat_words": 2}):  # fmt: skip
            assert solver.solve(hand, **options) == solve(hand, backend=backend, **options)  # type: ignore[arg-type]
    assert solver.solve_many(hands, discard=True) == solve_many(hands, discard=True, backend=backend)
    assert solver.score_many(hands, discard=True, beat_words=1) == score_many(hands, discard=True, beat_words=1,
                                                                              backend=backend)  # fmt: skip
    assert solver.find_words("qu,e,e,n") == find_words("qu,e,e,n", backend=backend)
    assert solver.search_size("a,a,b", beat_words=0) == search_size("a,a,b", beat_words=0)


def test_a_solver_on_its_own_list_gives_what_the_functions_give():
    words = WordList(["cat", "act", "at", "ta", "dog", "god", "go", "do", "to", "tag", "cog"], name="small")
    solver = Solver(words, backend="python")
    assert solver.wordlist is words and solver.backend == "python"
    assert repr(solver) == "Solver(wordlist='small', backend='python')"
    for text in ("c,a,t,d,o,g", "t,a,g,c,o", "d,o,g,z"):
        assert solver.solve(text, discard=True) == solve(text, discard=True, wordlist=words, backend="python")


def test_score_counts_of_a_solver_is_the_functions():
    import numpy as np

    hands = _deals(30, 9, seed=43)
    counts = np.array([core._face_counts(hand) for hand in hands], dtype=np.int64)
    best, go_out = Solver(backend="numba").score_counts(counts, discard=True)
    expected_best, expected_out = score_counts(counts, discard=True)
    assert best.tolist() == expected_best.tolist() and go_out.tolist() == expected_out.tolist()
    assert best.tolist() == [score for score, _ in score_many(hands, discard=True)]


@pytest.mark.parametrize(("wordlist", "backend", "error", "text"), [
    ("words.txt", "auto", ArgumentTypeError, "wordlist must be a WordList"),
    (None, "gpu", InvalidArgumentError, "unknown backend: 'gpu'"),
    (None, 3, ArgumentTypeError, "backend must be"),
])  # fmt: skip
def test_a_solver_checks_its_word_list_and_backend_when_made(wordlist, backend, error, text):
    with pytest.raises(error, match=text):
        Solver(wordlist, backend)  # type: ignore[arg-type]


def test_the_default_solver_is_made_once_per_backend_and_a_list_of_ones_own_is_not_kept():
    assert core.default_solver() is core.default_solver(None, "auto") is core.default_solver(default_wordlist())
    assert core.default_solver(None, "python") is not core.default_solver(None, "numba")
    words = WordList(["cat", "act", "at"], name="short-lived")
    assert core.default_solver(words) is not core.default_solver(words)  # made per call: nothing holds the list
    trie = __import__("weakref").ref(words.card_trie)
    solve("c,a,t", wordlist=words)
    del words
    gc.collect()
    assert trie() is None


class _Name(str):
    """A backend name that is no plain str."""


@pytest.mark.parametrize("backend", ["auto", "python", "numba"])
def test_every_form_of_the_arguments_gives_the_same_solution(backend):
    for size in (1, 2, 3, 7, 11, 12, 13):
        for hand in _deals(8, size, seed=100 + size):
            for discard in (True, False):
                usual = solve(tuple(hand), discard=discard, backend=backend)
                checked = solve(" ".join(card.face for card in hand), discard=discard, top=1, bonus=10,
                                wordlist=default_wordlist(), backend=backend)  # fmt: skip
                assert usual == checked and type(usual.cards) is tuple and usual.cards == tuple(hand)
                assert solve(hand, discard=discard, backend=_Name(backend)) == usual


# -- bad input: the same error whatever the form of the hand ---------------------------------------


_BAD_OPTIONS = ({"top": True}, {"top": 1.0}, {"top": 0}, {"discard": 2}, {"discard": "yes"}, {"bonus": 10.0},
                {"bonus": True}, {"bonus": -1}, {"backend": 3}, {"backend": "nope"}, {"backend": ["numba"]},
                {"wordlist": "words.txt"}, {"beat_words": -1}, {"beat_longest": 2.5})  # fmt: skip


def _error(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the error itself is what is compared
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("options", _BAD_OPTIONS)
def test_bad_options_raise_the_same_error_for_every_form_of_hand(options):
    cards = parse_hand("c,a,t")
    errors = {_error(lambda hand=hand: solve(hand, **options)) for hand in ("c,a,t", cards, list(cards))}
    assert len(errors) == 1 and None not in errors, errors
    ((kind, _),) = errors
    assert issubclass(kind, QuiddlerError)


@pytest.mark.parametrize("options", [{}, {"top": 0}, {"discard": True}, {"bonus": -1}])
@pytest.mark.parametrize("bad", [[Card("a"), 5], (Card("a"), None), [Card("a"), [1]], (Card("a"), "zz"), [],
                                 full_deck()[:21]])  # fmt: skip
def test_a_bad_hand_raises_before_the_options_are_checked_and_as_the_parser_does(bad, options):
    # (The word list and backend are checked first, when the Solver is made.)
    plain = _error(lambda: solve(bad if isinstance(bad, list) else list(bad)))
    assert plain is not None and _error(lambda: solve(bad, **options)) == plain


def test_words_named_so_far_and_words_not_yet_mix_in_one_play():
    # Two fresh lists with the same words, solved in different orders: each
    # names a word when it first meets it (some of a play's words named
    # before, some not), and every solution comes out the same.
    words = ["cat", "act", "at", "ta", "dog", "god", "go", "do", "to", "tag", "cog", "cod", "coat", "taco", "goat"]
    hands = [parse_hand(text) for text in ("c,a,t,d,o,g", "t,a,g,c,o,d", "g,o,a,t,c,a", "d,o,c,t,a,o,g,a")]
    first, second = WordList(words, name="first"), WordList(words, name="second")
    forwards = [solve(hand, wordlist=first) for hand in hands]
    backwards = [solve(hand, wordlist=second) for hand in reversed(hands)][::-1]
    assert forwards == backwards
    assert all(len(solution.best.words) >= 2 for solution in forwards[:2])


def test_solvers_on_different_lists_name_words_by_their_own_list():
    other = Solver(WordList(["cat", "act", "at", "ta", "dog", "god", "go", "do", "to"], name="other"))
    usual = Solver()
    for hand in _deals(30, 11, seed=5):
        for backend in ("python", "numba"):
            expected = solve(" ".join(card.face for card in hand), discard=True, bonus=10, backend=backend)
            assert usual.solve(tuple(hand), discard=True) == expected
            other.solve(tuple(hand), discard=True)
            assert Solver(backend=backend).solve(tuple(hand), discard=True) == expected


# -- the memory setting, read when a Solver is made ------------------------------------------


def test_a_solver_reads_the_memory_setting_once_when_made(monkeypatch):
    monkeypatch.delenv(core.MEMORY_ENV, raising=False)
    assert Solver().max_memory_bytes == core.DEFAULT_MAX_MEMORY_MB << 20
    monkeypatch.setenv(core.MEMORY_ENV, "64")
    solver = Solver(backend="python")
    assert solver.max_memory_bytes == 64 << 20 == core.max_memory_bytes()
    monkeypatch.setenv(core.MEMORY_ENV, " 7 ")
    assert solver.max_memory_bytes == 64 << 20  # read once: a later change is for Solvers made later
    assert Solver().max_memory_bytes == 7 << 20
    hand = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c,h,y,er,th"
    with pytest.raises(HandTooLargeError, match="over the limit of 7 MB"):
        Solver(backend="python").solve(hand, beat_words=3)
    monkeypatch.delenv(core.MEMORY_ENV)
    assert core.max_memory_bytes() == core.DEFAULT_MAX_MEMORY_MB << 20


def test_the_module_functions_follow_the_memory_setting_at_once(monkeypatch):
    hand = "a,e,i,o,u,r,s,t,l,n,d,g,p,m,b,c,h,y,er,th"
    solve(hand, backend="python")  # the default Solver exists before the setting changes
    monkeypatch.setenv(core.MEMORY_ENV, "7")
    with pytest.raises(HandTooLargeError, match="over the limit of 7 MB"):
        solve(hand, beat_words=3, backend="python")
    with pytest.raises(HandTooLargeError, match="over the limit of 7 MB"):
        score_many([hand], beat_words=3, backend="python")
    assert solve("c,a,t", backend="python").best.score  # a small search never looks
    monkeypatch.setenv(core.MEMORY_ENV, "4096")
    assert solve("a,b,c,d,e,f,g,h,i,j,k,l,m,n", beat_words=1, backend="python").best.score is not None


@pytest.mark.parametrize("value", ["lots", "0", "-3", "1.5"])
def test_a_bad_memory_setting_is_refused_when_a_solver_is_made(monkeypatch, value):
    monkeypatch.setenv(core.MEMORY_ENV, value)
    for _ in range(2):  # errors are not cached
        with pytest.raises(InvalidArgumentError, match=core.MEMORY_ENV):
            Solver()
    with pytest.raises(ValueError, match=core.MEMORY_ENV):
        solve("c,a,t", wordlist=WordList(["cat"]))  # a list of one's own: a Solver made now


def test_a_stand_in_for_os_environ_is_read_the_ordinary_way(monkeypatch):
    monkeypatch.setattr(core.os, "environ", {core.MEMORY_ENV: "0"})
    with pytest.raises(InvalidArgumentError, match="at least 1"):
        Solver(backend="python")
    assert os.environ.get(core.MEMORY_ENV) == "0"


# -- the memo room ----------------------------------------------------------------------


def test_the_memo_room_holds_the_search_and_stays_under_any_bound():
    for size in range(1, 15):
        for hand in _deals(20, size, seed=size):
            counts = core._face_counts(hand)
            for params in (core._params(size, True, None, None, 10), core._params(size, False, 4, 1, 10)):
                room, exact = core._memo_room(size, counts, params), core._memo_size(counts, params)
                assert room >= exact
                if room > exact:  # a game-sized hand without targets: room from the table
                    assert size <= core._ROOMY_CARDS and not (params[1] or params[2]) and 8 * room < 1 << 20


# -- the compiled backend's single-hand call ----------------------------------------------


def get_trie():
    return core.default_wordlist().card_trie


def _plays(blocks, hand, params):
    """The two plays of a kernel call's blocks (the rest of a block is scratch)."""
    return Solver()._best_plays(blocks, 0, params)


def _python_blocks(hand, params):
    counts = core._face_counts(hand)
    blocks = PythonBackend().solve_counts(get_trie(), counts, params, core._memo_size(counts, params))
    return _plays(blocks, hand, params)


def test_the_compiled_call_takes_lists_and_arrays_alike():
    backend = get_backend("numba")
    hand = parse_hand(HAND)
    params = core._params(11, True, None, None, 10)
    counts = core._face_counts(hand)
    memo = core._memo_size(counts, params)
    expected = _python_blocks(hand, params)
    assert _plays(backend.solve_counts(get_trie(), counts, params, memo), hand, params) == expected
    as_lists = backend.solve_counts(get_trie(), list(counts), list(params), memo)
    assert _plays(as_lists, hand, params) == expected
    # A list of parameters changed in place is read again (only tuples are recognised).
    changing = list(params)
    backend.solve_counts(get_trie(), counts, changing, memo)
    changing[0] = 0
    blocks = backend.solve_counts(get_trie(), counts, changing, memo)
    assert _plays(blocks, hand, changing) == _python_blocks(hand, changing)


def test_the_two_single_hand_calls_keep_each_others_parameters_right():
    # Each call writes the parameters into the thread's job row only when
    # they are not the tuple it holds: the two calls, taking turns with
    # different options, must never solve with the other's.
    backend = NumbaBackend()
    options = [core._params(11, True, None, None, 10), core._params(11, False, None, None, 10),
               core._packed(11, True, 5, None, 10_000), core._packed(11, True, None, 2, 10_000)]  # fmt: skip
    for hand in _deals(6, 11, seed=3):
        counts = core._face_counts(hand)
        for turn, params in enumerate(options + options[::-1] + options):
            memo = core._memo_room(11, counts, params)
            if turn % 2:
                blocks = backend.solve_counts(get_trie(), counts, params, memo)
            else:
                row = backend.solve_hand(get_trie(), tuple(hand), core._FACE_BYTES, params, memo)
                blocks = row[_backends.JOB_OUT :]
            assert _plays(blocks, hand, params) == _python_blocks(hand, params), (turn, params)


def test_more_words_than_the_packed_buffers_hold_are_solved_again(monkeypatch):
    backend = NumbaBackend()  # a fresh backend: its buffers are sized with the small capacity
    monkeypatch.setattr(_backends, "PACKED_WORDS", 4)
    new_work = backend._new_work
    made: list[int] = []
    monkeypatch.setattr(backend, "_new_work", lambda size: made.append(size) or new_work(size))
    for hand in _deals(5, 11):
        params = core._params(11, True, None, None, 10)
        counts = core._face_counts(hand)
        blocks = backend.solve_counts(get_trie(), counts, params, core._memo_size(counts, params))
        assert _plays(blocks, hand, params) == _python_blocks(hand, params)
    assert len(made) > 5  # the thread's work array, then bigger ones for each hand


def test_the_quick_paths_solve_again_with_more_words_than_the_packed_buffers_hold(monkeypatch):
    """A hand given by its faces (the solve, a final turn's classes, a turn's
    kept hands) whose words overflow the buffers is run again with more room."""
    hands = [tuple(hand) for hand in _deals(4, 11, seed=9)]
    params = core._params(11, True, None, None, 10)
    class_params = (1, 3, 1, 4, 0, 0)
    memo = core._memo_room(11, core._face_counts(hands[0]), params)
    big = 1 + core._MEMO_UNIT * (1 << 11) * 4 * 2

    def rows(backend):
        return [(list(backend.solve_hand(get_trie(), hand, core._FACE_BYTES, params, memo)[_backends.JOB_OUT :]),
                 list(backend.class_hand(get_trie(), hand, core._FACE_BYTES, class_params, big)[_backends.JOB_OUT :]),
                 list(backend.kept_hand(get_trie(), hand, core._FACE_BYTES, core._PLAIN_PARAMS[0], memo)[
                     _backends.JOB_OUT :]))
                for hand in hands]  # fmt: skip

    expected = rows(NumbaBackend())
    backend = NumbaBackend()  # a fresh backend: its buffers are sized with the small capacity
    monkeypatch.setattr(_backends, "PACKED_WORDS", 4)
    new_work = backend._new_work
    made: list[int] = []
    monkeypatch.setattr(backend, "_new_work", lambda size: made.append(size) or new_work(size))
    assert rows(backend) == expected
    assert len(made) > 3 * len(hands)  # bigger work arrays for each hand and kernel


def test_a_memo_too_big_to_keep_gets_a_work_array_of_its_own(monkeypatch):
    backend = NumbaBackend()
    hand = parse_hand(HAND)
    params = core._params(11, True, None, None, 10)
    counts = core._face_counts(hand)
    small = backend.solve_counts(get_trie(), counts, params, core._memo_size(counts, params))
    kept = backend._local.solo.work
    monkeypatch.setattr(_backends, "KEEP_BYTES", 8 * len(kept))
    big = backend.solve_counts(get_trie(), counts, params, 4 * len(kept))
    assert _plays(big, hand, params) == _plays(small, hand, params) == _python_blocks(hand, params)
    assert backend._local.solo.work is kept


def test_each_thread_has_its_own_buffers():
    backend = get_backend("numba")
    deals = _deals(30, 11)
    params = core._params(11, True, None, None, 10)
    expected = [_python_blocks(hand, params) for hand in deals]
    failures: list[int] = []

    def run() -> None:
        for _ in range(5):
            for i, hand in enumerate(deals):
                counts = core._face_counts(hand)
                blocks = backend.solve_counts(get_trie(), counts, params, core._memo_size(counts, params))
                if _plays(blocks, hand, params) != expected[i]:
                    failures.append(i)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_the_kernel_is_called_without_the_dispatcher_when_compiled():
    backend = get_backend("numba")
    dispatcher = backend._k.solve_rows
    if getattr(dispatcher, "overloads", None):  # not under NUMBA_DISABLE_JIT
        assert backend._solve_rows is not dispatcher and len(dispatcher.overloads) == 1

    class Uncompiled:
        def __init__(self) -> None:
            self.overloads: dict[object, object] = {}

    stand_in = Uncompiled()
    assert _backends._entry_point(stand_in) is stand_in
    stand_in.overloads = {"one signature": object()}  # a compiled version without an entry point
    assert _backends._entry_point(stand_in) is stand_in


def test_the_auto_backend_is_skipped_once_compiled(monkeypatch):
    auto = AutoBackend()
    monkeypatch.setitem(_backends._backends, "auto", auto)
    solver = Solver()
    assert solver._current() is auto
    expected = solve(HAND, discard=True, backend="python")
    auto.compiled = get_backend("numba")  # type: ignore[assignment]
    assert solver.solve(HAND, discard=True) == expected
    assert solver._current() is auto.compiled and Solver()._current() is auto.compiled
    assert solver.solve(parse_hand(HAND), discard=True) == expected


def test_the_names_of_a_lists_words_go_with_the_list():
    words = WordList(["cat", "act", "at"], name="short-lived")
    assert solve("c,a,t", wordlist=words).best.words[0].text == "act"
    assert words.card_trie in core._NAMES
    before = len(core._NAMES)
    del words
    gc.collect()
    assert len(core._NAMES) <= before - 1
    assert solve("c,a,t").best.score == solve("c,a,t", backend="python").best.score


def test_words_are_named_as_the_plain_constructors_name_them():
    trie = get_trie()
    named = []
    for rank in list(range(0, trie.multiset_count, 997)) + [trie.multiset_count - 1]:
        faces = next(trie.spellings_of(rank))
        plain = Word("".join(faces), tuple(Card(face) for face in faces))
        names: core._Names = ({}, {})
        word = core._name(trie, rank, names)
        order = names[1][rank]
        assert word == plain
        named.append((order, word))
    # The one-int order sorts as (-points, -letters, text), ties and all.
    tuples = [(-word.points, -word.letters, word.text) for _, word in named]
    for (order, word), key in zip(named, tuples):
        for other_order, other in named:
            other_key = (-other.points, -other.letters, other.text)
            assert (order < other_order) == (key < other_key) and (order == other_order) == (key == other_key)


def test_the_play_order_of_words_that_tie_on_points_and_letters():
    # "her" as h,er and as h,e,r: the same text, points and letters (one
    # order, so the sort keeps the kernel's order); the extremes fit.
    assert core._play_order(14, "her") == core._play_order(2 + 7 + 5, "her")
    assert core._play_order(14, "her") < core._play_order(14, "hes") < core._play_order(13, "aaa")
    assert core._play_order(14, "zz") > core._play_order(14, "aaa")  # more letters first, whatever the text
    # No field spills into the next, at the largest word there can be (20 cards of 2 letters, 15 points).
    assert core._play_order(300, "z" * 40) < core._play_order(299, "aa") and core._play_order(0, "z" * 40) < core._play_order(0, "aa")


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_a_plays_words_come_most_points_then_most_letters_then_by_text(backend):
    ties = 0
    for hand in _deals(150, 11, seed=31):
        for options in ({"discard": True}, {"discard": True, "top": 4}, {"discard": False, "beat_words": 2}):
            solution = solve(hand, backend=backend, **options)  # type: ignore[arg-type]
            for play in (*solution.plays, solution.best_go_out):
                if play is None:
                    continue
                keys = [(-word.points, -word.letters, word.text) for word in play.words]
                assert keys == sorted(keys), play
                ties += len({key[:2] for key in keys}) < len(keys)
    assert ties >= 10  # words equal on points and letters, ordered by their text, were met


# -- the quick path: the compiled kernel counts the hand's faces ----------------------------


def test_a_hand_given_by_its_faces_gives_the_blocks_of_its_counts(monkeypatch):
    backend = NumbaBackend()  # a fresh backend: its buffers are sized with the small capacity below
    face_bytes = core._FACE_BYTES
    for size in (1, 2, 5, 11, 12, 16, 20):
        for hand in _deals(6, size, seed=size):
            for discard in (True, False):
                params = core._params(size, discard, None, None, 10)
                counts = core._face_counts(hand)
                memo = core._memo_size(counts, params)
                expected = list(backend.solve_counts(get_trie(), counts, params, memo))
                row = backend.solve_hand(get_trie(), hand, face_bytes, params, memo)
                assert list(row[_backends.JOB_OUT :]) == expected
                assert list(row[: _backends.FACE_SLOTS]) == list(counts)  # counted in place
    monkeypatch.setattr(_backends, "PACKED_WORDS", 4)  # more words than the buffers hold: solved again
    small = NumbaBackend()
    for hand in _deals(5, 11):
        params = core._params(11, True, None, None, 10)
        counts = core._face_counts(hand)
        row = small.solve_hand(get_trie(), hand, face_bytes, params, core._memo_size(counts, params))
        assert _plays(row[_backends.JOB_OUT :], hand, params) == _python_blocks(hand, params)


def test_a_hand_refused_half_way_leaves_the_next_solve_right():
    hand = parse_hand(HAND)
    expected = solve(hand, backend="numba")
    for bad in ([*hand[:5], "zz", *hand[5:]], [*hand, None], [*hand[:3], [1]]):
        with pytest.raises(InvalidCardError):
            solve(bad, backend="numba")  # type: ignore[arg-type]
        assert solve(hand, backend="numba") == expected
        assert solve(hand[:4], backend="numba") == solve(iter(hand[:4]), backend="numba")


def test_the_quick_path_gives_the_checked_paths_plays_with_leftovers_ties_and_new_words():
    # A list of its own: its words are named by the first solves here, and its
    # hands leave cards over and tie words on points and letters.
    wordlist = WordList(["ab", "ac", "ka", "cab", "bad", "dab", "ad", "qi", "ta", "at"])
    solver = Solver(wordlist, "numba")
    checked = Solver(wordlist, "numba")
    seen = {"left 2+": 0, "tie": 0}
    for hand in _deals(300, 8, seed=5) + [parse_hand("a,b,a,c,a,k,q,z")]:
        for discard in (True, False):
            quick = solver.solve(hand, discard=discard)
            assert quick == checked.solve(iter(hand), discard=discard)
            assert repr(quick) == repr(_rebuilt(quick))
            for play in (quick.best, quick.best_go_out):
                if play is not None:
                    seen["left 2+"] += len(play.unused) >= 2
                    keys = [(w.points, w.letters) for w in play.words]
                    seen["tie"] += len(set(keys)) < len(keys)
    assert all(seen.values()), seen


def test_threads_solving_at_once_each_read_their_own_row():
    deals = _deals(40, 11, seed=17)
    expected = [solve(hand, discard=True, backend="numba") for hand in deals]
    failures: list[int] = []

    def run() -> None:
        for _ in range(5):
            for i, hand in enumerate(deals):
                if solve(hand, discard=True, backend="numba") != expected[i]:
                    failures.append(i)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


# -- the quick path with bonus targets: a computer player's final turn -----------------------------

_TARGETS = [(None, 0), (None, 1), (None, 2), (None, 5), (0, None), (2, None), (3, None), (5, None), (30, None),
            (2, 1), (3, 0), (4, 2), (6, 3)]  # fmt: skip


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_the_quick_path_with_targets_gives_the_checked_paths_solutions(backend):
    # A list of its own (its words named by the quick path's solves first),
    # then the default list on dealt hands of a game's sizes.
    small = WordList(["ab", "ac", "ka", "cab", "bad", "dab", "ad", "qi", "ta", "at", "tab", "bat", "abac"])
    seen = {"met": 0, "missed": 0, "left 2+": 0, "tie": 0, "no go out": 0, "new words": 0}
    cases = [(small, hand) for hand in _deals(120, 8, seed=23) + [parse_hand("a,b,a,c,a,k,q,z")]]
    cases += [(default_wordlist(), hand) for size in (3, 6, 9, 11, 12) for hand in _deals(8, size, seed=60 + size)]
    solvers: dict[int, tuple[Solver, Solver]] = {}
    for n, (wordlist, hand) in enumerate(cases):
        quick, checked = solvers.setdefault(id(wordlist), (Solver(wordlist, backend), Solver(wordlist, backend)))
        beat_longest, beat_words = _TARGETS[n % len(_TARGETS)]
        for discard in (True, False):
            for bonus in (0, 10, 10_000, core.MAX_BONUS):
                options = {"discard": discard, "beat_longest": beat_longest, "beat_words": beat_words, "bonus": bonus}
                named = len(quick._words)
                fast = quick.solve(hand if n % 2 else list(hand), **options)  # type: ignore[arg-type]
                seen["new words"] += len(quick._words) > named
                assert fast == checked.solve(iter(hand), **options)  # type: ignore[arg-type]
                assert repr(fast) == repr(_rebuilt(fast)) and type(fast.best) is Play
                seen["no go out"] += fast.best_go_out is None
                for play in (fast.best, fast.best_go_out):
                    if play is None:
                        continue
                    seen["met" if play.bonus else "missed"] += bonus > 0
                    seen["left 2+"] += len(play.unused) >= 2
                    keys = [(w.points, w.letters) for w in play.words]
                    seen["tie"] += len(set(keys)) < len(keys)
    assert all(seen.values()), seen


def test_the_quick_path_with_targets_leaves_bad_input_and_big_searches_to_the_checked_path(monkeypatch):
    cards = parse_hand("c,a,t,s")
    bad = ({"beat_longest": -1}, {"beat_longest": 2.0}, {"beat_longest": True}, {"beat_longest": "3"},
           {"beat_words": -1}, {"beat_words": 1.0}, {"beat_words": False}, {"bonus": -1}, {"bonus": 10.0},
           {"bonus": True}, {"bonus": core.MAX_BONUS + 1}, {"top": 0, "beat_words": 1},
           {"top": True, "beat_words": 1}, {"discard": 2, "beat_words": 1})  # fmt: skip
    for options in bad:
        errors = {_error(lambda hand=hand, options=options: solve(hand, **options)) for hand in ("c,a,t,s", cards, list(cards))}
        assert len(errors) == 1 and None not in errors, (options, errors)
        ((kind, _),) = errors
        assert issubclass(kind, QuiddlerError)
    # Other spellings the checked path accepts give the same answer.
    assert solve(cards, discard=1, beat_words=1) == solve(cards, discard=True, beat_words=1)
    assert solve(cards, beat_longest=numpy_int(2)) == solve(cards, beat_longest=2)
    for bad_hand in ((*cards, "zz"), [*cards, None], (*cards, 5)):
        plain = _error(lambda bad_hand=bad_hand: parse_hand(bad_hand))
        assert plain is not None and _error(lambda bad_hand=bad_hand: solve(bad_hand, beat_words=1)) == plain
    assert solve(cards, beat_words=1) == solve("c,a,t,s", beat_words=1)  # a hand refused half way leaves no trace
    # A search whose table-sized room passes a low memory bound is sized exactly by the checked
    # path, which refuses it or not as before.
    solver = Solver(backend="numba")
    solver.max_memory_bytes = 1 << 20
    distinct = full_deck()[::10][:12]  # twelve different faces: the exact room is the table's
    assert len({card.face for card in distinct}) == 12
    with pytest.raises(HandTooLargeError, match="with these bonus targets"):
        solver.solve(distinct, beat_longest=3, beat_words=1)
    repeated = parse_hand("a,a,a,e,e,e,t,t,t,s,s,s")  # 256 states: well under the bound
    assert solver.solve(repeated, beat_longest=3, beat_words=1) == Solver().solve(iter(repeated), beat_longest=3,
                                                                                  beat_words=1)  # fmt: skip


def numpy_int(value: int) -> object:
    np = pytest.importorskip("numpy")
    return np.int64(value)


def test_a_plays_bonus_is_the_kernels_score_less_the_cards():
    # The bonus is worked out from the targets a play meets; the kernel's
    # key holds the whole score: they must agree, for the best and going-out
    # plays and for every play of a top-K search.
    solver = Solver(backend="numba")
    engine = get_backend("numba")
    met = 0
    for size in (5, 8, 11):
        for n, hand in enumerate(_deals(25, size, seed=70 + size)):
            beat_longest, beat_words = _TARGETS[n % len(_TARGETS)]
            params = core._params(size, bool(n % 2), beat_longest, beat_words, 10 + n)
            counts = core._face_counts(hand)
            memo = core._memo_size(counts, params)
            blocks = engine.solve_counts(get_trie(), counts, params, memo)
            top, count = engine.top_counts(get_trie(), counts, params, memo, 8)
            for out, ob in [(blocks, 0), (blocks, _backends.OUT_BLOCK)] + [(top, i * _backends.OUT_BLOCK)
                                                                           for i in range(count)]:  # fmt: skip
                if out[ob + core._OUT_KEY] < 0:
                    continue
                play = solver._play_from(out, ob, params)
                assert play.score == (out[ob + core._OUT_KEY] >> core._SCORE_SHIFT) - core._SCORE_OFFSET
                met += play.bonus > 0
    assert met > 20


def test_the_same_options_are_packed_once():
    packed = core._packed(11, True, 5, None, 10_000)
    assert packed == (1, 0, 1, 5, 10_000, 10_000)
    assert core._packed(11, True, 5, None, 10_000) is packed  # the compiled backend then keeps its job row's copy
    assert core._packed(11, True, None, 2, 10_000) == (1, 3, 0, core._NO_TARGET, 10_000, 10_000)
