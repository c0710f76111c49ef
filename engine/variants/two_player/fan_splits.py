"""How a 二人麻将 hand splits into sets and pair, and what it waits on: the per-group
analysis behind the fan count (the splits of a group of one suit or the honours, the
divisions of the whole hand, whether the wait is unique for 边张/坎张/单钓将), memoised.

Part of the fan count of :mod:`engine.variants.two_player.fans`.
"""

from __future__ import annotations

from typing import Any

from itertools import product

from ...hand_shapes import _can_split
from .fan_sets import _kind_flags


#: (chows allowed, pair wanted, counts) -> _rel_splits; ("at", chows allowed, first
#: kind, counts) of a run of held ranks -> its splits in kinds (see _group_info)
_REL_SPLITS: dict[tuple, tuple] = {}
#: sorted kinds of one group of the hand (万, 筒, 条 or honours) -> _group_info
_GROUPS: dict[tuple[int, ...], tuple] = {}
#: (first kind, counts, winning kind) of the winning tile's group -> _other_wait
_OTHER_WAIT: dict[tuple, tuple[bool, bool]] = {}
#: (chows allowed, counts) of a group -> _completes_to_sets; ("run", chows allowed,
#: counts) of a run of held ranks -> _run_info
_TO_SETS: dict[tuple, Any] = {}


def _rel_splits(chows: bool, pair: bool, key: tuple) -> tuple:
    """Every split of the counts ``key`` into sets (plus exactly one pair if ``pair``)
    as ``(chow first ranks, pung ranks, pair rank or -1)``, ranks counted from
    ``key[0]``, each list sorted, the splits in no particular order (the same splits
    as ``hand_shapes`` decomposition).  Solved on the first non-empty rank, each
    choice leading to a shorter key; memoised on ``(chows, pair, key)``."""
    ck = (chows, pair, key)
    r = _REL_SPLITS.get(ck)
    if r is not None:
        return r
    n = len(key)
    i = 0
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        r = () if pair else (((), (), -1),)
    else:
        rest = key[i:]
        c0 = rest[0]
        out = set()
        if c0 >= 3:
            for ch, pu, pr in _rel_splits(chows, pair, (c0 - 3,) + rest[1:]):
                out.add((tuple([i + x for x in ch]), (i,) + tuple([i + x for x in pu]), i + pr if pr >= 0 else -1))
        if chows and len(rest) > 2 and rest[1] and rest[2]:
            for ch, pu, pr in _rel_splits(chows, pair, (c0 - 1, rest[1] - 1, rest[2] - 1) + rest[3:]):
                out.add(((i,) + tuple([i + x for x in ch]), tuple([i + x for x in pu]), i + pr if pr >= 0 else -1))
        if pair and c0 >= 2:
            for ch, pu, _pr in _rel_splits(chows, False, (c0 - 2,) + rest[1:]):
                out.add((tuple([i + x for x in ch]), tuple([i + x for x in pu]), i))
        r = tuple(out)
    _REL_SPLITS[ck] = r
    return r


def _runs(chows: bool, key: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """The runs of a group's counts ``key``: ``(first rank, counts)`` of each maximal
    block of held ranks (each held kind alone for honours).  No set spans an empty
    rank, so a group splits exactly when its runs do."""
    out = []
    n = len(key)
    i = 0
    while i < n:
        if not key[i]:
            i += 1
            continue
        j = i + 1
        if chows:
            while j < n and key[j]:
                j += 1
        out.append((i, tuple(key[i:j])))
        i = j
    return out


def _group_info(kinds: tuple[int, ...]) -> tuple:
    """Facts of one group of the hand (万, 筒, 条 or honours) from its sorted kinds:
    ``(splits, base, chows, counts, flags, quads, odd, too_many)`` — the splits into
    sets and at most one pair (``hand_shapes`` decomposition) as ``(chow first kinds,
    pung kinds, pair kind or -1)``, the group's first kind, whether chows exist, its
    count tuple, tile-fan flags, kinds held 4 times, kinds held an odd number of
    times, and whether a kind is held more than 4 times.  Memoised on ``kinds``; the
    splits are those of each run of held ranks (:func:`_runs`, memoised per run)
    combined."""
    first = kinds[0]
    if first >= 27:
        base, n, chows = 27, 7, False
    else:
        base, n, chows = first - first % 9, 9, True
    counts = [0] * n
    for k in kinds:
        counts[k - base] += 1
    key = tuple(counts)
    too_many = max(counts) > 4
    splits: tuple = ()
    if not too_many and len(kinds) % 3 != 1:
        want_pair = len(kinds) % 3 == 2
        per_run: list = []
        pairs = 0
        complete = True  # every run splits
        for s, run in _runs(chows, key):
            m = sum(run) % 3
            if m == 1:
                complete = False
                break
            if m == 2:
                pairs += 1
            off = base + s
            rk = ("at", chows, off, run)  # the run's splits in kinds, memoised per place
            rs = _REL_SPLITS.get(rk)
            if rs is None:
                rs = _REL_SPLITS[rk] = tuple([
                    (tuple([off + r for r in ch]), tuple([off + r for r in pu]), off + pr if pr >= 0 else -1)
                    for ch, pu, pr in _rel_splits(chows, m == 2, run)])
            if not rs:
                complete = False
                break
            per_run.append(rs)
        if complete and pairs == want_pair:
            if len(per_run) == 1:
                splits = per_run[0]
            elif all([len(rs) == 1 for rs in per_run]):
                ch: tuple[int, ...] = ()
                pu: tuple[int, ...] = ()
                pair = -1
                for ((c, p, r),) in per_run:
                    ch += c
                    pu += p
                    if r >= 0:
                        pair = r
                splits = ((ch, pu, pair),)
            else:
                out = []
                for combo in product(*per_run):
                    ch = ()
                    pu = ()
                    pair = -1
                    for c, p, r in combo:
                        ch += c
                        pu += p
                        if r >= 0:
                            pair = r
                    out.append((ch, pu, pair))
                splits = tuple(out)
    info = (splits, base, chows, key, _kind_flags(set(kinds)), counts.count(4), sum(c & 1 for c in counts),
            too_many)
    _GROUPS[kinds] = info
    return info


def _divisions(groups: list) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every split of the hand (its ``groups``, see :func:`_group_info`) into sets +
    one pair, as ``(concealed chow first kinds, concealed pung kinds, pair kind)``, in
    pymahjonggb's order (sets in ascending (tile, tile, tile) order, pung before
    chow): the order only decides between readings of equal total."""
    if all([len(g[0]) == 1 for g in groups]):  # the usual case: one split per group
        pair = -1
        ch: tuple[int, ...] = ()
        pu: tuple[int, ...] = ()
        for g in groups:
            c, p, r = g[0][0]
            if r >= 0:
                if pair >= 0:
                    return []
                pair = r
            ch += c
            pu += p
        return [(ch, pu, pair)] if pair >= 0 else []
    out = []
    for combo in product(*[g[0] for g in groups]):
        pair = -1
        ch = ()
        pu = ()
        for c, p, r in combo:
            if r >= 0:
                if pair >= 0:
                    break
                pair = r
            ch += c
            pu += p
        else:
            if pair >= 0:
                out.append((ch, pu, pair))
    if len(out) > 1:
        out.sort(key=_division_order)
    return out


def _division_order(div: tuple) -> tuple:
    chows, pungs, _pair = div
    return tuple(sorted([(k, 0) for k in pungs] + [(k, 1) for k in chows]))


def _run_mask(chows: bool, run: tuple[int, ...]) -> int:
    """1 if the counts ``run`` split into sets, 2 if into sets + one pair, else 0."""
    m = sum(run) % 3
    if m == 1:
        return 0
    if m == 0:
        return 1 if _can_split(chows, False, run) else 0
    return 2 if _can_split(chows, True, run) else 0


def _run_info(chows: bool, run: tuple[int, ...]) -> tuple:
    """``(mask, masks after one more tile)`` of a run (:func:`_run_mask`); the tile is
    added at ranks ``-1 .. len(run)`` of the run in a suit, to the kind itself for an
    honour.  Memoised (in ``_TO_SETS``, keyed ``("run", chows, run)``)."""
    ck = ("run", chows, run)
    r = _TO_SETS.get(ck)
    if r is None:
        if chows:
            ext = tuple([_run_mask(True, (1,) + run)]
                        + [_run_mask(True, run[:p] + (run[p] + 1,) + run[p + 1:]) for p in range(len(run))]
                        + [_run_mask(True, run + (1,))])
        else:
            ext = (_run_mask(False, (run[0] + 1,)),)
        r = _TO_SETS[ck] = (_run_mask(chows, run), ext)
    return r


def _any_wait(chows: bool, lst: list[int], skip: int, pair: bool) -> tuple[bool, bool]:
    """``(some kind but rank skip completes the counts lst, lst itself splits into
    sets + one pair)``; "completes": splits into sets, plus one pair if ``pair``.

    The same answer as trying ``_can_split(chows, pair, lst + kind)`` for every kind
    held or (in a suit) next to a held one, read from the runs of ``lst``
    (:func:`_run_info`): a tile changes the run it joins, or merges the two runs
    around a one-rank gap; every other run must split as it is.
    """
    n = len(lst)
    runs = []
    nz = nt = 0
    i = 0
    while i < n:
        if not lst[i]:
            i += 1
            continue
        j = i + 1
        if chows:
            while j < n and lst[j]:
                j += 1
        m, ext = _run_info(chows, tuple(lst[i:j]))
        runs.append((i, j, m, ext))
        if m == 0:
            nz += 1
        elif m == 2:
            nt += 1
        i = j
    itself = nz == 0 and nt == 1
    need = 1 if pair else 0
    if nz > 2:
        return False, itself
    for s, e, m, ext in runs:
        z = nz - (m == 0)
        if z:
            continue
        t = nt - (m == 2)
        if chows:
            i = s - 1
            for em in ext:
                if em and i != skip and t + (em == 2) == need and 0 <= i < n and not (
                    (i == s - 1 and i and lst[i - 1]) or (i == e and i + 1 < n and lst[i + 1])
                ):
                    return True, itself
                i += 1
        elif ext[0] and s != skip and t + (ext[0] == 2) == need:
            return True, itself
    if chows:
        for a in range(len(runs) - 1):
            s1, e1, m1, _x1 = runs[a]
            s2, e2, m2, _x2 = runs[a + 1]
            if e1 + 1 != s2 or e1 == skip:
                continue
            if nz - (m1 == 0) - (m2 == 0):
                continue
            merged = lst[s1:e2]
            merged[e1 - s1] = 1
            mm = _run_mask(True, tuple(merged))
            if mm and nt - (m1 == 2) - (m2 == 2) + (mm == 2) == need:
                return True, itself
    return False, itself


def _other_wait(base: int, chows: bool, key: tuple, win: int) -> tuple[bool, bool]:
    """The winning tile's group W (first kind ``base``, counts ``key``) without it:
    ``(another kind than win completes it, it is itself sets + a pair)``.

    "Completes" is as ``hand_shapes.shape_waits`` reads it: into sets + a pair if W
    held the pair, else into sets; candidates are the kinds held or, in a suit,
    within two ranks of one.  Memoised on ``(base, key, win)``.
    """
    lst = list(key)
    w = win - base
    lst[w] -= 1
    holds_pair = sum(key) % 3 == 2
    other, itself = _any_wait(chows, lst, w, holds_pair)
    r = (other, not holds_pair and itself)
    _OTHER_WAIT[(base, key, win)] = r
    return r


def _completes_to_sets(chows: bool, key: tuple) -> bool:
    """True if adding one kind (held, or within two ranks of one in a suit) splits
    the counts ``key`` into sets only.  Memoised on ``(chows, key)``."""
    r = _TO_SETS.get((chows, key))
    if r is None:
        r = _TO_SETS[(chows, key)] = _any_wait(chows, list(key), -1, False)[0]
    return r


def _unique_wait(tiles: list[int], win: int, groups: list, n_melds: int, odd: int) -> bool:
    """True if the 13 tiles (sorted 14-tile ``tiles`` minus ``win``) wait on one kind
    only, by shape, seven pairs included: ``len(hand_shapes.shape_waits(13 tiles,
    n_melds)) == 1``.  ``odd``: kinds held an odd number of times in ``tiles``.

    ``groups`` split the complete 14-tile hand, so ``win`` itself is a wait: the
    question is whether another kind is one.  Every group is sets only, but one that
    is sets + the pair, and without the winning tile only its group W changes.  The
    waits are the kinds completing W back (into sets + a pair if W held the pair,
    else into sets) and, when W did not hold the pair but W minus the tile is sets +
    a pair, the kinds completing the pair's group into sets; with no melds, the odd
    kind of six pairs + one tile.
    """
    wbase = 27 if win >= 27 else win - win % 9
    for g in groups:
        if g[1] == wbase:
            wg = g
        if g[0][0][2] >= 0:
            pair_group = g
    _s, base, chows, key = wg[:4]
    other, w_has_pair = _OTHER_WAIT.get((base, key, win)) or _other_wait(base, chows, key, win)
    if other:
        return False
    if w_has_pair and pair_group is not wg and _completes_to_sets(pair_group[2], pair_group[3]):
        return False
    # seven pairs (4 of a kind = two pairs): the 13 tiles hold six pairs when the 14
    # hold seven (the wait is then win) or six and two odd kinds one of which is
    # the winning tile (the wait is then the other one)
    return not (n_melds == 0 and odd == 2 and tiles.count(win) & 1)
