"""The local table prints the table before each of your decisions (``render/text/local.py``
``table_lines``): every line within 80 columns (a wide character counts two), in every game
and language, with the wall, the game's marked tiles (宝牌, the wild tiles, 贼), every seat's
name, score and melds, and its pond — at least its latest tile."""

from __future__ import annotations

import pytest

from games import game_ids

from engine.variants import find_variant
from render.text import local
from render.text.catalogue import short_tile

LANGS = ("en", "zh-CN", "zh-TW")


@pytest.mark.parametrize("game", game_ids())
def test_the_table_fits_80_columns_and_shows_every_seat(game):
    info = find_variant(game)
    checked = 0
    for seed in (1, 2):
        hand = info.new_hand(info.resolve_options({}), seed, 0, info.max_players)
        while not hand.is_over():
            view = hand.view(0)
            for sv in view["seats"]:
                sv["name"] = "名字很长的一位玩家 long name"  # longer than a name column
            for lang in LANGS:
                lines = local.table_lines(view, info.facts, lang)
                assert all(local._cols(line) <= 80 for line in lines), [(local._cols(x), x) for x in lines]
                text = "\n".join(lines)
                assert lines[0].startswith("── ")
                for k in (view.get("wild") or {}).get("kinds") or []:
                    assert short_tile(k, lang) in lines[0]
                if view.get("treasure"):
                    assert short_tile(view["treasure"], lang) in lines[0]
                for sv in view["seats"]:
                    if sv["discards"]:
                        assert short_tile(sv["discards"][-1], lang) in text
                    for m in sv["melds"]:
                        assert local._meld_text(m, lang) in text or "…" in text
                checked += 1
            seat = hand.pending_seats()[0]
            hand.apply(hand.ai_action(seat))
    assert checked > 60


def test_a_long_pond_keeps_its_latest_tiles():
    line = local._fit("     ", [f"{i}m" for i in range(1, 10)] * 6, 30)
    assert local._cols(line) <= 30 and line.endswith("7m 8m 9m") and "… " in line
