"""The emoji pictures (``render.emoji``): every tile kind and both backs has a valid, unique,
readable name that maps back to its kind; every picture is a 128 × 128 RGBA PNG within
Discord's 256 KiB, mostly opaque, the same bytes on every build, and distinguishable from every
other one when scaled down to the 22 px Discord shows."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.tiles import N_KINDS, kind_name, parse_kind
from render import emoji
from render.emoji import (
    BACK,
    CARD_BACK,
    EMOJI_NAMES,
    build_emoji_png,
    emoji_pictures,
    emoji_png,
    kind_of_name,
    name_of,
)

DISCORD_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
LIMIT = 256 * 1024  #: Discord's emoji size limit, bytes
SHOWN = 22  #: px: the height Discord shows an emoji at in text (about 20 in a button)
DARK = (49, 51, 56)  #: Discord's dark theme background
#: the least mean absolute difference (0..255 per RGB channel) between the 22 px pictures of
#: two emojis over the dark background.  Measured: 11.3, between p4 and p5 (p5 is p4 with a
#: red centre dot); next fu/lu 13.7, s7/s9 16.7, s5/s6 17.0; zp_xiao1/zp_da1 97.7,
#: p7/p8 26.6, p8/p9 33.6, p7/p9 39.4.
MIN_DIFF = 10.0


@pytest.fixture(scope="module")
def pictures() -> dict[str, bytes]:
    return emoji_pictures()


def decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "PNG"
        im.load()
        return im.copy()


def shown(data: bytes, height: int = SHOWN) -> Image.Image:
    """The picture as Discord shows it: scaled down to ``height`` px over the dark theme."""
    small = decoded(data).resize((height, height), Image.Resampling.LANCZOS)
    out = Image.new("RGBA", small.size, DARK + (255,))
    out.alpha_composite(small)
    return out.convert("RGB")


def mean_diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_every_kind_and_both_backs_have_a_unique_valid_name() -> None:
    assert len(EMOJI_NAMES) == N_KINDS + 2 == 72
    assert EMOJI_NAMES[:N_KINDS] == tuple(name_of(k) for k in range(N_KINDS))
    assert EMOJI_NAMES[N_KINDS:] == (BACK, CARD_BACK) == ("tile_back", "zp_back")
    assert len(set(EMOJI_NAMES)) == len(EMOJI_NAMES)
    bad = [n for n in EMOJI_NAMES if not DISCORD_NAME.match(n)]
    assert bad == []


def test_names_are_the_documented_words() -> None:
    by_notation = {n: name_of(parse_kind(t)) for t, n in (
        ("1m", "m1"), ("9m", "m9"), ("5p", "p5"), ("1s", "s1"), ("9s", "s9"),
        ("1z", "east_wind"), ("4z", "north_wind"), ("5z", "white_dragon"),
        ("6z", "green_dragon"), ("7z", "red_dragon"), ("1f", "flower_spring"),
        ("7f", "flower_chrysanthemum"), ("8f", "flower_bamboo"), ("Tm", "qianzi"),
        ("Tp", "white_flower"), ("Ts", "red_flower"), ("1h", "fu"), ("3h", "shou"),
        ("5h", "cai"), ("1x", "zp_xiao1"), ("10x", "zp_xiao10"), ("1X", "zp_da1"),
        ("10X", "zp_da10"))}
    assert by_notation == {n: n for n in by_notation}
    # the flowers are named by the engine's English names
    assert [name_of(k) for k in range(34, 42)] == [
        "flower_" + kind_name(k, "en").lower() for k in range(34, 42)]


def test_a_name_maps_back_to_its_kind() -> None:
    assert [kind_of_name(name_of(k)) for k in range(N_KINDS)] == list(range(N_KINDS))
    assert kind_of_name(BACK) is None and kind_of_name(CARD_BACK) is None
    assert kind_of_name("m0") is None and kind_of_name("") is None
    with pytest.raises(IndexError):
        name_of(N_KINDS)
    with pytest.raises(KeyError):
        emoji_png("m10")


def test_every_picture_is_a_128_px_rgba_png_under_the_limit(pictures: dict[str, bytes]) -> None:
    assert tuple(pictures) == EMOJI_NAMES
    sizes = {}
    for name, data in pictures.items():
        im = decoded(data)
        assert (im.size, im.mode) == ((128, 128), "RGBA"), name
        assert im.info == {}, name  # no metadata: the bytes depend on the picture only
        sizes[name] = len(data)
    assert max(sizes.values()) <= LIMIT
    assert max(sizes.values()) < 16 * 1024  # measured: 1,799 B (tile_back) .. 13,655 B (p1)


def test_every_picture_is_mostly_opaque_with_transparent_corners(pictures: dict[str, bytes]) -> None:
    for name, data in pictures.items():
        alpha = decoded(data).getchannel("A")
        opaque = sum(alpha.histogram()[128:]) / (128 * 128)
        assert opaque >= 0.7, (name, opaque)  # tiles about 0.77, cards about 0.87
        assert alpha.getpixel((0, 0)) == 0, name  # a transparent background around the piece


def test_the_bytes_are_the_same_on_every_build(pictures: dict[str, bytes]) -> None:
    assert all(emoji_png(n) is pictures[n] for n in EMOJI_NAMES)  # cached
    assert {n: build_emoji_png(n) for n in EMOJI_NAMES} == pictures  # built again
    emoji_png.cache_clear()
    assert emoji_png("p9") == pictures["p9"] and emoji_png("zp_da7") == pictures["zp_da7"]


def test_the_pictures_of_different_emojis_differ(pictures: dict[str, bytes]) -> None:
    assert len(set(pictures.values())) == len(pictures)


def test_every_two_pictures_read_apart_at_22_px(pictures: dict[str, bytes]) -> None:
    small = {n: shown(d) for n, d in pictures.items()}
    diffs = {(a, b): mean_diff(small[a], small[b])
             for a, b in itertools.combinations(EMOJI_NAMES, 2)}
    closest = min(diffs, key=lambda pair: diffs[pair])
    assert diffs[closest] >= MIN_DIFF, (closest, diffs[closest])
    # the pairs most at risk are far apart
    assert diffs[("zp_xiao1", "zp_da1")] > 60
    assert min(diffs[("p7", "p8")], diffs[("p8", "p9")], diffs[("p7", "p9")]) > 20
    for n in range(1, 11):  # every small card from its big card
        assert diffs[(f"zp_xiao{n}", f"zp_da{n}")] > 50, n


def test_small_and_big_cards_show_their_paper_and_ink(pictures: dict[str, bytes]) -> None:
    """A small card's paper is near-white, a big card's buff (sampled inside the edge, away
    from the character); the big card's edge is its dark blue ink."""
    for n in range(1, 11):
        small = decoded(pictures[f"zp_xiao{n}"]).convert("RGB")
        big = decoded(pictures[f"zp_da{n}"]).convert("RGB")
        assert small.getpixel((18, 6)) == emoji.SMALL_PAPER[:3], n
        assert big.getpixel((22, 14)) == pytest.approx(emoji.BIG_PAPER[:3], abs=6), n
        assert big.getpixel((11, 64)) == pytest.approx(emoji.BIG_INK, abs=6), n
