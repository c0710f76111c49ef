"""Win and ready-hand analysis over 34-long count arrays.

Source: the standard mahjong hand shape shared by every variant with sets
(``docs/rules/README.md`` vocabulary): a complete hand is ``4 - n_melds`` concealed sets
(chow = three consecutive tiles of one suit, pung = three identical tiles) plus one
pair, or, with no melds, seven pairs (七对; four identical tiles count as two pairs,
as in the Chinese Official rules and ``pymahjonggb``).

All functions take a count array as built by :func:`engine.tiles.counts34`:
``counts[k]`` is how many tiles of kind ``k`` (0..33) are in the concealed hand.
They never mutate their argument.  Melded sets are not in the array; pass their
number as ``n_melds``.

Speed: every analysis is split per group (万, 筒, 条, honours); each group's answer is
memoised on the tuple of its counts, so after warm-up a call costs a handful of dict
look-ups.  Honour groups never form chows.
"""

from __future__ import annotations

from itertools import product
from typing import Callable, Iterable

#: a reading's ``(sets, partials, pair)`` sums
Mtp = tuple[int, int, int]
#: a shanten function ``(34 counts, melds) -> shanten``
ShantenFn = Callable[[list[int], int], int]

__all__ = [
    "CHOW",
    "PUNG",
    "PUNG_CODE",
    "decompose",
    "decompose_codes",
    "is_seven_pairs",
    "is_standard_win",
    "is_win",
    "seven_pairs_shanten",
    "shanten",
    "shape_waits",
    "standard_shanten",
    "winning_kinds",
]

CHOW, PUNG = "chow", "pung"

#: (first kind, length, chows allowed) of the four groups of the 34 standard kinds
_GROUPS = ((0, 9, True), (9, 9, True), (18, 9, True)) + tuple((k, 1, False) for k in range(27, 34))

#: set codes used by :func:`decompose_codes`: a chow starting at kind ``k`` is ``k``
#: (0..26), a pung of kind ``k`` is ``PUNG_CODE + k``.
PUNG_CODE = 34

# ---------------------------------------------------------------------------
# per-group memoised analysis
# ---------------------------------------------------------------------------

_DECOMP_CACHE: dict[tuple, tuple] = {}
_MASK_CACHE: dict[tuple, int] = {}
_WAIT_CACHE: dict[tuple, tuple] = {}
_MTP_CACHE: dict[tuple, tuple] = {}
_SPLIT_CACHE: dict[tuple, bool] = {}
_BLOCK_CACHE: dict[tuple, bool] = {}


def _group_decomps(base: int, chows: bool, key: tuple) -> tuple:
    """Every split of one group into sets and at most one pair.

    ``key`` is the group's count tuple.  Returns a tuple of ``(codes, pair_kind)``
    with ``codes`` a sorted tuple of global set codes (see :data:`PUNG_CODE`) and
    ``pair_kind`` the global kind of the pair or ``-1``.  Memoised on
    ``(base, key)``.  Counts above 4 are allowed (shape analysis).
    """
    ck = (base, key)
    r = _DECOMP_CACHE.get(ck)
    if r is not None:
        return r
    n = len(key)
    total = sum(key)
    if total % 3 == 1:
        _DECOMP_CACHE[ck] = ()
        return ()
    c = list(key)
    out: set = set()
    sets: list[int] = []

    def rec(i: int, pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            out.add((tuple(sorted(sets)), pair))
            return
        ci = c[i]
        if ci >= 3:
            c[i] = ci - 3
            sets.append(PUNG_CODE + base + i)
            rec(i, pair)
            sets.pop()
            c[i] = ci
        if chows and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append(base + i)
            rec(i, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if pair < 0 and ci >= 2:
            c[i] = ci - 2
            rec(i, base + i)
            c[i] = ci

    rec(0, -1)
    r = tuple(sorted(out))
    _DECOMP_CACHE[ck] = r
    return r


def _can_split(chows: bool, pair: bool, key: tuple) -> bool:
    """True if the counts ``key`` split into sets (plus exactly one pair if ``pair``).

    No set spans an empty rank (nor, without chows, two kinds), so the counts fall
    into independent blocks: each must split into sets, but the one block holding
    ``2 mod 3`` tiles, which takes the pair.  Memoised on ``(chows, pair, key)``;
    blocks are decided by :func:`_block_split`, memoised too.
    """
    ck = (chows, pair, key)
    r = _SPLIT_CACHE.get(ck)
    if r is not None:
        return r
    r = True
    pairs = 0
    n = len(key)
    i = 0
    while i < n:
        if key[i] == 0:
            i += 1
            continue
        j = i + 1
        if chows:
            while j < n and key[j]:
                j += 1
        m = sum(key[i:j]) % 3
        if m == 1 or (m == 2 and (not pair or pairs)):
            r = False
            break
        if m == 2:
            pairs = 1
        if j - i > 1 and not _block_split(chows, m == 2, key[i:j]):
            r = False
            break
        i = j
    if r and pair and not pairs:
        r = False
    _SPLIT_CACHE[ck] = r
    return r


def _block_split(chows: bool, pair: bool, block: tuple) -> bool:
    """:func:`_can_split` of one block of held ranks (tile count ``0`` or ``2`` mod 3
    as ``pair`` says), decided on its first rank: a pung, a chow or the pair."""
    ck = (chows, pair, block)
    r = _BLOCK_CACHE.get(ck)
    if r is not None:
        return r
    c0 = block[0]
    rest = block[1:]
    r = ((c0 >= 3 and _can_split(chows, pair, (c0 - 3,) + rest))
         or (chows and len(block) > 2 and _can_split(chows, pair, (c0 - 1, block[1] - 1, block[2] - 1) + block[3:]))
         or (pair and c0 >= 2 and _can_split(chows, False, (c0 - 2,) + rest)))
    _BLOCK_CACHE[ck] = r
    return r


def _group_mask(base: int, chows: bool, key: tuple) -> int:
    """1 if the group splits into sets only, 2 if into sets + one pair, else 0.

    (A group can never do both: its tile count is ``0`` or ``2`` mod 3.)
    """
    ck = (base, key)
    m = _MASK_CACHE.get(ck)
    if m is None:
        rest = sum(key) % 3
        if rest == 1:
            m = 0
        elif rest == 0:
            m = 1 if _can_split(chows, False, key) else 0
        else:
            m = 2 if _can_split(chows, True, key) else 0
        _MASK_CACHE[ck] = m
    return m


def _group_waits(base: int, chows: bool, key: tuple) -> tuple:
    """``((kind, mask_after), ...)`` for each kind of the group whose addition makes
    the group complete (``mask_after`` as in :func:`_group_mask`).  Shape only."""
    ck = (base, key)
    w = _WAIT_CACHE.get(ck)
    if w is not None:
        return w
    n = len(key)
    res = []
    lst = list(key)
    for i in range(n):
        # a wait must touch a tile of the group (pair/pung) or, for chows, be within 2
        if not (key[i] or (chows and any(key[j] for j in range(max(0, i - 2), min(n, i + 3))))):
            continue
        lst[i] += 1
        m = _group_mask(base, chows, tuple(lst))
        lst[i] -= 1
        if m:
            res.append((base + i, m))
    w = tuple(res)
    _WAIT_CACHE[ck] = w
    return w


_Z9 = (0,) * 9
_Z7 = (0,) * 7


def _split(counts: list[int]) -> list[tuple[int, bool, tuple]]:
    """The non-empty groups of a count array as ``(base, chows, key)``."""
    out = []
    key = tuple(counts[0:9])
    if key != _Z9:
        out.append((0, True, key))
    key = tuple(counts[9:18])
    if key != _Z9:
        out.append((9, True, key))
    key = tuple(counts[18:27])
    if key != _Z9:
        out.append((18, True, key))
    key = tuple(counts[27:34])
    if key != _Z7:
        out.append((27, False, key))
    return out


# ---------------------------------------------------------------------------
# complete hands
# ---------------------------------------------------------------------------


def decompose_codes(counts: list[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every split of a concealed hand into sets + exactly one pair, as integer codes.

    ``counts``: 34-long counts with ``sum % 3 == 2``.  Returns a list of
    ``(codes, pair_kind)`` where ``codes`` is a sorted tuple of set codes (a chow
    starting at kind ``k`` is ``k``; a pung of kind ``k`` is ``PUNG_CODE + k``).
    Empty list if the hand is not a standard complete shape.
    """
    per = []
    for base, ch, key in _split(counts):
        d = _group_decomps(base, ch, key)
        if not d:
            return []
        per.append(d)
    out = []
    for combo in product(*per):
        pair = -1
        ok = True
        codes: list[int] = []
        for cs, p in combo:
            if p >= 0:
                if pair >= 0:
                    ok = False
                    break
                pair = p
            codes.extend(cs)
        if ok and pair >= 0:
            out.append((tuple(sorted(codes)), pair))
    return out


def decompose(counts: list[int]) -> list[tuple[tuple[tuple[str, int], ...], int]]:
    """Every way to split a concealed hand into sets plus one pair (standard hand).

    :param counts: 34-long count array (``engine.tiles.counts34``); its total must be
        ``3n + 2`` (the melded sets are not included).
    :returns: a list of ``(sets, pair_kind)``; ``sets`` is a sorted tuple of
        ``("chow", first_kind)`` / ``("pung", kind)``.  Empty if no split exists.
        Each distinct split appears once.

    >>> decompose([3, 1, 1] + [0] * 31)   # 11123m = 11 + 123
    [((('chow', 0),), 0)]
    """
    res = []
    for codes, pair in decompose_codes(counts):
        sets = tuple((PUNG, c - PUNG_CODE) if c >= PUNG_CODE else (CHOW, c) for c in codes)
        res.append((sets, pair))
    return res


_SUIT_MASK: dict[tuple, int] = {}  # a suit's 9 counts -> _group_mask (the same for 万 筒 条)


def _masks_win(counts: list[int]) -> bool:
    pairs = 0
    for lo in (0, 9, 18):
        key = tuple(counts[lo:lo + 9])
        if key == _Z9:
            continue
        m = _SUIT_MASK.get(key)
        if m is None:
            m = _SUIT_MASK[key] = _group_mask(0, True, key)
        if not m:
            return False
        if m == 2:
            pairs += 1
    for c in counts[27:34]:  # honours: each kind is pungs, pungs + the pair, or absent
        r = c % 3
        if r == 2:
            pairs += 1
        elif r:
            return False
    return pairs == 1


def is_standard_win(counts: list[int], n_melds: int = 0) -> bool:
    """True if the concealed counts form ``4 - n_melds`` sets and one pair.

    :param counts: 34-long count array of the concealed hand, winning tile included.
    :param n_melds: number of melded sets (chow/pung/kong, concealed kongs included).
    The tile total must be ``14 - 3 * n_melds``; otherwise False.
    """
    if sum(counts) != 14 - 3 * n_melds:
        return False
    return _masks_win(counts)


def is_seven_pairs(counts: list[int]) -> bool:
    """True for 14 concealed tiles forming seven pairs (4 identical tiles = 2 pairs,
    as ``pymahjonggb`` reads 七对).  The caller must ensure there are no melds."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def is_win(counts: list[int], n_melds: int = 0) -> bool:
    """Standard hand, or seven pairs when ``n_melds == 0``."""
    if n_melds == 0 and is_seven_pairs(counts):
        return True
    return is_standard_win(counts, n_melds)


# ---------------------------------------------------------------------------
# ready hands
# ---------------------------------------------------------------------------


def _standard_shape_waits(counts: list[int]) -> set[int]:
    groups = _split(counts)
    masks = [_group_mask(b, ch, k) for b, ch, k in groups]
    res: set[int] = set()
    n_zero = masks.count(0)
    n_two = masks.count(2)
    for gi, (base, ch, key) in enumerate(groups):
        m = masks[gi]
        zero_others = n_zero - (m == 0)
        if zero_others:
            continue
        two_others = n_two - (m == 2)
        if two_others == 0:
            need = 2
        elif two_others == 1:
            need = 1
        else:
            continue
        for kind, after in _group_waits(base, ch, key):
            if after == need:
                res.add(kind)
    # (a wait never lies in an empty group: one tile alone completes nothing)
    return res


def _seven_pairs_wait(counts: list[int]) -> int:
    """The kind a 13-tile hand waits on for seven pairs, or -1 (``pymahjonggb`` rule:
    six pairs counted with 4-of-a-kind as two, the wait is the odd kind)."""
    if sum(counts) != 13:
        return -1
    pairs = 0
    odd = -1
    for k in range(34):
        c = counts[k]
        pairs += c >> 1
        if c & 1 and odd < 0:
            odd = k
    return odd if pairs == 6 else -1


def shape_waits(counts: list[int], n_melds: int = 0) -> set[int]:
    """Kinds whose addition completes the hand, by shape alone (copies already held
    are not checked, so a fifth copy may appear).  Used for "unique wait" rules.

    :param counts: 34 counts of a concealed hand of ``13 - 3 * n_melds`` tiles.
    Includes the seven-pairs wait when ``n_melds == 0``.
    """
    if sum(counts) != 13 - 3 * n_melds:
        return set()
    res = _standard_shape_waits(counts)
    if n_melds == 0:
        k = _seven_pairs_wait(counts)
        if k >= 0:
            res.add(k)
    return res


def winning_kinds(counts: list[int], n_melds: int = 0, allowed_kinds: Iterable[int] = range(34)) -> list[int]:
    """Kinds that complete a ready hand (standard, or seven pairs with no melds).

    :param counts: 34 counts of the concealed hand *without* a winning tile
        (``13 - 3 * n_melds`` tiles).
    :param n_melds: melded sets (concealed kongs included).
    :param allowed_kinds: the kinds that exist in the variant (e.g. two_player:
        ``range(9)`` and ``range(27, 34)``).
    :returns: sorted kinds ``k`` in ``allowed_kinds`` with ``counts[k] < 4`` (a copy
        can still exist) that complete the hand; ``[]`` if the hand is not ready or
        has the wrong size.
    """
    waits = shape_waits(counts, n_melds)
    if not waits:
        return []
    allowed = allowed_kinds if isinstance(allowed_kinds, (set, frozenset)) else set(allowed_kinds)
    return sorted(k for k in waits if k in allowed and counts[k] < 4)


# ---------------------------------------------------------------------------
# shanten
# ---------------------------------------------------------------------------


def _pareto(found: Iterable[Mtp]) -> tuple[Mtp, ...]:
    """The triples of ``found`` that no other one dominates, in descending order.

    A triple's dominator is larger in lexicographic order, so it comes first in the
    descending sort, and a dominated dominator's own dominator was kept before it:
    checking each triple against the kept ones is enough."""
    kept: list = []
    for a in sorted(found, reverse=True):
        a0, a1, a2 = a
        for b0, b1, b2 in kept:
            if b0 >= a0 and b1 >= a1 and b2 >= a2:
                break
        else:
            kept.append(a)
    return tuple(kept)


def combine_mtp(xs: Iterable[Mtp], ys: Iterable[Mtp]) -> set[Mtp]:
    """The ``(sets, partials, pair)`` sums of two groups' readings (:func:`_group_mtp`), at
    most one pair in all."""
    return {(m + a, t + b, p + q) for m, t, p in xs for a, b, q in ys if p + q <= 1}


def _group_mtp(chows: bool, key: tuple) -> tuple:
    """Pareto-maximal ``(sets, partials, pair)`` triples for one group (memoised).

    Partials are two tiles one draw from a set: a pair, or for chow groups two
    tiles of the same suit one or two ranks apart.  ``pair`` is 1 if a pair is set
    aside as the hand's pair.  Solved on the first non-empty rank: every way to use
    one of its tiles (pung, chow, pair, partial, or leave it) leads to a smaller key,
    itself memoised, so a suit is analysed once per distinct suffix of counts.
    """
    ck = (chows, key)
    r = _MTP_CACHE.get(ck)
    if r is not None:
        return r
    i = 0
    n = len(key)
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        r = ((0, 0, 0),)
        _MTP_CACHE[ck] = r
        return r
    c = list(key[i:])
    ci = c[0]
    found: set = set()

    def add(dm: int, dt: int, dp: int, sub: list) -> None:
        for m, t, p in _group_mtp(chows, tuple(sub)):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))

    if ci >= 3:
        add(1, 0, 0, [ci - 3] + c[1:])
    if chows and len(c) > 2 and c[1] and c[2]:
        add(1, 0, 0, [ci - 1, c[1] - 1, c[2] - 1] + c[3:])
    if ci >= 2:
        rest = [ci - 2] + c[1:]
        add(0, 0, 1, rest)
        add(0, 1, 0, rest)
    if chows and len(c) > 1 and c[1]:
        add(0, 1, 0, [ci - 1, c[1] - 1] + c[2:])
    if chows and len(c) > 2 and c[2]:
        add(0, 1, 0, [ci - 1, c[1], c[2] - 1] + c[3:])
    add(0, 0, 0, [ci - 1] + c[1:])
    r = _pareto(found)
    _MTP_CACHE[ck] = r
    return r


def standard_shanten(counts: list[int], n_melds: int = 0) -> int:
    """Shanten of the standard shape: draws needed to be ready, ``-1`` when complete.

    :param counts: 34 counts of the concealed hand (13 or 14 - 3 * n_melds tiles;
        other sizes are read the same way).  Shape only: copies held are not checked.
    """
    lists = []
    for base, n, ch in _GROUPS:
        key = tuple(counts[base:base + n])
        if any(key):
            lists.append(_group_mtp(ch, key))
    best = 8
    for combo in product(*lists):
        m = n_melds
        t = 0
        p = 0
        for a, b, q in combo:
            m += a
            t += b
            p += q
        if p > 1:
            continue
        if m > 4:
            m = 4
        cap = 4 - m
        s = 8 - 2 * m - (t if t < cap else cap) - p
        if s < best:
            best = s
    return best


def seven_pairs_shanten(counts: list[int]) -> int:
    """Shanten toward seven pairs (4-of-a-kind = two pairs): ``6 - pairs``, ``-1`` if
    complete.  Only meaningful with no melds."""
    pairs = 0
    for c in counts:
        pairs += c >> 1
    return 6 - min(pairs, 7)


def shanten(counts: list[int], n_melds: int = 0) -> int:
    """Minimum of the standard and (with no melds) seven-pairs shanten.

    :param counts: 34 counts of the concealed hand (13 or 14 minus 3 per meld).
    :returns: ``-1`` complete, ``0`` ready, ``1`` one useful draw away, ...
    """
    s = standard_shanten(counts, n_melds)
    if n_melds == 0:
        s2 = seven_pairs_shanten(counts)
        if s2 < s:
            s = s2
    return s
