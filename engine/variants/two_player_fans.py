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
from bisect import bisect_left, insort
from itertools import compress, product

# the per-group (suit / honours) memoised analysis of hand_shapes
from ..hand_shapes import _can_split
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
_RANGE_FANS = tuple(range(len(FAN_ROWS)))

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
#: (chows allowed, pair wanted, counts) -> _rel_splits; ("at", chows allowed, first
#: kind, counts) of a run of held ranks -> its splits in kinds (see _group_info)
_REL_SPLITS: dict[tuple, tuple] = {}
#: sorted kinds of one group of the hand (万, 筒, 条 or honours) -> _group_info
_GROUPS: dict[tuple[int, ...], tuple] = {}
#: (first kind, counts, winning kind) of the winning tile's group -> _other_wait
_OTHER_WAIT: dict[tuple, tuple[bool, bool]] = {}
#: (chows allowed, counts) of a group -> _completes_to_sets; ("run", chows allowed,
#: counts) of a run of held ranks -> _run_info
_TO_SETS: dict[tuple, object] = {}
#: (meld type, tiles, concealed) -> (type, kind, exposed, tile-fan flags)
_MELD_CACHE: dict[tuple, tuple[str, int, bool, int]] = {}
#: flags of a hand -> the fans every split of it shares (see _base_fans); fan counts
#: of a split before exclusions (a tuple) -> (counts after them, total)
_BASE_TABLE: dict[object, object] = {}
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


def _kind_flags(kinds) -> int:
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


def _runs(chows: bool, key) -> list[tuple[int, tuple[int, ...]]]:
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
        per_run = []
        pairs = 0
        for s, run in _runs(chows, key):
            m = sum(run) % 3
            if m == 1:
                per_run = None
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
                per_run = None
                break
            per_run.append(rs)
        if per_run is not None and pairs == want_pair:
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


def _division_order(div) -> tuple:
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


def _counts34(tiles) -> list[int]:
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


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
            key = (flags | (256 if self_drawn else 0) | (512 if last else 0) | (1024 if kong else 0)
                   | (2048 if wall_last else 0) | (0 if melded_cnt == 0 else 8192 if melded_cnt == 4 else 4096)
                   | hog << 14)
            base = _BASE_TABLE.get(key) or _base_fans(key)
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


def _seven_pairs(hand, win, flags, hog, self_drawn, last, kong, wall_last) -> list[int]:
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


def _regular(base, chows, pungs, cch, cpu, pair, mk, ck, win, self_drawn, unique) -> tuple:
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
