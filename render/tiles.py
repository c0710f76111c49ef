"""Tile and card images, fonts and small drawing helpers shared by the renderers.

Tile kinds are those of :mod:`engine.tiles` (``0..8`` = 1m..9m, ``27..33`` = 东南西北白发中,
``34..41`` flowers, ``42..44`` 千子 白花 红花, ``45..49`` 福禄寿喜财, ``50..69`` 字牌 cards).

A face-up tile is composed of three layers: a *side* band (the tile's thickness, drawn in the
back's colour), the ivory ``Front`` sprite, and a *face* overlay.  Faces come from
:data:`face_drawers`, a registry keyed by the suit letter of :func:`engine.tiles.suit_of`
(``'m' 'p' 's' 'z' 'f' 'T' 'h'``): each drawer takes a kind and returns a transparent RGBA
overlay of :data:`FACE_BASE` size.  The shipped public-domain sprites (``data/tiles/``) serve
万/筒/条/winds/dragons; flowers, the 老五对 tiles and 白板's blue frame are drawn here with the
shipped font.  Suits listed in :data:`card_drawers` (``'x'`` small and ``'X'`` big 字牌) are
not tiles but long paper cards, drawn whole by their drawer.

Every image returned here is cached and shared: callers must ``.copy()`` before drawing on it.
Rendering may run in worker threads (``asyncio.to_thread``): building a sprite or a text mask
holds :data:`DRAW_LOCK`, since a FreeType face must not be used by two threads at once; cache
hits take no lock.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.tiles import (
    CN_BIG,
    CN_NUM,
    FLOWER_ZH,
    XI_ZH,
    kind_name,
    number_of,
    parse_kind,
    suit_of,
)

DATA = Path(__file__).resolve().parent.parent / "data"
FONT_DIR = DATA / "fonts"
TILE_DIR = DATA / "tiles"
FONT_FILES = {
    False: FONT_DIR / "NotoSansCJKsc-Regular-subset.otf",
    True: FONT_DIR / "NotoSansCJKsc-Bold-subset.otf",
}
#: Full system fonts tried for text the shipped subset cannot draw (e.g. rare name characters).
FALLBACK_FONTS = (
    (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), 2),
    (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), 2),
    (Path("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc"), 2),
)

FACE_BASE = (192, 256)  #: size at which drawn faces are made before scaling (3:4)
FACE_SCALE = 0.86  #: share of the front's width/height a face overlay covers
TILE_RATIO = 4 / 3  #: front height / width
CARD_RATIO = 3.0  #: 字牌 card height / width

SIDE_COLOR = (196, 48, 48, 255)  #: the tile's thickness band (matches the red back)
OUTLINE = (60, 40, 30, 255)
WILD_COLOR = (128, 60, 200)
TREASURE_COLOR = (230, 170, 20)
HIGHLIGHT = (255, 140, 0)
DRAW_LOCK = threading.RLock()  #: held while drawing with a shared font object
BACK_TONE = (150, 30, 40, 255)


# --------------------------------------------------------------------------- fonts
@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped Noto Sans CJK SC subset at ``size`` px (cached)."""
    return ImageFont.truetype(str(FONT_FILES[bold]), size)


@lru_cache(maxsize=1)
def charset() -> frozenset[str]:
    """The characters every shipped weight draws (``data/fonts/charset.txt``): the interface's
    words and the letters of Latin, Greek and Cyrillic names."""
    text = (FONT_DIR / "charset.txt").read_text(encoding="utf-8")
    return frozenset(text.rstrip("\n"))


@lru_cache(maxsize=1)
def bold_charset() -> frozenset[str]:
    """The characters the bold weight draws: :func:`charset` and the characters of CJK names
    (hanzi, kana, Hangul) kept in that weight only (``data/fonts/charset-bold.txt``)."""
    text = (FONT_DIR / "charset-bold.txt").read_text(encoding="utf-8")
    return charset() | frozenset(text.rstrip("\n"))


@lru_cache(maxsize=1)
def _fallback_path() -> tuple[str, int] | None:
    for path, index in FALLBACK_FONTS:
        if path.is_file():
            return str(path), index
    return None


@lru_cache(maxsize=32)
def _fallback_font(size: int) -> ImageFont.FreeTypeFont | None:
    fb = _fallback_path()
    if fb is None:
        return None
    return ImageFont.truetype(fb[0], size, index=fb[1])


def drawable_text(text: str) -> str:
    """``text`` as the images draw it (see :func:`text_font`): NFC-normalised, without the
    characters no available font draws (emoji, rare scripts), runs of blanks made one space and
    the ends stripped.  ``""`` when nothing drawable remains."""
    return " ".join(text_font(text, 12)[0].split())


def text_font(text: str, size: int, bold: bool = False) -> tuple[str, ImageFont.FreeTypeFont]:
    """Pick a font able to draw ``text`` (free text such as player names) at ``size`` px.

    Returns ``(text, font)``.  ``text`` is NFC-normalised first (a decomposed "e" + "¨" is the
    shipped "ë").  The font is the shipped weight asked for when it draws every character;
    else the shipped bold weight when it does (the characters of CJK names are kept in that
    weight only); else a full system Noto CJK font (:data:`FALLBACK_FONTS`), when one is
    installed and every missing character is CJK, kana or Hangul; otherwise the shipped bold
    or asked-for weight with the characters it lacks left out (emoji, variation selectors,
    joiners, rare scripts and hanzi) and blanks collapsed — the text may then be ``""``.
    """
    text = unicodedata.normalize("NFC", text)
    cs = charset()
    if all(ch in cs for ch in text):
        return text, font(size, bold)
    wide = bold_charset()
    missing = [ch for ch in text if ch not in wide]
    if not missing:
        return text, font(size, True)
    if all(_is_cjk_script(ch) for ch in missing):
        fb = _fallback_font(size)
        if fb is not None:
            return text, fb
    kept = " ".join("".join(ch for ch in text if ch in wide).split())
    return kept, font(size, bold or any(ch not in cs for ch in kept))


def _is_cjk_script(ch: str) -> bool:
    o = ord(ch)
    return (0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF
            or 0xFF00 <= o <= 0xFFEF or 0x20000 <= o <= 0x2FA1F)


# --------------------------------------------------------------------------- sprites
@lru_cache(maxsize=64)
def sprite(name: str) -> Image.Image:
    """A shipped sprite from ``data/tiles/`` (RGBA).  ``FileNotFoundError`` if missing."""
    with Image.open(TILE_DIR / f"{name}.png") as im:
        return im.convert("RGBA")


_SUIT_SPRITE = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOR_SPRITE = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def _face_canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGBA", FACE_BASE, (0, 0, 0, 0))
    return im, ImageDraw.Draw(im)


def _sprite_face(kind: int) -> Image.Image:
    s = suit_of(kind)
    name = (_SUIT_SPRITE[s] + str(number_of(kind))) if s in _SUIT_SPRITE else None
    return sprite(name).resize(FACE_BASE, Image.Resampling.LANCZOS)


def _honor_face(kind: int) -> Image.Image:
    n = number_of(kind)
    if n == 5:  # 白板: a blue double frame, Chinese style
        im, d = _face_canvas()
        w, h = FACE_BASE
        blue = (30, 80, 190, 255)
        d.rounded_rectangle((28, 30, w - 28, h - 30), radius=14, outline=blue, width=12)
        d.rounded_rectangle((50, 52, w - 50, h - 52), radius=6, outline=blue, width=5)
        return im
    return sprite(_HONOR_SPRITE[n - 1]).resize(FACE_BASE, Image.Resampling.LANCZOS)


def _centered_char(d: ImageDraw.ImageDraw, ch: str, cx: float, cy: float, size: int, fill,
                   bold: bool = True, stroke: int = 0, stroke_fill=None) -> None:
    d.text((cx, cy), ch, font=font(size, bold), fill=fill, anchor="mm",
           stroke_width=stroke, stroke_fill=stroke_fill)


_FLOWER_COLORS = (
    (40, 140, 60),  # 春 spring green
    (200, 40, 40),  # 夏 summer red
    (200, 120, 20),  # 秋 autumn orange
    (40, 90, 190),  # 冬 winter blue
    (210, 60, 120),  # 梅 plum pink
    (120, 60, 170),  # 兰 orchid purple
    (210, 160, 0),  # 菊 chrysanthemum gold
    (30, 120, 80),  # 竹 bamboo green
)


def _blossom(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, color) -> None:
    import math

    for i in range(5):
        a = math.pi / 2 + i * 2 * math.pi / 5
        px, py = cx + r * 0.9 * math.cos(a), cy - r * 0.9 * math.sin(a)
        d.ellipse((px - r * 0.62, py - r * 0.62, px + r * 0.62, py + r * 0.62), fill=color)
    d.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=(250, 215, 60))


def _flower_face(kind: int) -> Image.Image:
    """春夏秋冬 (1f–4f) and 梅兰菊竹 (5f–8f): a big coloured character, the seat number
    (1–4) in the corner, and a small blossom; seasons number in red, plants in blue."""
    im, d = _face_canvas()
    i = number_of(kind) - 1
    w, h = FACE_BASE
    color = _FLOWER_COLORS[i]
    _blossom(d, w - 44, 44, 24, color + (255,))
    num_color = (200, 30, 30) if i < 4 else (30, 70, 180)
    _centered_char(d, str(i % 4 + 1), 40, 44, 64, num_color)
    _centered_char(d, FLOWER_ZH[i], w / 2, h * 0.60, 138, color)
    return im


def _tenth_face(kind: int) -> Image.Image:
    """千子 (Tm), 白花 (Tp), 红花 (Ts): two characters stacked."""
    im, d = _face_canvas()
    w, h = FACE_BASE
    i = kind - parse_kind("Tm")
    text = ("千子", "白花", "红花")[i]
    color = ((20, 20, 20), (30, 80, 190), (200, 30, 30))[i]
    if i == 1:  # 白花: blue outline lettering on a pale frame
        d.rounded_rectangle((22, 22, w - 22, h - 22), radius=12, outline=color, width=4)
    _centered_char(d, text[0], w / 2, h * 0.28, 116, color)
    _centered_char(d, text[1], w / 2, h * 0.72, 116, color)
    return im


def _xi_face(kind: int) -> Image.Image:
    """福禄寿喜财 (1h–5h): a red character in a gold ring."""
    im, d = _face_canvas()
    w, h = FACE_BASE
    r = w / 2 - 10
    cy = h / 2
    d.ellipse((w / 2 - r, cy - r, w / 2 + r, cy + r), outline=TREASURE_COLOR + (255,), width=10)
    _centered_char(d, XI_ZH[number_of(kind) - 1], w / 2, cy, 120, (200, 30, 30))
    return im


#: suit letter → drawer(kind) returning a transparent RGBA face of FACE_BASE size.
face_drawers: dict[str, Callable[[int], Image.Image]] = {
    "m": _sprite_face,
    "p": _sprite_face,
    "s": _sprite_face,
    "z": _honor_face,
    "f": _flower_face,
    "T": _tenth_face,
    "h": _xi_face,
}


@lru_cache(maxsize=128)
def face_image(kind: int) -> Image.Image:
    """The face overlay of ``kind`` at :data:`FACE_BASE` size (cached).

    Raises ``KeyError`` for a kind whose suit has no face drawer (the 字牌 cards).
    """
    return face_drawers[suit_of(kind)](kind)


# --------------------------------------------------------------------------- tiles
def tile_height(width: int) -> int:
    """Height in px of a tile image of ``width`` (front 4:3 plus the side band)."""
    return round(width * TILE_RATIO) + side_depth(width)


def side_depth(width: int) -> int:
    return max(2, round(width * 0.11))


def _body(width: int, top_sprite: str, band: tuple) -> Image.Image:
    fh = round(width * TILE_RATIO)
    depth = side_depth(width)
    h = fh + depth
    im = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    radius = max(2, width // 7)
    d.rounded_rectangle((0, 0, width - 1, h - 1), radius=radius, fill=band, outline=OUTLINE)
    front = sprite(top_sprite).resize((width - 2, fh - 1), Image.Resampling.LANCZOS)
    im.alpha_composite(front, (1, 1))
    return im


@lru_cache(maxsize=512)
def _tile_cached(kind: int, width: int, badge: str | None, paper: bool) -> Image.Image:
    with DRAW_LOCK:
        return _make_tile(kind, width, badge, paper)


def _make_tile(kind: int, width: int, badge: str | None, paper: bool) -> Image.Image:
    s = suit_of(kind)
    if s in card_drawers:
        im = card_drawers[s](kind, width)
    elif paper:
        im = _paper_card(kind, width)
    else:
        im = _body(width, "Front", SIDE_COLOR)
        fh = round(width * TILE_RATIO)
        fw_, fh_ = round((width - 2) * FACE_SCALE), round((fh - 1) * FACE_SCALE)
        face = face_image(kind).resize((fw_, fh_), Image.Resampling.LANCZOS)
        im.alpha_composite(face, (1 + (width - 2 - fw_) // 2, 1 + (fh - 1 - fh_) // 2))
    if badge:
        im = _with_badge(im, badge)
    return im


def tile_image(kind: int, width: int, badge: str | None = None, paper: bool = False) -> Image.Image:
    """A face-up tile (or card) of ``kind`` ``width`` px wide, RGBA, cached and shared.

    ``paper``: the game plays paper cards (``tile_style == "paper"``): every kind is a long
    card — 字牌's own cards, any other kind a paper card bearing its name (纸牌麻将).
    Height: :func:`tile_height` for tiles, ``round(width * CARD_RATIO)`` for cards.
    ``badge`` adds a bottom-right corner marker: ``"wild"`` (purple star, 百搭/财神),
    ``"treasure"`` (gold 宝, 宝牌), ``"marked"`` (贼), or ``"as:<kind>"`` — the kind a tile
    plays as (财神麻将's 白板 standing in for the 财神's kind, e.g. ``"as:0"`` for 1m).
    Raises ``KeyError`` for a kind outside 0..69 or an unknown badge.
    """
    if not 0 <= kind < 70:
        raise KeyError(kind)
    if badge is not None and badge not in BADGES and not badge.startswith("as:"):
        raise KeyError(badge)
    # a kind with a card of its own is that card in any game: one cached image
    return _tile_cached(kind, int(width), badge, bool(paper) and suit_of(kind) not in card_drawers)


@lru_cache(maxsize=32)
def back_image(width: int) -> Image.Image:
    """A face-down tile ``width`` px wide (same height as :func:`tile_image`), cached."""
    im = _body(width, "Back", (240, 232, 220, 255))
    # deepen the bright red of the art toward lacquer red, keep the highlights' shape
    tone = Image.new("RGBA", im.size, BACK_TONE)
    fh = round(width * TILE_RATIO)
    mask = Image.new("L", im.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((1, 1, width - 2, fh - 1), radius=max(2, width // 7),
                                           fill=110)
    im.paste(tone, (0, 0), mask)
    return im


def rotated(img: Image.Image, clockwise: bool = False) -> Image.Image:
    """``img`` turned a quarter (counter-clockwise by default), as for a claimed tile."""
    return img.transpose(Image.Transpose.ROTATE_270 if clockwise else Image.Transpose.ROTATE_90)


@lru_cache(maxsize=256)
def claimed_tile_image(kind: int, width: int, badge: str | None = None, paper: bool = False) -> Image.Image:
    """:func:`tile_image` of ``kind`` lying sideways (a claimed tile in a meld), cached.

    The result is ``tile_height(width)`` wide and ``width`` high.
    """
    return rotated(tile_image(kind, width, badge, paper))


@lru_cache(maxsize=256)
def claimed_discard_image(kind: int, width: int, badge: str | None = None, paper: bool = False) -> Image.Image:
    """:func:`tile_image` of ``kind`` dimmed: a discard another seat claimed, left in the
    pond in its place (cached)."""
    return dimmed(tile_image(kind, width, badge, paper), 0.6)


def outlined(img: Image.Image, color=HIGHLIGHT, width: int = 3) -> Image.Image:
    """A copy of ``img`` with a coloured frame of ``width`` px around it (e.g. last discard)."""
    w, h = img.size
    out = Image.new("RGBA", (w + 2 * width, h + 2 * width), (0, 0, 0, 0))
    d = ImageDraw.Draw(out)
    d.rounded_rectangle((0, 0, out.width - 1, out.height - 1), radius=max(3, w // 6),
                        fill=tuple(color[:3]) + (255,))
    out.alpha_composite(img, (width, width))
    return out


def dimmed(img: Image.Image, amount: float = 0.35) -> Image.Image:
    """A copy of ``img`` blended toward grey by ``amount`` (0..1), alpha kept."""
    grey = Image.new("RGBA", img.size, (90, 90, 90, 255))
    out = Image.blend(img, grey, amount)
    out.putalpha(img.getchannel("A"))
    return out


# --------------------------------------------------------------------------- badges
def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    import math

    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy - rr * math.sin(a)))
    d.polygon(pts, fill=fill)


def _badge_wild(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WILD_COLOR + (255,), outline=(255, 255, 255))
    _star(d, cx, cy, r * 0.75, (255, 230, 90))


def _badge_treasure(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=TREASURE_COLOR + (255,),
              outline=(255, 255, 255))
    d.text((cx, cy), "宝", font=font(max(6, round(r * 1.35)), True), fill=(170, 20, 20),
           anchor="mm")


def _badge_thief(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(40, 40, 40, 255), outline=(255, 255, 255))
    d.text((cx, cy), "贼", font=font(max(6, round(r * 1.35)), True), fill=(255, 210, 60), anchor="mm")


#: badge name → painter(draw, centre x, centre y, radius)
BADGES: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "wild": _badge_wild,
    "treasure": _badge_treasure,
    "marked": _badge_thief,  # 金湖 贼 tiles (view["marked"])
}


def _stand_in_label(kind: int) -> str:
    """Short label of the kind a stand-in tile plays as: ``1万``, ``5筒``, ``9条``, ``东``."""
    from engine.tiles import kind_name, number_of, suit_of

    if suit_of(kind) in "mps":
        return f"{number_of(kind)}{'万筒条'['mps'.index(suit_of(kind))]}"
    return kind_name(kind, "zh")[0]


def _with_badge(img: Image.Image, badge: str) -> Image.Image:
    out = img.copy()
    d = ImageDraw.Draw(out)
    r = max(5, img.width * 0.2)
    bottom = img.height - side_depth(img.width) - r - 1
    if badge.startswith("as:"):  # a ribbon along the bottom naming the kind it plays as
        text = _stand_in_label(int(badge[3:]))
        h = max(8, round(img.width * 0.3))
        y1 = img.height - side_depth(img.width) - 2
        d.rounded_rectangle((2, y1 - h, img.width - 3, y1), radius=h // 3, fill=(30, 90, 170, 235))
        d.text((img.width / 2, y1 - h / 2), text, font=font(max(6, round(h * 0.8)), True),
               fill=(255, 255, 255), anchor="mm")
        return out
    BADGES[badge](d, img.width - r - 1, bottom, r)
    return out


# --------------------------------------------------------------------------- 字牌 cards
def card_height(width: int) -> int:
    return round(width * CARD_RATIO)


#: cards are drawn this many times larger, then scaled down for smooth edges
CARD_SCALE = 4


def _card_blank(width: int, paper: tuple, ink: tuple, inset: int = 10,
                line: int = 28) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank card at :data:`CARD_SCALE` times ``width`` (and its drawing context): ``paper``
    with its outline, and an inner frame in ``ink`` a ``1/inset`` of the width inside, its line
    a ``1/line`` of the width."""
    w, h = width * CARD_SCALE, card_height(width) * CARD_SCALE
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=w // 8, fill=paper, outline=OUTLINE,
                        width=max(2, CARD_SCALE))
    i = w // inset
    d.rounded_rectangle((i, i, w - 1 - i, h - 1 - i), radius=w // 12, outline=ink, width=max(2, w // line))
    return im, d


def _zipai_card(kind: int, width: int) -> Image.Image:
    """A 字牌 paper card: long and narrow, the character at both ends (the lower one turned),
    small cards (一..十) on white with black ink, big cards (壹..拾) on buff paper with dark
    blue ink; 二七十 / 贰柒拾 in red, as on real cards."""
    big = suit_of(kind) == "X"
    n = number_of(kind)
    paper = (236, 214, 160, 255) if big else (252, 250, 242, 255)
    ink = (20, 40, 110) if big else (25, 25, 25)
    if n in (2, 7, 10):
        ink = (200, 30, 30)
    im, d = _card_blank(width, paper, ink)
    w, h = im.size
    ch = (CN_BIG if big else CN_NUM)[n - 1]
    size = round(w * 0.72)
    f = font(size, True)
    d.text((w / 2, h * 0.2), ch, font=f, fill=ink, anchor="mm")
    low = Image.new("RGBA", (w, w), (0, 0, 0, 0))
    ImageDraw.Draw(low).text((w / 2, w / 2), ch, font=f, fill=ink, anchor="mm")
    low = low.transpose(Image.Transpose.ROTATE_180)
    im.alpha_composite(low, (0, round(h * 0.8 - w / 2)))
    # a small case mark in the middle: ● for big cards, ○ for small ones
    r = w * 0.08
    cy = h / 2
    if big:
        d.ellipse((w / 2 - r, cy - r, w / 2 + r, cy + r), fill=ink)
    else:
        d.ellipse((w / 2 - r, cy - r, w / 2 + r, cy + r), outline=ink, width=max(2, w // 30))
    return im.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def _paper_card(kind: int, width: int) -> Image.Image:
    """Any kind as a paper card (纸牌麻将, a game whose ``tile_style`` is ``"paper"``): long and
    narrow like a 字牌 card, the kind's name read downward at the top (一 over 万) and the same
    turned at the bottom; the suit's sign in red."""
    ink, red = (25, 25, 25), (200, 30, 30)
    im, _ = _card_blank(width, (252, 250, 242, 255), ink)
    w, h = im.size
    name = kind_name(kind, "zh")[:2]
    size = round(w * 0.55)
    f = font(size, True)
    end = Image.new("RGBA", (w, round(h * 0.42)), (0, 0, 0, 0))
    ed = ImageDraw.Draw(end)
    for i, ch in enumerate(name):
        ed.text((w / 2, round(w * 0.38) + i * round(size * 1.05)), ch, font=f,
                fill=red if i == len(name) - 1 and len(name) > 1 else ink, anchor="mm")
    im.alpha_composite(end, (0, round(h * 0.04)))
    im.alpha_composite(end.transpose(Image.Transpose.ROTATE_180), (0, h - end.height - round(h * 0.04)))
    return im.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def card_back_image(width: int) -> Image.Image:
    """A face-down 字牌 card ``width`` px wide (as tall as a card, :func:`card_height`): the
    lacquer red of the tile backs with a pale inner frame, cached."""
    im, _ = _card_blank(width, BACK_TONE, (236, 214, 160, 255), inset=6, line=20)
    return im.resize((width, card_height(width)), Image.Resampling.LANCZOS)


#: suit letter → drawer(kind, width) returning a whole card image (no tile body).
card_drawers: dict[str, Callable[[int, int], Image.Image]] = {
    "x": _zipai_card,
    "X": _zipai_card,
}


def kind_image_height(kind: int, width: int, paper: bool = False) -> int:
    """Height of :func:`tile_image` for ``kind`` at ``width`` (``paper``: as a paper card)."""
    return card_height(width) if paper or suit_of(kind) in card_drawers else tile_height(width)
