"""老五对 results in words (``docs/rules/laowudui.md`` §Scoring): the 对 of every meld (a pair 1 or
2, a four 10 or 20), the fans, the payment formula (对 + 1) × 2^番 and each payment with its
买庄 factor, for one winner and for several on one discard.  Values from the rule file's worked
examples, worked out in the comments."""

from __future__ import annotations

from engine.variants import find_variant

from result_scenarios import SCENARIOS, deal
from test_laowudui_rules import _example_table, act, set_seat, stacked

from engine.actions import Action
from engine.tiles import parse_kind
from render.text.results import result_lines

NAMES = ["p0", "p1", "p2", "p3"]


def lines(result: dict, lang: str = "en", n: int = 4) -> list[str]:
    return result_lines(result, NAMES[:n], lang, find_variant("laowudui").facts)


def scenario_result(shape: str) -> dict:
    sc = SCENARIOS[("laowudui", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result


def win_of_the_worked_example(bought=(False, False, False, False)) -> dict:
    h = _example_table(bought=bought)
    act(h, "0 discard 6s")
    for s in h.pending_seats():
        if s != 1:
            act(h, f"{s} pass")
    act(h, "1 hu")
    return h.result


def test_worked_example_96():
    # laowudui.md: meld area 吃 pair of 1m (2) + 吃 pair of 5p (1) + 杠 of 9s (20) → 对 23; 老胡
    # only: (23 + 1) × 2^(1+1) = 96 from each loser (nobody bought 庄)
    out = lines(win_of_the_worked_example())
    assert out[0] == "**p1** wins with 6s (6 Bamboo) (from p0) — 23 dui · 2 fan · scores 96"
    assert out[1] == "23 dui (对): pair 1m 2 · pair 5p 1 · four 9s 20"
    assert out[2] == "Base fan 1 · No wild 1"
    assert out[3] == "(23 dui + 1) × 2^2 = 96"
    assert "Payments: p0 → p1 96 · p2 → p1 96 · p3 → p1 96" in out
    zh = lines(win_of_the_worked_example(), "zh-CN")
    assert zh[1] == "对 23：吃 一万 2 · 吃 五筒 1 · 杠 九条 20"
    assert zh[3] == "(对 23 + 1) × 2^2 = 96"


def test_worked_example_with_buying():
    # the dealer bought 庄 and the winner bought too: the dealer pays 96 × 2 × 2 = 384; the
    # other non-dealers 96
    out = lines(win_of_the_worked_example(bought=(True, True, False, False)))
    assert "Payments: p0 → p1 384 (买庄 ×4) · p2 → p1 96 · p3 → p1 96" in out
    assert "付钱：p0 → p1 384（买庄 ×4） · p2 → p1 96 · p3 → p1 96" in lines(
        win_of_the_worked_example(bought=(True, True, False, False)), "zh-CN")


def test_a_stack_completed_by_a_wild_counts_as_a_four():
    # 堆 of 5m + a 百搭 (9p: 白花 turned, 四百佬) = 10, 吃 pair of 1m = 2, 吃 pair of 2m = 1 →
    # 对 13 (laowudui.md §Scoring: "杠, or 堆 + a 百搭"); the hand 3s3s 4s + 4s won
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="Tp")
    set_seat(h, 1, "9p3s3s4s", [("dui", "5m5m5m"), ("chi", "1m1m"), ("chi", "2m2m")])
    ev = h.evaluate_win(1, parse_kind("4s"), True)
    assert ev["count"]["value"] == 13
    assert {(i["item"], i["value"]) for i in ev["count"]["items"]} == {("four", 10), ("pair", 2), ("pair", 1)}


def test_several_winners_on_one_discard():
    # 一炮多响: seats 1 and 2 win on the dealer's 6m with six real pairs: 门清 + 老胡 (no melds: 对 0):
    # (0 + 1) × 2^3 = 8; only the discarder pays; the dealer bought 庄: each payment ×2 = 16
    out = lines(scenario_result("several_winners"))
    assert out[:2] == ["**p1** wins with 6m (6 Characters) (from p0) — 0 dui · 3 fan · scores 8",
                       "**p2** wins with 6m (6 Characters) (from p0) — 0 dui · 3 fan · scores 8"]
    for p in ("p1", "p2"):
        assert f"{p}: 0 dui (对)" in out
        assert f"{p}: Base fan 1 · Concealed hand 1 · No wild 1" in out
        assert f"{p}: (0 dui + 1) × 2^3 = 8" in out
    assert "Payments: p0 → p1 16 (买庄 ×2) · p0 → p2 16 (买庄 ×2)" in out


def test_self_drawn_and_discard_scenarios():
    # 2 seats: seat 0 self-draws a wild, all concealed: 门清 only: (0 + 1) × 2^2 = 4
    out = lines(scenario_result("self_drawn"), n=2)
    assert out[0] == "**p0** wins with 7s (7 Bamboo) (self-drawn) — 0 dui · 2 fan · scores 4"
    assert "Payments: p1 → p0 4" in out
    # 3 seats: seat 0 wins on seat 1's 7p, 门清 only: 4 from each other player (一家点炮，三家都输)
    out = lines(scenario_result("discard"), n=3)
    assert "Payments: p1 → p0 4 · p2 → p0 4" in out


def test_exhaustive_draw_pays_nothing():
    assert lines(scenario_result("draw")) == ["Exhaustive draw — nobody pays.", "p0: +0 | p1: +0 | p2: +0 | p3: +0"]
