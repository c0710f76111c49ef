"""Tile kinds, physical tiles and the text notation shared by every variant.

Source: ``docs/rules/README.md`` ("Tile text notation").

Two integer spaces are used throughout the engine:

* a **kind** (``int``) names what a tile shows.  Kinds are laid out so that the
  34 standard mahjong kinds come first and can index a 34-long count array::

      0..8    1m..9m   万 characters
      9..17   1p..9p   筒 dots
      18..26  1s..9s   条 bamboo
      27..33  1z..7z   东 南 西 北 白 发 中
      34..41  1f..8f   春 夏 秋 冬 梅 兰 菊 竹 (one copy each)
      42..44  Tm Tp Ts 千子 白花 红花 (老五对 "tenth" tiles)
      45..49  1h..5h   福 禄 寿 喜 财 (老五对 喜牌, one copy each)
      50..59  1x..10x  字牌 small cards 一..十
      60..69  1X..10X  字牌 big cards 壹..拾

* a **tile** (``int``) is one physical tile: ``kind * 4 + copy`` with
  ``copy`` in ``0..3``.  ``kind_of(tile) == tile >> 2``.  Hands, walls and
  melds hold tiles, so "no duplicate tile" is a plain set check.

Text notation: ``5m``, ``7z``, ``3f``; runs may be grouped as in
``"123m456p77z"``.  :func:`parse_kind` also accepts Chinese names
(``五万``, ``5万``, ``白板``, ``中``, ``春``) and pinyin/English honour names
(``east``, ``red``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAN, PIN, SOU, HONOR, FLOWER = 0, 9, 18, 27, 34
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
TEN_M, TEN_P, TEN_S = 42, 43, 44
XI_FIRST = 45
ZI_SMALL, ZI_BIG = 50, 60
N_KINDS = 70
N_MAHJONG = 34  #: length of a count array over the standard kinds

_SUIT_BASE = {"m": MAN, "p": PIN, "s": SOU, "z": HONOR, "f": FLOWER, "h": XI_FIRST}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8, "h": 5}

CN_NUM = "一二三四五六七八九十"
CN_BIG = "壹贰叁肆伍陆柒捌玖拾"
HONOR_ZH = "东南西北白发中"
#: the seat winds of the views, in seat order from the dealer (``view["seats"][i]["wind"]``)
WINDS = HONOR_ZH[:4]
FLOWER_ZH = "春夏秋冬梅兰菊竹"
XI_ZH = "福禄寿喜财"
_SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
_TEN_ZH = {TEN_M: "千子", TEN_P: "白花", TEN_S: "红花"}
HONOR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo")


class TileParseError(ValueError):
    """Raised when a text cannot be read as a tile kind; ``text`` holds the input."""

    def __init__(self, text: str):
        super().__init__(f"unknown tile: {text!r}")
        self.text = text


def kind_of(tile: int) -> int:
    """The kind of a physical tile (``tile >> 2``)."""
    return tile >> 2


def is_suited(kind: int) -> bool:
    """True for 1m..9s (the 27 numbered mahjong kinds)."""
    return kind < HONOR


def is_honor(kind: int) -> bool:
    return HONOR <= kind < FLOWER


def is_flower(kind: int) -> bool:
    return FLOWER <= kind < FLOWER + 8


def is_terminal(kind: int) -> bool:
    """1 or 9 of a mahjong suit."""
    return kind < HONOR and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return is_terminal(kind) or is_honor(kind)


def suit_of(kind: int) -> str:
    """``'m' 'p' 's' 'z' 'f' 'h' 'x' 'X'`` or ``'T'`` for the 老五对 tenth tiles."""
    if kind < 27:
        return "mps"[kind // 9]
    if kind < FLOWER:
        return "z"
    if kind < TEN_M:
        return "f"
    if kind < XI_FIRST:
        return "T"
    if kind < ZI_SMALL:
        return "h"
    return "x" if kind < ZI_BIG else "X"


def number_of(kind: int) -> int:
    """The face number: 1..9 for suits, 1..7 honours, 1..8 flowers, 1..10 字牌 cards."""
    if kind < 27:
        return kind % 9 + 1
    if kind < FLOWER:
        return kind - HONOR + 1
    if kind < TEN_M:
        return kind - FLOWER + 1
    if kind < XI_FIRST:
        return 10
    if kind < ZI_SMALL:
        return kind - XI_FIRST + 1
    return (kind - ZI_SMALL) % 10 + 1


def _kind_str(kind: int) -> str:
    s = suit_of(kind)
    if s == "T":
        return "T" + "mps"[kind - TEN_M]
    return f"{number_of(kind)}{s}"


#: the notation of every kind, worked out once (views write every tile they show)
_KIND_STR = tuple(_kind_str(k) for k in range(N_KINDS))


def kind_str(kind: int) -> str:
    """Notation of a kind: ``'5m'``, ``'7z'``, ``'3f'``, ``'Tm'``, ``'2h'``, ``'10x'``."""
    if 0 <= kind < N_KINDS:
        return _KIND_STR[kind]
    return _kind_str(kind)


def tile_str(tile: int) -> str:
    """Notation of a physical tile's kind (the copy number is not shown)."""
    return kind_str(kind_of(tile))


def kind_name(kind: int, lang: str = "zh") -> str:
    """Human name of a kind: ``五万`` / ``5 Characters``, ``东`` / ``East``.

    ``lang`` is ``'zh'`` (simplified Chinese) or ``'en'``.
    """
    s, n = suit_of(kind), number_of(kind)
    if lang.startswith("zh"):
        if s in _SUIT_ZH:
            return CN_NUM[n - 1] + _SUIT_ZH[s]
        if s == "z":
            return ("东风", "南风", "西风", "北风", "白板", "发财", "红中")[n - 1]
        if s == "f":
            return FLOWER_ZH[n - 1]
        if s == "T":
            return _TEN_ZH[kind]
        if s == "h":
            return XI_ZH[n - 1]
        if s == "x":
            return CN_NUM[n - 1]
        return CN_BIG[n - 1]
    if s in "mps":
        return f"{n} " + {"m": "Characters", "p": "Dots", "s": "Bamboo"}[s]
    if s == "z":
        return HONOR_EN[n - 1]
    if s == "f":
        return FLOWER_EN[n - 1]
    if s == "T":
        return {TEN_M: "Qianzi", TEN_P: "White Flower", TEN_S: "Red Flower"}[kind]
    if s == "h":
        return ("Fu", "Lu", "Shou", "Xi", "Cai")[n - 1]
    return f"small {n}" if s == "x" else f"big {n}"


def _build_aliases() -> dict[str, int]:
    a: dict[str, int] = {}
    for suit, base in (("m", MAN), ("p", PIN), ("s", SOU)):
        zh = _SUIT_ZH[suit]
        alts = {"m": ("万", "萬", "w"), "p": ("筒", "饼", "餅", "b", "t"), "s": ("条", "條", "索")}[suit]
        for i in range(9):
            for alt in alts:
                a[f"{i + 1}{alt}"] = base + i
                a[f"{CN_NUM[i]}{alt}"] = base + i
            if suit == "m" and i == 4:
                a["伍万"] = a["伍萬"] = base + i
        del zh
    names = [
        ("东 東 东风 東風 east e", EAST),
        ("南 南风 南風 south", SOUTH),
        ("西 西风 西風 west w", WEST),
        ("北 北风 北風 north n", NORTH),
        ("白 白板 white haku p", WHITE),
        ("发 發 发财 發財 青发 green hatsu f", GREEN),
        ("中 红中 紅中 red chun c", RED),
    ]
    for words, k in names:
        for w in words.split():
            a[w] = k
    for i, ch in enumerate(FLOWER_ZH):
        a[ch] = FLOWER + i
    a["菊花"] = FLOWER + 6
    a["兰花"] = FLOWER + 5
    a["梅花"] = FLOWER + 4
    a["竹子"] = FLOWER + 7
    for k, name in _TEN_ZH.items():
        a[name] = k
    for i, ch in enumerate(XI_ZH):
        a[ch] = XI_FIRST + i
    for i in range(10):
        a[CN_BIG[i]] = ZI_BIG + i
    return a


_ALIASES = _build_aliases()
_NOTATION = re.compile(r"^(10|[1-9])([mpszfhxX])$|^T([mps])$")


def parse_kind(text: str) -> int:
    """Read one tile kind from notation or a Chinese/English name.

    >>> kind_str(parse_kind("五万")), kind_str(parse_kind("5萬")), kind_str(parse_kind("白板"))
    ('5m', '5m', '5z')

    Raises :class:`TileParseError` for anything else.
    """
    t = text.strip()
    m = _NOTATION.match(t) or _NOTATION.match(t.lower()) if t else None
    if m:
        if m.group(3):
            return TEN_M + "mps".index(m.group(3))
        n, s = int(m.group(1)), m.group(2)
        if s in "xX":
            if n <= 10:
                return (ZI_SMALL if s == "x" else ZI_BIG) + n - 1
        elif n <= _SUIT_SIZE[s]:
            return _SUIT_BASE[s] + n - 1
    k = _ALIASES.get(t) if t else None
    if k is None and t:
        k = _ALIASES.get(t.lower())
    if k is None:
        raise TileParseError(text)
    return k


_GROUP = re.compile(r"((?:10|[0-9])+|T)([mpszfhxX])")


def parse_kinds(text: str) -> list[int]:
    """Read a compact run like ``"123m456p77z"`` (or space-separated names) into kinds.

    ``"1x10x"`` style 字牌 runs are read card by card; Chinese names must be
    separated by spaces or commas.  Raises :class:`TileParseError`.
    """
    out: list[int] = []
    for word in re.split(r"[\s,，、]+", text.strip()):
        if not word:
            continue
        pos, ok, start = 0, True, len(out)
        while pos < len(word):
            m = _GROUP.match(word, pos)
            if not m:
                ok = False
                break
            digits, suit = m.group(1), m.group(2)
            if digits == "T":
                out.append(parse_kind("T" + suit))
            elif suit in "xX":
                out.extend(parse_kind(d + suit) for d in re.findall(r"10|[1-9]", digits))
            else:
                out.extend(parse_kind(d + suit) for d in digits)
            pos = m.end()
        if not ok:
            # a Chinese name, or something else: whole-word lookup
            del out[start:]
            out.append(parse_kind(word))
    return out


def kinds_str(kinds: Iterable[int]) -> str:
    """Compact notation of several kinds, grouped by suit in the given order.

    >>> kinds_str([0, 1, 2, 31, 31])
    '123m55z'
    """
    parts: list[str] = []
    cur_suit, digits = "", ""
    for k in kinds:
        s = kind_str(k)
        num, suit = s[:-1], s[-1]
        if suit != cur_suit or num == "T" or suit in "xX":
            if digits:
                parts.append(digits + cur_suit)
            cur_suit, digits = suit, ""
        digits += num
    if digits:
        parts.append(digits + cur_suit)
    return "".join(parts)


def counts34(kinds: Iterable[int]) -> list[int]:
    """A 34-long count array of the standard mahjong kinds (other kinds are ignored)."""
    c = [0] * N_MAHJONG
    for k in kinds:
        if k < N_MAHJONG:
            c[k] += 1
    return c


def make_tiles(kind_counts: dict[int, int]) -> list[int]:
    """The physical tiles of a set: ``{kind: copies}`` -> ``[kind*4+copy, ...]`` (sorted)."""
    return [k * 4 + c for k in sorted(kind_counts) for c in range(kind_counts[k])]
