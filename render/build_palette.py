"""Build the shipped PNG palette ``data/tiles/palette.png`` (see
:func:`render.common.shared_palette`).

Run from the repository root after a change that alters the images' colours::

    python -m render.build_palette
"""

from __future__ import annotations

from PIL import Image

from render.common import FELT
from render.tiles import back_image, tile_image
from render.tiles import TILE_DIR


def fitted_palette() -> Image.Image:
    """A 256-colour palette image fitted to the renderer's own output.

    Made by quantizing (fast octree) a calibration sheet: every tile kind at the drawn sizes,
    backs, and the sample tables of :mod:`render.samples` (all felt, panel, badge and text
    colours).  Mapping a frame onto a fixed palette takes ~2 ms against ~10 ms for fitting a
    palette per frame, and gives the same look on every image.  Returns a small ``P`` image
    carrying the palette.
    """
    from . import samples
    from .table import table_image

    tiles = [tile_image(k, w, b) for w in (34, 44) for k in range(70)
             for b in (None, "treasure", "wild") if b is None or k < 34]
    tiles += [back_image(w) for w in (22, 34, 44, 60)]
    frames = [table_image(v) for v in samples.all_samples().values()]
    width = max(f.width for f in frames)
    sheet_h = sum(f.height for f in frames) + 2 * 160
    sheet = Image.new("RGB", (width, sheet_h), FELT)
    y = 0
    for f in frames:
        sheet.paste(f, (0, y))
        y += f.height
    x = 0
    for im in tiles:
        if x + im.width > width:
            x, y = 0, y + 160
            if y + 160 > sheet_h:
                break
        sheet.paste(im, (x, y), im)
        x += im.width
    fitted = sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small = Image.new("P", (16, 16))
    small.putpalette(fitted.getpalette())
    return small


def main() -> None:
    path = TILE_DIR / "palette.png"
    fitted_palette().save(path, optimize=True)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
