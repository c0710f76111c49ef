"""Build the shipped tile sprites in ``data/tiles/`` from the public-domain tile art.

Source: the CC0 tile set (600 × 800 RGBA PNGs: ``Front.png``, ``Back.png`` and the face
overlays ``Man1``…``Man9``, ``Pin1``…, ``Sou1``…, ``Ton Nan Shaa Pei Haku Hatsu Chun``).
Each file is downscaled (Lanczos, premultiplied alpha) to :data:`SPRITE_SIZE` and saved as
an optimised PNG; the credit note is copied to ``data/tiles/README.md``.  The renderer
(:mod:`render.tiles`) scales these sprites once more to the sizes it draws and caches them.

Run from the repository root::

    /work/venv/bin/python render/build_tile_sprites.py [--src DIR] [--width 96]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "data" / "tiles"
SPRITE_SIZE = (96, 128)  #: width × height in pixels (the source's 3:4 ratio)

NAMES = (
    ["Front", "Back"]
    + [f"Man{i}" for i in range(1, 10)]
    + [f"Pin{i}" for i in range(1, 10)]
    + [f"Sou{i}" for i in range(1, 10)]
    + ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"]
)

README = """# Tile sprites

Downscaled copies ({w} × {h}) of the mahjong tile art published in the public domain
(CC0 1.0, "All assets are in the public domain") by the `FluffyStuff/riichi-mahjong-tiles`
repository. `Front.png` is the tile body, `Back.png` the back, the other files are face overlays
drawn on `Front.png`. Rebuild with `python render/build_tile_sprites.py`. The flowers, the
老五对 tiles and the 字牌 cards are drawn by `render/tiles.py` in the same style.
"""


def build(src: Path, out_dir: Path = OUT_DIR, size: tuple[int, int] = SPRITE_SIZE) -> int:
    """Downscale every sprite of :data:`NAMES`; return the total bytes written.

    Raises ``FileNotFoundError`` when a source PNG is missing.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    total = 0
    for name in NAMES:
        path = src / f"{name}.png"
        im = Image.open(path).convert("RGBA")
        small = im.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        dest = out_dir / f"{name}.png"
        small.save(dest, optimize=True)
        total += dest.stat().st_size
    (out_dir / "README.md").write_text(README.format(w=size[0], h=size[1]), encoding="utf-8")
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_src = ROOT.parent / "shared" / "assets" / "tiles-cc0"
    ap.add_argument("--src", type=Path, default=default_src)
    ap.add_argument("--width", type=int, default=SPRITE_SIZE[0])
    args = ap.parse_args(argv)
    size = (args.width, args.width * 4 // 3)
    total = build(args.src, OUT_DIR, size)
    print(f"{len(NAMES)} sprites {size[0]}x{size[1]}, {total / 1024:.0f} KiB in {OUT_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
