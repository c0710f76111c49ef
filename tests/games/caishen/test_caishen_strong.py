"""The ``strong`` AI of 财神麻将 (engine/variants/caishen/strong.py): it lets a win on a discard
go by when the self-drawn win it can expect is worth more (rules/caishen.md §Scoring: a
self-drawn win is paid by all three at twice the multiplier, a discard win by the discarder
alone), and takes it otherwise.  Values worked by hand in each test."""

from __future__ import annotations

import pytest

from conftest import act, legal
from engine.actions import HU, PASS, Action
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


def test_draw_chance_by_hand():
    # one draw: the chance of the tile itself, 12 live of 120 unseen
    assert strong.draw_chance(12, 120, 1) == pytest.approx(0.1)
    # two draws, the hand ending otherwise 40% of the rounds between them:
    # 0.1 + 0.9 * 0.6 * 0.1 = 0.154
    assert strong.draw_chance(12, 120, 2) == pytest.approx(0.154)
    assert strong.draw_chance(0, 120, 20) == 0.0 and strong.draw_chance(12, 120, 0) == 0.0


def test_a_hand_every_draw_completes_lets_a_plain_discard_win_go():
    # 345m 345p 234567s and one 财神: four sets, and the 财神 pairs with any tile, so every
    # one of the 120 tiles seat 1 cannot see completes it.  On seat 2's 9m it would take 1
    # (plain win, ×1, seat 2 pays alone; nobody deals).  Drawn, the win is ×2 from each of the
    # three, the dealer paying double: 4 + 2 + 2 = 8, with chance 1 on the next draw.
    h = _facing_a_discard_win("345m345p234567s7z", "9m")
    assert strong.live_wins(h, 1, h.counts(1)) == (120, 120)
    assert strong.pass_value(h, 1) == pytest.approx((1, 8.0))
    assert strong.choose_action(h, 1) == Action(1, PASS)
    assert NORMAL(h, 1) == Action(1, HU)  # the normal AI takes every win
    act(h, "1 pass")
    assert h.phase == "discard" and h.turn == 3 and not h.is_over()  # seat 3 drew: play goes on


def test_a_hand_with_few_live_tiles_takes_the_discard_win():
    # 2345678m 456p 789s waits on 2m 5m 8m (22 345 678 / 234 55 678 / 234 567 88): 3 + 2 + 3
    # unseen (seat 1 holds one of each, 5m is on the table) and the four 财神 = 12 of 120.
    # p = 0.1, 20 own draws left (81 // 4), x = 0.9 * 0.6 = 0.54:
    # chance = 0.1 * (1 - 0.54**20) / 0.46 = 0.2174; wait = 0.2174 * 8 - 0.7826 * 1.3 = 0.722 < 1
    h = _facing_a_discard_win("2345678m456p789s", "5m")
    assert strong.live_wins(h, 1, h.counts(1)) == (12, 120)
    take, wait = strong.pass_value(h, 1)
    assert take == 1 and wait == pytest.approx(0.7217, abs=1e-4)
    assert strong.choose_action(h, 1) == Action(1, HU)


def test_with_no_draw_left_every_discard_win_is_taken():
    # the hand every draw completes, but with fewer than four tiles left seat 1 draws no more
    # before the wall runs out (81 // 4 -> 3 // 4 = 0 draws): chance 0, wait = -1.3
    h = _facing_a_discard_win("345m345p234567s7z", "9m")
    h.front = h.back - 3  # the wall nearly drawn (the rest of the state is what it was)
    take, wait = strong.pass_value(h, 1)
    assert (take, wait) == (1, pytest.approx(-1.3))
    assert strong.choose_action(h, 1) == Action(1, HU)
