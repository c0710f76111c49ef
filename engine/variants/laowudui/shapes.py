"""老五对 tile set, 百搭 (wild) kinds and the pairs-and-fours reading of a hand.

Source: ``docs/rules/laowudui.md`` §Tiles, §百搭, §Winning, §Scoring.

Kinds used: 1m..9m, 1p..9p, 1s..9s (×4), the "tenth" tiles ``Tm`` 千子, ``Tp`` 白花,
``Ts`` 红花 (×4) and the five 喜牌 ``1h..5h`` 福禄寿喜财 (×1): 125 tiles.

Reading a hand (the twelve tiles of a win: concealed tiles, the winning tile and the
melds).  Every tile lies in a group that is a **pair** (two of a kind, or any two 喜牌)
or a **four** (four of a kind).  A wild tile is read either

* as a *joker* standing for any tile, in a group that holds at least one real tile, or
* *as itself*: wild tiles of one kind may form pairs/fours among themselves
  (rule-file Decision), never with jokers.

Melds keep their tiles: a 吃 pair (``"chi"``) stays a pair or is completed to a four by
two more tiles of its kind (real tiles from the hand, the winning tile, or jokers); a
堆 (``"dui"``, three face up) must be completed to a four by exactly one such tile;
a 杠 (``"kong"``) is a four.  喜牌 only ever form pairs.  When any joker is used, at
least one four is required.

对 (pair-points) counts the meld area only: a melded pair 1 (2 for 1/9, tenth tiles and
喜牌), a meld completed to a four (杠, 堆 + its fourth, 吃 + two) 10 (20); the reading
that scores best is chosen by the caller among the ones :func:`readings` returns.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from ...tiles import MAN, PIN, SOU, TEN_M, TEN_P, TEN_S, XI_FIRST

#: the wild-card cycle of each suit: 1 … 9, the tenth tile, back to 1 (laowudui.md §Tiles)
SUIT_CYCLES: tuple[tuple[int, ...], ...] = (
    tuple(range(MAN, MAN + 9)) + (TEN_M,),
    tuple(range(PIN, PIN + 9)) + (TEN_P,),
    tuple(range(SOU, SOU + 9)) + (TEN_S,),
)
XI_KINDS = tuple(range(XI_FIRST, XI_FIRST + 5))
#: kinds of the 125-tile set with their copies
TILE_COUNTS: dict[int, int] = {**{k: 4 for c in SUIT_CYCLES for k in c}, **{k: 1 for k in XI_KINDS}}
WILD_OPTIONS = (4, 7, 11)  #: 四百佬 / 七百佬 / 十一百佬
XI = -1  #: pseudo-kind under which the 喜牌 are counted (any two pair)

SUIT_OF: dict[int, int] = {k: i for i, c in enumerate(SUIT_CYCLES) for k in c}


def is_xi(kind: int) -> bool:
    """True for the five 喜牌 福禄寿喜财."""
    return XI_FIRST <= kind < XI_FIRST + 5


def is_big(kind: int) -> bool:
    """1 or 9 of a suit, a tenth tile (千子/白花/红花) or a 喜牌: the kinds that score
    double 对 and make 全大 (laowudui.md §Scoring)."""
    if is_xi(kind):
        return True
    pos = SUIT_CYCLES[SUIT_OF[kind]].index(kind)
    return pos in (0, 8, 9)


def neighbours(kind: int) -> tuple[int, int]:
    """The kinds before and after ``kind`` in its suit's cycle (``7s`` → ``6s, 8s``;
    ``Ts`` 红花 → ``9s, 1s``; ``1s`` → ``Ts, 2s``).  ``ValueError`` for a 喜牌."""
    if kind not in SUIT_OF:
        raise ValueError(f"kind {kind} has no place in a suit cycle")
    c = SUIT_CYCLES[SUIT_OF[kind]]
    i = c.index(kind)
    return c[i - 1], c[(i + 1) % len(c)]


def wild_kinds(indicator: int, n_wilds: int) -> tuple[int, ...]:
    """The wild kinds for a turned tile of kind ``indicator`` (laowudui.md §百搭):

    * 4 (四百佬): the kind before;
    * 7 (七百佬): the kind before and the turned kind (its three remaining copies);
    * 11 (十一百佬): the kind before, the kind after and the turned kind.

    Returned as ``(before, [after,] [turned])``.  ``ValueError`` for another count or a
    喜牌 indicator (a turned 喜牌 is set aside and the next tile turned).
    """
    before, after = neighbours(indicator)
    if n_wilds == 4:
        return (before,)
    if n_wilds == 7:
        return (before, indicator)
    if n_wilds == 11:
        return (before, after, indicator)
    raise ValueError(f"wild count must be one of {WILD_OPTIONS}, not {n_wilds}")


# ---------------------------------------------------------------------------- readings
NONE, PAIR_MELD, DUI_MELD = 0, 1, 2


@lru_cache(maxsize=None)
def _ways(n: int, meld: int) -> tuple[tuple[int, bool, bool, bool], ...]:
    """Ways to group ``n`` concealed real tiles of one kind (with the kind's melded pair or
    堆, if any) using jokers: ``(jokers, has_four, meld_is_four, all_fours)`` tuples."""
    out = set()
    extensions = {NONE: (0,), PAIR_MELD: (0, 2), DUI_MELD: (1,)}[meld]
    for ext in extensions:
        for real_in_meld in range(0, min(ext, n) + 1):
            rest = n - real_in_meld
            jokers_meld = ext - real_in_meld
            meld_four = meld == DUI_MELD or (meld == PAIR_MELD and ext == 2)
            for pairs in range(0, rest + 1):
                for fours in range(0, rest + 1 - pairs):
                    size = 2 * pairs + 4 * fours
                    if size < rest or (rest == 0 and size > 0):
                        continue
                    all_fours = pairs == 0 and not (meld == PAIR_MELD and ext == 0)
                    out.add((jokers_meld + size - rest, fours > 0 or meld_four, meld_four, all_fours))
    return tuple(sorted(out))


def _xi_ways(x: int, melded: int) -> tuple[tuple[int, bool, bool, bool], ...]:
    """喜牌: ``x`` concealed ones pair among themselves or with a joker each (pairs only)."""
    return tuple((j, False, False, x + j == 0 and melded == 0) for j in range(x % 2, x + 1, 2))


def _natural_ways(u: int) -> tuple[tuple[int, bool, bool, bool], ...]:
    """Wild tiles of one kind read as themselves: 0, 2 (a pair) or 4 (a four or two pairs)."""
    if u == 0:
        return ((0, False, False, True),)
    if u == 2:
        return ((0, False, False, False),)
    return ((0, True, False, True), (0, False, False, False))


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand.

    :ivar dui: 对 of the meld area (best for this reading of the wild tiles).
    :ivar dui_all_fours: 对 of the best reading made of fours only (三爆炸), or ``None``.
    :ivar kinds: kinds present as real tiles or wild tiles read as themselves (jokers are
        left out): what 清一色 / 全小 / 全大 look at.
    :ivar jokers: wild tiles used as jokers.
    :ivar meld_fours: kinds of the 吃/堆 melds completed to a four in the reading that gives
        ``dui`` (a 杠 is always a four; a 堆 always completed).
    :ivar meld_fours_all: the same for the all-fours reading (``None`` with it).
    """

    dui: int
    dui_all_fours: int | None
    kinds: frozenset
    jokers: int
    meld_fours: frozenset = frozenset()
    meld_fours_all: frozenset | None = None


def _meld_points(kind: int, four: bool) -> int:
    return (10 if four else 1) * (2 if is_big(kind) else 1)


def readings(concealed: Sequence[int], melds: Sequence[tuple[str, tuple[int, ...]]],
             wild: Iterable[int]) -> list[Reading]:
    """Every way (one per choice of which wild tiles are read as themselves) in which the
    twelve tiles win, with the best 对 of each; empty if they do not win.

    :param concealed: kinds of the concealed tiles including the winning tile.
    :param melds: ``(type, kinds)`` with type ``"chi"`` (a pair), ``"dui"`` (three of a
        kind) or ``"kong"`` (four of a kind).
    :param wild: the wild kinds.
    Raises ``ValueError`` if the tiles are not twelve.
    """
    wild = frozenset(wild)
    key = (tuple(sorted(concealed)), tuple(sorted((t, tuple(sorted(k))) for t, k in melds)), tuple(sorted(wild)))
    return list(_readings_cached(*key))


@lru_cache(maxsize=1 << 16)
def _readings_cached(concealed: tuple[int, ...], melds: tuple, wild: tuple[int, ...]) -> tuple[Reading, ...]:
    total = len(concealed) + sum(len(k) for _, k in melds)
    if total != 12:
        raise ValueError(f"a hand reads as twelve tiles, not {total}")
    wild_set = frozenset(wild)
    reals: Counter = Counter()
    wilds: Counter = Counter()
    for k in concealed:
        (wilds if k in wild_set else reals)[k] += 1
    x = sum(reals.pop(k) for k in list(reals) if is_xi(k))
    meld_state: dict[int, int] = {}
    fixed_points = 0
    fixed_four = False
    xi_melded = 0
    present_fixed: set[int] = set()
    for mtype, kinds in melds:
        present_fixed.update(kinds)
        if mtype == "kong":
            fixed_points += _meld_points(kinds[0], True)
            fixed_four = True
        elif mtype == "chi" and is_xi(kinds[0]):
            fixed_points += _meld_points(kinds[0], False)
            xi_melded += 1
        else:
            meld_state[kinds[0]] = PAIR_MELD if mtype == "chi" else DUI_MELD
    kinds = sorted(set(reals) | set(meld_state))
    base_items = [([(j, f, mf, af, _meld_points(k, mf) if meld_state.get(k) else 0)
                    for j, f, mf, af in _ways(reals.get(k, 0), meld_state.get(k, NONE))], k) for k in kinds]
    if x or xi_melded:
        base_items.append(([(j, f, mf, af, 0) for j, f, mf, af in _xi_ways(x, xi_melded)], XI))
    present_base = {k for k in reals} | present_fixed | ({XI_KINDS[0]} if x else set())
    out: list[Reading] = []
    wild_kinds_held = sorted(wilds)
    for natural in _natural_splits([wilds[k] for k in wild_kinds_held]):
        jokers = sum(wilds.values()) - sum(natural)
        items = list(base_items)
        for k, u in zip(wild_kinds_held, natural):
            if u:
                items.append(([(j, f, mf, af, 0) for j, f, mf, af in _natural_ways(u)], k))
        best = _best(items, jokers, fixed_four, fixed_points)
        if best is None:
            continue
        (dui, fours), (dui_all, fours_all) = best
        present = frozenset(present_base | {k for k, u in zip(wild_kinds_held, natural) if u})
        out.append(Reading(dui, dui_all if not xi_melded else None, present, jokers, fours,
                           fours_all if not xi_melded else None))
    return tuple(out)


def _natural_splits(counts: list[int]) -> list[tuple[int, ...]]:
    """For each wild kind held ``c`` times: how many are read as themselves (0, 2, 4)."""
    splits: list[tuple[int, ...]] = [()]
    for c in counts:
        splits = [s + (u,) for s in splits for u in (0, 2, 4) if u <= c]
    return splits


def _best(items: Sequence[tuple], jokers: int, fixed_four: bool, fixed_points: int
          ) -> tuple[tuple[int, frozenset], tuple[int | None, frozenset | None]] | None:
    """Knapsack over the kinds: jokers used, any four, all fours -> best 对, each with the
    kinds whose meld is read as a four: ``((dui, fours), (dui_all_fours, fours))``."""
    states: dict[tuple[int, bool, bool], tuple[int, frozenset]] = {(0, fixed_four, True): (fixed_points, frozenset())}
    for ways, kind in items:
        nxt: dict[tuple[int, bool, bool], tuple[int, frozenset]] = {}
        for (j0, f0, a0), (p0, m0) in states.items():
            for j, f, mf, af, p in ways:
                j1 = j0 + j
                if j1 > jokers:
                    continue
                key = (j1, f0 or f, a0 and af)
                if key not in nxt or nxt[key][0] < p0 + p:
                    nxt[key] = (p0 + p, m0 | {kind} if mf else m0)
        states = nxt
        if not states:
            return None
    best = None
    best_all = None
    for (j, f, a), v in states.items():
        if j != jokers or (jokers > 0 and not f):
            continue
        if best is None or v[0] > best[0]:
            best = v
        if a and (best_all is None or v[0] > best_all[0]):
            best_all = v
    if best is None:
        return None
    return best, best_all if best_all is not None else (None, None)


def is_win(concealed: Sequence[int], melds: Sequence[tuple[str, tuple[int, ...]]], wild: Iterable[int]) -> bool:
    """Do the twelve tiles (concealed incl. the winning tile, plus melds) win?  Same rules
    as :func:`readings`, without the scoring (faster).  ``ValueError`` unless twelve."""
    key = (tuple(sorted(concealed)), tuple(sorted((t, tuple(sorted(k))) for t, k in melds)),
           tuple(sorted(frozenset(wild))))
    return _is_win_cached(*key)


@lru_cache(maxsize=1 << 16)
def _is_win_cached(concealed: tuple[int, ...], melds: tuple, wild: tuple[int, ...]) -> bool:
    if len(concealed) + sum(len(k) for _, k in melds) != 12:
        raise ValueError("a hand reads as twelve tiles")
    wild_set = frozenset(wild)
    reals: Counter = Counter()
    wilds: Counter = Counter()
    for k in concealed:
        (wilds if k in wild_set else reals)[k] += 1
    x = sum(reals.pop(k) for k in list(reals) if is_xi(k))
    meld_state: dict[int, int] = {}
    fixed_four = False
    xi_melded = 0
    for mtype, kinds in melds:
        if mtype == "kong":
            fixed_four = True
        elif mtype == "chi" and is_xi(kinds[0]):
            xi_melded += 1
        else:
            meld_state[kinds[0]] = PAIR_MELD if mtype == "chi" else DUI_MELD
    items = [_short(_ways(reals.get(k, 0), meld_state.get(k, NONE))) for k in set(reals) | set(meld_state)]
    if x:
        items.append(_short(_xi_ways(x, xi_melded)))
    held = sorted(wilds)
    total = sum(wilds.values())
    for natural in _natural_splits([wilds[k] for k in held]):
        jokers = total - sum(natural)
        ways = items + [_short(_natural_ways(u)) for u in natural if u]
        states = {(0, fixed_four)}
        for w in ways:
            states = {(j0 + j, f0 or f) for j0, f0 in states for j, f in w if j0 + j <= jokers}
            if not states:
                break
        if any(j == jokers and (jokers == 0 or f) for j, f in states):
            return True
    return False


@lru_cache(maxsize=None)
def _short(ways: tuple) -> tuple[tuple[int, bool], ...]:
    return tuple(sorted({(j, f) for j, f, _mf, _af in ways}))


__all__ = ["SUIT_CYCLES", "XI_KINDS", "TILE_COUNTS", "WILD_OPTIONS", "is_xi", "is_big", "neighbours",
           "wild_kinds", "Reading", "readings", "is_win"]
