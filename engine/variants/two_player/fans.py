"""Fan calculator of the ``two_player`` variant (二人麻将, Chinese Official fans).

Source: ``docs/rules/two_player.md`` — "Fan table" (values and exclusions) and its two
**Decisions**: MCR's account principles apply exactly as ``pymahjonggb`` applies
them (the oracle); 天胡/地胡/人胡/天听 exclude only what their rows say; fans of MCR
not listed in the table do not exist, and a listed fan excluded in MCR only by an
unlisted fan *is* counted (e.g. 大于五 under 全大, 断幺 under 全中/全带五, 明杠 + 暗杠
instead of 明暗杠, 碰碰和 + 断幺 under 全双刻, the 幺九刻 of a seat/prevalent wind pung).

How a hand is scored (mirrors ``pymahjonggb``):

* every split of the concealed tiles into sets + pair is scored and the highest total
  is kept (就高不就低); a seven-pairs hand is also split as a standard hand and the
  standard reading wins ties; 九莲宝灯 and 连七对 are scored on their own;
* the pair-of-chows fans (一般高, 连六, 老少副) follow the "套算一次" cut of
  ``pymahjonggb`` (three chows combine at most twice, four chows at most three times);
* a concealed pung completed by a discard counts as exposed unless the winning tile
  can be read inside a concealed chow;
* 边张/坎张/单钓将 are scored only when the 13-tile hand waits on a single kind (by
  shape, seven pairs included); the position of the winning tile in the chosen split
  picks which one (边张 before 坎张 before 单钓将);
* flags are corrected as ``pymahjonggb`` does: 和绝张 is dropped when the concealed
  hand holds another copy of the winning tile and forced when the melds show three;
  杠上开花 needs a kong, 抢杠胡 a winning tile seen nowhere else in the hand.

Fan names (zh/en), values and exclusions are data: :data:`FAN_ROWS` (``fan_table.py``); what
the sets score is ``fan_sets.py``, how a hand splits and waits ``fan_splits.py``.
"""

from __future__ import annotations

from typing import Sequence, Iterable

from bisect import bisect_left, insort
from itertools import compress

from ...melds import CHOW, KONG
from .fan_sets import (
    _BASE_TABLE, _CHOW_TABLE, _KONG_TABLE, _MELD_CACHE, _PUNG_TABLE, _TERM_OR_HONOR_KIND, _apply_exclusions,
    _base_fans, _chow_entry, _meld_info, _pung_entry, _tile_fans, _total, _win_flag_fans,
)
from .fan_splits import _GROUPS, _divisions, _group_info, _unique_wait
# every memo table of the count, here too so one module lists them (bench/bench_fans.py empties them)
from .fan_sets import _TILE_FAN_TABLE  # noqa: F401
from .fan_splits import _OTHER_WAIT, _REL_SPLITS, _TO_SETS  # noqa: F401
from .fan_table import (
    ALL_CHOWS, ALL_PUNGS, ALL_SIMPLES, BIG_THREE_WINDS, CLOSED_WAIT, EARTHLY, EDGE_WAIT, FAN_ROWS,
    FLOWER_TILES, FOUR_KONGS, Fan, FanResult, HEAVENLY, HEAVENLY_READY, HUMAN, LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS, MELDED_HAND, NINE_GATES, N_FANS, NotAWin, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS,
    PURE_STRAIGHT, PURE_TERMINAL_CHOWS, PURE_TRIPLE_CHOW, SEVEN_PAIRS, SEVEN_SHIFTED_PAIRS, SHORT_STRAIGHT,
    SINGLE_WAIT, TILE_HOG, TWO_CONCEALED_PUNGS, TWO_DRAGONS_PUNGS, WinContext, _RANGE_FANS, _VALUES,
    fan_table,
)

__all__ = [
    "FAN_ROWS",
    "Fan",
    "FanResult",
    "NotAWin",
    "WinContext",
    "calculate_fans",
    "fan_table",
]


# ---------------------------------------------------------------------------
# the calculator
# ---------------------------------------------------------------------------


_FAN_CACHE: dict[tuple[int, int], Fan] = {}
#: Fan objects of the usual counts: _FAN_BY_COUNT[index][count]
_FAN_BY_COUNT = tuple(tuple(Fan(zh, en, v, c) for c in range(5)) for zh, en, v, _ex in FAN_ROWS)


def _fan(i: int, c: int) -> Fan:
    if c < 5:
        return _FAN_BY_COUNT[i][c]
    f = _FAN_CACHE.get((i, c))
    if f is None:
        row = FAN_ROWS[i]
        f = _FAN_CACHE[(i, c)] = Fan(row[0], row[1], row[2], c)
    return f

def _is_nine_gates_13(c: list[int], s: int) -> bool:
    """13 concealed counts are 1112345678999 of the suit starting at kind ``s``."""
    if sum(c) != 13:
        return False
    if c[s] != 3 or c[s + 8] != 3:
        return False
    for r in range(1, 8):
        if c[s + r] != 1:
            return False
    return True


def _counts34(tiles: Iterable[int]) -> list[int]:
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


def calculate_fans(ctx: WinContext) -> FanResult:
    """Score a win of the ``two_player`` variant (``docs/rules/two_player.md``, "Fan table").

    :param ctx: the win (see :class:`WinContext`).
    :returns: a :class:`FanResult` with the fans of the best reading of the hand
        (就高不就低) plus 天胡/地胡/人胡/天听 and 花牌; ``total`` counts flowers.
    :raises ValueError: wrong tile count (``len(concealed) + 3 * len(melds) != 13``),
        a kind outside 0..33, a malformed meld, more than four copies of a kind,
        or a negative flower count.
    :raises NotAWin: the tiles do not form a standard hand or seven pairs.
    """
    concealed = ctx.concealed
    melds = ctx.melds
    win = ctx.win_tile
    n_melds = len(melds)
    if n_melds > 4 or len(concealed) + 3 * n_melds != 13:
        raise ValueError("a winning hand needs len(concealed) + 3 * len(melds) == 13")
    if ctx.flowers < 0:
        raise ValueError("negative flower count")
    if not 0 <= win < 34:
        raise ValueError(f"bad winning tile kind: {win}")
    tiles = sorted(concealed)
    if tiles and (tiles[0] < 0 or tiles[-1] > 33):
        raise ValueError("bad tile kind in hand")
    insort(tiles, win)
    # the groups (万, 筒, 条, honours) of the 14 - 3 * n_melds concealed tiles
    groups = []
    lo = 0
    for hi in (bisect_left(tiles, 9), bisect_left(tiles, 18), bisect_left(tiles, 27), len(tiles)):
        if hi > lo:
            key = tuple(tiles[lo:hi])
            groups.append(_GROUPS.get(key) or _group_info(key))
            lo = hi
    flags = hog = odd = too_many = 0
    for g in groups:
        flags |= g[4]
        hog += g[5]
        odd += g[6]
        too_many |= g[7]
    hw = tiles.count(win)
    # the melds: kinds as fan-table keys, kong counts, copies of each kind
    m_chows: tuple[int, ...] = ()
    m_pungs: tuple[int, ...] = ()
    melded_cnt = mk = ck = 0
    if melds:
        tot = _counts34(tiles)
        for m in melds:
            mkey = (m.type, m.tiles, m.concealed)
            info = _MELD_CACHE.get(mkey)
            if info is None:
                info = _MELD_CACHE[mkey] = _meld_info(m)
            typ, k, exposed, mflags = info
            flags |= mflags
            if exposed:
                melded_cnt += 1
            if typ == CHOW:
                tot[k] += 1
                tot[k + 1] += 1
                tot[k + 2] += 1
                m_chows += (k,)
            else:
                m_pungs += (k,)
                if typ == KONG:
                    tot[k] += 4
                    if exposed:
                        mk += 1
                    else:
                        ck += 1
                else:
                    tot[k] += 3
        if max(tot) > 4:
            raise ValueError("more than four copies of a kind")
        hog = tot.count(4) - mk - ck
        fixed_win = tot[win] - hw
    else:
        if too_many:
            raise ValueError("more than four copies of a kind")
        fixed_win = 0

    self_drawn = ctx.self_drawn
    # flag corrections (as pymahjonggb)
    last = ctx.last_copy
    if hw != 1:
        last = False
    if fixed_win == 3:
        last = True
    if self_drawn:
        kong = ctx.kong_replacement and mk + ck > 0
    else:
        kong = ctx.robbing_kong and fixed_win == 0 and hw == 1
    wall_last = ctx.wall_last
    heavenly = ctx.heavenly

    best: list[int] | tuple[int, ...] | None = None
    best_total = 0
    best_entry = None  # the _regular entry when a standard split is the best reading
    seven_pairs_found = False

    if n_melds == 0:
        if odd == 0:  # every count even: seven pairs
            seven_pairs_found = True
            best = _seven_pairs(_counts34(tiles), win, flags, hog, self_drawn, last, kong, wall_last)
            best_total = _total(best)
            if best[SEVEN_SHIFTED_PAIRS]:
                seven_pairs_found = False  # scored on its own, no standard reading
        elif len(groups) == 1 and win < 27 and (heavenly or (groups[0][3][0] >= 3 and groups[0][3][8] >= 3)):
            # (九莲宝灯 needs the 14 tiles in one suit)
            ng = _nine_gates(_counts34(tiles), win, heavenly, self_drawn, last, kong, wall_last)
            if ng is not None:
                best = ng
                best_total = _total(ng)

    if best is None or seven_pairs_found:
        divisions = _divisions(groups)
        if divisions:
            base_key = (flags | (256 if self_drawn else 0) | (512 if last else 0) | (1024 if kong else 0)
                   | (2048 if wall_last else 0) | (0 if melded_cnt == 0 else 8192 if melded_cnt == 4 else 4096)
                   | hog << 14)
            base = _BASE_TABLE.get(base_key) or _base_fans(base_key)
            # "unique wait" (13 tiles waiting on one kind), computed only when a split
            # could score 边张/坎张/单钓将 (winning tile in a concealed chow or the pair)
            unique = False if heavenly or base[MELDED_HAND] else None
            for cch, cpu, pair in divisions:
                if unique is None and (pair == win or any([k <= win <= k + 2 for k in cch])):
                    unique = _unique_wait(tiles, win, groups, n_melds, odd)
                entry = _regular(base, m_chows + cch, m_pungs + cpu, cch, cpu, pair, mk, ck, win,
                                 self_drawn, bool(unique))
                tot_fan = entry[1]
                if best is None or tot_fan > best_total or (
                    tot_fan == best_total and (entry[0][PURE_TRIPLE_CHOW] or seven_pairs_found)
                ):
                    best, best_total, best_entry = entry[0], tot_fan, entry

    if best is None:
        raise NotAWin("the tiles do not form a winning hand")

    if best_entry is not None and not (heavenly or ctx.earthly or ctx.human or ctx.heavenly_ready or ctx.flowers):
        return FanResult(best_entry[2], best_total)
    t = list(best)
    if heavenly:
        t[HEAVENLY] = 1
        t[SINGLE_WAIT] = t[EDGE_WAIT] = t[CLOSED_WAIT] = 0
    if ctx.earthly:
        t[EARTHLY] = 1
    if ctx.human:
        t[HUMAN] = 1
    if ctx.heavenly_ready:
        t[HEAVENLY_READY] = 1
    t[FLOWER_TILES] = ctx.flowers
    present = list(compress(_RANGE_FANS, t))
    if ctx.flowers < 5:
        by_count = _FAN_BY_COUNT
        fans = tuple([by_count[i][t[i]] for i in present])
    else:
        fans = tuple([_fan(i, t[i]) for i in present])
    return FanResult(fans, sum([_VALUES[i] * t[i] for i in present]))


def _seven_pairs(hand: list[int], win: int, flags: int, hog: int, self_drawn: bool, last: bool, kong: bool,
                 wall_last: bool) -> list[int]:
    t = [0] * N_FANS
    if win < 27:
        s = win - win % 9
        if hand[s + 2] == 2 and hand[s + 3] == 2 and hand[s + 4] == 2 and hand[s + 5] == 2 and hand[s + 6] == 2 and (
            (hand[s + 1] == 2 and (hand[s] == 2 or hand[s + 7] == 2)) or (hand[s + 7] == 2 and hand[s + 8] == 2)
        ):
            t[SEVEN_SHIFTED_PAIRS] = 1
            if hand[s] == 0 and hand[s + 8] == 0:
                t[ALL_SIMPLES] = 1
            _win_flag_fans(t, self_drawn, last, kong, wall_last)
            return t
    t[SEVEN_PAIRS] = 1
    _tile_fans(t, flags)
    t[TILE_HOG] = hog
    _win_flag_fans(t, self_drawn, last, kong, wall_last)
    _apply_exclusions(t)
    return t


def _nine_gates(hand: list[int], win: int, heavenly: bool, self_drawn: bool, last: bool, kong: bool,
                wall_last: bool) -> list[int] | None:
    """九莲宝灯 with pymahjonggb's extra fans by the rank of the winning tile.

    For 天胡 the winning tile is any tile of the hand: the most valuable reading is
    taken (1 or 9 first).
    """
    if win >= 27 and not heavenly:
        return None
    r = -1
    if heavenly:
        for s in (0, 9, 18):
            if sum(hand[s:s + 9]) != 14:
                continue
            for rr in (0, 8, 1, 7, 4, 2, 3, 5, 6):
                cc = hand[:]
                cc[s + rr] -= 1
                if cc[s + rr] >= 0 and _is_nine_gates_13(cc, s):
                    r = rr
                    break
    else:
        s = win - win % 9
        cc = hand[:]
        cc[win] -= 1
        if _is_nine_gates_13(cc, s):
            r = win % 9
    if r < 0:
        return None
    t = [0] * N_FANS
    t[NINE_GATES] = 1
    if r in (0, 8):
        t[PURE_STRAIGHT] = 1
        t[TILE_HOG] = 1
    elif r in (1, 7):
        t[TWO_CONCEALED_PUNGS] = 1
        t[SHORT_STRAIGHT] = 1
        t[PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif r == 4:
        t[TWO_CONCEALED_PUNGS] = 1
        t[PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        t[SHORT_STRAIGHT] = 1
    _win_flag_fans(t, self_drawn, last, kong, wall_last)
    return t


def _regular(base: list[int], chows: tuple[int, ...], pungs: tuple[int, ...], cch: tuple[int, ...], cpu: tuple[int, ...],
             pair: int, mk: int, ck: int, win: int, self_drawn: bool, unique: bool) -> tuple:
    """Fans of one standard split: ``(fan counts (a tuple, not to be changed), total,
    the Fan objects of those counts)``.  ``chows`` / ``pungs`` the first kinds / kinds
    of every chow / pung or kong (melds first), ``cch`` / ``cpu`` those of the
    concealed chows / pungs, ``pair`` kind, ``mk`` / ``ck`` exposed / concealed kongs."""
    t = base[:]
    # a concealed pung completed by a discard is exposed, unless the winning tile
    # can be read in a concealed chow
    cp = len(cpu)
    if not self_drawn and win in cpu and not any([k <= win <= k + 2 for k in cch]):
        cp -= 1
    npung = len(pungs)
    outside = _TERM_OR_HONOR_KIND[pair]
    if npung:
        fans, four_blocks = _KONG_TABLE[cp * 25 + mk * 5 + ck]
        for i, c in fans:
            t[i] = c
        if npung == 4 and not four_blocks:
            t[ALL_PUNGS] = 1
        key = tuple(sorted(pungs)) if npung > 1 else pungs
        fans, out = _PUNG_TABLE.get(key) or _pung_entry(key)
        for i, c in fans:
            t[i] = c
        outside = outside and out
    nchow = len(chows)
    if nchow:
        key = tuple(sorted(chows)) if nchow > 1 else chows
        if nchow == 4 and pair < 27 and pair % 9 == 4 and key == (pair - 4, pair - 4, pair + 2, pair + 2):
            t[PURE_TERMINAL_CHOWS] = 1  # 一色双龙会: 123 123 789 789 + 55 of one suit
        else:
            fans, out = _CHOW_TABLE.get(key) or _chow_entry(key)
            for i, c in fans:
                t[i] = c
            outside = outside and out
    # pair adjustments
    if nchow == 4:
        if pair < 27:
            t[ALL_CHOWS] = 1
    elif t[TWO_DRAGONS_PUNGS]:
        if pair >= 31:
            t[LITTLE_THREE_DRAGONS] = 1
            t[TWO_DRAGONS_PUNGS] = 0
    elif t[BIG_THREE_WINDS]:
        if 27 <= pair < 31:
            t[LITTLE_FOUR_WINDS] = 1
            t[BIG_THREE_WINDS] = 0
    # 全带幺: every set and the pair hold a terminal or an honour
    if outside:
        t[OUTSIDE_HAND] = 1
    # wait fans
    if unique and not t[FOUR_KONGS]:
        edge = closed = False
        for k in cch:
            if k + 1 == win:
                closed = True
            elif k == win or k + 2 == win:
                edge = True
        if edge:
            t[EDGE_WAIT] = 1
        elif closed:
            t[CLOSED_WAIT] = 1
        elif pair == win:
            t[SINGLE_WAIT] = 1
    # the exclusions depend only on the fans present: resolved once per fan vector
    key = tuple(t)
    r = _BASE_TABLE.get(key)
    if r is None:
        total = _apply_exclusions(t)
        r = _BASE_TABLE[key] = (tuple(t), total, tuple([_fan(i, t[i]) for i in compress(_RANGE_FANS, t)]))
    return r
