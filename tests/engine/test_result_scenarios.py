"""Every result-shape scenario (``tests/harness/result_scenarios.py``) replays to the result it names.

Each action of a scenario must be legal when it is applied, the hand must end exactly with the
last one, and the result must have the scenario's winners, discarder, liability and the points
worked out below from the rule files (``/rules/*.md``), seat by seat.
"""

from __future__ import annotations

import pytest
from result_scenarios import SCENARIOS, Scenario, deal

from engine.actions import Action
from engine.variants import find_variant

EXPECTED_SHAPES = {
    ("two_player", "self_drawn"), ("two_player", "discard"), ("two_player", "draw"),
    ("laosanfan", "self_drawn"), ("laosanfan", "discard"), ("laosanfan", "draw"),
    ("laosanfan", "santan"), ("laosanfan", "rob_kong"),
    ("jinhu", "self_drawn"), ("jinhu", "discard"), ("jinhu", "draw"), ("jinhu", "baowu"),
    ("caishen", "self_drawn"), ("caishen", "discard"), ("caishen", "draw"), ("caishen", "rob_kong"),
    ("laowudui", "self_drawn"), ("laowudui", "discard"), ("laowudui", "several_winners"), ("laowudui", "draw"),
    ("zipai", "self_drawn"), ("zipai", "discard"), ("zipai", "shown"), ("zipai", "draw"),
}

#: points per seat of every hand that has a winner, worked out by hand from the winning hand
#: and the rule file of its game (an exhaustive draw pays nothing in every game)
EXPECTED_POINTS: dict[tuple[str, str], tuple[int, ...]] = {
    # two_player.md §Fan table / §Settlement: 11m 33m 55m 77m 99m 11z 55z, no flower, no 宝牌
    # copy (宝牌 7z), no 加倍, first hand (连庄 ×1), 底分 1.  七对 24 + 混一色 6 (七对 excludes
    # 门前清, 不求人 and 单钓将) = 30 on a discard; self-drawn adds 自摸 1 = 31.  The loser pays.
    ("two_player", "self_drawn"): (31, -31),
    ("two_player", "discard"): (30, -30),
    # laosanfan.md, 么半三.  Seat 1 (the dealer, East) self-draws 5p: 345m 555p 123s 678s 99s, one
    # flower 菊 (West's, no fan).  胡 = flower 4 + self-drawn 2 + concealed pung of simples 4 = 10;
    # no fan (three suits); (30 + 10) × 1 = 40; each of the three pays 40.
    ("laosanfan", "self_drawn"): (-40, 120, -40, -40),
    # Seat 2 wins on seat 1's 9p: 567m 345p 789s 222z (concealed honour pung 8) + 9p pair wait.
    # 胡 8, no fan; 38 → 40; discard_pays=all: each of the three pays 40.
    ("laosanfan", "discard"): (-40, -40, 120, -40),
    # 三摊: seat 1 has exposed pungs 1s (terminal 4), 2s (2), 3s (2) and wins on 9s with 789s +
    # 55z: 胡 8; 混一色 (条 + honours) 2 fan: (30 + 8) × 4 = 152 → 160.  Seat 2, not ready,
    # discarded a 条 against three 条 exposures: liable, it pays for all three: 3 × 160 = 480.
    ("laosanfan", "santan"): (0, 480, -480, 0),
    # 抢杠胡 scores and pays as a win on the adder's discard: 456m (5m in the middle: 夹中胡 2)
    # 123p 456p 789p 11z, 胡 2, no fan: 32 → 40; discard_pays=discarder: seat 2 (the adder)
    # alone pays 40.
    ("laosanfan", "rob_kong"): (0, 0, -40, 40),
    # laosanfan.md Part 2 (jinhu).  Seat 3 self-draws 3s: 66m 345p 678p 123s 456s, an edge wait
    # (12s → 3s); flowers 白 and 冬: 2 fan (a real flower: no 无花果); 自摸 1 → 3 fan; every other
    # seat pays one share of 3.
    ("jinhu", "self_drawn"): (-3, -3, -3, 9),
    # Seat 0 wins on seat 1's 3m with the closed wait 24m (678m 123p 44p 123s); flowers 白, 夏, 冬:
    # 3 fan; 3m is no 贼: every other seat pays one share of 3.
    ("jinhu", "discard"): (9, -3, -3, -3),
    # 包五家: seat 1 wins on 5m (a 贼) with the closed wait 46m: 胡贼 5 + 无花果 10 = 15 = one share.
    # Seat 0 had declared no 听: it pays five shares (75), the winner gets three (45) and seats 2
    # and 3 one each (15).
    ("jinhu", "baowu"): (-75, 45, 15, 15),
    # caishen.md.  Seat 3 self-draws a 财神 (7s): 55m 33s 11z 22z 77z + 9m and 4p each paired with
    # a 财神: 七对子 4 × self-drawn 2 = 8; seat 0 deals and pays twice: 16, seats 1 and 2 pay 8.
    ("caishen", "self_drawn"): (-16, -8, -8, 32),
    # Seat 3 wins on seat 0's 6z: 22m 88m 33s 77s 22z 66z + 4m with a 财神 (5p): 七对子 4 on a
    # discard; the discarder pays alone; the dealer (seat 1) is not in the payment: 4.
    ("caishen", "discard"): (-4, 0, 0, 4),
    # 抢杠胡: 456m 123p 456p 789p 11z, no 财神: 抢杠胡 4 (no other special hand); paid like a
    # discard by the adder (seat 2); the dealer (seat 0) is not in the payment: 4.
    ("caishen", "rob_kong"): (0, 0, -4, 4),
    # laowudui.md, payment = (对 + 1) × 2^(番 + 1) × 买庄 factor; no melds, so 对 = 0.
    # 2 seats: seat 0 self-draws a wild 7s (wilds 6s 7s), all concealed, holding wilds: 门清 only
    # (not 老胡, so no 自摸 fan; no 三爆炸, 全小, 清一色): 1 × 2^2 = 4 from the other player.
    ("laowudui", "self_drawn"): (4, -4),
    # 3 seats: seat 0 wins on seat 1's 7p holding wilds (1m 2m): 门清 only: 4 from each other player
    # ("一家点炮，三家都输").
    ("laowudui", "discard"): (8, -4, -4),
    # 一炮多响: seats 1 and 2 both win on the dealer's 6m with six real pairs: 门清 + 老胡 (not
    # 全小/全大/清一色): 1 × 2^3 = 8; only the discarder pays; the dealer bought 庄, so each
    # payment between the dealer and a non-dealer doubles: 16 to each winner.
    ("laowudui", "several_winners"): (-32, 16, 16, 0),
    # zipai.md, 三息一囤.  2 seats: seat 1 self-draws 1x: 偎 of 二 (small 3) + 跑 of 三 (small 6)
    # + 贰叁肆 + 伍陆柒 (0) + pair 一 = 9 胡息 → 3 囤 × 自摸 2 番 = 6, paid by the other seat.
    ("zipai", "self_drawn"): (-6, 6),
    # 3 seats: seat 2 wins on seat 0's discarded 3X: 跑 of 柒 (big 9) + 跑 of 二 (small 6) + 一一壹
    # + 贰叁肆 + pair 六 (0) = 15 胡息 → 5 囤 × 放炮 3 番 (three players) = 15, the discarder alone.
    ("zipai", "discard"): (-15, 0, 15),
    # 3 seats: seat 2 wins on 4X shown by seat 1's draw: 壹贰叁 (6) + 二七十 (3) + 四五六 + 肆伍陆 +
    # 柒捌玖 (0) = 9 胡息 → 3 囤 × 1 番 = 3; every other seat pays 3 + its 飘 (0) + the
    # winner's 飘 (1) = 4.
    ("zipai", "shown"): (-4, -4, 8),
}


def test_every_game_has_every_result_shape():
    assert set(SCENARIOS) == EXPECTED_SHAPES
    assert set(EXPECTED_POINTS) == {k for k in EXPECTED_SHAPES if k[1] != "draw"}


def play(s: Scenario):
    """Deal the scenario and apply its actions, each checked legal; returns the finished hand."""
    hand = deal(s)
    for i, line in enumerate(s.actions):
        assert not hand.is_over(), f"the hand ended before action {i} ({line})"
        action = Action.parse(line)
        assert str(action) == line
        assert action in hand.legal_actions(action.seat), f"action {i} ({line}) is not legal"
        hand.apply(action)
    assert hand.is_over(), "the hand goes on after the last action"
    return hand


@pytest.mark.parametrize("key", sorted(SCENARIOS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_scenario_replays_to_its_result(key):
    s = SCENARIOS[key]
    assert (s.game, s.shape) == key
    info = find_variant(s.game)
    assert info.min_players <= s.n_seats <= info.max_players
    hand = play(s)
    r = hand.result
    assert len(r["points"]) == s.n_seats and sum(r["points"]) == 0
    winners = r.get("winners") or ([r["winner"]] if r["winner"] is not None else [])
    assert tuple(winners) == s.winners

    if s.shape == "draw":
        assert r["draw"] is True and r["winner"] is None and s.winners == ()
        assert r["points"] == [0] * s.n_seats  # every rule file: an exhaustive draw pays nothing
        assert s.discarder is None and s.liable is None
        return

    assert r["draw"] is False and r["winner"] == s.winners[0]
    assert tuple(r["points"]) == EXPECTED_POINTS[key]
    if s.shape == "self_drawn":
        assert r["self_drawn"] is True and r["discarder"] is None and s.discarder is None
    elif s.shape == "shown":
        # 字牌: a card turned up by another seat's draw: no discarder, not self-drawn; the
        # scenario's discarder is the seat whose draw showed it
        assert r["self_drawn"] is False and r["discarder"] is None
        shows = [e for e in hand.events if e.type in ("show", "discard")]
        assert shows[-1].type == "show" and shows[-1].seat == s.discarder
        assert s.discarder not in s.winners
    else:
        assert r["self_drawn"] is False and r["discarder"] == s.discarder
        assert s.discarder is not None and s.discarder not in s.winners
    assert r.get("robbing_kong", False) is (s.shape == "rob_kong")
    if s.shape == "several_winners":
        assert len(r["winners"]) >= 2
    if s.game == "laosanfan":
        assert r["liable"] == s.liable
        assert (s.liable is not None) is (s.shape == "santan")
    elif s.game == "jinhu":
        assert r["baowu"] == s.liable
        assert (s.liable is not None) is (s.shape == "baowu")
        if s.shape == "baowu":
            assert r["next_dealer"] == s.liable  # the 包五家 discarder deals next
    else:
        assert s.liable is None
    if s.game == "caishen" and s.shape == "rob_kong":
        # paid like a discard, by the player who added the tile (caishen.md special hands)
        payers = [seat for seat, p in enumerate(r["points"]) if p < 0]
        assert payers == [s.discarder]

