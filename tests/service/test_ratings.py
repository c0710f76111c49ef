"""Ratings (``service/ratings.py``): the Plackett–Luce update worked by hand for a 4-player unit
with a tie, the rules of a rated unit, and a rebuild from the stored hands equal to rating the
same units live, in the settling transaction."""

from __future__ import annotations

from math import exp, sqrt

import pytest
from rated_history import new_rated_table, settled_hand

from service import ratings
from service.ratings import BLOCK_HANDS, decider, places, rate
from store import Rating, SettledHand, Store

ALICE, BOB, CAROL, DAN = 11, 12, 13, 14
GUILD = 7


# ----------------------------------------------------------------------------- the update
def plackett_luce(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng & Lin (2011), Algorithm 4 (Plackett–Luce), every player a team of one, written out
    from the paper with openskill's constants: β = 25/6, τ = 25/300 (added to σ² first),
    κ = 0.0001, γ = σ/c; players of equal rank share the probability mass (``a``)."""
    beta, tau, kappa = 25 / 6, 25 / 300, 0.0001
    s2 = [s * s + tau * tau for _, s in players]
    mu = [m for m, _ in players]
    c = sqrt(sum(v + beta * beta for v in s2))
    n = len(players)
    sum_q = [sum(exp(mu[i] / c) for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [ranks.count(ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = exp(mu[i] / c) / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        omega *= s2[i] / c
        delta *= s2[i] / c ** 2 * sqrt(s2[i]) / c
        out.append((mu[i] + omega, sqrt(s2[i]) * sqrt(max(1 - delta, kappa))))
    return out


def test_a_four_player_unit_with_a_tie_moves_ratings_as_worked_by_hand():
    # Alice first, Bob and Carol tied second, Dan fourth; Bob and Carol come with ratings
    current = {ALICE: None, BOB: Rating(BOB, 30.0, 6.0, 3), CAROL: Rating(CAROL, 22.0, 7.0, 5), DAN: None}
    ranked = ((ALICE, 1, 40), (BOB, 2, 0), (CAROL, 2, 0), (DAN, 4, -40))
    new = rate(current, ranked)
    by_hand = plackett_luce([(25.0, 25 / 3), (30.0, 6.0), (22.0, 7.0), (25.0, 25 / 3)], [1, 2, 2, 4])
    for (u, _, _), (mu, sigma) in zip(ranked, by_hand, strict=True):
        assert (new[u].mu, new[u].sigma) == pytest.approx((mu, sigma), abs=1e-12)
    # the values, once: the winner gains, the tied pair moves by its own standing, the last loses
    assert [(round(new[u].mu, 4), round(new[u].sigma, 4)) for u in (ALICE, BOB, CAROL, DAN)] == [
        (28.0844, 8.2459), (29.4918, 5.9407), (22.1003, 6.9152), (22.7537, 8.1406)]
    assert (new[ALICE].mu_before, new[ALICE].sigma_before) == (25.0, 25 / 3)  # the rating before
    assert (new[BOB].mu_before, new[BOB].sigma_before) == (30.0, 6.0)
    # 段位 from 新人 (data/ranks/dan.json, 4 players: +20 +10 0 0): Alice first +20 (新人
    # promotes at 20: 5级 with 0), Bob and Carol share 2nd and 3rd: (10 + 0) / 2 = 5 each
    assert [(new[u].dan_rank, new[u].dan_points) for u in (ALICE, BOB, CAROL, DAN)] == [(1, 0), (0, 5), (0, 5), (0, 0)]


# ----------------------------------------------------------------------------- rated units
def hand(hand_id: int, *seats: tuple) -> SettledHand:
    """A settled hand: seats ``(user or None for an AI seat, points)``."""
    return SettledHand(hand_id, tuple((i, u, u is None, p) for i, (u, p) in enumerate(seats)))


def test_places_share_a_place_on_equal_points():
    hands = [hand(1, (ALICE, 10), (BOB, -5), (None, 0), (CAROL, -5)),
             hand(2, (ALICE, -20), (BOB, 5), (None, 10), (CAROL, 5))]
    assert places(hands) == ((ALICE, 3, -10), (BOB, 1, 0), (CAROL, 1, 0))


def test_an_open_ended_table_rates_every_block_of_four_hands_with_the_same_players():
    decide = decider(0)
    seats = [(ALICE, 8), (BOB, -8), (None, 0)]
    hands = [hand(i, *seats) for i in range(1, 5)]
    for n in range(1, BLOCK_HANDS):
        assert decide(hands[:n], False) is None
    unit = decide(hands, False)
    assert (unit.kind, unit.first_hand_id, unit.last_hand_id, unit.hands) == ("block", 1, 4, 4)
    assert unit.places == ((ALICE, 1, 32), (BOB, 2, -32))  # the AI seat is not rated
    # Carol takes Bob's seat after hand 2: the block starts again with her
    changed = hands[:2] + [hand(i, (ALICE, 1), (CAROL, -1), (None, 0)) for i in range(3, 7)]
    unit = decide(changed, False)
    assert (unit.first_hand_id, unit.last_hand_id) == (3, 6) and unit.places == ((ALICE, 1, 4), (CAROL, 2, -4))
    assert decide(changed[:5], False) is None
    # one human among AI seats: nothing to rate
    assert decide([hand(i, (ALICE, 5), (None, -5)) for i in range(1, 5)], False) is None


def test_a_match_is_one_unit_when_it_ends_with_the_players_it_began_with():
    decide = decider(3)
    hands = [hand(i, (ALICE, 3 - i), (BOB, i - 3)) for i in range(1, 4)]
    assert decide(hands[:2], False) is None and decide(hands, False) is None
    unit = decide(hands, True)
    assert (unit.kind, unit.hands) == ("match", 3) and unit.places == ((ALICE, 1, 3), (BOB, 2, -3))
    changed = hands[:2] + [hand(3, (ALICE, 0), (CAROL, 0))]
    assert decide(changed, True) is None


# ----------------------------------------------------------------------------- live and rebuilt
async def play(store: Store, table_id: int, hand_no: int, seats: list[tuple], match_hands: int,
               end: bool = False) -> int:
    return await settled_hand(store, table_id, hand_no, seats, "laosanfan", match_hands, end)


@pytest.mark.asyncio
async def test_a_rebuild_from_the_stored_hands_equals_rating_them_live(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/bot.db")
    await store.init()
    try:
        open_ended = await new_rated_table(store, GUILD, 1, "laosanfan")
        pattern = [[(ALICE, 9), (BOB, -3), (None, -3), (CAROL, -3)], [(ALICE, -6), (BOB, 12), (None, -3), (CAROL, -3)],
                   [(ALICE, 0), (BOB, 0), (None, 0), (CAROL, 0)], [(ALICE, -3), (BOB, -3), (None, 9), (CAROL, -3)]]
        for n in range(9):  # two blocks, and a hand toward the third
            await play(store, open_ended, n + 1, pattern[n % 4], 0)
        for n in range(4):  # Dan takes Carol's seat: a new block
            await play(store, open_ended, 10 + n, [(ALICE, -1), (BOB, 2), (None, 0), (DAN, -1)], 0)
        match = await new_rated_table(store, GUILD, 2, "laosanfan", 3)
        for n in range(3):
            await play(store, match, n + 1, [(BOB, 5), (CAROL, -5)], 3, end=n == 2)
        live = await snapshot_of(store, "laosanfan")
        assert live[ALICE][2] == 3 and live[BOB][2] == 4 and live[CAROL][2] == 3 and live[DAN][2] == 1
        # 段位 (data/ranks/dan.json): Bob first of three three times (+30 each: 新人 promotes at
        # 20 → 5级 with 0, 5级 at 20 → 4级 with 0, then 4级 30) and first of two in the match
        # (+20: 4级 50, past its 40 → 3级 with 0)
        assert live[BOB][3:5] == (3, 0)
        # block 1 and 2: Bob +6, Alice 0, Carol −9; Dan's block: Bob +8, Alice and Dan −4 (tied)
        assert [p for _, p, _ in live[BOB][5]] == [1, 1, 1, 1]
        assert [(p, n) for _, p, n in live[ALICE][5]] == [(2, 3), (2, 3), (2, 3)]
        assert [(p, n) for _, p, n in live[DAN][5]] == [(2, 3)] and [p for _, p, _ in live[CAROL][5]] == [3, 3, 2]
        assert await ratings.rebuild(store) == 0  # ratings are stored: nothing to do
        assert await ratings.rebuild(store, force=True) == 4  # two blocks, Dan's block, the match
        rebuilt = await snapshot_of(store, "laosanfan")
        assert {u: v[:5] for u, v in rebuilt.items()} == {u: v[:5] for u, v in live.items()}
        assert {u: [x[1:] for x in v[5]] for u, v in rebuilt.items()} == {u: [x[1:] for x in v[5]] for u, v in live.items()}
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_database_from_before_ratings_is_rated_at_the_next_start_as_live(tmp_path):
    """The same history rated live, then taken back to the revision before ratings (their
    tables dropped, the hands kept) and upgraded again: the start's rebuild
    (``TableService.load`` → ``ratings.rebuild``) gives every rating and place again."""
    from service.clock import ManualClock
    from service.tables import TableService

    store = Store(f"sqlite:///{tmp_path}/bot.db")
    await store.init()
    try:
        table = await new_rated_table(store, GUILD, 1, "caishen")
        for n in range(8):
            await play_game(store, table, n + 1, [(ALICE, 8 - 2 * n), (BOB, n), (CAROL, n - 8 + n), (DAN, -n)])
        await store.update_table(table, status="closed")
        live = await snapshot_of(store, "caishen")
        assert all(v is not None and v[2] == 2 for v in live.values())
        await store.downgrade("0013_seat_level")
        await store.upgrade("head")
        assert await store.count_ratings() == 0
        await TableService(store, ManualClock()).load()
        rebuilt = await snapshot_of(store, "caishen")
        assert {u: v[:5] for u, v in rebuilt.items()} == {u: v[:5] for u, v in live.items()}
        assert {u: [x[1:] for x in v[5]] for u, v in rebuilt.items()} == {u: [x[1:] for x in v[5]] for u, v in live.items()}
    finally:
        await store.close()


async def play_game(store: Store, table_id: int, hand_no: int, seats: list[tuple]) -> int:
    return await settled_hand(store, table_id, hand_no, seats, "caishen")


async def snapshot_of(store: Store, variant: str) -> dict:
    out = {}
    for u in (ALICE, BOB, CAROL, DAN):
        r = await store.rating(GUILD, variant, u)
        out[u] = (r.mu, r.sigma, r.units, r.dan_rank, r.dan_points,
                  await store.unit_places(GUILD, variant, u)) if r else None
    return out
