"""Pieces shared by the table and hand images: labels, colours, tile rows, melds, badges.

Views carry tiles as notation strings (``"5m"``, ``"7z"``, ``"3f"``); :func:`kind` reads
them (ints are accepted as kinds too).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from engine.tiles import parse_kind

from .canvas import Layer, text_advance
from .emoji import compact_card_image
from .tiles import (
    back_image,
    card_back_image,
    claimed_tile_image,
    kind_image_height,
    tile_image,
)

FELT = (24, 92, 62)
FELT_DARK = (16, 70, 46)
FELT_TURN = (38, 118, 80)
TURN_BORDER = (255, 200, 40)
WHITE = (255, 255, 255)
MUTED = (200, 225, 210)
GOLD = (240, 190, 40)
RED = (205, 40, 40)
BLUE = (40, 90, 190)
PURPLE = (128, 60, 200)
GREY = (90, 100, 95)



def lang_of(view: dict) -> str:
    """``"en"``, ``"zh-TW"`` or ``"zh"`` (Simplified, the default) from ``view["lang"]``."""
    lang = str(view.get("lang") or "zh")
    if lang.startswith("en"):
        return "en"
    return "zh-TW" if lang in ("zh-TW", "zh-HK") else "zh"


def label(view: dict, key: str, **kw) -> str:
    """The ``key`` label of the images (catalogue section ``img``) in the view's language,
    formatted with ``kw``."""
    from .text import t

    return t(f"img.{key}", lang_of(view), **kw)


def game_of(view: dict):
    """The facts of the view's game (``view["game"]``: an ``engine.facts.GameFacts``, which the
    table service puts in every snapshot), or ``None`` for a view without them (drawn as a
    mahjong game without wild tiles).  The images never look a game up by its id."""
    return view.get("game")


def paper_cards(view: dict) -> bool:
    """Whether the view's game plays long paper cards (``tile_style == "paper"``, 字牌),
    drawn by ``render/zipai.py``, instead of mahjong tiles."""
    info = game_of(view)
    return info is not None and info.tile_style == "paper"


def wild_label(view: dict) -> str:
    """The label beside the view's wild tiles: the game's declared ``wild_name`` (财神 for 财神麻将,
    百搭 otherwise)."""
    info = game_of(view)
    return label(view, (info.wild_name if info is not None and info.wild_name else "wild"))


def wind_text(view: dict, wind: str | None) -> str:
    """A seat wind of the view (engine notation, one of ``engine.tiles.WINDS``) as the images
    write it in the view's language (``东`` / ``東`` / ``E``); other text is returned as is."""
    if not wind:
        return ""
    from engine.tiles import WINDS

    i = WINDS.find(wind)
    return label(view, "wind_" + "ESWN"[i]) if i >= 0 and len(wind) == 1 else wind


def with_drawable_names(view: dict) -> dict:
    """``view`` with every seat's ``name`` as the images can draw it; ``view`` is not changed.

    A name keeps its characters that a shipped font draws (:func:`render.tiles.drawable_text`:
    emoji and characters of scripts no font here draws are left out, blanks collapsed).  A
    name with nothing drawable left (``"😀"``), an empty or a missing one becomes the seat's
    label ``img.seat_player`` with the seat number from 1 (``玩家2`` / ``Player 2`` for
    seat 1).  The log lines (``view["log"]``, built with the players' names) get the same
    replacements.  Returns a shallow copy with new ``seats`` (and ``log``) lists.
    """
    from .tiles import drawable_text

    seats, renamed = [], {}
    for i, seat in enumerate(view.get("seats") or []):
        raw = str(seat.get("name") or "")
        name = drawable_text(raw) or label(view, "seat_player", n=int(seat.get("seat", i)) + 1)
        if name != raw:
            seat = {**seat, "name": name}
            if raw:
                renamed[raw] = name
        seats.append(seat)
    out = {**view, "seats": seats}
    if renamed and view.get("log"):
        log = []
        for line in view["log"]:
            line = str(line)
            for raw in sorted(renamed, key=len, reverse=True):
                line = line.replace(raw, renamed[raw])
            log.append(line)
        out["log"] = log
    return out


@lru_cache(maxsize=256)
def _kind_cached(text: str) -> int:
    return parse_kind(text)


def kind(tile: str | int) -> int:
    """The kind of a view tile (notation string or int).  ``TileParseError`` if unreadable."""
    if isinstance(tile, int):
        return tile
    return _kind_cached(str(tile))


def tile_badge(view: dict, k: int) -> str | None:
    """``"wild"`` / ``"treasure"`` / ``"marked"`` when kind ``k`` is the view's wild kind,
    treasure (宝牌) or a marked kind (金湖 贼 tiles)."""
    wild = view.get("wild") or {}
    if any(kind(w) == k for w in wild.get("kinds") or ()):
        return "wild"
    if wild.get("stand_in") and wild.get("stands_for") and kind(wild["stand_in"]) == k:
        return f"as:{kind(wild['stands_for'])}"  # 财神麻将: 白板 plays as the 财神's kind
    treasure = view.get("treasure")
    if treasure is not None and kind(treasure) == k:
        return "treasure"
    marked = view.get("marked") or {}
    if any(kind(m) == k for m in marked.get("kinds") or ()):
        return "marked"
    return None


def sort_tiles(view: dict, tiles) -> list:
    """Concealed tiles in display order: wild tiles first (财神 sit at the left end of the
    hand, ``caishen.md``), then by kind."""
    return sorted(tiles, key=lambda t: (tile_badge(view, kind(t)) != "wild", kind(t)))


# --------------------------------------------------------------------------- groups
@dataclass
class Group:
    """An unbreakable run of images laid side by side, bottom-aligned."""

    images: list[Image.Image] = field(default_factory=list)
    gap: int = 1
    tags: list | None = None  #: per image, what it shows (see :meth:`render.canvas.Layer.image`)

    @property
    def width(self) -> int:
        if not self.images:
            return 0
        return sum(im.width for im in self.images) + self.gap * (len(self.images) - 1)

    @property
    def height(self) -> int:
        return max((im.height for im in self.images), default=0)

    def place(self, layer: Layer, x: float, y: float, height: int | None = None) -> None:
        """Queue the group with its top-left at ``(x, y)``, bottom-aligned in ``height``."""
        h = height or self.height
        for i, im in enumerate(self.images):
            layer.image(im, x, y + h - im.height, self.tags[i] if self.tags else None)
            x += im.width + self.gap


_VIEW_BADGE = object()


def piece_image(view: dict, k: int, width: int, badge: object = _VIEW_BADGE) -> Image.Image:
    """A face-up piece of the view's game, ``width`` px wide: a tile, or a paper card in a
    game of paper cards (:func:`paper_cards`); with the view's badge for ``k`` (wild,
    宝牌, 贼 …, :func:`tile_badge`) unless ``badge`` is given (``None``: none)."""
    mark = tile_badge(view, k) if badge is _VIEW_BADGE else badge
    if compact_cards(view):
        card = compact_card_image(k, width)
        if card is not None:
            return card
    return tile_image(k, width, mark if isinstance(mark, str) else None, paper_cards(view))


def compact_cards(view: dict) -> bool:
    """Whether the view draws its paper cards compact (``view["card_shape"] == "compact"``,
    set by the table image: :func:`render.emoji.compact_card_image`) rather than long."""
    return view.get("card_shape") == "compact" and paper_cards(view)


def face_down_image(view: dict, width: int) -> Image.Image:
    """A face-down piece of the view's game ``width`` px wide: a tile's back, a long card's,
    or a compact card's (:func:`compact_cards`)."""
    if compact_cards(view):
        return compact_card_image(None, width)
    return (card_back_image if paper_cards(view) else back_image)(width)


def tile_tag(role: str, seat: int | None, k: int | None, mark: str | None = None) -> tuple:
    """What a placed tile shows, as the table image tags it: ``(role, seat, kind, mark)`` —
    ``role`` one of ``"hand"``, ``"drawn"``, ``"back"``, ``"meld"``, ``"flower"``,
    ``"pond"``, ``"last"``, ``"special"``, ``"win"`` (the result's winning tile); ``kind``
    ``None`` for a face-down tile; ``mark`` ``"claimed"`` for a pond tile another seat took
    (drawn dimmed) or a meld's claimed tile (sideways), ``"last"`` for the latest discard,
    else ``None``."""
    return (role, seat, k, mark)


def tiles_group(view: dict, tiles, width: int, gap: int = 1, role: tuple | None = None) -> Group:
    """Face-up tiles (with wild/treasure badges) as one group; ``role`` ``(role, seat)``
    tags them (:func:`tile_tag`)."""
    kinds = [kind(t) for t in tiles]
    tags = [tile_tag(role[0], role[1], k) for k in kinds] if role else None
    return Group([piece_image(view, k, width) for k in kinds], gap, tags)


@dataclass
class Column:
    """Cards stacked top to bottom as players lay a 字牌 group: each card is drawn over the one
    above it, ``step`` px lower, so every card shows its top end (its character) and the last
    one shows whole.  Placed like a :class:`Group` (bottom-aligned in a row's height)."""

    images: list[Image.Image] = field(default_factory=list)
    step: int = 0
    tags: list | None = None

    @property
    def width(self) -> int:
        return max((im.width for im in self.images), default=0)

    @property
    def height(self) -> int:
        if not self.images:
            return 0
        return max(i * self.step + im.height for i, im in enumerate(self.images))

    def place(self, layer: Layer, x: float, y: float, height: int | None = None) -> None:
        """Queue the column with its top-left at ``(x, y)``, bottom-aligned in ``height``."""
        y += (height or self.height) - self.height
        for i, im in enumerate(self.images):
            layer.image(im, x, y + i * self.step, self.tags[i] if self.tags else None)


def column_step(width: int, height: int | None = None) -> int:
    """How far each card of a :class:`Column` of cards ``width`` px wide lies below the one
    before: a long card's top end with its character (one card width) stays in sight; a
    compact card (``height`` px high, its character in the middle) shows all but its lowest
    2 px."""
    return width if height is None else max(width, height - 2)


def backs_group(view: dict, n: int, width: int, gap: int = 1, seat: int | None = None) -> Group:
    """``n`` face-down pieces of the view's game ``width`` px wide (:func:`face_down_image`),
    tagged ``"back"`` of ``seat``."""
    n = max(0, n)
    return Group([face_down_image(view, width)] * n, gap, [tile_tag("back", seat, None)] * n)


def meld_group(view: dict, meld: dict, width: int, seat: int | None = None) -> Group | Column:
    """One meld of ``seat``: the claimed tile (``claimed_index``) lies sideways; a concealed
    kong shows its two end tiles face down.  Tiles missing from the view (``None``) are drawn
    as backs.  In a game of paper cards (:func:`paper_cards`) the group is a :class:`Column`
    of upright cards, none sideways, face-down ones as card backs."""
    tiles = list(meld.get("tiles") or [])
    ci = meld.get("claimed_index")
    if paper_cards(view):
        imgs = [face_down_image(view, width) if t is None else piece_image(view, kind(t), width) for t in tiles]
        tags = [tile_tag("back", seat, None) if t is None else
                tile_tag("meld", seat, kind(t), "claimed" if i == ci else None) for i, t in enumerate(tiles)]
        return Column(imgs, column_step(width, imgs[0].height if compact_cards(view) and imgs else None), tags)
    concealed = bool(meld.get("concealed"))
    if seat is not None and meld.get("from_seat") == seat:
        ci = None  # made with a tile of its own (老五对's pair of a drawn tile): none lies sideways
    imgs, tags = [], []
    for i, t in enumerate(tiles):
        if t is None or (concealed and len(tiles) == 4 and i in (0, 3)):
            imgs.append(back_image(width))
            tags.append(tile_tag("back", seat, None))
            continue
        k = kind(t)
        badge = tile_badge(view, k)
        if ci is not None and i == ci and not concealed:
            imgs.append(claimed_tile_image(k, width, badge, paper_cards(view)))
            tags.append(tile_tag("meld", seat, k, "claimed"))
        else:
            imgs.append(piece_image(view, k, width, badge))
            tags.append(tile_tag("meld", seat, k))
    return Group(imgs, 1, tags)


def flow(groups: list, max_width: int, gap: int, row_gap: int = 4
         ) -> list[list[tuple[int, Group]]]:
    """Lay groups left to right, wrapping before a group that would pass ``max_width``.

    Returns rows of ``(x, group)``.
    """
    rows: list[list[tuple[int, Group]]] = [[]]
    x = 0
    for g in groups:
        if not g.images:
            continue
        if rows[-1] and x + g.width > max_width:
            rows.append([])
            x = 0
        rows[-1].append((x, g))
        x += g.width + gap
    return [r for r in rows if r]


def rows_size(rows: list[list[tuple[int, Group]]], row_gap: int = 4) -> tuple[int, int]:
    w = max((x + g.width for r in rows for x, g in r), default=0)
    h = sum(max(g.height for _, g in r) for r in rows) + row_gap * max(0, len(rows) - 1)
    return w, h


def place_rows(layer: Layer, rows, x0: int, y0: int, row_gap: int = 4) -> int:
    """Queue rows from :func:`flow` at ``(x0, y0)``; return the y below the last row."""
    y = y0
    for r in rows:
        h = max(g.height for _, g in r)
        for x, g in r:
            g.place(layer, x0 + x, y, h)
        y += h + row_gap
    return y - row_gap if rows else y0


def split_group(g: Group, per_row: int) -> list[Group]:
    """Cut a group into chunks of ``per_row`` images (for long concealed hands)."""
    return [Group(g.images[i:i + per_row], g.gap, g.tags[i:i + per_row] if g.tags else None)
            for i in range(0, len(g.images), per_row)]


# --------------------------------------------------------------------------- badges, dice
def pill(layer: Layer, x: float, y: float, text: str, size: int, bg, fg=WHITE,
         bold: bool = True, pad: int | None = None) -> float:
    """A rounded label at ``(x, y)`` (top-left); return its width."""
    pad = pad if pad is not None else max(3, size // 3)
    w = pill_width(text, size, bold, pad)
    h = size + pad + 2
    layer.rrect((x, y, x + w, y + h), radius=h // 2, fill=bg)
    layer.text((x + pad, y + h / 2), text, size, fill=fg, bold=bold, anchor="lm")
    return w


def pill_width(text: str, size: int, bold: bool = True, pad: int | None = None) -> float:
    pad = pad if pad is not None else max(3, size // 3)
    return text_advance(text, size, bold) + 2 * pad


def pill_height(size: int, pad: int | None = None) -> int:
    pad = pad if pad is not None else max(3, size // 3)
    return size + pad + 2


_PIPS = {
    1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


@lru_cache(maxsize=16)
def die_image(size: int, value: int) -> Image.Image:
    """One die face (1..6) of ``size`` px, RGBA, cached; 1 and 4 pips red as on Chinese dice."""
    from PIL import ImageDraw

    s = 4 * size
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 5, fill=(250, 248, 240),
                        outline=(60, 60, 60), width=4)
    color = RED if value in (1, 4) else (30, 30, 30)
    r = s * (0.13 if value == 1 else 0.09)
    for px, py in _PIPS.get(int(value), []):
        cx, cy = px * s, py * s
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
    return im.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image | None:
    """The 256-colour palette every PNG is mapped onto: the shipped
    ``data/tiles/palette.png`` (built by ``python -m render.build_palette``, which fits it to
    the renderer's own output; a test checks it is up to date), so the first image after a
    start costs no fitting (about 0.8 s).  ``None`` when the file is missing (each image then
    gets a palette of its own, which is slower)."""
    from .tiles import TILE_DIR

    path = TILE_DIR / "palette.png"
    if path.is_file():
        with Image.open(path) as im:
            im.load()
            return im.copy()
    return None


def to_png(img: Image.Image, palette: bool = True) -> bytes:
    """Encode an image as PNG bytes.

    With ``palette`` (default) the image is mapped onto :func:`shared_palette` (no dither):
    about a third of the bytes of an RGB PNG and several times faster to encode.  zlib level 6:
    about 15 % fewer bytes than level 1 for 2–6 ms more (in a worker thread), which pays for
    the table's larger tiles (``bench/bench_table_bytes.py``); level 9 saves 3 % more for
    15–30 ms.
    """
    if img.mode != "RGB":
        img = img.convert("RGB")
    if palette:
        shared = shared_palette()
        img = (img.quantize(palette=shared, dither=Image.Dither.NONE) if shared is not None
               else img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def tile_h(k: int, width: int, paper: bool = False) -> int:
    return kind_image_height(k, width, paper)
