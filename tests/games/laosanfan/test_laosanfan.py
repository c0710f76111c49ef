"""老三番 rules (``docs/rules/laosanfan.md`` Part 1): worked examples, styles, options, 三摊.

Hands are dealt from stacked walls (``context["stacked"]``): seat 0 deals (14 tiles),
``draws`` come off the front in turn order, ``back`` feeds kong/flower replacements.
"""

from __future__ import annotations

import pytest
from conftest import kinds

from engine.actions import Action
from engine.errors import IllegalAction
from engine.melds import Meld
from engine.tiles import parse_kind
from engine.variants import find_variant
from engine.variants.laosanfan import LaoSanFanHand, is_dangerous, three_exposure_danger
from engine.variants.laosanfan.scoring import (capped, dragon_fan, hu_points, money_rounding, pattern_fan,
                                               seat_flower_fan, style_total)


def k(s: str) -> int:
    return parse_kind(s)


def opts(**given):
    given.setdefault("opening_restriction", False)
    return find_variant("laosanfan").resolve_options(given)


def stacked(hands, draws="", back="", *, options=None, hand_no=1, seed=3) -> LaoSanFanHand:
    ctx = {"stacked": {"hands": [kinds(h) for h in hands], "draws": kinds(draws), "back": kinds(back)},
           "hand_no": hand_no}
    return LaoSanFanHand(options or opts(), seed, 0, ctx)


def play(h, *lines):
    """Apply action lines; a claim window nobody in ``lines`` answers is passed by all."""
    for line in lines:
        a = Action.parse(line)
        while h.phase == "claim" and a.seat not in h.pending_seats():
            h.apply(Action(h.pending_seats()[0], "pass"))
        h.apply(a)


def pass_all(h):
    while h.phase == "claim":
        h.apply(Action(h.pending_seats()[0], "pass"))


def meld(mtype, tiles, concealed=False):
    ks = kinds(tiles)
    return Meld(mtype, tuple(x * 4 + i for i, x in enumerate(ks)), concealed)


# --- the seed's worked example, as pure functions --------------------------------------
def counts(spec):
    c = [0] * 34
    for x in kinds(spec):
        c[x] += 1
    return c


def test_worked_example_hu_is_26():
    # melds: exposed kong 9m (16), exposed pung 5m (2); hand 1s 3s, 66m, 888m; self-drawn 2s
    # 4 (888m concealed) + 2 (self-draw) + 2 (closed wait) + 16 + 2 = 26
    hu, items = hu_points(counts("13s66m888m"), [meld("kong", "9999m"), meld("pung", "555m")], k("2s"),
                          True, 0)
    assert hu == 26
    assert sorted(v for _, v in items) == [2, 2, 2, 4, 16]


@pytest.mark.parametrize("style,fan,value", [
    ("yaobansan", 0, 60), ("yaobansan", 1, 120), ("yaobansan", 3, 300),      # 56→60, 112→120, cap
    ("yaobanliu", 0, 90), ("yaobanliu", 1, 180), ("yaobanliu", 3, 500),      # 86→90, 172→180, cap
    ("tuidaoba", 0, 100), ("tuidaoba", 1, 200), ("tuidaoba", 2, 400), ("tuidaoba", 3, 800),
    ("yaoerliu", 0, 130), ("yaoerliu", 3, 1010),                              # 126→130, 1008→1010
])
def test_worked_example_styles(style, fan, value):
    assert style_total(style, 26, fan) == value


def test_cap_bites_below_three_fan_and_fan_is_capped():
    # 么半三 2 fan: (30+46)×4 = 304 → 310 > 300 → 300; (30+40)×4 = 280 stays 280
    assert style_total("yaobansan", 46, 2) == 300
    assert style_total("yaobansan", 40, 2) == 280
    # 么半六 2 fan: (60+70)×4 = 520 → 500
    assert style_total("yaobanliu", 70, 2) == 500
    # fan above 3 counts as 3
    assert style_total("tuidaoba", 0, 5) == 800


def test_money_rounding():
    # 0–20 nothing, 30–60 half, 70–100 one: 120→100, 130..160→150, 170..200→200
    assert [money_rounding(x) for x in (120, 130, 160, 170, 200, 90, 20)] == [100, 150, 150, 200, 200, 100, 0]


def test_pattern_and_flower_and_dragon_fan():
    # 混一色 + 对对胡 = 3; 清一色 3; 字一色 3
    assert capped(pattern_fan(kinds("111m222m333m444m55z"), True)) == 3
    assert capped(pattern_fan(kinds("123m456m789m111m55m"), False)) == 3
    assert capped(pattern_fan(kinds("11122233344455z"), True)) == 3
    assert capped(pattern_fan(kinds("123m456m789p111z55z"), False)) == 0
    assert capped(pattern_fan(kinds("111m222p333s444z55z"), True)) == 1
    # East (index 0) owns 春 1f and 梅 5f; South's 夏 2f is worth nothing to East
    assert capped(seat_flower_fan(kinds("1f5f2f"), 0)) == 2
    # a full set 春夏秋冬 is 2 instead of its seat flower; 梅 still +1
    assert capped(seat_flower_fan(kinds("1f2f3f4f5f"), 0)) == 3
    assert capped(seat_flower_fan(kinds("1f2f3f4f"), 2)) == 2
    # dragon pungs: concealed 中 triplet + exposed 发 pung = 2
    assert capped(dragon_fan(counts("777z123m"), [meld("pung", "666z")])) == 2


# --- the worked example through a real hand ---------------------------------------------
# seat 0 pungs 5m and kongs 9m from seat 1, then draws 2s: the seed's hand exactly.
S0 = "999m55m13s66m888m1z2z"
S1 = "59m12345679p456s"
S2 = "123s999s111p258p3z"
S3 = "2345678s369p44z6z"


def worked_hand(**o) -> LaoSanFanHand:
    h = stacked([S0, S1, S2, S3], draws="1z2z5z5z5z2s", back="7z", options=opts(**o))
    play(h, "0 discard 1z", "1 discard 5m", "0 pung", "0 discard 2z", "1 discard 9m", "0 kong",
         "0 discard 7z", "1 discard 5z", "2 discard 5z", "3 discard 5z")
    pass_all(h)
    return h


@pytest.mark.parametrize("style,each", [("yaobansan", 60), ("yaobanliu", 90), ("tuidaoba", 100),
                                        ("yaoerliu", 130)])
def test_worked_example_played(style, each):
    h = worked_hand(style=style)
    assert h.turn == 0 and "0 hu" in {str(a) for a in h.legal_actions(0)}
    h.apply(Action(0, "hu"))
    r = h.result
    assert r["hu"] == 26 and r["fan_total"] == 0 and r["self_drawn"]
    assert r["points"] == [3 * each, -each, -each, -each]


def test_discard_pays_option():
    # seat 1 holds 13s + 123456789p; seat 0's 2s discard completes it (closed wait): 胡 2
    hands = ["2s123456789m11z44z", "13s123456789p99p", "147m258p369s2345z", "258m369p147s5z66z7z"]
    for mode, expect in (("all", [-40, 120, -40, -40]), ("discarder", [-40, 40, 0, 0])):
        h = stacked(hands, options=opts(discard_pays=mode))
        h.apply(Action(0, "discard", k("2s")))
        assert "1 hu" in {str(a) for a in h.legal_actions(1)}
        play(h, "1 hu")
        # 胡 = 2 (closed wait) → 32 → 40 per loser
        assert h.result["hu"] == 2 and h.result["points"] == expect


# --- opening restriction ------------------------------------------------------------------
def test_opening_restriction_first_go_around():
    o = opts(opening_restriction=True)
    hands = ["1m2m3m5p5p1s2s3s7z7z1z2z3z4z", "5p7z2s3s4s5s6s7s8s9s1z2z3z", "5m5m5m1s2s3s4s5s6s7s8s9s1z",
             "1s2s3s4s5s6s7s8s9s1z2z3z4z"]
    h = stacked(hands, draws="9m9m9m5m", options=o, hand_no=0)
    # only 万/筒 may go in the first go-around
    assert {a.kind for a in h.legal_actions(0) if a.type == "discard"} == set(kinds("123m5p"))
    with pytest.raises(IllegalAction) as e:
        h.apply(Action(0, "discard", k("7z")))
    assert e.value.code == "discard_not_allowed"
    h.apply(Action(0, "discard", k("5p")))  # seat 1 holds 5p… but may not pung now
    assert h.phase == "discard" and h.turn == 1
    # seat 3 holds no 筒/万 except its draw… seat 1 has 5p and 9m: only those
    assert {a.kind for a in h.legal_actions(1) if a.type == "discard"} == set(kinds("5p9m"))
    h.apply(Action(1, "discard", k("9m")))
    h.apply(Action(2, "discard", k("5m")))
    h.apply(Action(3, "discard", k("9m")))  # the 4th discard: still no claims
    assert h.turn == 0 and h.phase == "discard"
    # second go-around: anything may be discarded, and claims are back
    assert k("7z") in {a.kind for a in h.legal_actions(0) if a.type == "discard"}
    h.apply(Action(0, "discard", k("5m")))
    assert any(a.type == "pung" for a in h.legal_actions(2))


def test_opening_restriction_without_wan_or_tong_anything_goes():
    o = opts(opening_restriction=True)
    hands = ["1s2s3s4s5s6s7s8s9s1z2z3z4z5z", "1m2m3m4m5m6m7m8m9m1p2p3p4p", "1m2m3m4m5m6m7m8m9m1p2p3p4p",
             "1m2m3m4m5m6m7m8m9m1p2p3p4p"]
    h = stacked(hands, options=o, hand_no=0)
    assert {a.kind for a in h.legal_actions(0) if a.type == "discard"} == set(kinds("123456789s12345z"))
    # later hands of the table are not restricted
    h2 = stacked(["1m" + hands[0][2:]] + hands[1:], options=o, hand_no=1)
    assert k("9s") in {a.kind for a in h2.legal_actions(0) if a.type == "discard"}


# --- exhaustive draw ---------------------------------------------------------------------
def test_exhaustive_draw_point():
    h = stacked(["1m2m3m5p5p1s2s3s7z7z1z2z3z4z", "5p7z2s3s4s5s6s7s8s9s1z2z3z", "5m5m1s2s3s4s5s6s7s8s9s1z2z",
                 "1s2s3s4s5s6s7s8s9s1z2z3z4z"])
    assert h.draw_reserve() == 19  # 9 stacks; an odd 19th tile is not counted
    # play discard-the-drawn-tile until the wall stops
    lowest_before_draw = 144
    while not h.is_over():
        s = h.pending_seats()[0]
        if h.phase == "claim":
            h.apply(Action(s, "pass"))
            continue
        lowest_before_draw = min(lowest_before_draw, h.wall_remaining)
        h.apply(Action(s, "discard", h.drawn[s] >> 2 if h.drawn[s] is not None else h.hands[s][-1] >> 2))
    # nobody ever wins (passes only): the last draw left 19 tiles, and there it stops
    assert h.result["winner"] is None and h.result["points"] == [0, 0, 0, 0]
    assert h.wall_remaining == 19 and lowest_before_draw == 19


def test_kong_adds_a_stack_to_the_reserve():
    h = worked_hand()
    assert h.kongs_made() == 1 and h.draw_reserve() == 21


# --- 三摊 liability ------------------------------------------------------------------------
def test_three_exposure_danger_rules():
    three_s = [meld("pung", "111s"), meld("chow", "456s"), meld("pung", "777s")]
    assert three_exposure_danger(three_s) == {"suits": [2], "terminals": False}
    two_honours = [meld("pung", "111z"), meld("pung", "555z"), meld("chow", "234m")]
    d = three_exposure_danger(two_honours)
    assert d["suits"] == [0] and not d["terminals"]
    one_honour = [meld("pung", "777z"), meld("pung", "111p"), meld("pung", "999p")]
    d = three_exposure_danger(one_honour)
    assert d["suits"] == [1] and d["terminals"]
    assert is_dangerous(k("1z"), d) and is_dangerous(k("5p"), d) and not is_dangerous(k("5m"), d)
    mixed = [meld("chow", "123m"), meld("chow", "123p"), meld("chow", "123s")]
    assert three_exposure_danger(mixed) == {"suits": [], "terminals": False}
    # a concealed kong is not an exposure
    assert three_exposure_danger([meld("pung", "111s"), meld("pung", "222s"),
                                  meld("kong", "3333s", True)]) == {"suits": [], "terminals": False}


def santan_hand(seat2: str):
    hands = ["1s2m3m4m6m7m8m2p3p4p6p7p8p9p", "1s1s2s2s3s3s1z2z3z7s8s9m9m", seat2,
             "2m3m4m6m7m8m2p3p4p6p7p8p9p"]
    h = stacked(hands, draws="5m5p8m")
    play(h, "0 discard 1s", "1 pung", "1 discard 1z", "2 discard 2s", "1 pung", "1 discard 2z",
         "2 discard 3s", "1 pung", "1 discard 3z")
    pass_all(h)
    return h


def test_santan_warning_and_liability():
    h = santan_hand("2s3s9s1p4p7p1m4m7m4z5z6z7z")
    assert h.turn == 2
    me = h.view(2)["me"]
    warned = {(w["tile"], w["liable_to"], w["reason"]) for w in me["warnings"]}
    # three 条 pungs: every 条 and every terminal/honour is dangerous for non-ready seat 2
    assert ("9s", 1, "三摊") in warned and ("1p", 1, "三摊") in warned and ("4z", 1, "三摊") in warned
    assert not any(t == "4p" for t, _, _ in warned)
    # the public and the other seats do not see seat 2's warnings
    assert h.view(None)["me"] is None and h.view(3)["me"]["warnings"] == []
    assert h.view(None)["santan"] == {"1": {"suits": [2], "terminals": True}}
    h.apply(Action(2, "discard", k("9s")))
    play(h, "1 hu")
    r = h.result
    # 胡: 111s exposed 4 + 222s 2 + 333s 2 = 8 → (30+8)=38 → 40; liable seat 2 pays all three
    assert r["hu"] == 8 and r["liable"] == 2
    assert r["points"] == [0, 120, -120, 0]


def test_ready_discarder_is_not_liable():
    # seat 2 stays ready after discarding 9s (123m 456m 555p 78m 99p, waits 6m/9m): no warning, all pay
    h = santan_hand("2s3s9s1234m6m7m55p99p")
    me = h.view(2)["me"]
    assert "9s" not in {w["tile"] for w in me["warnings"]}
    assert h.ready_map()[1] == kinds("69s")
    h.apply(Action(2, "discard", k("9s")))
    play(h, "1 hu")
    assert h.result["liable"] is None and h.result["points"] == [-40, 120, -40, -40]


def test_hutou_settlement_between_non_winners():
    h = worked_hand(hutou=True)
    h.apply(Action(0, "hu"))
    r = h.result
    # seat 2 holds concealed 999s and 111p: 8 + 8 = 16 胡; seats 1 and 3 hold nothing: 0.
    # one full 10 of difference: seat 2 collects 5 from each 边家 (the dealer won)
    assert {s: h.loser_hu(s) for s in (1, 2, 3)} == {1: 0, 2: 16, 3: 0}
    assert r["hutou"] == [0, -5, 10, -5]
    assert r["points"] == [180, -65, -50, -65]


# --- 抢杠胡 (Set-up and play: scores and pays as a win on the adding player's discard) ----
# Seat 2 waits on 5m with 46m (a closed wait).  Seat 1 holds 5m 5m, the dealer one 5m, and
# the fourth 5m is the fourth tile drawn after the deal.  Seat 2's hand, both ways:
#   46m + 5m (456m, 夹中胡 2) 123p 789p 111s (concealed pung of a terminal, 8) 99s
#   胡 = 8 + 2 = 10, no fan (three suits, no dragon pung, no flowers), not self-drawn;
#   么半三: (30 + 10) × 2^0 = 40, already a multiple of ten → 40 per paying loser.
#   discard_pays=all: the three losers pay 40 each → [-40, -40, +120, -40];
#   discard_pays=discarder: seat 1 (the discarder / the player adding to the pung) pays 40.
ROB_HANDS = ["5m1m7m2p8p3s6s9s1z2z3z4z5z6z", "5m5m9m3p6p9p1s4s7s1z5z6z7z", "4m6m1p2p3p7p8p9p1s1s1s9s9s",
             "2m3m8m5p6p2s3s5s8s3z4z6z7z"]
ROB_DRAWS = "2z3z4z5m"


def win_on_the_discard(mode):
    h = stacked(ROB_HANDS, draws=ROB_DRAWS, options=opts(discard_pays=mode))
    play(h, "0 discard 1z", "1 discard 5m")  # seat 1 drew 2z and lets 5m go
    assert h.phase == "claim" and "2 hu" in legal_of(h, 2)
    play(h, "2 hu")
    return h


def win_by_robbing_the_kong(mode):
    h = stacked(ROB_HANDS, draws=ROB_DRAWS, options=opts(discard_pays=mode))
    h.apply(Action(0, "discard", k("5m")))
    assert {"1 pung", "2 hu"} <= legal_of(h, 1) | legal_of(h, 2)
    play(h, "2 pass", "1 pung", "1 discard 9m", "2 discard 2z", "3 discard 3z", "0 discard 4z")
    assert h.turn == 1 and h.drawn[1] >> 2 == k("5m")
    play(h, "1 kong 5m")  # 加杠: seat 2 may rob it
    assert h.phase == "rob" and h.pending_seats() == [2] and "2 hu" in legal_of(h, 2)
    play(h, "2 hu")
    return h


def legal_of(h, seat):
    return {str(a) for a in h.legal_actions(seat)}


@pytest.mark.parametrize("mode,points", [("all", [-40, -40, 120, -40]), ("discarder", [0, -40, 40, 0])])
def test_robbing_the_kong_pays_as_a_win_on_that_players_discard(mode, points):
    on_discard = win_on_the_discard(mode).result
    robbed = win_by_robbing_the_kong(mode).result
    assert on_discard["winner"] == robbed["winner"] == 2
    assert on_discard["discarder"] == robbed["discarder"] == 1
    assert robbed["robbing_kong"] and not robbed["self_drawn"] and not on_discard["robbing_kong"]
    for r in (on_discard, robbed):
        assert (r["hu"], r["fan_total"], r["total"]) == (10, 0, 40)
        assert sorted(v for _, v in r["hu_items"]) == [2, 8]
        assert r["points"] == points


def test_the_robbed_kong_is_not_made():
    h = win_by_robbing_the_kong("all")
    assert [(m.type, m.kind) for m in h.melds[1]] == [("pung", k("5m"))]
    assert h.kongs_made() == 0 and not any(e.type == "kong" for e in h.events)
    assert sorted(x >> 2 for x in h.hands[2]).count(k("5m")) == 1


# --- deal-time flower replacement (Set-up: dealer until no flower, then the next seat …) ----
def test_flowers_at_the_deal_are_replaced_seat_by_seat():
    # the dealer holds 春; its replacement from the back is 梅 (a flower again), whose
    # replacement is 9m.  Seat 1 holds none; seat 2 holds 秋 (→ 8m), seat 3 holds 冬 and 竹
    # (→ 7m, 6m).  The back of the wall is read first first: 梅 9m 8m 7m 6m.
    hands = ["1f1m2m3m4p5p6p7s8s9s1z2z3z4z", "2m3m4m5p6p7p8s9s1z1z2z2z3z", "3f1p2p3p4s5s6s7z7z7z6z1m2m",
             "4f8f5m5m1s2s3s4s5z5z5z6z9p"]
    h = stacked(hands, back="5f9m8m7m6m")
    flowers = [(e.seat, e.tile) for e in h.events if e.type == "flower"]
    assert flowers == [(0, k("1f")), (0, k("5f")), (2, k("3f")), (3, k("4f")), (3, k("8f"))]
    assert [sorted(x >> 2 for x in h.flowers[s]) for s in range(4)] == [
        [k("1f"), k("5f")], [], [k("3f")], [k("4f"), k("8f")]]
    got = [sorted(x >> 2 for x in h.hands[s]) for s in range(4)]
    assert got[0].count(k("9m")) == 1 and k("5f") not in got[0]
    assert got[2].count(k("8m")) == 1
    assert got[3].count(k("7m")) == 1 and got[3].count(k("6m")) == 1
    assert not any(x >> 2 >= 34 for s in range(4) for x in h.hands[s])
    # the dealer's 14th tile is its last replacement
    assert h.drawn[0] >> 2 == k("9m") and h.turn == 0


@pytest.mark.parametrize("style", ["yaobansan", "yaobanliu", "tuidaoba", "yaoerliu"])
def test_worked_example_hint(style):
    """The worked example one discard earlier: after the kong of 9m seat 0 holds 13s 66m 888m
    7z; the hint says discarding 7z leaves it ready on 2s alone — on a discard 24 胡 (888m 4,
    closed wait 2, the kong 16, the pung 2), self-drawn 26 (自摸 2 more), each scored by the
    style (laosanfan.md's worked example)."""
    h = stacked([S0, S1, S2, S3], draws="1z2z5z5z5z2s", back="7z", options=opts(style=style))
    play(h, "0 discard 1z", "1 discard 5m", "0 pung", "0 discard 2z", "1 discard 9m", "0 kong")
    hint = {x["discard"]: x["waits"] for x in h.view(0)["me"]["hint"]}
    (wait,) = hint["7z"]
    on_discard, self_drawn = style_total(style, 24, 0), style_total(style, 26, 0)
    assert wait == {"tile": "2s", "left": h.unseen(0, k("2s")), "hu": 24, "fan": 0, "score": on_discard,
                    **({"score_self": self_drawn} if self_drawn != on_discard else {})}
