"""``engine.wilds``: win, ready and shanten analysis with any number of wild tiles.

The reference is brute force: every wild is replaced by every one of the 34 kinds (all
multisets of substitutions) and the resulting wild-free hand is checked with
``engine.hand_shapes`` (standard hand or seven pairs).  ``engine.wilds`` must agree on
every random hand; the comparison prints how many hands it compared.
"""

from __future__ import annotations

import pytest

import random

from conftest import kinds

from engine import hand_shapes, wilds
from engine.tiles import counts34


def brute_win(counts, n_wilds: int, n_melds: int = 0, seven_pairs: bool = True) -> bool:
    """Some substitution of the wilds by kinds 0..33 makes a winning hand."""
    if sum(counts) + n_wilds != 14 - 3 * n_melds:
        return False
    c = list(counts)

    def rec(left: int, start: int) -> bool:
        if left == 0:
            return hand_shapes.is_standard_win(c, n_melds) or (
                seven_pairs and n_melds == 0 and hand_shapes.is_seven_pairs(c))
        for k in range(start, 34):
            c[k] += 1
            ok = rec(left - 1, k)
            c[k] -= 1
            if ok:
                return True
        return False

    return rec(n_wilds, 0)


def random_hand(rnd: random.Random, n_tiles: int) -> list[int]:
    """``n_tiles`` tiles (<= 4 copies a kind) drawn from 4–11 random kinds, so that
    winning and near-winning hands are common."""
    pool = rnd.sample(range(34), rnd.randint(4, 11))
    c = [0] * 34
    while sum(c) < n_tiles:
        k = rnd.choice(pool)
        if c[k] < 4:
            c[k] += 1
    return c


# hands per number of wilds; winning_kinds below is compared for 0-2 wilds, each
# candidate kind being a brute-force check of its own
# hands per number of wilds (the brute force costs 34^w / w! substitutions per hand)
PLAN = {0: 1500, 1: 1500, 2: 800, 3: 200, 4: 30}


@pytest.mark.slow
def test_is_win_matches_brute_force_on_random_hands():
    rnd = random.Random(2024)
    compared = differ = wins = 0
    for w, n_hands in PLAN.items():
        for _ in range(n_hands):
            n_melds = rnd.randint(0, 2)
            c = random_hand(rnd, 14 - 3 * n_melds - w)
            fast = wilds.is_win(c, w, n_melds)
            slow = brute_win(c, w, n_melds)
            compared += 1
            wins += slow
            if fast != slow:
                differ += 1
    print(f"\nwilds.is_win vs brute force: {compared} hands compared (0-4 wilds), {wins} winning, "
          f"{differ} differences")
    assert compared == sum(PLAN.values())
    assert differ == 0
    assert wins > 100  # the sample does exercise winning hands


@pytest.mark.slow
def test_winning_kinds_match_brute_force():
    rnd = random.Random(77)
    compared = ready = 0
    for i in range(460):
        w = 0 if i < 200 else 1 if i < 400 else 2
        n_melds = rnd.randint(0, 1)
        c = random_hand(rnd, 13 - 3 * n_melds - w)
        fast = wilds.winning_kinds(c, w, n_melds)
        slow = []
        for k in range(34):
            c[k] += 1
            if brute_win(c, w, n_melds):
                slow.append(k)
            c[k] -= 1
        assert fast == slow, (c, w, n_melds)
        compared += 1
        ready += bool(slow)
    print(f"\nwilds.winning_kinds vs brute force: {compared} hands, {ready} ready, no difference")
    assert ready > 50


def test_edge_chows_completed_by_wilds():
    # 13 real tiles + 1 wild: 8m9m + wild (as 7m) is a chow, 123p 456s 789s, 1z pair
    assert wilds.is_win(counts34(kinds("89m123p456s789s11z")), 1) is True
    assert brute_win(counts34(kinds("89m123p456s789s11z")), 1) is True
    # 1m2m + wild (as 3m)
    assert wilds.is_win(counts34(kinds("12m123p456s789s11z")), 1) is True
    # 1m3m + wild (as 2m), a closed wait
    assert wilds.is_win(counts34(kinds("13m123p456s789s11z")), 1) is True
    # 1m9m are not one set: with one wild the hand does not win, with two neither
    # (1m9m need two wilds each way: 1m+WW and 9m+WW would be 15 tiles)
    assert wilds.is_win(counts34(kinds("19m123p456s789s11z")), 1) is False
    assert brute_win(counts34(kinds("19m123p456s789s11z")), 1) is False
    # a lone 9m needs two wilds (7-8 or a pung); 8m9m9m needs two (789 + 9 pair, or 999 + 8)
    assert wilds.standard_need(counts34(kinds("9m123p456s789s11z"))) == 2
    assert wilds.standard_need(counts34(kinds("899m123p456s789s"))) == 2
    # honours never chow: 1z2z3z with two wilds is not a set
    assert wilds.is_win(counts34(kinds("123z123p456s789s")), 2) is False
    assert brute_win(counts34(kinds("123z123p456s789s")), 2) is False
    # all wilds: 14 wilds win, and 2 wilds beside four melds are the pair
    assert wilds.is_win([0] * 34, 14) is True
    assert wilds.is_win([0] * 34, 2, 4) is True
    # ready detection at the edges (worked by hand): 8m9m W 123p 456s 789s 1z waits on
    # 7m (789m, W pairs the 1z) and on 1z (W is the 7m, 1z1z the pair); 6m, 8m, 9m fail
    waits = wilds.winning_kinds(counts34(kinds("89m123p456s789s1z")), 1)
    assert waits == kinds("7m1z")
    # 1m2m W ... waits on 3m and 1z
    assert wilds.winning_kinds(counts34(kinds("12m123p456s789s1z")), 1) == kinds("3m1z")


def test_seven_pairs_and_all_pungs():
    # six pairs + a single + one wild: seven pairs (1 odd kind <= 1 wild)
    c = counts34(kinds("1122m3344p5566s7z"))
    assert wilds.is_seven_pairs(c, 1) and wilds.is_win(c, 1)
    # four identical count as two pairs
    assert wilds.is_seven_pairs(counts34(kinds("1111m2233p445566s")), 0)
    # all pungs: 111m 222p 33s 4z 5z needs 4 wilds (33s pair, 4z+WW, 5z+WW; or 33s+W
    # pung, 4z+WW pung, 5z+W pair)
    assert wilds.all_pungs_need(counts34(kinds("111m222p33s4z5z"))) == 4
    # 111m 222p 444z 33s + three wilds (a pung of wilds) is all pungs; 123m is not
    assert wilds.is_all_pungs(counts34(kinds("111m222p33s444z")), 3) is True
    assert wilds.is_all_pungs(counts34(kinds("123m222p33s444z")), 3) is False


def test_shanten_agrees_with_win_and_ready():
    rnd = random.Random(9)
    checked = 0
    for i in range(3000):
        w = rnd.randint(0, 4)
        n_melds = rnd.randint(0, 3)
        size = (13 if i % 2 else 14) - 3 * n_melds - w
        c = random_hand(rnd, size)
        sh = wilds.shanten(c, w, n_melds)
        if i % 2:
            assert (sh == 0) == bool(wilds.winning_kinds(c, w, n_melds))
        else:
            assert (sh == -1) == wilds.is_win(c, w, n_melds)
        if w == 0:
            assert sh == hand_shapes.shanten(c, n_melds)
        checked += 1
    print(f"\nwilds.shanten checked on {checked} hands")
    # a wild lowers the shanten by one: 13 unrelated tiles vs 12 of them + a wild
    c = counts34(kinds("19m19p19s1234567z"))
    assert wilds.shanten(c, 0) == 6  # seven-pairs count: no pair -> 6
    c[0] -= 1
    assert wilds.shanten(c, 1) == 5


def test_knitted_capacity():
    assert wilds.knitted_capacity([0, 4]) == 3   # 1-5-9
    assert wilds.knitted_capacity([2, 6]) == 2   # 3-7: no third rank fits
    assert wilds.knitted_capacity([0, 1]) == -1  # 1-2 too close
    assert wilds.knitted_capacity([3, 3]) == -1  # a repeat
    assert wilds.knitted_capacity([]) == 3
