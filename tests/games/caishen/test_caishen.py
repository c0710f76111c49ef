"""财神麻将 (``docs/rules/caishen.md``): worked examples, the 财神 and its 白板 stand-in, claims,
special hands and settlement.

Hands are either dealt from a stacked wall (``context["stacked"]``, ``engine.mahjong``)
with the 财神 fixed by ``context["indicator"]``, or, for pure scoring, laid out directly
(concealed tiles and melds) and scored with ``evaluate_win``.
"""

from __future__ import annotations

from conftest import act, kinds, legal

import pytest

from engine.errors import IllegalAction
from engine.melds import Meld
from engine.tiles import kind_str, parse_kind
from engine.variants import find_variant
from engine.variants.caishen import (CaishenHand, is_knitted, is_seven_honours_knitted, settlement,
                                     win_multiplier)

INFO = find_variant("caishen")


def opts(**given) -> dict:
    return INFO.resolve_options(given)


def stacked(hands, draws="", back="", *, dealer=0, indicator="1m", options=None, seed=3) -> CaishenHand:
    ctx = {"stacked": {"hands": [kinds(h) for h in hands], "draws": kinds(draws), "back": kinds(back)},
           "indicator": parse_kind(indicator)}
    return CaishenHand(options or opts(), seed, dealer, ctx)


def laid_out(concealed: str, melds=(), *, seat=1, dealer=0, indicator="7z", options=None) -> CaishenHand:
    """A hand whose ``seat`` holds ``concealed`` and ``melds`` ([(type, "kinds", concealed?)])
    for scoring only (other seats and the wall are whatever the seed dealt)."""
    h = CaishenHand(options or opts(), 5, dealer, {"indicator": parse_kind(indicator)})
    copy = {}

    def tile(k):
        copy[k] = copy.get(k, 0) + 1
        return k * 4 + (copy[k] - 1) % 4

    h.hands[seat] = [tile(k) for k in kinds(concealed)]
    h.melds[seat] = []
    for m in melds:
        typ, ks = m[0], kinds(m[1])
        conc = len(m) > 2 and m[2]
        tiles = tuple(tile(k) for k in ks)
        h.melds[seat].append(Meld(typ, tiles, conc, None if conc else tiles[0], None if conc else (seat + 1) % 4))
    h.draws_made[seat] = 3  # not the first go-around (no 天胡/地胡)
    h.draws_made[dealer] = max(h.draws_made[dealer], 1)
    return h


def score(h: CaishenHand, seat: int, win: str, self_drawn: bool, **kw) -> dict:
    return h.evaluate_win(seat, parse_kind(win), self_drawn, **kw)


# ------------------------------------------------------------------ worked examples
def test_caishen_hui_plus_seven_pairs_self_drawn_is_16_dealt_and_played():
    # caishen.md worked example: 财神会 (2) × 七对子 (4) × self-drawn (2) = 16.  Seat 1 holds
    # three 1m (the 财神) and six kinds of pairs/singles; it draws 9s: 22p 33p 44s 55s and
    # 6z 7z 9s each paired by a 财神 -> seven pairs.
    h = stacked(["234567m345p678s9p1z", "111m2233p4455s67z", "456789m678p234s2z", "789m789p789s2233z"],
                draws="9s")
    act(h, "0 discard 9p")
    assert "1 hu" in legal(h, 1)  # 9p would also complete seven pairs on the discard
    act(h, "1 pass")
    assert h.turn == 1 and h.drawn[1] is not None and kind_str(h.drawn[1] >> 2) == "9s"
    assert {"1 hu", "1 caishen_hui"} <= legal(h, 1)
    act(h, "1 hu")
    r = h.result
    assert sorted(r["specials"]) == ["caishenhui", "qiduizi"]
    assert r["multiplier"] == 16
    # each non-dealer pays 16, the dealer (seat 0) twice that
    assert r["points"] == [-32, 64, -16, -16]


def test_caishen_hui_declared_without_a_winning_shape():
    # three 1m wild in a broken hand: 财神会 alone, self-drawn: 2 × 2 = 4
    h = stacked(["147m258p369s1234z5p", "111m1469p1469s17z", "258m258p258s2345z", "369m369p147s6677z"],
                draws="2z")
    act(h, "0 discard 5p", )
    for s in list(h.pending_seats()):
        act(h, f"{s} pass")
    assert h.turn == 1
    assert "1 caishen_hui" in legal(h, 1) and "1 hu" not in legal(h, 1)
    act(h, "1 caishen_hui")
    assert h.result["specials"] == ["caishenhui"] and h.result["multiplier"] == 4
    assert h.result["points"] == [-8, 16, -4, -4]
    assert any(e.type == "caishen_hui" for e in h.events)


def test_full_flush_all_pungs_on_a_discard_16_self_drawn_32():
    # 111m 222m 333m 9m + exposed pung 555m, winning on 9m: 清一色 4 × 大碰胡 4
    h = laid_out("111222333m9m", [("pung", "555m")])
    r = score(h, 1, "9m", False)
    assert sorted(r["specials"]) == ["dapenghu", "qingyise"] and r["multiplier"] == 16
    h = laid_out("111222333m99m", [("pung", "555m")])
    r = score(h, 1, "9m", True)
    assert r["multiplier"] == 32


def test_full_flush_seven_pairs_self_drawn_32():
    # 11 22 33 44 55 66 77p: 七对子 (4) × 清一色 (4) × self-drawn (2) = 32 (the reading as
    # 123p 123p 456p 456p 77p would give only 4 × 2 = 8)
    h = laid_out("11223344556677p")
    r = score(h, 1, "7p", True)
    assert sorted(r["specials"]) == ["qiduizi", "qingyise"] and r["multiplier"] == 32


def test_full_flush_all_pungs_kong_replacement_capped_at_40():
    # kong 5555m, pung 333m, 111m 222m 99m won on a kong replacement draw:
    # 4 × 4 × 2 × 2 = 64 -> 40
    h = laid_out("111222m99m", [("kong", "5555m"), ("pung", "333m")])
    h.after_kong = True
    r = score(h, 1, "9m", True)
    assert sorted(r["specials"]) == ["dapenghu", "gangkai", "qingyise"]
    assert r["multiplier"] == 40
    assert win_multiplier(["qingyise", "dapenghu", "gangkai"], True) == 40


def test_plain_win_on_a_discard_non_dealers_stake_1():
    assert win_multiplier([], False) == 1
    assert settlement(1, winner=2, dealer=0, n=4, self_drawn=False, discarder=3) == [0, 0, 1, -1]


def test_plain_self_drawn_by_the_dealer_each_pays_4():
    m = win_multiplier([], True)
    assert m == 2
    assert settlement(m, winner=0, dealer=0, n=4, self_drawn=True, discarder=None) == [12, -4, -4, -4]


def test_dealer_discarder_pays_double_and_discard_pays_all():
    # non-dealer wins ×4 on the dealer's discard: the dealer pays 8
    assert settlement(4, winner=1, dealer=0, n=4, self_drawn=False, discarder=0) == [-8, 8, 0, 0]
    # discard_pays=all: the three pay as if self-drawn at the discard rate
    assert settlement(4, winner=1, dealer=0, n=4, self_drawn=False, discarder=2,
                      discard_pays="all") == [-8, 16, -4, -4]
    # a stake of 5 scales everything
    assert settlement(1, winner=2, dealer=0, n=4, self_drawn=False, discarder=3, stake=5) == [0, 0, 5, -5]


# ------------------------------------------------------------------ other special hands
def test_all_honours_is_40_without_a_shape():
    # 字清: 1z..7z twice, no sets at all, still wins for exactly 40 (财神 1z, so 白板
    # plays as 1z, an honour; the 1z are wild honours)
    h = laid_out("12345671234567z", indicator="1z")
    assert h.win_shape(1, None)
    r = score(h, 1, "7z", True)
    assert r["specials"] == ["ziqing"] and r["multiplier"] == 40


def test_all_honours_needs_real_honours():
    # wild 1m: a 财神 of a suit is not an honour: 1m + 111z 222z 333z 444z 6z is read as
    # 大碰胡 (the 1m pairs the 6z), self-drawn 4 × 2 = 8, not 字清
    h = laid_out("1m1112223334446z", indicator="1m")
    r = score(h, 1, "6z", True)
    assert r["specials"] == ["dapenghu"] and r["multiplier"] == 8
    # wild 2z (an honour): the 财神 is its own honour and 白板 plays as 2z -> 字清
    h = laid_out("1234567123466z", indicator="2z")
    assert h.win_shape(1, None) and score(h, 1, "6z", True)["multiplier"] == 40


def test_single_wait_with_four_exposed_melds():
    # four claimed sets and a 9p single wait, won on a discard: 独吊 2
    h = laid_out("9p", [("chow", "123m"), ("pung", "444s"), ("chow", "678p"), ("pung", "222z")])
    r = score(h, 1, "9p", False)
    assert r["specials"] == ["dudiao"] and r["multiplier"] == 2
    # with a concealed kong it is not 独吊
    h = laid_out("9p", [("chow", "123m"), ("kong", "4444s", True), ("chow", "678p"), ("pung", "222z")])
    assert score(h, 1, "9p", False)["specials"] == []


def test_thirteen_unrelated_and_seven_honours():
    # 147m 258p 369s + 1z..5z: 14 tiles, suits spaced by 3, honours different: 十三幺 2
    c = [0] * 34
    for k in kinds("147m258p369s12345z"):
        c[k] += 1
    assert is_knitted(c, 0) and not is_seven_honours_knitted(c, 0)
    h = laid_out("147m258p369s1234z", indicator="1m")  # 1m is wild here: it fills a place
    assert h.win_shape(1, parse_kind("6z"))
    r = score(h, 1, "6z", False)
    assert r["specials"] == ["shisanyao"] and r["multiplier"] == 2
    # all seven honours (the 1m 财神 standing for the suit place): 七字十三幺 4, self-drawn 8
    h = laid_out("147m25p39s1234567z", indicator="1m")
    r = score(h, 1, "7z", True)
    assert r["specials"] == ["qizi_shisanyao"] and r["multiplier"] == 8
    # 3-7 in a suit cannot take a third tile: 37m 37p 37s + seven honours is 13 places,
    # one short of 14, so a 财神 cannot complete it; 37m 37p 258s + six honours can
    c = [0] * 34
    for k in kinds("37m37p37s1234567z"):
        c[k] += 1
    assert not is_knitted(c, 1)
    c = [0] * 34
    for k in kinds("37m37p258s123456z"):
        c[k] += 1
    assert is_knitted(c, 1)


def test_heavenly_hand():
    # the dealer's dealt 14 win: 天胡 4 × self-drawn 2 = 8; dealer: each pays 16
    h = stacked(["123456789m123p55s", "147m258p369s1234z", "147m258p369s1234z", "147m258p369s1567z"],
                indicator="7z")
    assert "0 hu" in legal(h, 0)
    act(h, "0 hu")
    assert h.result["specials"] == ["tianhu"] and h.result["multiplier"] == 8
    assert h.result["points"] == [48, -16, -16, -16]


def test_earthly_hand_on_the_dealers_first_discard():
    # seat 1 waits on 4z with its dealt 13 and wins on the dealer's first discard: 地胡 8
    h = stacked(["147m258p369s12344z", "123456789m123p4z", "147m258p369s5677z", "147m258p369s1567z"],
                indicator="2p")
    act(h, "0 discard 4z")
    assert "1 hu" in legal(h, 1)
    act(h, "1 hu")
    assert h.result["specials"] == ["dihu"] and h.result["multiplier"] == 8
    assert h.result["points"] == [-16, 16, 0, 0]  # the dealer discarded: double rate


# ------------------------------------------------------------------ the 财神 and 白板
def test_stand_in_white_dragon_is_claimed_as_the_wild_kind():
    # 财神 2m; 白板 plays as 2m.  The dealer discards 白板; seat 1 (下家) holds 1m 3m and
    # can chow it as 1m-2m-3m; seat 2's pair of 白板 can pung it.
    h = stacked(["147m258p369s1234z5z", "13m258p369s12346z", "5m5z5z258p369s1677z", "147m258p369s1567z"],
                indicator="2m")
    act(h, "0 discard 5z")
    assert "1 chow 1m" in legal(h, 1)
    assert "2 pung" in legal(h, 2)
    act(h, "2 pass", "1 chow 1m")
    meld = h.melds[1][-1]
    assert [kind_str(t >> 2) for t in meld.tiles] == ["1m", "5z", "3m"]  # in played order
    assert h.view(None)["seats"][1]["melds"][0]["tiles"] == ["1m", "5z", "3m"]


def test_wild_tiles_never_take_part_in_claims():
    # 财神 4p: seat 1 holds 3p 5p and two 4p (wild); nothing of 4p can be chowed or punged
    # with a 财神, and a discarded 财神 opens no claim at all
    h = stacked(["147m258p369s1234z4p", "35p4p4p147m369s123z", "147m258p369s5677z", "147m258p369s1567z"],
                indicator="4p")
    assert h.is_wild(parse_kind("4p"))
    act(h, "0 discard 4p")
    assert h.phase == "discard" and h.turn == 1  # nobody was asked, seat 1 drew
    assert not any(e.type == "pung" for e in h.events)


def test_wild_discard_option():
    hands = ["147m258p369s1234z4p", "35p4p4p147m369s123z", "147m258p369s5677z", "147m258p369s1567z"]
    h = stacked(hands, indicator="4p", options=opts(wild_discard=False))
    assert "0 discard 4p" not in legal(h, 0)
    with pytest.raises(IllegalAction) as e:
        act(h, "0 discard 4p")
    assert e.value.code == "discard_not_allowed"
    h = stacked(hands, indicator="4p")
    assert "0 discard 4p" in legal(h, 0)


def test_turned_white_dragon_has_no_stand_in():
    h = stacked(["147m258p369s1234z5z", "13m258p369s12346z", "5m5z5z258p369s1677z", "147m258p369s1567z"],
                indicator="5z")
    w = h.view(None)["wild"]
    assert w["kinds"] == ["5z"] and w["stand_in"] is None and w["stands_for"] == "5z"
    act(h, "0 discard 5z")  # a 财神: nobody may claim, not even seat 2's pair
    assert h.phase == "discard" and h.turn == 1


def test_wilds_sit_at_the_left_and_view_marks_them():
    h = stacked(["147m258p369s1234z5z", "13m258p369s12346z", "5m5z5z258p369s1677z", "147m258p369s1567z"],
                indicator="6z")
    v = h.view(2)
    assert v["wild"] == {"indicator": "6z", "kinds": ["6z"], "stand_in": "5z", "stands_for": "6z",
                         "indicator_in_wall": True}
    # 6z (wild) first; 白板 sorted where 6z plays
    assert v["me"]["hand"][0] == "6z"
    assert v["me"]["hand"][-4:] == ["5z", "5z", "7z", "7z"]


def test_first_winner_in_turn_order_after_the_discarder():
    # seats 2 and 3 both win on the dealer's 9s; seat 2 comes first after seat 0, so seat 3
    # answering first does not end the window
    h = stacked(["147m258p369s1234z9s", "147m258p368s1234z", "123456789m123p9s", "123456789p123s9s"],
                indicator="7z")
    act(h, "0 discard 9s")
    assert "2 hu" in legal(h, 2) and "3 hu" in legal(h, 3)
    act(h, "3 hu")
    assert not h.is_over()
    act(h, "2 hu")
    assert h.result["winner"] == 2 and h.result["discarder"] == 0


def test_robbing_a_kong_is_paid_by_the_adder():
    # seat 1 pungs the dealer's 5p and later draws the fourth; seat 2 (4p 6p, waiting on
    # 5p) robs the added kong: 抢杠胡 4 on a "discard" by seat 1, who pays alone
    # (the dealer's 11z pair keeps its hand from reading as 十三幺 on the 7z discards)
    h = stacked(["147m28p369s11236z5p", "55p147m369s12346z", "123456789m46p99s", "258m13p78s123466z"],
                draws="7z7z7z5p", indicator="9p")
    act(h, "0 discard 5p", "2 pass", "1 pung", "1 discard 4z")
    act(h, "2 discard 7z", "3 discard 7z", "0 discard 7z")
    assert h.turn == 1 and "1 kong 5p" in legal(h, 1)
    act(h, "1 kong 5p")
    assert h.phase == "rob" and "2 hu" in legal(h, 2)
    act(h, "2 hu")
    r = h.result
    assert r["robbing_kong"] and r["specials"] == ["qianggang"] and r["multiplier"] == 4
    assert r["points"] == [0, -4, 4, 0]
