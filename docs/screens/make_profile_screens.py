"""Write the screens of the profile card (``/mj profile``, ``render/profile.py``):
``profile-en.png`` (财神麻将, with special hands won) and ``profile-zh.png`` (字牌, with its
胡息 per win), drawn from the sample profiles the card's tests use
(``tests/render/profile_cases.py``: 二段 640/800 pt, rated 1623 over 42 units, 52 hands,
20 rated units of 2, 3 and 4 players, three best hands).

    python docs/screens/make_profile_screens.py [OUT_DIR]      # default: this folder
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests" / "render"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from profile_cases import game, seasoned  # noqa: E402
from render.profile import profile_image  # noqa: E402

from engine.variants import all_variants  # noqa: E402

HERE = Path(__file__).resolve().parent


def screens() -> dict:
    """File name → (game, player, special hands won, language): the game with a wild 财神 (its
    special hands shown) in English, the game of paper cards (its 胡息 per win) in Chinese —
    found by what the games declare, not by their ids."""
    wild = next(v.id for v in all_variants() if v.front_end_confirms_wild_discard)
    paper = next(v.id for v in all_variants() if v.tile_style == "paper")
    return {"profile-en.png": (wild, "Alice", (("dapenghu", 2), ("ziqing", 1)), "en"),
            "profile-zh.png": (paper, "小明 Ming", (), "zh-CN")}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else HERE
    out.mkdir(parents=True, exist_ok=True)
    for name, (game_id, player, specials, lang) in screens().items():
        data = profile_image(seasoned(game(game_id), player, specials=specials), lang)
        (out / name).write_bytes(data)
        print(f"wrote {out / name}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
