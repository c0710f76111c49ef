"""金湖老三番 rules (``docs/rules/laosanfan.md`` Part 2): the wait examples, the fan table,
听 / 假听, 包五家 and its streak, pung-only play, one winner per discard."""

from __future__ import annotations

import json

import pytest
from conftest import kinds

from engine.actions import Action
from engine.errors import IllegalAction
from engine.match import Match
from engine.tiles import parse_kind
from engine.variants import find_variant
from engine.variants.jinhu import JinhuHand
from engine.variants.jinhu.fans import JinhuWin, NotAllowed, jinhu_fans


def k(s: str) -> int:
    return parse_kind(s)


def c34(spec: str) -> tuple:
    c = [0] * 34
    for x in kinds(spec):
        c[x] += 1
    return tuple(c)


def fans_of(concealed13: str, win: str, pungs: str = "", flowers: str = "1f", **kw) -> dict:
    """Fan of a win on a discard; one real flower by default (so no 无花果)."""
    w = JinhuWin(c34(concealed13), tuple(kinds(pungs)), k(win), tuple(kinds(flowers)), **kw)
    r = jinhu_fans(w)
    r["names"] = {f[0]: f[2] * f[3] for f in r["fans"]}
    return r


def refused(concealed13: str, win: str, **kw) -> str:
    with pytest.raises(NotAllowed) as e:
        fans_of(concealed13, win, **kw)
    return e.value.code


# --- the rule file's wait examples: each must win on the stated tile ----------------------
def test_wait_34456m_on_5m_closed():
    # 345 + 46 waiting on the closed 5m (a 贼: 胡贼 5)
    r = fans_of("34456m123p789s11s", "5m")
    assert r["wait"] == "closed" and r["names"]["胡贼"] == 5
    # the same shape's open wait on 2m (234 + 456) has no fan to lift it
    assert refused("34456m123p789s11s", "2m") == "wait_not_allowed"


def test_wait_56789m_on_7m_edge():
    r = fans_of("56789m123p456s99s", "7m")  # 567 + 89 edge 7
    assert r["wait"] == "edge"
    assert refused("56789m123p456s99s", "4m") == "wait_not_allowed"


def test_wait_5678m_on_5m_and_8m_diaozei():
    assert fans_of("5678m123p456s789s", "5m")["wait"] == "pair"   # 55 + 678: pair wait on a 贼
    assert fans_of("5678m123p456s789s", "8m")["wait"] == "pair"   # 567 + 88: the 调贼 hand's other wait


def test_wait_77m_99m_on_7m_yingkangzei():
    r = fans_of("77m99m123p456p789s", "7m")  # dual-pung wait on the 贼 7m
    assert r["wait"] == "pung"
    assert refused("77m99m123p456p789s", "9m") == "wait_not_allowed"


def test_wait_12345_on_3_with_four_of_a_kind():
    # four 4p (444p + 456p): 四同 10; 12345m waiting on 3m is an edge wait (12 + 3)
    r = fans_of("12345m444p456p99s", "3m")
    assert r["wait"] == "edge" and r["names"]["四同"] == 10
    # 四同 does not free the open wait on 6m (123 + 456)
    assert refused("12345m444p456p99s", "6m") == "wait_not_allowed"
    # with four 贼 (5555p) the same holds: 5555p is 10
    r = fans_of("12345m555p567p99s", "3m")
    assert r["names"]["四同"] == 10


def test_dragon_wait_free_only_when_the_tile_completes_it():
    r = fans_of("23456789m456s99p", "1m")  # 123 456 789: 一条龙, 1m is part of it
    assert r["names"]["一条龙"] == 10
    assert fans_of("13456789m456s99p", "2m")["names"]["一条龙"] == 10
    assert refused("23456789m456s99p", "4m") == "wait_not_allowed"  # 234 456 789: no dragon
    assert fans_of("23456789m456s99p", "7m")["wait"] == "edge"      # 789 edge


# --- fan table -----------------------------------------------------------------------------
def test_seven_pairs_with_an_exposed_pung():
    # 333m exposed + 11m 22p 55s 66s 3m 7s, waiting on 7s: the 333 + 3 is two pairs
    r = fans_of("11m22p55s66s3m7s", "7s", pungs="3m")
    assert r["names"]["七对"] == 10 and r["names"]["四同"] == 2


def test_all_pungs_flush_and_four_of_a_kind_any_wait():
    r = fans_of("111m222p333s44s88p", "8p")  # 对对胡 on a pung wait
    assert r["names"]["对对胡"] == 5
    r = fans_of("1112345678999m", "1m")       # 清一色 (also a dragon)
    assert r["names"]["清一色"] == 10


def test_big_and_small_exposed_fourth():
    # 明大绝: waiting on the fourth 9p of an exposed pung, on an open wait (78p + 9p)
    r = fans_of("78p456m123s11s", "9p", pungs="9p")
    assert r["names"]["明大绝"] == 5 and r["names"]["四同"] == 2 and r["wait"] == "open"
    # 暗大绝: the fourth 2m to a concealed 222m, on the open wait 34m (234m + 222m)
    r = fans_of("22234m123s456s99p", "2m")
    assert r["names"]["暗大绝"] == 5


def test_sisters_count_every_link():
    r = fans_of("444m555m666m123p9s", "9s", flowers="1f2f")
    assert r["names"]["姊妹"] == 2   # 444 555 666: two links (2 fan also frees the pair wait)
    r = fans_of("444555666777m9s", "9s")
    assert r["names"]["姊妹"] == 3 and r["names"]["对对胡"] == 5
    r = fans_of("123123p456s789m1s", "1s", self_drawn=True)   # identical chows 123p 123p
    assert r["names"]["姊妹"] == 1


def test_flowers_no_flower_same_flowers_self_draw_last_tile():
    r = fans_of("34456m123p789s11s", "5m", flowers="")
    assert r["names"]["无花果"] == 10
    r = fans_of("34456m123p789s11s", "5m", flowers="5z5z")  # 白 is no real flower
    assert r["names"]["无花果"] == 10 and r["names"]["花"] == 2
    r = fans_of("34456m123p789s11s", "5m", flowers="7z7z7z7z1f2f3f4f")
    assert r["names"]["同花"] == 20 and r["names"]["花"] == 8
    r = fans_of("34456m123p789s11s", "5m", self_drawn=True, last_tile=True)
    assert r["names"]["自摸"] == 1 and r["names"]["海底捞月"] == 10


def test_shuaida_and_min_fan_for_open_wait():
    # 678s + 8s waiting on 8s: 甩大 1; with 自摸 it reaches the default minimum 2
    assert refused("6788s123p456p789m", "8s") == "wait_not_allowed"
    r = fans_of("6788s123p456p789m", "8s", self_drawn=True)
    assert r["names"]["甩大"] == 1 and r["wait"] == "pair"
    # option at 1: 甩大 alone is enough
    r = fans_of("6788s123p456p789m", "8s", min_fan_for_open_wait=1)
    assert r["fan_total"] == 1 + 1  # flower + 甩大


# --- 四同 when something else frees the wait (fan table, row 四同, Decision) ------------------
def test_four_of_a_kind_counts_when_the_exposed_fourth_frees_the_wait():
    # exposed 444p, in hand 56p 123m 789s 11s, winning on the fourth 4p: 456p is an open
    # wait, freed by 明大绝 (any wait); 444p + 4p is 四同 of 4p: 10
    r = fans_of("56p123m789s11s", "4p", pungs="4p")
    assert r["wait"] == "open"
    assert r["fans"] == [["花", "Flowers", 1, 1], ["明大绝", "Fourth of an exposed pung", 5, 1],
                         ["四同", "Four of a kind", 10, 1]]
    assert r["fan_total"] == 16


def test_four_of_a_kind_counts_when_the_fan_threshold_frees_the_wait():
    # 444s 45s 222m 333m 99p waiting on 3s/6s (two-sided: open).  Four 4s is 四同 10, which
    # does not free an open wait; on a discard the rest is 姊妹 1 (222m 333m) < 2: refused
    hand = "444s45s222m333m99p"
    assert refused(hand, "6s") == "wait_not_allowed"
    # self-drawn: 自摸 1 + 姊妹 1 reach min_fan_for_open_wait 2, and 四同 still counts
    r = fans_of(hand, "6s", self_drawn=True)
    assert r["wait"] == "open"
    assert r["fans"] == [["花", "Flowers", 1, 1], ["自摸", "Self-drawn", 1, 1], ["姊妹", "Sister sets", 1, 1],
                         ["四同", "Four of a kind", 10, 1]]
    assert r["fan_total"] == 13
    # or a lower threshold (the table option) on the discard
    r = fans_of(hand, "6s", min_fan_for_open_wait=1)
    assert r["fans"] == [["花", "Flowers", 1, 1], ["姊妹", "Sister sets", 1, 1], ["四同", "Four of a kind", 10, 1]]
    assert r["fan_total"] == 12


# --- the hand: tiles, claims, 听 / 假听, 包五家 ----------------------------------------------
def opts(**given):
    return find_variant("jinhu").resolve_options(given)


S0 = "5m123m789p123s456s9m"
S1 = "46m123p456p789s11s"
S2 = "234m678m234p678s9p"
S3 = "234m678m234p678s9p"


def stacked(hands=(S0, S1, S2, S3), draws="", context=None, **o) -> JinhuHand:
    ctx = {"stacked": {"hands": [kinds(h) for h in hands], "draws": kinds(draws), "back": []}, "hand_no": 1}
    ctx.update(context or {})
    return JinhuHand(opts(**o), 5, 0, ctx)


def test_set_dragons_are_flowers_pung_only():
    h = JinhuHand(opts(), 11, 0, {})
    assert len(h.wall) == 128
    for s in range(4):
        assert not any(t >> 2 in (31, 32, 33) or t >> 2 >= 34 for t in h.hands[s])
    types = {a.type for a in h.legal_actions(0)}
    assert types <= {"discard", "ting", "fake_ting", "hu"} and "kong" not in types


def test_baowujia_discarder_not_ready():
    h = stacked()
    h.apply(Action(0, "discard", k("5m")))
    assert {str(a) for a in h.legal_actions(1)} == {"1 hu", "1 pass"}
    h.apply(Action(1, "hu"))
    r = h.result
    # 无花果 10 + 胡贼 5 = 15 a share; 包五家: seat 0 pays 5, seat 1 gets 3, seats 2 and 3 one each
    assert r["fan_total"] == 15 and r["baowu"] == 0
    assert r["points"] == [-75, 45, 15, 15]
    assert r["next_dealer"] == 0 and r["match_updates"] == {"jinhu_doubled": 0}


def test_ready_discarder_pays_one_share_like_everybody():
    h = stacked()
    h.apply(Action(0, "ting", k("5m")))  # 123m 789p 123s 456s 9m: ready on 9m
    assert h.view(None)["seats"][0]["ting"]
    h.apply(Action(1, "hu"))
    assert h.result["baowu"] is None and h.result["points"] == [-15, 45, -15, -15]
    assert h.result["next_dealer"] == 1


def test_fake_ting_protects_and_cannot_win():
    h = stacked(draws="9m")
    h.apply(Action(0, "fake_ting"))
    assert {a.type for a in h.legal_actions(0)} == {"discard"}
    h.apply(Action(0, "discard", k("5m")))
    pub = h.view(None)
    assert pub["seats"][0]["ting"] and h.view(0)["me"]["fake_ting"]
    assert "fake" not in json.dumps(pub, ensure_ascii=False)
    assert [e["type"] for e in (x.to_json() for x in h.events[-2:])] == ["ting", "discard"]
    h.apply(Action(1, "pass"))
    # seat 1 draws 9m and lets it go: seat 0 is ready on 9m but a 假听 seat is offered nothing
    h.apply(Action(1, "discard", k("9m")))
    assert h.phase == "discard" and h.turn == 2
    # locked: seat 0 later may only discard the tile it drew
    h2 = stacked()
    h2.apply(Action(0, "fake_ting"))
    h2.apply(Action(0, "discard", k("5m")))
    h2.apply(Action(1, "hu"))
    assert h2.result["baowu"] is None and h2.result["points"] == [-15, 45, -15, -15]


def test_fake_ting_seat_that_draws_its_winning_tile_is_told_why_it_cannot_win():
    h = stacked(draws="1p2p3p9m")
    h.apply(Action(0, "fake_ting"))
    h.apply(Action(0, "discard", k("5m")))  # 123m 789p 123s 456s 9m: a hand ready on 9m
    h.apply(Action(1, "pass"))
    for s, tile in ((1, "1p"), (2, "2p"), (3, "3p")):
        h.apply(Action(s, "discard", k(tile)))
        while h.phase == "claim":
            h.apply(Action(h.pending_seats()[0], "pass"))
    assert h.turn == 0 and h.drawn[0] >> 2 == k("9m") and h.win_shape(0, None)
    assert "0 hu" not in {str(a) for a in h.legal_actions(0)}
    with pytest.raises(IllegalAction) as e:
        h.apply(Action(0, "hu"))
    assert e.value.code == "fake_ting_cannot_win"
    # nothing changed: the locked seat passes its drawn tile on
    assert {str(a) for a in h.legal_actions(0)} == {"0 discard 9m"}


def test_locked_after_ting():
    h = stacked(draws="1p2p3p1s")
    h.apply(Action(0, "ting", k("5m")))
    h.apply(Action(1, "pass"))
    for s, tile in ((1, "1p"), (2, "2p"), (3, "3p")):
        h.apply(Action(s, "discard", k(tile)))
        while h.phase == "claim":
            h.apply(Action(h.pending_seats()[0], "pass"))
    assert h.turn == 0
    assert {str(a) for a in h.legal_actions(0)} == {"0 discard 1s"}
    with pytest.raises(IllegalAction) as e:
        h.apply(Action(0, "discard", k("9m")))
    assert e.value.code == "hand_locked_after_ting"


def test_first_winner_in_turn_order():
    s2 = "46m123s456s789p11p"
    h = stacked((S0, S1, s2, S3))
    h.apply(Action(0, "discard", k("5m")))
    h.apply(Action(2, "hu"))
    assert not h.is_over()  # seat 1 is nearer and may still win
    h.apply(Action(1, "hu"))
    assert h.result["winner"] == 1


def test_doubled_streak_after_baowujia():
    h = stacked(context={"jinhu_doubled": 1})
    h.apply(Action(0, "ting", k("5m")))
    h.apply(Action(1, "hu"))
    assert h.result["fan_total"] == 30 and h.result["points"] == [-30, 90, -30, -30]
    assert "match_updates" not in h.result  # the doubled seat won: it keeps the ×2
    # a Match carries the streak: 包五家 by seat 0 → seat 0 deals, doubled
    m = Match("jinhu", opts(), 7, 4)
    m.finish({"winner": 1, "points": [-75, 45, 15, 15], "next_dealer": 0,
              "match_updates": {"jinhu_doubled": 0}})
    nxt = m.new_hand()
    assert nxt.dealer == 0 and nxt.doubled_seat() == 0
    m.finish({"winner": None, "points": [0, 0, 0, 0]})
    assert m.new_hand().doubled_seat() == 0  # a draw keeps it
    m.finish({"winner": 2, "points": [-5, -5, 15, -5], "match_updates": {"jinhu_doubled": None}})
    assert m.new_hand().doubled_seat() is None and m.state["dealer"] == 2


def test_warnings_and_marked_view():
    h = stacked()
    v = h.view(0)
    assert v["marked"] == {"kinds": ["5s", "5m", "7m", "5p"], "label": "贼"}
    assert {"tile": "5m", "liable_to": None, "reason": "包五家"} in v["me"]["warnings"]
    assert h.view(1)["me"]["warnings"] == []
