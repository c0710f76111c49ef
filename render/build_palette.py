"""Build the shipped PNG palette ``data/tiles/palette.png`` (see
:func:`render.common.shared_palette`).

Run from the repository root after a change that alters the images' colours::

    python -m render.build_palette
"""

from __future__ import annotations

from render.common import fitted_palette
from render.tiles import TILE_DIR


def main() -> None:
    path = TILE_DIR / "palette.png"
    fitted_palette().save(path, optimize=True)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
