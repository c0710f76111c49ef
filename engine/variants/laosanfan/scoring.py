"""老三番 scoring: 胡 points, fan and the four scoring styles, as pure functions.

Source: ``docs/rules/laosanfan.md`` Part 1, sections "Fan (番)", "胡 (points)" and
"Scoring styles".  Kinds are ``engine.tiles`` kinds; melds are ``engine.melds.Meld``.
"""

from __future__ import annotations

from ... import hand_shapes
from ...melds import Meld
from ...tiles import FLOWER, GREEN, HONOR, RED, WHITE, is_terminal_or_honor, kind_str

#: scoring styles (大小类别): option value -> (Chinese name, base 胡, flat 3-fan cap or None)
STYLES = {
    "yaobansan": ("么半三", 30, 300),
    "yaobanliu": ("么半六", 60, 500),
    "tuidaoba": ("推倒八", None, 800),
    "yaoerliu": ("么二六", 100, None),
}
FAN_CAP = 3  #: 三番为顶
DRAGONS = (WHITE, GREEN, RED)


def round_up_ten(x: int) -> int:
    """超一进十: round a 胡 total up to the next multiple of ten (56 → 60, 60 → 60)."""
    return -(-x // 10) * 10


def style_total(style: str, hu: int, fan: int) -> int:
    """What each loser pays for a win of ``hu`` 胡 points and ``fan`` fan (capped at 3)
    under ``style`` (laosanfan.md §Scoring styles).

    * 么半三 / 么半六 / 么二六: ``(base + hu) × 2^fan`` rounded up to ten; 么半三 and
      么半六 pay a flat 300 / 500 at 3 fan and never more than that (the cap also bites at
      fewer fan); 么二六's cap is its own 3-fan formula.
    * 推倒八: 100 × 2^fan (胡 ignored): 100 / 200 / 400 / 800.

    >>> style_total("yaobansan", 26, 0), style_total("yaobansan", 26, 1), style_total("yaobansan", 26, 3)
    (60, 120, 300)

    Raises ``KeyError`` for an unknown style, ``ValueError`` for negative input.
    """
    if hu < 0 or fan < 0:
        raise ValueError("hu and fan are not negative")
    _, base, cap = STYLES[style]
    fan = min(fan, FAN_CAP)
    if base is None:
        return 100 * 2 ** fan
    if cap is not None:
        if fan == FAN_CAP:
            return cap
        return min(cap, round_up_ten((base + hu) * 2 ** fan))
    return round_up_ten((base + hu) * 2 ** fan)


def style_calc(style: str, hu: int, fan: int) -> tuple[dict, list[dict]]:
    """How :func:`style_total` reaches its value, as numbers for the result's words:
    ``({"key": style, "hu", "fan", "total"[, "base", "mult", "raw", "rounded"]}, caps)`` with
    ``raw`` = (base + 胡) × ``mult`` (2^fan), ``rounded`` up to ten, and ``caps`` the
    ``{"item": "total", "uncapped", "value"}`` of a style's cap that bit (么半三 300, 么半六 500).

    >>> style_calc("yaobansan", 26, 1)[0]["raw"], style_calc("yaobansan", 26, 3)[1]
    (112, [{'item': 'total', 'uncapped': 450, 'value': 300}])
    """
    _, base, _cap = STYLES[style]
    fan = min(fan, FAN_CAP)
    total = style_total(style, hu, fan)
    calc = {"key": style, "hu": hu, "fan": fan, "total": total}
    if base is None:
        return calc, []
    raw = (base + hu) * 2 ** fan
    calc.update(base=base, mult=2 ** fan, raw=raw, rounded=round_up_ten(raw))
    caps = [{"item": "total", "uncapped": calc["rounded"], "value": total}] if total != calc["rounded"] else []
    return calc, caps


def money_rounding(points: int) -> int:
    """么半六 money display (laosanfan.md §Scoring styles): of the last two digits, 0–20
    adds nothing, 30–60 half a hundred, 70–99 a whole hundred (120 → 100, 150 → 150,
    170 → 200).  Sign preserved."""
    sign = -1 if points < 0 else 1
    p = abs(points)
    r = p % 100
    extra = 0 if r <= 20 else (50 if r <= 60 else 100)
    return sign * (p - r + extra)


def pung_hu(kind: int, concealed: bool, kong: bool) -> int:
    """胡 of a pung or kong (laosanfan.md §胡 table): terminals/honours 4/8/16/32 (exposed
    pung, concealed pung, exposed kong, concealed kong), simples 2/4/8/16."""
    v = 4 if is_terminal_or_honor(kind) else 2
    if concealed:
        v *= 2
    if kong:
        v *= 4
    return v


def meld_hu(m: Meld) -> int:
    """胡 of one meld (a chow scores nothing)."""
    if m.type == "chow":
        return 0
    return pung_hu(m.kind, m.concealed, m.type == "kong")


def _meld_item(m: Meld) -> dict:
    """The 胡 item of one meld: ``{"item", "value", "tiles"}`` (a chow scores nothing)."""
    if m.type == "chow":
        item = "chow"
    else:
        item = ("concealed_" if m.concealed else "exposed_") + ("kong" if m.type == "kong" else "pung")
    return {"item": item, "value": meld_hu(m), "tiles": [kind_str(k) for k in m.kinds]}


def hu_detail(concealed13: list[int], melds: list[Meld], win_kind: int, self_drawn: bool,
              flowers: list[int]) -> tuple[int, list[dict]]:
    """The winner's 胡 item by item (laosanfan.md §胡 (points)).

    :param concealed13: 34 counts of the concealed hand *without* the winning tile.
    :param melds: the winner's melds (concealed kongs included).
    :param flowers: kinds of the flowers held (4 胡 each).
    :returns: ``(hu, items)``, each item ``{"item", "value", "tiles"}`` with ``item`` one of
        ``exposed_pung``, ``concealed_pung``, ``exposed_kong``, ``concealed_kong``, ``chow``
        (0), ``pair`` (0), ``closed_wait`` (夹中胡 2), ``flowers`` (4 each), ``self_drawn`` (2).
        The concealed hand is read in the way that scores most (a pung completed by a discard
        counts as exposed; 夹中胡 when the winning tile can be the middle of a chow).
        ``(0, [])`` if the hand is not a standard win.
    """
    full = list(concealed13)
    full[win_kind] += 1
    best: tuple[int, list] | None = None
    fixed = [_meld_item(m) for m in melds]
    extra = []
    if flowers:
        extra.append({"item": "flowers", "value": 4 * len(flowers), "tiles": [kind_str(k) for k in flowers]})
    if self_drawn:
        extra.append({"item": "self_drawn", "value": 2, "tiles": []})
    fixed_sum = sum(i["value"] for i in fixed + extra)
    for codes, pair in hand_shapes.decompose_codes(full):
        placements: list[tuple[str, int]] = []
        if pair == win_kind:
            placements.append(("pair", -1))
        for c in set(codes):
            if c >= hand_shapes.PUNG_CODE:
                if c - hand_shapes.PUNG_CODE == win_kind:
                    placements.append(("pung", c))
            elif c <= win_kind <= c + 2:
                placements.append(("closed" if win_kind == c + 1 else "chow", c))
        for how, code in placements:
            items: list[dict] = []
            for c in codes:
                if c >= hand_shapes.PUNG_CODE:
                    k = c - hand_shapes.PUNG_CODE
                    exposed = how == "pung" and c == code and not self_drawn
                    items.append({"item": "exposed_pung" if exposed else "concealed_pung",
                                  "value": pung_hu(k, not exposed, False), "tiles": [kind_str(k)] * 3})
                    if exposed:
                        code = -2  # only one copy of the set is the completed one
                else:
                    items.append({"item": "chow", "value": 0, "tiles": [kind_str(c + i) for i in range(3)]})
            items.append({"item": "pair", "value": 0, "tiles": [kind_str(pair)] * 2})
            if how == "closed":
                items.append({"item": "closed_wait", "value": 2, "tiles": [kind_str(win_kind)]})
            total = fixed_sum + sum(i["value"] for i in items)
            if best is None or total > best[0]:
                best = (total, fixed + items + extra)
    return best if best is not None else (0, [])


def hu_points(concealed13: list[int], melds: list[Meld], win_kind: int, self_drawn: bool,
              flowers: int) -> tuple[int, list[list]]:
    """The winner's 胡 (laosanfan.md §胡 (points)), as :func:`hu_detail` counts it.

    :param flowers: flowers held (4 胡 each).
    :returns: ``(hu, items)`` with ``items`` = ``[[label, 胡], …]`` of the items that score.
    """
    hu, items = hu_detail(concealed13, melds, win_kind, self_drawn, [FLOWER] * flowers)
    return hu, [[f"{i['item']}:{''.join(i['tiles'][:1])}", i["value"]] for i in items if i["value"]]


def seat_flower_fan(flowers: list[int], wind_index: int) -> list[list]:
    """Flower fan of a seat (laosanfan.md §Fan): own seat flowers (East 春/梅, South 夏/兰,
    West 秋/菊, North 冬/竹) +1 each; a full set 春夏秋冬 or 梅兰菊竹 is 2 instead of that
    set's seat-flower fan.  ``flowers``: kinds held; ``wind_index``: 0 East … 3 North.
    Returns ``[[zh, en, value, count], …]``."""
    out = []
    held = set(flowers)
    for base, set_zh, set_en in ((FLOWER, "春夏秋冬", "Four seasons"), (FLOWER + 4, "梅兰菊竹", "Four gentlemen")):
        if all(base + i in held for i in range(4)):
            out.append([set_zh, set_en, 2, 1])
        elif base + wind_index in held:
            out.append(["正花", "Seat flower", 1, 1])
    merged: dict[tuple, list] = {}
    for f in out:
        key = (f[0], f[2])
        if key in merged:
            merged[key][3] += 1
        else:
            merged[key] = f
    return list(merged.values())


def pattern_fan(all_kinds: list[int], is_all_pungs: bool) -> list[list]:
    """Hand-pattern fan (laosanfan.md §Fan): 清一色 3, 字一色 3, 混一色 2, 对对胡 1 (3 with
    混一色).  ``all_kinds``: every tile of the hand (concealed and melded, no flowers)."""
    suits = {k // 9 for k in all_kinds if k < HONOR}
    honours = any(k >= HONOR for k in all_kinds)
    out = []
    if not suits:
        out.append(["字一色", "All honours", 3, 1])
    elif len(suits) == 1 and not honours:
        out.append(["清一色", "Full flush", 3, 1])
    elif len(suits) == 1:
        out.append(["混一色", "Half flush", 2, 1])
    if is_all_pungs and suits:
        out.append(["对对胡", "All pungs", 1, 1])
    return out


def dragon_fan(full_counts: list[int], melds: list[Meld]) -> list[list]:
    """+1 fan per pung/kong of 红中, 发财 or 白板 (exposed or concealed)."""
    n = sum(1 for m in melds if m.is_pung_like and m.kind in DRAGONS)
    n += sum(1 for k in DRAGONS if full_counts[k] >= 3)
    return [["箭刻", "Dragon pung", 1, n]] if n else []


def capped(fans: list[list]) -> int:
    """Total of ``[[zh, en, value, count]…]`` capped at 3 (三番为顶)."""
    return min(FAN_CAP, sum(f[2] * f[3] for f in fans))
