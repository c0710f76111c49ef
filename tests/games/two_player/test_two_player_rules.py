"""Rule tests of the ``two_player`` hand (二人麻将), from ``docs/rules/two_player.md``.

Every situation is dealt from a stacked wall (``conftest.stacked_hand``): seat 0 deals
unless a test says otherwise, so seat 0 holds 14 tiles and discards first.  Expected
fan values are worked by hand from the "Fan table" in a comment next to each check;
the worked examples of the rule file are checked with their stated values.
"""

from __future__ import annotations

import pytest
from conftest import act, concealed, default_options, legal, stacked_hand
from two_player_deals import (ADDED_KONG_DEALER_IDLE, ADDED_KONG_DEALER_READY, ADDED_KONG_SEAT1, CLAIMER, DEALER_12,
                              DISCARDS_5M, IDLE, fan_names, refused, twelve_fan_hand)

from engine.actions import CHOW, HU, KONG, PUNG
from engine.tiles import kind_str, parse_kinds
from engine.variants.two_player import (
    TwoPlayerHand,
    settlement_points,
    streak_multiplier,
    treasure_multiplier,
)

NON_FLOWER = set(range(9)) | set(range(27, 34))


# ---------------------------------------------------------------------------
# worked examples (docs/rules/two_player.md "Worked examples")
# ---------------------------------------------------------------------------


def test_treasure_multipliers():
    # 0 copies ×1, 1 ×2, 2 ×4, 3 ×8, 4 ×16
    assert [treasure_multiplier(n) for n in range(5)] == [1, 2, 4, 8, 16]
    with pytest.raises(ValueError):
        treasure_multiplier(5)


def test_settlement_formula():
    # 16 × 2 (加倍 once) × 2 (one 宝牌) × 3 (kept twice: 2 + 1) × 1 = 192
    assert settlement_points(16, 2, 1, 2) == 192
    assert streak_multiplier(0) == 1 and streak_multiplier(2) == 3
    # 12 fan, 加倍 twice (×4), no 宝牌, first-time dealer: 48
    assert settlement_points(12, 4, 0, 0) == 48
    assert settlement_points(12, 4, 0, 0, base=5) == 240


def test_twelve_fan_refused_then_double_twice_wins_48():
    h = twelve_fan_hand()
    assert h.drawn[0] is not None and kind_str(h.drawn[0] >> 2) == "8m"
    ev = h._evaluate_pending_win(0)
    assert ev["fan_total"] == 12 and ev["total_fan"] == 12 and not ev["ok"]
    # a win is on the table (加倍 / 胡 / 过 prompt) but 胡 is refused below 15
    assert h.win_offered(0)
    assert "0 double" in legal(h, 0) and "0 hu" not in legal(h, 0)
    err = refused(h, "0 hu", "fan_below_minimum")
    assert err.params == {"fan": 12, "need": 15}
    # 加倍 once: multiplier 2, the chance is given up (no 胡, no second 加倍 on this tile)
    act(h, "0 double")
    assert h.doubles == [2, 1]
    assert "0 hu" not in legal(h, 0) and "0 double" not in legal(h, 0)
    refused(h, "0 hu", "not_a_winning_hand")
    act(h, "0 discard 8m", "1 discard 1z")
    # 12 × 2 = 24 ≥ 15 would already be allowed; 加倍 again: 2 → 4 (cumulative)
    assert "0 hu" in legal(h, 0)
    act(h, "0 double", "0 discard 8m", "1 discard 1z")
    assert h.doubles == [4, 1]
    act(h, "0 hu")
    r = h.result
    assert r["winner"] == 0 and r["self_drawn"] and r["win_tile"] == "8m"
    assert fan_names(r) == {"混一色": 6, "不求人": 4, "箭刻": 2}
    # 12 × 4 = 48 ≥ 15; points 48 × 1 (first-time dealer) × 1 (base)
    assert (r["fan_total"], r["doubles"], r["total_fan"]) == (12, 4, 48)
    assert r["points"] == [48, -48]


def test_dealer_kept_twice_192_through_a_real_hand():
    # The dealer is dealt four flowers (replaced by 5z 5z 5z 1z from the back), so the
    # 12-fan hand above scores 12 + 花牌 4 = 16; one 宝牌 (1m) in hand, 加倍 once, kept twice.
    h = stacked_hand(["1f2f3f4f1235676799m", IDLE], draws="1z8m1z8m", back="5z5z5z1z",
                     treasure="1m", streak=2)
    assert concealed(h, 0) == "1235667799m1555z"
    act(h, "0 discard 1z", "1 discard 1z")
    ev = h._evaluate_pending_win(0)
    assert (ev["fan_total"], ev["treasure_copies"], ev["total_fan"]) == (16, 1, 32)
    act(h, "0 double", "0 discard 8m", "1 discard 1z", "0 hu")
    r = h.result
    assert fan_names(r) == {"混一色": 6, "不求人": 4, "箭刻": 2, "花牌": 4}
    assert (r["fan_total"], r["doubles"], r["treasure_multiplier"], r["streak_multiplier"]) == (16, 2, 2, 3)
    # 16 × 2 × 2 × 3 × 1 = 192
    assert r["points"] == [192, -192]


def test_flowers_reach_the_minimum():
    # the 12-fan hand with 3 flowers: 12 + 3 = 15 ≥ 15 → the win is allowed without 加倍
    h = stacked_hand(["1f5f8f1235676799m1z", IDLE], draws="1z8m", back="5z5z5z", treasure="4m")
    act(h, "0 discard 1z")
    # seat 1 holds 2z 2z: the dealer's 1z gives no claim; seat 1 discards its drawn 1z
    act(h, "1 discard 1z")
    assert "0 hu" in legal(h, 0)
    act(h, "0 hu")
    assert h.result["fan_total"] == 15 and fan_names(h.result)["花牌"] == 3
    assert h.result["points"] == [15, -15]


# ---------------------------------------------------------------------------
# flowers (补花)
# ---------------------------------------------------------------------------


def test_dealt_flowers_replaced_from_the_back_dealer_first():
    # seat 0 dealt 2 flowers, seat 1 dealt 1; the back holds 1z 2z (dealer's) then 3z (seat 1's)
    h = stacked_hand(["2f6f123456789m55z7z", "3f1234567m66z77z4z"], back="1z2z3z", treasure="9m")
    assert [[kind_str(t >> 2) for t in f] for f in h.flowers] == [["2f", "6f"], ["3f"]]
    assert concealed(h, 0) == "123456789m12557z" and concealed(h, 1) == "1234567m346677z"
    flower_events = [(e.seat, kind_str(e.tile)) for e in h.events if e.type == "flower"]
    assert flower_events == [(0, "2f"), (0, "6f"), (1, "3f")]
    # three replacements came from the back of the 72-tile wall; no draw was counted
    assert (h.front, h.back) == (27, 69) and h.draws_made == [0, 0]
    assert len(h.hands[0]) == 14 and len(h.hands[1]) == 13
    assert all(not h.is_bonus(t >> 2) for s in (0, 1) for t in h.hands[s])
    view = h.view(None)
    assert view["seats"][0]["flowers"] == ["2f", "6f"] and view["seats"][1]["flowers"] == ["3f"]


def test_drawn_flower_is_replaced_from_the_back():
    h = stacked_hand(["123456789m11223z", "1234567m34z66z77z"], draws="8f", back="4z", treasure="9m")
    act(h, "0 discard 2z")
    # seat 1 draws 8f from the front: set aside, 4z drawn from the back instead
    assert [kind_str(t >> 2) for t in h.flowers[1]] == ["8f"]
    assert kind_str(h.drawn[1] >> 2) == "4z" and h.draws_made[1] == 1
    assert (h.front, h.back) == (28, 71)
    types = [e.type for e in h.events[-3:]]
    assert types == ["discard", "flower", "draw"]


# ---------------------------------------------------------------------------
# 宝牌
# ---------------------------------------------------------------------------


def test_treasure_is_a_public_non_flower_kind():
    opts = default_options()
    seen = set()
    for seed in range(300):
        h = TwoPlayerHand(opts, seed, seed % 2)
        assert h.treasure in NON_FLOWER
        seen.add(h.treasure)
        assert h.view(None)["treasure"] == kind_str(h.treasure)
        assert h.view(0)["treasure"] == h.view(1)["treasure"] == kind_str(h.treasure)
        assert any(e.type == "treasure" and e.tile == h.treasure for e in h.events)
    # drawn among the 64 non-flower tiles: all 16 kinds occur over 300 seeds
    assert seen == NON_FLOWER


def test_treasure_copies_in_melds_and_winning_tile_count():
    # seat 1 pungs 5m (treasure) from the dealer, discards 6z and is ready on 2m/5m;
    # it draws the last 5m: 3 copies in the pung + the winning tile = 4 → ×16
    h = stacked_hand(["1m5m6m9m2z333z444z777z", "55m34m789m111z22z6z"], draws="7z5m", treasure="5m")
    act(h, "0 discard 5m", "1 pung", "1 discard 6z", "0 discard 7z")
    assert h.drawn[1] >> 2 == parse_kinds("5m")[0]
    act(h, "1 hu")
    r = h.result
    # 5m pung (exposed) + 345m 789m 111z 22z, self-drawn: 混一色 6, 自摸 1, 幺九刻 1 (111z),
    # 四归一 2 (all four 5m, not a kong), 和绝张 4 (the other three 5m are shown in the
    # exposed pung) = 14  (pymahjonggb gives the same list for this hand)
    assert fan_names(r) == {"混一色": 6, "自摸": 1, "幺九刻": 1, "四归一": 2, "和绝张": 4}
    assert (r["fan_total"], r["treasure_copies"], r["treasure_multiplier"]) == (14, 4, 16)
    assert r["total_fan"] == 224 and r["points"] == [-224, 224]
    assert r["hands"][1] == ["3m", "4m", "5m", "7m", "8m", "9m", "1z", "1z", "1z", "2z", "2z"]
    assert [str(m) for m in h.melds[1]] == ["pung:5m5m5m"]


def test_treasure_concealed_copies_count():
    # the 12-fan hand with the treasure 5z (a concealed pung: 3 copies) → ×8: 96 ≥ 15
    h = twelve_fan_hand(treasure="5z")
    act(h, "0 hu")
    r = h.result
    assert (r["treasure_copies"], r["treasure_multiplier"], r["total_fan"]) == (3, 8, 96)
    assert r["points"] == [96, -96]


# ---------------------------------------------------------------------------
# claims: 吃 碰 杠 胡 on the opponent's discard, own kongs, 抢杠胡
# ---------------------------------------------------------------------------



def test_claim_options_on_a_discard():
    h = stacked_hand([DISCARDS_5M, CLAIMER], back="9m", treasure="1m")
    act(h, "0 discard 5m")
    assert h.phase == "claim" and h.pending_seats() == [1]
    assert legal(h, 1) == {"1 chow 3m", "1 chow 4m", "1 chow 5m", "1 pung", "1 kong", "1 pass"}
    # the discarder has nothing to do in the window
    assert legal(h, 0) == set()
    assert h.view(None)["last_discard"] == {"seat": 0, "tile": "5m"}


def test_chow_from_the_discard():
    h = stacked_hand([DISCARDS_5M, CLAIMER], treasure="1m")
    act(h, "0 discard 5m", "1 chow 4m")
    (m,) = h.melds[1]
    assert (m.type, m.kinds, m.claimed >> 2, m.from_seat, m.concealed) == (CHOW, (3, 4, 5), 4, 0, False)
    # the claimer discards without drawing: 13 - 2 = 11 concealed tiles, no drawn tile, no 胡
    assert (h.turn, h.phase, h.drawn[1], len(h.hands[1])) == (1, "discard", None, 11)
    assert concealed(h, 1) == "35557m123467z"
    assert sorted(a.type for a in h.legal_actions(1)) == ["discard"] * 9
    view = h.view(None)
    assert view["seats"][0]["discards"] == ["5m"] and view["seats"][0]["claimed_discards"] == [0]
    assert view["seats"][1]["melds"][0]["tiles"] == ["4m", "5m", "6m"]
    assert view["seats"][1]["melds"][0]["claimed_index"] == 1 and h.claims_made == 1


def test_pung_from_the_discard():
    h = stacked_hand([DISCARDS_5M, CLAIMER], treasure="1m")
    act(h, "0 discard 5m", "1 pung")
    assert [str(m) for m in h.melds[1]] == ["pung:5m5m5m"]
    assert concealed(h, 1) == "34567m123467z" and h.turn == 1 and h.drawn[1] is None
    assert h.wall_remaining == 72 - 27  # no tile drawn


def test_exposed_kong_then_replacement_from_the_back():
    h = stacked_hand([DISCARDS_5M, CLAIMER], back="9m", treasure="1m")
    back_before = h.back
    act(h, "0 discard 5m", "1 kong")
    (m,) = h.melds[1]
    assert (m.type, m.kinds, m.concealed, m.from_seat) == (KONG, (4, 4, 4, 4), False, 0)
    # replacement drawn from the back (岭上): the drawn tile is the stacked 9m
    assert h.back == back_before - 1 and h.front == 27
    assert kind_str(h.drawn[1] >> 2) == "9m" and h.after_kong and h.draws_made[1] == 1
    assert len(h.hands[1]) == 11  # 13 - 3 + 1 replacement


def test_win_outranks_pung_and_chow_on_one_discard():
    # seat 1: 123m 456m 789m 55m 11z (three 5m) waits on 5m/1z; the dealer's 5m may be won,
    # doubled, konged, punged or chowed (345 456 567), and seat 1 was ready at the deal
    # (天听 without a discard); 胡 > 杠/碰 > 吃 (rules "Play")
    h = stacked_hand(["5m99m223344z5566z7z", "123456789m55m11z"], treasure="9m")
    act(h, "0 discard 5m")
    assert legal(h, 1) == {"1 hu", "1 double", "1 kong", "1 pung", "1 chow 3m", "1 chow 4m", "1 chow 5m",
                           "1 ting", "1 pass"}
    assert TwoPlayerHand.PRIORITY[HU] > TwoPlayerHand.PRIORITY[KONG] == TwoPlayerHand.PRIORITY[PUNG] \
        > TwoPlayerHand.PRIORITY[CHOW]
    act(h, "1 hu")
    r = h.result
    assert r["winner"] == 1 and r["discarder"] == 0 and not r["self_drawn"] and r["win_tile"] == "5m"
    # 123m 456m 789m 555m + 11z on the dealer's first discard: 人胡 24, 清龙 16, 混一色 6,
    # 门前清 2, 四归一 2 (four 5m, no kong) = 50; the 宝牌 9m once: ×2 = 100
    assert fan_names(r) == {"人胡": 24, "清龙": 16, "混一色": 6, "门前清": 2, "四归一": 2}
    assert (r["fan_total"], r["treasure_copies"], r["total_fan"]) == (50, 1, 100)
    assert r["points"] == [-100, 100]


def test_concealed_kong_then_replacement_from_the_back():
    h = stacked_hand(["7777z123456m1234z", "1234567m11z22z33z"], back="9m", treasure="8m")
    assert "0 kong 7z" in legal(h, 0)
    back_before = h.back
    act(h, "0 kong 7z")
    (m,) = h.melds[0]
    assert (m.type, m.kinds, m.concealed) == (KONG, (33, 33, 33, 33), True)
    assert h.back == back_before - 1 and kind_str(h.drawn[0] >> 2) == "9m" and h.after_kong
    assert len(h.hands[0]) == 11 and h.claims_made == 1
    # the opponent and the public see a concealed kong face down
    assert h.view(1)["seats"][0]["melds"][0]["tiles"] == [None] * 4
    assert h.view(None)["seats"][0]["melds"][0]["tiles"] == [None] * 4
    assert h.view(0)["seats"][0]["melds"][0]["tiles"] == ["7z"] * 4




def test_added_kong_without_robber_draws_from_the_back():
    h = stacked_hand([ADDED_KONG_DEALER_IDLE, ADDED_KONG_SEAT1], draws="8m5m", back="9m", treasure="3m")
    act(h, "0 discard 5m", "1 pung", "1 discard 5z", "0 discard 8m")
    assert "1 kong 5m" in legal(h, 1)
    act(h, "1 kong 5m")
    (m,) = h.melds[1]
    assert (m.type, m.kinds, m.added, m.concealed) == (KONG, (4, 4, 4, 4), True, False)
    assert h.phase == "discard" and kind_str(h.drawn[1] >> 2) == "9m" and h.after_kong
    assert [e.type for e in h.events[-3:]] == ["added_kong", "kong", "draw"]


def test_robbing_an_added_kong():
    h = stacked_hand([ADDED_KONG_DEALER_READY, ADDED_KONG_SEAT1], draws="8m5m", back="9m", treasure="7z")
    act(h, "0 discard 5m", "1 pung", "1 discard 5z", "0 discard 8m", "1 kong 5m")
    assert h.phase == "rob" and h.pending_seats() == [0]
    assert legal(h, 0) == {"0 hu", "0 double", "0 pass"}
    assert h.view(None)["rob"] == {"seat": 1, "tile": "5m"}
    act(h, "0 hu")
    r = h.result
    assert r["winner"] == 0 and r["robbing_kong"] and r["discarder"] == 1 and r["win_tile"] == "5m"
    names = fan_names(r)
    # 111m 222m 999m 33m + 46m robbing 5m: 清一色 24, 三暗刻 16, 抢杠胡 8 (excl. 和绝张, though
    # the other three 5m are shown), 门前清 2, 幺九刻 ×2 (111m 999m), 坎张 1 = 53
    # (pymahjonggb lists the same fans for this hand)
    assert names == {"清一色": 24, "三暗刻": 16, "抢杠胡": 8, "门前清": 2, "幺九刻": 2, "坎张": 1}
    assert r["points"] == [53, -53]
    # the pung stays a pung; the robbed tile is in the winner's hand
    assert [str(m) for m in h.melds[1]] == ["pung:5m5m5m"] and "5m" in r["hands"][0]


def test_passing_the_rob_completes_the_kong():
    h = stacked_hand([ADDED_KONG_DEALER_READY, ADDED_KONG_SEAT1], draws="8m5m", back="9m", treasure="7z")
    act(h, "0 discard 5m", "1 pung", "1 discard 5z", "0 discard 8m", "1 kong 5m", "0 pass")
    assert h.melds[1][0].type == KONG and h.melds[1][0].added
    assert kind_str(h.drawn[1] >> 2) == "9m" and h.phase == "discard" and h.turn == 1


# ---------------------------------------------------------------------------
# 听
# ---------------------------------------------------------------------------


def _is_win(counts: list[int], sets_needed: int) -> bool:
    """Independent check: ``sets_needed`` sets + a pair, or seven pairs (4 of a kind = 2 pairs)."""
    if sum(counts) == 14 and sets_needed == 4 and sum(c // 2 for c in counts) == 7 and \
            all(c % 2 == 0 for c in counts):
        return True

    def sets(c: list[int], n: int) -> bool:
        if n == 0:
            return sum(c) == 0
        k = next(i for i, x in enumerate(c) if x)
        if c[k] >= 3:
            c[k] -= 3
            ok = sets(c, n - 1)
            c[k] += 3
            if ok:
                return True
        if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            for i in range(3):
                c[k + i] -= 1
            ok = sets(c, n - 1)
            for i in range(3):
                c[k + i] += 1
            return ok
        return False

    for p in range(34):
        if counts[p] >= 2:
            counts[p] -= 2
            ok = sets(counts, sets_needed)
            counts[p] += 2
            if ok:
                return True
    return False


def _brute_force_ready(hand_kinds: list[int], sets_needed: int) -> dict[int, list[int]]:
    """``{discard: [waits]}`` for a 14-tile-form concealed hand (waits need a copy left)."""
    out = {}
    for d in sorted(set(hand_kinds)):
        c = [0] * 34
        for k in hand_kinds:
            c[k] += 1
        c[d] -= 1
        waits = []
        for w in sorted(NON_FLOWER):
            if c[w] < 4:
                c[w] += 1
                if _is_win(c, sets_needed):
                    waits.append(w)
                c[w] -= 1
        if waits:
            out[d] = waits
    return out


def test_ting_hint_lists_exactly_the_ready_discards():
    # seat 0 holds 123m 567m 67m 99m 555z + the drawn 8m (no melds)
    h = twelve_fan_hand()
    me = h.view(0)["me"]
    expected = _brute_force_ready(h.concealed_kinds(0), 4)
    assert {e["discard"]: [w["tile"] for w in e["waits"]] for e in me["hint"]} == {
        kind_str(d): [kind_str(w) for w in ws] for d, ws in expected.items()}
    # 听 is offered with exactly those discards
    assert {a.kind for a in h.legal_actions(0) if a.type == "ting"} == set(expected)
    # discarding 8m leaves 123m 567m 67m 99m 555z: 5m (fan on a discard: 混一色 6, 门前清 2,
    # 箭刻 2, 一般高 1 for 567 567 = 11) or 8m (6 + 2 + 2 = 10); 3 of each unseen by seat 0
    entry = next(e for e in me["hint"] if e["discard"] == "8m")
    assert [(w["tile"], w["fan"], w["left"], w["ok"]) for w in entry["waits"]] == [
        ("5m", 11, 3, False), ("8m", 10, 3, False)]
    # with the 宝牌 4m, discarding 7m waits on 4m (123m 456m 567m? no: 4m completes 1234567)
    entry7 = next(e for e in me["hint"] if e["discard"] == "7m")
    w4 = next(w for w in entry7["waits"] if w["tile"] == "4m")
    assert w4["total"] == w4["fan"] * 2 and w4["ok"] == (w4["total"] >= 15)
    # the opponent is never shown this hint
    assert h.view(1)["me"]["hint"] == [] and h.view(None)["me"] is None


def test_ting_hint_on_the_dealers_first_discard_counts_heavenly_ready():
    # 听 with the first discard is 天听 (+16): discarding 1z leaves 123m 567m 67m 99m 555z,
    # 5m: 11 + 16 = 27, 8m: 10 + 16 = 26, both ≥ 15
    h = stacked_hand([DEALER_12, IDLE], treasure="4m")
    entry = next(e for e in h.view(0)["me"]["hint"] if e["discard"] == "1z")
    assert [(w["tile"], w["fan"], w["ok"]) for w in entry["waits"]] == [("5m", 27, True), ("8m", 26, True)]
    assert h.heavenly_ready == [False, False]  # the hint changes nothing


def test_after_ting_only_the_drawn_tile_may_go():
    h = stacked_hand([DEALER_12, IDLE], draws="1z8m1z2z", treasure="4m")
    act(h, "0 discard 1z", "1 discard 1z", "0 double", "0 ting 8m")
    assert h.ting == [True, False] and any(e.type == "ting" and e.seat == 0 for e in h.events)
    act(h, "1 discard 1z")
    assert kind_str(h.drawn[0] >> 2) == "2z"
    assert legal(h, 0) == {"0 discard 2z"}
    err = refused(h, "0 discard 1m", "hand_locked_after_ting")
    assert err.params == {"tile": "2z"}
    refused(h, "0 ting 9m", "hand_locked_after_ting")
    # waits of a ready hand are shown with their fan and unseen copies
    assert h.view(1)["me"]["waits"] == [] and h.view(None)["me"] is None
    act(h, "0 discard 2z")
    waits = h.view(0)["me"]["waits"]
    # one 8m lies in seat 0's river, seat 0 holds one 5m: three of each unseen
    assert [(w["tile"], w["left"], w["fan"]) for w in waits] == [("5m", 3, 11), ("8m", 3, 10)]


def test_concealed_kong_after_ting_that_keeps_the_waits():
    # ready on 5m/8m with a concealed 555z; the fourth 5z may be konged (waits stay 5m/8m)
    h = stacked_hand([DEALER_12, IDLE], draws="1z5z", back="2z", treasure="4m")
    act(h, "0 ting 1z", "1 discard 1z")
    assert legal(h, 0) == {"0 discard 5z", "0 kong 5z"}
    act(h, "0 kong 5z")
    assert h.melds[0][0].concealed and kind_str(h.drawn[0] >> 2) == "2z"
    assert legal(h, 0) == {"0 discard 2z"}
    act(h, "0 discard 2z")
    assert [w["tile"] for w in h.view(0)["me"]["waits"]] == ["5m", "8m"]


def test_concealed_kong_after_ting_refused_when_it_changes_the_waits():
    # 111m 23456m 99m 555z waits on 1m/4m (111 23 456), 4m/7m (111 234 56) and 9m
    # (11 123 456 + 99 as a pung); konging a drawn 1m would leave 23456m 99m 555z, waiting
    # on 4m/7m only (1m: all four copies in the kong)
    h = stacked_hand(["11123456m99m555z1z", IDLE], draws="1z1m", treasure="4m")
    act(h, "0 ting 1z")
    assert h.waits(0) == parse_kinds("1479m")
    act(h, "1 discard 1z")
    assert "0 kong 1m" not in legal(h, 0)
    assert {"0 discard 1m", "0 hu", "0 double"} <= legal(h, 0)
    refused(h, "0 kong 1m", "cannot_claim")


def test_a_wait_on_a_fifth_copy_is_no_wait():
    # seat 1 pungs the dealer's 1z keeping its third 1z: discarding 2z would leave a single
    # wait on 1z, whose four copies it already holds (pung + hand) — not a ready hand
    h = stacked_hand(["1z2345m66z77z3344z5z", "111z123456789m2z"], treasure="9m")
    act(h, "0 discard 1z", "1 pung")
    tings = {a.kind for a in h.legal_actions(1) if a.type == "ting"}
    assert tings == set(parse_kinds("1z"))  # 123456789m 2z still waits on 2z
    hint = h.view(1)["me"]["hint"]
    assert [(e["discard"], [w["tile"] for w in e["waits"]]) for e in hint] == [("1z", ["2z"])]
    act(h, "1 ting 2z")  # not ready: a plain discard
    assert h.ting == [False, False] and h.waits(1) == []


def test_ting_with_a_discard_that_leaves_no_ready_hand_is_a_plain_discard():
    h = stacked_hand([DEALER_12, IDLE], treasure="4m")
    # discarding 9m leaves 123m 567m 67m 9m 555z 1z: not ready
    assert "0 ting 9m" not in legal(h, 0)
    act(h, "0 ting 9m")
    assert h.ting == [False, False]
    assert [e.type for e in h.events if e.seat == 0 and e.type in ("ting", "discard")] == ["discard"]
    assert h.view(None)["seats"][0]["discards"] == ["9m"]


def test_a_ready_player_sees_the_opponents_hand_the_public_never():
    h = stacked_hand([DEALER_12, IDLE], draws="1z", treasure="4m")
    assert h.view(0)["seats"][1]["concealed"] is None
    act(h, "0 ting 1z")
    v0, v1, pub = h.view(0), h.view(1), h.view(None)
    # seat 1 has drawn 1z: the ready dealer sees the 13 concealed tiles and the drawn one
    assert v0["seats"][1]["concealed"] == [kind_str(k) for k in parse_kinds(IDLE)]
    assert v0["seats"][1]["drawn"] == "1z"
    assert v1["seats"][0]["concealed"] is None and v1["seats"][0]["drawn"] is None
    assert all(s["concealed"] is None and s["drawn"] is None for s in pub["seats"])


def test_unseen_count_of_a_ready_player_leaves_out_the_opponents_tiles():
    # 查看可胡牌: the ready dealer waits on 5m/8m and sees seat 1's two 5m, so only one 5m is
    # unseen (4 - its own 567m - seat 1's pair); no 8m is in sight: 4
    h = stacked_hand([DEALER_12, "55m2224m2233466z"], draws="1z", treasure="4m")
    act(h, "0 ting 1z")
    assert [(w["tile"], w["left"]) for w in h.view(0)["me"]["waits"]] == [("5m", 1), ("8m", 4)]
    assert h.unseen(0, parse_kinds("5m")[0]) == 1
    # seat 1 is not ready: the dealer's tiles are hidden from it (5m: 4 - its own two; the
    # dealer's two 6m count as unseen)
    assert h.unseen(1, parse_kinds("5m")[0]) == 2 and h.unseen(1, parse_kinds("6m")[0]) == 4


# ---------------------------------------------------------------------------
# 加倍
# ---------------------------------------------------------------------------


def test_double_on_a_discard_lets_the_tile_go():
    h = stacked_hand(["5m99m223344z5566z7z", "123456789m55m11z"], draws="7z", treasure="9m")
    act(h, "0 discard 5m")
    assert h.win_offered(1) and {"1 hu", "1 double", "1 pass"} <= legal(h, 1)
    act(h, "1 double")
    # multiplier 2; the discard is not claimed, seat 1 draws next
    assert h.doubles == [1, 2] and h.phase == "discard" and h.turn == 1 and h.melds[1] == []
    assert h.result is None and kind_str(h.drawn[1] >> 2) == "7z"
    assert any(e.type == "double" and e.seat == 1 and e.data["multiplier"] == 2 for e in h.events)


def test_a_ready_player_is_offered_only_hu_double_pass():
    # the dealer declares 听 on 5m/8m with its first discard; seat 1 discards 5m, which the
    # dealer's 6m 7m could chow: a ready hand is offered 胡 / 加倍 / 过 only.  The win is
    # 混一色 6, 门前清 2, 箭刻 2, 一般高 1 (567 567) + 天听 16 = 27
    h = stacked_hand([DEALER_12, "5m2224m2233466z7z"], draws="5m", treasure="4m")
    act(h, "0 ting 1z", "1 discard 5m")
    assert legal(h, 0) == {"0 hu", "0 double", "0 pass"}
    act(h, "0 double")
    assert h.doubles == [2, 1] and h.ting[0] and h.turn == 0
