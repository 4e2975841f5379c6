"""The solver's hot loops, written once for two backends.

This module is plain Python over integers and indexable sequences, with no
imports.  The pure-Python backend runs it as it stands, on lists, arrays
and memoryviews, so a one-off solve never pays for importing numba.
:mod:`quiddler.solver._build` compiles the same source a second time with
numba, for numpy arrays; that build imposes rules on the source which plain
Python does not check:

* **Stay in what numba compiles.**  Ints, flat int64 arrays indexed with
  ints, tuples of ints as return values; no objects, no imports, no
  strings.  Values must fit in an int64: numba wraps where Python grows.
* **Never index from the end.**  In every function decorated ``@kernel``,
  every element index ``a[i]`` is rewritten to ``a[index_cast(i)]``, with
  ``index_cast`` numba's ``uint64``: an unsigned index needs no fix-up for
  negative values, which would otherwise cost a few instructions per access.
  So ``a[-1]``, which plain Python reads from the end, reads far out of
  range in the compiled build (numba checks no bounds).  Slices are not
  rewritten.  ``tests/test_native.py`` runs the kernels on lists that
  refuse negative indices and checks the source for negative literals.
* **Allocate nothing.**  Kernels are compiled with ``_nrt=False`` (numba's
  reference-counting runtime off, which saved an atomic increment and
  decrement per array argument and slice): no ``np.empty``, no lists, dicts
  or strings, no returning an array, no exception that carries a value.
  Every buffer comes from the caller; a slice of one (a view) is fine.
* **Parameter names are types.**  Each kernel is compiled for exactly one
  signature, derived from its parameter names (see
  :data:`ARRAY_PARAMETERS`), and then frozen: an array parameter with a new
  name must be added there.
* **Bit counting is the CPU's.**  :func:`count_ones` and :func:`lowest_bit`
  become LLVM's ``ctpop`` and ``cttz`` (``popcnt`` and ``tzcnt``); plain
  Python uses ``int``'s methods.  The two agree only on positive arguments
  (``lowest_bit(0)`` differs), which is all the kernels pass.
* **Module-level ints are constants.**  numba freezes the module's integer
  globals into the compiled code, so the named offsets below cost nothing;
  anything else at module level (the frozenset below) is for Python callers.

Conventions (see :mod:`quiddler.solver._backends` for the Python side):

* A hand has ``ndig`` *digits*, one per distinct face, in kernel face order.
  Its layout is the four numbers ``HAND_DIGITS`` .. ``HAND_FIELDS`` (the
  digit count, the SWAR guard mask, the number of states, every SWAR
  field's mask at its shift), then ``HAND_STRIDE`` numbers per digit at
  ``HAND_HEAD + HAND_STRIDE * d``, named ``DIGIT_*``: face, count, points,
  radix stride, SWAR shift, SWAR field mask.
* A sub-multiset of the hand (a *state*) is a pair of ints: its mixed-radix
  index (to index the memo) and its SWAR packing, one bit field per digit
  with a guard bit above it, so ``W <= S`` is one subtraction and a mask.
* A word found in the hand is ``WORD_STRIDE`` numbers at ``WORD_STRIDE * w``,
  named ``WORD_*``: rank in the card trie (only when asked for), radix
  delta, SWAR delta, points, letters, cards, next word of as many letters.
  Words come out grouped by first digit (see :func:`group_words`).
* A value is one int64 key that orders plays lexicographically by
  (score, goes out): ``(score + SCORE_OFFSET) << SCORE_SHIFT``, plus
  ``GO_BIT`` if nothing is left over.  (Top-K keys add the longest word and
  the word count below: ``TOP_*``.)
* Memo slot ``i`` is ``MEMO_SLOT`` numbers from :func:`memo_slot`, named
  ``MEMO_*``; ``memo[MEMO_GENERATION]`` is the current generation.
"""

# -- the hand's layout (see layout_hand) --------------------------------------
HAND_DIGITS = 0  # number of digits (distinct faces)
HAND_GUARD = 1  # the SWAR guard bit above every digit's field
HAND_STATES = 2  # number of states: the mixed-radix size
HAND_FIELDS = 3  # every SWAR field's mask, each at its shift
HAND_HEAD = 4  # where the digits start
DIGIT_FACE = 0  # a digit's kernel face
DIGIT_COUNT = 1  # its cards in the hand
DIGIT_POINTS = 2  # the points of one of its cards
DIGIT_STRIDE = 3  # its stride in the mixed radix
DIGIT_SHIFT = 4  # its field's shift in the SWAR packing
DIGIT_MASK = 5  # its field's mask (unshifted)
HAND_STRIDE = 6
FACE_SLOTS = 32  # kernel faces a face-count row has room for
HAND_SIZE = HAND_HEAD + HAND_STRIDE * FACE_SLOTS

# -- a word found in the hand (see find_words) ---------------------------------
WORD_RANK = 0  # its multiset's rank in the card trie (only when asked for)
WORD_RADIX = 1  # radix delta: subtract from a state's index to take the word
WORD_SWAR = 2  # SWAR delta
WORD_POINTS = 3
WORD_LETTERS = 4
WORD_CARDS = 5
WORD_NEXT = 6  # the next word of as many letters (see group_words), or NO_WORD
WORD_STRIDE = 7
LENGTH_HEADS = 33  # group[LENGTH_HEADS + n]: first word of n letters
LETTER_SLOTS = 48  # word lengths 0 .. LETTER_SLOTS - 1 have a chain
GROUP_LONGEST = LENGTH_HEADS + LETTER_SLOTS  # the most letters of a word of the hand (1 if it has none)
GROUP_SIZE = GROUP_LONGEST + 1
NO_WORD = -1  # ends a chain of words of one length
MAX_CARDS = 20

# -- the card trie's packed edges (as quiddler.cardtrie lays them out) ----------
EDGE_TERMINAL_SHIFT = 10  # bit 10: the edge ends a multiset
EDGE_FIRST_SHIFT = 11  # from bit 11: the target's first edge
ROOT_EDGE = 0  # the virtual edge into the root

# -- find_words' stack: one frame per depth, then a table of the faces ----------
WALK_CARDS = 0  # the cards, radix, SWAR, points and letters so far
WALK_RADIX = 1
WALK_SWAR = 2
WALK_POINTS = 3
WALK_LETTERS = 4
WALK_TODO = 5  # the node's edges still to take (saved while a child is walked)
WALK_FIRST = 6  # its first edge
WALK_MASK = 7  # its child-face mask
WALK_FACE = 8  # the face that entered it
WALK_FRAME = 9  # numbers per depth of the trie walk
ROW_RADIX = 0  # per face in hand: what a visit adds to the radix, SWAR,
ROW_SWAR = 1  # points and letters, where the words of its digit start
ROW_POINTS = 2  # (NO_WORD if none does), and its cards still in hand
ROW_LETTERS = 3
ROW_START = 4
ROW_LEFT = 5
FACE_ROW = 8  # numbers per face in the walk's face table (six used; eight makes the index a shift)
WALK_TABLE = WALK_FRAME * (MAX_CARDS + 2)  # where the walk's face table starts in its stack

# -- the memoised searches' stack frame (state_value, state_count) ---------------
FRAME_RADIX = 0  # the state
FRAME_SWAR = 1
FRAME_J = 2  # words still needed for the word bonus
FRAME_F = 3  # 1 while a word longer than long_after is still needed
FRAME_DIGIT = 4  # the state's first digit
FRAME_CURSOR = 5  # the next choice to try: a word index, its group's end for the leftover
FRAME_BEST = 6  # the best found so far (a key, or a word count)
FRAME_CHOICE = 7  # the choice that found it
FRAME_POINTS = 8  # the state's points
FRAME_CARDS = 9  # its cards (state_value with bonus targets only)
FRAME = 10  # stack frame of the memoised searches

# -- top_plays' stack frame -------------------------------------------------
DFS_RADIX = 0  # the state
DFS_SWAR = 1
DFS_DIGIT = 2  # its first digit
DFS_CURSOR = 3  # the next option: CURSOR_PREFERRED, CURSOR_LEFTOVER, then word indices
DFS_SCORE = 4  # score so far
DFS_WORDS = 5  # words so far
DFS_LONGEST = 6  # letters of the longest word so far
DFS_GOES_OUT = 7  # 1 while every card so far is in a word
DFS_PREFERRED = 8  # the memo's best choice for the state, or NO_CHOICE
DFS_FLOOR = 9  # the lowest word index allowed
DFS_LEFTOVER_ONLY = 10  # 1: only leftovers are allowed
DFS_FRAME = 11  # stack frame of the top-K search
CURSOR_PREFERRED = -2  # the preferred option comes next
CURSOR_LEFTOVER = -1  # leaving the first card over comes next
NO_OPTION = -4  # the next option is not found yet
OPTIONS_DONE = -5  # the frame has no option left

STACK_SIZE = max(WALK_TABLE + FACE_ROW * FACE_SLOTS, max(FRAME, DFS_FRAME) * (MAX_CARDS + 2))  # room for the walk or the searches

# -- the memo ---------------------------------------------------------------
MEMO_GENERATION = 0  # memo[0]: the current generation; slots start at 1
MEMO_STAMP = 0  # the generation that wrote the slot (older: unknown)
MEMO_KEY = 1  # the state's best key
MEMO_CHOICE = 2  # the choice that reaches it: LEFT_OVER or a word index
MEMO_COUNT = 3  # the most words in a best play (state_count), or UNKNOWN
MEMO_COUNT_CHOICE = 4  # the choice that reaches that count
MEMO_SLOT = 5
UNKNOWN = -2  # a value or count not worked out yet
INFEASIBLE = -1  # no play qualifies
LEFT_OVER = -1  # a choice: the state's first card is left over
NO_CHOICE = -3  # a choice not made yet, or none to prefer
NO_COUNT = -1  # no best play's word count found yet
NO_DIGIT = -1  # no digit chosen yet

# -- values -----------------------------------------------------------------
SCORE_SHIFT = 8
GO_SHIFT = 7
GO_BIT = 1 << GO_SHIFT
SCORE_OFFSET = 1 << 20
BASE_KEY = (SCORE_OFFSET << SCORE_SHIFT) | GO_BIT
TOP_SCORE_SHIFT = 16  # a top-K key: score, goes out, longest word, words
TOP_GO_SHIFT = 15
TOP_LONGEST_SHIFT = 7
DISPLAY_POINTS_SHIFT = 8  # a word's display key: points above letters

# -- solve parameters (params) ------------------------------------------------
PARAM_DISCARD = 0  # 1: one card is discarded
PARAM_NEED_WORDS = 1  # words for the word bonus (0: no bonus)
PARAM_LONG_TARGET = 2  # 1: a long-word bonus is on offer
PARAM_LONG_AFTER = 3  # a long word has more letters than this
PARAM_WORD_BONUS = 4
PARAM_LONG_BONUS = 5
PARAM_COUNT = 6

# -- a play block of out (see best_play) ----------------------------------------
OUT_DISCARD = 0  # the discarded digit (a kernel face once named), or NO_DISCARD
OUT_WORDS = 1  # number of words
OUT_LEFT = 2  # number of leftovers
OUT_KEY = 3  # the total key, bonuses included, or INFEASIBLE
OUT_TIES = 4  # a play block's flag: two of its words tie on points and letters
OUT_HEAD = 5  # the words start here
OUT_MAXC = 24
OUT_LEFTOVERS = OUT_HEAD + OUT_MAXC  # the leftovers start here
OUT_BLOCK = OUT_HEAD + 2 * OUT_MAXC
# The discards whose rest reaches the best score, bonuses included (going
# out aside), one bit per digit (the hand's faces in kernel order; 0 without
# a discard): kept in the last leftover slot, which no play fills (it
# leaves at most MAX_CARDS cards).
OUT_EVEN_DISCARDS = OUT_BLOCK - 1
assert MAX_CARDS < OUT_MAXC
NO_DISCARD = -1

# -- return codes -----------------------------------------------------------
WORDS_FULL = -1  # the words buffer was too small: retry with more room
MEMO_FULL = -2  # the memo was too small (the caller sized it: a bug)

# -- solve_rows' jobs and work arrays ---------------------------------------------
JOB_PARAMS = FACE_SLOTS  # a row of solve_rows' jobs: face counts, the six solve parameters,
JOB_STATUS = JOB_PARAMS + PARAM_COUNT  # the status,
JOB_OUT = JOB_STATUS + 1  # then the two play blocks
JOB_WIDTH = JOB_OUT + 2 * OUT_BLOCK
WORK_POINTS = 0  # solve_rows' work array starts with face points and face letters
WORK_LETTERS = FACE_SLOTS
FACE_TABLES = 2 * FACE_SLOTS
PACKED_WORDS = 4096  # solve_rows' usual word capacity; a hand with more is solved again with more room
PLUS_COUNT = JOB_STATUS + 1  # a row of score_plus_rows' jobs: a base's counts, parameters and status,
PLUS_FACES = PLUS_COUNT + 1  # then how many faces its hands add, the faces,
PLUS_BEST = PLUS_FACES + FACE_SLOTS  # each hand's best key,
PLUS_GO = PLUS_BEST + FACE_SLOTS  # and its best going-out key (INFEASIBLE: none)
PLUS_WIDTH = PLUS_GO + FACE_SLOTS

#: Parameters that are arrays: the numba build types a parameter by its name
#: (``edges`` int32, ``ranks`` read-only int32, ``jobs`` a 2-d int64 array,
#: these 1-d int64 arrays, and every other parameter an int64).
ARRAY_PARAMETERS = frozenset({
    "face_count", "face_points", "face_letters", "params", "hand", "words", "group",
    "memo", "stack", "kstack", "out", "dfs", "path", "keys", "work", "with_words", "order",
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
    and ``ranks`` the trie's ranks, only read (and recorded, once the walk
    is over: see :func:`word_rank`) if ``want_ranks`` is non-zero, since
    the solver does not need them.
    ``hand`` is laid out by :func:`layout_hand`.  ``stack`` needs
    ``STACK_SIZE`` slots; the walk leaves where each digit's words start in
    its face table, for :func:`group_words`.  Returns the number of
    words written, or ``WORDS_FULL`` if more than ``capacity`` were found (or exactly
    ``capacity`` and the walk had further to go: the caller retries with
    more room either way).

    The walk keeps the faces still in hand as a bit mask: a node's edges to
    take are its child mask AND that, found at once, and the next one is
    the lowest bit, at the node's first edge plus the number of the node's
    faces below it.  Edges whose face is not in hand (most of a node's, on
    usual hands) cost nothing, and there is no loop over a node's edges
    whose end the CPU must guess: scanning them, even without a branch per
    edge, made the walk much slower.  A node whose edges are all out of
    hand is not entered.  Words come out in trie order.

    What a visit adds (radix, SWAR, points, letters) and the cards
    left of each face are in one table per face at the end of ``stack``
    (``ROW_*``), and what the loop needs is kept to a few numbers (no rank,
    no depth, no first digit): the CPU has too few registers for more, and
    every number more in the loop cost several instructions a visit.
    """
    n = 0
    half = len(edges) >> 1
    avail = 0  # bit f: face f is still in hand
    table = WALK_TABLE
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        face = hand[h + DIGIT_FACE]
        avail |= 1 << face
        t = table + FACE_ROW * face
        stack[t + ROW_RADIX] = hand[h + DIGIT_STRIDE]
        stack[t + ROW_SWAR] = 1 << hand[h + DIGIT_SHIFT]
        stack[t + ROW_POINTS] = face_points[face]
        stack[t + ROW_LETTERS] = face_letters[face]
        stack[t + ROW_START] = NO_WORD
        stack[t + ROW_LEFT] = hand[h + DIGIT_COUNT]
    for t in range(WALK_FRAME):
        stack[t] = 0
    base = 0
    stack[WALK_MASK] = edges[half + ROOT_EDGE]
    stack[WALK_FIRST] = edges[ROOT_EDGE] >> EDGE_FIRST_SHIFT
    todo = stack[WALK_MASK] & avail
    while True:
        if todo == 0:  # leave the node: its face is back in hand
            if base == 0:
                break
            face = stack[base + WALK_FACE]
            stack[table + FACE_ROW * face + ROW_LEFT] += 1
            avail |= 1 << face
            base -= WALK_FRAME
            todo = stack[base + WALK_TODO]
            continue
        bit = todo & -todo
        todo ^= bit
        face = lowest_bit(bit)
        e = stack[base + WALK_FIRST] + count_ones(stack[base + WALK_MASK] & (bit - 1))
        packed = edges[e]
        t = table + FACE_ROW * face
        if base == 0:  # a root edge: the words of its digit start here
            stack[t + ROW_START] = n
        radix = stack[base + WALK_RADIX] + stack[t + ROW_RADIX]
        swar = stack[base + WALK_SWAR] + stack[t + ROW_SWAR]
        points = stack[base + WALK_POINTS] + stack[t + ROW_POINTS]
        letters = stack[base + WALK_LETTERS] + stack[t + ROW_LETTERS]
        cards = stack[base + WALK_CARDS] + 1
        if n == capacity:
            return WORDS_FULL
        # Write the word and count it only if the edge ends one: no branch
        # to mispredict.
        w = WORD_STRIDE * n
        words[w + WORD_RADIX] = radix
        words[w + WORD_SWAR] = swar
        words[w + WORD_POINTS] = points
        words[w + WORD_LETTERS] = letters
        words[w + WORD_CARDS] = cards
        n += (packed >> EDGE_TERMINAL_SHIFT) & 1
        child_mask = edges[half + e]
        left = stack[t + ROW_LEFT] - 1
        child_avail = avail ^ (bit if left == 0 else 0)
        child_todo = child_mask & child_avail
        if child_todo != 0:
            stack[base + WALK_TODO] = todo
            stack[t + ROW_LEFT] = left
            avail = child_avail
            base += WALK_FRAME
            stack[base + WALK_RADIX] = radix
            stack[base + WALK_SWAR] = swar
            stack[base + WALK_POINTS] = points
            stack[base + WALK_LETTERS] = letters
            stack[base + WALK_CARDS] = cards
            stack[base + WALK_FACE] = face
            stack[base + WALK_FIRST] = packed >> EDGE_FIRST_SHIFT
            stack[base + WALK_MASK] = child_mask
            todo = child_todo
    if want_ranks != 0:
        for i in range(n):
            words[WORD_STRIDE * i + WORD_RANK] = word_rank(edges, ranks, hand, words[WORD_STRIDE * i + WORD_RADIX])
    return n


@kernel
def word_rank(edges, ranks, hand, radix):
    """The rank in the card trie of the multiset ``radix`` of the hand:
    the sum of the ranks of the edges on its path from the root."""
    half = len(edges) >> 1
    rank = 0
    e = ROOT_EDGE
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        below = (1 << hand[h + DIGIT_FACE]) - 1  # the faces before this one
        for _ in range((radix // hand[h + DIGIT_STRIDE]) % (hand[h + DIGIT_COUNT] + 1)):
            e = (edges[e] >> EDGE_FIRST_SHIFT) + count_ones(edges[half + e] & below)
            rank += ranks[e]
    return rank


@kernel
def group_words(words, nwords, hand, group, stack):
    """``group[d]:group[d+1]`` are the words whose first digit is ``d`` (the
    walk emits them grouped, the root's edges being in face order, and
    notes where each digit's words start, in its face table in ``stack``).  Within a
    group they stay in trie order: sorting them biggest first cost more
    than it saved.  The words of ``n`` letters are also chained from
    ``group[LENGTH_HEADS + n]`` through each word's ``WORD_NEXT``
    (``NO_WORD`` ends a chain), for the longest-word search, and the most
    letters of a word is kept at ``group[GROUP_LONGEST]`` (see
    :func:`longest_word`)."""
    ndig = hand[HAND_DIGITS]
    group[ndig] = nwords
    for d in range(ndig - 1, -1, -1):
        start = stack[WALK_TABLE + FACE_ROW * hand[HAND_HEAD + HAND_STRIDE * d + DIGIT_FACE] + ROW_START]
        group[d] = start if start != NO_WORD else group[d + 1]  # no word starts with this digit
    for n in range(LENGTH_HEADS, LENGTH_HEADS + LETTER_SLOTS):
        group[n] = NO_WORD
    longest = 1
    for w in range(nwords - 1, -1, -1):
        letters = words[WORD_STRIDE * w + WORD_LETTERS]
        words[WORD_STRIDE * w + WORD_NEXT] = group[LENGTH_HEADS + letters]
        group[LENGTH_HEADS + letters] = w
        longest = max(longest, letters)
    group[GROUP_LONGEST] = longest


@kernel
def first_digit(hand, swar):
    """The lowest digit present in state ``swar`` (``hand[HAND_DIGITS]`` if none).

    Adding every field's mask (``hand[HAND_FIELDS]``) carries into the
    guard bit above each field that is not zero; the digit is then the
    number of guard bits below the lowest one set.  No loop over the
    digits, whose end the CPU mispredicted.
    """
    present = (swar + hand[HAND_FIELDS]) & hand[HAND_GUARD]
    if present == 0:
        return hand[HAND_DIGITS]
    return count_ones(hand[HAND_GUARD] & ((present & -present) - 1))


@kernel
def state_points(hand, swar):
    """Points of every card in state ``swar``."""
    total = 0
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        total += ((swar >> hand[h + DIGIT_SHIFT]) & hand[h + DIGIT_MASK]) * hand[h + DIGIT_POINTS]
    return total


@kernel
def memo_slot(radix, j, f, naug, nf, half):
    """Where the memo slot of state ``radix`` with constraints ``j`` and
    ``f`` starts: states in mixed-radix order, each with ``naug`` slots
    (``nf`` values of ``f`` per ``j``), the word-only search's after
    ``half`` of them, all after the generation."""
    return 1 + MEMO_SLOT * (radix * naug + j * nf + f + half)


@kernel
def state_cards(hand, swar):
    """Cards in state ``swar``."""
    total = 0
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        total += (swar >> hand[h + DIGIT_SHIFT]) & hand[h + DIGIT_MASK]
    return total


@kernel
def least_long_cards(words, group, long_after):
    """The fewest cards of a word of the hand longer than ``long_after``
    letters (``MAX_CARDS + 1`` if it has none): a state that still needs
    such a word has at least that many cards."""
    least = MAX_CARDS + 1
    for length in range(longest_word(group), long_after, -1):
        w = group[LENGTH_HEADS + length]
        while w != NO_WORD:
            least = min(least, words[WORD_STRIDE * w + WORD_CARDS])
            w = words[WORD_STRIDE * w + WORD_NEXT]
    return least


@kernel
def longest_word(group):
    """The most letters of a word of the hand (1 if it has none), as
    :func:`group_words` noted it: the searches with a long word to find ask
    for it on every search, where a scan of the length chains down from
    ``LETTER_SLOTS`` letters was a loop of forty-odd steps."""
    return group[GROUP_LONGEST]


@kernel
def long_fits(words, group, swar, guard, long_after, longest):
    """Whether a word of more than ``long_after`` letters fits in the state
    ``swar`` (``guard``: the hand's SWAR guard bits) of a hand whose words
    have at most ``longest`` letters (:func:`longest_word`): the shortest
    long words first, the likeliest to fit, and no empty lengths looked at."""
    for length in range(long_after + 1, longest + 1):
        w = group[LENGTH_HEADS + length]
        while w != NO_WORD:
            if ((swar | guard) - words[WORD_STRIDE * w + WORD_SWAR]) & guard == guard:
                return True
            w = words[WORD_STRIDE * w + WORD_NEXT]
    return False


@kernel
def cards_needed(j, f, long_cards):
    """The fewest cards of a state that can still meet constraints ``j``
    and ``f``: two a word (no word is one card), and where a long word is
    needed, ``long_cards`` for it (see :func:`least_long_cards`), which is
    one of the ``j`` words."""
    if f == 0:
        return 2 * j
    return long_cards + (2 * (j - 1) if j > 0 else 0)


@kernel
def push_frame(hand, group, stack, at, radix, swar, j, f, points, best, cards):
    """Write a new frame of the memoised searches at ``stack[at]``: state
    ``(radix, swar)`` of ``cards`` cards worth ``points`` under constraints
    ``j`` and ``f``, its cursor on its first digit's first word, ``best``
    found so far and no choice yet."""
    d = first_digit(hand, swar)
    stack[at + FRAME_RADIX] = radix
    stack[at + FRAME_SWAR] = swar
    stack[at + FRAME_J] = j
    stack[at + FRAME_F] = f
    stack[at + FRAME_DIGIT] = d
    stack[at + FRAME_CURSOR] = group[d] if d < hand[HAND_DIGITS] else 0
    stack[at + FRAME_BEST] = best
    stack[at + FRAME_CHOICE] = NO_CHOICE
    stack[at + FRAME_POINTS] = points
    stack[at + FRAME_CARDS] = cards


@kernel
def other_value(memo, slot, gen, allow_left):
    """What the other search's memo slot ``slot`` tells :func:`state_value`
    (searching with leftovers if ``allow_left``, else words only) of the
    same state and constraints, or ``UNKNOWN``.

    A cover is the best play there is, so the word-only search's value,
    when it is not ``INFEASIBLE``, is also the value with leftovers; and
    the value with leftovers is the word-only value when it goes out
    (``GO_BIT``), else no cover exists (``INFEASIBLE``).
    """
    if memo[slot + MEMO_STAMP] != gen:
        return UNKNOWN
    value = memo[slot + MEMO_KEY]
    if allow_left != 0:
        return value if value != INFEASIBLE else UNKNOWN
    return value if value != INFEASIBLE and (value & GO_BIT) != 0 else INFEASIBLE


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
    A memo slot (:func:`memo_slot`) holds the generation that wrote it (a
    slot from an older generation than ``memo[MEMO_GENERATION]`` is
    unknown, so the memo never needs clearing), the key, the choice
    (``LEFT_OVER``, else a word index), then the two numbers of
    :func:`state_count`.  ``need_words`` and ``long_target`` are the
    largest ``j`` and ``f`` the memo has room for.

    A state the other search has settled is not searched again (see
    :func:`other_value`): the two searches of a hand often meet the same
    states (a discard whose rest cannot go out turns pass 1 to the search
    with leftovers, whose states pass 2 then asks the word-only question of).
    """
    nf = long_target + 1
    naug = (need_words + 1) * nf
    gen = memo[MEMO_GENERATION]
    half = 0 if allow_left != 0 else hand[HAND_STATES] * naug
    cross = MEMO_SLOT * (hand[HAND_STATES] * naug - 2 * half)  # from a slot to the other search's
    top = memo_slot(radix0, j0, f0, naug, nf, half)
    if memo[top + MEMO_STAMP] == gen:
        return memo[top + MEMO_KEY]
    value = other_value(memo, top + cross, gen, allow_left)
    if value != UNKNOWN:  # written down for state_count, which reads the slot
        memo[top + MEMO_STAMP] = gen
        memo[top + MEMO_KEY] = value
        memo[top + MEMO_CHOICE] = NO_CHOICE
        memo[top + MEMO_COUNT] = UNKNOWN
        return value
    # A state too small for the words and the long word it still needs has
    # no play: its children of too few cards are not searched (with bonus
    # targets most of the states of a search are such), nor is the state;
    # nor is one that still needs a long word where none fits.
    cards0 = 0
    long_cards = MAX_CARDS + 1
    longest = 0
    targeted = j0 != 0 or f0 != 0  # else no state of the search has constraints
    if targeted:
        cards0 = state_cards(hand, swar0)
        if f0 != 0:
            long_cards = least_long_cards(words, group, long_after)
            longest = longest_word(group)
        if cards0 < cards_needed(j0, f0, long_cards) or (
                f0 != 0 and not long_fits(words, group, swar0, hand[HAND_GUARD], long_after, longest)):
            memo[top + MEMO_STAMP] = gen
            memo[top + MEMO_KEY] = INFEASIBLE
            memo[top + MEMO_CHOICE] = NO_CHOICE
            memo[top + MEMO_COUNT] = UNKNOWN
            return INFEASIBLE
    guard = hand[HAND_GUARD]
    push_frame(hand, group, stack, 0, radix0, swar0, j0, f0, points0, INFEASIBLE, cards0)
    sp = 1
    while sp > 0:
        base = FRAME * (sp - 1)
        radix = stack[base + FRAME_RADIX]
        swar = stack[base + FRAME_SWAR]
        j = stack[base + FRAME_J]
        f = stack[base + FRAME_F]
        slot = memo_slot(radix, j, f, naug, nf, half)
        if radix == 0:
            memo[slot + MEMO_STAMP] = gen
            memo[slot + MEMO_KEY] = BASE_KEY if (j == 0 and f == 0) else INFEASIBLE
            memo[slot + MEMO_CHOICE] = NO_CHOICE
            memo[slot + MEMO_COUNT] = UNKNOWN
            sp -= 1
            continue
        d = stack[base + FRAME_DIGIT]
        cur = stack[base + FRAME_CURSOR]
        best = stack[base + FRAME_BEST]
        choice = stack[base + FRAME_CHOICE]
        points = stack[base + FRAME_POINTS]
        cards = stack[base + FRAME_CARDS] if targeted else 0
        full = ((points + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
        h = HAND_HEAD + HAND_STRIDE * d
        end = group[d + 1]
        child_radix = 0
        child_swar = 0
        child_j = 0
        child_f = 0
        child_points = 0
        child_cards = 0
        pushed = False
        while cur < end and best < full:
            w = WORD_STRIDE * cur
            wswar = words[w + WORD_SWAR]
            if ((swar | guard) - wswar) & guard == guard:
                child_j = j - 1 if j > 0 else 0
                child_f = f if words[w + WORD_LETTERS] <= long_after else 0
                if targeted:
                    child_cards = cards - words[w + WORD_CARDS]
                    if child_cards < cards_needed(child_j, child_f, long_cards):
                        cur += 1
                        continue
                child_radix = radix - words[w + WORD_RADIX]
                child_swar = swar - wswar
                child_points = points - words[w + WORD_POINTS]
                child = memo_slot(child_radix, child_j, child_f, naug, nf, half)
                value = memo[child + MEMO_KEY] if memo[child + MEMO_STAMP] == gen else UNKNOWN
                if value == UNKNOWN:
                    value = other_value(memo, child + cross, gen, allow_left)
                if value == UNKNOWN:
                    pushed = True
                    break
                if value != INFEASIBLE:
                    cand = value + (words[w + WORD_POINTS] << SCORE_SHIFT)
                    if cand > best:
                        best = cand
                        choice = cur
            cur += 1
        if not pushed and cur == end and best < full:
            cur = end + 1
            # Leaving the card over scores at most every other card in words,
            # minus this card: skip it if the words already do as well.
            bound = ((points - 2 * hand[h + DIGIT_POINTS] + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
            child_cards = cards - 1
            if allow_left != 0 and best < bound and (not targeted or child_cards >= cards_needed(j, f, long_cards)):
                child_radix = radix - hand[h + DIGIT_STRIDE]
                child_swar = swar - (1 << hand[h + DIGIT_SHIFT])
                child_j = j
                child_f = f
                child_points = points - hand[h + DIGIT_POINTS]
                child = memo_slot(child_radix, j, f, naug, nf, half)
                value = memo[child + MEMO_KEY] if memo[child + MEMO_STAMP] == gen else UNKNOWN
                if value == UNKNOWN:
                    value = other_value(memo, child + cross, gen, allow_left)
                if value == UNKNOWN:
                    cur = end
                    pushed = True
                elif value != INFEASIBLE:
                    cand = (value & ~GO_BIT) - (hand[h + DIGIT_POINTS] << SCORE_SHIFT)
                    if cand > best:
                        best = cand
                        choice = LEFT_OVER
        if pushed:
            stack[base + FRAME_CURSOR] = cur
            stack[base + FRAME_BEST] = best
            stack[base + FRAME_CHOICE] = choice
            if child_f != 0 and not long_fits(words, group, child_swar, guard, long_after, longest):
                # No long word fits the child: it has no play, which its
                # slot now says; the frame goes on from the same choice.
                memo[child + MEMO_STAMP] = gen
                memo[child + MEMO_KEY] = INFEASIBLE
                memo[child + MEMO_CHOICE] = NO_CHOICE
                memo[child + MEMO_COUNT] = UNKNOWN
                continue
            push_frame(hand, group, stack, base + FRAME, child_radix, child_swar, child_j, child_f, child_points,
                       INFEASIBLE, child_cards)  # fmt: skip
            sp += 1
            continue
        memo[slot + MEMO_STAMP] = gen
        memo[slot + MEMO_KEY] = best
        memo[slot + MEMO_CHOICE] = choice
        memo[slot + MEMO_COUNT] = UNKNOWN
        sp -= 1
    return memo[top + MEMO_KEY]


@kernel
def state_count(words, group, hand, memo, stack, kstack, radix0, swar0, points0, j0, f0,
                need_words, long_target, long_after, allow_left):  # fmt: skip
    """The most words in any best play of a (feasible) state, memoised in
    the last two numbers of its memo slot (``MEMO_COUNT``,
    ``MEMO_COUNT_CHOICE``).

    Only choices that reach the state's best key are followed, so this
    visits the few states on optimal paths, not the whole state space.
    """
    nf = long_target + 1
    naug = (need_words + 1) * nf
    state_value(words, group, hand, memo, stack, radix0, swar0, points0, j0, f0,
                need_words, long_target, long_after, allow_left)  # fmt: skip
    half = 0 if allow_left != 0 else hand[HAND_STATES] * naug
    top = memo_slot(radix0, j0, f0, naug, nf, half)
    if memo[top + MEMO_COUNT] != UNKNOWN:
        return memo[top + MEMO_COUNT]
    guard = hand[HAND_GUARD]
    push_frame(hand, group, kstack, 0, radix0, swar0, j0, f0, points0, NO_COUNT, 0)
    sp = 1
    while sp > 0:
        base = FRAME * (sp - 1)
        radix = kstack[base + FRAME_RADIX]
        swar = kstack[base + FRAME_SWAR]
        j = kstack[base + FRAME_J]
        f = kstack[base + FRAME_F]
        slot = memo_slot(radix, j, f, naug, nf, half)
        if radix == 0:
            memo[slot + MEMO_COUNT] = 0
            memo[slot + MEMO_COUNT_CHOICE] = NO_CHOICE
            sp -= 1
            continue
        points = kstack[base + FRAME_POINTS]
        target = state_value(words, group, hand, memo, stack, radix, swar, points, j, f,
                             need_words, long_target, long_after, allow_left)  # fmt: skip
        d = kstack[base + FRAME_DIGIT]
        cur = kstack[base + FRAME_CURSOR]
        best = kstack[base + FRAME_BEST]
        choice = kstack[base + FRAME_CHOICE]
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
                if ((swar | guard) - words[w + WORD_SWAR]) & guard != guard:
                    cur += 1
                    continue
                child_radix = radix - words[w + WORD_RADIX]
                child_swar = swar - words[w + WORD_SWAR]
                child_j = j - 1 if j > 0 else 0
                child_f = f if words[w + WORD_LETTERS] <= long_after else 0
                child_points = points - words[w + WORD_POINTS]
            else:
                bound = ((points - 2 * hand[h + DIGIT_POINTS] + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
                if allow_left == 0 or bound < target:
                    cur += 1
                    continue
                child_points = points - hand[h + DIGIT_POINTS]
                child_radix = radix - hand[h + DIGIT_STRIDE]
                child_swar = swar - (1 << hand[h + DIGIT_SHIFT])
                child_j = j
                child_f = f
            value = state_value(words, group, hand, memo, stack, child_radix, child_swar, child_points, child_j,
                                child_f, need_words, long_target, long_after, allow_left)  # fmt: skip
            if value != INFEASIBLE:
                if cur < end:
                    cand = value + (words[WORD_STRIDE * cur + WORD_POINTS] << SCORE_SHIFT)
                else:
                    cand = (value & ~GO_BIT) - (hand[h + DIGIT_POINTS] << SCORE_SHIFT)
                if cand == target:
                    child = memo_slot(child_radix, child_j, child_f, naug, nf, half)
                    count = memo[child + MEMO_COUNT]
                    if count == UNKNOWN:
                        pushed = True
                        break
                    if cur < end:
                        count += 1
                    if count > best:
                        best = count
                        choice = cur if cur < end else LEFT_OVER
            cur += 1
        if pushed:
            kstack[base + FRAME_CURSOR] = cur
            kstack[base + FRAME_BEST] = best
            kstack[base + FRAME_CHOICE] = choice
            push_frame(hand, group, kstack, base + FRAME, child_radix, child_swar, child_j, child_f, child_points,
                       NO_COUNT, 0)  # fmt: skip
            sp += 1
            continue
        memo[slot + MEMO_COUNT] = best
        memo[slot + MEMO_COUNT_CHOICE] = choice
        sp -= 1
    return memo[top + MEMO_COUNT]


@kernel
def trace(words, hand, memo, radix, swar, j, f, need_words, long_target, long_after, allow_left,
          out, ob, nwords, nleft):  # fmt: skip
    """Follow the most-words choices (:func:`state_count` must have run on
    the state) and append the play's words and leftover digits to the block
    of ``out`` at ``ob`` (see :func:`best_play`)."""
    nf = long_target + 1
    naug = (need_words + 1) * nf
    half = 0 if allow_left != 0 else hand[HAND_STATES] * naug
    while radix != 0:
        slot = memo_slot(radix, j, f, naug, nf, half)
        choice = memo[slot + MEMO_COUNT_CHOICE]
        if choice == LEFT_OVER:
            d = first_digit(hand, swar)
            h = HAND_HEAD + HAND_STRIDE * d
            radix -= hand[h + DIGIT_STRIDE]
            swar -= 1 << hand[h + DIGIT_SHIFT]
            out[ob + OUT_LEFTOVERS + nleft] = d
            nleft += 1
        else:
            w = WORD_STRIDE * choice
            radix -= words[w + WORD_RADIX]
            swar -= words[w + WORD_SWAR]
            j = j - 1 if j > 0 else 0
            f = f if words[w + WORD_LETTERS] <= long_after else 0
            out[ob + OUT_HEAD + nwords] = choice
            nwords += 1
    out[ob + OUT_WORDS] = nwords
    out[ob + OUT_LEFT] = nleft


@kernel
def cheapest_digit(hand, used):
    """The digit of the fewest points not in ``used`` (a bit per digit, at
    least one clear), the first of them on a tie: the discard a pass over
    the discards, cheapest first, tries next."""
    c = NO_DIGIT
    for e in range(hand[HAND_DIGITS]):
        if (used >> e) & 1 == 0 and (c == NO_DIGIT or hand[HAND_HEAD + HAND_STRIDE * e + DIGIT_POINTS]
                                     < hand[HAND_HEAD + HAND_STRIDE * c + DIGIT_POINTS]):  # fmt: skip
            c = e
    return c


@kernel
def cover_first(words, group, hand, memo, stack, radix, swar, points, j0, f0, need_words, long_target, long_after,
                covers, allow_left):  # fmt: skip
    """``(value, covers)``: :func:`state_value` of a discard's rest, asking
    first whether every card can go in words (that is the best there is,
    and the word-only search that answers it is much smaller), then, where
    none can and ``allow_left``, the search with leftovers.  ``covers`` is 0
    once one rest of the hand has no cover: the later ones are searched with
    leftovers at once (the answer is the same, a cover still wins there, and
    proving that a hand cannot go out was much of the slowest hands' time),
    unless only covers count (``allow_left == 0``)."""
    value = INFEASIBLE
    if covers != 0 or allow_left == 0:
        value = state_value(words, group, hand, memo, stack, radix, swar, points, j0, f0, need_words, long_target,
                            long_after, 0)  # fmt: skip
        if value == INFEASIBLE:
            covers = 0
    if value == INFEASIBLE and allow_left != 0:
        value = state_value(words, group, hand, memo, stack, radix, swar, points, j0, f0, need_words, long_target,
                            long_after, 1)  # fmt: skip
    return value, covers


@kernel
def best_play(words, nwords, group, hand, memo, stack, kstack, full_radix, full_swar, discard,
              need_words, long_target, long_after, word_bonus, long_bonus, allow_left, out, ob):  # fmt: skip
    """Solve the hand and write the best play to the block of ``out`` at ``ob``.

    A block holds: ``[OUT_DISCARD]`` the discarded digit or ``NO_DISCARD``,
    ``[OUT_WORDS]`` the number of words, ``[OUT_LEFT]`` the number of
    leftovers, ``[OUT_KEY]`` the total key (bonuses included),
    ``[OUT_TIES]`` set by :func:`name_words`; the word indices follow from
    ``[OUT_HEAD]``, the leftover digits from ``[OUT_LEFTOVERS]``;
    ``[OUT_EVEN_DISCARDS]`` holds the discards (digits, one bit each) whose
    best play scores as much as the best (whether it goes out aside).  Returns the total key, or
    ``INFEASIBLE`` if no play qualifies (only possible with ``allow_left == 0``).

    Plays rank by (total, goes out, longest word in letters, number of
    words).  The memo holds the first two, which compose and allow the
    early stops that make the search fast; the longest word (a maximum,
    which does not compose) and the number of words are settled after, on
    optimal plays only.
    """
    ndig = hand[HAND_DIGITS]
    ncand = ndig if discard != 0 else 1
    njs = 2 if need_words > 0 else 1
    bonus_room = (word_bonus if need_words > 0 else 0) + (long_bonus if long_target > 0 else 0)
    hand_points = state_points(hand, full_swar)
    cards = -1 if discard != 0 else 0  # the cards a play holds
    for d in range(ndig):
        cards += hand[HAND_HEAD + HAND_STRIDE * d + DIGIT_COUNT]
    best_total = INFEASIBLE
    # Pass 1: the best (total, goes out), cheapest discard first: a discard
    # whose remaining points cannot reach the best so far is skipped.  The
    # discards that reach the best are noted in ``optimal`` (one bit each):
    # only they can be part of an optimal play, so pass 2 looks at no other;
    # and the targets they reach it with in ``aims`` (a bit per ``2 * jj + f0``):
    # pass 2 searches no others (a search skipped here cannot reach the best).
    used = 0
    covers = 1
    optimal = 0
    aims = 0
    even = 0  # the discards whose rest scores as much as the best, going out or not
    for _ in range(ncand):
        c = 0
        if discard != 0:
            c = cheapest_digit(hand, used)
            used |= 1 << c
        radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
        if best_total != INFEASIBLE and points + bonus_room < (best_total >> SCORE_SHIFT) - SCORE_OFFSET:
            break  # and so would every later discard: none is cheaper
        # As in best_key, a target's search is skipped where its key, at most
        # the key without it (``free``) or the least of each target's
        # (``both``), cannot reach the best score so far even with its bonus;
        # not on a tie, which counts in ``even`` and ``optimal``.
        free = INFEASIBLE
        both = INFEASIBLE
        for jj in range(njs):
            j0 = need_words if jj == 1 else 0
            for f0 in range(long_target + 1):
                bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                targets = jj + f0
                if targets == 0 and best_total != INFEASIBLE and points < (best_total >> SCORE_SHIFT) - SCORE_OFFSET:
                    free = ((points + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT  # every card in words: a bound
                    both = free
                    continue
                if targets > 0:
                    limit = free if targets == 1 else both
                    if limit == INFEASIBLE or (limit + (bonus << SCORE_SHIFT)) >> SCORE_SHIFT < best_total >> SCORE_SHIFT:
                        if targets == 1:
                            both = min(both, limit)
                        continue
                value, covers = cover_first(words, group, hand, memo, stack, radix, swar, points, j0, f0,
                                            need_words, long_target, long_after, covers, allow_left)  # fmt: skip
                if targets == 0:
                    free = value
                    both = value
                elif targets == 1:
                    both = min(both, value)
                if value == INFEASIBLE:
                    continue
                total = value + (bonus << SCORE_SHIFT)
                if total > best_total:
                    # A higher score, or the same one going out.
                    even = (1 << c) | (even if total >> SCORE_SHIFT == best_total >> SCORE_SHIFT else 0)
                    best_total = total
                    optimal = 1 << c
                    aims = 1 << (2 * jj + f0)
                elif total >> SCORE_SHIFT == best_total >> SCORE_SHIFT:
                    even |= 1 << c
                    if total == best_total:
                        optimal |= 1 << c
                        aims |= 1 << (2 * jj + f0)
    out[ob + OUT_EVEN_DISCARDS] = even if discard != 0 else 0
    if best_total == INFEASIBLE:
        return INFEASIBLE
    target_points = (best_total >> SCORE_SHIFT) - SCORE_OFFSET

    # Pass 2: the longest word of any optimal play.  Such a play holds a
    # word W, and then W plus the best play of the rest is optimal too, so
    # try words from the most letters down: the first W that reaches the
    # optimum fixes the length; words of that length then compete on the
    # number of words (W plus the most words among best plays of the rest).
    max_letters = longest_word(group)
    best_count = NO_COUNT
    best_cand = 0
    best_j = 0
    best_f = 0
    best_mode = allow_left
    found_w = NO_WORD
    for length in range(max_letters, 1, -1):
        if group[LENGTH_HEADS + length] == NO_WORD:
            continue
        for c in range(ncand):
            if (optimal >> c) & 1 == 0:
                continue
            radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
            guarded = swar | hand[HAND_GUARD]
            w = group[LENGTH_HEADS + length]
            while w != NO_WORD:
                word = w
                wb = WORD_STRIDE * word
                w = words[wb + WORD_NEXT]
                if (guarded - words[wb + WORD_SWAR]) & hand[HAND_GUARD] != hand[HAND_GUARD]:
                    continue
                if best_count > (cards - words[wb + WORD_CARDS]) // 2:
                    # Its rest has too few cards (two a word) for a play
                    # with more words than the best so far: no search can
                    # change the answer (most of pass 2's searches).
                    continue
                rest_radix = radix - words[wb + WORD_RADIX]
                rest_swar = swar - words[wb + WORD_SWAR]
                rest_points = points - words[wb + WORD_POINTS]
                for jj in range(njs):
                    j0 = need_words if jj == 1 else 0
                    cj = j0 - 1 if j0 > 0 else 0
                    for f0 in range(long_target + 1):
                        if (aims >> (2 * jj + f0)) & 1 == 0:
                            continue
                        cf = f0 if length <= long_after else 0
                        bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                        # If the optimum puts every card in words, the rest
                        # must be covered by words: ask the word-only search.
                        mode = 0 if target_points == points + bonus else allow_left
                        value = state_value(words, group, hand, memo, stack, rest_radix, rest_swar, rest_points,
                                            cj, cf, need_words, long_target, long_after, mode)  # fmt: skip
                        if value == INFEASIBLE or value + ((words[wb + WORD_POINTS] + bonus) << SCORE_SHIFT) != best_total:
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
        if found_w != NO_WORD:
            break
    if found_w == NO_WORD:
        # No word is in any optimal play: every card is left over.
        for c in range(ncand):
            radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
            if state_value(words, group, hand, memo, stack, radix, swar, points, 0, 0, need_words, long_target,
                           long_after, allow_left) == best_total:  # fmt: skip
                best_cand = c
                break
    radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, best_cand)
    out[ob + OUT_DISCARD] = best_cand if discard != 0 else NO_DISCARD
    out[ob + OUT_KEY] = best_total
    if found_w != NO_WORD:
        wb = WORD_STRIDE * found_w
        out[ob + OUT_HEAD] = found_w
        trace(words, hand, memo, radix - words[wb + WORD_RADIX], swar - words[wb + WORD_SWAR], best_j, best_f,
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
    return (full_radix - hand[h + DIGIT_STRIDE], full_swar - (1 << hand[h + DIGIT_SHIFT]),
            hand_points - hand[h + DIGIT_POINTS])  # fmt: skip


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
        hand[h + DIGIT_FACE] = face
        hand[h + DIGIT_COUNT] = count
        hand[h + DIGIT_POINTS] = face_points[face]
        hand[h + DIGIT_STRIDE] = stride
        hand[h + DIGIT_SHIFT] = shift
        hand[h + DIGIT_MASK] = (1 << bits) - 1
        guard |= 1 << (shift + bits)
        fields |= ((1 << bits) - 1) << shift
        stride *= count + 1
        shift += bits + 1
        ndig += 1
    hand[HAND_DIGITS] = ndig
    hand[HAND_GUARD] = guard
    hand[HAND_STATES] = stride
    hand[HAND_FIELDS] = fields
    return stride


@kernel
def prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack):
    """Lay the hand out, find its words and group them; shared set-up of the
    entry kernels.  Returns the number of states, or ``WORDS_FULL`` if
    ``words`` or ``MEMO_FULL`` if ``memo`` is too small."""
    nstates = layout_hand(face_count, face_points, hand)
    size = 1 + 2 * MEMO_SLOT * nstates * (params[PARAM_NEED_WORDS] + 1) * (params[PARAM_LONG_TARGET] + 1)
    if size > len(memo):
        return MEMO_FULL
    capacity = len(words) // WORD_STRIDE
    nwords = find_words(edges, ranks, 0, hand, face_points, face_letters, words, capacity, stack)
    if nwords < 0:
        return WORDS_FULL
    group_words(words, nwords, hand, group, stack)
    return nstates


@kernel
def full_state(hand):
    """(radix, swar) of the whole hand."""
    radix = 0
    swar = 0
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        radix += hand[h + DIGIT_COUNT] * hand[h + DIGIT_STRIDE]
        swar += hand[h + DIGIT_COUNT] << hand[h + DIGIT_SHIFT]
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
    block's ``[OUT_KEY]`` set to ``INFEASIBLE`` when the hand cannot go out.  Returns the number of
    words found, or ``WORDS_FULL`` if ``words`` was too small (nothing else is written) or
    ``MEMO_FULL`` if ``memo`` was.
    """
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    nwords = group[hand[HAND_DIGITS]]
    full_radix, full_swar = full_state(hand)
    block = OUT_BLOCK
    memo[MEMO_GENERATION] += 1  # a new generation: every slot stamped otherwise is unknown
    for allow_left in range(1, -1, -1):
        start = 0 if allow_left == 1 else block
        result = best_play(words, nwords, group, hand, memo, stack, kstack, full_radix, full_swar,
                           params[PARAM_DISCARD], params[PARAM_NEED_WORDS], params[PARAM_LONG_TARGET],
                           params[PARAM_LONG_AFTER], params[PARAM_WORD_BONUS], params[PARAM_LONG_BONUS],
                           allow_left, out, start)  # fmt: skip
        out[start + OUT_KEY] = result
        name_words(edges, ranks, hand, words, out, start)
        if allow_left == 1 and out[OUT_LEFT] == 0:
            for i in range(block):  # the best play goes out: it is the best going-out play
                out[block + i] = out[i]
            break
    return nwords


@kernel
def best_key(words, group, hand, memo, stack, full_radix, full_swar, discard,
             need_words, long_target, long_after, word_bonus, long_bonus, allow_left):  # fmt: skip
    """The total key :func:`best_play` returns, without its play: its pass 1
    alone, its searches in the same order less those that cannot raise the
    maximum (see below), ``INFEASIBLE`` if no play qualifies.  A scorer
    wants only the score; the play's longest word, word count, trace and
    names are :func:`best_play`'s pass 2 and after."""
    ndig = hand[HAND_DIGITS]
    ncand = ndig if discard != 0 else 1
    njs = 2 if need_words > 0 else 1
    bonus_room = (word_bonus if need_words > 0 else 0) + (long_bonus if long_target > 0 else 0)
    hand_points = state_points(hand, full_swar)
    guard = hand[HAND_GUARD]
    cards = -1 if discard != 0 else 0  # the cards a play holds
    for d in range(ndig):
        cards += hand[HAND_HEAD + HAND_STRIDE * d + DIGIT_COUNT]
    best_total = INFEASIBLE
    used = 0
    covers = 1
    for _ in range(ncand):
        c = 0
        if discard != 0:
            c = cheapest_digit(hand, used)
            used |= 1 << c
        radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
        if best_total != INFEASIBLE and points + bonus_room < (best_total >> SCORE_SHIFT) - SCORE_OFFSET:
            break  # and so would every later discard: none is cheaper
        # The plays that meet a target are some of the plays that meet fewer: the key of a
        # target's search is at most the key without it (``free``), and of both targets' at
        # most the least of each one's (``both``).  A search that cannot beat the best so far
        # even with its bonus is skipped; only the maximum is wanted here, not its ties.
        free = INFEASIBLE
        both = INFEASIBLE
        for jj in range(njs):
            j0 = need_words if jj == 1 else 0
            for f0 in range(long_target + 1):
                bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                targets = jj + f0
                if targets > 0:
                    limit = free if targets == 1 else both
                    if jj == 1 and 2 * need_words > cards:
                        limit = INFEASIBLE  # too few cards for so many words
                    if f0 == 1 and not long_word_fits(words, group, swar, guard, long_after):
                        limit = INFEASIBLE
                    if limit == INFEASIBLE or limit + (bonus << SCORE_SHIFT) <= best_total:
                        if targets == 1:
                            both = min(both, limit)
                        continue
                value, covers = cover_first(words, group, hand, memo, stack, radix, swar, points, j0, f0,
                                            need_words, long_target, long_after, covers, allow_left)  # fmt: skip
                if targets == 0:
                    free = value
                    both = value
                elif targets == 1:
                    both = min(both, value)
                if value == INFEASIBLE:
                    continue
                best_total = max(best_total, value + (bonus << SCORE_SHIFT))
    return best_total


@kernel
def long_word_fits(words, group, swar, guard, long_after):
    """Whether a word of more than ``long_after`` letters fits in the state
    ``swar`` (see :func:`long_fits`), for a caller that has not looked up
    the hand's longest word."""
    return long_fits(words, group, swar, guard, long_after, longest_word(group))


@kernel
def score_counts(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack,
                 out):  # fmt: skip
    """:func:`solve_counts` for a scorer: only the two blocks' ``[OUT_KEY]``
    (the best play's total key, and the best going-out play's, or
    ``INFEASIBLE``), the same keys, with nothing else of the blocks written.
    Returns what :func:`solve_counts` returns."""
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    full_radix, full_swar = full_state(hand)
    memo[MEMO_GENERATION] += 1
    for allow_left in range(1, -1, -1):
        best = best_key(words, group, hand, memo, stack, full_radix, full_swar, params[PARAM_DISCARD],
                        params[PARAM_NEED_WORDS], params[PARAM_LONG_TARGET], params[PARAM_LONG_AFTER],
                        params[PARAM_WORD_BONUS], params[PARAM_LONG_BONUS], allow_left)  # fmt: skip
        out[OUT_BLOCK + OUT_KEY] = best
        if allow_left == 1:
            out[OUT_KEY] = best  # never INFEASIBLE: every card may be left over
            if (best & GO_BIT) != 0:
                break  # the best play goes out: it is the best going-out play
    return group[hand[HAND_DIGITS]]




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
    discard = params[PARAM_DISCARD]
    need_words = params[PARAM_NEED_WORDS]
    long_target = params[PARAM_LONG_TARGET]
    long_after = params[PARAM_LONG_AFTER]
    word_bonus = params[PARAM_WORD_BONUS] if need_words > 0 else 0
    long_bonus = params[PARAM_LONG_BONUS] if long_target > 0 else 0
    nf = long_target + 1
    naug = (need_words + 1) * nf
    memo[MEMO_GENERATION] += 1
    limit = len(keys)
    block = OUT_BLOCK
    found = 0
    full_radix, full_swar = full_state(hand)
    ndig = hand[HAND_DIGITS]
    guard = hand[HAND_GUARD]
    ncand = ndig if discard != 0 else 1
    maxlen = 0  # letters of the hand's longest word
    for w in range(group[ndig]):
        maxlen = max(maxlen, words[WORD_STRIDE * w + WORD_LETTERS])
    for c in range(ncand):
        radix = full_radix
        swar = full_swar
        if discard != 0:
            h = HAND_HEAD + HAND_STRIDE * c
            radix -= hand[h + DIGIT_STRIDE]
            swar -= 1 << hand[h + DIGIT_SHIFT]
        dfs[DFS_RADIX] = radix
        dfs[DFS_SWAR] = swar
        dfs[DFS_DIGIT] = first_digit(hand, swar)
        dfs[DFS_CURSOR] = CURSOR_PREFERRED
        dfs[DFS_SCORE] = 0
        dfs[DFS_WORDS] = 0
        dfs[DFS_LONGEST] = 0
        dfs[DFS_GOES_OUT] = 1
        dfs[DFS_PREFERRED] = NO_CHOICE
        dfs[DFS_FLOOR] = group[dfs[DFS_DIGIT]] if dfs[DFS_DIGIT] < ndig else 0
        dfs[DFS_LEFTOVER_ONLY] = 0
        sp = 0
        while sp >= 0:
            fb = DFS_FRAME * sp
            radix = dfs[fb + DFS_RADIX]
            swar = dfs[fb + DFS_SWAR]
            acc = dfs[fb + DFS_SCORE]
            nw = dfs[fb + DFS_WORDS]
            longest = dfs[fb + DFS_LONGEST]
            go = dfs[fb + DFS_GOES_OUT]
            if radix == 0:
                total = acc
                if nw >= need_words:
                    total += word_bonus
                if longest > long_after:
                    total += long_bonus
                key = ((total + SCORE_OFFSET) << TOP_SCORE_SHIFT) | (go << TOP_GO_SHIFT) | (longest << TOP_LONGEST_SHIFT) | nw
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
                    out[ob + OUT_DISCARD] = c if discard != 0 else NO_DISCARD
                    out[ob + OUT_KEY] = ((total + SCORE_OFFSET) << SCORE_SHIFT) | (go << GO_SHIFT) | nw
                    nwd = 0
                    nleft = 0
                    for i in range(sp):
                        choice = path[i]
                        if choice >= 0:
                            out[ob + OUT_HEAD + nwd] = choice
                            nwd += 1
                        else:
                            out[ob + OUT_LEFTOVERS + nleft] = LEFT_OVER - choice
                            nleft += 1
                    out[ob + OUT_WORDS] = nwd
                    out[ob + OUT_LEFT] = nleft
                    if found < limit:
                        found += 1
                sp -= 1
                continue
            d = dfs[fb + DFS_DIGIT]
            cursor = dfs[fb + DFS_CURSOR]
            h = HAND_HEAD + HAND_STRIDE * d
            if cursor == CURSOR_PREFERRED:
                # Try the memo's best choice first, so good plays come early and
                # the bound starts cutting at once.
                state_value(words, group, hand, memo, stack, radix, swar, state_points(hand, swar), 0, 0,
                            need_words, long_target, long_after, 1)  # fmt: skip
                dfs[fb + DFS_PREFERRED] = memo[memo_slot(radix, 0, 0, naug, nf, 0) + MEMO_CHOICE]  # allow_left = 1
            floor = dfs[fb + DFS_FLOOR]
            leftover_only = dfs[fb + DFS_LEFTOVER_ONLY]
            preferred = dfs[fb + DFS_PREFERRED]
            if preferred >= 0 and (leftover_only != 0 or preferred < floor):
                preferred = NO_CHOICE  # not allowed here (see below): no preference
            # Next option: the preferred one, then the leftover, then the words.
            option = NO_OPTION
            while option == NO_OPTION:
                if cursor == CURSOR_PREFERRED:
                    cursor = CURSOR_LEFTOVER
                    if preferred != NO_CHOICE:
                        option = preferred
                elif cursor == CURSOR_LEFTOVER:
                    cursor = group[d + 1] if leftover_only != 0 else floor
                    if preferred != LEFT_OVER:
                        option = LEFT_OVER
                elif cursor < group[d + 1]:
                    w = cursor
                    cursor += 1
                    if w != preferred and ((swar | guard) - words[WORD_STRIDE * w + WORD_SWAR]) & guard == guard:
                        option = w
                else:
                    option = OPTIONS_DONE
            dfs[fb + DFS_CURSOR] = cursor
            if option == OPTIONS_DONE:
                sp -= 1
                continue
            if option == LEFT_OVER:
                child_radix = radix - hand[h + DIGIT_STRIDE]
                child_swar = swar - (1 << hand[h + DIGIT_SHIFT])
                child_acc = acc - hand[h + DIGIT_POINTS]
                child_nw = nw
                child_longest = longest
                child_go = 0
            else:
                wb = WORD_STRIDE * option
                child_radix = radix - words[wb + WORD_RADIX]
                child_swar = swar - words[wb + WORD_SWAR]
                child_acc = acc + words[wb + WORD_POINTS]
                child_nw = nw + 1
                child_longest = max(longest, words[wb + WORD_LETTERS])
                child_go = go
            if found == limit:
                rest = state_value(words, group, hand, memo, stack, child_radix, child_swar,
                                   state_points(hand, child_swar), 0, 0, need_words, long_target, long_after,
                                   1)  # fmt: skip
                bound = child_acc + ((rest >> SCORE_SHIFT) - SCORE_OFFSET) + word_bonus + long_bonus
                worst = keys[limit - 1]
                if bound < (worst >> TOP_SCORE_SHIFT) - SCORE_OFFSET:
                    continue
                if bound == (worst >> TOP_SCORE_SHIFT) - SCORE_OFFSET:
                    # A tie on score enters only with a better (goes out,
                    # longest word, words): bound those too, or every play
                    # tied with the K-th is visited (a great many on big hands).
                    left = 0
                    letters = 0
                    for dd in range(ndig):
                        hh = HAND_HEAD + HAND_STRIDE * dd
                        k = (child_swar >> hand[hh + DIGIT_SHIFT]) & hand[hh + DIGIT_MASK]
                        left += k
                        letters += k * face_letters[hand[hh + DIGIT_FACE]]
                    reach = max(child_longest, min(letters, maxlen))
                    reach_key = ((bound + SCORE_OFFSET) << TOP_SCORE_SHIFT) | (child_go << TOP_GO_SHIFT)
                    reach_key |= (reach << TOP_LONGEST_SHIFT) | (child_nw + left // 2)
                    if reach_key <= worst:
                        continue
            path[sp] = option if option >= 0 else LEFT_OVER - d  # a leftover: LEFT_OVER - its digit
            nb = fb + DFS_FRAME
            dfs[nb + DFS_RADIX] = child_radix
            dfs[nb + DFS_SWAR] = child_swar
            dfs[nb + DFS_DIGIT] = first_digit(hand, child_swar)
            dfs[nb + DFS_CURSOR] = CURSOR_PREFERRED
            dfs[nb + DFS_SCORE] = child_acc
            dfs[nb + DFS_WORDS] = child_nw
            dfs[nb + DFS_LONGEST] = child_longest
            dfs[nb + DFS_GOES_OUT] = child_go
            dfs[nb + DFS_PREFERRED] = NO_CHOICE
            # Identical cards would let one partition be reached several ways
            # (this copy left over and that one in a word, or two words in
            # either order).  So, while a digit stays first: words come in
            # rising index order, then its leftovers, then nothing else.
            cd = dfs[nb + DFS_DIGIT]
            if cd == d:
                dfs[nb + DFS_FLOOR] = option if option >= 0 else group[d + 1]
                dfs[nb + DFS_LEFTOVER_ONLY] = 1 if option < 0 else 0
            else:
                dfs[nb + DFS_FLOOR] = group[cd] if cd < ndig else 0
                dfs[nb + DFS_LEFTOVER_ONLY] = 0
            sp += 1
    for i in range(found):
        name_words(edges, ranks, hand, words, out, i * OUT_BLOCK)
    return found


@kernel
def display_key(words, w):
    """Word ``w``'s place in a play's display: points, then letters (a
    word has fewer than ``1 << DISPLAY_POINTS_SHIFT`` letters)."""
    return (words[WORD_STRIDE * w + WORD_POINTS] << DISPLAY_POINTS_SHIFT) + words[WORD_STRIDE * w + WORD_LETTERS]


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
    caches, cost a noticeable part of every ``solve()``.
    """
    if out[ob + OUT_KEY] == INFEASIBLE:
        return
    start = ob + OUT_HEAD
    ties = 0
    for i in range(start + 1, start + out[ob + OUT_WORDS]):  # insertion sort: a play has a few words
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
    if out[ob + OUT_DISCARD] != NO_DISCARD:
        out[ob + OUT_DISCARD] = hand[HAND_HEAD + HAND_STRIDE * out[ob + OUT_DISCARD] + DIGIT_FACE]
    for i in range(ob + OUT_LEFTOVERS, ob + OUT_LEFTOVERS + out[ob + OUT_LEFT]):
        out[i] = hand[HAND_HEAD + HAND_STRIDE * out[i] + DIGIT_FACE]
    for i in range(ob + OUT_HEAD, ob + OUT_HEAD + out[ob + OUT_WORDS]):
        out[i] = word_rank(edges, ranks, hand, words[WORD_STRIDE * out[i] + WORD_RADIX])


@kernel
def count_faces(face_count, hand):
    """Where a job row holds its hand's ``n`` kernel faces in ``[:n]``,
    marked by ``-n`` in its last face slot (the quick paths' hands), count
    them in place, as the rows' kernels read counts; ``hand`` is room for a
    copy of the faces (a hand's layout, written afterwards)."""
    n = -face_count[FACE_SLOTS - 1]
    if n <= 0:
        return 0
    for k in range(n):
        hand[k] = face_count[k]
    for k in range(FACE_SLOTS):
        face_count[k] = 0
    for k in range(n):
        face_count[hand[k]] += 1
    return 0


@kernel
def work_parts(work, capacity):
    """``(hand, group, stack, second, words, memo)``: the buffers of a
    :func:`solve_rows` work array with room for ``capacity`` words, as views
    of it, in this order after the face tables (``second`` is a second
    stack's room, which the kernels that need no second stack use for small
    tables); the memo comes last, so its generation stamps outlive the call
    (see :func:`work_size`)."""
    at = FACE_TABLES
    hand = work[at : at + HAND_SIZE]
    at += HAND_SIZE
    group = work[at : at + GROUP_SIZE]
    at += GROUP_SIZE
    stack = work[at : at + STACK_SIZE]
    at += STACK_SIZE
    second = work[at : at + STACK_SIZE]
    at += STACK_SIZE
    words = work[at : at + WORD_STRIDE * capacity]
    at += WORD_STRIDE * capacity
    return hand, group, stack, second, words, work[at:]


@kernel
def solve_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`solve_counts` for rows ``first, first + step, ...`` of ``jobs``,
    with every buffer carved out of one ``work`` array (numpy only: the
    slices are views).  The entry point of the compiled backend, for one
    hand (a one-row ``jobs``) and for batches (one call per thread, each
    with its own ``work``; the GIL is released, so threads run in parallel).

    A row of ``jobs`` is ``JOB_WIDTH`` numbers: the hand's ``FACE_SLOTS`` face counts
    (or, where the last of them is ``-n``, the hand's ``n`` kernel faces, counted here),
    the solve parameters from ``JOB_PARAMS``, then the result: :func:`solve_counts`' return
    value at ``JOB_STATUS`` (negative: the packed buffers were too small,
    solve that hand with more room) and its two play blocks from ``JOB_OUT``.
    ``capacity`` words fit in ``work`` (see :func:`work_size`).
    Each array argument costs the caller's side of a compiled call a check
    and an unpacking, so there are two besides the trie.
    ``work`` starts with the face points and letters (``FACE_SLOTS`` each); the memo
    comes last, at a fixed offset, so its generation stamps outlive the call.
    """
    hand, group, stack, kstack, words, memo = work_parts(work, capacity)
    for i in range(first, len(jobs), step):
        job = jobs[i]
        count_faces(job, hand)
        job[JOB_STATUS] = solve_counts(edges, ranks, job[:JOB_PARAMS], work[WORK_POINTS:WORK_LETTERS],
                                       work[WORK_LETTERS:FACE_TABLES], job[JOB_PARAMS:JOB_STATUS], hand,
                                       words, group, memo, stack, kstack, job[JOB_OUT:])  # fmt: skip
    return 0


@kernel
def score_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`solve_rows` with :func:`score_counts`: each row's status and
    its two blocks' ``[OUT_KEY]``, nothing else of the blocks (a batch
    that wants scores only: the computer players')."""
    hand, group, stack, _, words, memo = work_parts(work, capacity)  # the second stack is unused here
    for i in range(first, len(jobs), step):
        job = jobs[i]
        count_faces(job, hand)
        job[JOB_STATUS] = score_counts(edges, ranks, job[:JOB_PARAMS], work[WORK_POINTS:WORK_LETTERS],
                                       work[WORK_LETTERS:FACE_TABLES], job[JOB_PARAMS:JOB_STATUS], hand,
                                       words, group, memo, stack, job[JOB_OUT:])  # fmt: skip
    return 0


# -- a final turn's classes of plays (class_keys) --------------------------------
CLASS_LETTERS = 2  # a class's level of the longest word: any play, a word longer than long_after
CLASS_WORDS = 3  # its level of the word count: any, at least need_words, at least need_words - 1
CLASS_COUNT = CLASS_LETTERS * CLASS_WORDS  # the keys class_keys writes


@kernel
def known_value(memo, hand, radix, j, f, naug, nf):
    """The key with leftovers of state ``radix`` under constraints ``j``
    and ``f`` where a search has settled it (in either half of the memo,
    see :func:`other_value`), else ``UNKNOWN``."""
    gen = memo[MEMO_GENERATION]
    slot = memo_slot(radix, j, f, naug, nf, 0)
    if memo[slot + MEMO_STAMP] == gen:
        return memo[slot + MEMO_KEY]
    return other_value(memo, slot + MEMO_SLOT * hand[HAND_STATES] * naug, gen, 1)


@kernel
def class_keys(words, group, hand, memo, stack, order, full_radix, full_swar, discard, need_words, long_after, out):
    """The best key of each class of plays a final turn's value tells
    apart, in ``out[CLASS_WORDS * a + b]`` (``INFEASIBLE``: no such play):
    ``a`` is the longest word's level (0 any play; 1 a word longer than
    ``long_after`` letters) and ``b`` the word count's (0 any; 1 at least
    ``need_words`` words; 2 at least ``need_words - 1``, ``need_words`` at
    least 1), with one card discarded if ``discard``.

    The searches are :func:`state_value`'s, without bonuses; its memo
    counts the words still needed, so both word levels come from one memo.
    As in :func:`best_key`, the discards go cheapest first, a class stops
    at the first discard whose rest cannot beat its best key even with
    every card in words (nor can any later one), and the word-only search
    is asked first, the class of the fewest words first: a cover is the
    best play of its rest, and where the freest class has none, none has.
    ``order`` is room for the hand's digits, cheapest first (see
    :func:`discard_order`), the order of the discards for each class.
    """
    ndig = hand[HAND_DIGITS]
    ncand = ndig if discard != 0 else 1
    naug = (need_words + 1) * 2
    hand_points = state_points(hand, full_swar)
    for k in range(CLASS_COUNT):
        out[k] = INFEASIBLE
    memo[MEMO_GENERATION] += 1
    discard_order(hand, order)
    for a in range(CLASS_LETTERS):
        for at in range(ncand):
            c = order[at] if discard != 0 else 0
            radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, discard, c)
            full = ((points + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
            covers = 1
            searched = 0
            looser = full  # at least this discard's key in the class: each class's plays are the last one's
            for bb in range(CLASS_WORDS):
                b = 0 if bb == 0 else CLASS_WORDS - bb  # any, at least need_words - 1, at least need_words
                k = CLASS_WORDS * a + b
                if out[k] >= full:
                    continue
                searched = 1
                j0 = 0 if b == 0 else (need_words if b == 1 else need_words - 1)
                limit = looser
                if a == 1:  # and at least its key with as many words and any longest word, where known
                    known = known_value(memo, hand, radix, j0, 0, naug, 2)
                    if known != UNKNOWN:
                        limit = min(limit, known)
                if limit <= out[k]:
                    looser = limit  # the discard cannot raise the class's key: not searched
                    continue
                value, covers = cover_first(words, group, hand, memo, stack, radix, swar, points, j0, a, need_words,
                                            1, long_after, covers, 1)  # fmt: skip
                out[k] = max(out[k], value)
                looser = value
            if searched == 0:
                break  # no later discard leaves more points
    return 0


@kernel
def class_counts(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack,
                 order, out):  # fmt: skip
    """:func:`class_keys` of a hand given as counts per kernel face, with
    ``params``' discard, need_words (at least 1) and long_after (its
    long_target 1, sizing the memo); the keys go to ``out[:CLASS_COUNT]``
    (``order``: room for ``FACE_SLOTS`` digits).  Returns what
    :func:`solve_counts` returns."""
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    full_radix, full_swar = full_state(hand)
    class_keys(words, group, hand, memo, stack, order, full_radix, full_swar, params[PARAM_DISCARD],
               params[PARAM_NEED_WORDS], params[PARAM_LONG_AFTER], out)  # fmt: skip
    return group[hand[HAND_DIGITS]]


@kernel
def class_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`solve_rows` with :func:`class_counts`: each row's status and
    its classes' keys from ``JOB_OUT`` (a computer player's final turn
    wants the best value, which they give, and no play)."""
    hand, group, stack, second, words, memo = work_parts(work, capacity)
    order = second[:FACE_SLOTS]  # in the second stack's room, which nothing else uses here
    for i in range(first, len(jobs), step):
        job = jobs[i]
        count_faces(job, hand)
        job[JOB_STATUS] = class_counts(edges, ranks, job[:JOB_PARAMS], work[WORK_POINTS:WORK_LETTERS],
                                       work[WORK_LETTERS:FACE_TABLES], job[JOB_PARAMS:JOB_STATUS], hand,
                                       words, group, memo, stack, order, job[JOB_OUT:])  # fmt: skip
    return 0


# -- a turn's kept hands (kept_keys) ------------------------------------------------
KEPT_STRIDE = 2  # kept_keys writes two keys per digit of the hand:
KEPT_BEST = 0  # the kept hand's best key,
KEPT_GO = 1  # and its best going-out key


@kernel
def kept_keys(words, group, hand, memo, stack, full_radix, full_swar, long_after, out):
    """For each digit ``d`` of the hand, the hand less one card of that
    digit (what a turn keeps after each discard), solved as a hand of its
    own without a discard: its best key at ``out[2 * d]`` and its best
    going-out key at ``out[2 * d + 1]`` (``INFEASIBLE``: it cannot go
    out; ``KEPT_*``), the keys :func:`score_counts` gives that hand.

    Every kept hand is a state of this one, so the words are found once
    and one memo serves them all (they share most of their sub-states).
    As in :func:`cover_first`, the word-only search is asked first: a
    cover is the best play there is."""
    hand_points = state_points(hand, full_swar)
    memo[MEMO_GENERATION] += 1
    for d in range(hand[HAND_DIGITS]):
        radix, swar, points = _candidate(hand, full_radix, full_swar, hand_points, 1, d)
        go = state_value(words, group, hand, memo, stack, radix, swar, points, 0, 0, 0, 0, long_after, 0)
        best = go
        if go == INFEASIBLE:
            best = state_value(words, group, hand, memo, stack, radix, swar, points, 0, 0, 0, 0, long_after, 1)
        out[KEPT_STRIDE * d + KEPT_BEST] = best
        out[KEPT_STRIDE * d + KEPT_GO] = go
    return 0


@kernel
def kept_counts(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack,
                out):  # fmt: skip
    """:func:`kept_keys` of a hand given as counts per kernel face, with
    ``params`` of a solve without a discard or bonus targets (sizing the
    memo); two keys per digit go to ``out``.  Returns what
    :func:`solve_counts` returns."""
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    full_radix, full_swar = full_state(hand)
    kept_keys(words, group, hand, memo, stack, full_radix, full_swar, params[PARAM_LONG_AFTER], out)
    return group[hand[HAND_DIGITS]]


@kernel
def kept_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`solve_rows` with :func:`kept_counts`: each row's status and,
    from ``JOB_OUT``, two keys per digit of its hand (a computer player's
    turn values the cards it would keep after each discard)."""
    hand, group, stack, _, words, memo = work_parts(work, capacity)  # the second stack is unused here
    for i in range(first, len(jobs), step):
        job = jobs[i]
        count_faces(job, hand)
        job[JOB_STATUS] = kept_counts(edges, ranks, job[:JOB_PARAMS], work[WORK_POINTS:WORK_LETTERS],
                                      work[WORK_LETTERS:FACE_TABLES], job[JOB_PARAMS:JOB_STATUS], hand,
                                      words, group, memo, stack, job[JOB_OUT:])  # fmt: skip
    return 0


@kernel
def find_words_with(edges, hand, face_points, face_letters, with_words, capacity, stack, extra):
    """The words of the hand plus one card of face ``extra`` that hold that
    card, as :func:`find_words` writes words, but with radix and SWAR deltas
    that leave one ``extra`` card out: the word less that card is a
    sub-multiset of the hand, so the rest of a state of the hand plus the
    card, after the word, is a state of the hand (its layout, its memo).
    Points and letters count the whole word.  Returns the number of words,
    or ``WORDS_FULL``.

    The walk is :func:`find_words`' with two changes: a path through the
    trie takes faces in rising order, so until it has taken ``extra`` it
    takes no later face (no word below could hold the card), and only
    words that hold the card are counted."""
    n = 0
    half = len(edges) >> 1
    avail = 0
    table = WALK_TABLE
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        face = hand[h + DIGIT_FACE]
        avail |= 1 << face
        t = table + FACE_ROW * face
        stack[t + ROW_RADIX] = hand[h + DIGIT_STRIDE]
        stack[t + ROW_SWAR] = 1 << hand[h + DIGIT_SHIFT]
        stack[t + ROW_POINTS] = face_points[face]
        stack[t + ROW_LETTERS] = face_letters[face]
        stack[t + ROW_LEFT] = hand[h + DIGIT_COUNT]
    for t in range(WALK_FRAME):
        stack[t] = 0
    te = table + FACE_ROW * extra
    if (avail >> extra) & 1 != 0:  # one more of a face in hand: each word's first copy is the extra card
        stack[WALK_RADIX] = -stack[te + ROW_RADIX]
        stack[WALK_SWAR] = -stack[te + ROW_SWAR]
        stack[te + ROW_LEFT] += 1
    else:  # a face not in hand: its one card takes no room in the hand's states
        stack[te + ROW_RADIX] = 0
        stack[te + ROW_SWAR] = 0
        stack[te + ROW_POINTS] = face_points[extra]
        stack[te + ROW_LETTERS] = face_letters[extra]
        stack[te + ROW_LEFT] = 1
        avail |= 1 << extra
    untaken = stack[te + ROW_LEFT]  # the extra face's cards left while a path holds none
    below = (2 << extra) - 1  # the faces a path may take before it holds the card
    base = 0
    stack[WALK_MASK] = edges[half + ROOT_EDGE]
    stack[WALK_FIRST] = edges[ROOT_EDGE] >> EDGE_FIRST_SHIFT
    todo = stack[WALK_MASK] & avail & below
    while True:
        if todo == 0:  # leave the node: its face is back in hand
            if base == 0:
                break
            face = stack[base + WALK_FACE]
            stack[table + FACE_ROW * face + ROW_LEFT] += 1
            avail |= 1 << face
            base -= WALK_FRAME
            todo = stack[base + WALK_TODO]
            continue
        bit = todo & -todo
        todo ^= bit
        face = lowest_bit(bit)
        e = stack[base + WALK_FIRST] + count_ones(stack[base + WALK_MASK] & (bit - 1))
        packed = edges[e]
        t = table + FACE_ROW * face
        radix = stack[base + WALK_RADIX] + stack[t + ROW_RADIX]
        swar = stack[base + WALK_SWAR] + stack[t + ROW_SWAR]
        points = stack[base + WALK_POINTS] + stack[t + ROW_POINTS]
        letters = stack[base + WALK_LETTERS] + stack[t + ROW_LETTERS]
        cards = stack[base + WALK_CARDS] + 1
        if n == capacity:
            return WORDS_FULL
        w = WORD_STRIDE * n
        with_words[w + WORD_RADIX] = radix
        with_words[w + WORD_SWAR] = swar
        with_words[w + WORD_POINTS] = points
        with_words[w + WORD_LETTERS] = letters
        with_words[w + WORD_CARDS] = cards
        holds = face == extra or stack[te + ROW_LEFT] != untaken
        n += ((packed >> EDGE_TERMINAL_SHIFT) & 1) if holds else 0
        child_mask = edges[half + e]
        left = stack[t + ROW_LEFT] - 1
        child_avail = avail ^ (bit if left == 0 else 0)
        child_todo = child_mask & child_avail & (-1 if holds else below)
        if child_todo != 0:
            stack[base + WALK_TODO] = todo
            stack[t + ROW_LEFT] = left
            avail = child_avail
            base += WALK_FRAME
            stack[base + WALK_RADIX] = radix
            stack[base + WALK_SWAR] = swar
            stack[base + WALK_POINTS] = points
            stack[base + WALK_LETTERS] = letters
            stack[base + WALK_CARDS] = cards
            stack[base + WALK_FACE] = face
            stack[base + WALK_FIRST] = packed >> EDGE_FIRST_SHIFT
            stack[base + WALK_MASK] = child_mask
            todo = child_todo
    return n


@kernel
def memo_value(words, group, hand, memo, stack, radix, swar, points, j, f, need_words, long_target, long_after,
               allow_left):  # fmt: skip
    """:func:`state_value`, its memo slot read here first: the batch's
    values are nearly all settled already (the hand's memo serves every
    base and card), and a look at the slot costs much less than the call."""
    nf = long_target + 1
    half = 0 if allow_left != 0 else hand[HAND_STATES] * (need_words + 1) * nf
    slot = memo_slot(radix, j, f, (need_words + 1) * nf, nf, half)
    if memo[slot + MEMO_STAMP] == memo[MEMO_GENERATION]:
        return memo[slot + MEMO_KEY]
    return state_value(words, group, hand, memo, stack, radix, swar, points, j, f, need_words, long_target,
                       long_after, allow_left)  # fmt: skip


@kernel
def plus_value(words, group, hand, memo, stack, with_words, nwith, radix, swar, points, extra_points, j, f,
               need_words, long_target, long_after, allow_left):  # fmt: skip
    """:func:`state_value` of the state ``(radix, swar)`` of the hand, worth
    ``points``, plus one card worth ``extra_points`` whose words are
    ``with_words`` (see :func:`find_words_with`), under the constraints
    ``j`` and ``f``.

    That card is either left over (the state's own value, less the card,
    not going out) or in one word that holds it, whose rest is a state of
    the hand: every value asked for is in the hand's own memo, shared by
    every card added to it."""
    full = ((points + extra_points + SCORE_OFFSET) << SCORE_SHIFT) | GO_BIT
    guard = hand[HAND_GUARD]
    child_j = j - 1 if j > 0 else 0
    best = INFEASIBLE
    for i in range(nwith):
        w = WORD_STRIDE * i
        wswar = with_words[w + WORD_SWAR]
        if ((swar | guard) - wswar) & guard != guard:
            continue
        child_f = f if with_words[w + WORD_LETTERS] <= long_after else 0
        rest = memo_value(words, group, hand, memo, stack, radix - with_words[w + WORD_RADIX], swar - wswar,
                          points + extra_points - with_words[w + WORD_POINTS], child_j, child_f, need_words,
                          long_target, long_after, allow_left)  # fmt: skip
        if rest != INFEASIBLE:
            best = max(best, rest + (with_words[w + WORD_POINTS] << SCORE_SHIFT))
            if best == full:
                return best
    if allow_left != 0:
        rest = memo_value(words, group, hand, memo, stack, radix, swar, points, j, f, need_words, long_target,
                          long_after, 1)  # fmt: skip
        if rest != INFEASIBLE:
            best = max(best, (rest & ~GO_BIT) - (extra_points << SCORE_SHIFT))
    return best


@kernel
def plus_long_fits(words, group, with_words, nwith, swar, guard, long_after):
    """Whether a word of more than ``long_after`` letters fits in the state
    ``swar`` of the hand plus the extra card: one of the hand's, or one
    holding the card (``with_words``)."""
    if long_word_fits(words, group, swar, guard, long_after):
        return True
    for i in range(nwith):
        w = WORD_STRIDE * i
        if with_words[w + WORD_LETTERS] > long_after and ((swar | guard) - with_words[w + WORD_SWAR]) & guard == guard:
            return True
    return False


@kernel
def plus_key(words, group, hand, memo, stack, with_words, nwith, order, base_radix, base_swar, extra, extra_points,
             need_words, long_target, long_after, word_bonus, long_bonus):  # fmt: skip
    """``(best, go)``: the best key of the base, the state ``(base_radix,
    base_swar)`` of the hand, plus one card of face ``extra``, discarding
    one card, and its best going-out key (``INFEASIBLE`` if no play
    qualifies): :func:`best_key` of that hand with leftovers and without,
    its discards tried cheapest first and its bonus targets' searches
    skipped as there, each value worked out by :func:`plus_value` on the
    hand's own states.  Discarding the extra card (or a copy of its face)
    leaves the base itself; discarding another card ``d`` leaves the base
    less ``d`` plus the card.  ``order`` holds the hand's digits cheapest
    first (see :func:`discard_order`); the extra card goes after the digits
    of as many points, as the lowest digit goes first on a tie.

    Both keys come from one pass over the discards, each discard searched
    once, with leftovers: its best play goes out exactly when it has a
    cover, so the going-out key reads the same values.  Each key keeps its
    own bounds (``best_key``'s): a search is skipped only where neither key
    can gain from it, and the pass ends when neither can gain from any
    later discard.  A search that one key would have skipped cannot raise
    that key, so its value changes neither maximum."""
    ndig = hand[HAND_DIGITS]
    guard = hand[HAND_GUARD]
    base_points = state_points(hand, base_swar)
    njs = 2 if need_words > 0 else 1
    bonus_room = (word_bonus if need_words > 0 else 0) + (long_bonus if long_target > 0 else 0)
    best_any = INFEASIBLE  # the best key, leftovers allowed
    best_out = INFEASIBLE  # the best going-out key
    used = 0  # the digits not to discard: none in the base, or the extra card's face (the same as the card)
    for e in range(ndig):
        h = HAND_HEAD + HAND_STRIDE * e
        if (base_swar >> hand[h + DIGIT_SHIFT]) & hand[h + DIGIT_MASK] == 0 or hand[h + DIGIT_FACE] == extra:
            used |= 1 << e
    at = 0  # the next digit of order to try
    extra_left = True
    while True:
        while at < ndig and (used >> order[at]) & 1 != 0:
            at += 1
        c = ndig  # the cheapest discard left: a digit of the base, or ndig for the extra card
        cost = extra_points
        if at < ndig and (not extra_left or hand[HAND_HEAD + HAND_STRIDE * order[at] + DIGIT_POINTS] <= extra_points):
            c = order[at]
            cost = hand[HAND_HEAD + HAND_STRIDE * c + DIGIT_POINTS]
            at += 1
        elif extra_left:
            extra_left = False
        else:
            break
        # The most this discard can score, every card in words and every bonus won; no
        # later discard can score more (none is cheaper), so a key whose best scores more
        # is settled, and once both are the pass ends.
        reach = base_points + extra_points - cost + bonus_room
        any_open = best_any == INFEASIBLE or reach >= (best_any >> SCORE_SHIFT) - SCORE_OFFSET
        out_open = best_out == INFEASIBLE or reach >= (best_out >> SCORE_SHIFT) - SCORE_OFFSET
        if not any_open and not out_open:
            break
        radix = base_radix
        swar = base_swar
        points = base_points
        if c < ndig:  # the base less digit c, plus the card (added by plus_value)
            h = HAND_HEAD + HAND_STRIDE * c
            radix -= hand[h + DIGIT_STRIDE]
            swar -= 1 << hand[h + DIGIT_SHIFT]
            points -= hand[h + DIGIT_POINTS]
        free_any = INFEASIBLE  # as in best_key, for each key: what bounds a target's search
        both_any = INFEASIBLE
        free_out = INFEASIBLE
        both_out = INFEASIBLE
        for jj in range(njs):
            j0 = need_words if jj == 1 else 0
            for f0 in range(long_target + 1):
                bonus = (word_bonus if j0 > 0 else 0) + (long_bonus if f0 > 0 else 0)
                targets = jj + f0
                if targets > 0:
                    limit_any = free_any if targets == 1 else both_any
                    limit_out = free_out if targets == 1 else both_out
                    if f0 == 1 and c == ndig and not long_word_fits(words, group, swar, guard, long_after):
                        limit_any = INFEASIBLE
                        limit_out = INFEASIBLE
                    if f0 == 1 and c < ndig and not plus_long_fits(words, group, with_words, nwith, swar, guard,
                                                                   long_after):  # fmt: skip
                        limit_any = INFEASIBLE
                        limit_out = INFEASIBLE
                    any_gains = any_open and limit_any != INFEASIBLE and limit_any + (bonus << SCORE_SHIFT) > best_any
                    out_gains = out_open and limit_out != INFEASIBLE and limit_out + (bonus << SCORE_SHIFT) > best_out
                    if not any_gains and not out_gains:
                        if targets == 1:
                            both_any = min(both_any, limit_any)
                            both_out = min(both_out, limit_out)
                        continue
                if c == ndig:
                    value = memo_value(words, group, hand, memo, stack, radix, swar, points, j0, f0, need_words,
                                       long_target, long_after, 1)  # fmt: skip
                else:
                    value = plus_value(words, group, hand, memo, stack, with_words, nwith, radix, swar, points,
                                       extra_points, j0, f0, need_words, long_target, long_after, 1)  # fmt: skip
                value_out = value if (value & GO_BIT) != 0 else INFEASIBLE  # a card left over: no cover
                if targets == 0:
                    free_any = value
                    both_any = value
                    free_out = value_out
                    both_out = value_out
                elif targets == 1:
                    both_any = min(both_any, value)
                    both_out = min(both_out, value_out)
                if value != INFEASIBLE:
                    best_any = max(best_any, value + (bonus << SCORE_SHIFT))
                if value_out != INFEASIBLE:
                    best_out = max(best_out, value_out + (bonus << SCORE_SHIFT))
    return best_any, best_out


@kernel
def discard_order(hand, order):
    """Write the hand's digits to ``order[:ndig]`` by their points, the
    cheapest first and the lower digit first on a tie: the order in which
    :func:`plus_key` tries its discards, worked out once for the batch
    (each hand of it picked its cheapest discard left by a scan of every
    digit)."""
    ndig = hand[HAND_DIGITS]
    for d in range(ndig):
        points = hand[HAND_HEAD + HAND_STRIDE * d + DIGIT_POINTS]
        at = d
        while at > 0 and hand[HAND_HEAD + HAND_STRIDE * order[at - 1] + DIGIT_POINTS] > points:
            order[at] = order[at - 1]
            at -= 1
        order[at] = d


@kernel
def score_plus(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo, stack,
               with_words, order, jobs, first, step):  # fmt: skip
    """The two keys of :func:`score_counts` (discarding one card) of each
    hand made of a base plus one card, for the rows ``first, first + step,
    ...`` of ``jobs`` (a row: the base's face counts, the solve parameters,
    the status, how many faces its hands add, the faces, a negative face
    for a hand not wanted, then the keys from ``PLUS_BEST`` and
    ``PLUS_GO``).  Every base is a state of the hand ``face_count`` (the
    most of each face any base holds): its words are found once, one walk
    a face added finds the words that hold it (see
    :func:`find_words_with`), and its memo serves every base and every card
    added (see :func:`plus_value`).  Returns the number of the hand's
    words (0, and nothing done, when no hand is wanted), or a negative
    number as :func:`solve_counts` does (then solve the hands one by one)."""
    extras = 0  # the faces some base's hand adds
    for i in range(first, len(jobs), step):
        job = jobs[i]
        for k in range(job[PLUS_COUNT]):
            if job[PLUS_FACES + k] >= 0:
                extras |= 1 << job[PLUS_FACES + k]
    if extras == 0:
        return 0
    nstates = prepare(edges, ranks, face_count, face_points, face_letters, params, hand, words, group, memo,
                      stack)  # fmt: skip
    if nstates < 0:
        return nstates
    memo[MEMO_GENERATION] += 1
    discard_order(hand, order)
    capacity = len(with_words) // WORD_STRIDE
    while extras != 0:
        extra = lowest_bit(extras)
        extras ^= 1 << extra
        nwith = find_words_with(edges, hand, face_points, face_letters, with_words, capacity, stack, extra)
        if nwith < 0:
            return WORDS_FULL
        for i in range(first, len(jobs), step):
            job = jobs[i]
            base_radix, base_swar = state_of(hand, job)
            for k in range(job[PLUS_COUNT]):
                if job[PLUS_FACES + k] == extra:
                    plus_keys(words, group, hand, memo, stack, with_words, nwith, order, base_radix, base_swar,
                              extra, face_points[extra], params, job, k)  # fmt: skip
    return group[hand[HAND_DIGITS]]


@kernel
def state_of(hand, face_count):
    """(radix, swar) of the sub-multiset of the hand with ``face_count``
    cards of each face (at most the hand's)."""
    radix = 0
    swar = 0
    for d in range(hand[HAND_DIGITS]):
        h = HAND_HEAD + HAND_STRIDE * d
        count = face_count[hand[h + DIGIT_FACE]]
        radix += count * hand[h + DIGIT_STRIDE]
        swar += count << hand[h + DIGIT_SHIFT]
    return radix, swar


@kernel
def plus_keys(words, group, hand, memo, stack, with_words, nwith, order, base_radix, base_swar, extra, extra_points,
              params, out, k):  # fmt: skip
    """Write the two keys of the base plus the card (see :func:`plus_key`)
    to ``out[PLUS_BEST + k]`` and ``out[PLUS_GO + k]``."""
    best, go = plus_key(words, group, hand, memo, stack, with_words, nwith, order, base_radix, base_swar, extra,
                        extra_points,
                        params[PARAM_NEED_WORDS], params[PARAM_LONG_TARGET], params[PARAM_LONG_AFTER],
                        params[PARAM_WORD_BONUS], params[PARAM_LONG_BONUS])  # fmt: skip
    out[PLUS_BEST + k] = best  # never INFEASIBLE: every card may be left over
    out[PLUS_GO + k] = go


@kernel
def score_plus_rows(edges, ranks, jobs, work, first, step, capacity):
    """:func:`score_plus` for rows ``first, first + step, ...`` of ``jobs``
    (``PLUS_WIDTH`` numbers each), each given its status, in a
    :func:`solve_rows` work array whose room for ``capacity`` words is split
    between the hand's words and an added card's.  The hand is every base's
    cards together (of each face, the most any of these rows holds), and
    the rows share the solve parameters of the first."""
    hand, group, stack, second, all_words, memo = work_parts(work, capacity)
    face_count = second[:FACE_SLOTS]  # in the second stack's room, which nothing else uses here
    order = second[FACE_SLOTS : 2 * FACE_SLOTS]
    room = WORD_STRIDE * (capacity >> 1)
    words = all_words[:room]
    with_words = all_words[room : 2 * room]
    if first >= len(jobs):
        return 0
    for f in range(FACE_SLOTS):
        face_count[f] = 0
    for i in range(first, len(jobs), step):
        job = jobs[i]
        for f in range(FACE_SLOTS):
            face_count[f] = max(face_count[f], job[f])
    status = score_plus(edges, ranks, face_count, work[WORK_POINTS:WORK_LETTERS], work[WORK_LETTERS:FACE_TABLES],
                        jobs[first][JOB_PARAMS:JOB_STATUS], hand, words, group, memo, stack, with_words, order, jobs,
                        first, step)  # fmt: skip
    for i in range(first, len(jobs), step):
        jobs[i][JOB_STATUS] = status
    return 0


def work_size(capacity: int, memo_size: int) -> int:
    """The size of a :func:`solve_rows` work array with room for ``capacity``
    words and a memo of ``memo_size``."""
    return FACE_TABLES + HAND_SIZE + GROUP_SIZE + 2 * STACK_SIZE + WORD_STRIDE * capacity + memo_size
