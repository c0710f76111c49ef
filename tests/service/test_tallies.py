"""The per-player tallies a profile reads (``player_tally``, revision ``0015_player_tally``):
added in the settling transaction, one row per player, game and UTC day; rebuilt from the
stored hands at the first start after the migration — the same sums, older hands' claims
replayed from their logs — and summed over a period that starts at a UTC midnight."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select, update

from engine.variants import all_variants
from rated_history import new_rated_table, played_hand
from service.clock import ManualClock
from service.rates import player_rates, rates_of
from service.tables import TableService
from store import PlayerTally, Store
from store.base import _H

UTC = timezone.utc
GUILD = 1_100_000_000_000_000_007
ALICE, BOB = 301_000_000_000_000_201, 301_000_000_000_000_202
DAY1 = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)  # a Monday evening: its hands and the next day's
DAY2 = datetime(2026, 12, 1, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def history(store: Store, clock: Clock) -> list[str]:
    """Two hands of every game (Alice, Bob and AI seats, as many as the game seats up to
    four) before midnight and two after; returns the games."""
    games = [info.id for info in all_variants()]
    for k, game in enumerate(games):
        n = min(4, find_seats(game))
        users = [ALICE, BOB, *[None] * (n - 2)]
        table = await new_rated_table(store, GUILD, 100 + k, game)
        for h in range(4):
            clock.now = (DAY1 if h < 2 else DAY2) + timedelta(minutes=10 * h)
            await played_hand(store, table, h + 1, users, game, seed=1000 * k + h)
        await store.update_table(table, status="closed")  # no table to resume at the next start
    return games


def find_seats(game: str) -> int:
    return next(i.max_players for i in all_variants() if i.id == game)


async def tallies(store: Store, games: list[str]) -> dict:
    return {(u, g, p): await store.tally(GUILD, u, g, since)
            for u in (ALICE, BOB) for g in games for p, since in (("all", None), ("day2", DAY2))}


@pytest.mark.asyncio(loop_scope="function")
async def test_the_settled_tallies_are_the_hands_counted_and_a_rebuild_gives_them_again(tmp_path):
    clock = Clock(DAY1)
    store = Store(f"sqlite:///{tmp_path}/bot.db", clock=clock, sqlite_synchronous="NORMAL")
    await store.init()
    try:
        games = await history(store, clock)
        live = await tallies(store, games)
        # each tally is the definition counted over the stored hands (service.rates.player_rates)
        for (user, game, period), tally in live.items():
            hands = await store.rate_hands(GUILD, user, game, None if period == "all" else DAY2)
            claims = {h.id: frozenset(h.result["claimed_by"]) for h in hands}
            assert rates_of(tally, user, variant=game) == player_rates(hands, user, claims=claims, variant=game)
            assert tally.hands == (4 if period == "all" else 2)
            assert tally.points == sum(s.points for h in hands for s in h.settlements)
        # the tables before 0015 (their hands kept), upgraded again: the next start tallies them
        await store.downgrade("0014_ratings")
        await store.upgrade("head")
        assert await store.count_tallies() == 0
        await TableService(store, ManualClock()).load()
        assert await store.count_tallies() == 2 * len(games) * 2  # players × games × days
        assert await tallies(store, games) == live
        # hands settled before their claims were stored with the result: replayed from the log
        async with store.engine.begin() as conn:
            for hid, result in (await conn.execute(select(_H.c.id, _H.c.result))).all():
                await conn.execute(update(_H).where(_H.c.id == hid).values(
                    result={k: v for k, v in result.items() if k != "claimed_by"}))
        await store.replace_all_tallies([])
        await TableService(store, ManualClock()).load()
        assert await tallies(store, games) == live
        # a period starts at a UTC midnight: the tallies are per day, nothing else is exact
        with pytest.raises(ValueError):
            await store.tally(GUILD, ALICE, games[0], DAY2 + timedelta(hours=1))
    finally:
        await store.close()


@pytest.mark.asyncio(loop_scope="function")
async def test_an_old_hand_whose_log_does_not_replay_is_tallied_without_claims(tmp_path, caplog):
    store = Store(f"sqlite:///{tmp_path}/bot.db", sqlite_synchronous="NORMAL")
    await store.init()
    try:
        game = "two_player"
        table = await new_rated_table(store, GUILD, 1, game)
        await played_hand(store, table, 1, [ALICE, BOB], game, seed=4)  # a hand Alice claims in
        await store.update_table(table, status="closed")
        before = await store.tally(GUILD, ALICE, game)
        assert before.calls == 1
        async with store.engine.begin() as conn:  # the claims not stored, the log broken
            hid, result = (await conn.execute(select(_H.c.id, _H.c.result))).one()
            await conn.execute(update(_H).where(_H.c.id == hid).values(
                result={k: v for k, v in result.items() if k != "claimed_by"}))
            await conn.execute(update(_H.metadata.tables["hand_action"]).values(text="0 nonsense"))
        await store.replace_all_tallies([])
        await TableService(store, ManualClock()).load()  # the start goes on
        after = await store.tally(GUILD, ALICE, game)
        assert after == PlayerTally(**{**before.__dict__, "calls": 0})
        assert "does not replay" in caplog.text
    finally:
        await store.close()


def test_tallies_add_up_field_by_field():
    a = PlayerTally(hands=2, wins=1, points=5, win_points=8, counted=1, count_sum=12, count_name="huxi",
                    specials=(("qidui", 1),))
    b = PlayerTally(hands=1, deal_ins=1, points=-3, deal_in_points=3, specials=(("qidui", 2), ("bao", 1)))
    assert a + b == PlayerTally(hands=3, wins=1, deal_ins=1, points=2, win_points=8, deal_in_points=3, counted=1,
                                count_sum=12, count_name="huxi", specials=(("bao", 1), ("qidui", 3)))
    assert PlayerTally() + a == a
