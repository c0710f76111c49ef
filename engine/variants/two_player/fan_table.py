"""The fan table of 二人麻将 as data (``docs/rules/two_player.md``, "Fan table"): every fan's names,
value and exclusions (:data:`FAN_ROWS`), the index of each fan, and the public types of a
fan count (:class:`WinContext`, :class:`Fan`, :class:`FanResult`, :class:`NotAWin`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...melds import Meld

# ---------------------------------------------------------------------------
# the table (docs/rules/two_player.md, "Fan table"), one row per fan:
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
    (``docs/rules/two_player.md``, "Fan table")."""
    return [(zh, en, v) for zh, en, v, _ex in FAN_ROWS]


# ---------------------------------------------------------------------------
# public types
# ---------------------------------------------------------------------------


class NotAWin(ValueError):
    """The tiles do not form a winning hand (standard, seven pairs)."""


@dataclass(frozen=True)
class WinContext:
    """Everything the fan count needs about one win (``docs/rules/two_player.md``).

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
