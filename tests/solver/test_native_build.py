"""The numba build of the kernels: where it is cached, how it is made, and
the rules it imposes on the kernel source.

numba caches next to the source or in NUMBA_CACHE_DIR, and with neither
writable ``cache=True`` fails at import; the package must fall back to its
user cache folder, then to no caching, and never crash.  The build casts
every element index to an unsigned integer, so the kernels must never index
from the end: they are run here on lists that refuse negative indices.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from quiddler.solver import _build, _native
from quiddler.wordlist import cache_dir


@pytest.fixture
def no_numba_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("QUIDDLER_CACHE_DIR", str(tmp_path / "quiddler-cache"))
    return tmp_path


def test_source_folder_cache_is_used_when_writable(no_numba_cache_dir, monkeypatch):
    monkeypatch.setattr(_native, "_writable", lambda folder: True)
    assert _native._choose_cache() is True
    assert "NUMBA_CACHE_DIR" not in _native.os.environ


def test_read_only_package_falls_back_to_the_user_cache(no_numba_cache_dir, monkeypatch):
    package_cache = _native.KERNEL_FILE.parent / "__pycache__"
    monkeypatch.setattr(_native, "_writable", lambda folder: folder != package_cache)
    assert _native._choose_cache() is True
    assert _native.os.environ["NUMBA_CACHE_DIR"] == str(cache_dir() / "numba")


def test_nothing_writable_means_no_cache(no_numba_cache_dir, monkeypatch):
    monkeypatch.setattr(_native, "_writable", lambda folder: False)
    assert _native._choose_cache() is False
    assert "NUMBA_CACHE_DIR" not in _native.os.environ


def test_an_explicit_numba_cache_dir_is_respected(no_numba_cache_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert _native._choose_cache() is True
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    assert _native._choose_cache() is False  # unwritable: compile without caching


def test_writable_probe(tmp_path):
    assert _native._writable(tmp_path / "new" / "folder")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert not _native._writable(blocker / "below-a-file")


def test_numba_backend_source_runs_as_plain_python():
    """With NUMBA_DISABLE_JIT=1 the numba backend's own entry points (the
    packed call, a hand of cards counted by the kernel, the parallel batch,
    top-K on numpy arrays) run as plain
    Python and agree with the pure-Python backend."""
    import os
    import subprocess
    import sys

    code = """
import json
from quiddler import parse_hand, solve, solve_many
hands = ['d,cl,o,g,a,b', 'qu,i,th,er,a', 'a,b,c', 'e,r,t,s,a,e', 'z,z']
compiled = [solve(h, discard=True, backend='numba') for h in hands]
assert compiled == [solve(parse_hand(h), discard=True, backend='numba') for h in hands]  # the kernel counts
plain = [solve(h, discard=True, backend='python') for h in hands]
batch = solve_many(hands, discard=True)
top = [solve(h, top=3, beat_words=1, backend='numba') for h in hands]
top_plain = [solve(h, top=3, beat_words=1, backend='python') for h in hands]
print(json.dumps([compiled == plain == batch, top == top_plain, [s.best.score for s in plain]]))
"""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(root))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    same, same_top, scores = __import__("json").loads(result.stdout)
    assert same and same_top
    assert scores == [28, 16, 10, 15, -14]  # z,z: one discarded, one left over


# -- numba imported before quiddler ---------------------------------------------

_DECLARE = """
import numba  # first: numba reads its configuration now, before quiddler chooses a cache
from quiddler.solver import _native
module = _native._declare()
kernel = module.find_words
print(type(kernel._cache).__name__, getattr(kernel._cache, "_cache_path", ""))
"""


def _read_only_package_copy(tmp_path: Path) -> dict[str, str]:
    """A copy of the package where nothing beside the source can be written:
    its __pycache__ and the user-wide cache folders are files (file modes do
    not stop root, which the CI runs as)."""
    import shutil

    import quiddler

    root = tmp_path / "site"
    shutil.copytree(Path(quiddler.__file__).parent, root / "quiddler",
                    ignore=shutil.ignore_patterns("__pycache__", "*.cardtrie"))  # fmt: skip
    (root / "quiddler" / "solver" / "__pycache__").write_text("not a folder")
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "QUIDDLER_", "XDG_"))}
    env.update(PYTHONPATH=str(root), HOME=str(blocker), XDG_CACHE_HOME=str(blocker / "xdg"),
               PYTHONDONTWRITEBYTECODE="1")  # fmt: skip
    return env


def test_numba_imported_first_with_a_read_only_package_still_caches(tmp_path):
    env = _read_only_package_copy(tmp_path)
    env["QUIDDLER_CACHE_DIR"] = str(tmp_path / "quiddler-cache")
    done = subprocess.run([sys.executable, "-c", _DECLARE], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kind, path = done.stdout.split()
    assert kind == "FunctionCache" and path.startswith(str(tmp_path / "quiddler-cache" / "numba"))


def test_numba_imported_first_with_nothing_writable_compiles_without_a_cache(tmp_path):
    env = _read_only_package_copy(tmp_path)
    env["QUIDDLER_CACHE_DIR"] = str(tmp_path / "blocker" / "cache")
    done = subprocess.run([sys.executable, "-c", _DECLARE], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "NullCache"


def test_every_kernel_gets_exactly_one_signature():
    module = _native._declare()
    names = _build.kernel_names(module)
    assert names.index("state_value") < names.index("best_play") < names.index("solve_rows")
    for name in names:
        signature = _build.signature(getattr(module, name))
        assert len(signature) == getattr(module, name).py_func.__code__.co_argcount


def test_cache_readiness_marker(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not _native.ready()
    _native._mark_ready(tmp_path)
    assert _native.ready()
    marker = _native._ready_file(tmp_path)
    assert marker is not None and marker.parent == tmp_path


def test_compiled_kernels_index_with_unsigned_integers():
    """The numba build wraps every element index of every kernel (and only
    those: not slices, not plain helpers) in index_cast, which numba compiles
    without the negative-index fix-up."""
    import ast

    source = (
        "@kernel\ndef k(a, b, i):\n    a[i + 1] = b[a[i]]\n    return a[1:i]\n\n"
        "def helper(a):\n    return a[0]\n"
    )
    text = ast.unparse(_build.unsigned_indices(source))
    assert "a[index_cast(i + 1)] = b[index_cast(a[index_cast(i)])]" in text
    assert "return a[1:i]" in text
    assert "return a[0]" in text
    module = _native._declare()
    assert str(module.index_cast) == "uint64"
    assert "index_cast" in module.find_words.py_func.__code__.co_names


# -- the rules the build imposes on the kernel source -----------------------------


class NoNegativeIndex(list):  # type: ignore[type-arg]
    """A list that refuses what the numba build cannot do: an element index
    below zero (which plain Python reads from the end, and the build's
    unsigned index reads far out of range)."""

    def __getitem__(self, index):
        if isinstance(index, int) and index < 0:
            raise IndexError(f"negative index {index}")
        return super().__getitem__(index)

    def __setitem__(self, index, value):
        if isinstance(index, int) and index < 0:
            raise IndexError(f"negative index {index}")
        super().__setitem__(index, value)


def test_the_negative_index_guard_catches_what_the_build_would_read_out_of_range():
    from quiddler.solver import _kernels as K

    def reads_from_the_end(words):  # what the rule forbids
        return words[K.NO_WORD]

    assert reads_from_the_end([1, 2, 3]) == 3  # plain Python: silently the last element
    with pytest.raises(IndexError, match="negative index -1"):
        reads_from_the_end(NoNegativeIndex([1, 2, 3]))


_GUARD_HANDS = [
    "d,cl,o,g,a,b", "qu,i,th,er,a", "a,b,c", "e,r,t,s,a,e", "z,z", "x,q,z,j,k,v,w", "in,er,th,a,s,t,e,r",
    "a,a,a,b,b,c,c,d,e,e", "qu,qu,e,e,n,s", "cl,in,g,e,r,s,t,o,a",
]  # fmt: skip


@pytest.mark.parametrize("hand", _GUARD_HANDS)
def test_kernels_never_index_from_the_end(hand):
    """Every kernel the backends call, run as plain Python on arrays that
    refuse negative indices, for discards, bonus targets and top-K plays:
    no index goes below zero, and the answers are the usual ones."""
    from quiddler import default_wordlist, parse_hand
    from quiddler.solver import _backends
    from quiddler.solver import _kernels as K
    from quiddler.solver.core import _face_counts, _params

    guarded = NoNegativeIndex
    trie = default_wordlist().card_trie
    plain_trie = (trie.kernel_edges(), trie.kernel_ranks())
    guarded_trie = (guarded(plain_trie[0]), guarded(plain_trie[1]))
    cards = parse_hand(hand)
    counts = list(_face_counts(cards))
    inputs = (counts, _backends.FACE_POINTS, _backends.FACE_LETTERS)
    for params in (_params(len(cards), True, None, None, 10), _params(len(cards), False, 3, 1, 10)):
        memo = _backends.needed_memo(counts, params)

        def arrays(top, wrap, params=params, memo=memo):
            """The inputs, scratch buffers and output of one kernel call."""
            scratch = [[0] * K.HAND_SIZE, [0] * (K.WORD_STRIDE * K.PACKED_WORDS), [0] * K.GROUP_SIZE,
                       [0] * memo, [0] * K.STACK_SIZE, [0] * K.STACK_SIZE]  # fmt: skip
            if top:
                scratch += [[0] * (K.MAX_CARDS + 2), [0] * top]
            every = [list(a) for a in inputs] + [list(params)] + scratch + [[0] * (max(top, 2) * K.OUT_BLOCK)]
            return [wrap(a) for a in every]

        for top, entry in ((0, K.solve_counts), (4, K.top_plays)):
            plain = arrays(top, list)
            checked = arrays(top, guarded)
            expected = entry(*plain_trie, *plain)
            assert entry(*guarded_trie, *checked) == expected >= 0
            assert checked[-1] == plain[-1]
    hand_layout = guarded([0] * K.HAND_SIZE)
    K.layout_hand(guarded(counts), guarded(_backends.FACE_POINTS), hand_layout)
    words = guarded([0] * (K.WORD_STRIDE * K.PACKED_WORDS))
    found = K.find_words(*guarded_trie, 1, hand_layout, guarded(_backends.FACE_POINTS),
                         guarded(_backends.FACE_LETTERS), words, K.PACKED_WORDS,
                         guarded([0] * K.STACK_SIZE))  # fmt: skip
    assert found >= 0
    expected_ranks = _backends.get_backend("python").word_ranks(trie, counts)
    assert words[: K.WORD_STRIDE * found : K.WORD_STRIDE] == expected_ranks


def _index_expressions():
    import ast

    tree = ast.parse(_build.KERNEL_FILE.read_text(encoding="utf-8"))
    for function in _build.kernel_functions(tree):
        for node in ast.walk(function):
            if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
                yield function.name, node.slice


def test_kernel_source_has_no_negative_literal_index():
    """No ``a[-1]`` or ``a[-k]`` in any kernel (nor a named sentinel, which
    are all negative): the build's unsigned indices would read out of range."""
    import ast

    from quiddler.solver import _kernels as K

    sentinels = {name for name, value in vars(K).items() if name.isupper() and isinstance(value, int) and value < 0}
    assert {"NO_CHOICE", "UNKNOWN", "INFEASIBLE", "LEFT_OVER", "NO_WORD"} <= sentinels
    seen = 0
    for function, index in _index_expressions():
        seen += 1
        negative = isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub)
        negative |= isinstance(index, ast.Constant) and isinstance(index.value, int) and index.value < 0
        negative |= isinstance(index, ast.Name) and index.id in sentinels
        assert not negative, f"{function} indexes with {ast.unparse(index)}"
    assert seen > 100


def test_kernel_source_names_its_record_fields():
    """Every element index in a kernel that adds a number to a base names
    the field (``words[w + WORD_SWAR]``, not ``words[w + 2]``), except the
    next digit's group (``group[d + 1]``), and no index is a bare number
    (``hand[HAND_DIGITS]``, not ``hand[0]``)."""
    import ast

    for function, index in _index_expressions():
        assert not isinstance(index, ast.Constant), f"{function} indexes with {ast.unparse(index)}"
        if isinstance(index, ast.BinOp) and isinstance(index.op, ast.Add):
            literal = isinstance(index.right, ast.Constant)
            next_group = ast.unparse(index) == "d + 1"
            assert not literal or next_group, f"{function} indexes with {ast.unparse(index)}"


def _fields(prefix, exclude=()):
    from quiddler.solver import _kernels as K

    return {name: value for name, value in vars(K).items()
            if name.startswith(prefix) and name not in exclude and isinstance(value, int)}  # fmt: skip


@pytest.mark.parametrize(("prefix", "size", "exclude", "complete"), [
    ("WORD_", "WORD_STRIDE", ("WORD_STRIDE", "WORDS_FULL"), True),
    ("DIGIT_", "HAND_STRIDE", (), True),
    ("WALK_", "WALK_FRAME", ("WALK_FRAME", "WALK_TABLE"), True),
    ("ROW_", "FACE_ROW", (), False),
    ("FRAME_", "FRAME", (), False),
    ("DFS_", "DFS_FRAME", ("DFS_FRAME",), True),
    ("MEMO_", "MEMO_SLOT", ("MEMO_SLOT", "MEMO_GENERATION", "MEMO_FULL"), True),
    ("PARAM_", "PARAM_COUNT", ("PARAM_COUNT",), True),
    ("HAND_", "HAND_HEAD", ("HAND_HEAD", "HAND_STRIDE", "HAND_SIZE"), True),
])  # fmt: skip
def test_every_record_field_has_its_own_offset(prefix, size, exclude, complete):
    """The named offsets of each flat record are distinct and inside the
    record (all of it, where every number is used)."""
    from quiddler.solver import _kernels as K

    offsets = sorted(_fields(prefix, exclude).values())
    assert len(offsets) == len(set(offsets)) and 0 <= offsets[0] and offsets[-1] < getattr(K, size)
    if complete:
        assert offsets == list(range(getattr(K, size)))


def test_play_block_fields_come_before_its_words():
    from quiddler.solver import _kernels as K

    head = [K.OUT_DISCARD, K.OUT_WORDS, K.OUT_LEFT, K.OUT_KEY, K.OUT_TIES]
    assert sorted(head) == list(range(K.OUT_HEAD))
    assert K.OUT_LEFTOVERS == K.OUT_HEAD + K.OUT_MAXC and K.OUT_BLOCK == K.OUT_LEFTOVERS + K.OUT_MAXC


def test_kernel_layouts_agree_with_the_card_trie_and_the_backends():
    """The kernels' copies of the trie's edge layout and of the Python side's sizes."""
    from quiddler import cardtrie
    from quiddler.solver import _backends
    from quiddler.solver import _kernels as K

    assert (K.EDGE_TERMINAL_SHIFT, K.EDGE_FIRST_SHIFT) == (cardtrie.TERMINAL_SHIFT, cardtrie.FIRST_SHIFT)
    assert K.MAX_CARDS == cardtrie.MAX_WORD_CARDS
    assert K.FACE_SLOTS == _backends.FACE_SLOTS and K.HAND_SIZE == _backends.HAND_SIZE
    assert K.GO_BIT == 1 << K.GO_SHIFT and K.TOP_GO_SHIFT == K.TOP_SCORE_SHIFT - 1


def test_a_compiled_kernel_is_handed_out_without_checking_the_cache_again(monkeypatch):
    """Top-K solves ask for their kernel on every call: once it is compiled,
    the cache's readiness (which reads and hashes the kernel source) is not
    consulted again."""
    first = _native.kernel("top_plays")

    def no_more_checks():
        raise AssertionError("ready() consulted for a compiled kernel")

    monkeypatch.setattr(_native, "ready", no_more_checks)
    assert _native.kernel("top_plays") is first


@pytest.mark.timeout(20)
def test_a_fifo_in_place_of_the_compile_log_or_lock_is_refused_not_waited_on(monkeypatch, tmp_path, caplog):
    """The cache folder is the user's: a FIFO where the background compile
    writes its log, or where compiles take turns, must not hang the run."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    os.mkfifo(tmp_path / "quiddler-kernels.log")
    os.mkfifo(tmp_path / "quiddler-kernels.lock")
    with caplog.at_level("WARNING", logger="quiddler.solver"):
        assert _native.start_background_compile() is None
    assert "not a regular file" in caplog.text
    with pytest.raises(OSError, match="not a regular file"):
        _native._compile_here()
