"""字牌 rules (docs/rules/zipai.md): the worked examples, every 胡息 row, the best split, the starting
提 card counts, the three kinds of 过张, forced moves, priorities and the scoring."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.errors import IllegalAction
from engine.tiles import parse_kind, parse_kinds
from engine.variants import find_variant
from engine.variants.zipai import ZipaiHand, settlement, starting_replacements
from engine.variants.zipai.huxi import best_split, best_win, chi_choices, group_huxi, idx_of, tun_of


def K(text: str) -> list[int]:
    return parse_kinds(text)


def k1(text: str) -> int:
    return parse_kind(text)


def I(text: str) -> int:  # noqa: E743 - array index of a card
    return idx_of(parse_kind(text))


def counts(text: str) -> list[int]:
    c = [0] * 20
    for k in K(text):
        c[idx_of(k)] += 1
    return c


def make(hands, stock="", n=None, dealer=0, **opts) -> ZipaiHand:
    """A hand with a fixed deal (dealer's 15 first in ``hands`` order by seat) and stock."""
    n = n or len(hands)
    options = find_variant("zipai").resolve_options(dict({"piao_max": 0}, **opts))
    return ZipaiHand(options, 7, dealer, n, {"stacked": {"hands": [K(h) for h in hands], "stock": K(stock)}})


def act(h, seat, typ, card=None):
    return h.apply(Action(seat, typ, k1(card) if card else None))


def shows(h):
    """``[(seat, card)]`` of the stock cards shown so far."""
    return [(e.seat, e.to_json()["tile"]) for e in h.events if e.type == "show"]


def types(h, seat):
    return sorted(str(a).split(" ", 1)[1] for a in h.legal_actions(seat))


# ---------------------------------------------------------------- worked examples
def test_tun_examples():
    # zipai.md §Worked examples: 三息一囤 17 胡息 -> 5 囤; 一息一囤 17 胡息 -> 17 囤
    assert tun_of(17, 3) == 5
    assert tun_of(17, 1) == 17


def test_worked_hand_split():
    # 贰柒拾 (6) + 一二三 (3) + 碰 of 八 (1) + 坎 of 伍 (6) + 五六七 (0) = 16 胡息
    table = [("peng", 1, 3, I("8x"))]
    r = best_win(counts("2X 7X 10X 1x 2x 3x 5X 5X 5X 5x 6x"), table, I("7x"), True)
    assert r is not None and r[0] == 16
    # 5 囤 × 2 番 (自摸) = 10, paid by each other player
    tun, total, points = settlement(3, 0, 16, 2, 3, [0, 0, 0], [1, 2])
    assert (tun, total, points) == (5, 10, [20, -10, -10])


def test_worked_hand_played():
    # the same hand reached in play: seat 1 pungs 八 from the dealer's discard, then draws 七
    h = make(["8x 1X 3X 4X 6X 9X 1x 4x 4x 9x 9x 3X 6X 10X 10X",
              "2X 7X 10X 1x 2x 3x 5X 5X 5X 5x 6x 8x 8x 9X"], stock="10x 7x")
    act(h, 0, "discard", "8x")
    assert types(h, 1) == ["pass", "peng"]
    act(h, 1, "peng")
    # the hint before that discard (zipai.md's worked hand): playing 9X leaves it ready on 四
    # or 七, 16 胡息 each, four of each unseen
    hint = {x["discard"]: x["waits"] for x in h.view(1)["me"]["hint"]}
    assert hint["9X"] == [{"tile": "4x", "huxi": 16, "left": 4}, {"tile": "7x", "huxi": 16, "left": 4}]
    act(h, 1, "discard", "9X")
    # waits: 四 (四五六) or 七 (五六七), 16 胡息 each; seat 1 sees no 四 or 七 anywhere: 4 left each
    assert h.view(1)["me"]["waits"] == [{"tile": "4x", "huxi": 16, "left": 4}, {"tile": "7x", "huxi": 16, "left": 4}]
    while not (h.phase == "claim" and h.pending_seats() == [1]):
        act(h, h.pending_seats()[0], "pass")
    assert "hu" in types(h, 1)
    act(h, 1, "hu")
    r = h.result
    assert (r["winner"], r["self_drawn"], r["huxi"], r["tun"], r["fan"], r["total_tun"]) == (1, True, 16, 5, 2, 10)
    assert r["points"] == [-10, 10]


# ---------------------------------------------------------------- 胡息 table rows
@pytest.mark.parametrize("gtype,card,value", [
    ("peng", "8X", 3), ("peng", "8x", 1),
    ("kan", "5X", 6), ("kan", "5x", 3),
    ("wei", "5X", 6), ("wei", "5x", 3),
    ("chouwei", "5X", 6), ("chouwei", "5x", 3),
    ("pao", "9X", 9), ("pao", "9x", 6),
    ("ti", "3X", 12), ("ti", "3x", 9),
])
def test_huxi_same_card_groups(gtype, card, value):
    # zipai.md §胡息: 碰 3/1, 坎/偎/臭偎 6/3, 跑 9/6, 提 12/9 (big/small)
    assert group_huxi(gtype, (I(card),) * 3) == value


@pytest.mark.parametrize("cards,value", [
    ("1X 2X 3X", 6), ("1x 2x 3x", 3), ("2X 7X 10X", 6), ("2x 7x 10x", 3),
    ("4x 5x 6x", 0), ("8X 9X 10X", 0), ("5X 5X 5x", 0), ("5x 5x 5X", 0),
])
def test_huxi_sentences_and_jiao(cards, value):
    # zipai.md §胡息: 壹贰叁 6, 一二三 3, 贰柒拾 6, 二七十 3, other sentences and 绞牌 0
    kind = "jiao" if len(set(K(cards))) == 2 else "sentence"
    assert group_huxi(kind, [idx_of(k) for k in K(cards)]) == value


def test_pairs_score_nothing_and_split_takes_the_most():
    # 一二三 + 二七十 can also be read 一二三 + ... : 1x2x3x 2x7x10x (3 + 3) beats any other split
    assert best_split(counts("1x 2x 2x 3x 7x 10x"), False)[0] == 6
    # 壹贰叁 壹贰叁 (12) rather than 绞/other groupings; a pair adds nothing
    assert best_split(counts("1X 1X 2X 2X 3X 3X 9x 9x"), True)[0] == 12
    # mixed cases never make a sentence: 一 贰 叁 does not split
    assert best_split(counts("1x 2X 3X"), False) is None
    # no wrap-around: 九 十 一 does not split
    assert best_split(counts("9x 10x 1x"), False) is None


def test_kan_is_never_split():
    # 坎 of 二 + 一 三 : splitting the 坎 into 一二三 + 二二 pair is not allowed, so without a pair
    # the cards 2x2x2x 1x 3x ... can only win keeping the 坎
    hand = counts("2x 2x 2x 1x 3x 4x 7X 8X 9X 4X 5X 6X 1X 1X")
    r = best_win(hand, [], I("1X"), True)
    # 坎 of 二 (3) + 一..? 1x3x4x does not split, so no win
    assert r is None
    hand = counts("2x 2x 2x 3x 4x 5x 7X 8X 9X 4X 5X 6X 1X 1X")
    r = best_win(hand, [], I("1X"), True)
    # 坎 二 (3) + 三四五 + 柒捌玖 + 肆伍陆 + 壹壹壹 (a triple made with the outside card: 碰 3) = 6
    assert r is not None and r[0] == 6


def test_pair_only_with_a_four_card_group():
    hand = counts("1x 2x 3x 4x 5x 6x 7x 8x 9x 2X 2X")
    # without a 跑/提 a pair cannot be one of the five groups
    assert best_win(hand, [], None) is None
    # with a 提 of 拾 on the table: 提 (12) + 一二三 (3) + 3 sentences + pair 贰 = 15
    r = best_win(hand, [("ti", 12, 4, I("10X"))], None)
    assert r is not None and r[0] == 15


def test_win_on_card_joining_a_kan_or_a_peng_makes_a_pao():
    # the won card on a 坎 of 玖 in hand counts 跑 (9), and needs a pair
    hand = counts("9X 9X 9X 1x 2x 3x 4X 5X 6X 7x 8x 9x 6x 6x")
    r = best_win(hand, [], I("9X"), True)
    assert r is not None and r[0] == 9 + 3
    # the won card joining a 碰 of 十 on the table: 跑 of 十 (6)
    r = best_win(counts("1x 2x 3x 4X 5X 6X 7x 8x 9x 6x 6x"), [("peng", 1, 3, I("10x"))], I("10x"), True)
    assert r is not None and r[0] == 6 + 3


# ---------------------------------------------------------------- 吃 and 比牌
def test_chi_choices_and_bi():
    # hand 四 六 七 and 五; a 五 comes: 四五六 or 五六七 take it, but the 五 in hand must be laid too
    avail = counts("4x 6x 7x 5x 3x 5X")
    codes = dict(chi_choices(avail, I("5x")))
    # 三四五 with the taken 五, and the hand 五 in 五六七: code h_l
    assert [list(g) for g in codes["h_l"]] == [[I("3x"), I("4x"), I("5x")], [I("5x"), I("6x"), I("7x")]]
    assert "d" in codes  # 五五伍 takes the hand 五 too: no 比牌 needed
    assert all(c == "d" or "_" in c for c in codes)  # every other choice needs 比牌
    # 四五六 would take it but the 五 in hand has no further group: no 吃 at all
    assert chi_choices(counts("4x 6x 5x"), I("5x")) == []


def test_chi_legal_actions_carry_the_code():
    # dealer discards 五; seat 1 (下家) holds 三 三 四 六 七 八: runs 三四五 (h), 四五六 (m), 五六七 (l)
    h = make(["5x 1X 1X 3X 3X 9X 9X 4X 4X 6X 6X 8X 8X 10X 10X",
              "4x 6x 7x 8x 2X 2X 9x 9x 10x 1x 3x 3x 7X 7X"], n=2)
    act(h, 0, "discard", "5x")
    assert types(h, 1) == ["chi_h 5x", "chi_l 5x", "chi_m 5x", "pass"]
    me = h.view(1)["me"]
    assert me["chi_options"][0] == {"action": "1 chi_h 5x", "groups": [["3x", "4x", "5x"]]}
    assert me["chi_options"][1] == {"action": "1 chi_l 5x", "groups": [["5x", "6x", "7x"]]}
    act(h, 1, "chi_m", "5x")
    assert [m["type"] for m in h.view(1)["seats"][1]["melds"]] == ["chi"]
    assert h.phase == "discard" and h.turn == 1


# ---------------------------------------------------------------- starting 提
def test_starting_replacement_counts():
    # zipai.md §Actions, starting 提: dealer N-2, non-dealer N-1, N = 1 none
    assert [starting_replacements(n, True) for n in range(5)] == [0, 0, 0, 1, 2]
    assert [starting_replacements(n, False) for n in range(5)] == [0, 0, 1, 2, 3]


def test_dealer_two_ti_no_discard_and_nondealer_replacements():
    h = make(["1x 1x 1x 1x 2X 2X 2X 2X 3x 5x 7x 9x 4X 6X 8X",
              "3X 3X 3X 3X 5X 5X 5X 5X 7X 7X 7X 7X 10x 9X"], stock="6x 8x 2x 4x", n=2)
    # dealer: 2 提, 0 replacements, 7 cards left, does not discard: seat 1 draws next
    assert [m["type"] for m in h.view(0)["seats"][0]["melds"]] == ["ti", "ti"]
    assert h.view(0)["seats"][0]["hand_count"] == 7
    # seat 1: 3 提, 3 - 1 = 2 replacements (stock 六 八), then draws 二 and shows it
    assert len(h.view(1)["seats"][1]["melds"]) == 3
    assert sorted(h.view(1)["me"]["hand"]) == sorted(["10x", "9X", "6x", "8x"])
    assert shows(h)[0] == (1, "2x")
    assert not any(e.type == "discard" for e in h.events)


def test_dealer_three_ti_one_replacement_and_one_ti_discards():
    h = make(["1x 1x 1x 1x 2X 2X 2X 2X 3X 3X 3X 3X 5x 7x 9x",
              "4x 4x 6x 6x 8x 8x 10x 10x 5X 5X 7X 7X 9X 10X"], stock="1X 2x", n=2)
    assert h.view(0)["seats"][0]["hand_count"] == 4  # 15 - 12 + 1 replacement (壹)
    assert shows(h)[0] == (1, "2x")  # seat 1 draws next: no dealer discard
    assert not any(e.type == "discard" and e.seat == 0 for e in h.events)
    h = make(["1x 1x 1x 1x 2X 3X 4X 5x 7x 9x 6X 6X 8X 10X 10X",
              "4x 4x 6x 6x 8x 8x 10x 10x 5X 5X 7X 7X 9X 1X"], n=2)
    assert h.phase == "discard" and h.turn == 0 and h.view(0)["seats"][0]["hand_count"] == 11


def test_ming_long_defers_nondealer_ti():
    hands = ["1x 2x 3x 4x 5x 6x 7x 8x 9x 1X 3X 5X 6X 8X 9X",
             "2X 2X 2X 2X 10x 10x 7X 7X 4X 4X 10X 1x 2x 3x"]
    h = make(hands, n=2, ming_long=True)
    assert h.view(1)["seats"][1]["melds"] == []
    act(h, 0, "discard", "9X")
    assert h.view(1)["seats"][1]["melds"][0]["type"] == "ti"
    assert [e.type for e in h.events].index("ti") > [e.type for e in h.events].index("discard")
    h = make(hands, n=2)
    assert [m["type"] for m in h.view(1)["seats"][1]["melds"]] == ["ti"]


# ---------------------------------------------------------------- 过张 (three kinds)
def test_forced_wei_shows_one_card_to_others():
    h = make(["9X 1X 2X 3X 4X 5X 6X 7X 8X 1x 2x 3x 4x 7x 8x",
              "9x 9x 2X 2X 5X 7X 10X 10x 10x 6x 6x 3x 4x 8X"], stock="5x 1x 9x", n=2)
    act(h, 0, "discard", "9X")  # seat 1 has no 玖 pair: nothing
    # seat 1 draws 五 (5x): seat 1 can chi it (三四五... hand 3x 4x) or pass; dealer chi?
    while h.phase == "claim":
        act(h, h.pending_seats()[0], "pass")
    # seat 0 draws 一 (1x) — pass it along
    while h.phase == "claim":
        act(h, h.pending_seats()[0], "pass")
    # seat 1 draws 九 with a pair of 九 in hand: forced 偎 (nobody is asked)
    assert [m["type"] for m in h.view(1)["seats"][1]["melds"]] == ["wei"]
    assert h.phase == "discard" and h.turn == 1
    # and others see two face-down cards and the shown one
    assert h.view(0)["seats"][1]["melds"][0]["tiles"] == [None, None, "9x"]


def test_passed_card_declined_peng_blocks_later_peng():
    h = make(["9x 1X 2X 3X 4X 5X 6X 7X 8X 1x 2x 3x 4x 7x 8x",
              "9x 9x 2X 2X 5X 7X 10X 10x 10x 6x 6x 3x 1X 8X"], stock="5x 9x", n=2)
    act(h, 0, "discard", "9x")
    assert "peng" in types(h, 1)
    act(h, 1, "pass")  # declined: 九 is now a passed card for seat 1 (过张 kind 1)
    assert "9x" in h.view(1)["me"]["passed"]
    # seat 1 shows 五; only the dealer (三四五) may take it
    assert shows(h) == [(1, "5x")] and h.pending_seats() == [0]
    act(h, 0, "pass")
    # the dealer shows 九: seat 1 holds a pair of 九 but may not 碰 a passed card; only the
    # dealer's own 吃 (七八九) is offered
    assert shows(h)[1] == (0, "9x") and h.pending_seats() == [0]
    act(h, 0, "pass")
    assert h.view(None)["seats"][0]["discards"] == ["9x", "9x"]


def test_passed_card_chouwei_when_drawn_after_declining():
    h = make(["9x 1X 2X 3X 4X 5X 6X 7X 8X 1x 2x 3x 4x 7x 8x",
              "9x 9x 2X 2X 5X 7X 10X 10x 10x 6x 6x 3x 1X 8X"], stock="5x 4X 9x", n=2)
    act(h, 0, "discard", "9x")
    act(h, 1, "pass")
    while h.shown is None or h.shown["card"] >> 2 != k1("9x") or h.shown["from"] != "stock":
        act(h, h.pending_seats()[0], "pass")
    assert [m["type"] for m in h.view(1)["seats"][1]["melds"]] == ["chouwei"]


def test_passed_card_bi_failure():
    # zipai.md 过张 (2): hand 二三四五, a 三 appears and cannot be taken (比牌 fails): later,
    # even when a 三 could be taken, it may not.
    h = make(["3x 1X 2X 4X 5X 6X 7X 8X 9X 6x 7x 8x 9x 10x 10X",
              "2x 3x 4x 5x 2X 2X 6X 6X 10X 10x 7X 7X 9X 9X"], stock="1x 3x", n=2)
    act(h, 0, "discard", "3x")
    # 三四五 or 四五六 would take it, but the 三 in hand then has no group: no 吃, and it is passed
    assert "3x" in h.view(1)["me"]["passed"]
    # seat 1 drew 一 and takes it as 一二三
    assert shows(h) == [(1, "1x")] and types(h, 1) == ["chi_l 1x", "pass"]
    act(h, 1, "chi_l", "1x")
    act(h, 1, "discard", "10x")
    act(h, 0, "pass")  # the dealer lets 十 go
    # the dealer shows 三: 三四五 is possible now, but 三 is a passed card for seat 1, so nobody
    # is asked and the 三 goes to the dealer's row
    assert shows(h)[1] == (0, "3x")
    assert h.chi_options(1, k1("3x") * 4) != []
    assert h.view(None)["seats"][0]["discards"] == ["3x", "3x"]


def test_passed_card_own_discard():
    h = make(["5x 1X 2X 3X 4X 6X 7X 8X 9X 6x 7x 8x 9x 10x 10X",
              "1x 2x 3x 4x 2X 2X 3X 3X 10X 5x 7X 7X 9X 9X"], stock="5x", n=2)
    act(h, 0, "discard", "5x")
    act(h, 1, "pass")
    # seat 1 drew nothing yet: the dealer's discarded 五 is a passed card of the dealer
    assert "5x" in h.view(0)["me"]["passed"]


# ---------------------------------------------------------------- forced moves and priorities
def test_forced_ti_on_draw_and_pao_on_discard():
    h = make(["6X 1X 2X 3X 4X 5X 7X 8X 9X 1x 2x 3x 4x 5x 10X",
              "7x 7x 7x 6X 6X 6X 10x 10x 9x 8x 2X 3X 8X 9X"], stock="7x", n=2)
    act(h, 0, "discard", "6X")
    # seat 1 holds a 坎 of 陆: forced 跑, nobody asked; first 跑: seat 1 discards
    assert [m["type"] for m in h.view(0)["seats"][1]["melds"]] == ["pao"]
    assert h.phase == "discard" and h.turn == 1
    act(h, 1, "discard", "9x")
    while h.phase == "claim":
        act(h, h.pending_seats()[0], "pass")
    # the dealer draws 七, which seat 1 holds as a 坎: a 跑 of seat 1 on the dealer's shown card;
    # its second 跑 (重跑): no discard, seat 1's 下家 (the dealer) draws next
    assert [m["type"] for m in h.view(0)["seats"][1]["melds"]][:2] == ["pao", "pao"]
    evs = [(e.type, e.seat, e.data.get("chong")) for e in h.events]
    i = evs.index(("pao", 1, True))
    assert evs[i + 1][:2] == ("show", 0) and shows(h)[:2] == [(0, "7x"), (0, shows(h)[1][1])]


THREE = ["9x 9x 9X 9X 3x 6x 7x 7x 5X 4X 2X 1X 3X 10x 5x",
         # seat 1: 坎 拾 (6) + 一二三 (3) + 柒捌玖 + 肆伍陆 + 四五 waiting on 三/六: 9 胡息
         "4x 5x 7X 8X 9X 1x 2x 3x 10X 10X 10X 4X 5X 6X",
         # seat 2: 壹贰叁 (6) + 二七十 (3) + 坎 八 (3) + 陆柒捌 + 四五: 12 胡息
         "4x 5x 1X 2X 3X 2x 7x 10x 8x 8x 8x 6X 7X 8X"]


def test_drawer_wins_first():
    # zipai.md §Winning: several players able to win on one card: the drawer first
    h = make(THREE, stock="6x")
    act(h, 0, "discard", "9X")  # nobody can use 玖 (seat 1's 吃 fails 比牌)
    assert shows(h) == [(1, "6x")]
    assert "hu" in types(h, 1) and "hu" in types(h, 2)
    act(h, 2, "hu")
    assert not h.is_over()  # the drawer still decides first
    act(h, 1, "hu")
    r = h.result
    # 自摸: 9 胡息 -> 3 囤 × 2 番 = 6, paid by each other player
    assert (r["winner"], r["self_drawn"], r["huxi"], r["tun"], r["fan"]) == (1, True, 9, 3, 2)
    assert r["points"] == [-6, 12, -6]


def test_discard_win_pays_n_fan_by_discarder():
    h = make(THREE)
    act(h, 0, "discard", "6x")
    # seat 1 (the discarder's 下家) is first among the winners and takes it at once
    act(h, 1, "hu")
    r = h.result
    # 9 胡息 -> 3 囤 × 3 番 (three players) = 9, paid by the discarder alone
    assert (r["huxi"], r["tun"], r["fan"], r["discarder"], r["self_drawn"]) == (9, 3, 3, 0, False)
    assert r["points"] == [-9, 9, 0]


def test_shown_card_win_one_fan_paid_by_all_with_piao():
    h = make(THREE, stock="6x", piao_max=3)
    assert h.phase == "piao" and h.view(0)["me"]["hand"] == []  # 飘 before seeing the cards
    act(h, 0, "piao_two")
    act(h, 1, "piao_none")
    act(h, 2, "piao_one")
    act(h, 0, "discard", "9X")
    act(h, 1, "pass")  # the drawer declines; seat 2 wins on the card seat 1 showed
    act(h, 2, "hu")
    r = h.result
    # 12 胡息 -> 4 囤 × 1 番 = 4; each loser pays 4 + its 飘 + the winner's 飘 (1)
    assert (r["fan"], r["tun"], r["huxi"], r["self_drawn"]) == (1, 4, 12, False)
    assert r["points"] == [-(4 + 2 + 1), -(4 + 0 + 1), 7 + 5]


def test_illegal_actions_leave_state():
    h = make(["5x 1X 2X 3X 4X 6X 7X 8X 9X 6x 7x 8x 9x 10x 10X",
              "1x 2x 3x 4x 2X 2X 3X 3X 10X 5x 7X 7X 9X 9X"], n=2)
    seq = h.seq
    with pytest.raises(IllegalAction):
        act(h, 1, "discard", "1x")
    with pytest.raises(IllegalAction):
        act(h, 0, "discard", "5X")
    assert h.seq == seq


def test_chi_codes_are_every_code_chi_choices_makes():
    """``CHI_CODES`` (the game's declared 吃 moves, each with a button label) is exactly the set
    of codes :func:`chi_choices` produces, over every hand that matters: the counts 0..2 (a
    third copy is a 坎, never free) of the cards a group with the taken card can use."""
    import itertools

    from engine.variants.zipai.actions import CHI_CODES
    from engine.variants.zipai.huxi import chi_shapes, other_case

    made = set()
    for i in range(10):  # the small cards; the big ones mirror them
        near = sorted({i, other_case(i)} | {x for _, ab in chi_shapes(i) for x in ab})
        for combo in itertools.product(range(3), repeat=len(near)):
            avail = [0] * 20
            for k, v in zip(near, combo):
                avail[k] = v
            made.update(code for code, _ in chi_choices(avail, i))
    assert made == set(CHI_CODES)


def test_a_pass_is_a_passed_card_at_once_while_another_seat_still_decides():
    """过张 (1) is kept when the seat passes, not when the window closes: the dealer discards
    9x; seat 1 (吃 with 8x10x) and seat 2 (碰 with 9x9x) may take it; seat 1 passes first.  Its
    own view lists 9x as passed while seat 2 still decides — as it would had nobody else been
    able to take the card — so what it is shown tells it nothing of seat 2's hand."""
    h = make(["9x1X1X5x5x9X2X6x6x3X4X6X7X7X8X", "8x10x1X1X5X5X6X6X8X8X9X9X10X10X",
              "3x4x9x9x7x7x2X2X3X3X4X4X5X10x"], stock="2x")
    act(h, 0, "discard", "9x")
    assert sorted(h.pending_seats()) == [1, 2] and h.view(1)["me"]["passed"] == []
    act(h, 1, "pass")
    assert h.pending_seats() == [2]  # seat 2 still decides on 9x
    assert h.view(1)["me"]["passed"] == ["9x"]
    act(h, 2, "pass")
    assert h.view(1)["me"]["passed"] == ["9x"] and h.view(2)["me"]["passed"] == ["9x"]
