"""A player's private hand image: concealed tiles, the drawn tile, melds, flowers, waits.

Rows, top to bottom: a header (name, seat wind, score, 宝牌/wild); the concealed tiles sorted
(wild tiles first, then by kind) with the drawn tile set apart at the right; melds and flowers;
the waits (each winning tile with its fan and how many remain unseen); the discard hint (for each
discard that leaves a ready hand, the waits it leaves).  The width follows the content.
"""

from __future__ import annotations

from PIL import Image

from .canvas import Layer, text_advance
from .common import (
    piece_image,
    FELT,
    GOLD,
    MUTED,
    WHITE,
    kind,
    label,
    paper_cards,
    wild_label,
    with_drawable_names,
    meld_group,
    sort_tiles,
    tiles_group,
    to_png,
    wind_text,
)
from .tiles import tile_height
from . import zipai

HAND_W = 60  #: concealed tile width in px
MELD_W = 44
FLOWER_W = 34
WAIT_W = 44
HINT_W = 36
PAD = 14
MIN_WIDTH = 420


def _wait_cell(view: dict, wait: dict, width: int) -> Layer:
    """A winning tile with "24番" and "剩2" under it (the count in red when none remain; the
    value in red and marked × when the rules refuse a win on it)."""
    k = kind(wait["tile"])
    t = piece_image(view, k, width)
    if paper_cards(view):
        value = zipai.wait_label(view, wait)
    elif wait.get("fan") is not None:
        value = label(view, "fan", n=wait["fan"])
    else:
        value = None  # the game gives no value before the win (老三番's 胡 are counted then)
    left = wait.get("left")
    blocked = wait.get("ok") is False and not wait.get("ok_self")  # the rules refuse a win on it
    if blocked:
        value = "× " + (value or "")  # the shipped fonts draw ×, not ✗
    size = max(13, width // 3)
    lines = ([value] if value else []) + ([label(view, "left", n=left)] if left is not None else [])
    cw = max([t.width] + [int(text_advance(s, size, True)) + 2 for s in lines])
    cell = Layer(cw, t.height + len(lines) * (size + 4) + 2)
    cell.image(t, (cw - t.width) // 2, 0)
    y = t.height + 2
    for i, s in enumerate(lines):
        color = ((255, 120, 110) if blocked else GOLD) if i == 0 and value else (MUTED if left else (255, 120, 110))
        cell.text((cw / 2, y), s, size, fill=color, bold=True, anchor="ma")
        y += size + 4
    return cell


def _header(view: dict, seat: dict | None, me: dict) -> tuple[str, list[Image.Image]]:
    parts = []
    if seat:
        parts.append(str(seat.get("name", "")))
        if seat.get("wind"):
            parts.append(wind_text(view, seat["wind"]))
        parts.append(label(view, "score", n=seat.get("score", 0)))
        if seat.get("ting"):
            parts.append(label(view, "ting"))
        if int(seat.get("doubles") or 1) > 1:  # the 加倍 multiplier (1, 2, 4, …)
            parts.append(label(view, "double", n=int(seat["doubles"])))
    extras: list = []
    if view.get("treasure") is not None:
        extras.append(_text_image(label(view, "treasure"), 16, MUTED, 30))
        extras.append(piece_image(view, kind(view["treasure"]), 30, "treasure"))
    wild = view.get("wild") or {}
    if wild.get("kinds"):
        name = wild_label(view)
        extras.append(_text_image(name, 16, MUTED, 30))
    for k in wild.get("kinds") or []:
        extras.append(piece_image(view, kind(k), 30, "wild"))
    return "  ·  ".join(p for p in parts if p), extras


def hand_image(view: dict) -> Image.Image:
    """The hand of ``view["me"]`` as an RGB image (see module docstring).

    Uses ``view["me"]`` (``seat``, ``hand``, ``drawn``, ``waits``, ``hint``) and that seat's
    ``melds``/``flowers`` from ``view["seats"]``.  Raises ``ValueError`` when ``view["me"]`` is
    missing and ``engine.tiles.TileParseError`` for an unreadable tile.  The player's name is
    drawn as :func:`render.common.with_drawable_names` makes it.
    """
    me = view.get("me")
    if not me:
        raise ValueError("view has no 'me' entry")
    view = with_drawable_names(view)
    if paper_cards(view):  # long paper cards (字牌): render/zipai.py
        view = zipai.adapt(view)
        me = view["me"]
        if not me.get("hand"):
            return zipai.blank_hand_image(view)
    seat = next((s for s in view.get("seats") or [] if s.get("seat") == me.get("seat")), None)
    title, extras = _header(view, seat, me)
    rows: list[tuple[int, list, bool]] = []  # (gap before, [(x, image or layer)], bottom-aligned)
    # tile rows are bottom-aligned (a claimed tile lies sideways, lower than the others);
    # rows holding wait cells (tile + text) are top-aligned

    # row 1: concealed + drawn
    hand = tiles_group(view, sort_tiles(view, me.get("hand") or []), HAND_W, gap=2)
    row: list = []
    x = 0
    for im in hand.images:
        row.append((x, im))
        x += im.width + hand.gap
    if me.get("drawn"):
        k = kind(me["drawn"])
        x += 22
        row.append((x, piece_image(view, k, HAND_W)))
    rows.append((0, row, True))

    # row 2: melds (字牌: a column of cards each) and flowers
    groups: list = [meld_group(view, m, MELD_W) for m in (seat or {}).get("melds") or []]
    flowers = tiles_group(view, (seat or {}).get("flowers") or [], FLOWER_W)
    row, x = [], 0
    for g in groups + ([flowers] if flowers.images else []):
        cell = Layer(g.width, g.height)
        g.place(cell, 0, 0)
        row.append((x, cell))
        x += g.width + 16
    if row:
        rows.append((12, row, True))

    # row 3: waits
    waits = me.get("waits") or []
    if waits:
        cells = [_wait_cell(view, w, WAIT_W) for w in waits]
        lab = label(view, "waits")
        row, x = [], int(text_advance(lab, 20, True)) + 12
        row.append((0, _text_image(lab, 20, WHITE, tile_height(WAIT_W))))
        for c in cells:
            row.append((x, c))
            x += c.width + 8
        rows.append((14, row, False))

    # rows 4+: discard hint, entries flowing left to right within the hand's width
    if me.get("hint"):
        rows.append((14, [(0, _text_image(label(view, "hint"), 18, MUTED, 24))], False))
        max_w = max(MIN_WIDTH, max((x + im.width for _, r, _ in rows for x, im in r), default=0))
        row, x = [], 0
        for h in me["hint"]:
            cell = _hint_cell(view, h)
            if row and x + cell.width > max_w:
                rows.append((10, row, False))
                row, x = [], 0
            row.append((x, cell))
            x += cell.width + 28
        rows.append((10, row, False))

    # header
    title_size = 22
    header_h = 34
    content_w = max((x + im.width for _, r, _ in rows for x, im in r), default=0)
    title_w = text_advance(title, title_size, True) + sum(e.width + 6 for e in extras) + 20
    width = int(max(MIN_WIDTH, content_w, title_w) + 2 * PAD)
    heights = [max(im.height for _, im in r) for _, r, _ in rows]
    height = PAD + header_h + sum(g + h for (g, _, _), h in zip(rows, heights, strict=True)) + PAD
    root = Layer(width, height)
    x = PAD + 10 + root.text((PAD, PAD + header_h / 2 - 4), title, title_size, fill=WHITE,
                             bold=True, anchor="lm") + 10
    for e in extras:
        if isinstance(e, Layer):
            root.add(e, x, PAD + header_h / 2 - 4 - e.height / 2)
        else:
            root.image(e, x, PAD + header_h / 2 - 4 - e.height / 2)
        x += e.width + 6
    y = PAD + header_h
    for (gap, r, bottom), h in zip(rows, heights, strict=True):
        y += gap
        for x, im in r:
            dy = h - im.height if bottom else 0
            if isinstance(im, Layer):
                root.add(im, PAD + x, y + dy)
            else:
                root.image(im, PAD + x, y + dy)
        y += h
    return root.render(FELT)


def _hint_cell(view: dict, hint: dict) -> Layer:
    """``[discard] → [wait][wait]…`` for one entry of the discard hint."""
    k = kind(hint["discard"])
    d = piece_image(view, k, HINT_W)
    arrow = _text_image("→", 22, WHITE, tile_height(HINT_W))
    cells = [_wait_cell(view, w, HINT_W) for w in hint.get("waits") or []]
    x0 = d.width + 6 + arrow.width + 6
    width = x0 + sum(c.width + 6 for c in cells)
    layer = Layer(width, max([d.height] + [c.height for c in cells]))
    layer.image(d, 0, 0)
    layer.add(arrow, d.width + 6, 0)
    x = x0
    for c in cells:
        layer.add(c, x, 0)
        x += c.width + 6
    return layer


def _text_image(text: str, size: int, color, height: int) -> Layer:
    w = int(text_advance(text, size, True)) + 2
    layer = Layer(w, height)
    layer.text((0, height / 2), text, size, fill=color, bold=True, anchor="lm")
    return layer


def render_hand(view: dict) -> bytes:
    """PNG bytes of :func:`hand_image` (RGB; width follows the content, ≥ 448 px)."""
    return to_png(hand_image(view))
