"""Every tile and card of every game as a small square picture: the bot's application emojis.

Discord shows a custom emoji at about 20–22 px tall (in a button, inside a square box, and in
message text at 22 px), so these pictures are drawn to *read at that size*, not to be faithful
miniatures of the table's tiles:

* **Mahjong tiles** (kinds 0..49: 万 筒 条, winds and dragons, flowers, 千子/白花/红花,
  福禄寿喜财) are the table's tile (the ivory ``Front`` sprite over a thin red thickness band)
  :data:`TILE_W` × :data:`SIZE` px, centred, with the face enlarged to fill the front: the
  shipped sprites cropped to their ink; for 万 the numeral is given about three fifths of the
  height and the (always the same) 萬 the rest; flowers keep their seat number and blossom
  as a thin top row above a large character; 福禄寿喜财 are a large red character over the
  gold ring of :func:`render.tiles._xi_face`.
* **字牌 cards** (kinds 50..69) are not the tall 3:1 table card squeezed: a compact card
  almost filling the square bears its character (一..十 small, 壹..拾 big) as large as
  possible.  Small cards: near-white paper, black ink, a thin dark edge; big cards: buff paper,
  dark blue ink and a thick dark blue edge, so the two read apart at 20 px even where the
  characters alone would not; 二七十 / 贰柒拾 in red, as on real cards.
* **Backs**: :data:`BACK` is :func:`render.tiles.back_image` fitted into the square;
  :data:`CARD_BACK` is a face-down 字牌 card in the compact shape of the card pictures (the
  3:1 table card would fill a third of the square and read as a thin bar at 20 px), in the
  lacquer red and pale inner frame of :func:`render.tiles.card_back_image`.

Each picture is a :data:`SIZE` × :data:`SIZE` (128 × 128) RGBA PNG, transparent around the
tile or card, 2–14 KiB (Discord's emoji limit is 256 KiB).

Names (:func:`name_of`, :data:`EMOJI_NAMES`) match ``^[A-Za-z0-9_]{2,32}$`` and are read
aloud by screen readers, so they are words: ``m1``..``m9`` (万), ``p1``..``p9`` (筒),
``s1``..``s9`` (条); ``east_wind south_wind west_wind north_wind white_dragon green_dragon
red_dragon``; the flowers by their English names (:func:`engine.tiles.kind_name`) behind
``flower_``: ``flower_spring``..``flower_winter``, ``flower_plum flower_orchid
flower_chrysanthemum flower_bamboo``; 老五对's 千子 白花 红花 ``qianzi white_flower
red_flower``; 福禄寿喜财 ``fu lu shou xi cai``; 字牌 ``zp_xiao1``..``zp_xiao10`` (一..十)
and ``zp_da1``..``zp_da10`` (壹..拾); and the backs ``tile_back`` and ``zp_back``.

The bytes are deterministic: the same on every run and every machine with the same Pillow
(the pictures are drawn from the shipped sprites and font only, colour-reduced by Pillow's
fast octree, and saved with no metadata), so a hash of them tells whether an emoji must be
uploaded again.  Drawing holds :data:`render.tiles.DRAW_LOCK`; :func:`emoji_png` is cached.

Run ``python -m render.emoji [OUT_DIR]`` to write every picture and a contact sheet of them
at 22 px (default ``/tmp/emoji``).
"""

from __future__ import annotations

import io
import math
import re
import sys
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from engine.tiles import CN_BIG, CN_NUM, FLOWER_EN, N_KINDS, TEN_M, XI_ZH, number_of, suit_of
from render import tiles as T

SIZE = 128  #: width and height of every picture, px
TILE_W = 100  #: width of a tile in the square (about 3:4, the height being SIZE), px
BAND = 9  #: height of the tile's thickness band at the bottom, px
PAD = 4  #: margin between the tile's front edge and its face, px
NAME_RE = re.compile(r"^[A-Za-z0-9_]{2,32}$")  #: what Discord accepts as an emoji name

BACK = "tile_back"  #: a face-down mahjong tile
CARD_BACK = "zp_back"  #: a face-down 字牌 card

_HONOR_NAMES = ("east_wind", "south_wind", "west_wind", "north_wind",
                "white_dragon", "green_dragon", "red_dragon")
_TEN_NAMES = ("qianzi", "white_flower", "red_flower")  # 千子 白花 红花
_XI_NAMES = ("fu", "lu", "shou", "xi", "cai")  # 福 禄 寿 喜 财


def _name(kind: int) -> str:
    s, n = suit_of(kind), number_of(kind)
    if s in "mps":
        return f"{s}{n}"
    if s == "z":
        return _HONOR_NAMES[n - 1]
    if s == "f":
        return "flower_" + FLOWER_EN[n - 1].lower()
    if s == "T":
        return _TEN_NAMES[kind - TEN_M]
    if s == "h":
        return _XI_NAMES[n - 1]
    return f"zp_xiao{n}" if s == "x" else f"zp_da{n}"


#: every emoji name: kinds 0..69 in order, then :data:`BACK` and :data:`CARD_BACK`
EMOJI_NAMES: tuple[str, ...] = tuple(_name(k) for k in range(N_KINDS)) + (BACK, CARD_BACK)
_KIND_BY_NAME = {name: k for k, name in enumerate(EMOJI_NAMES[:N_KINDS])}


def name_of(kind: int) -> str:
    """The emoji name of a tile kind (0..69), e.g. ``"m5"``, ``"red_dragon"``, ``"zp_da10"``.

    Raises ``IndexError`` for a kind outside 0..69."""
    if not 0 <= kind < N_KINDS:
        raise IndexError(kind)
    return EMOJI_NAMES[kind]


def kind_of_name(name: str) -> int | None:
    """The kind an emoji name shows (the inverse of :func:`name_of`); ``None`` for the backs
    and for a name that is not one of ours."""
    return _KIND_BY_NAME.get(name)


# --------------------------------------------------------------------------- drawing helpers
def _canvas() -> Image.Image:
    return Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))


def _body() -> Image.Image:
    """A blank face-up tile, TILE_W × SIZE: the ivory front over the red thickness band."""
    im = Image.new("RGBA", (TILE_W, SIZE), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((0, 0, TILE_W - 1, SIZE - 1), radius=14,
                                         fill=T.SIDE_COLOR, outline=T.OUTLINE, width=2)
    front = T.sprite("Front").resize((TILE_W - 4, SIZE - BAND - 2), Image.Resampling.LANCZOS)
    im.alpha_composite(front, (2, 2))
    return im


def _face_box() -> tuple[int, int, int, int]:
    """The part of :func:`_body` a face fills: ``(left, top, right, bottom)``, px."""
    return (2 + PAD, 2 + PAD, TILE_W - 2 - PAD, SIZE - BAND - PAD)


def _ink(im: Image.Image) -> Image.Image:
    """``im`` cropped to its non-transparent pixels."""
    box = im.getchannel("A").getbbox()
    return im.crop(box) if box else im


def _place(dst: Image.Image, src: Image.Image, box: tuple[int, int, int, int],
           keep_ratio: bool = True) -> None:
    """Scale ``src`` to fit ``box`` of ``dst`` (to fill it, if not ``keep_ratio``) and
    composite it there, centred."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    if keep_ratio:
        s = min(bw / src.width, bh / src.height)
        w, h = max(1, round(src.width * s)), max(1, round(src.height * s))
    else:
        w, h = bw, bh
    src = src.resize((w, h), Image.Resampling.LANCZOS)
    dst.alpha_composite(src, (x0 + (bw - w) // 2, y0 + (bh - h) // 2))


def _embolden(im: Image.Image, r: int) -> Image.Image:
    """``im`` with every stroke thickened by about ``r`` px (copies shifted around a circle)."""
    out = Image.new("RGBA", im.size, (0, 0, 0, 0))
    for i in range(8):
        a = i * math.pi / 4
        out.alpha_composite(im, (round(r * math.cos(a)), round(r * math.sin(a))))
    out.alpha_composite(im)
    return out


def _split_red(im: Image.Image) -> tuple[Image.Image, Image.Image]:
    """``im`` as two layers: its red ink, and the rest (a 万 sprite's 萬 and its numeral)."""
    r, g, _, a = im.split()
    red_mask = ImageChops.subtract(r, g).point(lambda v: 255 if v > 60 else 0)
    red, rest = im.copy(), im.copy()
    red.putalpha(ImageChops.multiply(a, red_mask))
    rest.putalpha(ImageChops.multiply(a, ImageChops.invert(red_mask)))
    return red, rest


# --------------------------------------------------------------------------- tile faces
#: in a 96 × 128 ``Man`` sprite: the box holding every numeral, and the box of 萬
_NUMERAL_BOX = (8, 0, 88, 48)
_WAN_BOX = (12, 46, 84, 121)
_NUMERAL_SHARE = 0.58  #: share of the face's height given to the numeral of a 万 tile
_FLOWER_TOP = 84  #: in a flower face (FACE_BASE): rows above this hold the number and blossom
_FLOWER_SHARE = 0.24  #: share of the face's height given to that top row

_SPRITE = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOR_SPRITE = ("Ton", "Nan", "Shaa", "Pei", None, "Hatsu", "Chun")  # 白板 is drawn


def _man_face(body: Image.Image, n: int) -> None:
    """万: the numeral enlarged (stretched a little upward, strokes thickened) above 萬."""
    red, rest = _split_red(T.sprite(f"Man{n}"))
    x0, y0, x1, y1 = _face_box()
    split = y0 + round((y1 - y0) * _NUMERAL_SHARE)
    _place(body, _embolden(rest.crop(_NUMERAL_BOX), 1), (x0, y0, x1, split), keep_ratio=False)
    _place(body, red.crop(_WAN_BOX), (x0 + 6, split + 2, x1 - 6, y1), keep_ratio=False)


def _flower_face(body: Image.Image, kind: int) -> None:
    """A flower: :func:`render.tiles.face_image`'s number and blossom as a thin top row, its
    character below as large as the front allows."""
    face = T.face_image(kind)
    top = _ink(face.crop((0, 0, face.width, _FLOWER_TOP)))
    low = _ink(face.crop((0, _FLOWER_TOP, face.width, face.height)))
    x0, y0, x1, y1 = _face_box()
    split = y0 + round((y1 - y0) * _FLOWER_SHARE)
    _place(body, top, (x0, y0, x1, split))
    _place(body, low, (x0, split + 2, x1, y1))


def _xi_face(body: Image.Image, kind: int) -> None:
    """福禄寿喜财: the red character of :func:`render.tiles._xi_face` over its gold ring, the
    character grown past the ring (haloed in the tile's ivory) so that it reads at 20 px."""
    k = 4  # drawn 4× larger, then scaled down
    x0, y0, x1, y1 = _face_box()
    w, h = (x1 - x0) * k, (y1 - y0) * k
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((0, (h - w) // 2, w - 1, (h + w) // 2), outline=T.TREASURE_COLOR + (255,),
              width=5 * k)
    T._centered_char(d, XI_ZH[number_of(kind) - 1], w / 2, h / 2, round(w * 0.95),
                     (200, 30, 30), stroke=3 * k, stroke_fill=(245, 240, 235))
    _place(body, im, (x0, y0, x1, y1), keep_ratio=False)


def _tile_picture(kind: int) -> Image.Image:
    s, n = suit_of(kind), number_of(kind)
    body = _body()
    if s == "m":
        _man_face(body, n)
    elif s in _SPRITE:
        _place(body, _ink(T.sprite(f"{_SPRITE[s]}{n}")), _face_box())
    elif s == "z" and _HONOR_SPRITE[n - 1]:
        _place(body, _ink(_embolden(T.sprite(_HONOR_SPRITE[n - 1]), 1)), _face_box())
    elif s == "f":
        _flower_face(body, kind)
    elif s == "h":
        _xi_face(body, kind)
    else:  # 白板, 千子 白花 红花: the table's face, cropped to its ink
        _place(body, _ink(T.face_image(kind)), _face_box())
    im = _canvas()
    im.alpha_composite(body, ((SIZE - TILE_W) // 2, 0))
    return im


# --------------------------------------------------------------------------- 字牌 cards
SMALL_PAPER, SMALL_INK = (252, 250, 242, 255), (25, 25, 25)
BIG_PAPER, BIG_INK = (236, 214, 160, 255), (20, 40, 110)
CARD_RED = (200, 30, 30)
CARD_W = 112  #: width of a 字牌 card picture (its height is SIZE), px


def _card_picture(kind: int) -> Image.Image:
    """A compact 字牌 card: the character as large as the card allows; small cards with a thin
    dark edge, big ones with a thick dark blue edge."""
    big = suit_of(kind) == "X"
    n = number_of(kind)
    paper, ink = (BIG_PAPER, BIG_INK) if big else (SMALL_PAPER, SMALL_INK)
    k = 4  # drawn 4× larger, then scaled down
    w = SIZE * k
    x0 = (SIZE - CARD_W) // 2 * k
    im = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((x0, 0, w - 1 - x0, w - 1), radius=16 * k, fill=paper,
                        outline=ink if big else T.OUTLINE, width=(10 if big else 4) * k)
    ch = (CN_BIG if big else CN_NUM)[n - 1]
    d.text((w / 2, w / 2), ch, font=T.font(round(w * 0.78), True),
           fill=CARD_RED if n in (2, 7, 10) else ink, anchor="mm")
    return im.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------------- backs
def _back_picture() -> Image.Image:
    im = _canvas()
    im.alpha_composite(T.back_image(TILE_W).resize((TILE_W, SIZE), Image.Resampling.LANCZOS),
                       ((SIZE - TILE_W) // 2, 0))
    return im


def _card_back_picture() -> Image.Image:
    """A face-down 字牌 card in the shape of the card pictures: the lacquer red and pale inner
    frame of :func:`render.tiles.card_back_image`."""
    k = 4  # drawn 4× larger, then scaled down
    w = SIZE * k
    x0 = (SIZE - CARD_W) // 2 * k
    im = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((x0, 0, w - 1 - x0, w - 1), radius=16 * k, fill=T.BACK_TONE,
                        outline=T.OUTLINE, width=4 * k)
    i = 14 * k
    d.rounded_rectangle((x0 + i, i, w - 1 - x0 - i, w - 1 - i), radius=8 * k,
                        outline=BIG_PAPER, width=6 * k)
    return im.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


# --------------------------------------------------------------------------- public
def emoji_image(name: str) -> Image.Image:
    """A new RGBA image, :data:`SIZE` × :data:`SIZE` px, of the emoji ``name`` (uncached).

    Raises ``KeyError`` for a name not in :data:`EMOJI_NAMES`."""
    if name not in EMOJI_NAMES:
        raise KeyError(name)
    with T.DRAW_LOCK:
        if name == BACK:
            return _back_picture()
        if name == CARD_BACK:
            return _card_back_picture()
        kind = _KIND_BY_NAME[name]
        return _card_picture(kind) if suit_of(kind) in "xX" else _tile_picture(kind)


@lru_cache(maxsize=512)
def compact_card_image(kind: int, width: int) -> Image.Image | None:
    """A 字牌 card (kinds 50..69) as the compact picture of its emoji, ``width`` px wide and
    about 1.1 × ``width`` high (RGBA, cached): what the table image draws where long cards
    would not fit the height (``render.table``).  ``kind`` ``None``: the face-down card.
    ``None`` for a kind that has no card picture."""
    name = CARD_BACK if kind is None else (name_of(kind) if suit_of(kind) in "xX" else None)
    if name is None:
        return None
    im = emoji_image(name)
    im = im.crop(im.getchannel("A").getbbox())
    return im.resize((int(width), round(im.height * width / im.width)), Image.Resampling.LANCZOS)


def build_emoji_png(name: str) -> bytes:
    """The PNG bytes of the emoji ``name`` (uncached; see :func:`emoji_png`): the picture's
    colours reduced by Pillow's fast octree (no dither; alpha kept), saved as an RGBA PNG with
    ``optimize`` and no metadata.  Raises ``KeyError`` for an unknown name."""
    im = emoji_image(name)
    im = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).convert("RGBA")
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


@lru_cache(maxsize=None)
def emoji_png(name: str) -> bytes:
    """The PNG bytes of the emoji ``name``: a 128 × 128 RGBA picture, a few KiB, the same
    bytes on every run (cached).  Raises ``KeyError`` for an unknown name."""
    return build_emoji_png(name)


def emoji_pictures() -> dict[str, bytes]:
    """Every emoji: name → PNG bytes, in :data:`EMOJI_NAMES` order."""
    return {name: emoji_png(name) for name in EMOJI_NAMES}


def contact_sheet(height: int = 22, zoom: int = 4, columns: int = 12,
                  backgrounds: tuple[tuple[int, int, int], ...] = (
                      (49, 51, 56), (78, 80, 88), (255, 255, 255))) -> Image.Image:
    """For checking legibility: every emoji scaled down to ``height`` px (as Discord shows
    it), then enlarged ``zoom`` times without smoothing, in :data:`EMOJI_NAMES` order, over
    each of ``backgrounds`` in turn (Discord's dark theme, a grey button, the light theme)."""
    cell = height * zoom + 6
    rows = -(-len(EMOJI_NAMES) // columns)
    sheet = Image.new("RGB", (columns * cell, rows * cell * len(backgrounds)))
    for b, bg in enumerate(backgrounds):
        ImageDraw.Draw(sheet).rectangle((0, b * rows * cell, sheet.width, (b + 1) * rows * cell),
                                        fill=bg)
        for i, name in enumerate(EMOJI_NAMES):
            with Image.open(io.BytesIO(emoji_png(name))) as im:
                small = im.convert("RGBA").resize((height, height), Image.Resampling.LANCZOS)
            tile = Image.new("RGBA", small.size, bg + (255,))
            tile.alpha_composite(small)
            big = tile.convert("RGB").resize((height * zoom, height * zoom), Image.Resampling.NEAREST)
            sheet.paste(big, ((i % columns) * cell + 3, (b * rows + i // columns) * cell + 3))
    return sheet


def main(argv: list[str]) -> None:
    """Write every emoji as ``NAME.png`` and ``sheet.png`` (:func:`contact_sheet`) into
    ``argv[0]`` (default ``/tmp/emoji``)."""
    out = Path(argv[0] if argv else "/tmp/emoji")
    out.mkdir(parents=True, exist_ok=True)
    for name, data in emoji_pictures().items():
        (out / f"{name}.png").write_bytes(data)
    contact_sheet().save(out / "sheet.png")
    print(f"wrote {len(EMOJI_NAMES)} emojis and sheet.png to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
