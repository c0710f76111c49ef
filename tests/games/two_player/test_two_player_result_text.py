"""二人麻将 results in words (``docs/rules/two_player.md`` §Fan table, §Settlement): the Chinese
Official fans with their values, the formula 胡牌番数 × 加倍 × 宝牌 × 连庄 × 底分 when a
multiplier is not 1, and the payment of the loser.  Values worked out in the comments."""

from __future__ import annotations

from engine.variants import find_variant

from conftest import act, stacked_hand
from result_scenarios import SCENARIOS, deal
from test_two_player_rules import IDLE

from engine.actions import Action
from render.text.results import result_lines

NAMES = ["p0", "p1"]


def lines(result: dict, lang: str = "en") -> list[str]:
    return result_lines(result, NAMES, lang, find_variant("two_player").facts)


def scenario_result(shape: str) -> dict:
    sc = SCENARIOS[("two_player", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result


def test_self_drawn_seven_pairs():
    # 11m 33m 55m 77m 99m 11z 55z self-drawn: 七对 24 + 混一色 6 + 自摸 1 = 31 (七对 excludes 门前清,
    # 不求人 and 单钓将); no 加倍, no 宝牌 copy, first hand, base 1: the loser pays 31
    out = lines(scenario_result("self_drawn"))
    assert out == ["**p0** wins with 5z (White) (self-drawn) — 31 fan",
                   "Seven Pairs 24 · Half Flush 6 · Self-Drawn 1",
                   "Payments: p1 → p0 31",
                   "p0: +31 | p1: -31"]


def test_discard_win_in_chinese():
    # the same hand on the discard of 5z: 七对 24 + 混一色 6 = 30
    out = lines(scenario_result("discard"), "zh-CN")
    assert out == ["**p0** 胡 白板（p1 点炮）— 30 番", "七对 24 · 混一色 6", "付钱：p1 → p0 30", "p0：+30 | p1：-30"]


def test_worked_example_192_shows_the_multipliers():
    # docs/rules/two_player.md worked example: a dealer who kept the deal twice wins 16 fan, 加倍
    # once, one 宝牌: 16 × 2 × 2 × 3 × 1 = 192.  The hand (test_two_player_rules): 混一色 6 +
    # 不求人 4 + 箭刻 2 + 花牌 4 (four flowers, 1 each) = 16; 宝牌 1m once in hand.
    h = stacked_hand(["1f2f3f4f1235676799m", IDLE], draws="1z8m1z8m", back="5z5z5z1z", treasure="1m", streak=2)
    act(h, "0 discard 1z", "1 discard 1z", "0 double", "0 discard 8m", "1 discard 1z", "0 hu")
    out = lines(h.result)
    # the headline's fan is 输赢番数 = 胡牌番数 × 加倍 × 宝牌 = 16 × 2 × 2 = 64
    assert out[0] == "**p0** wins with 8m (8 Characters) (self-drawn) — 64 fan"
    assert set(out[1].split(" · ")) == {"Half Flush 6", "Fully Concealed Hand 4", "Dragon Pung 2", "Flower Tiles 1×4"}
    assert "16 fan × Double 2 × Treasure 2 × Dealer streak 3 = 192" in out
    assert "Payments: p1 → p0 192" in out
    assert "16 番 × 加倍 2 × 宝牌 2 × 连庄 3 = 192" in lines(h.result, "zh-CN")


def test_exhaustive_draw_pays_nothing():
    assert lines(scenario_result("draw")) == ["Exhaustive draw — nobody pays.", "p0: +0 | p1: +0"]
