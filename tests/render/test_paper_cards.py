"""A game whose pieces are paper cards (``tile_style == "paper"``) has every piece drawn as a
card: 字牌's own cards (long, or compact on the table image), and any other kind as a long paper
card bearing its name (纸牌麻将) — so a new game may play the mahjong tiles as paper cards
without a drawer of its own."""

from __future__ import annotations

import dataclasses

import pytest
from table_views import flat, mid_hand

from engine.variants import find_variant
from render.common import kind, tile_badge
from render.hand import hand_image
from render.emoji import compact_card_image
from render.table import OWN, table_image, table_layout
from render.tiles import card_height, tile_height, tile_image


@pytest.mark.parametrize("k", [0, 4, 8, 9, 17, 18, 26, 27, 31, 33, 34, 42, 45])
def test_a_kind_is_a_card_in_a_paper_game_and_a_tile_elsewhere(k):
    tile, card = tile_image(k, 30), tile_image(k, 30, paper=True)
    assert tile.size == (30, tile_height(30))
    assert card.size == (30, card_height(30)) and card.height > tile.height
    assert tile_image(k, 30, paper=True) is card  # cached once


def test_a_zipai_card_is_the_same_card_whatever_the_game_says():
    for k in range(50, 70):
        assert tile_image(k, 20, paper=True) is tile_image(k, 20)


def test_a_mahjong_hand_in_a_paper_game_is_drawn_in_cards_only():
    # 二人麻将's own hand and view, told that its game plays paper cards
    hand, public = mid_hand("two_player")
    viewer = public["turn"]
    view = hand.view(viewer)
    view["lang"] = "en"
    view["game"] = dataclasses.replace(find_variant("two_player").facts, tile_style="paper")
    layout = table_layout(view)
    pieces = [im for _, _, band, _ in layout.seats.values() for im, _, _ in flat(band)]
    # every piece a card: a long one bearing a tile's name, or (face down) a compact card back
    assert pieces and all(im.height == card_height(im.width) or im is compact_card_image(None, im.width)
                          for im in pieces)
    band = layout.seats[viewer][2]
    shown = [im for im, _, _ in flat(band)]
    for t in view["me"]["hand"]:  # the player's own cards face up, at the own seat's card size
        k = kind(t)
        assert any(im is tile_image(k, OWN.card_w, tile_badge(view, k), True) for im in shown), t
    assert table_image(view).width > 0 and hand_image(view).width > 0
