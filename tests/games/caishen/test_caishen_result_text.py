"""财神麻将 results in words (``docs/rules/caishen.md`` §Winning hands and multipliers, §Scoring):
the multiplying special hands with their values, self-drawn ×2, the cap of 40, the stake, the
财神 held, and each payment with the dealer's double.  Values from the rule file's worked
examples, worked out in the comments."""

from __future__ import annotations

from engine.variants import find_variant

from conftest import act
from result_scenarios import SCENARIOS, deal
from test_caishen import laid_out, stacked

from engine.actions import Action
from engine.tiles import parse_kind
from render.text.results import result_lines

NAMES = ["p0", "p1", "p2", "p3"]


def lines(result: dict, lang: str = "en") -> list[str]:
    return result_lines(result, NAMES, lang, find_variant("caishen").facts)


def scenario_result(shape: str) -> dict:
    sc = SCENARIOS[("caishen", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result


def win_laid_out(h, seat: int, tile: str, discarder=None) -> dict:
    """Settle a laid-out hand's win of ``seat`` on ``tile`` (self-drawn: a tile it holds)."""
    k = parse_kind(tile)
    if discarder is None:
        phys = next(t for t in h.hands[seat] if t >> 2 == k)
    else:
        phys = next(t for t in range(k * 4, k * 4 + 4) if all(t not in hand for hand in h.hands))
    h._win(seat, phys, discarder, self_drawn=discarder is None)
    return h.result


def test_caishen_hui_plus_seven_pairs_self_drawn_16():
    # caishen.md: 财神会 (2) × 七对子 (4) × self-drawn (2) = 16; seat 1 holds three 财神 (1m);
    # each non-dealer pays 16, the dealer (seat 0) twice that
    h = stacked(["234567m345p678s9p1z", "111m2233p4455s67z", "456789m678p234s2z", "789m789p789s2233z"],
                draws="9s")
    act(h, "0 discard 9p", "1 pass", "1 hu")
    out = lines(h.result)
    assert out[0] == "**p1** wins with 9s (9 Bamboo) (self-drawn) — ×16"
    assert set(out[1].split(" · ")) == {"Seven pairs 4", "Three 财神 2"}
    assert "special hands ×8 × self-drawn 2 = ×16 · stake 1 · 财神 held: 3" in out
    assert "Payments: p0 → p1 32 (dealer ×2) · p2 → p1 16 · p3 → p1 16" in out
    zh = lines(h.result, "zh-CN")
    assert zh[0] == "**p1** 胡 九条（自摸）— 16 倍"
    assert "特殊牌型 8 × 自摸 2 = 16 倍 · 底注 1 · 手中财神 3 张" in zh
    assert "付钱：p0 → p1 32（庄家 ×2） · p2 → p1 16 · p3 → p1 16" in zh


def test_full_flush_all_pungs_kong_replacement_capped_at_40():
    # 清一色 4 × 大碰胡 4 × 杠头开花 2 × self-drawn 2 = 64 → capped at 40; a non-dealer (seat 1)
    # wins: the dealer pays 80, the others 40
    h = laid_out("111222m99m", [("kong", "5555m"), ("pung", "333m")])
    h.after_kong = True
    out = lines(win_laid_out(h, 1, "9m"))
    assert out[0].endswith("— ×40")
    assert "special hands ×32 × self-drawn 2 = ×64 · stake 1 · 财神 held: 0" in out
    assert "capped at ×40 (×64 without the cap)" in out
    assert "Payments: p0 → p1 80 (dealer ×2) · p2 → p1 40 · p3 → p1 40" in out
    assert "封顶 40 倍（算出 64 倍）" in lines(h.result, "zh-CN")


def test_plain_self_drawn_win_by_the_dealer_each_pays_4():
    # caishen.md: plain self-drawn win by the dealer: ×2, doubled for the dealer: each pays 4
    h = laid_out("123m456m789p234s11z", seat=0, dealer=0)
    out = lines(win_laid_out(h, 0, "4s"))
    assert out[0] == "**p0** wins with 4s (4 Bamboo) (self-drawn) — ×2"
    assert "plain win, self-drawn ×2 · stake 1 · 财神 held: 0" in out
    assert "Payments: p1 → p0 4 (dealer ×2) · p2 → p0 4 (dealer ×2) · p3 → p0 4 (dealer ×2)" in out


def test_plain_discard_win_between_non_dealers_stake_1():
    # caishen.md: plain win on a discard, non-dealer winner, non-dealer discarder, stake 1: 1
    h = laid_out("123m456m789p23s11z", seat=2, dealer=0)
    out = lines(win_laid_out(h, 2, "4s", discarder=3))
    assert out[0] == "**p2** wins with 4s (4 Bamboo) (from p3) — ×1"
    assert "plain win ×1 (on a discard) · stake 1 · 财神 held: 0" in out
    assert "Payments: p3 → p2 1" in out


def test_scenarios_discard_and_robbing_a_kong():
    # 七对子 4 on a discard, paid by the discarder alone (not the dealer): 4
    out = lines(scenario_result("discard"))
    assert out[0] == "**p3** wins with 6z (Green) (from p0) — ×4"
    assert "Seven pairs 4" in out and "Payments: p0 → p3 4" in out
    # 抢杠胡 4, paid like a discard by the adder
    out = lines(scenario_result("rob_kong"))
    assert out[0] == "**p3** wins with 5m (5 Characters) (robbing p2's kong) — ×4"
    assert "Robbing a kong 4" in out and "Payments: p2 → p3 4" in out


def test_exhaustive_draw_pays_nothing():
    assert lines(scenario_result("draw")) == ["Exhaustive draw — nobody pays.", "p0: +0 | p1: +0 | p2: +0 | p3: +0"]
