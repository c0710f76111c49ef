"""The panel's table of tiles (``render/text/panel.py`` ``table_tiles``) within its budget: cut
only between tiles, the oldest discards first, the title, the last discard and the hand kept."""

from __future__ import annotations

import re

import pytest

from render.text.panel import table_tiles

EMOJI = "<:m{n}:13000000000000000{n:02d}>"  # 25 characters, as an application emoji is written


def _tile(tile):
    return EMOJI.format(n=int(tile[0])) if tile else "▮"


def _view(melds: int, discards: int) -> dict:
    seats = [{"seat": s, "wind": "东南西北"[s], "melds": [{"tiles": ["1m", "2m", "3m"]} for _ in range(melds)],
              "flowers": [], "discards": [f"{(s + i) % 9 + 1}m" for i in range(discards)], "claimed_discards": [1]}
             for s in range(4)]
    return {"seats": seats, "last_discard": {"seat": 2, "tile": "7m"}, "me": {"hand": ["1m", "5m"], "drawn": "9m"}}


@pytest.mark.parametrize("budget", [400, 700, 1200, 4000])
@pytest.mark.parametrize("melds,discards", [(0, 24), (4, 20), (6, 2)])
def test_the_table_fits_its_budget_cut_between_tiles(budget, melds, discards):
    text = table_tiles(_view(melds, discards), ["Ann", "Bo", "Cy", "Di"], "en", _tile, budget=budget, hand=True)
    lines = text.split("\n")
    assert len(text) <= budget
    assert len(re.findall(r"<:m\d:\d+>", text)) == text.count("<:")  # whole emojis only
    assert lines[0] == "**Table**" and lines[-2] == f"last discard: {EMOJI.format(n=7)} by **Cy**"
    assert lines[-1].startswith("Your hand: ") and lines[-1].endswith(EMOJI.format(n=9))
    assert [ln.split("**")[1] for ln in lines[1:5]] == ["Ann", "Bo", "Cy", "Di"]  # every seat named
    full = table_tiles(_view(melds, discards), ["Ann", "Bo", "Cy", "Di"], "en", _tile, budget=100_000, hand=True)
    if len(full) <= budget:
        assert text == full and "…" not in text  # nothing cut when it fits
    else:
        assert "…" in text


def test_the_newest_discards_stay_and_a_claimed_one_is_not_repeated():
    # seat 0 discarded 1m..9m in order; its second (2m) was claimed
    view = {"seats": [{"seat": 0, "wind": "东", "melds": [], "discards": [f"{i}m" for i in range(1, 10)],
                       "claimed_discards": [1]}]}
    full = table_tiles(view, ["Ann"], "en", lambda x: x, budget=1000)
    assert full.split("\n")[1] == "**Ann** 东 · discards 1m3m4m5m6m7m8m9m"
    # 48 characters: the title (9) and a line of the newest four (8 unclaimed, kept 24, 18 … 4)
    cut = table_tiles(view, ["Ann"], "en", lambda x: f"<{x}>", budget=48)
    assert cut == "**Table**\n**Ann** 东 · discards …<6m><7m><8m><9m>" and len(cut) <= 48
