"""Players' names in the images: names in Simplified and Traditional Chinese, kana, Hangul and
accented Latin are drawn with real glyphs from the shipped fonts alone (no system font, as on a
fresh machine); what no font draws (emoji, rare scripts) is left out, and a name with nothing
drawable left becomes the seat's label — never a row of ``?``."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import ImageChops

from render import samples, tiles
from render.build_font_subset import name_chars
from render.common import label, with_drawable_names
from render.hand import hand_image
from render.table import table_image

ROOT = Path(__file__).resolve().parents[2]
BOLD = ROOT / "data/fonts/NotoSansCJKsc-Bold-subset.otf"
REGULAR = ROOT / "data/fonts/NotoSansCJKsc-Regular-subset.otf"

#: four seats, five scripts: Simplified, Traditional, kana, Hangul, accented Latin
NAMES = ["陈静", "吳磊 / 張偉", "さくら カタカナ", "김민준"]
LATIN = ["Zoë", "Łukasz", "Nguyễn"]


@pytest.fixture(autouse=True)
def no_system_fonts(monkeypatch):
    """Only the shipped fonts, as on a machine set up from requirements.txt alone."""
    monkeypatch.setattr(tiles, "FALLBACK_FONTS", ())
    tiles._fallback_path.cache_clear()
    tiles._fallback_font.cache_clear()
    yield
    tiles._fallback_path.cache_clear()
    tiles._fallback_font.cache_clear()


def _view(names: list[str], lang: str = "zh") -> dict:
    view = samples.four_player_view(lang)
    for seat, name in zip(view["seats"], names, strict=True):
        seat["name"] = name
    view["log"] = [f"{names[1]} 打出 四筒", f"{names[2]} 摸牌"]
    return view


def _differing_pixels(a, b) -> int:
    assert a.size == b.size
    return a.width * a.height - ImageChops.difference(a, b).convert("L").histogram()[0]


def _glyph_mask(ch: str, bold: bool) -> bytes:
    return bytes(tiles.font(32, bold).getmask(ch))


# ----------------------------------------------------------------------------- glyphs
@pytest.mark.parametrize("name", NAMES + LATIN)
def test_every_character_of_the_names_has_a_glyph_in_the_bold_font(name):
    cmap = TTFont(BOLD).getBestCmap()
    notdef = _glyph_mask("\ue000", True)  # a private-use character: the .notdef box
    for ch in name.replace(" ", "").replace("/", ""):
        assert ord(ch) in cmap, ch
        assert ch in tiles.bold_charset(), ch
        mask = _glyph_mask(ch, True)
        assert mask != notdef and any(mask), ch


@pytest.mark.parametrize("name", LATIN)
def test_accented_latin_letters_are_in_both_weights(name):
    cmap = TTFont(REGULAR).getBestCmap()
    notdef = _glyph_mask("\ue000", False)
    for ch in name:
        assert ord(ch) in cmap and ch in tiles.charset(), ch
        assert _glyph_mask(ch, False) != notdef, ch


def test_the_bold_font_covers_the_name_character_sets():
    """GB2312, Big5 level 1, JIS X 0208 level 1, kana and KS X 1001 Hangul: every one of their
    characters, not only the names tested here."""
    chars = name_chars()
    assert len(chars) > 11_000
    assert {"陈", "静", "磊", "吳", "偉", "桜", "沢", "ヴ", "김", "힝"} <= set(chars)
    cmap = TTFont(BOLD).getBestCmap()
    assert [ch for ch in chars if ord(ch) not in cmap] == []


def test_text_with_name_characters_keeps_them_and_picks_a_font_that_draws_them():
    for text in ("轮到 陈静", "김민준 +208", "さくら 摸牌", "Nguyễn"):
        for bold in (False, True):
            drawn, font = tiles.text_font(text, 20, bold)
            assert drawn == text
            chars = tiles.bold_charset() if font.path == str(tiles.FONT_FILES[True]) else tiles.charset()
            assert all(ch in chars for ch in text)
    # the regular weight lacks the CJK names: such text is drawn bold
    assert tiles.text_font("陈静 打出 四筒", 16, False)[1].path == str(tiles.FONT_FILES[True])
    assert tiles.text_font("Alice 打出 四筒", 16, False)[1].path == str(tiles.FONT_FILES[False])
    # a decomposed accent is the composed letter
    assert tiles.text_font("Nguye\u0302\u0303n", 20)[0] == "Nguyễn"


# ----------------------------------------------------------------------------- images
def test_names_in_five_scripts_are_drawn_not_replaced():
    view = _view(NAMES)
    assert [s["name"] for s in with_drawable_names(view)["seats"]] == NAMES
    with_names = table_image(view)
    marks = table_image(_view(["?" * len(n) for n in NAMES]))
    # four name bars, the turn line and two log lines differ
    assert _differing_pixels(with_names, marks) > 2000


def test_latin_names_are_drawn_not_replaced():
    view = samples.two_player_over_view("en")
    view["seats"][0]["name"], view["seats"][1]["name"] = "Zoë Łukasz", "Nguyễn"
    assert [s["name"] for s in with_drawable_names(view)["seats"]] == ["Zoë Łukasz", "Nguyễn"]
    marked = copy.deepcopy(view)
    marked["seats"][0]["name"], marked["seats"][1]["name"] = "Zo? ?ukasz", "Nguy?n"
    # only the three accented letters differ, in the name bars and the result box
    assert _differing_pixels(table_image(view), table_image(marked)) > 150


def test_emoji_are_left_out_of_a_name():
    assert tiles.drawable_text("🀄 Ann") == "Ann"
    assert tiles.drawable_text("😀") == ""
    view = _view(["🀄 Ann", "Bob", "Carol", "Dave"])
    assert with_drawable_names(view)["seats"][0]["name"] == "Ann"
    drawn = table_image(view)
    assert drawn.tobytes() == table_image(_view(["Ann", "Bob", "Carol", "Dave"])).tobytes()


@pytest.mark.parametrize("lang, expected", [("zh", "玩家2"), ("zh-TW", "玩家2"), ("en", "Player 2")])
def test_a_name_with_nothing_drawable_becomes_the_seat_label(lang, expected):
    assert label({"lang": lang}, "seat_player", n=2) == expected
    view = _view(["Alice", "😀", "Carol", "\u0e2a\u0e21\u0e0a\u0e32\u0e22"], lang)  # Thai: no font
    clean = with_drawable_names(view)
    assert [s["name"] for s in clean["seats"]] == ["Alice", expected, "Carol", expected.replace("2", "4")]
    assert clean["log"] == [f"{expected} 打出 四筒", "Carol 摸牌"]
    assert view["seats"][1]["name"] == "😀"  # the view itself is left as it was
    assert table_image(view).tobytes() == table_image(
        _view(["Alice", expected, "Carol", expected.replace("2", "4")], lang)).tobytes()


def test_a_missing_or_blank_name_becomes_the_seat_label_not_a_question_mark():
    view = _view(["Alice", "", " ", "Dave"])
    del view["seats"][0]["name"]
    assert [s["name"] for s in with_drawable_names(view)["seats"]] == ["玩家1", "玩家2", "玩家3", "Dave"]


def test_the_hand_image_draws_the_seat_label_for_an_emoji_name():
    view = samples.two_player_view()
    view["seats"][0]["name"] = "😀😀"
    named = samples.two_player_view()
    named["seats"][0]["name"] = "玩家1"
    assert hand_image(view).tobytes() == hand_image(named).tobytes()
    named["seats"][0]["name"] = "??"
    assert hand_image(view).tobytes() != hand_image(named).tobytes()


def test_a_table_name_of_emoji_only_leaves_the_hand_number_alone():
    view = _view(["Alice", "Bob", "Carol", "Dave"])
    view["table_name"] = "🀄"
    plain = _view(["Alice", "Bob", "Carol", "Dave"])
    plain["table_name"] = ""
    assert table_image(view).tobytes() == table_image(plain).tobytes()
