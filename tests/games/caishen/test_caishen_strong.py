"""The ``strong`` AI of 财神麻将 (engine/variants/caishen/strong.py): it lets a win on a discard
go by when the self-drawn win it can expect is worth more (docs/rules/caishen.md §Scoring: a
self-drawn win is paid by all three at twice the multiplier, a discard win by the discarder
alone), and takes it otherwise.  Values worked by hand in each test."""

from __future__ import annotations

import pytest

from conftest import act, legal
from engine.actions import HU, PASS, Action
from engine.tiles import parse_kind
from engine.variants import find_variant
from engine.variants.caishen import strong

from test_caishen import stacked

NORMAL = find_variant("caishen").ai_levels["normal"]
#: dealer 0 and seats 2, 3 hold tiles that claim nothing; the 财神 is 7z (中), 白板 plays as 7z
OTHERS = ("147m258s1234z369s6z", "258m147s1234z369m", "147m369s1234z258s")


def _facing_a_discard_win(seat1: str, tile: str):
    """Seat 1 holds ``seat1``; the dealer (0) discards 6z, seat 1 draws 6z and discards it,
    seat 2 draws ``tile`` and discards it: seat 1 may win on it, one draw into the hand (not
    地胡), with 81 tiles left in the wall (136 - 53 dealt - 2 drawn)."""
    h = stacked([OTHERS[0], seat1, OTHERS[1], OTHERS[2]], draws="6z" + tile, indicator="7z")
    act(h, "0 discard 6z")
    if "1 pass" in legal(h, 1):  # a hand holding a 财神 wins on anything: let it go
        act(h, "1 pass")
    act(h, "1 discard 6z", f"2 discard {tile}")
    assert legal(h, 1) == {"1 hu", "1 pass"} and h.wall_remaining == 81
    return h


def test_draw_chance_and_own_draws_by_hand():
    # one draw: the chance of the tile itself, 12 live of 120 unseen
    assert strong.draw_chance(12, 120, 1) == pytest.approx(0.1)
    # two draws, the hand ending otherwise 40% of the rounds between them:
    # 0.1 + 0.9 * 0.6 * 0.1 = 0.154
    assert strong.draw_chance(12, 120, 2) == pytest.approx(0.154)
    # two of the three others draw first: 0.6 ** (2/3) = 0.7114 of that
    assert strong.draw_chance(12, 120, 2, 2 / 3) == pytest.approx(0.154 * 0.6 ** (2 / 3))
    assert strong.draw_chance(0, 120, 20) == 0.0 and strong.draw_chance(12, 120, 0) == 0.0
    h = _facing_a_discard_win("2345678m456p789s", "5m")
    # seat 2 discarded: seats 3 and 0 draw before seat 1, so of 81 tiles seat 1 gets
    # the 3rd, 7th, ..., 79th: 20; of 3 tiles the 3rd: 1; of 2 tiles none
    assert strong.own_draws(h, 1) == 20 and strong.own_draws(h, 3) == 21 and strong.own_draws(h, 0) == 20
    h.front = h.back - 3
    assert strong.own_draws(h, 1) == 1
    h.front = h.back - 2
    assert strong.own_draws(h, 1) == 0


def test_a_hand_every_draw_completes_lets_a_plain_discard_win_go():
    # 345m 345p 234567s and one 财神: four sets, and the 财神 pairs with any tile, so every
    # one of the 120 tiles seat 1 cannot see completes it (a plain hand: mixed suits, chows).
    # On seat 2's 9m it would take 1 (plain win, ×1, seat 2 pays alone; nobody deals).
    # Drawn, the win is ×2 from each of the three, the dealer paying double: 4 + 2 + 2 = 8.
    # Seats 3 and 0 draw first (2/3 of a round): chance 0.6 ** (2/3) = 0.7114 (p = 1);
    # wait = 0.7114 * 8 - 0.2886 * 1.3 = 5.316
    h = _facing_a_discard_win("345m345p234567s7z", "9m")
    assert strong.drawn_wins(h, 1) == (120, 120, 8.0)
    take, wait = strong.pass_value(h, 1)
    assert take == 1 and wait == pytest.approx(0.6 ** (2 / 3) * 8 - (1 - 0.6 ** (2 / 3)) * 1.3)
    assert wait == pytest.approx(5.316, abs=1e-3)
    assert strong.choose_action(h, 1) == Action(1, PASS)
    assert NORMAL(h, 1) == Action(1, HU)  # the normal AI takes every win
    act(h, "1 pass")
    assert h.phase == "discard" and h.turn == 3 and not h.is_over()  # seat 3 drew: play goes on


def test_a_hand_with_few_live_tiles_takes_the_discard_win():
    # 2345678m 456p 789s waits on 2m 5m 8m (22 345 678 / 234 55 678 / 234 567 88): 3 + 2 + 3
    # unseen (seat 1 holds one of each, 5m is on the table) and the four 财神 = 12 of 120,
    # each a plain self-drawn win worth 8.  p = 0.1, 20 own draws, x = 0.9 * 0.6 = 0.54:
    # 0.7114 * 0.1 * (1 - 0.54**20) / 0.46 = 0.1547; wait = 0.1547 * 8 - 0.8453 * 1.3 = 0.138 < 1
    h = _facing_a_discard_win("2345678m456p789s", "5m")
    assert strong.drawn_wins(h, 1) == (12, 120, 8.0)
    take, wait = strong.pass_value(h, 1)
    assert take == 1 and wait == pytest.approx(0.138, abs=1e-3)
    assert strong.choose_action(h, 1) == Action(1, HU)


def test_with_no_draw_left_every_discard_win_is_taken():
    # the hand every draw completes, but with two tiles left seats 3 and 0 draw them and
    # seat 1 none: chance 0, wait = -1.3
    h = _facing_a_discard_win("345m345p234567s7z", "9m")
    h.front = h.back - 2  # the wall nearly drawn (the rest of the state is what it was)
    take, wait = strong.pass_value(h, 1)
    assert (take, wait) == (1, pytest.approx(-1.3))
    assert strong.choose_action(h, 1) == Action(1, HU)
    h.front = h.back - 3  # one more tile: it is seat 1's, and every tile wins
    assert strong.choose_action(h, 1) == Action(1, PASS)


def test_an_earthly_hand_on_a_discard_is_taken():
    # 地胡 (×8) is a discard win only: seat 2 has not drawn yet when seat 1 discards its 5m.
    # take = 8 (nobody deals); a draw would bring a plain ×2 win worth 8 on 12 live of 121
    # (21 draws, seat 2 draws next): 0.0992 * (1 - 0.5405**21) / 0.4595 = 0.2158,
    # wait = 0.2158 * 8 - 0.7842 * 1.3 = 0.707
    h = stacked(["147m258s1234z369s6z", "258m147s1234z369m", "2345678m456p789s", "147m369s1234z258s"],
                draws="9p", indicator="7z")
    act(h, "0 discard 6z", "1 discard 5m")
    assert h.evaluate_win(2, parse_kind("5m"), False)["specials"] == ["dihu"]
    assert strong.drawn_wins(h, 2) == (12, 121, 8.0) and strong.own_draws(h, 2) == 21
    take, wait = strong.pass_value(h, 2)
    assert take == 8 and wait == pytest.approx(0.707, abs=1e-3)
    assert strong.choose_action(h, 2) == Action(2, HU)


def test_all_honours_on_a_discard_is_taken_though_a_suited_draw_pays_less():
    # 6z is the 财神 (白板 plays as 6z).  Seat 1: 111z 222z 333z 444z and a 财神; the dealer
    # discards 7z: 字清, 40, paid double by the dealer: take 80.  Drawn, an honour makes 字清
    # again (160: 80 + 40 + 40) but a suited tile only 大碰胡 ×4 ×2 = 8 (32: 16 + 8 + 8): of
    # the 122 unseen, 14 honours (1z-4z one each, 5z four, 6z three, 7z three) and 108 suited,
    # (14 * 160 + 108 * 32) / 122 = 46.69 on average, chance 1: wait 46.69 < 80
    h = stacked(["147m258p369s147s7z9m", "1112223334446z", "258m369p147s89s6p3m", "369m147p258s9m3s1p2m"],
                indicator="6z")
    act(h, "0 discard 7z")
    assert h.evaluate_win(1, parse_kind("7z"), False)["specials"] == ["ziqing"]
    live, unseen, pay = strong.drawn_wins(h, 1)
    assert (live, unseen) == (122, 122) and pay == pytest.approx((14 * 160 + 108 * 32) / 122)
    assert strong.pass_value(h, 1) == (80, pytest.approx(46.69, abs=1e-2))
    assert strong.choose_action(h, 1) == Action(1, HU)


def test_danger_counts_the_threats_that_have_not_let_a_kind_go():
    h = _facing_a_discard_win("2345678m456p789s", "5m")
    assert strong.danger_of(h, 1) is None  # nobody shows a meld
    # seat 2 and seat 3 show two melds each (laid on for the test): threats to seat 1
    from engine.melds import Meld

    h.melds[2] = [Meld("pung", (0, 1, 2), False, 0, 0)]
    assert strong.danger_of(h, 1) is None  # one meld is no threat yet (THREAT = 2)
    for s in (2, 3):
        h.melds[s] = [Meld("pung", (0, 1, 2), False, 0, 0), Meld("pung", (4, 5, 6), False, 4, 0)]
    danger = strong.danger_of(h, 1)
    # seat 2 let go 5m (and nothing else); seat 3 nothing: 5m is unsafe against one, 9m both
    assert danger(parse_kind("5m")) == 1 and danger(parse_kind("9m")) == 2


def test_the_strong_discard_is_the_safest_of_those_leaving_the_lowest_shanten():
    # seeded hands, strong at seat 0: at each of its discards with a threat at the table, no
    # other discard that leaves the same (lowest) shanten with wilds is safer
    from engine import wilds as W
    from engine.match import Match

    info = find_variant("caishen")
    checked = 0
    for seed in range(40):
        hand = Match(info, info.resolve_options({}), table_seed=seed, n_seats=4).new_hand()
        while not hand.is_over():
            seat = hand.pending_seats()[0]
            a = info.ai_move(hand, seat, "strong" if seat == 0 else "normal")
            danger = strong.danger_of(hand, 0) if seat == 0 else None
            if danger and a.type == "discard" and not hand.is_wild(a.kind):
                counts, nm = hand.counts(0), len(hand.melds[0])

                def after(kind):
                    c = list(counts)
                    c[kind] -= 1
                    return W.shanten(*hand.split_counts(c), nm)

                kinds = {x.kind for x in hand.legal_actions(0) if x.type == "discard" and not hand.is_wild(x.kind)}
                best = min(after(k) for k in kinds)
                assert after(a.kind) == best
                assert danger(a.kind) == min(danger(k) for k in kinds if after(k) == best)
                checked += 1
            hand.apply(a)
    assert checked >= 20  # the defence was asked often enough to mean something


def test_a_drawn_third_caishen_counts_caishen_hui():
    # seat 1 holds 123m 456p 789s 5s 1z and two 财神 (7z).  Drawing a third 财神 wins
    # (5s + 财神 + 财神 a set, 1z + 财神 the pair) with 财神会: ×2, self-drawn ×2 = 4.
    # Drawing 9m does not win (5s 1z 9m and two 财神 make no set and pair).
    from test_caishen import laid_out

    h = laid_out("123m456p789s5s1z77z", seat=1, indicator="7z")
    win = h.evaluate_drawn_win(1, parse_kind("7z"))
    assert win["ok"] and win["specials"] == ["caishenhui"] and win["multiplier"] == 4
    assert not h.evaluate_drawn_win(1, parse_kind("9m"))["ok"]
