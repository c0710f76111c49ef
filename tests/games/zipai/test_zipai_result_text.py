"""字牌 results in words (``docs/rules/zipai.md`` §胡息, §Scoring): the headline says 胡息 and 囤,
every group is listed with its 胡息, then the 名堂 (自摸 2, 放炮 n, a shown card 1), the 囤
formula and each payment with its 飘.  Values from the rule file's worked example, worked out
in the comments."""

from __future__ import annotations

from engine.variants import find_variant

from result_scenarios import SCENARIOS, deal
from test_zipai_rules import act, make

from engine.actions import Action
from render.text.results import result_lines

NAMES = ["p0", "p1", "p2", "p3"]


def lines(result: dict, lang: str = "en", n: int = 2) -> list[str]:
    return result_lines(result, NAMES[:n], lang, find_variant("zipai").facts)


def items_of(text_lines: list[str], head: str) -> set[str]:
    line = next(x for x in text_lines if x.startswith(head))
    return set(line.split(": ", 1)[-1].split("：", 1)[-1].split(" · "))


def scenario_result(shape: str) -> tuple[dict, int]:
    sc = SCENARIOS[("zipai", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result, sc.n_seats


def worked_hand(**opts):
    """zipai.md worked example, played (test_zipai_rules): seat 1 pungs 八, then draws 七."""
    h = make(["8x 1X 3X 4X 6X 9X 1x 4x 4x 9x 9x 3X 6X 10X 10X",
              "2X 7X 10X 1x 2x 3x 5X 5X 5X 5x 6x 8x 8x 9X"], stock="10x 7x", **opts)
    act(h, 0, "discard", "8x")
    act(h, 1, "peng")
    act(h, 1, "discard", "9X")
    while not (h.phase == "claim" and h.pending_seats() == [1]):
        act(h, h.pending_seats()[0], "pass")
    act(h, 1, "hu")
    return h


def test_worked_example_16_huxi_5_tun_10():
    # 贰柒拾 (6) + 一二三 (3) + 碰 of 八 (1) + 坎 of 伍 (6) + 五六七 (0) = 16 胡息, 自摸, 三息一囤:
    # 16 // 3 = 5 囤 × 2 番 = 10, paid by the other player
    out = lines(worked_hand().result)
    assert out[0] == "**p1** wins with 7x (small 7) (self-drawn) — 16 hu xi · 10 tun"
    assert items_of(out, "16 hu xi") == {"2-7-10X 6", "123x 3", "peng (碰) 8x 1", "kan (坎) 5X 6", "567x 0"}
    assert "Self-drawn 2" in out
    assert "16 hu xi ÷ 3 = 5 tun (三息一囤) × 2 fan = 10 tun" in out
    assert "Payments: p0 → p1 10" in out
    assert out[-1] == "p0: -10 | p1: +10"
    assert not any(" fan" in x for x in out[:1])  # the headline counts 胡息 and 囤, not 番
    zh = lines(worked_hand().result, "zh-CN")
    assert zh[0] == "**p1** 胡 七（自摸）— 胡息 16 · 10 囤"
    assert items_of(zh, "胡息 16") == {"贰柒拾 6", "一二三 3", "碰 八 1", "坎 伍 6", "五六七 0"}
    assert "16 胡息 ÷ 3 = 5 囤（三息一囤）× 2 番 = 10 囤" in zh


def test_one_tun_per_huxi():
    # 一息一囤: the same 16 胡息 are 16 囤 × 2 番 = 32
    out = lines(worked_hand(tun_per=1).result)
    assert "16 hu xi = 16 tun (一息一囤) × 2 fan = 32 tun" in out
    assert "Payments: p0 → p1 32" in out


def test_mao_hu_counts_as_ten():
    # 毛胡 10: the dealer wins at once with five 0-胡息 sentences 四五六 七八九 肆伍陆 柒捌玖
    # 叁肆伍 (scored as self-drawn): 10 胡息 → 3 囤 × 2 番 = 6
    h = make(["4x 5x 6x 7x 8x 9x 4X 5X 6X 7X 8X 9X 3X 4X 5X", "1x 1x 2x 2x 3x 3x 10x 10x 1X 1X 2X 2X 10X 10X"],
             maohu=10)
    act(h, 0, "hu")
    out = lines(h.result)
    assert items_of(out, "10 hu xi") == {"456x 0", "789x 0", "456X 0", "789X 0", "345X 0", "mao hu (毛胡) 10"}
    assert "10 hu xi ÷ 3 = 3 tun (三息一囤) × 2 fan = 6 tun" in out


def test_discard_win_the_discarder_alone_pays():
    # 3 seats: seat 2 wins on seat 0's discarded 3X: 跑 of 柒 (big 9) + 跑 of 二 (small 6) + 一一壹
    # (0) + 贰叁肆 (0) + pair 六 (0) = 15 胡息 → 5 囤 × 放炮 3 番 = 15, the discarder alone
    result, n = scenario_result("discard")
    out = lines(result, n=n)
    assert out[0] == "**p2** wins with 3X (big 3) (from p0) — 15 hu xi · 15 tun"
    assert items_of(out, "15 hu xi") == {"pao (跑) 7X 9", "pao (跑) 2x 6", "jiao (绞) 1x 1x 1X 0", "234X 0",
                                          "pair 6x 0"}
    assert "Dealt in 3" in out
    assert "15 hu xi ÷ 3 = 5 tun (三息一囤) × 3 fan = 15 tun" in out
    assert "Payments: p0 → p2 15" in out


def test_shown_card_win_every_other_seat_pays_with_piao():
    # 3 seats: seat 2 wins on 4X shown by seat 1's draw: 壹贰叁 (6) + 二七十 (3) + 0s = 9 胡息 →
    # 3 囤 × 1 番 = 3; each other seat pays 3 + its 飘 (0) + the winner's 飘 (1) = 4
    result, n = scenario_result("shown")
    out = lines(result, n=n)
    assert out[0] == "**p2** wins with 4X (big 4) (on the card p1 turned up) — 9 hu xi · 3 tun"
    assert {"123X 6", "2-7-10x 3"} <= items_of(out, "9 hu xi")
    assert "Shown card 1" in out
    assert "Payments: p0 → p2 4 (piao (飘) +1) · p1 → p2 4 (piao (飘) +1)" in out
    zh = lines(result, "zh-CN", n=n)
    assert "付钱：p0 → p2 4（飘 +1） · p1 → p2 4（飘 +1）" in zh


def test_self_drawn_scenario():
    # 2 seats: seat 1 self-draws 1x: 偎 of 二 (small 3) + 跑 of 三 (small 6) + 贰叁肆 + 伍陆柒 (0) +
    # pair 一 = 9 胡息 → 3 囤 × 自摸 2 番 = 6
    result, n = scenario_result("self_drawn")
    out = lines(result, n=n)
    assert items_of(out, "9 hu xi") == {"wei (偎) 2x 3", "pao (跑) 3x 6", "234X 0", "567X 0", "pair 1x 0"}
    assert "Payments: p0 → p1 6" in out


def test_exhaustive_draw_pays_nothing():
    result, n = scenario_result("draw")
    assert lines(result, n=n) == ["Exhaustive draw — nobody pays.", " | ".join(f"p{i}: +0" for i in range(n))]
