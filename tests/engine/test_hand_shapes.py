"""Tests of engine.hand_shapes: decompositions, wins, waits and shanten.

Hand-worked vectors first (the reasoning is in the comments), then brute-force checks
on seeded random hands against slow reference implementations written here.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run from any directory, with or without a pytest.ini
    sys.path.insert(0, str(ROOT))

from engine.hand_shapes import (  # noqa: E402
    _pareto,
    decompose,
    is_seven_pairs,
    is_standard_win,
    is_win,
    shanten,
    shape_waits,
    standard_shanten,
    winning_kinds,
)
from engine.tiles import counts34, parse_kinds  # noqa: E402

TWO_PLAYER_KINDS = tuple(range(9)) + tuple(range(27, 34))


def c(text: str) -> list[int]:
    return counts34(parse_kinds(text))


# --- decompose ----------------------------------------------------------------------


def test_decompose_small():
    # 11123m: 11 + 123 is the only split (111 + 23 leaves no set).
    assert decompose(c("11123m")) == [((("chow", 0),), 0)]
    # 11m + 东东东: pair 1m, pung 东 (kind 27).
    assert decompose(c("11m111z")) == [((("pung", 27),), 0)]


def test_decompose_many_readings():
    # 111 222 333 444 55m reads four ways: four pungs; 123 x3 + 444; 111 + 234 x3;
    # 111 + 234 + 345 x2 with 22 as the pair.
    got = sorted(decompose(c("11122233344455m")))
    assert got == sorted([
        ((("pung", 0), ("pung", 1), ("pung", 2), ("pung", 3)), 4),
        ((("chow", 0), ("chow", 0), ("chow", 0), ("pung", 3)), 4),
        ((("chow", 1), ("chow", 1), ("chow", 1), ("pung", 0)), 4),
        ((("chow", 1), ("chow", 2), ("chow", 2), ("pung", 0)), 1),
    ])


def test_decompose_other_suits_and_no_chow_across_suits():
    # 789m + 123p is two chows; 89m1p is not a chow.
    assert decompose(c("789m123p55s")) == [((("chow", 6), ("chow", 9)), 22)]
    assert decompose(c("89m1p55s")) == []
    # honours never chow: 123z + 44z is no hand
    assert decompose(c("12344z")) == []


def test_decompose_wrong_size():
    assert decompose(c("123m")) == []


# --- wins ---------------------------------------------------------------------------


def test_standard_win():
    assert is_standard_win(c("11123456789999m"), 0)
    assert not is_standard_win(c("11123456789999m"), 1)  # wrong size for one meld
    assert is_standard_win(c("5m5m"), 4)  # four melds + pair
    assert is_standard_win(c("123m555z11z"), 2)
    assert not is_standard_win(c("1234567891234m5z"), 0)


def test_seven_pairs():
    assert is_seven_pairs(c("1133557799m1122z"))
    # four of a kind counts as two pairs (MCR / pymahjonggb)
    assert is_seven_pairs(c("11112233445566m"))
    assert not is_seven_pairs(c("1113557799m1122z"))
    assert not is_seven_pairs(c("113355779m1122z"))  # 13 tiles
    assert is_win(c("1133557799m1122z"), 0)
    assert not is_win(c("1133557799m1123z"), 0)


# --- winning kinds ------------------------------------------------------------------


def test_winning_kinds_nine_gates():
    # 1112345678999m waits on every 万.
    assert winning_kinds(c("1112345678999m"), 0, TWO_PLAYER_KINDS) == list(range(9))


def test_winning_kinds_straight_plus_pair():
    # 123456789m 99m 白白白: waits 3m (123 345 678 99), 6m (123 456 678 99), 9m.
    assert winning_kinds(c("1234567899m555z"), 0, TWO_PLAYER_KINDS) == [2, 5, 8]


def test_winning_kinds_honour_pairs():
    # two pairs 东东 南南 with three melds: 东 or 南 (shanpon).
    assert winning_kinds(c("1122z"), 3, TWO_PLAYER_KINDS) == [27, 28]


def test_winning_kinds_respects_variant_and_copies():
    # 78m + 3 melds... edge/two-sided 6m/9m; a variant without 9m would only list 6m.
    assert winning_kinds(c("7855m"), 3, TWO_PLAYER_KINDS) == [5, 8]
    assert winning_kinds(c("7855m"), 3, range(8)) == [5]
    # 1111m with three melds completes only with a fifth 1m: shape wait, no real wait.
    assert shape_waits(c("1111m"), 3) == {0}
    assert winning_kinds(c("1111m"), 3, TWO_PLAYER_KINDS) == []


def test_winning_kinds_seven_pairs_wait():
    # 11 33 55 77 99m 东东 + 南: only 南 (no standard reading).
    assert winning_kinds(c("1133557799m112z"), 0, TWO_PLAYER_KINDS) == [28]
    # with melds there is no seven pairs: 11 33 55m + 东 and two melds is not ready
    assert winning_kinds(c("113355m1z"), 2, TWO_PLAYER_KINDS) == []


def test_winning_kinds_wrong_size():
    assert winning_kinds(c("1112345678999m"), 1, TWO_PLAYER_KINDS) == []


# --- shanten ------------------------------------------------------------------------


def test_shanten_values():
    assert shanten(c("11123456789999m")) == -1  # complete
    assert shanten(c("1112345678999m")) == 0  # ready
    # 1234567m + 7 single honours: 123 456 + 7 or 123 45 67: 8 - 2*2 = 4; pairs 0 → 6.
    assert shanten(c("1234567m1234567z")) == 4
    # six honour pairs + a single: seven pairs ready (0); standard 8 - 4 - 1 = 3.
    assert standard_shanten(c("1122334455667z")) == 3
    assert shanten(c("1122334455667z")) == 0
    # 147m 258p 369s 1234z: no set, no partial, no pair: standard 8, seven pairs 6.
    assert shanten(c("147m258p369s1234z")) == 6
    # with melds: 4 tiles 12m 55z and three melds: partial + pair → 8 - 6 - 1 - 1 = 0.
    assert shanten(c("12m55z"), 3) == 0
    # 1m 5m 9m 东 with three melds: no partial, no pair → 8 - 2*3 = 2.
    assert shanten(c("159m1z"), 3) == 2


# --- brute force ----------------------------------------------------------------------


def _ref_decompose(counts: list[int]) -> set:
    """Slow reference: every split into sets + one pair over the 34 kinds."""
    out = set()
    cnt = list(counts)

    def rec(i, sets, pair):
        while i < 34 and cnt[i] == 0:
            i += 1
        if i == 34:
            if pair is not None:
                out.add((tuple(sorted(sets)), pair))
            return
        if cnt[i] >= 3:
            cnt[i] -= 3
            rec(i, sets + [("pung", i)], pair)
            cnt[i] += 3
        if i < 27 and i % 9 <= 6 and cnt[i + 1] and cnt[i + 2]:
            for j in (i, i + 1, i + 2):
                cnt[j] -= 1
            rec(i, sets + [("chow", i)], pair)
            for j in (i, i + 1, i + 2):
                cnt[j] += 1
        if pair is None and cnt[i] >= 2:
            cnt[i] -= 2
            rec(i, sets, i)
            cnt[i] += 2

    rec(0, [], None)
    return out


def _random_hand(rng: random.Random, kinds, size: int) -> list[int]:
    counts = [0] * 34
    n = 0
    while n < size:
        k = rng.choice(kinds)
        if counts[k] < 4:
            counts[k] += 1
            n += 1
    return counts


def _random_complete(rng: random.Random, kinds, n_sets: int) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(n_sets):
            k = rng.choice(kinds)
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6 and k + 2 in kinds:
                for j in (k, k + 1, k + 2):
                    counts[j] += 1
            else:
                counts[k] += 3
        counts[rng.choice(kinds)] += 2
        if max(counts) <= 4:
            return counts


def test_random_decompose_matches_reference():
    # 3000 hands (half built complete, half random tiles), two tile sets.
    rng = random.Random(11)
    all_kinds = tuple(range(34))
    for i in range(3000):
        kinds = TWO_PLAYER_KINDS if i % 2 else all_kinds
        n_sets = rng.randint(0, 4)
        if i % 4 < 2:
            counts = _random_complete(rng, kinds, n_sets)
        else:
            counts = _random_hand(rng, kinds, 3 * n_sets + 2)
        ref = _ref_decompose(counts)
        got = {(sets, pair) for sets, pair in decompose(counts)}
        assert got == ref
        assert is_standard_win(counts, 4 - n_sets) == bool(ref)


def test_random_winning_kinds_match_brute_force():
    # 4000 random 13-3m tile hands: winning_kinds == every allowed kind with a copy left
    # whose addition gives a standard win or (no melds) seven pairs.
    rng = random.Random(12)
    checked_ready = 0
    for i in range(4000):
        kinds = TWO_PLAYER_KINDS if i % 2 else tuple(range(34))
        n_melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        size = 13 - 3 * n_melds
        if i % 3 == 0:  # near-complete: a complete hand minus one tile
            counts = _random_complete(rng, kinds, 4 - n_melds)
            k = rng.choice([k for k in range(34) if counts[k]])
            counts[k] -= 1
        else:
            counts = _random_hand(rng, kinds, size)
        expected = []
        for k in kinds:
            if counts[k] >= 4:
                continue
            counts[k] += 1
            if is_standard_win(counts, n_melds) or (n_melds == 0 and is_seven_pairs(counts)):
                expected.append(k)
            counts[k] -= 1
        got = winning_kinds(counts, n_melds, kinds)
        assert got == sorted(expected)
        if got:
            checked_ready += 1
            assert shanten(counts, n_melds) == 0
        elif not shape_waits(counts, n_melds):
            assert shanten(counts, n_melds) >= 1
    assert checked_ready > 1000


def test_random_shanten_of_complete_hands():
    # shanten is -1 exactly for complete hands; removing a tile of a complete hand
    # leaves shanten 0 (it waits on that tile at least by shape).
    rng = random.Random(13)
    for _ in range(1500):
        n_melds = rng.choice((0, 1, 2))
        counts = _random_complete(rng, TWO_PLAYER_KINDS, 4 - n_melds)
        assert shanten(counts, n_melds) == -1
        k = rng.choice([k for k in range(34) if counts[k]])
        counts[k] -= 1
        assert shanten(counts, n_melds) == 0


def test_random_fourteen_tile_shanten_bounds_every_discard():
    # the 听 filter's premise: a 14-3m tile hand's shanten is at most that of the hand left
    # by any discard (the discarded tile can lie unused in the same reading), so a hand
    # whose 14 tiles have shanten > 0 leaves no ready hand whatever it discards.
    rng = random.Random(14)
    ready_somewhere = 0
    for i in range(3000):
        kinds = TWO_PLAYER_KINDS if i % 2 else tuple(range(34))
        n_melds = rng.choice((0, 0, 1, 2, 3))
        if i % 3 == 0:  # near-ready: a complete hand with one tile swapped
            counts = _random_complete(rng, kinds, 4 - n_melds)
            out = rng.choice([k for k in range(34) if counts[k]])
            into = rng.choice([k for k in kinds if counts[k] < 4 and k != out])
            counts[out] -= 1
            counts[into] += 1
        else:
            counts = _random_hand(rng, kinds, 14 - 3 * n_melds)
        s14 = shanten(counts, n_melds)
        leaves_ready = False
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                assert s14 <= shanten(counts, n_melds)
                leaves_ready |= bool(shape_waits(counts, n_melds))
                counts[k] += 1
        if leaves_ready:
            ready_somewhere += 1
            assert s14 <= 0
    assert ready_somewhere > 800


def test_pareto_keeps_exactly_the_undominated_triples():
    # against the definition, on random sets of (sets, partials, pair) triples
    rng = random.Random(15)
    for _ in range(2000):
        found = {(rng.randint(0, 4), rng.randint(0, 4), rng.randint(0, 1)) for _ in range(rng.randint(1, 25))}
        expected = tuple(sorted((a for a in found if not any(
            b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in found)), reverse=True))
        assert _pareto(found) == expected
