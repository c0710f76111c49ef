"""老五对 rules: every worked example of ``docs/rules/laowudui.md`` and the turn structure.

Hands are dealt from stacked walls (``context["stacked"]``): ``hands`` per seat (the
dealer's twelve), ``draws`` = the tiles dealt in turn after the deal, ``indicator`` /
``turned`` = the tiles turned from the back.  Where a test needs melds that would take
many turns to build, it sets the seat's tiles directly (:func:`set_seat`), which only the
win evaluation reads.
"""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalAction
from engine.match import Match
from engine.melds import Meld
from engine.tiles import kind_str, parse_kind, parse_kinds
from engine.variants import find_variant
from engine.variants.laowudui import LaoWuDuiHand, buy_factor, payment
from engine.variants.laowudui.shapes import TILE_COUNTS, is_win, neighbours, readings, wild_kinds

INFO = find_variant("laowudui")
K = parse_kind


def ks(text: str) -> list[int]:
    return parse_kinds(text)


def names(kinds) -> set[str]:
    return {kind_str(k) for k in kinds}


def stacked(n: int, hands: list[str], draws: str = "", indicator: str = "Tp", dealer: int = 0,
            turned: list[str] | None = None, **options) -> LaoWuDuiHand:
    """A hand with a fixed deal.  The default indicator 白花 with 四百佬 makes 9p wild."""
    opts = INFO.resolve_options({"wilds": 4, **options})
    spec = {"hands": [ks(h) for h in hands], "draws": ks(draws)}
    if turned:
        spec["turned"] = [K(t) for t in turned]
    else:
        spec["indicator"] = K(indicator)
    return LaoWuDuiHand(opts, 11, dealer, n, {"stacked": spec})


def act(h: LaoWuDuiHand, text: str):
    return h.apply(Action.parse(text))


def legal(h: LaoWuDuiHand, seat: int) -> set[str]:
    return {str(a) for a in h.legal_actions(seat)}


def set_seat(h: LaoWuDuiHand, seat: int, hand: str, melds: list[tuple[str, str]] = ()) -> None:
    """Give ``seat`` these concealed tiles and melds (physical copies chosen per kind)."""
    used: dict[int, int] = {}

    def tile(k: int) -> int:
        c = used.get(k, 0)
        used[k] = c + 1
        return k * 4 + c % 4

    h.hands[seat] = [tile(k) for k in ks(hand)]
    h.melds[seat] = [Meld(t, tuple(tile(k) for k in ks(kinds))) for t, kinds in melds]


# ------------------------------------------------------------------ tiles and wilds
def test_the_set_has_125_tiles():
    # laowudui.md §Tiles: 108 suited + 12 tenth tiles + 5 喜牌
    assert sum(TILE_COUNTS.values()) == 125
    assert TILE_COUNTS[K("Ts")] == TILE_COUNTS[K("Tm")] == TILE_COUNTS[K("Tp")] == 4
    assert [TILE_COUNTS[K(f"{i}h")] for i in range(1, 6)] == [1] * 5


def test_wild_kinds_of_the_worked_example_turned_7s():
    # laowudui.md worked example: 7s → 四百佬 6s; 七百佬 6s + 7s; 十一百佬 6s, 8s, 7s
    assert names(wild_kinds(K("7s"), 4)) == {"6s"}
    assert names(wild_kinds(K("7s"), 7)) == {"6s", "7s"}
    assert names(wild_kinds(K("7s"), 11)) == {"6s", "8s", "7s"}


@pytest.mark.parametrize("turned, before, after", [("Ts", "9s", "1s"), ("Tm", "9m", "1m"), ("Tp", "9p", "1p"),
                                                   ("1s", "Ts", "2s"), ("9m", "8m", "Tm")])
def test_suit_cycle_edges(turned, before, after):
    # 红花 → 9s / 1s, 千子 → 9m / 1m, 白花 → 9p / 1p; 1s → before 红花
    assert tuple(kind_str(k) for k in neighbours(K(turned))) == (before, after)
    assert names(wild_kinds(K(turned), 11)) == {before, after, turned}


@pytest.mark.parametrize("option, wild_tiles", [(4, 4), (7, 7), (11, 11)])
def test_wild_tile_counts_and_the_turned_tile_out_of_play(option, wild_tiles):
    # turned 7s: only three 7s remain in play; 4 / 7 / 11 wild tiles in play
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="7s", wilds=option)
    in_play = [t for s in range(2) for t in h.hands[s]] + h.wall[h.front:h.back]
    assert len(in_play) == 124 and h.indicator >> 2 == K("7s")
    assert sum(1 for t in in_play if t >> 2 == K("7s")) == 3
    assert sum(1 for t in in_play if (t >> 2) in h.wild) == wild_tiles
    assert h.view(None)["wild"] == {"indicator": "7s", "kinds": sorted(names(h.wild), key=K)}


def test_a_turned_xi_tile_is_set_aside_and_the_next_tile_turned():
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], turned=["3h", "7s"])
    assert kind_str(h.indicator >> 2) == "7s" and [kind_str(t >> 2) for t in h.set_aside] == ["3h"]
    assert names(h.wild) == {"6s"}
    assert len(h.wall[h.front:h.back]) == 125 - 23 - 2


# ------------------------------------------------------------------ winning
def test_winning_tiles_of_the_worked_example():
    # melded pairs 5m 6m 8m; hand three 百搭 + 3s + 4s → wins on 5m 6m 8m 3s 4s, and a 百搭
    # when self-drawn or (wild_discard on) discarded by another player
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="7s")  # 6s wild
    set_seat(h, 1, "6s6s6s3s4s", [("chi", "5m5m"), ("chi", "6m6m"), ("chi", "8m8m")])
    assert names(h.waits(1)) == {"5m", "6m", "8m", "3s", "4s", "6s"}
    assert names(h._winning_kinds(1, h.hands[1], h.melds[1], self_drawn=False)) == {"5m", "6m", "8m", "3s", "4s", "6s"}
    off = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="7s", wild_discard=False)
    set_seat(off, 1, "6s6s6s3s4s", [("chi", "5m5m"), ("chi", "6m6m"), ("chi", "8m8m")])
    assert names(off._winning_kinds(1, off.hands[1], off.melds[1], self_drawn=False)) == {"5m", "6m", "8m", "3s", "4s"}


def test_a_kind_not_held_cannot_win_even_when_the_shape_would():
    # 1m1m2m2m3m3m4m4m + 3 百搭: 9m + 3 百搭 would be a four, but 9m is not among my tiles
    wild = {K("6s")}
    assert is_win(ks("1m1m2m2m3m3m4m4m6s6s6s9m"), [], wild)
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="7s")
    set_seat(h, 1, "1m1m2m2m3m3m4m4m6s6s6s")
    assert K("9m") not in h.waits(1) and K("1m") in h.waits(1)


def test_groups_are_pairs_and_fours_and_wilds_need_a_four():
    wild = {K("6s")}
    assert is_win(ks("1m1m2m2m3m3m4m4m5m5m7m7m"), [], wild)  # six pairs, no 百搭
    assert not is_win(ks("1m1m1m2m2m3m3m4m4m5m5m7m"), [], wild)  # a triple is no group
    assert is_win(ks("1m1m1m1m2m2m3m3m4m4m5m5m"), [], wild)  # a four of real tiles
    # 百搭 used (1m+6s, 7m+6s) with no four: refused; 1m1m1m + 6s makes a four: accepted
    assert not is_win(ks("1m6s7m6s2m2m3m3m4m4m5m5m"), [], wild)
    assert is_win(ks("1m1m1m6s2m2m3m3m4m4m5m5m"), [], wild)
    # any two 喜牌 pair; two 百搭 of the same kind pair as themselves (no four needed)
    assert is_win(ks("1h2h3h4h1m1m2m2m3m3m6s6s"), [], wild)
    # a 堆 is complete only with a fourth (here a 百搭)
    assert is_win(ks("6s1m1m2m2m3m3m4m4m"), [("dui", (K("5m"),) * 3)], wild)


def test_dui_without_fourth_does_not_win():
    wild = {K("6s")}
    assert not is_win(ks("5p5p1m1m2m2m3m3m4m"), [("dui", (K("5m"),) * 3)], wild)


# ------------------------------------------------------------------ scoring
def _example_table(bought=(False, False, False, False)) -> LaoWuDuiHand:
    """Seat 1 (non-dealer) holds melds 吃 1m, 吃 5p, 杠 9s and 3m 3m 6s; the dealer (seat 0)
    is dealt 6s and passes it on; seat 1 wins on it.  Others hold nothing useful."""
    h = stacked(4, ["2m2m4m4m5m7m8m2p3p4p6p7p", "1m1m5p5p9s9s9s9s3m3m6s",
                    "2s3s4s5s7s8s1p7m8p6p1h", "Ts Tm 3p 2h 3h 4h 5h 4s 8s 2s 7m"],
                draws="6s", indicator="Tp")
    for s in range(4):
        h.bought[s] = bought[s]
        h.zhe_decided[s] = True
        h.zhezhuang[s] = False
    h.phase = "discard"
    set_seat(h, 1, "3m3m6s", [("chi", "1m1m"), ("chi", "5p5p"), ("kong", "9s9s9s9s")])
    h.turn = 0
    h.dealt[0] = K("6s") * 4 + 3
    return h


def test_the_96_point_settlement():
    # 对 = pair of 1m (2) + pair of 5p (1) + 杠 of 9s (20) = 23; 老胡 only:
    # (23 + 1) × 2^(1+1) = 96 from each loser
    assert payment(23, 1) == 96
    h = _example_table()
    act(h, "0 discard 6s")
    assert "1 hu" in legal(h, 1)
    for s in h.pending_seats():
        if s != 1:
            act(h, f"{s} pass")
    act(h, "1 hu")
    r = h.result
    assert r["dui"] == 23 and [f[0] for f in r["fans"]] == ["底番", "老胡"] and r["fan_total"] == 2
    assert r["points"] == [-96, 288, -96, -96]
    assert r["winners"] == [1] and r["discarder"] == 0 and not r["self_drawn"] and r["next_dealer"] == 1


def test_the_96_point_settlement_with_buying():
    # the dealer bought 庄 and the winner bought too: the dealer pays 96 × 2 × 2 = 384,
    # the other non-dealers 96
    assert buy_factor(1, 0, 0, [True, True, False, False]) == 4
    assert buy_factor(1, 2, 0, [True, True, False, False]) == 1
    h = _example_table(bought=(True, True, False, False))
    act(h, "0 discard 6s")
    for s in h.pending_seats():
        if s != 1:
            act(h, f"{s} pass")
    act(h, "1 hu")
    assert h.result["points"] == [-384, 576, -96, -96]


def test_fans_of_a_concealed_self_drawn_hand_without_wilds():
    # 门清 + 老胡 + 自摸 (老胡 only) + 全小 (2–8 only): 4 fans + 底番; 对 0 → 1 × 2^5 = 32
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="Tp")
    set_seat(h, 1, "2m2m3m3m4m4m5m5m6m6m7m")
    ev = h.evaluate_win(1, K("7m"), True)
    assert set(f[0] for f in ev["fans"]) == {"底番", "门清", "老胡", "自摸", "全小", "清一色"}
    assert ev["unit"] == (0 + 1) * 2 ** 6


def test_three_fours_and_all_big_with_wilds():
    # 1m1m1m + 百搭, 9p9p9p + 百搭... here 9p is wild (白花 turned, 四百佬), so use 9s:
    # 1m×3 + W, 9s×3 + W, Tm×3 + W → 三爆炸, 全大 (百搭 allowed), 门清; not 老胡
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], indicator="Tp")
    set_seat(h, 1, "1m1m1m9s9s9sTmTmTm9p9p")
    ev = h.evaluate_win(1, K("9p"), True)
    assert set(f[0] for f in ev["fans"]) == {"底番", "门清", "三爆炸", "全大"}


def test_meld_points_of_a_stack_completed_by_a_wild():
    # 堆 of 5m + 百搭 = 10, 吃 pair of 1m = 2 → 对 12 (laowudui.md §Scoring)
    rs = readings(ks("9p3s3s4s4s"), [("dui", (K("5m"),) * 3), ("chi", (K("1m"),) * 2), ("chi", (K("2m"),) * 2)],
                  {K("9p")})
    assert max(r.dui for r in rs) == 10 + 2 + 1


# ------------------------------------------------------------------ the turn
HANDS3 = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p2p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm2m3m4m"]


def test_dealer_12_others_11_and_the_dealt_tile_must_be_passed_on():
    h = stacked(3, HANDS3, draws="9s3s", buy_dealer=False)
    assert [h.holding(s) for s in range(3)] == [12, 11, 11]
    assert h.phase == "discard" and h.turn == 0  # nobody may 折庄 and 买庄 is off: play starts
    act(h, "0 discard 5m")  # dealer discards first, any tile
    assert h.turn == 1 and kind_str(h.dealt[1] >> 2) == "9s"
    assert legal(h, 1) == {"1 discard 9s"}
    with pytest.raises(IllegalAction) as e:
        act(h, "1 discard 1p")
    assert e.value.code == "must_discard_dealt"
    # nobody else sees the dealt tile
    for viewer in (None, 0, 2):
        v = h.view(viewer)
        assert v["seats"][1]["drawn"] is None and v["seats"][1]["has_drawn"]
        assert "9s" not in str([v["seats"][1]["concealed"], v["me"] and v["me"]["drawn"]])
    assert h.view(1)["me"]["drawn"] == "9s"


def test_chi_only_on_the_shang_jia_unchanged_dealt_tile():
    h = stacked(3, HANDS3, draws="9s3s", buy_dealer=False)
    act(h, "0 discard 5m")  # from the dealer's hand: seat 1 may not 吃 it (none held anyway)
    act(h, "1 discard 9s")  # unchanged dealt tile; seat 2 holds 9s and is the 下家
    assert h.phase == "claim" and "2 chi" in legal(h, 2)
    assert legal(h, 0) == set()
    act(h, "2 chi")
    assert [m.type for m in h.melds[2]] == ["chi"] and h.turn == 2 and h.dealt[2] is None
    assert h.holding(2) == 12
    assert "2 discard 4s" in legal(h, 2)
    act(h, "2 discard 2m")  # from the hand: seat 0 holds no 2m; it is not chi-able anyway
    assert h.phase == "discard" and h.turn == 0 and kind_str(h.dealt[0] >> 2) == "3s"
    assert all(h.holding(s) == 11 for s in (1, 2))


def test_chi_refused_on_a_discard_from_the_hand():
    # seat 1 is dealt a 百搭 (9p), keeps it and discards 1p from its hand; seat 2 holds 1p
    # but may not 吃 a tile the 上家 discarded from the hand
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p2p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm1p3m4m"]
    h = stacked(3, hands, draws="9p3s", buy_dealer=False)
    act(h, "0 discard 5m")
    assert {"1 keep", "1 discard 9p", "1 discard 1p"} <= legal(h, 1)
    act(h, "1 discard 1p")
    assert h.phase == "discard" and h.turn == 2 and h.claimed_discards == set()
    assert any(t >> 2 == K("9p") for t in h.hands[1]) and h.holding(1) == 11


def test_wild_discard_asks_for_confirmation_and_can_be_kept():
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p2p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm1p3m4m"]
    h = stacked(3, hands, draws="9p3s", buy_dealer=False)
    act(h, "0 discard 5m")
    act(h, "1 discard 9p")
    assert legal(h, 1) == {"1 confirm", "1 keep"} and h.view(1)["me"]["confirming"] == "9p"
    assert h.view(0)["me"]["confirming"] is None
    act(h, "1 keep")
    assert h.dealt[1] is None and any(t >> 2 == K("9p") for t in h.hands[1])
    assert "1 discard 1p" in legal(h, 1)
    act(h, "1 discard 9p")
    act(h, "1 confirm")
    # a discarded 百搭 cannot be claimed; the turn passes on
    assert h.phase == "discard" and h.turn == 2 and h.discards[1][-1] >> 2 == K("9p")


def test_wild_discard_off_forbids_discarding_wilds():
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p2p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm1p3m4m"]
    h = stacked(3, hands, draws="9p3s", buy_dealer=False, wild_discard=False)
    act(h, "0 discard 5m")
    assert "1 discard 9p" not in legal(h, 1) and "1 keep" in legal(h, 1)
    with pytest.raises(IllegalAction) as e:
        act(h, "1 discard 9p")
    assert e.value.code == "wild_discard_off"


def test_own_dealt_tile_chi_then_dui_then_kong():
    # seat 1 holds 1p twice: 吃 its dealt 1p, later 堆 the next dealt 1p... only 4 copies:
    # 吃 (hand 1p + dealt 1p), 堆 from the hand (the second 1p), 杠 with the dealt fourth
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p1p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm2p3m4m"]
    h = stacked(3, hands, draws="1p3s4m7s1p", buy_dealer=False)
    act(h, "0 discard 5m")
    assert legal(h, 1) == {"1 discard 1p", "1 chi"}
    act(h, "1 chi")
    assert h.melds[1][0].type == "chi" and h.holding(1) == 12
    assert "1 dui 1p" in legal(h, 1)
    act(h, "1 dui 1p")  # 堆 from the hand on one's own turn
    assert h.melds[1][0].type == "dui" and h.holding(1) == 12
    act(h, "1 discard 8p")
    assert h.holding(1) == 11 and h.turn == 2 and kind_str(h.dealt[2] >> 2) == "3s"


def test_kong_with_the_dealt_fourth_on_a_stack_and_no_replacement_draw():
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p1p3p4p5p6p7p8p1m2m3m", "4s5s6s7s8s9sTsTm2p3m4m"]
    h = stacked(3, hands, draws="1p3s4m1p", buy_dealer=False)
    act(h, "0 discard 5m")
    act(h, "1 chi")
    act(h, "1 dui 1p")
    act(h, "1 discard 8p")
    act(h, "2 discard 3s")
    act(h, "0 discard 4m")
    assert "1 kong" in legal(h, 1)
    wall_before = h.wall_remaining
    act(h, "1 kong")
    assert h.melds[1][0].type == "kong" and len(h.melds[1][0].tiles) == 4
    assert h.wall_remaining == wall_before and h.dealt[1] is None and h.holding(1) == 12
    act(h, "1 discard 3p")
    assert h.holding(1) == 11


def test_kong_on_the_dui_jia_discard_with_three_in_hand_four_players():
    # four players: only the seat opposite the discarder (对家) may 杠 with three in hand
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p2p3p4p5p6p7p8p1m2m3m", "5m5m5m5s6s7s8s9sTsTm4m",
             "2p3p4p6s1s2sTp7m8m9m9s"]
    h = stacked(4, hands, buy_dealer=False)
    act(h, "0 discard 5m")
    assert "2 kong" in legal(h, 2) and h.pending_seats() == [2]
    act(h, "2 kong")
    assert h.melds[2][0].type == "kong" and h.turn == 2 and h.holding(2) == 12
    act(h, "2 discard 4m")
    assert h.turn == 3 and h.dealt[3] is not None


def test_kong_from_the_shang_jia_is_refused_in_four_players_but_allowed_in_three():
    hands4 = ["5m6m7m8m9m1m2h3h4h5h1s2s", "5m5m5m3p4p5p6p7p8p1m2m", "3m4m5s6s7s8s9sTsTm4m7m",
              "2p3p4p6s1s2sTp7m8m9m9s"]
    h = stacked(4, hands4, buy_dealer=False)
    act(h, "0 discard 5m")  # seat 1 is the 下家, not the 对家: no claim window, seat 1 is dealt
    assert h.phase == "discard" and h.turn == 1 and h.dealt[1] is not None and "1 kong" not in legal(h, 1)
    hands3 = ["5m6m7m8m9m1m2h3h4h5h1s2s", "5m5m5m3p4p5p6p7p8p1m2m", "4s5s6s7s8s9sTsTm2m3m4m"]
    h3 = stacked(3, hands3, buy_dealer=False)
    act(h3, "0 discard 5m")
    assert "1 kong" in legal(h3, 1)


def test_zhezhuang_declared_then_locked():
    # seat 1's eleven tiles are five pairs and 3p: one tile from a win → 折庄 offered
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p1p2p2p4p4p5p5p6p6p3p", "4s5s6s7s8s9sTsTm2m3m4m"]
    h = stacked(3, hands, draws="9p", buy_dealer=False)
    assert h.phase == "opening" and h.pending_seats() == [1]
    assert legal(h, 1) == {"1 zhezhuang", "1 no_zhezhuang"}
    act(h, "1 zhezhuang")
    assert h.phase == "discard" and h.zhezhuang[1]
    act(h, "0 discard 5m")
    assert legal(h, 1) == {"1 discard 9p"}  # a dealt 百搭 cannot be kept after 折庄
    with pytest.raises(IllegalAction) as e:
        act(h, "1 keep")
    assert e.value.code == "hand_locked_zhezhuang"


def test_zhezhuang_win_scores_its_fan():
    hands = ["5m6m7m8m9m1m2h3h4h5h1s2s", "1p1p2p2p4p4p5p5p6p6p3p", "4s5s6s7s8s9sTsTm2m3m4m"]
    h = stacked(3, hands, draws="3p", buy_dealer=False)
    act(h, "1 zhezhuang")
    act(h, "0 discard 5m")
    act(h, "1 hu")
    fans = {f[0] for f in h.result["fans"]}
    assert {"折庄", "门清", "老胡", "自摸", "清一色"} <= fans and h.result["self_drawn"]
    assert h.result["points"][1] == 2 * h.result["unit"]


def test_buying_the_dealer_in_the_opening_phase():
    h = stacked(3, HANDS3, draws="9s3s")
    assert h.phase == "opening" and h.pending_seats() == [0, 1, 2]
    assert legal(h, 0) == {"0 buy", "0 no_buy"}
    act(h, "2 buy")
    act(h, "0 no_buy")
    act(h, "1 no_buy")
    assert h.phase == "discard" and h.bought == [False, False, True] and h.view(None)["seats"][2]["bought"]


def test_one_discard_several_winners_only_the_discarder_pays():
    # seats 1 and 2 both wait on 1s; the dealer discards 1s
    hands = ["5m6m7m8m9m1s2h3h4h5h1m2s", "1p1p2p2p3p3p4p4p5p5p1s", "2m2m3m3m4m4m6m6m7m7m1s",
             "3s4s5s6s7s8sTsTm2p3p4s"]
    h = stacked(4, hands, buy_dealer=False)
    for s in (1, 2):
        act(h, f"{s} no_zhezhuang")
    act(h, "0 discard 1s")
    assert "1 hu" in legal(h, 1) and "2 hu" in legal(h, 2)
    act(h, "2 hu")
    assert not h.is_over()  # seat 1 may still win too
    act(h, "1 hu")
    r = h.result
    assert r["winners"] == [1, 2] and r["discarder"] == 0
    p1 = payment(r["dui_by_seat"]["1"], r["fan_by_seat"]["1"] - 1)
    p2 = payment(r["dui_by_seat"]["2"], r["fan_by_seat"]["2"] - 1)
    assert r["points"] == [-(p1 + p2), p1, p2, 0]


def test_exhaustive_draw_passes_the_deal():
    h = stacked(2, ["1m2m3m4m5m6m7m8m9m1p2p3p", "1s2s3s4s5s6s8s9s4p5p6p"], buy_dealer=False)
    h.front = h.back  # the wall is empty after the dealer's discard
    act(h, "0 discard 1m")
    assert h.is_over() and h.result["winner"] is None and h.result["points"] == [0, 0]
    assert h.result["next_dealer"] == 1


def test_the_dealer_wins_with_the_twelve_dealt_tiles():
    h = stacked(2, ["1m1m2m2m3m3m4m4m5m5m6m6m", "1s2s3s4s5s6s8s9s4p5p6p"], buy_dealer=False)
    assert "0 hu" in legal(h, 0)
    act(h, "0 hu")
    r = h.result
    assert r["self_drawn"] and r["winner"] == 0 and "自摸" in {f[0] for f in r["fans"]}


def test_the_creator_deals_the_first_hand_and_the_deal_passes():
    opts = INFO.resolve_options({})
    for seed in range(5):
        m = Match("laowudui", opts, seed, 3)
        h = m.new_hand()
        assert h.dealer == 0
        while not h.is_over():
            h.apply(h.ai_action(h.pending_seats()[0]))
        m.finish(h.result)
        assert m.new_hand().dealer == 1
    assert INFO.first_dealer == "creator"
    assert (INFO.min_players, INFO.max_players) == (2, 4)
