"""What the sets of a 二人麻将 hand score: the chow, pung and kong fans, the tile fans
(清一色, 断幺 …), the win-flag fans, the exclusions of the fan table and the totals, each
worked out once per combination and memoised (the ``_*_TABLE`` dicts).

Part of the fan count of :mod:`engine.variants.two_player.fans`.
"""

from __future__ import annotations

from itertools import compress
from typing import Iterable, Any

from ...melds import CHOW, KONG, PUNG, Meld
from .fan_table import (
    ALL_HONORS, ALL_SIMPLES, ALL_TERMINALS_AND_HONORS, BIG_FOUR_WINDS, BIG_THREE_DRAGONS, BIG_THREE_WINDS,
    CONCEALED_HAND, CONCEALED_KONG, DRAGON_PUNG, FOUR_CONCEALED_PUNGS, FOUR_KONGS, FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS, FULLY_CONCEALED_HAND, FULL_FLUSH, HALF_FLUSH, LAST_TILE, LAST_TILE_CLAIM,
    LAST_TILE_DRAW, LOWER_FOUR, MELDED_HAND, MELDED_KONG, N_FANS, OUT_WITH_REPLACEMENT_TILE,
    PUNG_OF_TERMINALS_OR_HONORS, PURE_DOUBLE_CHOW, PURE_SHIFTED_CHOWS, PURE_SHIFTED_PUNGS, PURE_STRAIGHT,
    PURE_TRIPLE_CHOW, QUADRUPLE_CHOW, ROBBING_THE_KONG, SELF_DRAWN, SHORT_STRAIGHT, THREE_CONCEALED_PUNGS,
    THREE_KONGS, TILE_HOG, TWO_CONCEALED_KONGS, TWO_CONCEALED_PUNGS, TWO_DRAGONS_PUNGS, TWO_MELDED_KONGS,
    TWO_TERMINAL_CHOWS, UPPER_FOUR, _EXCL, _RANGE_FANS, _VALUES,
)


def _code(kind: int) -> int:
    return 64 + kind - 27 if kind >= 27 else (kind // 9) * 16 + kind % 9


_KIND_CODE = tuple(_code(k) for k in range(34))
_WINDS = frozenset((64, 65, 66, 67))
_DRAGONS = frozenset((68, 69, 70))
_TERM_OR_HONOR_KIND = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))

# pair-of-chows fan slots of the 套算一次 cut: 一般高, 喜相逢 (not in this table, kept
# for the count), 连六, 老少副 — in pymahjonggb's cut order
_PAIR_SLOTS = (PURE_DOUBLE_CHOW, -1, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _two_chows(a: int, b: int) -> int:
    """Slot (index into _PAIR_SLOTS) of the fan two chows make, or -1."""
    if a >> 4 != b >> 4:
        return 1 if (a & 15) == (b & 15) else -1
    if a - b == 3 or b - a == 3:
        return 2
    ra, rb = a & 15, b & 15
    if (ra == 0 and rb == 6) or (ra == 6 and rb == 0):
        return 3
    if a == b:
        return 0
    return -1


def _three_chows(a: int, b: int, c: int) -> int:
    """Fan of three sorted chows (same suit), or -1."""
    sa, sb, sc = a >> 4, b >> 4, c >> 4
    if sa != sb and sa != sc and sb != sc:
        return -1  # three-suit fans are not in this table
    if a + 3 == b and b + 3 == c:
        return PURE_STRAIGHT
    if a + 2 == b and b + 2 == c:
        return PURE_SHIFTED_CHOWS
    if a + 1 == b and b + 1 == c:
        return PURE_SHIFTED_CHOWS
    if a == b == c:
        return PURE_TRIPLE_CHOW
    return -1


def _cut(slots: list[int], max_cnt: int, t: list[int]) -> None:
    """pymahjonggb's exclusionary rule: keep at most ``max_cnt`` pair fans, cutting
    duplicates first, from 老少副 back to 一般高."""
    table = [0, 0, 0, 0]
    cnt = 0
    for s in slots:
        if s >= 0:
            table[s] += 1
            cnt += 1
    limit = 1
    while cnt > max_cnt and limit >= 0:
        idx = 4
        while cnt > max_cnt and idx > 0:
            idx -= 1
            while table[idx] > limit and cnt > max_cnt:
                table[idx] -= 1
                cnt -= 1
        limit -= 1
    t[PURE_DOUBLE_CHOW] = table[0]
    t[SHORT_STRAIGHT] = table[2]
    t[TWO_TERMINAL_CHOWS] = table[3]


def _extra_chow(a: int, b: int, c: int, x: int) -> int:
    s = (_two_chows(a, x), _two_chows(b, x), _two_chows(c, x))
    for slot in (0, 1, 2, 3):
        if slot in s:
            return slot
    return -1


def _chow_fans(ch: list[int], t: list[int]) -> None:
    """Fans among the chows (sorted codes) of one split."""
    n = len(ch)
    if n == 4:
        a, b, c, d = ch
        if (a + 2 == b and b + 2 == c and c + 2 == d) or (a + 1 == b and b + 1 == c and c + 1 == d):
            t[FOUR_PURE_SHIFTED_CHOWS] = 1
            return
        if a == b == c == d:
            t[QUADRUPLE_CHOW] = 1
            return
        for p, q, r, x in ((a, b, c, d), (a, b, d, c), (a, c, d, b), (b, c, d, a)):
            f = _three_chows(p, q, r)
            if f >= 0:
                t[f] = 1
                s = _extra_chow(p, q, r, x)
                if s >= 0 and _PAIR_SLOTS[s] >= 0:
                    t[_PAIR_SLOTS[s]] = 1
                return
        f01, f02, f03 = _two_chows(a, b), _two_chows(a, c), _two_chows(a, d)
        f12, f13, f23 = _two_chows(b, c), _two_chows(b, d), _two_chows(c, d)
        max_cnt = 3
        if f01 < 0 and f02 < 0 and f03 < 0:
            max_cnt -= 1
        if f01 < 0 and f12 < 0 and f13 < 0:
            max_cnt -= 1
        if f02 < 0 and f12 < 0 and f23 < 0:
            max_cnt -= 1
        if f03 < 0 and f13 < 0 and f23 < 0:
            max_cnt -= 1
        if max_cnt > 0:
            _cut([f01, f02, f03, f12, f13, f23], max_cnt, t)
    elif n == 3:
        a, b, c = ch
        f = _three_chows(a, b, c)
        if f >= 0:
            t[f] = 1
            return
        _cut([_two_chows(a, b), _two_chows(a, c), _two_chows(b, c)], 2, t)
    elif n == 2:
        s = _two_chows(ch[0], ch[1])
        if s >= 0 and _PAIR_SLOTS[s] >= 0:
            t[_PAIR_SLOTS[s]] += 1


def _three_pungs(a: int, b: int, c: int) -> int:
    if a < 64 and b < 64 and c < 64:
        sa, sb, sc = a >> 4, b >> 4, c >> 4
        if sa != sb and sa != sc and sb != sc:
            return -1  # 三色三节高 / 三同刻 are not in this table
        if a + 1 == b and b + 1 == c:
            return PURE_SHIFTED_PUNGS
        return -1
    if a in _WINDS and b in _WINDS and c in _WINDS:
        return BIG_THREE_WINDS
    if a == 68 and b == 69 and c == 70:
        return BIG_THREE_DRAGONS
    return -1


def _two_pungs(a: int, b: int) -> bool:
    """双箭刻 (双同刻 is not in this table)."""
    return a in _DRAGONS and b in _DRAGONS


def _pung_fans(pu: list[int], t: list[int]) -> None:
    """Fans among the pungs/kongs (sorted codes) of one split."""
    n = len(pu)
    if n == 4:
        a, b, c, d = pu
        if a < 64 and a + 1 == b and b + 1 == c and c + 1 == d:
            t[FOUR_PURE_SHIFTED_PUNGS] = 1
            return
        if a == 64 and b == 65 and c == 66 and d == 67:
            t[BIG_FOUR_WINDS] = 1
            return
        for p, q, r, free in ((a, b, c, 3), (a, b, d, 2), (a, c, d, 1), (b, c, d, 0)):
            f = _three_pungs(p, q, r)
            if f >= 0:
                t[f] = 1
                fx = pu[free]
                for i in range(4):
                    if i != free and _two_pungs(pu[i], fx):
                        t[TWO_DRAGONS_PUNGS] += 1
                        break
                return
        for i in range(4):
            for j in range(i + 1, 4):
                if _two_pungs(pu[i], pu[j]):
                    t[TWO_DRAGONS_PUNGS] += 1
    elif n == 3:
        a, b, c = pu
        f = _three_pungs(a, b, c)
        if f >= 0:
            t[f] = 1
            return
        for p, q in ((a, b), (a, c), (b, c)):
            if _two_pungs(p, q):
                t[TWO_DRAGONS_PUNGS] += 1
    elif n == 2 and _two_pungs(pu[0], pu[1]):
        t[TWO_DRAGONS_PUNGS] += 1


def _kong_fans(cp: int, mk: int, ck: int, t: list[int]) -> None:
    """Kong and concealed-pung fans (pymahjonggb's table; one exposed + one concealed
    kong scores 明杠 + 暗杠, MCR's 明暗杠 not being in this table).

    ``cp`` concealed pungs (not kongs), ``mk`` exposed kongs, ``ck`` concealed kongs.
    """
    k = mk + ck
    if k == 0:
        if cp == 2:
            t[TWO_CONCEALED_PUNGS] = 1
        elif cp == 3:
            t[THREE_CONCEALED_PUNGS] = 1
        elif cp == 4:
            t[FOUR_CONCEALED_PUNGS] = 1
    elif k == 1:
        if mk == 1:
            t[MELDED_KONG] = 1
            if cp == 2:
                t[TWO_CONCEALED_PUNGS] = 1
            elif cp == 3:
                t[THREE_CONCEALED_PUNGS] = 1
        else:
            t[CONCEALED_KONG] = 1
            if cp == 1:
                t[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                t[THREE_CONCEALED_PUNGS] = 1
            elif cp == 3:
                t[FOUR_CONCEALED_PUNGS] = 1
    elif k == 2:
        if ck == 0:
            t[TWO_MELDED_KONGS] = 1
            if cp == 2:
                t[TWO_CONCEALED_PUNGS] = 1
        elif ck == 1:
            t[MELDED_KONG] = 1
            t[CONCEALED_KONG] = 1
            if cp == 1:
                t[TWO_CONCEALED_PUNGS] = 1
            elif cp == 2:
                t[THREE_CONCEALED_PUNGS] = 1
        else:
            t[TWO_CONCEALED_KONGS] = 1
            if cp == 1:
                t[THREE_CONCEALED_PUNGS] = 1
            elif cp == 2:
                t[FOUR_CONCEALED_PUNGS] = 1
    elif k == 3:
        t[THREE_KONGS] = 1
        if ck == 1:
            if cp > 0:
                t[TWO_CONCEALED_PUNGS] = 1
        elif ck == 2:
            if cp == 0:
                t[TWO_CONCEALED_PUNGS] = 1
            else:
                t[THREE_CONCEALED_PUNGS] = 1
        elif ck == 3:
            if cp == 0:
                t[THREE_CONCEALED_PUNGS] = 1
            else:
                t[FOUR_CONCEALED_PUNGS] = 1
    else:
        t[FOUR_KONGS] = 1
        if ck == 2:
            t[TWO_CONCEALED_PUNGS] = 1
        elif ck == 3:
            t[THREE_CONCEALED_PUNGS] = 1
        elif ck == 4:
            t[FOUR_CONCEALED_PUNGS] = 1


def _apply_exclusions(t: list[int]) -> int:
    """Remove excluded fans, top-down through :data:`FAN_ROWS` (a fan removed by an
    earlier row excludes nothing), and return the total.

    One pass: a row only excludes rows below it, but 一色三节高 (一色三同顺, which is
    then already 0), so each fan's count is final when its row is reached.
    """
    total = 0
    for i in compress(_RANGE_FANS, t):
        ex = _EXCL[i]
        if ex:
            if i == BIG_THREE_WINDS:
                # only the 幺九刻 of its own three wind pungs (none left under 字一色/混幺九)
                v = t[PUNG_OF_TERMINALS_OR_HONORS] - 3
                t[PUNG_OF_TERMINALS_OR_HONORS] = v if v > 0 else 0
            else:
                if i == FOUR_CONCEALED_PUNGS and t[FULLY_CONCEALED_HAND]:
                    t[SELF_DRAWN] = 1  # 四暗刻 excludes 不求人 but keeps 自摸
                for j in ex:
                    t[j] = 0
        total += _VALUES[i] * t[i]
    return total


def _total(t: list[int]) -> int:
    return sum([_VALUES[i] * t[i] for i in compress(_RANGE_FANS, t)])


# ---------------------------------------------------------------------------
# memoised tables: what a group of the hand, a meld or a combination of sets
# scores does not depend on the rest of the hand, so each is worked out once (by
# the functions above) and shared by every hand that holds it
# ---------------------------------------------------------------------------

#: sorted chow first kinds -> (fans as ((index, count), ...), every chow holds a 1 or 9)
_CHOW_TABLE: dict[tuple[int, ...], tuple] = {}
#: sorted pung/kong kinds -> (fans incl. 箭刻/幺九刻 counts, every pung is terminal/honour)
_PUNG_TABLE: dict[tuple[int, ...], tuple] = {}
#: (meld type, tiles, concealed) -> (type, kind, exposed, tile-fan flags)
_MELD_CACHE: dict[tuple, tuple[str, int, bool, int]] = {}
#: flags of a hand -> the fans every split of it shares (see _base_fans); fan counts
#: of a split before exclusions (a tuple) -> (counts after them, total)
_BASE_TABLE: dict[object, Any] = {}
#: tile-fan flags -> ((index, count), ...) of 清一色/混一色, 断幺/字一色/混幺九, 大于五/小于五
_TILE_FAN_TABLE: dict[int, tuple] = {}


def _chow_entry(chows: tuple[int, ...]) -> tuple:
    t = [0] * N_FANS
    _chow_fans([_KIND_CODE[k] for k in chows], t)
    entry = (tuple((i, c) for i, c in enumerate(t) if c), all(k % 9 in (0, 6) for k in chows))
    _CHOW_TABLE[chows] = entry
    return entry


def _pung_entry(pungs: tuple[int, ...]) -> tuple:
    t = [0] * N_FANS
    codes = [_KIND_CODE[k] for k in pungs]
    _pung_fans(codes, t)
    for pc in codes:
        if pc >= 68:
            t[DRAGON_PUNG] += 1
        elif pc >= 64 or (pc & 15) in (0, 8):
            t[PUNG_OF_TERMINALS_OR_HONORS] += 1
    entry = (tuple((i, c) for i, c in enumerate(t) if c), all(_TERM_OR_HONOR_KIND[k] for k in pungs))
    _PUNG_TABLE[pungs] = entry
    return entry


def _kong_entry(cp: int, mk: int, ck: int) -> tuple:
    t = [0] * N_FANS
    _kong_fans(cp, mk, ck, t)
    return tuple((i, c) for i, c in enumerate(t) if c), bool(t[FOUR_KONGS] or t[FOUR_CONCEALED_PUNGS])


#: index cp * 25 + mk * 5 + ck -> (kong / concealed-pung fans, 碰碰和 excluded by 四杠/四暗刻)
_KONG_TABLE = tuple(_kong_entry(cp, mk, ck) for cp in range(5) for mk in range(5) for ck in range(5))

# tile-fan flags of a set of kinds: which suits (bits 0..2), honours, a terminal or
# honour, a simple, a 5..9 rank, a 1..5 rank (the last two among numbered kinds)
_F_HONOR, _F_TERM, _F_SIMPLE, _F_HIGH, _F_LOW = 8, 16, 32, 64, 128


def _kind_flags(kinds: Iterable[int]) -> int:
    f = 0
    for k in kinds:
        if k >= 27:
            f |= _F_HONOR | _F_TERM
        else:
            r = k % 9
            f |= (1 << (k // 9)) | (_F_TERM if r in (0, 8) else _F_SIMPLE)
            f |= (_F_HIGH if r > 3 else 0) | (_F_LOW if r < 5 else 0)
    return f


def _tile_fan_entry(flags: int) -> tuple:
    """Fans of the whole tile set from its flags: 清一色/混一色, 断幺/字一色/混幺九,
    大于五/小于五 (every rank 6..9 / 1..4, no honour)."""
    t = [0] * N_FANS
    honors = flags & _F_HONOR
    if flags & 7 in (1, 2, 4):  # one suit
        t[HALF_FLUSH if honors else FULL_FLUSH] = 1
    if not flags & _F_TERM:
        t[ALL_SIMPLES] = 1
    elif not flags & 7:
        t[ALL_HONORS] = 1
    elif not flags & _F_SIMPLE:
        t[ALL_TERMINALS_AND_HONORS] = 1
    if not honors:
        if not flags & _F_HIGH:
            t[LOWER_FOUR] = 1
        elif not flags & _F_LOW:
            t[UPPER_FOUR] = 1
    entry = _TILE_FAN_TABLE[flags] = tuple((i, c) for i, c in enumerate(t) if c)
    return entry


def _tile_fans(t: list[int], flags: int) -> None:
    for i, c in _TILE_FAN_TABLE.get(flags) or _tile_fan_entry(flags):
        t[i] = c


def _base_fans(key: int) -> list[int]:
    """The fans every standard split of a hand shares: win flags, 门前清/不求人/全求人/
    自摸, the tile fans and 四归一.  ``key``: tile-fan flags (bits 0..7), self-drawn,
    和绝张, kong flag, last wall tile (bits 8..11), some melds exposed (bit 12), all
    four (bit 13), 四归一 count (bits 14+)."""
    self_drawn = bool(key & 256)
    t = [0] * N_FANS
    _win_flag_fans(t, self_drawn, bool(key & 512), bool(key & 1024), bool(key & 2048))
    if not key & 12288:
        t[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1
    elif key & 8192:
        t[SELF_DRAWN if self_drawn else MELDED_HAND] = 1
    elif self_drawn:
        t[SELF_DRAWN] = 1
    _tile_fans(t, key & 255)
    t[TILE_HOG] = key >> 14
    _BASE_TABLE[key] = t
    return t


def _meld_info(m: Meld) -> tuple[str, int, bool, int]:
    """``(type, first kind, exposed, tile-fan flags)`` of a meld; ValueError if malformed."""
    ks = tuple([t >> 2 for t in m.tiles])
    if m.type == CHOW:
        a, b, c = sorted(ks) if len(ks) == 3 else (None, None, None)
        if a is None or a >= 27 or b != a + 1 or c != a + 2 or a % 9 > 6:
            raise ValueError(f"bad chow meld: {m}")
        if m.concealed:
            raise ValueError(f"a chow meld cannot be concealed: {m}")
        return CHOW, a, True, _kind_flags(ks)
    if m.type == PUNG:
        if len(ks) != 3 or len(set(ks)) != 1:
            raise ValueError(f"bad pung meld: {m}")
        if m.concealed:
            raise ValueError(f"a pung meld cannot be concealed: {m}")
        return PUNG, ks[0], True, _kind_flags(ks)
    if m.type == KONG:
        if len(ks) != 4 or len(set(ks)) != 1:
            raise ValueError(f"bad kong meld: {m}")
        return KONG, ks[0], not m.concealed, _kind_flags(ks)
    raise ValueError(f"unknown meld type: {m.type!r}")


def _win_flag_fans(t: list[int], self_drawn: bool, last: bool, kong: bool, wall_last: bool) -> None:
    """pymahjonggb's adjust_by_win_flag."""
    if last:
        t[LAST_TILE] = 1
    if self_drawn:
        t[SELF_DRAWN] = 1
        if wall_last:
            t[LAST_TILE_DRAW] = 1
            t[SELF_DRAWN] = 0
        if kong:
            t[OUT_WITH_REPLACEMENT_TILE] = 1
            t[SELF_DRAWN] = 0
    else:
        if wall_last:
            t[LAST_TILE_CLAIM] = 1
        if kong:
            t[ROBBING_THE_KONG] = 1
            t[LAST_TILE] = 0
