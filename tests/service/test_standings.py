"""The final standings worked out from settlements (per player, whatever their seat), their
words, and their image for every game."""

from __future__ import annotations

from engine.variants import find_variant

import io
from datetime import datetime, timezone
from types import SimpleNamespace as NS

import pytest
from PIL import Image

from engine.variants import all_variants
from render.standings import WIDTH, render_standings
from render.text import standings as words
from service.matches import standings


def row(seat, user_id, name, points, win=False, ai=False, fan=None, dealt_in=False):
    return NS(seat=seat, user_id=user_id, name=name, points=points, is_winner=win, is_ai=ai, self_drawn=False,
              dealt_in=dealt_in, fan=fan)


#: four hands; in the fourth, alice and bob swapped seats
HANDS = [
    NS(id=11, settlements=[row(0, 1, "alice", 24, True, fan=3), row(1, 2, "bob", -8, dealt_in=True),
                           row(2, None, "AI 1", -8, ai=True), row(3, None, "AI 2", -8, ai=True)]),
    NS(id=12, settlements=[row(0, 1, "alice", -16, dealt_in=True), row(1, 2, "bob", 16, True, fan=2),
                           row(2, None, "AI 1", 0, ai=True), row(3, None, "AI 2", 0, ai=True)]),
    NS(id=13, settlements=[row(0, 1, "alice", 0), row(1, 2, "bob", 0), row(2, None, "AI 1", 0, ai=True),
                           row(3, None, "AI 2", 0, ai=True)]),
    NS(id=14, settlements=[row(0, 2, "bob", -4), row(1, 1, "alice", -4), row(2, None, "AI 1", 12, True, ai=True),
                           row(3, None, "AI 2", -4, ai=True)]),
]


def test_standings_add_up_per_player_not_per_seat():
    data = standings(HANDS, hands_planned=4)
    # alice 24 − 16 + 0 − 4 = 4; bob −8 + 16 + 0 − 4 = 4; AI 1 −8 + 12 = 4; AI 2 −8 − 4 = −12
    got = [(p["name"], p["rank"], p["total"], p["wins"], p["hands"], p["deal_ins"]) for p in data["players"]]
    assert got == [("alice", 1, 4, 1, 4, 1), ("bob", 1, 4, 1, 4, 1), ("AI 1", 1, 4, 1, 4, 0),
                   ("AI 2", 4, -12, 0, 4, 0)]
    alice, bob, ai1, ai2 = data["players"]
    assert (alice["user_id"], alice["best"], alice["paid"]) == (1, {"hand_id": 11, "no": 1, "points": 24, "fan": 3},
                                                                {"hand_id": 12, "no": 2, "points": 16})
    assert (bob["best"], bob["paid"]) == ({"hand_id": 12, "no": 2, "points": 16, "fan": 2},
                                          {"hand_id": 11, "no": 1, "points": 8})  # the first of its 8s
    assert (ai1["user_id"], ai1["best"]["points"], ai1["paid"]["points"]) == (None, 12, 8)
    assert (ai2["best"], ai2["paid"]) == (None, {"hand_id": 11, "no": 1, "points": 8})
    assert data["hands"][3] == {"hand_id": 14, "no": 4, "winners": ["AI 1"],
                                "points": {"u2": -4, "u1": -4, "ai:AI 1": 12, "ai:AI 2": -4}}
    assert data["hands"][2]["winners"] == []


def test_standings_words():
    data = standings(HANDS, hands_planned=4)
    match = NS(id=3, variant="laosanfan", started_at=datetime(2026, 11, 30, 20, 1, tzinfo=timezone.utc),
               ended_at=datetime(2026, 11, 30, 22, 15, tzinfo=timezone.utc))
    text = words.description(match, data, "en")
    assert text.splitlines()[0] == "Hands played: 4 of 4 · 2026-11-30 20:01 – 22:15"
    assert "1. **alice** +4 · 1 won of 4\n\u2003best: hand 1 +24 (3 fan) · paid most: hand 2 16" in text
    assert "4. **AI 2** -12 · 0 won of 4\n\u2003paid most: hand 1 8" in text
    assert words.alt_text(match, data, "en", find_variant("laosanfan").facts) == ("Final standings of Lao San Fan (老三番) (hands played: 4): "
                                                 "1. alice +4, 1. bob +4, 1. AI 1 +4, 4. AI 2 -12")
    assert words.description(match, data, "zh-CN").splitlines()[0] == "4/4 局 · 2026-11-30 20:01 – 22:15"
    assert words.hand_option(data["hands"][2], "en") == ("Hand 3 · #13", "draw")
    long = dict(data, hands=data["hands"] * 13)  # 52 hands: three menus of 25, 25 and 2
    assert words.pages(long) == 3 and "26–50 of 52" in words.description(match, long, "en", page=1)
    many = {"players": [dict(data["players"][0], name="x" * 90, rank=i + 1) for i in range(8)], "hands": []}
    assert len(words.alt_text(match, many, "en", find_variant("laosanfan").facts)) == 256


@pytest.mark.parametrize("info", all_variants(), ids=lambda i: i.id)
def test_the_standings_image_draws_for_every_game(info):
    n = min(4, info.max_players)
    # hand k: seat k mod n wins 2 from every other seat
    hands = [NS(id=k, settlements=[row(i, i + 1, f"p{i}", 2 * (n - 1) if i == k % n else -2, i == k % n,
                                       fan=5 if i == k % n else None) for i in range(n)]) for k in range(5)]
    data = standings(hands, hands_planned=5)
    assert [p["total"] for p in data["players"]] == ([2, -2] if n == 2 else [6 + 6 - 2 - 2 - 2, 6 - 8, 6 - 8, 6 - 8])
    images = {}
    for lang in ("zh", "zh-TW", "en"):
        png = render_standings({"lang": lang, "variant": info.id, "standings": data, "subtitle": "5/5"})
        with Image.open(io.BytesIO(png)) as im:
            assert im.format == "PNG" and im.width == WIDTH
            images[lang] = (im.height, im.convert("RGB").tobytes())
    heights = {h for h, _ in images.values()}
    assert heights == {18 + 52 + 24 + 46 * n + 6 + 190 + 18}  # title, heads, a row a player, chart, margin
    assert len({b for _, b in images.values()}) == 3  # each language draws its own words


@pytest.mark.parametrize("variant,lang,unit", [
    ("laosanfan", "en", "(3 fan)"), ("laosanfan", "zh-CN", "（3 番）"),
    # 字牌 stores the winner's 胡息 as the hand's count, 财神麻将 its multiplier (rule files)
    ("zipai", "en", "(3 hu xi)"), ("zipai", "zh-TW", "（3 胡息）"),
    ("caishen", "en", "(×3)"), ("caishen", "zh-CN", "（×3）"),
])
@pytest.mark.some_games("one game of each unit: fan, 胡息, multiplier")
def test_the_best_hand_is_counted_in_the_games_own_unit(variant, lang, unit):
    data = {"players": [{"rank": 1, "name": "a", "total": 12, "wins": 1, "hands": 2, "paid": None,
                         "best": {"no": 2, "points": 12, "fan": 3, "hand_id": 9}}], "hands": []}
    [line] = words.player_lines(data, lang, find_variant(variant).facts)
    assert line.endswith(unit), line
