"""Rule tests of the ``two_player`` hand (二人麻将), from ``docs/rules/two_player.md``: 天胡,
地胡, 人胡 and 天听, the exhaustive draw and the dealer's rotation over a match, timeouts, and
illegal actions that leave the state unchanged.

Dealt from a stacked wall as in ``test_two_player_rules.py`` (seat 0 deals unless a test says
otherwise); fan values worked by hand in a comment next to each check.
"""

from __future__ import annotations

from conftest import act, default_options, legal, stacked_hand
from two_player_deals import (ADDED_KONG_DEALER_READY, ADDED_KONG_SEAT1, CLAIMER, DEALER_12, DISCARDS_5M, IDLE,
                              fan_names, refused, twelve_fan_hand)

from engine.actions import Action
from engine.match import Match


# ---------------------------------------------------------------------------
# 天胡 地胡 人胡 天听
# ---------------------------------------------------------------------------

# non-dealer ready at the deal: 123456789m 22m 33m (waits on 2m/3m); 清一色 24 at least
READY_1 = "1234567892233m"
HONOURS_14 = "11223344556677z"


def test_heavenly_hand_after_flower_replacement():
    # the dealer's 14th tile is a flower, replaced by 5z: 123m 456m 789m 11z 555z
    h = stacked_hand(["123456789m11z55z1f", "2234m2233446z7z9m"], back="5z", treasure="8m")
    assert "0 hu" in legal(h, 0)
    act(h, "0 hu")
    names = fan_names(h.result)
    # 天胡 48 (excl. 单钓将/边张/坎张), 清龙 16, 混一色 6, 不求人 4, 箭刻 2, 花牌 1 = 77
    assert names == {"天胡": 48, "清龙": 16, "混一色": 6, "不求人": 4, "箭刻": 2, "花牌": 1}
    assert h.result["fan_total"] == 77


def test_no_heavenly_hand_after_a_concealed_kong():
    h = stacked_hand(["1111m234m567m9m555z", "2234m2233446z7z6z"], back="9m", treasure="8m")
    assert "0 hu" not in legal(h, 0)
    act(h, "0 kong 1m", "0 hu")
    names = fan_names(h.result)
    assert "天胡" not in names and names["杠上开花"] == 8 and names["暗杠"] == 2


def test_earthly_hand():
    h = stacked_hand([HONOURS_14, READY_1], draws="2m", treasure="9m")
    act(h, "0 discard 7z")
    # ready at the deal: the window offers 天听 without a discard; pass it
    assert legal(h, 1) == {"1 ting", "1 pass"}
    # the waits and their fan on a discard; 人胡 is not added, the 7z being no wait:
    # 1m: 11 222 333 456 789 = 清一色 24, 门前清 2, 双暗刻 2, 连六 1 = 29;
    # 2m / 3m: 123 456 789 + 222 33 / 22 333 = 清一色 24, 清龙 16, 门前清 2, 四归一 2 = 44
    assert [(w["tile"], w["fan"]) for w in h.view(1)["me"]["waits"]] == [("1m", 29), ("2m", 44), ("3m", 44)]
    act(h, "1 pass", "1 hu")
    names = fan_names(h.result)
    assert names["地胡"] == 32 and "天听" not in names and "人胡" not in names


def test_no_earthly_hand_after_the_dealers_concealed_kong():
    h = stacked_hand(["1111z22334455z6z7z", READY_1], draws="2m", back="6z", treasure="9m")
    act(h, "0 kong 1z", "0 discard 7z")
    # no claim window: the opening 天听 is gone after a kong
    assert h.phase == "discard" and h.turn == 1
    act(h, "1 hu")
    assert "地胡" not in fan_names(h.result) and fan_names(h.result)["清一色"] == 24


def test_human_hand():
    h = stacked_hand(["2m1122334455667z", READY_1], treasure="9m")
    act(h, "0 discard 2m", "1 hu")
    names = fan_names(h.result)
    assert names["人胡"] == 24 and "地胡" not in names


def test_no_human_hand_after_the_dealers_concealed_kong():
    h = stacked_hand(["1111z22334455z6z2m", READY_1], back="7z", treasure="9m")
    act(h, "0 kong 1z", "0 discard 2m", "1 hu")
    names = fan_names(h.result)
    assert "人胡" not in names and names["清一色"] == 24


IDLE_2 = "22349m2233446z7z"


def test_heavenly_ready_dealer():
    # 123456789m 55z 11z + 7z: 听 with the first discard, waits on 1z/5z
    h = stacked_hand(["123456789m55z11z7z", IDLE_2], draws="1z", treasure="8m")
    act(h, "0 ting 7z")
    assert h.heavenly_ready == [True, False] and h.view(None)["heavenly_ready"] == [True, False]
    act(h, "1 discard 1z", "0 hu")
    names = fan_names(h.result)
    # 天听 16, 清龙 16, 混一色 6, 门前清 2, 幺九刻 1 (111z completed by the discard)
    assert names == {"天听": 16, "清龙": 16, "混一色": 6, "门前清": 2, "幺九刻": 1}


def test_no_heavenly_ready_for_a_dealer_who_konged():
    h = stacked_hand(["1111z123456789m5z", IDLE_2], draws="5z", back="7z", treasure="8m")
    act(h, "0 kong 1z", "0 ting 7z")
    assert h.ting[0] and h.heavenly_ready == [False, False]
    act(h, "1 discard 5z", "0 hu")
    assert "天听" not in fan_names(h.result)


def test_heavenly_ready_non_dealer_in_the_first_window():
    h = stacked_hand([HONOURS_14, READY_1], draws="8m2m", treasure="9m")
    act(h, "0 discard 7z", "1 ting")
    assert h.ting == [False, True] and h.heavenly_ready == [False, True]
    # a ready hand discards what it draws
    assert legal(h, 1) == {"1 discard 8m"}
    act(h, "1 discard 8m", "0 discard 2m", "1 hu")
    names = fan_names(h.result)
    assert names["天听"] == 16 and "人胡" not in names and "地胡" not in names


def test_no_heavenly_ready_for_the_non_dealer_after_a_kong():
    h = stacked_hand(["1111z2233445566z", READY_1], back="7z", treasure="9m")
    act(h, "0 kong 1z", "0 discard 7z")
    assert h.phase == "discard" and h.turn == 1 and "1 ting" not in legal(h, 1)
    refused(h, "1 ting", "tile_not_in_hand")


# ---------------------------------------------------------------------------
# exhaustive draw, dealer rotation (Match)
# ---------------------------------------------------------------------------


def _play_to_exhaustion(hand) -> int:
    """Every seat discards what it drew (else its rightmost tile) and lets every claim go."""
    steps = 0
    while not hand.is_over():
        (seat,) = hand.pending_seats()
        if hand.phase == "discard":
            drawn = hand.drawn[seat]
            kind = drawn >> 2 if drawn is not None else hand.concealed_kinds(seat)[-1]
            hand.apply(Action(seat, "discard", kind))
        else:
            hand.apply(Action(seat, "pass"))
        steps += 1
    return steps


def test_exhaustive_draw_nobody_pays_and_the_dealer_keeps_the_deal():
    opts = default_options()
    m = Match("two_player", opts, table_seed=11, n_seats=2)
    dealer = m.state["dealer"]
    h = m.new_hand()
    _play_to_exhaustion(h)
    r = h.result
    assert r["draw"] and r["winner"] is None and r["points"] == [0, 0]
    assert h.wall_remaining == 0 and h.events[-1].type == "draw_game"
    # every non-flower tile is in a hand, a river or a meld: 64 - 27 dealt = 37 draws were made
    assert sum(h.draws_made) == 64 - 27
    st = m.finish(r)
    assert (st["dealer"], st["dealer_streak"], st["hand_no"], st["scores"]) == (dealer, 1, 1, [0, 0])
    # the next hand is dealt by the same dealer with the 连庄 count 1 (×2 on a win)
    h2 = m.new_hand()
    assert h2.dealer == dealer and h2.context["dealer_streak"] == 1


def test_the_winner_deals_next_with_the_count_reset():
    opts = default_options()
    m = Match("two_player", opts, table_seed=3, n_seats=2, state={
        "hand_no": 4, "dealer": 0, "dealer_streak": 2, "scores": [10, -10]})
    # a dealer win keeps the deal: count 2 → 3; 12 fan × 2 (加倍) × 3 (kept twice) = 72
    h = twelve_fan_hand(streak=2)
    act(h, "0 double", "0 discard 8m", "1 discard 1z", "0 hu")
    assert h.result["points"] == [72, -72]
    st = m.finish(h.result)
    assert (st["dealer"], st["dealer_streak"], st["hand_no"], st["scores"]) == (0, 3, 5, [82, -82])
    # the non-dealer wins (人胡 on the dealer's 2m): seat 1 deals next, count 0
    h = stacked_hand(["2m1122334455667z", READY_1], treasure="7z", streak=3)
    act(h, "0 discard 2m", "1 hu")
    pts = h.result["points"]
    # 123m 456m 789m 222m 33m: 人胡 24 + 清一色 24 + 清龙 16 + 门前清 2 + 四归一 2 = 68,
    # × 4 (the dealer had kept the deal three times) = 272
    assert h.result["fan_total"] == 68 and pts == [-272, 272]
    st = m.finish(h.result)
    assert (st["dealer"], st["dealer_streak"], st["hand_no"]) == (1, 0, 6)
    assert st["scores"] == [82 + pts[0], -82 + pts[1]]


def test_streak_multiplies_a_non_dealer_win_too():
    # the 连庄 multiplier applies to every win of the hand (two_player.py decision):
    # 人胡 hand of seat 1 with the dealer on a count of 1 → ×2
    h0 = stacked_hand(["2m1122334455667z", READY_1], treasure="9m")
    h1 = stacked_hand(["2m1122334455667z", READY_1], treasure="9m", streak=1)
    act(h0, "0 discard 2m", "1 hu")
    act(h1, "0 discard 2m", "1 hu")
    assert h1.result["points"][1] == 2 * h0.result["points"][1]


# ---------------------------------------------------------------------------
# timeouts (rules "Timeouts")
# ---------------------------------------------------------------------------


def test_timeout_discards_the_drawn_tile():
    h = twelve_fan_hand()  # 12-fan win on the drawn 8m: not allowed, so no auto-win
    assert str(h.timeout_action(0)) == "0 discard 8m"
    # the dealer's first turn: the drawn tile is the 14th dealt tile (1z)
    h = stacked_hand([DEALER_12, IDLE], treasure="4m")
    assert str(h.timeout_action(0)) == "0 discard 1z"


def test_timeout_after_a_claim_discards_the_rightmost_sorted_tile():
    h = stacked_hand([DISCARDS_5M, CLAIMER], treasure="1m")
    act(h, "0 discard 5m", "1 chow 4m")
    # concealed 3m 5m 5m 5m 7m 1z 2z 3z 4z 6z 7z: rightmost is 7z
    assert str(h.timeout_action(1)) == "1 discard 7z"


def test_timeout_wins_when_possible_else_passes():
    h = stacked_hand(["5m99m223344z5566z7z", "123456789m55m11z"], treasure="9m")
    act(h, "0 discard 5m")
    assert str(h.timeout_action(1)) == "1 hu"
    h = stacked_hand([DISCARDS_5M, CLAIMER], treasure="1m")
    act(h, "0 discard 5m")
    assert str(h.timeout_action(1)) == "1 pass"
    # self-drawn win on the dealt hand
    h = stacked_hand(["123456789m11z55z1f", "2234m2233446z7z9m"], back="5z", treasure="8m")
    assert str(h.timeout_action(0)) == "0 hu"
    # rob window
    h = stacked_hand([ADDED_KONG_DEALER_READY, ADDED_KONG_SEAT1], draws="8m5m", back="9m", treasure="7z")
    act(h, "0 discard 5m", "1 pung", "1 discard 5z", "0 discard 8m", "1 kong 5m")
    assert str(h.timeout_action(0)) == "0 hu"
    # a win below the minimum in a claim window: pass (the ready dealer of the 12-fan hand
    # without 天听: 听 declared on its second turn)
    h = stacked_hand([DEALER_12, "5m2224m2233466z7z"], draws="1z8m5m", treasure="4m")
    act(h, "0 discard 1z", "1 discard 1z", "0 ting 8m", "1 discard 5m")
    assert legal(h, 0) == {"0 double", "0 pass"}
    assert str(h.timeout_action(0)) == "0 pass"


# ---------------------------------------------------------------------------
# illegal actions leave the state unchanged
# ---------------------------------------------------------------------------


def test_illegal_actions_on_the_dealers_turn():
    h = stacked_hand([DEALER_12, IDLE], treasure="4m")
    refused(h, "0 discard 4m", "tile_not_in_hand")
    refused(h, "0 ting 4m", "tile_not_in_hand")
    refused(h, "1 discard 2m", "not_your_turn")
    refused(h, "0 pung", "cannot_claim")
    refused(h, "0 chow 1m", "cannot_claim")
    refused(h, "0 kong 5z", "cannot_claim")  # three 5z only
    refused(h, "0 hu", "not_a_winning_hand")
    refused(h, "0 double", "double_not_available")
    refused(h, "0 pass", "action_not_available")
    refused(h, "3 discard 1z", "no_such_seat")


def test_illegal_claims():
    h = stacked_hand([DISCARDS_5M, CLAIMER], treasure="1m")
    act(h, "0 discard 8m")
    # seat 1 (3m 4m 555m 6m 7m) may only chow 678 on 8m
    assert legal(h, 1) == {"1 chow 6m", "1 pass"}
    refused(h, "1 pung", "cannot_claim")  # no pair of 8m
    refused(h, "1 kong", "cannot_claim")
    refused(h, "1 chow 3m", "cannot_claim")  # 345 does not hold the 8m
    refused(h, "1 chow 7m", "cannot_claim")  # 789: no 9m
    refused(h, "1 hu", "not_a_winning_hand")
    refused(h, "1 double", "double_not_available")
    refused(h, "1 discard 3m", "discard_not_allowed")
    refused(h, "0 discard 9m", "not_your_turn")  # the discarder waits for the window
    act(h, "1 pass")
    assert h.turn == 1 and h.phase == "discard"
    refused(h, "1 pung", "cannot_claim")  # the window is closed


def test_acting_after_the_hand_is_over():
    h = stacked_hand(["123456789m11z55z1f", "2234m2233446z7z9m"], back="5z", treasure="8m")
    act(h, "0 hu")
    assert h.is_over() and h.pending_seats() == [] and h.legal_actions(0) == []
    refused(h, "0 discard 1m", "hand_over")
    refused(h, "1 discard 2m", "hand_over")
    refused(h, "1 pass", "hand_over")
