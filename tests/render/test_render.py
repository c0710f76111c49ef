"""Tests of the renderers (render/): tiles, font subset, table and hand images."""

from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops

from engine.tiles import TileParseError, parse_kind
from render import samples, tiles
from render.hand import hand_image, render_hand
from render.table import WIDTH, render_table, seat_positions, table_image

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PNG_BYTES = 1_000_000
MIN_TABLE_HEIGHT = 250  # two seats, the table line and the log


def _open_png(data: bytes) -> Image.Image:
    assert data[:8] == PNG_SIGNATURE
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def _diff_pixels(a: Image.Image, b: Image.Image) -> int:
    """Number of pixels whose RGBA values differ."""
    diff = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA"))
    r, g, bl, al = diff.split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), ImageChops.lighter(bl, al))
    return a.width * a.height - mask.histogram()[0]


# ----------------------------------------------------------------------------- tiles
@pytest.mark.parametrize("kind", range(50))
def test_every_tile_kind_renders_at_tile_size(kind):
    im = tiles.tile_image(kind, 40)
    # 40 px wide: front 40 * 4/3 = 53 px plus the side band round(40 * 0.11) = 4 px
    assert im.mode == "RGBA"
    assert im.size == (40, 57)
    assert tiles.tile_height(40) == 57


def test_all_tile_kinds_look_different():
    images = [tiles.tile_image(k, 40).tobytes() for k in range(50)]
    assert len(set(images)) == 50


def test_one_and_two_characters_differ_in_many_pixels():
    a, b = tiles.tile_image(parse_kind("1m"), 60), tiles.tile_image(parse_kind("2m"), 60)
    # the numerals 一 and 二 differ by a whole stroke: well over 100 of 60x84 pixels
    assert _diff_pixels(a, b) > 100


def test_white_dragon_has_a_blue_frame():
    # 白板 (5z) is drawn with a blue frame: some pixels are clearly blue
    im = tiles.tile_image(parse_kind("5z"), 60).convert("RGB")
    r, g, b = im.split()
    # pixels with blue > 150, red < 90, green < 130
    blue = ImageChops.multiply(ImageChops.multiply(
        b.point(lambda v: 255 if v > 150 else 0), r.point(lambda v: 255 if v < 90 else 0)),
        g.point(lambda v: 255 if v < 130 else 0))
    assert blue.histogram()[255] > 50


@pytest.mark.parametrize("kind", range(50, 70))
def test_zipai_cards_are_long_and_narrow(kind):
    im = tiles.tile_image(kind, 30)
    # CARD_RATIO 3.0: 30 px wide → 90 px tall
    assert im.size == (30, 90)
    assert tiles.kind_image_height(kind, 30) == 90


def test_small_and_big_zipai_cards_use_different_paper():
    small = tiles.tile_image(parse_kind("3x"), 40).convert("RGB")
    big = tiles.tile_image(parse_kind("3X"), 40).convert("RGB")
    # the paper colour at a blank point (between the top character and the centre mark)
    x, y = 20, 40
    assert small.getpixel((x, y)) != big.getpixel((x, y))
    assert small.getpixel((x, y))[2] > big.getpixel((x, y))[2]  # buff paper has less blue


def test_back_image_matches_tile_size_and_differs_from_faces():
    back = tiles.back_image(40)
    assert back.size == tiles.tile_image(0, 40).size
    assert _diff_pixels(back, tiles.tile_image(0, 40)) > 1000


def test_badges_and_claimed_rotation():
    plain = tiles.tile_image(4, 48)
    treasure = tiles.tile_image(4, 48, "treasure")
    wild = tiles.tile_image(4, 48, "wild")
    assert _diff_pixels(plain, treasure) > 20
    assert _diff_pixels(treasure, wild) > 20
    claimed = tiles.claimed_tile_image(4, 48)
    assert claimed.size == (plain.height, plain.width)
    with pytest.raises(KeyError):
        tiles.tile_image(4, 48, "sparkle")
    with pytest.raises(KeyError):
        tiles.tile_image(70, 48)


def test_tile_images_are_cached():
    assert tiles.tile_image(5, 44) is tiles.tile_image(5, 44)
    assert tiles.back_image(44) is tiles.back_image(44)


def test_face_drawer_registry_covers_tile_suits_and_cards():
    assert set(tiles.face_drawers) == {"m", "p", "s", "z", "f", "T", "h"}
    assert set(tiles.card_drawers) == {"x", "X"}


# ----------------------------------------------------------------------------- font
FONTS = sorted((ROOT / "data" / "fonts").glob("NotoSansCJKsc-*-subset.otf"))


def test_both_font_weights_are_shipped_small_with_licence():
    assert [p.name for p in FONTS] == ["NotoSansCJKsc-Bold-subset.otf",
                                       "NotoSansCJKsc-Regular-subset.otf"]
    bold, regular = (p.stat().st_size for p in FONTS)
    # the bold weight carries the CJK characters of names (~12,700 in all), the regular one
    # the interface only: together about 5 MB
    assert bold < 5_000_000 and regular < 1_000_000
    licence = (ROOT / "data/fonts/OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Adobe" in licence and "Google LLC (Noto Sans" in licence  # Noto Sans CJK, Noto Sans


@pytest.mark.parametrize("path", FONTS, ids=lambda p: p.name)
def test_font_has_glyphs_for_tiles_and_ui(path):
    cmap = TTFont(path).getBestCmap()
    chars = "万中發春夏秋冬梅兰菊竹千子白花红福禄寿喜财壹拾"
    chars += "庄闲听加倍宝牌剩余自摸胡碰吃杠过番萬聽"
    for ch in chars:
        assert ord(ch) in cmap, ch
    for ch in "AZaz09":
        assert ord(ch) in cmap


def test_charset_files_list_exactly_the_font_characters():
    bold, regular = ({chr(c) for c in TTFont(p).getBestCmap()} for p in FONTS)
    assert set(tiles.charset()) == regular and set(tiles.bold_charset()) == bold
    assert "發" in tiles.charset() and "A" in tiles.charset() and "Ł" in tiles.charset()
    assert "김" in tiles.bold_charset() and "김" not in tiles.charset()


def test_text_outside_the_subset_falls_back_or_is_replaced(monkeypatch):
    text, _ = tiles.text_font("Alice 东", 20)
    assert text == "Alice 东"
    rare = "\u9f98"  # 龘, far outside the subset
    assert rare not in tiles.charset()
    # emoji are dropped (no font of ours draws them), whatever fonts are installed
    assert tiles.text_font("Bob \U0001f004", 20)[0] == "Bob"
    monkeypatch.setattr(tiles, "FALLBACK_FONTS", ())
    tiles._fallback_path.cache_clear()
    tiles._fallback_font.cache_clear()
    try:
        # without a system font the rare character is left out, never drawn as "?"
        text, f = tiles.text_font(f"Bo{rare}b", 20)
        assert text == "Bob"
        assert f.path == str(tiles.FONT_FILES[False])
    finally:
        tiles._fallback_path.cache_clear()
        tiles._fallback_font.cache_clear()


# ----------------------------------------------------------------------------- table
@pytest.mark.parametrize("name", sorted(samples.all_samples()))
def test_sample_tables_are_small_valid_pngs(name):
    view = samples.all_samples()[name]
    data = render_table(view)
    im = _open_png(data)
    assert len(data) < MAX_PNG_BYTES
    assert im.width == WIDTH == 720
    assert MIN_TABLE_HEIGHT <= im.height <= im.width  # never taller than wide


def test_three_seat_table_renders():
    view = samples.four_player_view()
    view["seats"] = view["seats"][:3]
    im = _open_png(render_table(view))
    assert im.width == 720 and im.height <= im.width


def test_seat_positions_put_the_viewer_at_the_bottom():
    two = samples.two_player_view()
    two["viewer"] = 1
    assert seat_positions(two) == {1: "bottom", 0: "top"}
    four = samples.four_player_view()
    # public view: seat 0 at the bottom, 下家 (next seat) right, across top, 上家 left
    assert seat_positions(four) == {0: "bottom", 1: "right", 2: "top", 3: "left"}
    four["viewer"] = 2
    assert seat_positions(four) == {2: "bottom", 3: "right", 0: "top", 1: "left"}


def test_table_does_not_mutate_the_view():
    view = samples.two_player_over_view()
    before = copy.deepcopy(view)
    render_table(view)
    assert view == before


def test_language_changes_the_labels():
    zh = table_image(samples.two_player_over_view("zh"))
    en = table_image(samples.two_player_over_view("en"))
    assert zh.width == en.width
    # the English result box may wrap one more line: compare what both images hold
    h = min(zh.height, en.height)
    assert _diff_pixels(zh.crop((0, 0, zh.width, h)), en.crop((0, 0, en.width, h))) > 500


def test_revealed_hand_differs_from_backs():
    hidden = samples.two_player_over_view()
    hidden["seats"][1]["concealed"] = None
    shown = samples.two_player_over_view()
    assert _diff_pixels(table_image(hidden), table_image(shown)) > 1000


def test_exhaustive_draw_result_renders():
    view = samples.two_player_over_view()
    view["result"] = {"winner": None, "self_drawn": False, "win_tile": None, "fans": [],
                      "fan_total": 0, "points": [0, 0], "draw": True}
    im = _open_png(render_table(view))
    assert im.width == 720


def test_unreadable_tile_raises():
    view = samples.two_player_view()
    view["seats"][0]["discards"] = ["5q"]
    with pytest.raises(TileParseError):
        render_table(view)


def test_empty_hand_start_renders():
    view = samples.two_player_view()
    for s in view["seats"]:
        s.update(discards=[], melds=[], flowers=[], hand_count=13, has_drawn=s["seat"] == 0)
    view["last_discard"] = None
    view["log"] = []
    assert _open_png(render_table(view)).width == 720


# ----------------------------------------------------------------------------- hand
def test_hand_with_drawn_tile_is_wider():
    with_drawn = samples.two_player_drawn_view()
    with_drawn["me"]["hint"] = []
    without = copy.deepcopy(with_drawn)
    without["me"]["drawn"] = None
    # the drawn tile adds the 2 px tile gap, a 22 px gap and one 60 px tile (HAND_W)
    a, b = hand_image(with_drawn), hand_image(without)
    assert a.width - b.width == 2 + 22 + 60


def test_hand_png_is_valid_and_waits_add_height():
    view = samples.two_player_view()
    data = render_hand(view)
    im = _open_png(data)
    assert len(data) < MAX_PNG_BYTES
    no_waits = copy.deepcopy(view)
    no_waits["me"]["waits"] = []
    assert hand_image(no_waits).height < im.height


def test_hand_needs_me():
    view = samples.two_player_over_view()
    with pytest.raises(ValueError):
        hand_image(view)


def test_traditional_chinese_labels_for_zh_tw_views():
    import json
    from pathlib import Path

    from fontTools.ttLib import TTFont

    from render.common import label, lang_of
    from render.tiles import font  # noqa: F401  (the shipped subset must carry the glyphs)

    root = Path(__file__).resolve().parents[2]
    assert lang_of({"lang": "zh-TW"}) == "zh-TW" and lang_of({"lang": "zh-CN"}) == "zh"
    assert label({"lang": "zh-TW"}, "dealer") == "莊" and label({"lang": "zh"}, "dealer") == "庄"
    labels = json.loads((root / "data/i18n/messages.zh-TW.json").read_text(encoding="utf-8"))["zh-TW"]["img"]
    cmap = TTFont(root / "data/fonts/NotoSansCJKsc-Bold-subset.otf").getBestCmap()
    missing = {c for text in labels.values() for c in text if ord(c) > 127 and ord(c) not in cmap}
    assert not missing


def test_the_shipped_palette_is_the_one_fitted_to_the_images():
    """``data/tiles/palette.png`` (loaded at start-up instead of fitting a palette, about
    0.8 s) is what ``python -m render.build_palette`` makes from today's images."""
    from render.build_palette import fitted_palette
    from render.common import shared_palette

    assert shared_palette().getpalette() == fitted_palette().getpalette(), \
        "the images' colours changed: python -m render.build_palette"


def test_the_font_subset_draws_the_games_own_words_in_traditional_chinese():
    """zh-TW images show the games' own words (tile, fan, option names) converted at run time
    (``render.text.catalogue.zh_tw``): the shipped font subset carries every character of
    them."""
    import ast
    import re
    from pathlib import Path

    from render.text.catalogue import zh_tw
    from render.tiles import charset

    root = Path(__file__).resolve().parents[2]
    cs = charset()
    texts = set()
    for path in (root / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[\u4e00-\u9fff]",
                                                                                            node.value):
                texts.add(node.value)
    missing = {c for s in texts for c in zh_tw(s) if "\u4e00" <= c <= "\u9fff" and c not in cs}
    assert len(texts) > 100 and not missing, "".join(sorted(missing))


def test_render_may_not_look_a_game_up():
    """The registry's look-ups raise when render/ calls them (``tests/conftest.py``), so every
    image and word test here proves the images take a game's facts from their view."""
    probe = Path(__file__).resolve().parents[2] / "render" / "_probe_lookup.py"
    probe.write_text("def look():\n    from engine.variants import find_variant\n\n    return find_variant('two_player')\n",
                     encoding="utf-8")
    try:
        import importlib
        import sys

        mod = importlib.import_module("render._probe_lookup")
        with pytest.raises(AssertionError, match="looks a game up"):
            mod.look()
    finally:
        probe.unlink()
        sys.modules.pop("render._probe_lookup", None)
