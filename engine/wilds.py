"""Win, ready and shanten analysis with wild tiles (百搭 / 财神), over 34-long count arrays.

A *wild* tile may stand for any of the 34 standard kinds when the hand is read.  Every
function here takes the counts of the **non-wild** concealed tiles (``counts[k]`` for
kinds 0..33, as built by :func:`engine.tiles.counts34`, wild tiles left out) and the
number ``wilds`` of wild tiles held, and never mutates its argument.  Melded sets are not
in the array; pass their number as ``n_melds``.  Which kinds are wild, and any stand-in
tile that plays as another kind, is the variant's business: it builds the arrays.

Reading (shape only, like :mod:`engine.hand_shapes`): a wild may stand for a kind of
which four copies are already in the hand (a fifth copy), since only the shape counts.

Method: the hand is split per group (万, 筒, 条, honours).  For each group the fewest
wilds it needs is computed once and memoised on the tuple of its counts:

* ``need_sets``: wilds needed so the group's tiles form sets only (chows, pungs);
* ``need_pair``: wilds needed so they form sets plus exactly one pair.

A hand wins when ``sum(need_sets) - need_sets[g] + need_pair[g] <= wilds`` for some group
``g`` (its pair there), or ``sum(need_sets) + 2 <= wilds`` (a pair of two wilds); the
wilds left over always come in threes, which form sets of their own.  The per-group search
works on the lowest rank that still holds a tile: that tile is in a pung, a pair, or a
chow starting at most two ranks lower (the missing ranks filled by wilds, which is what
completes ``8-9`` with a wild 7 and ``1-2`` with a wild 3); every sub-problem is a smaller
count tuple, memoised too, so a suit is solved once per distinct suffix of counts.
Using a real tile wherever a set can is never worse (a wild can take its place in the
other set), so only those choices are tried.

Shanten with wilds counts the tiles missing from the best partial reading of the real
tiles (sets, two-tile partial sets, a pair and single seeds, :func:`shanten`) and lets
each wild fill one missing tile.
"""

from __future__ import annotations

from typing import Iterable

from . import hand_shapes

from itertools import combinations

__all__ = [
    "INF",
    "group_need",
    "standard_need",
    "seven_pairs_need",
    "all_pungs_need",
    "is_standard_win",
    "is_seven_pairs",
    "is_all_pungs",
    "is_win",
    "winning_kinds",
    "standard_shanten",
    "seven_pairs_shanten",
    "shanten",
    "shanten_plus_one",
    "knitted_capacity",
]

INF = 99  #: "cannot be done" in need figures (never reached for need: wilds complete anything)

#: (first kind, length, chows allowed) of the four groups of the 34 standard kinds
_GROUPS = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))

_NEED_CACHE: dict[tuple, int] = {}
_GROUP_CACHE: dict[tuple, tuple[int, int]] = {}


def _need(chows: bool, key: tuple, pair: bool) -> int:
    """Fewest wilds so that the tiles of ``key`` form sets (and one pair when ``pair``).

    ``key``: counts of one group, ranks in order.  With ``pair`` and no tile left, the
    pair is two wilds (2).  Memoised on ``(chows, key, pair)``.
    """
    ck = (chows, key, pair)
    r = _NEED_CACHE.get(ck)
    if r is not None:
        return r
    n = len(key)
    i = 0
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        r = 2 if pair else 0
        _NEED_CACHE[ck] = r
        return r
    c = list(key)
    ci = c[i]
    best = INF
    # pung of rank i (wilds for the missing copies)
    t = 3 if ci >= 3 else ci
    c[i] = ci - t
    v = (3 - t) + _need(chows, tuple(c), pair)
    c[i] = ci
    if v < best:
        best = v
    # the pair at rank i
    if pair:
        t = 2 if ci >= 2 else ci
        c[i] = ci - t
        v = (2 - t) + _need(chows, tuple(c), False)
        c[i] = ci
        if v < best:
            best = v
    # chows holding rank i, starting at i-2, i-1 or i (lower ranks are empty: wilds)
    if chows:
        for s in range(max(0, i - 2), min(i, n - 3) + 1):
            cost = 0
            used = []
            for j in range(s, s + 3):
                if c[j] > 0:
                    c[j] -= 1
                    used.append(j)
                else:
                    cost += 1
            if cost < best:
                v = cost + _need(chows, tuple(c), pair)
                if v < best:
                    best = v
            for j in used:
                c[j] += 1
    _NEED_CACHE[ck] = best
    return best


def group_need(chows: bool, key: tuple) -> tuple[int, int]:
    """``(need_sets, need_pair)`` of one group: the fewest wilds that make its tiles sets
    only, and sets plus one pair.  ``key`` is the group's count tuple (9 ranks of a suit
    with ``chows=True``; honours with ``chows=False``).  Memoised."""
    ck = (chows, key)
    r = _GROUP_CACHE.get(ck)
    if r is None:
        if chows:
            r = (_need(True, key, False), _need(True, key, True))
        else:
            # honours never chow: every kind is independent
            s = 0
            d = 2
            for c in key:
                a = _need(False, (c,), False)
                b = _need(False, (c,), True)
                s += a
                if b - a < d:
                    d = b - a
            r = (s, s + d)
        _GROUP_CACHE[ck] = r
    return r


_SUIT_TABLE: dict[bytes, tuple[int, int]] = {bytes(9): (0, 2)}
_HONOR_TABLE: dict[bytes, tuple[int, int]] = {bytes(7): (0, 2)}


def _suit(key: bytes) -> tuple[int, int]:
    """``group_need`` of a suit given as 9 count bytes (the fast table)."""
    r = _SUIT_TABLE.get(key)
    if r is None:
        r = _SUIT_TABLE[key] = group_need(True, tuple(key))
    return r


def _honor(key: bytes) -> tuple[int, int]:
    """``group_need`` of the honours given as 7 count bytes."""
    r = _HONOR_TABLE.get(key)
    if r is None:
        r = _HONOR_TABLE[key] = group_need(False, tuple(key))
    return r


def standard_need(counts: list[int]) -> int:
    """Fewest wilds that make the non-wild ``counts`` a standard hand (sets + one pair).

    The caller checks the tile count: with ``w`` wilds the hand is complete when
    ``(sum(counts) + w) % 3 == 2`` and ``standard_need(counts) <= w``.  Four look-ups
    in memoised per-group tables keyed by the group's counts as bytes (empty groups:
    ``(0, 2)``).  Counts must be 0..255.
    """
    b = bytes(counts)
    s0, p0 = _SUIT_TABLE.get(b[0:9]) or _suit(b[0:9])
    s1, p1 = _SUIT_TABLE.get(b[9:18]) or _suit(b[9:18])
    s2, p2 = _SUIT_TABLE.get(b[18:27]) or _suit(b[18:27])
    s3, p3 = _HONOR_TABLE.get(b[27:34]) or _honor(b[27:34])
    return s0 + s1 + s2 + s3 + min(p0 - s0, p1 - s1, p2 - s2, p3 - s3, 2)


def is_standard_win(counts: list[int], wilds: int, n_melds: int = 0) -> bool:
    """``4 - n_melds`` sets and a pair from ``counts`` plus ``wilds`` wild tiles.

    :param counts: 34 counts of the non-wild concealed tiles.
    :param wilds: number of wild tiles held (>= 0).
    :param n_melds: melded sets (not in ``counts``).
    :returns: False unless the tile count is ``14 - 3 * n_melds``.
    """
    total = sum(counts) + wilds
    if total != 14 - 3 * n_melds:
        return False
    return standard_need(counts) <= wilds


def seven_pairs_need(counts: list[int]) -> int:
    """Fewest wilds for seven pairs: one per kind held an odd number of times (four
    identical tiles are two pairs, as :func:`engine.hand_shapes.is_seven_pairs` reads)."""
    return sum(c & 1 for c in counts)


def is_seven_pairs(counts: list[int], wilds: int) -> bool:
    """Seven pairs from 14 concealed tiles, wilds pairing with anything (no melds)."""
    if sum(counts) + wilds != 14:
        return False
    return seven_pairs_need(counts) <= wilds


def all_pungs_need(counts: list[int]) -> int:
    """Fewest wilds for a hand of pungs plus one pair (对对胡 / 大碰胡 shape)."""
    total = 0
    delta = 2
    for c in counts:
        if c:
            a = _need(False, (c,), False)
            b = _need(False, (c,), True)
            total += a
            if b - a < delta:
                delta = b - a
    return total + delta


def is_all_pungs(counts: list[int], wilds: int, n_melds: int = 0) -> bool:
    """``4 - n_melds`` pungs and a pair from ``counts`` plus ``wilds`` (the caller checks
    that the melds are pungs/kongs)."""
    if sum(counts) + wilds != 14 - 3 * n_melds:
        return False
    return all_pungs_need(counts) <= wilds


def is_win(counts: list[int], wilds: int, n_melds: int = 0, seven_pairs: bool = True) -> bool:
    """Standard hand, or (``seven_pairs`` and no melds) seven pairs, with ``wilds`` wilds.

    :param counts: 34 counts of the non-wild concealed tiles (not mutated).
    :returns: False unless ``sum(counts) + wilds == 14 - 3 * n_melds``.
    """
    if sum(counts) + wilds != 14 - 3 * n_melds:
        return False
    if wilds == 0:  # no wild: the plain shape check (cached per suit pattern) is faster
        if hand_shapes.is_standard_win(counts, n_melds):
            return True
        return seven_pairs and n_melds == 0 and hand_shapes.is_seven_pairs(counts)
    if standard_need(counts) <= wilds:
        return True
    return seven_pairs and n_melds == 0 and seven_pairs_need(counts) <= wilds


def winning_kinds(counts: list[int], wilds: int, n_melds: int = 0, allowed_kinds: Iterable[int] = range(34),
                  seven_pairs: bool = True) -> list[int]:
    """Kinds (from ``allowed_kinds``) whose addition to a 13-tile-form hand makes it win
    with its ``wilds`` wild tiles (ready detection; shape only, like
    :func:`engine.hand_shapes.winning_kinds`).  Drawing a wild completes the hand exactly
    when this list is not empty.

    :returns: sorted kinds; empty unless ``sum(counts) + wilds == 13 - 3 * n_melds``.
    Only the group of the added kind is analysed again for each candidate.
    """
    if sum(counts) + wilds != 13 - 3 * n_melds:
        return []
    groups = []
    for base, n, ch in _GROUPS:
        key = tuple(counts[base:base + n])
        groups.append((base, n, _suit if ch else _honor, key, (_suit if ch else _honor)(bytes(key))))
    sp = seven_pairs and n_melds == 0
    odd = seven_pairs_need(counts) if sp else 0
    out = []
    for k in sorted(set(allowed_kinds)):
        if not 0 <= k < 34:
            continue
        if sp and odd + (1 if counts[k] % 2 == 0 else -1) <= wilds:
            out.append(k)
            continue
        total = 0
        delta = 2
        for base, n, table, key, sn in groups:
            if base <= k < base + n:
                lst = list(key)
                lst[k - base] += 1
                s, p = table(bytes(lst))
            else:
                s, p = sn
            total += s
            if p - s < delta:
                delta = p - s
        if total + delta <= wilds:
            out.append(k)
    return out


# ---------------------------------------------------------------------------
# shanten with wilds
# ---------------------------------------------------------------------------

# the (sets, partials, pair) readings of one group are the plain shape analysis's own
_group_mtp = hand_shapes._group_mtp


def standard_shanten(counts: list[int], wilds: int, n_melds: int = 0) -> int:
    """Draws needed to be ready for a standard hand (``-1``: complete), each wild filling
    one missing tile.

    :param counts: non-wild concealed counts; with ``wilds`` the hand has 13 or 14 tiles
        minus 3 per meld.
    For a reading with ``s`` sets, ``t`` partials (at most ``m - s`` kept, ``m = 4 -
    n_melds``) and ``p`` pairs, the real tiles used are ``3s + 2t + 2p`` plus one single
    seed per empty block while single tiles remain; shanten is ``3m + 1 - used - wilds``.
    """
    m_need = 4 - n_melds
    readings = {(0, 0, 0)}
    for base, n, ch in _GROUPS:
        key = tuple(counts[base:base + n])
        if any(key):
            readings = hand_shapes.combine_mtp(readings, _group_mtp(ch, key))
    return max(3 * m_need + 2 - _best_used(readings, m_need, sum(counts)) - wilds, 0) - 1


def _best_used(readings: Iterable[tuple[int, int, int]], m_need: int, real: int) -> int:
    """The most real tiles a reading uses (:func:`standard_shanten`): ``readings`` are the
    hand's ``(sets, partials, pair)`` sums (one pair at most), ``m_need`` the sets still to make,
    ``real`` the non-wild tiles held."""
    best_used = 0
    for s, t, p in readings:
        if s > m_need:
            s = m_need
        t2 = t if t < m_need - s else m_need - s
        used = 3 * s + 2 * t2 + 2 * p
        free = real - used
        slots = (m_need - s - t2) + (1 - p)
        used += free if free < slots else slots
        if used > best_used:
            best_used = used
    return best_used


def seven_pairs_shanten(counts: list[int], wilds: int) -> int:
    """Shanten toward seven pairs with wilds (no melds): ``13 - used - wilds`` where
    ``used`` counts real tiles in pairs plus single seeds."""
    pairs = min(sum(c >> 1 for c in counts), 7)
    singles = sum(c & 1 for c in counts)
    used = 2 * pairs + min(singles, 7 - pairs)
    return max(14 - used - wilds, 0) - 1


def shanten(counts: list[int], wilds: int, n_melds: int = 0, seven_pairs: bool = True) -> int:
    """Minimum of :func:`standard_shanten` and (no melds, ``seven_pairs``)
    :func:`seven_pairs_shanten`: ``-1`` complete, ``0`` ready, ``1`` one useful draw
    away, ..."""
    s = standard_shanten(counts, wilds, n_melds)
    if seven_pairs and n_melds == 0:
        s2 = seven_pairs_shanten(counts, wilds)
        if s2 < s:
            s = s2
    return s


def shanten_plus_one(counts: list[int], wilds: int, n_melds: int = 0, kinds: Iterable[int] = range(34),
                     seven_pairs: bool = True) -> dict[int, int]:
    """``{k: shanten(counts with one more k, wilds, n_melds, seven_pairs)}`` for each kind
    ``k`` of ``kinds`` (0..33): what each possible draw does to a 13-tile-form hand, with the
    same arithmetic as :func:`standard_shanten` and :func:`seven_pairs_shanten`, but the
    readings of the three groups a kind leaves unchanged combined once per group instead of
    once per kind (an AI's useful-tile count asks this for every kind)."""
    m_need = 4 - n_melds
    real = sum(counts) + 1
    groups = [(base, n, ch, _group_mtp(ch, tuple(counts[base:base + n]))) for base, n, ch in _GROUPS]
    combine = hand_shapes.combine_mtp
    rest = [combine(combine(groups[1][3], groups[2][3]), groups[3][3]),
            combine(combine(groups[0][3], groups[2][3]), groups[3][3]),
            combine(combine(groups[0][3], groups[1][3]), groups[3][3]),
            combine(combine(groups[0][3], groups[1][3]), groups[2][3])]
    top = 3 * m_need + 2 - wilds
    sp = seven_pairs and n_melds == 0
    if sp:
        pairs = sum(c >> 1 for c in counts)
        singles = sum(c & 1 for c in counts)
    out = {}
    for k in kinds:
        i = 3 if k >= 27 else k // 9
        base, n, ch, _ = groups[i]
        key = list(counts[base:base + n])
        key[k - base] += 1
        best_used = _best_used(combine(rest[i], _group_mtp(ch, tuple(key))), m_need, real)
        v = (top - best_used if top > best_used else 0) - 1
        if sp:
            if counts[k] & 1:
                pr, sg = min(pairs + 1, 7), singles - 1
            else:
                pr, sg = min(pairs, 7), singles + 1
            used = 2 * pr + min(sg, 7 - pr)
            v2 = max(14 - used - wilds, 0) - 1
            if v2 < v:
                v = v2
        out[k] = v
    return out


# ---------------------------------------------------------------------------
# 十三不靠-style "knitted" hands
# ---------------------------------------------------------------------------

_RANK_SETS = [frozenset(c) for r in range(4) for c in combinations(range(9), r)
              if all(b - a >= 3 for a, b in combinations(c, 2))]


def knitted_capacity(ranks: Iterable[int]) -> int:
    """Most tiles one suit can hold in a hand whose tiles of a suit differ pairwise by at
    least 3 ranks, given the ranks (0..8) already held: the size of the largest such
    set containing them, or ``-1`` if the held ranks already break the rule (a repeat
    or two ranks closer than 3).  E.g. ``{0, 4}`` -> 3 (1-5-9), ``{2, 6}`` -> 2 (3-7
    admits no third rank)."""
    held = frozenset(ranks)
    if len(held) != len(list(ranks)):
        return -1
    best = -1
    for s in _RANK_SETS:
        if held <= s and len(s) > best:
            best = len(s)
    return best
