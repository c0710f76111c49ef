"""Fan calculator of the ``two_player`` variant (二人麻将, Chinese Official fans).

Source: ``rules/two_player.md`` — "Fan table" (values and exclusions) and its two
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

Fan names (zh/en), values and exclusions are data: :data:`FAN_ROWS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import add, mul

from ..hand_shapes import PUNG_CODE, decompose_codes, shape_waits
from ..melds import CHOW, KONG, PUNG, Meld

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
# the table (rules/two_player.md, "Fan table"), one row per fan:
#   (zh, en, value per occurrence, excluded fans (zh))
# The exclusions are applied top-down: a fan still present removes the fans it
# excludes.  Two rows act specially (see _apply_exclusions): 三风刻 removes only the
# 幺九刻 of its three wind pungs, and 四暗刻 turns 不求人 into 自摸.  The rows carry
# the Decision's MCR exclusions too (七对 excl. 门前清/不求人/单钓将, ...).
# ---------------------------------------------------------------------------

FAN_ROWS: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    ("天胡", "Heavenly Hand", 48, ("单钓将", "边张", "坎张")),
    ("地胡", "Earthly Hand", 32, ()),
    ("人胡", "Human Hand", 24, ()),
    ("天听", "Heavenly Ready", 16, ()),
    ("大四喜", "Big Four Winds", 88, ("三风刻", "碰碰和", "幺九刻")),
    ("大三元", "Big Three Dragons", 88, ("箭刻", "双箭刻")),
    ("九莲宝灯", "Nine Gates", 88, ("清一色", "不求人", "门前清", "幺九刻")),
    ("四杠", "Four Kongs", 88, ("三杠", "双暗杠", "双明杠", "明杠", "暗杠", "单钓将")),
    ("连七对", "Seven Shifted Pairs", 88, ("清一色", "不求人", "单钓将", "门前清", "七对")),
    ("小四喜", "Little Four Winds", 64, ("三风刻", "幺九刻")),
    ("小三元", "Little Three Dragons", 64, ("箭刻", "双箭刻")),
    ("字一色", "All Honors", 64, ("碰碰和", "混幺九", "全带幺", "幺九刻")),
    ("四暗刻", "Four Concealed Pungs", 64, ("门前清", "碰碰和", "三暗刻", "双暗刻", "不求人")),
    ("一色双龙会", "Pure Terminal Chows", 64, ("平和", "七对", "清一色", "一般高", "老少副")),
    ("一色四同顺", "Quadruple Chow", 48, ("一色三节高", "一般高", "四归一", "一色三同顺", "七对")),
    ("一色四节高", "Four Pure Shifted Pungs", 48, ("一色三同顺", "一色三节高", "碰碰和")),
    ("一色四步高", "Four Pure Shifted Chows", 32, ("一色三步高", "连六", "老少副")),
    ("三杠", "Three Kongs", 32, ("双明杠", "双暗杠", "明杠", "暗杠")),
    ("混幺九", "All Terminals and Honors", 32, ("碰碰和", "幺九刻", "全带幺")),
    ("七对", "Seven Pairs", 24, ("门前清", "不求人", "单钓将")),
    ("清一色", "Full Flush", 24, ()),
    ("一色三同顺", "Pure Triple Chow", 24, ("一色三节高", "一般高")),
    ("一色三节高", "Pure Shifted Pungs", 24, ("一色三同顺",)),
    ("清龙", "Pure Straight", 16, ("连六", "老少副")),
    ("一色三步高", "Pure Shifted Chows", 16, ()),
    ("三暗刻", "Three Concealed Pungs", 16, ("双暗刻",)),
    ("大于五", "Upper Four", 12, ()),
    ("小于五", "Lower Four", 12, ()),
    ("三风刻", "Big Three Winds", 12, ("幺九刻",)),
    ("妙手回春", "Last Tile Draw", 8, ("自摸",)),
    ("海底捞月", "Last Tile Claim", 8, ()),
    ("杠上开花", "Out with Replacement Tile", 8, ("自摸",)),
    ("抢杠胡", "Robbing the Kong", 8, ("和绝张",)),
    ("碰碰和", "All Pungs", 6, ()),
    ("混一色", "Half Flush", 6, ()),
    ("全求人", "Melded Hand", 6, ("单钓将",)),
    ("双暗杠", "Two Concealed Kongs", 6, ("双暗刻", "暗杠")),
    ("双箭刻", "Two Dragon Pungs", 6, ("箭刻",)),
    ("全带幺", "Outside Hand", 4, ()),
    ("不求人", "Fully Concealed Hand", 4, ("门前清", "自摸")),
    ("双明杠", "Two Melded Kongs", 4, ("明杠",)),
    ("和绝张", "Last Tile", 4, ()),
    ("箭刻", "Dragon Pung", 2, ()),
    ("门前清", "Concealed Hand", 2, ()),
    ("平和", "All Chows", 2, ()),
    ("四归一", "Tile Hog", 2, ()),
    ("双暗刻", "Two Concealed Pungs", 2, ()),
    ("暗杠", "Concealed Kong", 2, ()),
    ("断幺", "All Simples", 2, ()),
    ("一般高", "Pure Double Chow", 1, ()),
    ("连六", "Short Straight", 1, ()),
    ("老少副", "Two Terminal Chows", 1, ()),
    ("幺九刻", "Pung of Terminals or Honors", 1, ()),
    ("明杠", "Melded Kong", 1, ()),
    ("边张", "Edge Wait", 1, ()),
    ("坎张", "Closed Wait", 1, ()),
    ("单钓将", "Single Wait", 1, ()),
    ("花牌", "Flower Tiles", 1, ()),
    ("自摸", "Self-Drawn", 1, ()),
)

N_FANS = len(FAN_ROWS)
_IDX = {row[0]: i for i, row in enumerate(FAN_ROWS)}
_VALUES = tuple(row[2] for row in FAN_ROWS)
_EXCL = tuple(tuple(_IDX[z] for z in row[3]) for row in FAN_ROWS)

(
    HEAVENLY, EARTHLY, HUMAN, HEAVENLY_READY,
    BIG_FOUR_WINDS, BIG_THREE_DRAGONS, NINE_GATES, FOUR_KONGS, SEVEN_SHIFTED_PAIRS,
    LITTLE_FOUR_WINDS, LITTLE_THREE_DRAGONS, ALL_HONORS, FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS,
    QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS,
    FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS, ALL_TERMINALS_AND_HONORS,
    SEVEN_PAIRS, FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT, PURE_SHIFTED_CHOWS, THREE_CONCEALED_PUNGS,
    UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS,
    LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG,
    ALL_PUNGS, HALF_FLUSH, MELDED_HAND, TWO_CONCEALED_KONGS, TWO_DRAGONS_PUNGS,
    OUTSIDE_HAND, FULLY_CONCEALED_HAND, TWO_MELDED_KONGS, LAST_TILE,
    DRAGON_PUNG, CONCEALED_HAND, ALL_CHOWS, TILE_HOG, TWO_CONCEALED_PUNGS, CONCEALED_KONG, ALL_SIMPLES,
    PURE_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS_OR_HONORS, MELDED_KONG,
    EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT, FLOWER_TILES, SELF_DRAWN,
) = range(N_FANS)

assert FAN_ROWS[SELF_DRAWN][0] == "自摸" and FAN_ROWS[PURE_DOUBLE_CHOW][0] == "一般高"



def fan_table() -> list[tuple[str, str, int]]:
    """The fan table for a rules display: ``[(zh, en, value), ...]`` in table order
    (``rules/two_player.md``, "Fan table")."""
    return [(zh, en, v) for zh, en, v, _ex in FAN_ROWS]


# ---------------------------------------------------------------------------
# public types
# ---------------------------------------------------------------------------


class NotAWin(ValueError):
    """The tiles do not form a winning hand (standard, seven pairs)."""


@dataclass(frozen=True)
class WinContext:
    """Everything the fan count needs about one win (``rules/two_player.md``).

    :ivar concealed: kinds of the concealed hand *without* the winning tile;
        ``len(concealed) + 3 * len(melds) == 13``.
    :ivar melds: the winner's melds (``engine.melds.Meld``; ``concealed`` True only
        for a concealed kong 暗杠).
    :ivar win_tile: kind of the winning tile.
    :ivar self_drawn: True for 自摸, False for a win on a discard (or a robbed kong).
    :ivar flowers: number of flowers (花牌, 1 fan each).
    :ivar wall_last: last tile of the wall (妙手回春 if self-drawn, else 海底捞月).
    :ivar kong_replacement: self-drawn on a kong replacement draw (杠上开花).
    :ivar robbing_kong: won on a tile added to an exposed pung (抢杠胡).
    :ivar last_copy: the three other copies are visible (和绝张).
    :ivar heavenly: 天胡; :ivar earthly: 地胡; :ivar human: 人胡;
    :ivar heavenly_ready: 天听.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    self_drawn: bool
    flowers: int = 0
    wall_last: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_copy: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    heavenly_ready: bool = False


@dataclass(frozen=True)
class Fan:
    """One scored fan: Chinese ``name`` as in the table, English ``en``, ``value``
    per occurrence and ``count`` occurrences (e.g. 幺九刻 ×2, 花牌 ×3)."""

    name: str
    en: str
    value: int
    count: int


@dataclass(frozen=True)
class FanResult:
    """The fans of a win, in table order, and ``total = sum(value * count)``
    (flowers included)."""

    fans: tuple[Fan, ...]
    total: int


# ---------------------------------------------------------------------------
# helpers over set codes
#   chow code = suit * 16 + start rank (0..6); pung code: numbered suit * 16 + rank
#   (0..8), honours 64 + (kind - 27) (winds 64..67, dragons 68..70).
# ---------------------------------------------------------------------------


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


def _apply_exclusions(t: list[int]) -> None:
    """Remove excluded fans, top-down through :data:`FAN_ROWS`."""
    for i in compress(_RANGE_FANS, t):
        if not t[i] or not _EXCL[i]:
            continue
        if i == BIG_THREE_WINDS:
            # only the 幺九刻 of its own three wind pungs (none left under 字一色/混幺九)
            v = t[PUNG_OF_TERMINALS_OR_HONORS] - 3
            t[PUNG_OF_TERMINALS_OR_HONORS] = v if v > 0 else 0
            continue
        if i == FOUR_CONCEALED_PUNGS and t[FULLY_CONCEALED_HAND]:
            t[SELF_DRAWN] = 1  # 四暗刻 excludes 不求人 but keeps 自摸
        for j in _EXCL[i]:
            t[j] = 0


def _total(t: list[int]) -> int:
    return sum(map(mul, t, _VALUES))


# ---------------------------------------------------------------------------
# the calculator
# ---------------------------------------------------------------------------


_ZEROS = (0,) * 34
_RANGE34 = tuple(range(34))
_RANGE_FANS = tuple(range(N_FANS))
_FAN_CACHE: dict[tuple[int, int], Fan] = {}


def _fan(i: int, c: int) -> Fan:
    f = _FAN_CACHE.get((i, c))
    if f is None:
        row = FAN_ROWS[i]
        f = _FAN_CACHE[(i, c)] = Fan(row[0], row[1], row[2], c)
    return f


def _meld_info(m: Meld) -> tuple[str, int, bool]:
    ks = tuple([t >> 2 for t in m.tiles])
    if m.type == CHOW:
        a, b, c = sorted(ks) if len(ks) == 3 else (None, None, None)
        if a is None or a >= 27 or b != a + 1 or c != a + 2 or a % 9 > 6:
            raise ValueError(f"bad chow meld: {m}")
        if m.concealed:
            raise ValueError(f"a chow meld cannot be concealed: {m}")
        return CHOW, a, True
    if m.type == PUNG:
        if len(ks) != 3 or len(set(ks)) != 1:
            raise ValueError(f"bad pung meld: {m}")
        if m.concealed:
            raise ValueError(f"a pung meld cannot be concealed: {m}")
        return PUNG, ks[0], True
    if m.type == KONG:
        if len(ks) != 4 or len(set(ks)) != 1:
            raise ValueError(f"bad kong meld: {m}")
        return KONG, ks[0], not m.concealed
    raise ValueError(f"unknown meld type: {m.type!r}")


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


_TILE_FAN_CACHE: dict[tuple, tuple] = {}


def _tile_fans(t: list[int], kinds: tuple) -> None:
    """Fans of the whole tile set (``kinds``: sorted distinct kinds of hand + melds):
    清一色/混一色, 断幺/字一色/混幺九, 大于五/小于五.  Memoised on ``kinds``."""
    r = _TILE_FAN_CACHE.get(kinds)
    if r is None:
        tt = [0] * N_FANS
        _tile_fans_raw(tt, kinds)
        r = _TILE_FAN_CACHE[kinds] = tuple((i, c) for i, c in enumerate(tt) if c)
    for i, c in r:
        t[i] = c


def _tile_fans_raw(t: list[int], kinds: tuple) -> None:
    suits = set()
    honors = False
    for k in kinds:
        if k >= 27:
            honors = True
        else:
            suits.add(k // 9)
    if len(suits) == 1:
        t[HALF_FLUSH if honors else FULL_FLUSH] = 1
    if not any(_TERM_OR_HONOR_KIND[k] for k in kinds):
        t[ALL_SIMPLES] = 1
    elif not suits:
        t[ALL_HONORS] = 1
    elif all(_TERM_OR_HONOR_KIND[k] for k in kinds):
        t[ALL_TERMINALS_AND_HONORS] = 1
    if not honors:
        ranks = {k % 9 for k in kinds}
        if max(ranks) <= 3:
            t[LOWER_FOUR] = 1
        elif min(ranks) >= 5:
            t[UPPER_FOUR] = 1


def calculate_fans(ctx: WinContext) -> FanResult:
    """Score a win of the ``two_player`` variant (``rules/two_player.md``, "Fan table").

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

    if concealed and (min(concealed) < 0 or max(concealed) > 33):
        raise ValueError("bad tile kind in hand")
    hand = [0] * 34
    for k in concealed:
        hand[k] += 1
    hand[win] += 1
    melded_cnt = n_kongs = 0
    if melds:
        fixed = [0] * 34
        infos = []
        for m in melds:
            typ, k, exposed = _meld_info(m)
            infos.append((typ, k, exposed))
            if exposed:
                melded_cnt += 1
            if typ == CHOW:
                fixed[k] += 1
                fixed[k + 1] += 1
                fixed[k + 2] += 1
            elif typ == KONG:
                fixed[k] += 4
                n_kongs += 1
            else:
                fixed[k] += 3
        tot = list(map(add, hand, fixed))
    else:
        fixed = _ZEROS
        infos = []
        tot = hand
    if max(tot) > 4:
        raise ValueError("more than four copies of a kind")
    kinds_present = tuple(compress(_RANGE34, tot))

    self_drawn = ctx.self_drawn
    # flag corrections (as pymahjonggb)
    last = ctx.last_copy
    if hand[win] != 1:
        last = False
    if fixed[win] == 3:
        last = True
    if self_drawn:
        kong = ctx.kong_replacement and n_kongs > 0
    else:
        kong = ctx.robbing_kong and fixed[win] == 0 and hand[win] == 1
    wall_last = ctx.wall_last

    best: list[int] | None = None
    best_total = 0
    seven_pairs_found = False

    if n_melds == 0:
        if not any([c & 1 for c in hand]):
            seven_pairs_found = True
            best = _seven_pairs(hand, win, kinds_present, self_drawn, last, kong, wall_last)
            best_total = _total(best)
            if best[SEVEN_SHIFTED_PAIRS]:
                seven_pairs_found = False  # scored on its own, no standard reading
        elif ctx.heavenly or (win < 27 and hand[win - win % 9] >= 3 and hand[win - win % 9 + 8] >= 3):
            ng = _nine_gates(hand, win, ctx.heavenly, self_drawn, last, kong, wall_last)
            if ng is not None:
                best = ng
                best_total = _total(ng)

    if best is None or seven_pairs_found:
        divisions = decompose_codes(hand)
        if len(divisions) > 1:
            # pymahjonggb's order (sets in ascending (tile, tile, tile) order, pung
            # before chow): it only decides between readings of equal total
            divisions.sort(key=_division_order)
        if divisions:
            base = [0] * N_FANS
            _win_flag_fans(base, self_drawn, last, kong, wall_last)
            if melded_cnt == 0:
                base[FULLY_CONCEALED_HAND if self_drawn else CONCEALED_HAND] = 1
            elif melded_cnt == 4:
                base[SELF_DRAWN if self_drawn else MELDED_HAND] = 1
            elif self_drawn:
                base[SELF_DRAWN] = 1
            _tile_fans(base, kinds_present)
            hog = tot.count(4) - n_kongs
            base[TILE_HOG] = hog
            # "unique wait" (13 tiles waiting on one kind), computed only when a split
            # could score 边张/坎张/单钓将 (winning tile in a concealed chow or the pair)
            unique = False if ctx.heavenly else None
            for codes, pair in divisions:
                if unique is None and (pair == win or any(c <= win <= c + 2 for c in codes if c < PUNG_CODE)):
                    cc = hand[:]
                    cc[win] -= 1
                    unique = len(shape_waits(cc, n_melds)) == 1
                t = _regular(base, codes, pair, infos, win, self_drawn, bool(unique))
                tot = _total(t)
                if best is None or tot > best_total or (
                    tot == best_total and (t[PURE_TRIPLE_CHOW] or seven_pairs_found)
                ):
                    best, best_total = t, tot

    if best is None:
        raise NotAWin("the tiles do not form a winning hand")

    t = best
    if ctx.heavenly:
        t[HEAVENLY] = 1
        t[SINGLE_WAIT] = t[EDGE_WAIT] = t[CLOSED_WAIT] = 0
    if ctx.earthly:
        t[EARTHLY] = 1
    if ctx.human:
        t[HUMAN] = 1
    if ctx.heavenly_ready:
        t[HEAVENLY_READY] = 1
    t[FLOWER_TILES] = ctx.flowers
    fans = tuple([_fan(i, t[i]) for i in compress(_RANGE_FANS, t)])
    return FanResult(fans, _total(t))


def _division_order(div) -> tuple:
    codes, _pair = div
    return tuple(sorted((c - PUNG_CODE, 0) if c >= PUNG_CODE else (c, 1) for c in codes))


def _seven_pairs(hand, win, kinds, self_drawn, last, kong, wall_last) -> list[int]:
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
    _tile_fans(t, kinds)
    t[TILE_HOG] = sum(1 for k in kinds if hand[k] == 4)
    _win_flag_fans(t, self_drawn, last, kong, wall_last)
    _apply_exclusions(t)
    return t


def _nine_gates(hand, win, heavenly, self_drawn, last, kong, wall_last) -> list[int] | None:
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


def _regular(base, codes, pair, infos, win, self_drawn, unique) -> list[int]:
    """Fans of one standard split: ``codes`` concealed set codes (hand_shapes),
    ``pair`` kind, ``infos`` the melds as ``(type, kind, exposed)``."""
    t = base[:]
    chows: list[int] = []
    pungs: list[int] = []
    conc_chows: list[int] = []  # first kinds of concealed chows
    cp = mk = ck = 0
    win_pung = False
    for typ, k, exposed in infos:
        if typ == CHOW:
            chows.append(_KIND_CODE[k])
        else:
            pungs.append(_KIND_CODE[k])
            if typ == KONG:
                if exposed:
                    mk += 1
                else:
                    ck += 1
    for c in codes:
        if c >= PUNG_CODE:
            k = c - PUNG_CODE
            pungs.append(_KIND_CODE[k])
            cp += 1
            if k == win:
                win_pung = True
        else:
            chows.append(_KIND_CODE[c])
            conc_chows.append(c)
    # a concealed pung completed by a discard is exposed, unless the winning tile
    # can be read in a concealed chow
    if win_pung and not self_drawn and not any(k <= win <= k + 2 for k in conc_chows):
        cp -= 1
    npung = len(pungs)
    if npung:
        _kong_fans(cp, mk, ck, t)
        if npung == 4 and not t[FOUR_KONGS] and not t[FOUR_CONCEALED_PUNGS]:
            t[ALL_PUNGS] = 1
        for pc in pungs:
            if pc >= 68:
                t[DRAGON_PUNG] += 1
            elif pc >= 64 or (pc & 15) in (0, 8):
                t[PUNG_OF_TERMINALS_OR_HONORS] += 1
    nchow = len(chows)
    pcode = _KIND_CODE[pair]
    if nchow == 4:
        chows.sort()
        if _is_pure_terminal_chows(chows, pcode):
            t[PURE_TERMINAL_CHOWS] = 1
        else:
            _chow_fans(chows, t)
    elif nchow == 3:
        chows.sort()
        _chow_fans(chows, t)
    elif nchow == 2:
        _chow_fans(chows, t)
        _pung_fans(pungs, t)
    else:
        pungs.sort()
        _pung_fans(pungs, t)
    # pair adjustments
    if nchow == 4:
        if pcode < 64:
            t[ALL_CHOWS] = 1
    elif t[TWO_DRAGONS_PUNGS]:
        if pcode >= 68:
            t[LITTLE_THREE_DRAGONS] = 1
            t[TWO_DRAGONS_PUNGS] = 0
    elif t[BIG_THREE_WINDS]:
        if 64 <= pcode < 68:
            t[LITTLE_FOUR_WINDS] = 1
            t[BIG_THREE_WINDS] = 0
    # 全带幺: every set and the pair hold a terminal or an honour
    outside = pcode >= 64 or (pcode & 15) in (0, 8)
    if outside:
        for c in chows:
            if (c & 15) not in (0, 6):
                outside = False
                break
    if outside:
        for c in pungs:
            if c < 64 and (c & 15) not in (0, 8):
                outside = False
                break
    if outside:
        t[OUTSIDE_HAND] = 1
    # wait fans
    if unique and not t[MELDED_HAND] and not t[FOUR_KONGS]:
        edge = closed = False
        for k in conc_chows:
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
    _apply_exclusions(t)
    return t


def _is_pure_terminal_chows(chows: list[int], pcode: int) -> bool:
    """一色双龙会: 123 123 789 789 + 55 of one suit (``chows`` sorted codes)."""
    if pcode >= 64 or (pcode & 15) != 4:
        return False
    s = pcode & ~15
    return chows == [s, s, s + 6, s + 6]
