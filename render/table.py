"""The public (or per-seat) table image: every seat's discards, melds, flowers and hand.

Layout (``WIDTH`` px wide, height grows with the content): the viewer's seat (``view["viewer"]``,
else seat 0) sits at the bottom; the others follow turn order counter-clockwise — the next seat
(下家) on the right, the seat across at the top, the previous seat (上家) on the left.  With two
seats the other seat is at the top and a centre band carries the table information; with three
or four the left/right seats get narrow columns around a centre box.  All text is drawn upright so
it stays readable on a phone.
"""

from __future__ import annotations

from PIL import Image

from .canvas import Layer, text_advance
from .common import (
    BLUE,
    FELT,
    FELT_DARK,
    FELT_TURN,
    GOLD,
    GREY,
    MUTED,
    PURPLE,
    RED,
    TURN_BORDER,
    WHITE,
    Group,
    backs_group,
    die_image,
    flow,
    kind,
    label,
    paper_cards,
    wild_label,
    with_drawable_names,
    meld_group,
    pill,
    pill_height,
    pill_width,
    place_rows,
    rows_size,
    sort_tiles,
    split_group,
    tile_badge,
    tiles_group,
    to_png,
    wind_text,
)
from .result import result_panel
from .tiles import drawable_text, tile_height, tile_image
from . import zipai

WIDTH = 960  #: table image width in px (Discord shows it ~550 px wide on a phone)
MARGIN = 8
GAP = 8
PAD = 10
SIDE_WIDTH = 272  #: width of the left/right seat columns at 3–4 seats

#: per panel kind: tile widths in px (face-up concealed hand, face-down backs, melds, discards,
#: flowers), discards per row, minimum discard rows reserved (keeps the height steady)
STYLES = {
    "wide2": dict(hand_w=44, back_w=36, meld_w=44, disc_w=48, per_row=14, flower_w=26,
                  min_rows=2, narrow=False),
    "wide4": dict(hand_w=36, back_w=28, meld_w=36, disc_w=40, per_row=16, flower_w=22,
                  min_rows=2, narrow=False),
    "side": dict(hand_w=24, back_w=18, meld_w=26, disc_w=34, per_row=7, flower_w=20,
                 min_rows=3, narrow=True),
}
POSITIONS = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
}
NAME_SIZE, PILL_SIZE, SCORE_SIZE, SMALL = 24, 17, 22, 16


def _truncate(text: str, size: int, max_w: float, bold: bool = True) -> str:
    if text_advance(text, size, bold) <= max_w:
        return text
    while text and text_advance(text + "…", size, bold) > max_w:
        text = text[:-1]
    return text + "…"


def _wind_disc(layer: Layer, x: float, y: float, size: int, text: str, dealer: bool) -> float:
    layer.ellipse((x, y, x + size, y + size), fill=RED if dealer else (235, 230, 215))
    layer.text((x + size / 2, y + size / 2), text, int(size * 0.62),
               fill=WHITE if dealer else (30, 30, 30), bold=True, anchor="mm")
    return size


def _info(view: dict, seat: dict, width: int, style: dict) -> Layer:
    """Name bar: wind, name, 庄/听/加倍/托管 marks, flowers, score."""
    flowers = tiles_group(view, seat.get("flowers") or [], style["flower_w"])
    ph = pill_height(PILL_SIZE)
    line_h = max(34, flowers.height if not style["narrow"] else 0)
    score = label(view, "score", n=seat.get("score", 0))
    score_w = text_advance(score, SCORE_SIZE, True)
    marks = []
    if seat.get("is_dealer"):
        marks.append((label(view, "dealer"), RED))
    if seat.get("ting"):
        marks.append((label(view, "ting"), BLUE))
    if int(seat.get("doubles") or 1) > 1:  # the 加倍 multiplier (1, 2, 4, …)
        marks.append((label(view, "double", n=int(seat["doubles"])), PURPLE))
    if seat.get("auto"):
        marks.append((label(view, "auto"), GREY))
    marks_w = sum(pill_width(t, PILL_SIZE) + 4 for t, _ in marks)
    two_lines = style["narrow"]
    h = line_h + (max(ph, flowers.height) + 6 if two_lines and (marks or flowers.images) else 0)
    layer = Layer(width, h)
    x = 0
    cy = line_h / 2
    x += _wind_disc(layer, x, cy - 15, 30, wind_text(view, seat.get("wind")) or "·",
                    bool(seat.get("is_dealer"))) + 8
    room = width - x - score_w - 12
    if not two_lines:
        room -= marks_w + flowers.width + 8
    name = _truncate(str(seat.get("name", "?")), NAME_SIZE, max(40, room))
    x += layer.text((x, cy), name, NAME_SIZE, fill=WHITE, bold=True, anchor="lm") + 10
    layer.text((width, cy), score, SCORE_SIZE, fill=GOLD, bold=True, anchor="rm")
    if two_lines:
        x, y2 = 0, line_h + 4
    else:
        y2 = cy - ph / 2
    for text, color in marks:
        x += pill(layer, x, y2, text, PILL_SIZE, color) + 4
    if flowers.images:
        x += 4
        flowers.place(layer, x, y2 if two_lines else cy - flowers.height / 2)
    return layer


def _hand_groups(view: dict, seat: dict, style: dict, inner_w: int) -> list[Group]:
    """Concealed tiles (face up when public, else backs), the drawn tile apart, the melds."""
    me = view.get("me") or {}
    concealed = seat.get("concealed")
    drawn = seat.get("drawn")
    if concealed is None and me.get("seat") == seat.get("seat") and me.get("hand") is not None:
        concealed, drawn = me.get("hand"), me.get("drawn")
    if concealed is not None:
        w = style["hand_w"]
        main = tiles_group(view, sort_tiles(view, concealed), w)
    else:
        w = style["back_w"]
        main = backs_group(int(seat.get("hand_count") or 0), w)
    if drawn:
        extra = tiles_group(view, [drawn], style["hand_w"])
    elif seat.get("has_drawn"):
        extra = backs_group(1, w)
    else:
        extra = Group()
    groups: list[Group] = []
    per_row = max(1, (inner_w + 1) // (w + 1))
    groups += split_group(main, per_row) if main.width > inner_w else [main]
    if extra.images:
        groups.append(extra)
    for m in seat.get("melds") or []:
        groups.append(meld_group(view, m, style["meld_w"]))
    return groups


def _discards(view: dict, seat: dict, style: dict) -> Layer:
    w, per_row = style["disc_w"], style["per_row"]
    tiles = list(seat.get("discards") or [])
    th = tile_height(w)
    n_rows = max(style["min_rows"], -(-len(tiles) // per_row))
    gap = 2
    layer = Layer(per_row * (w + gap), n_rows * (th + gap))
    last = view.get("last_discard") or {}
    highlight = last.get("seat") == seat.get("seat") and view.get("phase") != "over"
    for i, t in enumerate(tiles):
        k = kind(t)
        x, y = (i % per_row) * (w + gap), (i // per_row) * (th + gap)
        layer.image(tile_image(k, w, tile_badge(view, k)), x, y)
        if highlight and i == len(tiles) - 1:
            layer.rrect((x - 1, y - 1, x + w, y + th), radius=max(3, w // 7),
                        outline=(255, 140, 0), width=3)
    return layer


def seat_panel(view: dict, seat: dict, width: int, position: str, style: dict) -> Layer:
    """One seat's panel ``width`` px wide: info bar, hand row, discards (toward the centre)."""
    inner = width - 2 * PAD
    info = _info(view, seat, inner, style)
    rows = flow(_hand_groups(view, seat, style, inner), inner, gap=12 if not style["narrow"] else 6)
    _, hand_h = rows_size(rows)
    hand_h = max(hand_h, tile_height(style["back_w"]))
    disc = _discards(view, seat, style)
    parts_h = info.height + hand_h + disc.height + 2 * GAP
    h = parts_h + 2 * PAD
    turn = view.get("turn") == seat.get("seat") and view.get("phase") != "over"
    layer = Layer(width, h)
    layer.rrect((0, 0, width - 1, h - 1), radius=12, fill=FELT_TURN if turn else FELT_DARK,
                outline=TURN_BORDER if turn else None, width=3 if turn else 0)
    y = PAD
    order = ["discards", "hand", "info"] if position == "bottom" else ["info", "hand", "discards"]
    for part in order:
        if part == "info":
            layer.add(info, PAD, y)
            y += info.height + GAP
        elif part == "hand":
            place_rows(layer, rows, PAD, y + hand_h - rows_size(rows)[1])
            y += hand_h + GAP
        else:
            layer.add(disc, PAD, y)
            y += disc.height + GAP
    return layer


def _dice(layer: Layer, x: float, y: float, dice, size: int = 30) -> float:
    for i, v in enumerate(dice or []):
        layer.image(die_image(size, int(v)), x + i * (size + 6), y)
    return len(dice or []) * (size + 6)


def _special_tiles(view: dict) -> list[tuple[str, list[Image.Image]]]:
    """(label, tile images) for the 宝牌 and the wild indicator/kinds."""
    out = []
    if view.get("treasure") is not None:
        out.append((label(view, "treasure"), [tile_image(kind(view["treasure"]), 40, "treasure")]))
    wild = view.get("wild")
    if wild:
        name = wild_label(view)
        imgs = []
        if wild.get("indicator"):
            imgs.append(tile_image(kind(wild["indicator"]), 34))
        imgs += [tile_image(kind(k), 40, "wild") for k in wild.get("kinds") or []]
        out.append((name, imgs))
    return out


def _centre_items(view: dict) -> list[tuple[str, object]]:
    """Centre content as (kind, payload) items shared by the band and box layouts."""
    seats = view.get("seats") or []
    names = {s.get("seat"): s.get("name", "?") for s in seats}
    head = " · ".join(x for x in (drawable_text(str(view.get("table_name") or "")),
                                  label(view, "hand_no", n=view.get("hand_no", 1))) if x)
    items: list[tuple[str, object]] = [("text", head)]
    items.append(("dice", view.get("dice") or []))
    items.append(("text", label(view, "wall", n=view.get("wall_remaining", 0))))
    for name, imgs in _special_tiles(view):
        items.append(("tiles", (name, imgs)))
    last = view.get("last_discard")
    if last and last.get("tile") is not None and view.get("phase") != "over":
        name = zipai.shown_label(view) if paper_cards(view) else label(view, "last")
        items.append(("tiles", (name, [tile_image(kind(last["tile"]), 40)])))
    if view.get("phase") == "over":
        items.append(("turn", label(view, "phase_over")))
    elif view.get("turn") is not None:
        t = label(view, "turn", name=_truncate(str(names.get(view["turn"], "?")), 20, 240))
        if view.get("phase") == "claim":
            t += " · " + label(view, "phase_claim")
        items.append(("turn", t))
    return items


def _item_size(item) -> tuple[int, int]:
    k, p = item
    if k in ("text", "turn"):
        return int(text_advance(p, 18 if k == "text" else 20, True)), 28
    if k == "dice":
        return len(p) * 36, 30
    name, imgs = p
    return int(text_advance(name, SMALL, True)) + 6 + sum(i.width + 2 for i in imgs), \
        max(i.height for i in imgs)


def _draw_item(layer: Layer, x: float, cy: float, item) -> None:
    k, p = item
    if k == "text":
        layer.text((x, cy), p, 18, fill=MUTED, bold=True, anchor="lm")
    elif k == "turn":
        layer.text((x, cy), p, 20, fill=TURN_BORDER, bold=True, anchor="lm")
    elif k == "dice":
        _dice(layer, x, cy - 15, p)
    else:
        name, imgs = p
        x += layer.text((x, cy), name, SMALL, fill=WHITE, bold=True, anchor="lm") + 6
        for i in imgs:
            layer.image(i, x, cy - i.height / 2)
            x += i.width + 2


def centre_panel(view: dict, width: int, height: int | None = None) -> Layer:
    """Table information: name, hand number, dice, wall count, 宝牌/wild, last discard, turn.

    Laid out as one or two centred lines (a band) — or, when ``height`` is given, as a box
    with one item per line, vertically centred.
    """
    items = _centre_items(view)
    sizes = [_item_size(it) for it in items]
    if height is None:
        # pack items into lines of at most width - 2*PAD
        lines: list[list[int]] = [[]]
        lw = 0
        for i, (w, _) in enumerate(sizes):
            if lines[-1] and lw + w + 24 > width - 2 * PAD:
                lines.append([])
                lw = 0
            lines[-1].append(i)
            lw += w + 24
        line_hs = [max(sizes[i][1] for i in ln) for ln in lines]
        h = sum(line_hs) + 8 * (len(lines) - 1) + 2 * PAD
    else:
        lines = [[i] for i in range(len(items))]
        line_hs = [sizes[i][1] for i in range(len(items))]
        h = height
    layer = Layer(width, h)
    layer.rrect((0, 0, width - 1, h - 1), radius=12, fill=FELT)
    total = sum(line_hs) + 8 * (len(lines) - 1)
    y = (h - total) / 2
    for ln, lh in zip(lines, line_hs, strict=True):
        lw = sum(sizes[i][0] for i in ln) + 24 * (len(ln) - 1)
        x = (width - lw) / 2
        for i in ln:
            _draw_item(layer, x, y + lh / 2, items[i])
            x += sizes[i][0] + 24
        y += lh + 8
    return layer


def log_panel(view: dict, width: int, lines: int = 3) -> Layer | None:
    log = [str(x) for x in (view.get("log") or [])][-lines:]
    if not log:
        return None
    lh = SMALL + 6
    layer = Layer(width, lh * len(log) + 4)
    for i, line in enumerate(log):
        layer.text((PAD, 2 + i * lh), _truncate(line, SMALL, width - 2 * PAD, False), SMALL,
                   fill=MUTED if i < len(log) - 1 else WHITE)
    return layer


def seat_positions(view: dict) -> dict[int, str]:
    """Seat number → ``"bottom" | "right" | "top" | "left"`` for this view.

    The viewer (else seat 0) is at the bottom; the next seat in turn order (下家) at the right,
    the seat across at the top, the previous seat (上家) at the left; with two seats the other
    seat is at the top, with three the 上家 is at the left.
    """
    seats = sorted(s.get("seat", i) for i, s in enumerate(view.get("seats") or []))
    n = len(seats)
    bottom = view.get("viewer")
    if bottom is None or bottom not in seats:
        bottom = 0
    names = POSITIONS.get(n, POSITIONS[4])
    return {s: names[(s - bottom) % n] for s in seats}


def table_image(view: dict) -> Image.Image:
    """The table as an RGB :class:`PIL.Image.Image` ``WIDTH`` px wide (see module docstring).

    ``view`` is the engine's view dict (keys: seats, dealer, turn, phase, wall_remaining,
    dice, treasure, wild, last_discard, viewer, result, log, me, lang, table_name, hand_no).
    Players' names are drawn as :func:`render.common.with_drawable_names` makes them.
    Raises ``engine.tiles.TileParseError`` for an unreadable tile string.
    """
    view = with_drawable_names(view)
    if paper_cards(view):  # long paper cards (字牌): render/zipai.py
        view = zipai.adapt(view)
    seats = sorted(view.get("seats") or [], key=lambda s: s.get("seat", 0))
    n = len(seats)
    where = seat_positions(view)
    pos: dict[str, dict] = {where[s.get("seat", 0)]: s for s in seats}
    inner_w = WIDTH - 2 * MARGIN
    wide = STYLES["wide2"] if n <= 2 else STYLES["wide4"]
    blocks: list[Layer] = []
    if "top" in pos:
        blocks.append(seat_panel(view, pos["top"], inner_w, "top", wide))
    if "left" in pos or "right" in pos:
        sides = {p: seat_panel(view, pos[p], SIDE_WIDTH, p, STYLES["side"])
                 for p in ("left", "right") if p in pos}
        mid_h = max(im.height for im in sides.values())
        centre_w = inner_w - 2 * (SIDE_WIDTH + GAP)
        mid = Layer(inner_w, mid_h)
        mid.add(centre_panel(view, centre_w, mid_h), SIDE_WIDTH + GAP, 0)
        if "left" in sides:
            mid.add(sides["left"], 0, 0)
        if "right" in sides:
            mid.add(sides["right"], inner_w - SIDE_WIDTH, 0)
        blocks.append(mid)
    else:
        blocks.append(centre_panel(view, inner_w))
    if "bottom" in pos:
        blocks.append(seat_panel(view, pos["bottom"], inner_w, "bottom", wide))
    res = result_panel(view, inner_w)
    if res is not None:
        blocks.append(res)
    log = log_panel(view, inner_w)
    if log is not None:
        blocks.append(log)
    h = 2 * MARGIN + sum(b.height for b in blocks) + GAP * (len(blocks) - 1)
    root = Layer(WIDTH, h)
    y = MARGIN
    for b in blocks:
        root.add(b, MARGIN, y)
        y += b.height + GAP
    return root.render(FELT)


def render_table(view: dict) -> bytes:
    """PNG bytes of :func:`table_image` (``WIDTH`` px wide, 256-colour palette; typically
    50–100 kB)."""
    return to_png(table_image(view))


__all__ = ["render_table", "table_image", "seat_positions", "seat_panel", "centre_panel",
           "result_panel", "WIDTH"]
