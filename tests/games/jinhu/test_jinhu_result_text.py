"""金湖老三番 results in words (``docs/rules/laosanfan.md`` Part 2: fan = points, a share = the
winner's fan, 包五家, the ×2 after 包五家): the fans with their values, the ×2 when it applies,
包五家 with its reason, and every payment in shares.  Values worked out in the comments."""

from __future__ import annotations

from engine.variants import find_variant

from result_scenarios import SCENARIOS, deal
from test_jinhu import k, stacked

from engine.actions import Action
from render.text.results import result_lines

NAMES = ["p0", "p1", "p2", "p3"]


def lines(result: dict, lang: str = "en") -> list[str]:
    return result_lines(result, NAMES, lang, find_variant("jinhu").facts)


def scenario_result(shape: str) -> dict:
    sc = SCENARIOS[("jinhu", shape)]
    h = deal(sc)
    for line in sc.actions:
        h.apply(Action.parse(line))
    return h.result


def test_self_drawn_every_other_seat_pays_one_share():
    # Seat 3 self-draws 3s (edge wait 12s): flowers 白 and 冬 1 each, 自摸 1 → 3 fan = one share
    out = lines(scenario_result("self_drawn"))
    assert out[0] == "**p3** wins with 3s (3 Bamboo) (self-drawn) — 3 fan"
    assert "Flowers 1×2 · Self-drawn 1" in out
    assert "Payments: p0 → p3 3 · p1 → p3 3 · p2 → p3 3" in out
    assert not any("×" in x and "=" in x for x in out)  # no ×2 streak: no formula line


def test_discard_of_no_thief_every_other_seat_pays_one_share():
    # Seat 0 wins on seat 1's 3m (closed wait 24m), flowers 白 夏 冬: 3 fan; 3m is no 贼
    out = lines(scenario_result("discard"))
    assert out[0] == "**p0** wins with 3m (3 Characters) (from p1) — 3 fan"
    assert "Payments: p1 → p0 3 · p2 → p0 3 · p3 → p0 3" in out
    assert not any("pays for everyone" in x for x in out)


def test_baowujia_five_shares_three_to_the_winner():
    # 包五家: seat 1 wins on 5m (a 贼) with the closed wait 46m: 胡贼 5 + 无花果 10 = 15 = one
    # share.  Seat 0 had declared no 听: it pays five shares, three (45) to the winner and one
    # (15) to each of the other two.
    out = lines(scenario_result("baowu"))
    assert out[0] == "**p1** wins with 5m (5 Characters) (from p0) — 15 fan"
    assert "No real flower 10 · Winning on a thief 5" in out
    assert "p0 pays for everyone (包五家)" in out
    assert ("p0 had not declared ready and dealt in the thief (贼) 5m (5 Characters) to p1: 包五家, "
            "pays five shares") in out
    assert ("Payments: p0 → p1 45 (3 × a share) · p0 → p2 15 (1 × a share) · p0 → p3 15 (1 × a share)"
            in out)
    zh = lines(scenario_result("baowu"), "zh-CN")
    assert "无花果 10 · 胡贼 5" in zh
    assert "p0 没有报听，打出贼 五万 给 p1 胡：包五家，一人付五家之数" in zh
    assert "付钱：p0 → p1 45（3 倍） · p0 → p2 15（1 倍） · p0 → p3 15（1 倍）" in zh


def test_doubled_streak_shows_the_times_two():
    # Seat 1 deals after causing 包五家: its win fan doubles.  15 fan (无花果 10 + 胡贼 5) × 2 =
    # 30 a share; seat 0 had declared 听, so every other seat pays one share of 30.
    h = stacked(context={"jinhu_doubled": 1})
    h.apply(Action(0, "ting", k("5m")))
    h.apply(Action(1, "hu"))
    out = lines(h.result)
    assert out[0] == "**p1** wins with 5m (5 Characters) (from p0) — 30 fan"
    assert "15 fan × Dealer after 包五家 2 = 30" in out
    assert "Payments: p0 → p1 30 · p2 → p1 30 · p3 → p1 30" in out
    assert "15 番 × 包五家连庄 2 = 30" in lines(h.result, "zh-CN")


def test_exhaustive_draw_pays_nothing():
    assert lines(scenario_result("draw")) == ["Exhaustive draw — nobody pays.", "p0: +0 | p1: +0 | p2: +0 | p3: +0"]
