"""老三番 results in words (``docs/rules/laosanfan.md`` §胡 (points), §Fan, §Scoring styles, §三摊):
the result text lists the 胡 of every set, the pair, the wait, the flowers and a self-draw, the
fans, the style's formula and cap, the 三摊 liability and who paid whom — with the values of
the rule file's worked example and of hands worked out below.

Each expected value is worked out in the comments from the rule file, never read off the code.
"""

from __future__ import annotations

from engine.variants import find_variant

import pytest
from result_scenarios import SCENARIOS, deal
from test_laosanfan import opts, stacked, worked_hand

from engine.actions import Action
from engine.variants.laosanfan.scoring import style_calc
from render.text.results import result_lines

NAMES = ["p0", "p1", "p2", "p3"]


def lines(result: dict, lang: str = "en") -> list[str]:
    return result_lines(result, NAMES, lang, find_variant("laosanfan").facts)


def items_of(text_lines: list[str], head: str) -> set[str]:
    """The items of the line starting with ``head`` (``26 hu: a · b`` -> ``{a, b}``)."""
    line = next(x for x in text_lines if x.startswith(head))
    return set(line.split(": ", 1)[-1].split("：", 1)[-1].split(" · "))


def scenario_result(shape: str) -> dict:
    sc = SCENARIOS[("laosanfan", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result


# --- the seed's worked example: 9m exposed kong, 5m exposed pung, 13s 66m 888m, self-drawn 2s
# 胡 = 4 (888m concealed pung) + 2 (self-draw) + 2 (closed wait 1s 3s on 2s) + 16 (9m exposed
# kong) + 2 (5m pung) = 26; the chow 123s and the pair 66m score nothing.  No fan.
WORKED_ITEMS_EN = {"exposed kong 9m 16", "pung 5m 2", "concealed pung 8m 4", "closed wait (夹中胡) 2s 2",
                   "self-drawn 2", "chow 123s 0", "pair 6m 0"}
WORKED_ITEMS_ZH = {"明杠 九万 16", "碰 五万 2", "暗刻 八万 4", "夹中胡 二条 2", "自摸 2", "顺子 一二三条 0",
                   "将 六万 0"}


@pytest.mark.parametrize("style,formula,each", [
    # 么半三 0 fan: 30 + 26 = 56 → 60;  么半六: 60 + 26 = 86 → 90;  么二六: 100 + 26 = 126 → 130
    ("yaobansan", "么半三: (30 + 26 hu) × 2^0 = 56, rounded up to 60", 60),
    ("yaobanliu", "么半六: (60 + 26 hu) × 2^0 = 86, rounded up to 90", 90),
    ("yaoerliu", "么二六: (100 + 26 hu) × 2^0 = 126, rounded up to 130", 130),
    # 推倒八: points ignored, 0 fan = 100
    ("tuidaoba", "推倒八: 0 fan scores 100", 100),
])
def test_worked_example_self_drawn_lists_every_hu_item(style, formula, each):
    h = worked_hand(style=style)
    h.apply(Action(0, "hu"))
    out = lines(h.result)
    assert out[0] == f"**p0** wins with 2s (2 Bamboo) (self-drawn) — 26 hu · 0 fan · scores {each}"
    assert out[1].startswith("26 hu: ")
    assert items_of(out, "26 hu") == WORKED_ITEMS_EN
    assert formula in out
    # self-drawn: each of the three pays the total
    assert f"Payments: p1 → p0 {each} · p2 → p0 {each} · p3 → p0 {each}" in out
    assert out[-1] == f"p0: +{3 * each} | p1: -{each} | p2: -{each} | p3: -{each}"
    assert not any("Capped" in x or "capped" in x for x in out)


def test_worked_example_in_chinese():
    h = worked_hand()
    h.apply(Action(0, "hu"))
    out = lines(h.result, "zh-CN")
    assert out[0] == "**p0** 胡 二条（自摸）— 胡 26 · 番 0 · 计 60"
    assert items_of(out, "胡 26") == WORKED_ITEMS_ZH
    assert "么半三：(30 + 胡 26) × 2^0 = 56，进十为 60" in out
    assert "付钱：p1 → p0 60 · p2 → p0 60 · p3 → p0 60" in out
    tw = lines(h.result, "zh-TW")
    assert items_of(tw, "胡 26") == {"明槓 九萬 16", "碰 五萬 2", "暗刻 八萬 4", "夾中胡 二條 2", "自摸 2",
                                     "順子 一二三條 0", "將 六萬 0"}


@pytest.mark.parametrize("style,fan,formula,cap", [
    # the seed's numbers with fan: 么半三 1 fan 56 × 2 = 112 → 120; 3 fan → 300 (the cap);
    # 么半六 1 fan 86 × 2 = 172 → 180; 3 fan → 500
    ("yaobansan", 1, "么半三: (30 + 26 hu) × 2^1 = 112, rounded up to 120", None),
    ("yaobansan", 3, "么半三: (30 + 26 hu) × 2^3 = 448, rounded up to 450", 300),
    ("yaobanliu", 1, "么半六: (60 + 26 hu) × 2^1 = 172, rounded up to 180", None),
    ("yaobanliu", 3, "么半六: (60 + 26 hu) × 2^3 = 688, rounded up to 690", 500),
])
def test_worked_example_formula_with_fan(style, fan, formula, cap):
    # the worked hand's result with the style's own calculation for 1 and 3 fan
    h = worked_hand(style=style)
    h.apply(Action(0, "hu"))
    calc, caps = style_calc(style, 26, fan)
    out = lines(dict(h.result, calc=calc, caps=caps))
    assert formula in out
    capped = [x for x in out if x.startswith("capped at")]
    if cap is None:
        assert capped == []
    else:
        assert capped == [f"capped at {cap} (the formula gives {formula.rsplit(' ', 1)[-1]}; "
                          "no hand scores more than its style's 3-fan value)"]


def test_fan_cap_full_flush_all_pungs():
    # The dealer wins at once with 111m 222m 333m 444m 55m (self-drawn, 5m the last tile: a
    # pair wait, no closed wait).  胡 = concealed pungs 1m (terminal) 8 + 2m 4 + 3m 4 + 4m 4 +
    # self-drawn 2 = 22.  Fan: 清一色 3 + 对对胡 1 = 4, capped at 3 (三番为顶).  么半三:
    # (30 + 22) × 2^3 = 416 → 420, above the 3-fan value: 300 from each of the three.
    h = stacked(["111m222m333m444m55m", "123p456p789p123s4z", "123p456p789p456s5z", "123p456p789p789s6z"],
                options=opts())
    h.apply(Action(0, "hu"))
    out = lines(h.result)
    assert out[0] == "**p0** wins with 5m (5 Characters) (self-drawn) — 22 hu · 3 fan · scores 300"
    assert items_of(out, "22 hu") == {"concealed pung 1m 8", "concealed pung 2m 4", "concealed pung 3m 4",
                                      "concealed pung 4m 4", "pair 5m 0", "self-drawn 2"}
    assert "Full flush 3 · All pungs 1" in out
    assert "么半三: (30 + 22 hu) × 2^3 = 416, rounded up to 420" in out
    assert "3 fan at most (三番为顶): 4 fan count as 3" in out
    assert "capped at 300 (the formula gives 420; no hand scores more than its style's 3-fan value)" in out
    assert "Payments: p1 → p0 300 · p2 → p0 300 · p3 → p0 300" in out


def test_discard_win():
    # Seat 2 wins on seat 1's 9p: 567m 345p 789s, concealed pung 222z (an honour: 8), pair 9p.
    # 胡 8, no fan: (30 + 8) = 38 → 40; discard_pays=all: each of the three pays 40.
    out = lines(scenario_result("discard"))
    assert out[0] == "**p2** wins with 9p (9 Dots) (from p1) — 8 hu · 0 fan · scores 40"
    assert items_of(out, "8 hu") == {"chow 567m 0", "chow 345p 0", "chow 789s 0", "concealed pung 2z 8",
                                     "pair 9p 0"}
    assert "么半三: (30 + 8 hu) × 2^0 = 38, rounded up to 40" in out
    assert "Payments: p0 → p2 40 · p1 → p2 40 · p3 → p2 40" in out


def test_santan_liability():
    # Seat 1 has exposed pungs 1s (terminal 4), 2s (2), 3s (2) and wins on 9s with 789s + 55z:
    # 胡 8; 混一色 2 fan: (30 + 8) × 2^2 = 152 → 160.  Seat 2, not ready, discarded a 条 into
    # three 条 exposures: it alone pays what all three would have paid, 3 × 160 = 480.
    out = lines(scenario_result("santan"))
    assert out[0] == "**p1** wins with 9s (9 Bamboo) (from p2) — 8 hu · 2 fan · scores 160"
    assert items_of(out, "8 hu") == {"pung 1s 4", "pung 2s 2", "pung 3s 2", "chow 789s 0", "pair 5z 0"}
    assert "Half flush 2" in out
    assert "么半三: (30 + 8 hu) × 2^2 = 152, rounded up to 160" in out
    assert "p2 pays for everyone (三摊)" in out
    assert ("p2 was not ready and discarded 9s (9 Bamboo) into p1's three exposures (三摊): pays for all three"
            in out)
    assert "Payments: p2 → p1 480 (for 3 players)" in out
    zh = lines(scenario_result("santan"), "zh-CN")
    assert "p2 未听牌，打出 九条 给已有三摊的 p1 胡：包牌，替三家付钱" in zh
    assert "付钱：p2 → p1 480（包 3 家）" in zh


def test_robbing_a_kong():
    # 抢杠胡 pays as a win on the adder's discard: 456m (5m in the middle: 夹中胡 2), 123p 456p
    # 789p, pair 11z: 胡 2 → (30 + 2) = 32 → 40, the adder (seat 2) alone pays (discard_pays=discarder)
    out = lines(scenario_result("rob_kong"))
    assert out[0] == "**p3** wins with 5m (5 Characters) (robbing p2's kong) — 2 hu · 0 fan · scores 40"
    assert "closed wait (夹中胡) 5m 2" in items_of(out, "2 hu")
    assert "Payments: p2 → p3 40" in out


def test_exhaustive_draw_pays_nothing():
    out = lines(scenario_result("draw"))
    assert out == ["Exhaustive draw — nobody pays.", "p0: +0 | p1: +0 | p2: +0 | p3: +0"]


def test_hutou_payments_between_the_non_winners():
    # the worked hand with 胡头: seat 2 holds concealed 999s and 111p (8 + 8 = 16 胡), seats 1
    # and 3 nothing: one full 10 of difference, seat 2 collects 5 from each 边家 (the dealer won)
    h = worked_hand(hutou=True)
    h.apply(Action(0, "hu"))
    out = lines(h.result)
    assert ("Payments: p1 → p0 60 · p2 → p0 60 · p3 → p0 60 · p1 → p2 5 (胡头, 16 hu apart) · "
            "p3 → p2 5 (胡头, 16 hu apart)") in out
    assert out[-1] == "p0: +180 | p1: -65 | p2: -50 | p3: -65"


def test_money_rounding_is_shown_with_yaobanliu():
    # 么半六, worked hand: 90 from each of three.  Money rounding (laosanfan.md): of the last two
    # digits 0–20 nothing, 30–60 half a hundred, 70–100 a whole one: 270 → 300, 90 → 100
    h = worked_hand(style="yaobanliu", money_rounding=True)
    h.apply(Action(0, "hu"))
    out = lines(h.result)
    assert out[-2] == "p0: +270 | p1: -90 | p2: -90 | p3: -90"
    assert out[-1] == "Money (rounded): p0 +300 | p1 -100 | p2 -100 | p3 -100"
