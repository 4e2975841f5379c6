"""The solver's hot loops, written once for two backends.

This module is plain Python over integers and indexable sequences, with no
imports.  :mod:`quiddler.solver._native` loads this same source a second time
with ``kernel`` bound to ``numba.njit(cache=True)`` and feeds it numpy arrays;
the pure-Python backend runs it as it stands on lists and memoryviews, so a
one-off solve never pays for importing numba.  Keep it in the subset of
Python that numba compiles: ints, flat arrays indexed with ints, no objects.

Conventions (see :mod:`quiddler.solver._backends` for the Python side):

* A hand has ``ndig`` *digits*, one per distinct face, in kernel face order.
  ``hand[0]`` is ``ndig``, ``hand[1]`` the SWAR guard mask, ``hand[2]`` the
  number of states (mixed-radix size), ``hand[3]`` every SWAR field's mask
  (each at its shift), then six numbers
  per digit at ``HAND_HEAD + HAND_STRIDE * d``: face, count, points, radix
  stride, SWAR shift, SWAR field mask.
* A sub-multiset of the hand (a *state*) is a pair of ints: its mixed-radix
  index (to index the memo) and its SWAR packing, one bit field per digit
  with a guard bit above it, so ``W <= S`` is one subtraction and a mask.
* A word found in the hand is eight numbers at ``WORD_STRIDE * w``: rank in
  the card trie (only when asked for), radix delta, SWAR delta, points,
  letters, first digit, cards, next word of as many letters.
  Words come out grouped by first digit.
* A value is one int64 key that orders plays lexicographically by
  (score, goes out): ``(score + SCORE_OFFSET) << 8``, plus ``GO_BIT`` if
  nothing is left over.  (Top-K keys add the longest word and the word
  count below.)
"""

HAND_HEAD = 4
HAND_STRIDE = 6
WORD_STRIDE = 8
LENGTH_HEADS = 33  # group[LENGTH_HEADS + n]: first word of n letters
GROUP_SIZE = LENGTH_HEADS + 48
MAX_CARDS = 20
FRAME = 10  # stack frame of the memoised searches
DFS_FRAME = 11  # stack frame of the top-K search
WALK_FRAME = 9  # numbers per depth of the trie walk
FACE_ROW = 8  # numbers per face in the walk's face table (six used; eight makes the index a shift)
WALK_TABLE = WALK_FRAME * (MAX_CARDS + 2)  # where the walk's face table starts in its stack
STACK_SIZE = max(WALK_TABLE + FACE_ROW * 32, max(FRAME, DFS_FRAME) * (MAX_CARDS + 2))  # room for the walk or the searches
MEMO_SLOT = 5
SCORE_SHIFT = 8
GO_BIT = 128
SCORE_OFFSET = 1 << 20
BASE_KEY = (SCORE_OFFSET << SCORE_SHIFT) | GO_BIT
UNKNOWN = -2
INFEASIBLE = -1
OUT_HEAD = 5
OUT_TIES = 4  # a play block's flag: two of its words tie on points and letters
OUT_MAXC = 24
OUT_BLOCK = OUT_HEAD + 2 * OUT_MAXC
JOB_STATUS = 32 + 6  # a row of solve_rows' jobs: face counts, the six solve parameters, the status,
JOB_OUT = JOB_STATUS + 1  # then the two play blocks
JOB_WIDTH = JOB_OUT + 2 * OUT_BLOCK
FACE_TABLES = 64  # solve_rows' work array starts with face points and face letters
PACKED_WORDS = 4096  # solve_rows' usual word capacity; a hand with more is solved again with more room

#: Parameters that are arrays: the numba build types a parameter by its name
#: (``edges`` int32, ``ranks`` read-only int32, ``jobs`` a 2-d int64 array,
#: these 1-d int64 arrays, and every other parameter an int64).
ARRAY_PARAMETERS = frozenset({
    "face_count", "face_points", "face_letters", "params", "hand", "words", "group",
    "memo", "stack", "kstack", "out", "dfs", "path", "keys", "work",
})  # fmt: skip

# The native build injects ``kernel_decorator`` (numba.njit) before running
# this source; as plain Python the decorator does nothing.
kernel = globals().get("kernel_decorator", lambda fn: fn)


def _count_ones(bits):
    return int(bits).bit_count()  # int(): numpy's integers (NUMBA_DISABLE_JIT) may lack it


def _lowest_bit(bits):
    return int(bits & -bits).bit_length() - 1  # int(): numpy's integers have no bit_length


# Bit counting: the native build injects the CPU's own instructions
# (``popcnt`` and ``tzcnt``), plain Python uses ``int``'s methods.
count_ones = globals().get("count_ones_native", _count_ones)
lowest_bit = globals().get("lowest_bit_native", _lowest_bit)


@kernel
def find_words(edges, ranks, want_ranks, hand, face_points, face_letters, words, capacity, stack):
    """Walk the card trie with the hand's face counts; record every word.

    ``edges`` is :meth:`quiddler.cardtrie.CardTrie.kernel_edges` (the
    packed edges, then from half its length each edge's child-face mask)
    and ``ranks`` the trie's ranks, only read (and recorded) if
    ``want_ranks`` is non-zero, since the solver does not need them.
    ``hand`` is laid out by :func:`layout_hand`.  ``stack`` needs
    ``STACK_SIZE`` slots.  Returns the number of
    words written, or ``-1`` if more than ``capacity`` were found (or exactly
    ``capacity`` and the walk had further to go: the caller retries with
    more room either way).

    The walk keeps the faces still in hand as a bit mask: a node's edges to
    take are its child mask AND that, found at once, and the next one is
    the lowest bit, at the node's first edge plus the number of the node's
    faces below it.  Edges whose face is not in hand (about 60% of a
    node's, on 11-card hands) cost nothing, and there is no loop over a
    node's edges whose end the CPU must guess: scanning them, even without
    a branch per edge, made the walk half as slow again.  A node whose
    edges are all out of hand is not entered.  Words come out in trie order.

    What a visit adds (radix, SWAR, points, letters, digit) and the cards
    left of each face are in one table per face at the end of ``stack``:
    fewer arrays in the loop leave the CPU's registers to the walk's own
    numbers (the walk 7% faster than reading ``hand`` by digit).
    """
    n = 0
    half = len(edges) >> 1
    avail = 0  # bit f: face f is still in hand
    table = WALK_TABLE
    for d in range(hand[0]):
        h = HAND_HEAD + HAND_STRIDE * d
        face = hand[h]
        avail |= 1 << face
        t = table + FACE_ROW * face
        stack[t] = hand[h + 3]
        stack[t + 1] = 1 << hand[h + 4]
        stack[t + 2] = face_points[face]
        stack[t + 3] = face_letters[face]
        stack[t + 4] = d
        stack[t + 5] = hand[h + 1]  # cards of this face still in hand
    # stack, per depth: the rank, radix, swar, points and letters so far,
    # then the node's edges still to take, its first edge and its mask
    # (saved while a child is walked) and the face that entered it
    for t in range(WALK_FRAME):
        stack[t] = 0
    depth = 0
    base = 0
    node_mask = edges[half]
    todo = node_mask & avail
    first = edges[0] >> 11
    first_digit_of_word = 0
    while True:
        if todo == 0:  # leave the node: its face is back in hand
            if depth == 0:
                break
            face = stack[base + 8]
            stack[table + FACE_ROW * face + 5] += 1
            avail |= 1 << face
            depth -= 1
            base -= WALK_FRAME
            todo = stack[base + 5]
            first = stack[base + 6]
            node_mask = stack[base + 7]
            continue
        bit = todo & -todo
        todo ^= bit
        face = lowest_bit(bit)
        e = first + count_ones(node_mask & (bit - 1))
        packed = edges[e]
        t = table + FACE_ROW * face
        if depth == 0:
            first_digit_of_word = stack[t + 4]
        rank = stack[base] + ranks[e] if want_ranks != 0 else 0
        radix = stack[base + 1] + stack[t]
        swar = stack[base + 2] + stack[t + 1]
        points = stack[base + 3] + stack[t + 2]
        letters = stack[base + 4] + stack[t + 3]
        if n == capacity:
            return -1
        # Write the word and count it only if the edge ends one: no branch
        # to mispredict.
        w = WORD_STRIDE * n
        words[w] = rank
        words[w + 1] = radix
        words[w + 2] = swar
        words[w + 3] = points
        words[w + 4] = letters
        words[w + 5] = first_digit_of_word
        words[w + 6] = depth + 1
        n += (packed >> 10) & 1
        child_mask = edges[half + e]
        left = stack[t + 5] - 1
        child_avail = avail ^ (bit if left == 0 else 0)
        child_todo = child_mask & child_avail
        if child_todo != 0:
            stack[base + 5] = todo
            stack[base + 6] = first
            stack[base + 7] = node_mask
            stack[t + 5] = left
            avail = child_avail
            depth += 1
            base += WALK_FRAME
            stack[base] = rank
            stack[base + 1] = radix
            stack[base + 2] = swar
            stack[base + 3] = points
            stack[base + 4] = letters
            stack[base + 8] = face
            todo = child_todo
            first = packed >> 11
            node_mask = child_mask
    return n


@kernel
def group_words(words, nwords, ndig, group):
    """``group[d]:group[d+1]`` are the words whose first digit is ``d`` (the
    walk emits them grouped: the root's edges are in face order).  Within a
    group they stay in trie order: sorting them biggest first was measured
    to cost more than it saved.  The words of ``n`` letters are also chained
    from ``group[LENGTH_HEADS + n]`` through each word's eighth number
    (``-1`` ends a chain), for the longest-word search."""
    w = 0
    for d in range(ndig + 1):
        while w < nwords and words[WORD_STRIDE * w + 5] < d:
            w += 1
        group[d] = w
    for n in range(LENGTH_HEADS, len(group)):
        group[n] = -1
    for w in range(nwords - 1, -1, -1):
        head = LENGTH_HEADS + words[WORD_STRIDE * w + 4]
        words[WORD_STRIDE * w + 7] = group[head]
        group[head] = w


@kernel
def first_digit(hand, swar):
    """The lowest digit present in state ``swar`` (``hand[0]`` if none).

    Adding every field's mask (``hand[3]``) carries into the guard bit
    above each field that is not zero; the digit is then the number of
    guard bits below the lowest one set.  No loop over the digits, whose
    end the CPU mispredicted: 3% of a solve.
    """
    present = (swar + hand[3]) & hand[1]
    if present == 0:
        return hand[0]
    return count_ones(hand[1] & ((present & -present) - 1))


@kernel
def state_points(hand, swar):
    """Points of every card in state ``swar``."""
    total = 0
    for d in range(hand[0]):
        h = HAND_HEAD + HAND_STRIDE * d
        total += ((swar >> hand[h + 4]) & hand[h + 5]) * hand[h + 2]
    return total


@kernel
def state_value(words, group, hand, memo, stack, radix0, swar0, points0, j0, f0,
                need_words, long_target, long_after, allow_left):  # fmt: skip
    """The best (score, goes out) key of the state ``(radix0, swar0)``, whose
    cards are worth ``points0`` (every caller knows it), with constraints
    ``j0`` (words still needed) and ``f0`` (1 while a word longer than
    ``long_after`` letters is still needed); memoised in ``memo``.

    The state's rarest card is either left over or in a word that starts
    with it, which reaches every partition exactly once.  Words are tried
    before the leftover, biggest first, and a state stops as soon as every
    one of its cards is in a word: nothing can beat that.  With
    ``allow_left == 0`` no card may be left over (the word-only search: is
    there a full cover?); its values live in the second half of the memo.
    Memo slot ``i`` starts at ``1 + MEMO_SLOT * i``: the generation that wrote it (a slot
    from an older generation than ``memo[0]`` is unknown, so the memo never
    needs clearing), the key, the choice (``-1`` left over, else a word
    index), then the two numbers of :func:`state_count`.
    ``need_words`` and ``long_target`` are the largest ``j`` and ``f`` the
    memo has room for.
    """
    nf = long_target + 1
    naug = (need_words + 1) * nf
    gen = memo[0]
    half = 0 if allow_left != 0 else hand[2] * naug
    top = 1 + MEMO_SLOT * (radix0 * naug + j0 * nf + f0 + half)
    if memo[top] == gen:
        return memo[top + 1]
    guard = hand[1]
    d0 = first_digit(hand, swar0)
    stack[0] = radix0
    stack[1] = swar0
    stack[2] = j0
    stack[3] = f0
    stack[4] = d0
    stack[5] = group[d0] if d0 < hand[0] else 0
    stack[6] = INFEASIBLE
    stack[7] = -3
    stack[8] = points0
    sp = 1
    while sp > 0:
        base = FRAME * (sp - 1)
        radix = stack[base]
        swar = stack[base + 1]
        j = stack[base + 2]
        f = stack[base + 3]
        slot = 1 + MEMO_SLOT * (radix * naug + j * nf + f + half)
        if radix == 0:
            memo[slot] = gen
            memo[slot + 1] = BASE_KEY if (j == 0 and f == 0) else INFEASIBLE
            memo[slot + 2] = -3
            memo[slot + 3] = UNKNOWN
            sp -= 1
            continue
        d = stack[base + 4]
        cur = stack[base + 5]
        best = stack[base + 6]
        choice = stack[base + 7]
        points = stack[base + 8]
        full = ((points + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
        h = HAND_HEAD + HAND_STRIDE * d
        end = group[d + 1]
        child_radix = 0
        child_swar = 0
        child_j = 0
        child_f = 0
        child_points = 0
        pushed = False
        while cur < end and best < full:
            w = WORD_STRIDE * cur
            wswar = words[w + 2]
            if ((swar | guard) - wswar) & guard == guard:
                child_radix = radix - words[w + 1]
                child_swar = swar - wswar
                child_j = j - 1 if j > 0 else 0
                child_f = f if words[w + 4] <= long_after else 0
                child_points = points - words[w + 3]
                child = 1 + MEMO_SLOT * (child_radix * naug + child_j * nf + child_f + half)
                value = memo[child + 1] if memo[child] == gen else UNKNOWN
                if value == UNKNOWN:
                    pushed = True
                    break
                if value != INFEASIBLE:
                    cand = value + (words[w + 3] << SCORE_SHIFT)
                    if cand > best:
                        best = cand
                        choice = cur
            cur += 1
        if not pushed and cur == end and best < full:
            cur = end + 1
            # Leaving the card over scores at most every other card in words,
            # minus this card: skip it if the words already do as well.
            bound = ((points - 2 * hand[h + 2] + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
            if allow_left != 0 and best < bound:
                child_radix = radix - hand[h + 3]
                child_swar = swar - (1 << hand[h + 4])
                child_j = j
                child_f = f
                child_points = points - hand[h + 2]
                child = 1 + MEMO_SLOT * (child_radix * naug + j * nf + f + half)
                value = memo[child + 1] if memo[child] == gen else UNKNOWN
                if value == UNKNOWN:
                    cur = end
                    pushed = True
                elif value != INFEASIBLE:
                    cand = (value & ~GO_BIT) - (hand[h + 2] << SCORE_SHIFT)
                    if cand > best:
                        best = cand
                        choice = -1
        if pushed:
            stack[base + 5] = cur
            stack[base + 6] = best
            stack[base + 7] = choice
            nb = base + FRAME
            cd = first_digit(hand, child_swar)
            stack[nb] = child_radix
            stack[nb + 1] = child_swar
            stack[nb + 2] = child_j
            stack[nb + 3] = child_f
            stack[nb + 4] = cd
            stack[nb + 5] = group[cd] if cd < hand[0] else 0
            stack[nb + 6] = INFEASIBLE
            stack[nb + 7] = -3
            stack[nb + 8] = child_points
            sp += 1
            continue
        memo[slot] = gen
        memo[slot + 1] = best
        memo[slot + 2] = choice
        memo[slot + 3] = UNKNOWN
        sp -= 1
    return memo[top + 1]


@kernel
def state_count(words, group, hand, memo, stack, kstack, radix0, swar0, points0, j0, f0,
                need_words, long_target, long_after, allow_left):  # fmt: skip
    """The most words in any best play of a (feasible) state, memoised in
    the last two numbers of its memo slot (count, choice).

    Only choices that reach the state's best key are followed, so this
    visits the few states on optimal paths, not the whole state space.
    """
    nf = long_target + 1
    naug = (need_words + 1) * nf
    state_value(words, group, hand, memo, stack, radix0, swar0, points0, j0, f0,
                need_words, long_target, long_after, allow_left)  # fmt: skip
    half = 0 if allow_left != 0 else hand[2] * naug
    top = 1 + MEMO_SLOT * (radix0 * naug + j0 * nf + f0 + half)
    if memo[top + 3] != UNKNOWN:
        return memo[top + 3]
    guard = hand[1]
    d0 = first_digit(hand, swar0)
    kstack[0] = radix0
    kstack[1] = swar0
    kstack[2] = j0
    kstack[3] = f0
    kstack[4] = d0
    kstack[5] = group[d0] if d0 < hand[0] else 0
    kstack[6] = -1
    kstack[7] = -3
    kstack[8] = points0
    sp = 1
    while sp > 0:
        base = FRAME * (sp - 1)
        radix = kstack[base]
        swar = kstack[base + 1]
        j = kstack[base + 2]
        f = kstack[base + 3]
        slot = 1 + MEMO_SLOT * (radix * naug + j * nf + f + half)
        if radix == 0:
            memo[slot + 3] = 0
            memo[slot + 4] = -3
            sp -= 1
            continue
        points = kstack[base + 8]
        target = state_value(words, group, hand, memo, stack, radix, swar, points, j, f,
                             need_words, long_target, long_after, allow_left)  # fmt: skip
        d = kstack[base + 4]
        cur = kstack[base + 5]
        best = kstack[base + 6]
        choice = kstack[base + 7]
        h = HAND_HEAD + HAND_STRIDE * d
        end = group[d + 1]
        child_radix = 0
        child_swar = 0
        child_j = 0
        child_f = 0
        child_points = 0
        pushed = False
        while cur <= end:
            if cur < end:
                w = WORD_STRIDE * cur
                if ((swar | guard) - words[w + 2]) & guard != guard:
                    cur += 1
                    continue
                child_radix = radix - words[w + 1]
                child_swar = swar - words[w + 2]
                child_j = j - 1 if j > 0 else 0
                child_f = f if words[w + 4] <= long_after else 0
                child_points = points - words[w + 3]
            else:
                bound = ((points - 2 * hand[h + 2] + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
                if allow_left == 0 or bound < target:
                    cur += 1
                    continue
                child_points = points - hand[h + 2]
                child_radix = radix - hand[h + 3]
                child_swar = swar - (1 << hand[h + 4])
                child_j = j
                child_f = f
            value = state_value(words, group, hand, memo, stack, child_radix, child_swar, child_points, child_j,
                                child_f, need_words, long_target, long_after, allow_left)  # fmt: skip
            if value != INFEASIBLE:
                if cur < end:
                    cand = value + (words[WORD_STRIDE * cur + 3] << SCORE_SHIFT)
                else:
                    cand = (value & ~GO_BIT) - (hand[h + 2] << SCORE_SHIFT)
                if cand == target:
                    child = 1 + MEMO_SLOT * (child_radix * naug + child_j * nf + child_f + half)
                    count = memo[child + 3]
                    if count == UNKNOWN:
                        pushed = True
                        break
                    if cur < end:
                        count += 1
                    if count > best:
                        best = count
                        choice = cur if cur < end else -1
            cur += 1
        if pushed:
            kstack[base + 5] = cur
            kstack[base + 6] = best
            kstack[base + 7] = choice
            nb = base + FRAME
            cd = first_digit(hand, child_swar)
            kstack[nb] = child_radix
            kstack[nb + 1] = child_swar
            kstack[nb + 2] = child_j
            kstack[nb + 3] = child_f
            kstack[nb + 4] = cd
            kstack[nb + 5] = group[cd] if cd < hand[0] else 0
            kstack[nb + 6] = -1
            kstack[nb + 7] = -3
            kstack[nb + 8] = child_points
            sp += 1
            continue
        memo[slot + 3] = best
        memo[slot + 4] = choice
        sp -= 1
    return memo[top + 3]


@kernel
def trace(words, hand, memo, radix, swar, j, f, need_words, long_target, long_after, allow_left,
          out, ob, nwords, nleft):  # fmt: skip
    """Follow the most-words choices (:func:`state_count` must have run on
    the state) and append the play's words and leftover digits to the block
    of ``out`` at ``ob`` (see :func:`best_play`)."""
    nf = long_target + 1
    naug = (need_words + 1) * nf
    maxc = OUT_MAXC
    half = 0 if allow_left != 0 else hand[2] * naug
    while radix != 0:
        slot = 1 + MEMO_SLOT * (radix * naug + j * nf + f + half)
        choice = memo[slot + 4]
        if choice == -1:
            d = first_digit(hand, swar)
            h = HAND_HEAD + HAND_STRIDE * d
            radix -= hand[h + 3]
            swar -= 1 << hand[h + 4]
            out[ob + OUT_HEAD + maxc + nleft] = d
            nleft += 1
        else:
            w = WORD_STRIDE * choice
            radix -= words[w + 1]
            swar -= words[w + 2]
            j = j - 1 if j > 0 else 0
            f = f if words[w + 4] <= long_after else 0
            out[ob + OUT_HEAD + nwords] = choice
            nwords += 1
    out[ob + 1] = nwords
    out[ob + 2] = nleft


@kernel
def best_play(words, nwords, group, hand, memo, stack, kstack, full_radix, full_swar, discard,
              need_words, long_target, long_after, word_bonus, long_bonus, allow_left, out, ob):  # fmt: skip
    """Solve the hand and write the best play to the block of ``out`` at ``ob``.

    A block holds: ``[0]`` the discarded digit or -1, ``[1]`` the number of
    words, ``[2]`` the number of leftovers, ``[3]`` the total key (bonuses
    included), ``[OUT_TIES]`` set by :func:`name_words`; the word indices
    follow from ``[OUT_HEAD]``, the leftover
    digits from ``[OUT_HEAD + OUT_MAXC]``.  Returns the total key, or
    ``INFEASIBLE`` if no play qualifies (only possible with ``allow_left == 0``).

    Plays rank by (total, goes out, longest word in letters, number of
    words).  The memo holds the first two, which compose and allow the
    early stops that make the search fast; the longest word (a maximum,
    which does not compose) and the number of words are settled after, on
    optimal plays only.
    """
    ndig = hand[0]
    ncand = ndig if discard != 0 else 1
    njs = 2 if need_words > 0 else 1
    bonus_room = (word_bonus if need_words > 0 else 0) + (long_bonus if long_target > 0 else 0)
    hand_points = state_points(hand, full_swar)
    cards = -1 if discard != 0 else 0  # the cards a play holds
    for d in range(ndig):
        cards += hand[HAND_HEAD + HAND_STRIDE * d + 1]
    best_total = INFEASIBLE
    # Pass 1: the best (total, goes out), cheapest discard first: a discard
    # whose remaining points cannot reach the best so far is skipped.  The
    # discards that reach the best are noted in ``optimal`` (one bit each):
    # only they can be part of an optimal play, so pass 2 looks at no other.
    used = 0
    covers = 1
    optimal = 0
    for _ in range(ncand):
        c = 0
        if discard != 0:
            c = -1
            for e in range(ndig):
                if (used >> e) & 1 == 0 and (c < 0 or hand[HAND_HEAD + HAND_STRIDE * e + 2] < hand[HAND_HEAD + HAND_STRIDE * c + 2]):
                    c = e
            used |= 1 << c
        radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
        if best_total != INFEASIBLE and points + bonus_room < (best_total >> SCORE_SHIFT) - SCORE_OFFSET:
            break  # and so would every later discard: none is cheaper
        for jj in range(njs):
            j0 = need_words if jj == 1 else 0
            for f0 in range(long_target + 1):
                # Can every card go in words?  That is the best there is, and
                # the word-only search that answers it is much smaller.  But
                # once one discard leaves a hand that cannot go out, the
                # others are searched with leftovers at once: the answer is
                # the same (a cover still wins there), and proving that a
                # hand cannot go out was much of the slowest hands' time.
                value = INFEASIBLE
                if covers != 0 or allow_left == 0:
                    value = state_value(words, group, hand, memo, stack, radix, swar, points, j0, f0,
                                        need_words, long_target, long_after, 0)  # fmt: skip
                    if value == INFEASIBLE:
                        covers = 0
                if value == INFEASIBLE and allow_left != 0:
                    value = state_value(words, group, hand, memo, stack, radix, swar, points, j0, f0,
                                        need_words, long_target, long_after, 1)  # fmt: skip
                if value == INFEASIBLE:
                    continue
                bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                total = value + (bonus << SCORE_SHIFT)
                if total > best_total:
                    best_total = total
                    optimal = 1 << c
                elif total == best_total:
                    optimal |= 1 << c
    if best_total == INFEASIBLE:
        return INFEASIBLE
    target_points = (best_total >> SCORE_SHIFT) - SCORE_OFFSET

    # Pass 2: the longest word of any optimal play.  Such a play holds a
    # word W, and then W plus the best play of the rest is optimal too, so
    # try words from the most letters down: the first W that reaches the
    # optimum fixes the length; words of that length then compete on the
    # number of words (W plus the most words among best plays of the rest).
    max_letters = len(group) - LENGTH_HEADS - 1
    best_count = -1
    best_cand = 0
    best_j = 0
    best_f = 0
    best_mode = allow_left
    found_w = -1
    for length in range(max_letters, 1, -1):
        if group[LENGTH_HEADS + length] < 0:
            continue
        for c in range(ncand):
            if (optimal >> c) & 1 == 0:
                continue
            radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
            guarded = swar | hand[1]
            w = group[LENGTH_HEADS + length]
            while w >= 0:
                word = w
                wb = WORD_STRIDE * word
                w = words[wb + 7]
                if (guarded - words[wb + 2]) & hand[1] != hand[1]:
                    continue
                if best_count > (cards - words[wb + 6]) // 2:
                    # Its rest has too few cards (two a word) for a play
                    # with more words than the best so far: no search can
                    # change the answer.  This skipped most of pass 2's
                    # searches: a solve 13% faster.
                    continue
                rest_radix = radix - words[wb + 1]
                rest_swar = swar - words[wb + 2]
                rest_points = points - words[wb + 3]
                for jj in range(njs):
                    j0 = need_words if jj == 1 else 0
                    cj = j0 - 1 if j0 > 0 else 0
                    for f0 in range(long_target + 1):
                        cf = f0 if length <= long_after else 0
                        bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                        # If the optimum puts every card in words, the rest
                        # must be covered by words: ask the word-only search.
                        mode = 0 if target_points == points + bonus else allow_left
                        value = state_value(words, group, hand, memo, stack, rest_radix, rest_swar, rest_points,
                                            cj, cf, need_words, long_target, long_after, mode)  # fmt: skip
                        if value == INFEASIBLE or value + ((words[wb + 3] + bonus) << SCORE_SHIFT) != best_total:
                            continue
                        count = 1 + state_count(words, group, hand, memo, stack, kstack, rest_radix, rest_swar,
                                                rest_points, cj, cf, need_words, long_target, long_after,
                                                mode)  # fmt: skip
                        if count > best_count:
                            found_w = word
                            best_count = count
                            best_cand = c
                            best_j = cj
                            best_f = cf
                            best_mode = mode
        if found_w >= 0:
            break
    if found_w < 0:
        # No word is in any optimal play: every card is left over.
        for c in range(ncand):
            radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
            if state_value(words, group, hand, memo, stack, radix, swar, points, 0, 0, need_words, long_target,
                           long_after, allow_left) == best_total:  # fmt: skip
                best_cand = c
                break
    radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, best_cand)
    out[ob] = best_cand if discard != 0 else -1
    out[ob + 3] = best_total
    if found_w >= 0:
        wb = WORD_STRIDE * found_w
        out[ob + OUT_HEAD] = found_w
        trace(words, hand, memo, radix - words[wb + 1], swar - words[wb + 2], best_j, best_f,
              need_words, long_target, long_after, best_mode, out, ob, 1, 0)  # fmt: skip
    else:
        state_count(words, group, hand, memo, stack, kstack, radix, swar, points, 0, 0, need_words, long_target,
                    long_after, allow_left)  # fmt: skip
        trace(words, hand, memo, radix, swar, 0, 0, need_words, long_target, long_after, allow_left,
              out, ob, 0, 0)  # fmt: skip
    return best_total


@kernel
def _candidate(hand, full_radix, full_swar, hand_points, discard, c):
    """(radix, swar, points) of the hand after discarding digit ``c`` (or of
    the whole hand when not discarding)."""
    if discard == 0:
        return full_radix, full_swar, hand_points
    h = HAND_HEAD + HAND_STRIDE * c
    return full_radix - hand[h + 3], full_swar - (1 << hand[h + 4]), hand_points - hand[h + 2]


@kernel
def layout_hand(face_count, face_points, hand):
    """Fill ``hand`` (see the module docstring) from the hand's count of
    each kernel face.  Returns the number of states."""
    ndig = 0
    stride = 1
    shift = 0
    guard = 0
    fields = 0
    for face in range(len(face_count)):
        count = face_count[face]
        if count == 0:
            continue
        bits = 0
        while (1 << bits) <= count:
            bits += 1
        h = HAND_HEAD + HAND_STRIDE * ndig
        hand[h] = face
        hand[h + 1] = count
        hand[h + 2] = face_points[face]
        hand[h + 3] = stride
        hand[h + 4] = shift
        hand[h + 5] = (1 << bits) - 1
        guard |= 1 << (shift + bits)
        fields |= ((1 << bits) - 1) << shift
        stride *= count + 1
        shift += bits + 1
        ndig += 1
    hand[0] = ndig
    hand[1] = guard
    hand[2] = stride
    hand[3] = fields
    return stride


@kernel
def prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack):
    """Lay the hand out, find its words and group them; shared set-up of the
    entry kernels.  Returns the number of states, or ``-1`` if ``words`` or
    ``-2`` if ``memo`` is too small."""
    nstates = layout_hand(face_count, face_points, hand)
    size = 1 + 2 * MEMO_SLOT * nstates * (params[1] + 1) * (params[2] + 1)
    if size > len(memo):
        return -2
    capacity = len(words) // WORD_STRIDE
    nwords = find_words(edges, ranks, 0, hand, face_points, face_letters, words, capacity, stack)
    if nwords < 0:
        return -1
    group_words(words, nwords, hand[0], group)
    return nstates


@kernel
def full_state(hand):
    """(radix, swar) of the whole hand."""
    radix = 0
    swar = 0
    for d in range(hand[0]):
        h = HAND_HEAD + HAND_STRIDE * d
        radix += hand[h + 1] * hand[h + 3]
        swar += hand[h + 1] << hand[h + 4]
    return radix, swar


@kernel
def solve_counts(edges, ranks, face_count, face_points, face_letters, params,
                 hand, words, group, memo, stack, kstack, out):  # fmt: skip
    """Solve one hand given as counts per kernel face; the whole job in one call.

    ``params``: discard (0/1), need_words, long_target (0/1), long_after,
    word_bonus, long_bonus.  Writes the best play to ``out[:OUT_BLOCK]`` and
    the best going-out play to the next block, each laid out as
    :func:`best_play` describes and named by :func:`name_words` (word ranks,
    and kernel faces for the discard and leftovers), with the second
    block's ``[3]`` set to ``INFEASIBLE`` when the hand cannot go out.  Returns the number of words
    found, or ``-1`` if ``words`` was too small (nothing else is written) or
    ``-2`` if ``memo`` was.
    """
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    nwords = group[hand[0]]
    full_radix, full_swar = full_state(hand)
    block = OUT_BLOCK
    memo[0] += 1  # a new generation: every slot stamped otherwise is unknown
    for allow_left in range(1, -1, -1):
        start = 0 if allow_left == 1 else block
        result = best_play(words, nwords, group, hand, memo, stack, kstack, full_radix, full_swar,
                           params[0], params[1], params[2], params[3], params[4], params[5],
                           allow_left, out, start)  # fmt: skip
        out[start + 3] = result
        name_words(edges, ranks, hand, words, out, start)
        if allow_left == 1 and out[2] == 0:
            for i in range(block):  # the best play goes out: it is the best going-out play
                out[block + i] = out[i]
            break
    return nwords




@kernel
def top_plays(edges, ranks, face_count, face_points, face_letters, params,
              hand, words, group, memo, stack, dfs, path, keys, out):  # fmt: skip
    """The ``len(keys)`` best distinct plays, by branch and bound.

    Every partition of the hand (per discard) is reached exactly once: the
    state's rarest card is left over or in the word that holds it, and
    copies of one face are taken in a fixed order (see the child frames),
    so no play is produced twice.  A branch is cut when its score so far plus the
    exact best score of the rest (from the memo) plus every bonus still
    possible cannot reach the worst play kept.  Plays are kept sorted by
    (total, goes out, longest word, word count) in ``keys``; play ``i`` is
    written to ``out`` at ``i * OUT_BLOCK`` as :func:`solve_counts` writes its blocks.  ``dfs`` needs ``DFS_FRAME * (cards
    + 2)`` slots and ``path`` ``cards + 2``.  Returns the number of plays
    found, or a negative number as :func:`solve_counts` does.
    """
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    discard = params[0]
    need_words = params[1]
    long_target = params[2]
    long_after = params[3]
    word_bonus = params[4] if need_words > 0 else 0
    long_bonus = params[5] if long_target > 0 else 0
    naug = (need_words + 1) * (long_target + 1)
    memo[0] += 1
    limit = len(keys)
    block = OUT_BLOCK
    maxc = OUT_MAXC
    found = 0
    full_radix, full_swar = full_state(hand)
    ndig = hand[0]
    guard = hand[1]
    ncand = ndig if discard != 0 else 1
    maxlen = 0  # letters of the hand's longest word
    for w in range(group[ndig]):
        maxlen = max(maxlen, words[WORD_STRIDE * w + 4])
    for c in range(ncand):
        radix = full_radix
        swar = full_swar
        if discard != 0:
            h = HAND_HEAD + HAND_STRIDE * c
            radix -= hand[h + 3]
            swar -= 1 << hand[h + 4]
        # frame: radix, swar, first digit, cursor, score so far, words, longest, all in words, memo choice
        dfs[0] = radix
        dfs[1] = swar
        dfs[2] = first_digit(hand, swar)
        dfs[3] = -2
        dfs[4] = 0
        dfs[5] = 0
        dfs[6] = 0
        dfs[7] = 1
        dfs[8] = -3
        dfs[9] = group[dfs[2]] if dfs[2] < ndig else 0
        dfs[10] = 0
        sp = 0
        while sp >= 0:
            fb = DFS_FRAME * sp
            radix = dfs[fb]
            swar = dfs[fb + 1]
            acc = dfs[fb + 4]
            nw = dfs[fb + 5]
            longest = dfs[fb + 6]
            go = dfs[fb + 7]
            if radix == 0:
                total = acc
                if nw >= need_words:
                    total += word_bonus
                if longest > long_after:
                    total += long_bonus
                key = ((total + SCORE_OFFSET) << 16) | (go << 15) | (longest << 7) | nw
                if found < limit or key > keys[limit - 1]:
                    slot = found if found < limit else limit - 1
                    while slot > 0 and keys[slot - 1] < key:
                        slot -= 1
                    last = found if found < limit else limit - 1
                    for i in range(last, slot, -1):  # shift worse plays down one place
                        keys[i] = keys[i - 1]
                        for t in range(block):
                            out[i * block + t] = out[(i - 1) * block + t]
                    keys[slot] = key
                    ob = slot * block
                    out[ob] = c if discard != 0 else -1
                    out[ob + 3] = ((total + SCORE_OFFSET) << SCORE_SHIFT) | (go << 7) | nw
                    nwd = 0
                    nleft = 0
                    for i in range(sp):
                        choice = path[i]
                        if choice >= 0:
                            out[ob + OUT_HEAD + nwd] = choice
                            nwd += 1
                        else:
                            out[ob + OUT_HEAD + maxc + nleft] = -1 - choice
                            nleft += 1
                    out[ob + 1] = nwd
                    out[ob + 2] = nleft
                    if found < limit:
                        found += 1
                sp -= 1
                continue
            d = dfs[fb + 2]
            cursor = dfs[fb + 3]
            h = HAND_HEAD + HAND_STRIDE * d
            if cursor == -2:
                # Try the memo's best choice first, so good plays come early and
                # the bound starts cutting at once.
                state_value(words, group, hand, memo, stack, radix, swar, state_points(hand, swar), 0, 0,
                            need_words, long_target, long_after, 1)  # fmt: skip
                dfs[fb + 8] = memo[1 + MEMO_SLOT * (radix * naug) + 2]  # allow_left = 1: the first half
            floor = dfs[fb + 9]
            leftover_only = dfs[fb + 10]
            preferred = dfs[fb + 8]
            if preferred >= 0 and (leftover_only != 0 or preferred < floor):
                preferred = -3  # not allowed here (see below): no preference
            # Next option: -2 the preferred one, -1 left over, then the words.
            option = -4
            while option == -4:
                if cursor == -2:
                    cursor = -1
                    if preferred != -3:
                        option = preferred
                elif cursor == -1:
                    cursor = group[d + 1] if leftover_only != 0 else floor
                    if preferred != -1:
                        option = -1
                elif cursor < group[d + 1]:
                    w = cursor
                    cursor += 1
                    if w != preferred and ((swar | guard) - words[WORD_STRIDE * w + 2]) & guard == guard:
                        option = w
                else:
                    option = -5
            dfs[fb + 3] = cursor
            if option == -5:
                sp -= 1
                continue
            if option == -1:
                child_radix = radix - hand[h + 3]
                child_swar = swar - (1 << hand[h + 4])
                child_acc = acc - hand[h + 2]
                child_nw = nw
                child_longest = longest
                child_go = 0
            else:
                wb = WORD_STRIDE * option
                child_radix = radix - words[wb + 1]
                child_swar = swar - words[wb + 2]
                child_acc = acc + words[wb + 3]
                child_nw = nw + 1
                child_longest = max(longest, words[wb + 4])
                child_go = go
            if found == limit:
                rest = state_value(words, group, hand, memo, stack, child_radix, child_swar,
                                   state_points(hand, child_swar), 0, 0, need_words, long_target, long_after,
                                   1)  # fmt: skip
                bound = child_acc + ((rest >> SCORE_SHIFT) - SCORE_OFFSET) + word_bonus + long_bonus
                worst = keys[limit - 1]
                if bound < (worst >> 16) - SCORE_OFFSET:
                    continue
                if bound == (worst >> 16) - SCORE_OFFSET:
                    # A tie on score enters only with a better (goes out,
                    # longest word, words): bound those too, or every play
                    # tied with the K-th is visited (millions on 20 cards).
                    left = 0
                    letters = 0
                    for dd in range(ndig):
                        hh = HAND_HEAD + HAND_STRIDE * dd
                        k = (child_swar >> hand[hh + 4]) & hand[hh + 5]
                        left += k
                        letters += k * face_letters[hand[hh]]
                    reach = max(child_longest, min(letters, maxlen))
                    if ((bound + SCORE_OFFSET) << 16) | (child_go << 15) | (reach << 7) | (child_nw + left // 2) <= worst:
                        continue
            path[sp] = option if option >= 0 else -1 - d
            nb = fb + DFS_FRAME
            dfs[nb] = child_radix
            dfs[nb + 1] = child_swar
            dfs[nb + 2] = first_digit(hand, child_swar)
            dfs[nb + 3] = -2
            dfs[nb + 4] = child_acc
            dfs[nb + 5] = child_nw
            dfs[nb + 6] = child_longest
            dfs[nb + 7] = child_go
            dfs[nb + 8] = -3
            # Identical cards would let one partition be reached several ways
            # (this copy left over and that one in a word, or two words in
            # either order).  So, while a digit stays first: words come in
            # rising index order, then its leftovers, then nothing else.
            cd = dfs[nb + 2]
            if cd == d:
                dfs[nb + 9] = option if option >= 0 else group[d + 1]
                dfs[nb + 10] = 1 if option < 0 else 0
            else:
                dfs[nb + 9] = group[cd] if cd < ndig else 0
                dfs[nb + 10] = 0
            sp += 1
    for i in range(found):
        name_words(edges, ranks, hand, words, out, i * OUT_BLOCK)
    return found


@kernel
def display_key(words, w):
    """Word ``w``'s place in a play's display: points, then letters (a
    word has fewer than 256 letters)."""
    return (words[WORD_STRIDE * w + 3] << 8) + words[WORD_STRIDE * w + 4]


@kernel
def name_words(edges, ranks, hand, words, out, ob):
    """Name a play block's cards for good, for the caller (the ``words``
    buffer and the hand's layout are reused): its word indices become the
    words' ranks in the card trie, and its discard and leftover digits
    become kernel faces (so the caller maps them to cards without working
    out the hand's digits).

    The words are put in the order a play shows them, most points first,
    then most letters, and ``[OUT_TIES]`` says whether two of them tie on
    both (only then must the caller order by the words' text): sorting
    them in Python, on objects the kernel had just pushed out of the CPU's
    caches, cost about a microsecond of every ``solve()``.
    """
    if out[ob + 3] == INFEASIBLE:
        return
    start = ob + OUT_HEAD
    ties = 0
    for i in range(start + 1, start + out[ob + 1]):  # insertion sort: a play has a few words
        w = out[i]
        key = display_key(words, w)
        j = i
        while j > start:
            before = out[j - 1]
            key_before = display_key(words, before)
            if key_before >= key:
                ties |= 1 if key_before == key else 0
                break
            out[j] = before
            j -= 1
        out[j] = w
    out[ob + OUT_TIES] = ties
    if out[ob] >= 0:
        out[ob] = hand[HAND_HEAD + HAND_STRIDE * out[ob]]
    for i in range(ob + OUT_HEAD + OUT_MAXC, ob + OUT_HEAD + OUT_MAXC + out[ob + 2]):
        out[i] = hand[HAND_HEAD + HAND_STRIDE * out[i]]
    half = len(edges) >> 1
    for i in range(out[ob + 1]):
        radix = words[WORD_STRIDE * out[ob + OUT_HEAD + i] + 1]
        rank = 0
        e = 0
        for d in range(hand[0]):
            h = HAND_HEAD + HAND_STRIDE * d
            below = (1 << hand[h]) - 1  # the faces before this one
            for _ in range((radix // hand[h + 3]) % (hand[h + 1] + 1)):
                e = (edges[e] >> 11) + count_ones(edges[half + e] & below)
                rank += ranks[e]
        out[ob + OUT_HEAD + i] = rank


@kernel
def solve_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`solve_counts` for rows ``first, first + step, ...`` of ``jobs``,
    with every buffer carved out of one ``work`` array (numpy only: the
    slices are views).  The entry point of the compiled backend, for one
    hand (a one-row ``jobs``) and for batches (one call per thread, each
    with its own ``work``; the GIL is released, so threads run in parallel).

    A row of ``jobs`` is ``JOB_WIDTH`` numbers: the hand's 32 face counts,
    the six solve parameters, then the result: :func:`solve_counts`' return
    value at ``JOB_STATUS`` (negative: the packed buffers were too small,
    solve that hand with more room) and its two play blocks from ``JOB_OUT``.
    ``capacity`` words fit in ``work`` (see :func:`work_size`).
    Each array argument costs the caller's side of a compiled call about a
    microsecond to check and unpack, so there are two besides the trie.
    ``work`` starts with the face points and letters (32 each); the memo
    comes last, at a fixed offset, so its generation stamps outlive the call.
    """
    at = FACE_TABLES
    hand = work[at : at + HAND_HEAD + HAND_STRIDE * 32]
    at += HAND_HEAD + HAND_STRIDE * 32
    group = work[at : at + GROUP_SIZE]
    at += GROUP_SIZE
    stack = work[at : at + STACK_SIZE]
    at += STACK_SIZE
    kstack = work[at : at + STACK_SIZE]
    at += STACK_SIZE
    words = work[at : at + WORD_STRIDE * capacity]
    at += WORD_STRIDE * capacity
    memo = work[at:]
    for i in range(first, len(jobs), step):
        job = jobs[i]
        job[JOB_STATUS] = solve_counts(edges, ranks, job[:32], work[:32], work[32:64], job[32:JOB_STATUS], hand,
                                       words, group, memo, stack, kstack, job[JOB_OUT:])  # fmt: skip
    return 0


def work_size(capacity: int, memo_size: int) -> int:
    """The size of a :func:`solve_rows` work array with room for ``capacity``
    words and a memo of ``memo_size``."""
    return FACE_TABLES + HAND_HEAD + HAND_STRIDE * 32 + GROUP_SIZE + 2 * STACK_SIZE + WORD_STRIDE * capacity + memo_size
