"""The pure-Python backend's solve, written for CPython, not for numba.

The pure-Python backend used to run the kernel source of
:mod:`quiddler.solver._kernels` as it stands: code shaped for a compiler,
where every number lives in a flat array (the walk's stack, the memo, the
hand's layout) and every named offset is a global lookup.  Interpreted,
each of those is a bytecode or three, and nearly all of a solve went on
them.  This module computes the same answer the CPython way: the trie walk
recurses with its numbers in local variables, each word is a tuple, the
memos are dicts, and the searches recurse instead of keeping a stack by
hand.  Every solve of a one-shot ``quiddler solve`` and of the browser's
Pyodide game comes through here, so it imports nothing (no numpy, no numba).

It must give exactly the kernel's answer, ties and all: the plays are
settled by the same rules in the same order (pass 1's discards cheapest
first, pass 2's longest words first, candidates, words and bonus
constraints in the same order, the same strict comparisons), and a state's
value, the most words among its best plays and the first choice that
reaches it depend only on the state, not on how the search got there.  The
result is the two play blocks of
:func:`~quiddler.solver._kernels.solve_counts`, named as
:func:`~quiddler.solver._kernels.name_words` names them.  (The top-K search
and the word listing still run the kernel source.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import _kernels as K

__all__ = ["solve_counts"]

_SHIFT = K.SCORE_SHIFT
_OFFSET = K.SCORE_OFFSET
_GO = K.GO_BIT
_INFEASIBLE = K.INFEASIBLE
_BASE_KEY = K.BASE_KEY
_FIRST = K.EDGE_FIRST_SHIFT
_TERMINAL = K.EDGE_TERMINAL_SHIFT
_BLOCK = K.OUT_BLOCK


Word = tuple[int, int, int, int, int]  # swar, radix, points, letters, cards


def _walk(edges: Sequence[int], masks: Sequence[int], face_count: Sequence[int], rows: dict[int, tuple[int, int, int, int, int]],
          by_digit: list[list[Word]], by_length: list[list[Word]]) -> None:  # fmt: skip
    """Every word of the hand, as :func:`~quiddler.solver._kernels.find_words`
    finds them (trie order: depth first, a node's faces in rising order),
    appended to ``by_digit[its first digit]`` and ``by_length[its letters]``:
    ``(swar, radix, points, letters, cards)`` each.  ``rows`` maps the bit
    of a face in hand to what one of its cards adds (radix, SWAR, points,
    letters) and the face's digit."""
    left = {bit: face_count[bit.bit_length() - 1] for bit in rows}
    avail = 0
    for bit in rows:
        avail |= bit

    def visit(first: int, node_mask: int, avail: int, radix: int, swar: int, points: int, letters: int,
              cards: int, add: Callable[[Word], None]) -> None:  # fmt: skip
        todo = node_mask & avail
        cards += 1
        while todo:
            bit = todo & -todo
            todo ^= bit
            e = first + (node_mask & (bit - 1)).bit_count()
            packed = edges[e]
            r, s, p, n, _ = rows[bit]
            r += radix
            s += swar
            p += points
            n += letters
            if (packed >> _TERMINAL) & 1:
                word = (s, r, p, n, cards)
                add(word)
                by_length[n].append(word)
            child_mask = masks[e]
            count = left[bit] - 1
            child_avail = avail ^ bit if count == 0 else avail
            if child_mask & child_avail:
                left[bit] = count
                visit(packed >> _FIRST, child_mask, child_avail, r, s, p, n, cards, add)
                left[bit] = count + 1

    root_mask = masks[0]
    first = edges[0] >> _FIRST
    todo = root_mask & avail
    while todo:  # the root's edges: each starts the words of one first digit
        bit = todo & -todo
        todo ^= bit
        e = first + (root_mask & (bit - 1)).bit_count()
        packed = edges[e]
        r, s, p, n, digit = rows[bit]
        add = by_digit[digit].append
        if (packed >> _TERMINAL) & 1:
            word = (s, r, p, n, 1)
            add(word)
            by_length[n].append(word)
        child_mask = masks[e]
        count = left[bit] - 1
        child_avail = avail ^ bit if count == 0 else avail
        if child_mask & child_avail:
            left[bit] = count
            visit(packed >> _FIRST, child_mask, child_avail, r, s, p, n, 1, add)
            left[bit] = count + 1


def solve_counts(edges: Sequence[int], masks: Sequence[int], ranks: Sequence[int], face_count: Sequence[int],
                face_points: Sequence[int], face_letters: Sequence[int], params: Sequence[int]) -> list[int]:  # fmt: skip
    """The two play blocks :func:`~quiddler.solver._kernels.solve_counts`
    writes for this hand and these ``params``.

    ``edges``, ``masks`` and ``ranks`` are the card trie's own arrays, not
    the padded copies the kernels take (:meth:`CardTrie.kernel_edges`):
    making those copies cost a one-shot solve more than the search itself,
    and where a compiled walk over a malformed file would read the padding,
    a Python one raises ``IndexError``."""
    discard = params[K.PARAM_DISCARD]
    # The hand's digits (its distinct faces, in face order) and their SWAR fields.
    faces: list[int] = []
    counts: list[int] = []
    points_of: list[int] = []
    strides: list[int] = []
    units: list[int] = []
    rows: dict[int, tuple[int, int, int, int, int]] = {}
    stride = 1
    shift = 0
    guard = 0
    fields = 0
    full_radix = 0
    full_swar = 0
    hand_points = 0
    for face, count in enumerate(face_count):
        if count == 0:
            continue
        bits = count.bit_length()
        digit = len(faces)
        faces.append(face)
        counts.append(count)
        points_of.append(face_points[face])
        strides.append(stride)
        units.append(1 << shift)
        rows[1 << face] = (stride, 1 << shift, face_points[face], face_letters[face], digit)
        guard |= 1 << (shift + bits)
        fields |= ((1 << bits) - 1) << shift
        full_radix += count * stride
        full_swar += count << shift
        hand_points += count * face_points[face]
        stride *= count + 1
        shift += bits + 1
    ndig = len(faces)
    # The digit whose guard bit is the lowest set one: a state's first digit.
    digit_at = {}
    g = guard
    for d in range(ndig):
        low = g & -g
        digit_at[low] = d
        g ^= low
    by_digit: list[list[Word]] = [[] for _ in range(ndig)]
    by_length: list[list[Word]] = [[] for _ in range(K.LETTER_SLOTS)]
    _walk(edges, masks, face_count, rows, by_digit, by_length)

    need_words = params[K.PARAM_NEED_WORDS]
    long_target = params[K.PARAM_LONG_TARGET]
    long_after = params[K.PARAM_LONG_AFTER]
    word_bonus = params[K.PARAM_WORD_BONUS] if need_words > 0 else 0
    long_bonus = params[K.PARAM_LONG_BONUS] if long_target > 0 else 0
    # A state under constraints j (words still needed for the word bonus) and
    # f (1 while a word longer than long_after is still needed) is memoised
    # at radix * naug + j * nf + f: the radix alone without bonus targets.
    nf = long_target + 1
    naug = (need_words + 1) * nf

    def first_digit(swar: int) -> int:
        present = (swar + fields) & guard
        return digit_at[present & -present]

    def make_value(allow_left: bool) -> Callable[[int, int, int, int, int], int]:
        """The search of :func:`~quiddler.solver._kernels.state_value` for one
        mode (leftovers allowed or not), its memo a dict."""
        memo: dict[int, int] = {0: _BASE_KEY}  # the empty state with j = f = 0

        def value(radix: int, swar: int, points: int, j: int, f: int) -> int:
            key = radix * naug + j * nf + f
            best = memo.get(key)
            if best is not None:
                return best
            if radix == 0:  # j or f is not 0: a bonus the empty state cannot meet
                memo[key] = _INFEASIBLE
                return _INFEASIBLE
            d = first_digit(swar)
            full = ((points + _OFFSET) << _SHIFT) | _GO
            best = _INFEASIBLE
            guarded = swar | guard
            cj = j - 1 if j > 0 else 0
            for wswar, wradix, wpoints, wletters, _ in by_digit[d]:
                if (guarded - wswar) & guard == guard:
                    child = radix - wradix
                    cf = f if wletters <= long_after else 0
                    v = memo.get(child * naug + cj * nf + cf)
                    if v is None:
                        v = value(child, swar - wswar, points - wpoints, cj, cf)
                    if v != _INFEASIBLE:
                        v += wpoints << _SHIFT
                        if v > best:
                            best = v
                            if best >= full:
                                memo[key] = best
                                return best
            if allow_left:
                p = points_of[d]
                if best < (((points - 2 * p + _OFFSET) << _SHIFT) | _GO):
                    child = radix - strides[d]
                    v = memo.get(child * naug + j * nf + f)
                    if v is None:
                        v = value(child, swar - units[d], points - p, j, f)
                    if v != _INFEASIBLE:
                        v = (v & ~_GO) - (p << _SHIFT)
                        best = max(best, v)
            memo[key] = best
            return best

        def plain(radix: int, swar: int, points: int, j: int = 0, f: int = 0) -> int:
            """``value`` without bonus targets (``j`` and ``f`` always 0, the
            key the radix alone): the usual solve, spared building and hashing
            the larger key at every state."""
            best = memo.get(radix)
            if best is not None:
                return best
            d = first_digit(swar)
            full = ((points + _OFFSET) << _SHIFT) | _GO
            best = _INFEASIBLE
            guarded = swar | guard
            for wswar, wradix, wpoints, _, _ in by_digit[d]:
                if (guarded - wswar) & guard == guard:
                    child = radix - wradix
                    v = memo.get(child)
                    if v is None:
                        v = plain(child, swar - wswar, points - wpoints)
                    if v != _INFEASIBLE:
                        v += wpoints << _SHIFT
                        if v > best:
                            best = v
                            if best >= full:
                                memo[radix] = best
                                return best
            if allow_left:
                p = points_of[d]
                if best < (((points - 2 * p + _OFFSET) << _SHIFT) | _GO):
                    child = radix - strides[d]
                    v = memo.get(child)
                    if v is None:
                        v = plain(child, swar - units[d], points - p)
                    if v != _INFEASIBLE:
                        v = (v & ~_GO) - (p << _SHIFT)
                        best = max(best, v)
            memo[radix] = best
            return best

        return plain if naug == 1 else value

    value0 = make_value(False)
    value1 = make_value(True)
    Counts = dict[int, tuple[int, Word | None]]

    def make_count(value: Callable[[int, int, int, int, int], int],
                   allow_left: bool) -> tuple[Callable[[int, int, int, int, int], int], Counts]:  # fmt: skip
        """:func:`~quiddler.solver._kernels.state_count` for one mode: the most
        words in a best play of a state, and the first choice (words in
        group order, then the leftover: None) that reaches it."""
        counts_memo: Counts = {}

        def count(radix: int, swar: int, points: int, j: int, f: int) -> int:
            key = radix * naug + j * nf + f
            known = counts_memo.get(key)
            if known is not None:
                return known[0]
            if radix == 0:
                counts_memo[key] = (0, None)
                return 0
            target = value(radix, swar, points, j, f)
            d = first_digit(swar)
            best = K.NO_COUNT
            choice: Word | None = None
            guarded = swar | guard
            cj = j - 1 if j > 0 else 0
            for w in by_digit[d]:
                wswar, wradix, wpoints, wletters, _ = w
                if (guarded - wswar) & guard == guard:
                    child, child_swar, child_points = radix - wradix, swar - wswar, points - wpoints
                    cf = f if wletters <= long_after else 0
                    v = value(child, child_swar, child_points, cj, cf)
                    if v != _INFEASIBLE and v + (wpoints << _SHIFT) == target:
                        n = count(child, child_swar, child_points, cj, cf) + 1
                        if n > best:
                            best, choice = n, w
            p = points_of[d]
            if allow_left and (((points - 2 * p + _OFFSET) << _SHIFT) | _GO) >= target:
                child, child_swar, child_points = radix - strides[d], swar - units[d], points - p
                v = value(child, child_swar, child_points, j, f)
                if v != _INFEASIBLE and (v & ~_GO) - (p << _SHIFT) == target:
                    n = count(child, child_swar, child_points, j, f)
                    if n > best:
                        best, choice = n, None
            counts_memo[key] = (best, choice)
            return best

        return count, counts_memo

    count0, counts0 = make_count(value0, False)
    count1, counts1 = make_count(value1, True)
    cards = sum(counts) - (1 if discard else 0)
    chains = [chain for chain in reversed(by_length) if chain]  # the most letters first
    # Pass 1 and 2 try every (j, f) the targets allow, as the kernel does.
    constraints = [(j0, f0, (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0))
                   for j0 in ((0, need_words) if need_words > 0 else (0,)) for f0 in range(long_target + 1)]  # fmt: skip
    bonus_room = word_bonus + long_bonus

    def candidate(c: int) -> tuple[int, int, int]:
        if not discard:
            return full_radix, full_swar, hand_points
        return full_radix - strides[c], full_swar - units[c], hand_points - points_of[c]

    def best_play(allow_left: int, out: list[int], ob: int) -> int:
        """:func:`~quiddler.solver._kernels.best_play`."""
        ncand = ndig if discard else 1
        best_total = _INFEASIBLE
        optimal = 0
        even = 0  # the discards whose rest scores as much as the best, going out or not
        covers = True
        order = sorted(range(ndig), key=points_of.__getitem__) if discard else [0]  # stable: cheapest first
        for c in order:
            radix, swar, points = candidate(c)
            if best_total != _INFEASIBLE and points + bonus_room < (best_total >> _SHIFT) - _OFFSET:
                break
            for j0, f0, bonus in constraints:
                total = _INFEASIBLE
                if covers or not allow_left:
                    total = value0(radix, swar, points, j0, f0)
                    if total == _INFEASIBLE:
                        covers = False
                if total == _INFEASIBLE and allow_left:
                    total = value1(radix, swar, points, j0, f0)
                if total == _INFEASIBLE:
                    continue
                total += bonus << _SHIFT
                if total > best_total:
                    # A higher score, or the same one going out.
                    even = (1 << c) | (even if total >> _SHIFT == best_total >> _SHIFT else 0)
                    best_total = total
                    optimal = 1 << c
                elif total >> _SHIFT == best_total >> _SHIFT:
                    even |= 1 << c
                    if total == best_total:
                        optimal |= 1 << c
        out[ob + K.OUT_EVEN_DISCARDS] = even if discard else 0
        if best_total == _INFEASIBLE:
            return _INFEASIBLE
        target_points = (best_total >> _SHIFT) - _OFFSET
        best_count = K.NO_COUNT
        best_cand = 0
        best_j = 0
        best_f = 0
        best_mode = allow_left
        found_w: Word | None = None
        for chain in chains:
            for c in range(ncand):
                if not (optimal >> c) & 1:
                    continue
                radix, swar, points = candidate(c)
                guarded = swar | guard
                for w in chain:
                    wswar, wradix, wpoints, wletters, wcards = w
                    if (guarded - wswar) & guard != guard or best_count > (cards - wcards) // 2:
                        continue
                    rest = (radix - wradix, swar - wswar, points - wpoints)
                    for j0, f0, bonus in constraints:
                        cj = j0 - 1 if j0 > 0 else 0
                        cf = f0 if wletters <= long_after else 0
                        mode = 0 if target_points == points + bonus else allow_left
                        v = (value1 if mode else value0)(*rest, cj, cf)
                        if v == _INFEASIBLE or v + ((wpoints + bonus) << _SHIFT) != best_total:
                            continue
                        n = 1 + (count1 if mode else count0)(*rest, cj, cf)
                        if n > best_count:
                            found_w, best_count, best_cand, best_j, best_f, best_mode = w, n, c, cj, cf, mode
            if found_w is not None:
                break
        if found_w is None:  # no word is in any optimal play: every card is left over
            value = value1 if allow_left else value0
            for c in range(ncand):
                if value(*candidate(c), 0, 0) == best_total:
                    best_cand = c
                    break
        radix, swar, points = candidate(best_cand)
        out[ob + K.OUT_DISCARD] = best_cand if discard else K.NO_DISCARD
        out[ob + K.OUT_KEY] = best_total
        chosen: list[Word] = []
        left_digits: list[int] = []
        j, f = best_j, best_f
        if found_w is not None:
            chosen.append(found_w)
            radix -= found_w[1]
            swar -= found_w[0]
        else:
            (count1 if allow_left else count0)(radix, swar, points, 0, 0)
        choices = counts1 if best_mode else counts0
        while radix != 0:  # trace: follow the most-words choices
            choice = choices[radix * naug + j * nf + f][1]
            if choice is None:  # the first card left over
                d = first_digit(swar)
                radix -= strides[d]
                swar -= units[d]
                left_digits.append(d)
            else:
                chosen.append(choice)
                radix -= choice[1]
                swar -= choice[0]
                j = j - 1 if j > 0 else 0
                f = f if choice[3] <= long_after else 0
        _name(chosen, left_digits, out, ob)
        return best_total

    def _name(chosen: list[Word], left_digits: list[int], out: list[int], ob: int) -> None:
        """:func:`~quiddler.solver._kernels.name_words`: the words in display
        order (points, then letters, most first; a stable sort), the tie
        flag, the discard and leftovers as faces, the words as ranks."""
        keys = [(w[2] << K.DISPLAY_POINTS_SHIFT) + w[3] for w in chosen]
        order = sorted(range(len(chosen)), key=keys.__getitem__, reverse=True)
        out[ob + K.OUT_WORDS] = len(chosen)
        out[ob + K.OUT_LEFT] = len(left_digits)
        out[ob + K.OUT_TIES] = 1 if len(set(keys)) < len(keys) else 0
        if out[ob + K.OUT_DISCARD] != K.NO_DISCARD:
            out[ob + K.OUT_DISCARD] = faces[out[ob + K.OUT_DISCARD]]
        at = ob + K.OUT_LEFTOVERS
        for d in left_digits:
            out[at] = faces[d]
            at += 1
        at = ob + K.OUT_HEAD
        for i in order:
            radix = chosen[i][1]
            rank = 0
            e = 0
            for d in range(ndig):
                below = (1 << faces[d]) - 1
                for _ in range((radix // strides[d]) % (counts[d] + 1)):
                    e = (edges[e] >> _FIRST) + (masks[e] & below).bit_count()
                    rank += ranks[e]
            out[at] = rank
            at += 1

    out = [0] * (2 * _BLOCK)
    for allow_left in (1, 0):
        start = 0 if allow_left else _BLOCK
        out[start + K.OUT_KEY] = best_play(allow_left, out, start)
        if allow_left and out[K.OUT_LEFT] == 0:
            out[_BLOCK:] = out[:_BLOCK]  # the best play goes out: it is the best going-out play
            break
    return out
