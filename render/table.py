"""The public (or per-seat) table image: every seat's hand, melds, flowers and discards.

Laid out for where Discord shows it — about 450 px wide on a laptop, 300 px on a phone —
``WIDTH`` px wide, one full-width band per seat, stacked in turn order so that play runs down
the image: the seats after the bottom seat (下家, 对家, 上家), then a line of table information
(name, hand, dice, wall, 宝牌/wild/贼 tiles, the last discard, whose turn), then the bottom
seat: the viewer's (``view["viewer"]``, else seat 0), then the result box.  Each band has the
seat's name, score and marks in a column at the left, its tiles in a row and its pond beside
them when it fits, else under them.

Sizes, so that every tile a player reads is readable (at least :data:`READABLE_PX` wide as
shown, checked on the drawn image by ``tests/render/test_render_legible.py``):

* every face-up tile — hands shown, melds, flowers, ponds, the 宝牌/wild/贼 tiles — is at
  least 24 px wide (15 px on a laptop); the seat on turn and the winners are drawn larger
  (:data:`BIG`), the viewer's own hand larger still (:data:`OWN`, 14 px on a phone);
* the backs of a hidden hand, which nobody reads (their number is what counts), are narrow:
  that pays for the larger faces, so the image is no taller than before;
* on a phone only the information line is meant to be read: whose turn it is at
  :data:`TURN_SIZE` px and the last discard :data:`LAST_W` px wide (12 and 15 px at 300 px);
  the own hand is read on the panel's tile buttons.
* 字牌's cards are drawn compact (the character as large as the card allows, as on the
  tile buttons): long cards at a readable width would make four seats' groups taller than
  the image is wide;
* the table log is in the message's text, readable at any width, not in the image.

A discard another seat claimed stays in its pond dimmed, or is left out, as the game says
(``GameFacts.claimed_discards``).  Every tile is placed with a tag (``render.common.tile_tag``),
so a test can record where each one lands (``Layer.render(record=…)``).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from engine.outcome import outcome

from .canvas import Layer, fit_text, text_advance
from .common import (
    piece_image,
    FELT,
    FELT_DARK,
    FELT_TURN,
    GOLD,
    BLUE,
    GREY,
    MUTED,
    PURPLE,
    RED,
    TURN_BORDER,
    WHITE,
    Group,
    backs_group,
    die_image,
    face_down_image,
    flow,
    game_of,
    kind,
    lang_of,
    label,
    paper_cards,
    wild_label,
    with_drawable_names,
    meld_group,
    pill,
    pill_height,
    pill_width,
    place_rows,
    shared_palette,
    rows_size,
    sort_tiles,
    split_group,
    tile_badge,
    tile_tag,
    tiles_group,
    to_png,
    wind_text,
)
from .result import result_panel
from .emoji import compact_card_image
from .tiles import back_image, claimed_discard_image, drawable_text, tile_image
from . import zipai

WIDTH = 720  #: table image width in px (Discord shows it about 450 px wide)
SHOWN_WIDTH = 450  #: the width Discord shows the image at on a laptop, for :func:`shown_px`
PHONE_WIDTH = 300  #: … and on a phone
READABLE_PX = 14  #: the narrowest a tile may be shown and still be read, px
MARGIN = 5
GAP = 5
PAD = 6
INFO_W = 136  #: the name column at the left of each seat's band
NAME_SIZE, PILL_SIZE, SCORE_SIZE, SMALL_TEXT = 20, 14, 17, 15


@dataclass(frozen=True)
class Style:
    """Tile widths in px of one seat's band: face-up hand tiles, face-down backs, melds,
    discards and flowers; and for paper cards (字牌), the hand and group cards and the
    discarded cards."""

    name: str
    hand_w: int
    back_w: int
    meld_w: int
    disc_w: int
    flower_w: int
    card_w: int
    card_disc_w: int

    def widths(self, paper: bool) -> tuple[int, int, int, int]:
        """``(hand, back, meld, discard)`` widths for tiles, or for paper cards."""
        if paper:
            return self.card_w, self.card_w, self.card_w, self.card_disc_w
        return self.hand_w, self.back_w, self.meld_w, self.disc_w


#: the viewer's own seat (the local table's image): face-up tiles and cards 34 px wide, 14 px
#: even on a phone (300 px)
OWN = Style("own", hand_w=34, back_w=18, meld_w=30, disc_w=26, flower_w=24, card_w=34, card_disc_w=26)
#: the seat on turn and the winners: hand tiles 30 px wide (19 px on a laptop), melds 30,
#: discards 26
BIG = Style("big", hand_w=30, back_w=18, meld_w=30, disc_w=26, flower_w=24, card_w=28, card_disc_w=26)
#: every other seat: every face-up tile 24 px wide (15 px on a laptop); the backs of a hidden
#: hand, which nobody reads, 14 px
SMALL = Style("small", hand_w=24, back_w=14, meld_w=24, disc_w=24, flower_w=24, card_w=24, card_disc_w=24)
STYLES = (OWN, BIG, SMALL)
#: kept for callers that place seats by compass point (see :func:`seat_positions`)
POSITIONS = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
}


def shown_px(px: float, image_width: int = WIDTH) -> float:
    """What ``px`` image pixels measure when Discord shows the image :data:`SHOWN_WIDTH` wide."""
    return px * SHOWN_WIDTH / image_width


def _truncate(text: str, size: int, max_w: float, bold: bool = True) -> str:
    """``text`` at ``size`` cut with … to fit ``max_w`` px."""
    return fit_text(text, size, max_w, bold, least=size)[0]

def _wind_disc(layer: Layer, x: float, y: float, size: int, text: str, dealer: bool) -> float:
    layer.ellipse((x, y, x + size, y + size), fill=RED if dealer else (235, 230, 215))
    layer.text((x + size / 2, y + size / 2), text, int(size * 0.62),
               fill=WHITE if dealer else (30, 30, 30), bold=True, anchor="mm")
    return size


def _info(view: dict, seat: dict, width: int) -> Layer:
    """The name column: wind and name; score and the 庄/听/加倍/托管 marks under them."""
    marks = []
    if seat.get("is_dealer"):
        marks.append((label(view, "dealer"), RED))
    if seat.get("ting"):
        marks.append((label(view, "ting"), BLUE))
    if int(seat.get("doubles") or 1) > 1:  # the 加倍 multiplier (1, 2, 4, …)
        marks.append((label(view, "double", n=int(seat["doubles"])), PURPLE))
    if seat.get("auto"):
        marks.append((label(view, "auto"), GREY))
    ph = pill_height(PILL_SIZE)
    line_h = 26
    ops: list[tuple[float, float, str, object]] = []  # marks placed as (x, y, text, colour)
    score = label(view, "score", n=seat.get("score", 0))
    x = text_advance(score, SCORE_SIZE, True) + 8
    y = line_h + 2
    for text, colour in marks:
        w = pill_width(text, PILL_SIZE)
        if x > 0 and x + w > width:
            x, y = 0, y + ph + 3
        ops.append((x, y, text, colour))
        x += w + 4
    layer = Layer(width, y + max(ph, 22))
    x = 0
    wind = wind_text(view, seat.get("wind"))
    if wind:
        x += _wind_disc(layer, 0, line_h / 2 - 11, 22, wind, bool(seat.get("is_dealer"))) + 6
    name = _truncate(str(seat.get("name", "?")), NAME_SIZE, width - x)
    layer.text((x, line_h / 2), name, NAME_SIZE, fill=WHITE, bold=True, anchor="lm")
    layer.text((0, line_h + 2 + ph / 2), score, SCORE_SIZE, fill=GOLD, bold=True, anchor="lm")
    for mx, my, text, colour in ops:
        pill(layer, mx, my, text, PILL_SIZE, colour)
    return layer


def _hand_groups(view: dict, seat: dict, style: Style, inner_w: int) -> list:
    """Concealed tiles (face up when public, else backs), the drawn tile apart, the melds
    (字牌: columns of cards), the flowers."""
    paper = paper_cards(view)
    hand_w, back_w, meld_w, _ = style.widths(paper)
    me = view.get("me") or {}
    concealed = seat.get("concealed")
    drawn = seat.get("drawn")
    if concealed is None and me.get("seat") == seat.get("seat") and me.get("hand") is not None:
        concealed, drawn = me.get("hand"), me.get("drawn")
    s = seat.get("seat")
    if concealed is not None:
        w = hand_w
        main = tiles_group(view, sort_tiles(view, concealed), w, role=("hand", s))
    else:
        w = back_w
        main = backs_group(view, int(seat.get("hand_count") or 0), w, seat=s)
    if drawn:
        extra = tiles_group(view, [drawn], hand_w, role=("drawn", s))
    elif seat.get("has_drawn"):
        extra = backs_group(view, 1, w, seat=s)
    else:
        extra = Group()
    groups: list = []
    per_row = max(1, (inner_w + 1) // (w + 1))
    groups += split_group(main, per_row) if main.width > inner_w else [main]
    if extra.images:
        groups.append(extra)
    for m in seat.get("melds") or []:
        groups.append(meld_group(view, m, meld_w, s))
    flowers = tiles_group(view, seat.get("flowers") or [], style.flower_w, role=("flower", s))
    if flowers.images:
        groups.append(flowers)
    return groups


def _discards(view: dict, seat: dict, style: Style, max_w: int) -> Layer:
    """The seat's discards (its pond) in rows of as many as fit ``max_w`` (at least one row
    high), in the order discarded.  A discard another seat claimed (``claimed_discards``)
    shows as the game says (``GameFacts.claimed_discards``): in its place, dimmed (the same
    tile lies sideways in the claimer's meld), or not at all.  The latest discard, while it
    may still be claimed, is framed."""
    w = style.widths(paper_cards(view))[3]
    tiles = list(seat.get("discards") or [])
    claimed = set(seat.get("claimed_discards") or ())
    game = game_of(view)
    if game is not None and game.claimed_discards == "moved":
        tiles, claimed = [t for i, t in enumerate(tiles) if i not in claimed], set()
    th = piece_image(view, kind(tiles[0]), w).height if tiles else 0
    gap = 1
    per_row = max(1, (max_w + gap) // (w + gap))
    n_rows = max(1, -(-len(tiles) // per_row))
    cols = min(len(tiles), per_row)
    layer = Layer(max(0, cols * (w + gap) - gap), n_rows * (th + 2) - 2)
    last = view.get("last_discard") or {}
    highlight = last.get("seat") == seat.get("seat") and view.get("phase") != "over"
    paper = paper_cards(view)
    for i, t in enumerate(tiles):
        k = kind(t)
        x, y = (i % per_row) * (w + gap), (i // per_row) * (th + 2)
        if i in claimed:
            im, mark = claimed_discard_image(k, w, tile_badge(view, k), paper), "claimed"
        else:
            im, mark = piece_image(view, k, w), ("last" if highlight and i == len(tiles) - 1 else None)
        layer.image(im, x, y, tile_tag("pond", seat.get("seat"), k, mark))
        if highlight and i == len(tiles) - 1:
            layer.rrect((x - 1, y - 1, x + w, y + th), radius=max(3, w // 7),
                        outline=(255, 140, 0), width=2)
    return layer


def seat_panel(view: dict, seat: dict, width: int, style: Style, frame=None) -> Layer:
    """One seat's band ``width`` px wide in ``style``: the name column, the tiles, the
    discards (beside the tiles when the tiles take one line and both fit in it, else under
    them).  ``frame`` is the
    band's outline colour (the seat on turn, a winner), ``None`` for none."""
    inner = width - 2 * PAD
    info = _info(view, seat, INFO_W)
    area = inner - INFO_W - 10
    paper = paper_cards(view)
    rows = flow(_hand_groups(view, seat, style, area), area, gap=10 if paper else 8)
    hand_w, hand_h = rows_size(rows)
    hand_h = max(hand_h, face_down_image(view, style.widths(paper)[1]).height)
    disc = _discards(view, seat, style, area)
    beside = len(rows) <= 1 and hand_w + 16 + disc.width <= area
    content_h = max(hand_h, disc.height) if beside else hand_h + 4 + disc.height
    h = max(info.height, content_h) + 2 * PAD
    layer = Layer(width, h)
    layer.rrect((0, 0, width - 1, h - 1), radius=10, fill=FELT_TURN if frame == TURN_BORDER else FELT_DARK,
                outline=frame, width=3 if frame else 0)
    layer.add(info, PAD, PAD)
    x0 = PAD + INFO_W + 10
    place_rows(layer, rows, x0, PAD + hand_h - rows_size(rows)[1])
    if beside:
        layer.add(disc, x0 + hand_w + 16, PAD + hand_h - disc.height)
    else:
        layer.add(disc, x0, PAD + hand_h + 4)
    return layer


def _dice(layer: Layer, x: float, y: float, dice, size: int = 24) -> float:
    for i, v in enumerate(dice or []):
        layer.image(die_image(size, int(v)), x + i * (size + 4), y)
    return len(dice or []) * (size + 4)


#: the tiles of the information line: the 宝牌 and wild tiles (readable on a laptop), the last
#: discard (readable on a phone: 15 px at 300 px)
SPECIAL_W, LAST_W = 26, 36
#: its text: the turn readable on a phone (12 px at 300 px), the rest on a laptop
TURN_SIZE, INFO_SIZE = 28, 20


def _special_tiles(view: dict) -> list[tuple[str, list[tuple[Image.Image, tuple]]]]:
    """(label, [(tile image, tag)]) for the 宝牌 and the wild indicator/kinds."""
    out = []
    w = SPECIAL_W
    if view.get("treasure") is not None:
        k = kind(view["treasure"])
        out.append((label(view, "treasure"), [(piece_image(view, k, w, "treasure"), tile_tag("special", None, k))]))
    wild = view.get("wild")
    if wild:
        name = wild_label(view)
        imgs = []
        if wild.get("indicator"):
            k = kind(wild["indicator"])
            imgs.append((piece_image(view, k, w, None), tile_tag("special", None, k)))
        imgs += [(piece_image(view, kind(k), w, "wild"), tile_tag("special", None, kind(k)))
                 for k in wild.get("kinds") or []]
        out.append((name, imgs))
    marked = view.get("marked") or {}
    if marked.get("kinds"):  # 金湖's 贼 tiles, named in the game's own words
        from .text.catalogue import tv

        game = game_of(view)
        name = tv(game, "marked", lang_of(view)) if game is not None else str(marked.get("label") or "")
        out.append((name, [(piece_image(view, kind(k), w, "marked"), tile_tag("special", None, kind(k)))
                           for k in marked["kinds"]]))
    return out


def table_title(view: dict) -> str:
    """The table's name as the image writes it: the view's ``table_name`` (the channel), else
    the game's name."""
    from .text.catalogue import game_name

    name = drawable_text(str(view.get("table_name") or ""))
    return name or game_name(view.get("game"), view.get("lang"))


def _centre_items(view: dict) -> list[tuple[str, object]]:
    """The table information line as (kind, payload) items."""
    seats = view.get("seats") or []
    names = {s.get("seat"): s.get("name", "?") for s in seats}
    head = " · ".join(x for x in (table_title(view), label(view, "hand_no", n=view.get("hand_no", 1))) if x)
    items: list[tuple[str, object]] = [("text", head)]
    if view.get("dice"):
        items.append(("dice", view.get("dice") or []))
    items.append(("text", label(view, "wall", n=view.get("wall_remaining", 0))))
    for name, imgs in _special_tiles(view):
        items.append(("tiles", (name, imgs)))
    last = view.get("last_discard")
    if last and last.get("tile") is not None and view.get("phase") != "over":
        name = zipai.shown_label(view) if paper_cards(view) else label(view, "last")
        k = kind(last["tile"])
        items.append(("tiles", (name, [(piece_image(view, k, LAST_W, None), tile_tag("last", last.get("seat"), k))])))
    if view.get("phase") == "over":
        items.append(("turn", label(view, "phase_over")))
    elif view.get("turn") is not None:
        t = label(view, "turn", name=_truncate(str(names.get(view["turn"], "?")), TURN_SIZE, 300))
        if view.get("phase") == "claim":
            t += " · " + label(view, "phase_claim")
        items.append(("turn", t))
    elif view.get("phase") == "claim":
        items.append(("turn", label(view, "phase_claim")))
    return items


def _item_size(item) -> tuple[int, int]:
    k, p = item
    if k in ("text", "turn"):
        return int(text_advance(p, INFO_SIZE if k == "text" else TURN_SIZE, True)), 32
    if k == "dice":
        return len(p) * 28, 24
    name, imgs = p
    return int(text_advance(name, INFO_SIZE, True)) + 6 + sum(i.width + 2 for i, _ in imgs), \
        max(i.height for i, _ in imgs)


def _draw_item(layer: Layer, x: float, cy: float, item) -> None:
    k, p = item
    if k == "text":
        layer.text((x, cy), p, INFO_SIZE, fill=MUTED, bold=True, anchor="lm")
    elif k == "turn":
        layer.text((x, cy), p, TURN_SIZE, fill=TURN_BORDER, bold=True, anchor="lm", tag=("turn",))
    elif k == "dice":
        _dice(layer, x, cy - 12, p)
    else:
        name, imgs = p
        x += layer.text((x, cy), name, INFO_SIZE, fill=WHITE, bold=True, anchor="lm") + 6
        for i, tag in imgs:
            layer.image(i, x, cy - i.height / 2, tag)
            x += i.width + 2


def centre_panel(view: dict, width: int) -> Layer:
    """Table information: name, hand number, dice, wall count, 宝牌/wild, last discard (字牌:
    the shown card), turn — in centred lines ``width`` px wide."""
    items = _centre_items(view)
    sizes = [_item_size(it) for it in items]
    lines: list[list[int]] = [[]]
    lw = 0
    for i, (w, _) in enumerate(sizes):
        if lines[-1] and lw + w + 18 > width - 2 * PAD:
            lines.append([])
            lw = 0
        lines[-1].append(i)
        lw += w + 18
    line_hs = [max(sizes[i][1] for i in ln) for ln in lines]
    h = sum(line_hs) + 6 * (len(lines) - 1) + 2 * 6
    layer = Layer(width, h)
    layer.rrect((0, 0, width - 1, h - 1), radius=10, fill=FELT)
    y = 6
    for ln, lh in zip(lines, line_hs, strict=True):
        lw = sum(sizes[i][0] for i in ln) + 18 * (len(ln) - 1)
        x = (width - lw) / 2
        for i in ln:
            _draw_item(layer, x, y + lh / 2, items[i])
            x += sizes[i][0] + 18
        y += lh + 6
    return layer


def seat_positions(view: dict) -> dict[int, str]:
    """Seat number → ``"bottom" | "right" | "top" | "left"`` for this view.

    The viewer (else seat 0) is at the bottom; the next seat in turn order (下家) at the right,
    the seat across at the top, the previous seat (上家) at the left; with two seats the other
    seat is at the top, with three the 上家 is at the left.
    """
    seats = sorted(s.get("seat", i) for i, s in enumerate(view.get("seats") or []))
    n = len(seats)
    bottom = _bottom_seat(view, seats)
    names = POSITIONS.get(n, POSITIONS[4])
    return {s: names[(seats.index(s) - seats.index(bottom)) % n] for s in seats}


def _bottom_seat(view: dict, seats: list[int]) -> int:
    bottom = view.get("viewer")
    return bottom if bottom in seats else (seats[0] if seats else 0)


def band_order(view: dict) -> list[int]:
    """The seats from the top band down: the seats after the bottom seat in turn order
    (下家 first), the bottom seat (the viewer, else seat 0) last."""
    seats = sorted(s.get("seat", i) for i, s in enumerate(view.get("seats") or []))
    if not seats:
        return []
    b = seats.index(_bottom_seat(view, seats))
    return seats[b + 1:] + seats[:b] + [seats[b]]


def winners(view: dict) -> list[int]:
    """The seats that won the view's finished hand (none before it is over or after a draw)."""
    res = view.get("result")
    if not res or view.get("phase") not in ("over", "between"):
        return []
    return [w["seat"] for w in outcome(res)["wins"]]


def big_seats(view: dict) -> set[int]:
    """The seats drawn with :data:`BIG` tiles: the seat on turn — during a claim window,
    when the public view names nobody, the seat whose discard is claimed — the winners of a
    finished hand, and the viewer."""
    out = set(winners(view))
    phase = view.get("phase")
    if phase not in ("over", "between", "lobby"):
        if view.get("turn") is not None:
            out.add(view["turn"])
        elif (view.get("last_discard") or {}).get("seat") is not None:
            out.add(view["last_discard"]["seat"])
    if view.get("viewer") is not None:
        out.add(view["viewer"])
    return out


@dataclass
class TableLayout:
    """The table image's display list: ``root`` (``WIDTH`` px wide) and where each seat's band
    lies in it: seat → ``(x, y, band layer, style)``."""

    root: Layer
    seats: dict[int, tuple[int, int, Layer, Style]]


def table_layout(view: dict) -> TableLayout:
    """Lay the table out (see the module docstring) without drawing it."""
    view = with_drawable_names(view)
    if paper_cards(view):  # paper cards (字牌), drawn compact: render/zipai.py
        view = {**zipai.adapt(view), "card_shape": "compact"}
    by_seat = {s.get("seat", i): s for i, s in enumerate(view.get("seats") or [])}
    inner_w = WIDTH - 2 * MARGIN
    big = big_seats(view)
    won = set(winners(view))
    on_turn = view.get("turn") if view.get("phase") not in ("over", "between") else None
    blocks: list[tuple[Layer, int | None, Style | None]] = []
    order = band_order(view)
    for i, s in enumerate(order):
        if i == len(order) - 1 or not order:
            blocks.append((centre_panel(view, inner_w), None, None))
        style = OWN if s == view.get("viewer") else BIG if s in big else SMALL
        frame = GOLD if s in won else (TURN_BORDER if s == on_turn else None)
        blocks.append((seat_panel(view, by_seat[s], inner_w, style, frame), s, style))
    if not order:
        blocks.append((centre_panel(view, inner_w), None, None))
    res = result_panel(view, inner_w)
    if res is not None:
        blocks.append((res, None, None))
    h = 2 * MARGIN + sum(b.height for b, _, _ in blocks) + GAP * (len(blocks) - 1)
    # never taller than wide: a table that outgrows the width (many rows of tiles, several
    # winners) gets side margins rather than being shown narrower than it is tall
    width = max(WIDTH, h) if view.get("viewer") is None else WIDTH
    root = Layer(width, h)
    placed: dict[int, tuple[int, int, Layer, Style]] = {}
    x, y = (width - inner_w) // 2, MARGIN
    for b, s, style in blocks:
        root.add(b, x, y)
        if s is not None:
            placed[s] = (x, y, b, style)
        y += b.height + GAP
    return TableLayout(root, placed)


def table_image(view: dict) -> Image.Image:
    """The table as an RGB :class:`PIL.Image.Image` ``WIDTH`` px wide (see module docstring).

    ``view`` is the engine's view dict (keys: seats, dealer, turn, phase, wall_remaining,
    dice, treasure, wild, last_discard, viewer, result, log, me, lang, table_name, hand_no).
    Players' names are drawn as :func:`render.common.with_drawable_names` makes them.
    Raises ``engine.tiles.TileParseError`` for an unreadable tile string.
    """
    return table_layout(view).root.render(FELT)


def warm_up() -> None:
    """Load the PNG palette and draw the pieces of every kind at the table image's sizes
    (``render.table``'s styles) ahead of the first image (call it once at start-up, e.g. in a
    thread), so the first answer of a new process is drawn as fast as the others."""
    shared_palette()
    for w in sorted({w for st in STYLES for w in (st.hand_w, st.meld_w, st.disc_w, st.flower_w)}
                    | {SPECIAL_W, LAST_W}):
        for k in range(50):
            tile_image(k, w, None)
    for w in sorted({w for st in STYLES for w in (st.card_w, st.card_disc_w)} | {LAST_W}):
        for k in [None, *range(50, 70)]:
            compact_card_image(k, w)
    for w in sorted({st.back_w for st in STYLES}):
        back_image(w)


def render_table(view: dict) -> bytes:
    """PNG bytes of :func:`table_image` (``WIDTH`` px wide, 256-colour palette; typically
    30–60 kB)."""
    return to_png(table_image(view))


__all__ = ["warm_up", "render_table", "table_image", "table_layout", "TableLayout", "seat_positions", "band_order",
           "big_seats", "seat_panel", "centre_panel", "result_panel", "shown_px", "BIG", "SMALL", "WIDTH"]
