"""A display list (:class:`Layer`) replayed once onto a single RGB canvas.

Panels of the table image are built as layers with their own coordinates and nested into one
another; only :meth:`Layer.render` touches pixels.  That avoids creating and compositing large
intermediate RGBA images, and text is pasted from cached glyph masks (:func:`text_mask`), so a
table renders in a few milliseconds once the tile sprites are cached.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .tiles import DRAW_LOCK, text_font


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool, anchor: str
              ) -> tuple[Image.Image | None, int, int, float]:
    """``(mask, dx, dy, advance)``: an ``L`` mask of ``text`` and its offset from the anchor
    point (cached).  ``mask`` is ``None`` for blank text."""
    with DRAW_LOCK:
        text, f = text_font(text, size, bold)
        adv = f.getlength(text)
        if not text.strip():
            return None, 0, 0, adv
        left, top, right, bottom = f.getbbox(text, anchor=anchor)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
        return mask, left, top, adv


def text_advance(text: str, size: int, bold: bool = False) -> float:
    """Advance width in px of ``text`` (cached through :func:`text_mask`)."""
    return text_mask(text, size, bold, "la")[3]


def fit_text(text: str, size: int, width: float, bold: bool = True, least: int = 13) -> tuple[str, int]:
    """``text`` and a font size at most ``size`` (down to ``least`` px) at which it fits
    ``width`` px, shortened with ``…`` if even that is too wide."""
    while size > least and text_advance(text, size, bold) > width:
        size -= 1
    if text_advance(text, size, bold) > width:
        while text and text_advance(text + "…", size, bold) > width:
            text = text[:-1]
        text += "…"
    return text, size


class Layer:
    """A ``width`` × ``height`` list of drawing operations in local coordinates."""

    __slots__ = ("width", "height", "ops")

    def __init__(self, width: int, height: int):
        self.width, self.height = int(width), int(height)
        self.ops: list[tuple] = []

    def image(self, im: Image.Image, x: float, y: float, tag: tuple | None = None) -> None:
        """Paste an RGBA image (its alpha is the mask) with its top-left at ``(x, y)``.

        ``tag`` names what the image shows, for :meth:`render`'s ``record`` (a tile:
        ``(role, seat, kind, mark)``, see :mod:`render.table`)."""
        self.ops.append(("img", im, int(x), int(y), tag))

    def rrect(self, box, radius: int = 0, fill=None, outline=None, width: int = 1) -> None:
        self.ops.append(("rrect", tuple(int(v) for v in box), radius, fill, outline, width))

    def ellipse(self, box, fill=None, outline=None, width: int = 1) -> None:
        self.ops.append(("ellipse", tuple(box), fill, outline, width))

    def text(self, xy, text: str, size: int, fill=(255, 255, 255), bold: bool = False,
             anchor: str = "la", tag: tuple | None = None) -> float:
        """Queue ``text`` at ``xy`` (PIL anchor semantics); return its advance width.
        ``tag`` names it for :meth:`render`'s ``record``."""
        mask, dx, dy, adv = text_mask(str(text), int(size), bool(bold), anchor)
        if mask is not None:
            self.ops.append(("mask", mask, int(round(xy[0] + dx)), int(round(xy[1] + dy)),
                             tuple(fill), tag))
        return adv

    def add(self, layer: "Layer", x: float, y: float) -> None:
        """Nest ``layer`` with its top-left at ``(x, y)``."""
        self.ops.append(("layer", layer, int(x), int(y)))

    def call(self, fn, x: float = 0, y: float = 0) -> None:
        """Queue ``fn(draw, ox, oy)`` for free drawing, with the layer's offset."""
        self.ops.append(("call", fn, int(x), int(y)))

    def render(self, background=(0, 0, 0), record: list | None = None) -> Image.Image:
        """Replay the operations onto a new RGB image of the layer's size.

        With ``record``, every tagged image appends ``(tag, box)`` to it as it is pasted:
        ``box`` is ``(x0, y0, x1, y1)`` in px of the canvas, the part of the image that is not
        transparent (what a viewer sees of the tile), cut to the canvas."""
        canvas = Image.new("RGB", (self.width, self.height), background)
        self._replay(canvas, ImageDraw.Draw(canvas), 0, 0, record)
        return canvas

    def _replay(self, canvas: Image.Image, draw: ImageDraw.ImageDraw, ox: int, oy: int,
                record: list | None = None) -> None:
        for op in self.ops:
            kind = op[0]
            if kind == "img":
                im, x, y = op[1], ox + op[2], oy + op[3]
                canvas.paste(im, (x, y), im if im.mode == "RGBA" else None)
                if record is not None and op[4] is not None:
                    record.append((op[4], _seen_box(im, x, y, canvas.size)))
            elif kind == "mask":
                mask, x, y, fill = op[1], ox + op[2], oy + op[3], op[4]
                canvas.paste(fill[:3], (x, y, x + mask.width, y + mask.height), mask)
                if record is not None and op[5] is not None:
                    record.append((op[5], _seen_box(mask, x, y, canvas.size)))
            elif kind == "rrect":
                x0, y0, x1, y1 = op[1]
                draw.rounded_rectangle((ox + x0, oy + y0, ox + x1, oy + y1), radius=op[2],
                                       fill=op[3], outline=op[4], width=op[5])
            elif kind == "ellipse":
                x0, y0, x1, y1 = op[1]
                draw.ellipse((ox + x0, oy + y0, ox + x1, oy + y1), fill=op[2], outline=op[3],
                             width=op[4])
            elif kind == "layer":
                op[1]._replay(canvas, draw, ox + op[2], oy + op[3], record)
            elif kind == "call":
                op[1](draw, ox + op[2], oy + op[3])


def _seen_box(im: Image.Image, x: int, y: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The box of ``im``'s opaque pixels pasted at ``(x, y)``, cut to a canvas of ``size``."""
    box = (im.getchannel("A") if im.mode == "RGBA" else im).getbbox() if im.mode in ("RGBA", "L") \
        else (0, 0, im.width, im.height)
    x0, y0, x1, y1 = box or (0, 0, 0, 0)
    return (max(0, x + x0), max(0, y + y0), min(size[0], x + x1), min(size[1], y + y1))
