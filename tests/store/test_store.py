"""Tests of the store package on SQLite (a file under tmp_path) and PostgreSQL.

Every store test runs twice through the parametrized ``backend`` fixture.  The PostgreSQL run
uses the server ``TEST_DATABASE_URL`` names (``tests/harness/postgres.py``) and a fresh schema
per test, dropped at the end, so concurrent runs never collide.  Without a server the
PostgreSQL runs are left out (marker ``postgres``; the reason in the run's summary), or fail
where ``TEST_REQUIRE_POSTGRES`` is set (CI).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run from any directory, with or without a pytest.ini
    sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import pytest  # noqa: E402
import pytest_asyncio  # noqa: E402
from sqlalchemy import insert, text  # noqa: E402
from sqlalchemy.exc import IntegrityError  # noqa: E402

from store.models import TableRow  # noqa: E402
from store import (  # noqa: E402
    ActionConflict,
    HandInProgress,
    HandNotPlaying,
    NotFound,
    OpenTable,
    ScoreLine,
    SeatRecord,
    SettlementRecord,
    Store,
    TableClosed,
    TableExists,
    normalize_url,
)

from postgres import pg_dsn, require_postgres
UTC = timezone.utc
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

# Discord snowflakes are 64-bit: these do not fit a 32-bit INTEGER column.
GUILD = 1_100_000_000_000_000_001
GUILD2 = 1_100_000_000_000_000_002
ALICE, BOB, CAROL, DAVE = 301_000_000_000_000_101, 301_000_000_000_000_102, 303, 304


class Clock:
    """A settable UTC clock injected into the store."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> datetime:
        self.now += timedelta(**kw)
        return self.now


@dataclass
class Backend:
    name: str
    url: str
    schema: Optional[str]
    clock: Clock
    stores: list = field(default_factory=list)

    async def open(self) -> Store:
        """A new Store on the same database (a second call simulates a restarted bot)."""
        store = Store(self.url, schema=self.schema, clock=self.clock)
        await store.init()
        self.stores.append(store)
        return store


@pytest_asyncio.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
                        loop_scope="function")
async def backend(request, tmp_path):
    clock = Clock(T0)
    if request.param == "sqlite":
        b = Backend("sqlite", f"sqlite:///{tmp_path}/data/bot.db", None, clock)
        yield b
        for s in b.stores:
            await s.close()
        return
    url = require_postgres()  # (left out of the run when no server answers, unless required)
    schema = f"test_store_{uuid.uuid4().hex[:12]}"
    b = Backend("postgresql", url, schema, clock)
    try:
        yield b
    finally:
        for s in b.stores:
            await s.close()
        conn = await asyncpg.connect(pg_dsn(), timeout=5)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()


@pytest_asyncio.fixture(loop_scope="function")
async def store(backend):
    return await backend.open()


async def new_table(store: Store, channel_id: int = 10, guild_id: int = GUILD, **kw) -> int:
    args = dict(
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=ALICE,
        variant="two_player",
        options={"flowers": True, "base": 1},
        seed=2**62 + 7,
    )
    args.update(kw)
    return await store.create_table(**args)


async def new_hand(store: Store, table_id: int, hand_no: int = 1, variant: str = "two_player"):
    return await store.start_hand(
        table_id=table_id,
        hand_no=hand_no,
        seed=-(2**63),  # lowest signed 64-bit value round-trips
        variant=variant,
        options={"flowers": True},
        dealer=0,
        seats=[{"seat": 0, "user_id": ALICE, "name": "Alice"}, {"seat": 1, "user_id": BOB, "name": "Bob"}],
    )


# --------------------------------------------------------------------------- pure


def test_normalize_url_rewrites_to_async_drivers():
    assert normalize_url("postgres://u:pw@h:5432/db") == "postgresql+asyncpg://u:pw@h:5432/db"
    assert normalize_url("postgresql://postgres@127.0.0.1:5432/test") == (
        "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    )
    assert normalize_url("postgresql+asyncpg://h/db") == "postgresql+asyncpg://h/db"
    assert normalize_url("postgres://h/db?sslmode=require") == "postgresql+asyncpg://h/db?ssl=require"
    assert normalize_url("sqlite:///data/bot.db") == "sqlite+aiosqlite:///data/bot.db"
    assert normalize_url("sqlite:////abs/bot.db") == "sqlite+aiosqlite:////abs/bot.db"
    assert normalize_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"


@pytest.mark.asyncio
async def test_sqlite_file_runs_wal_full_sync_and_foreign_keys(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/sub/dir/bot.db")
    await store.init()  # also creates the missing parent directories
    try:
        async with store.engine.connect() as conn:
            assert (await conn.scalar(text("PRAGMA journal_mode"))) == "wal"
            assert (await conn.scalar(text("PRAGMA synchronous"))) == 2  # 2 = FULL
            assert (await conn.scalar(text("PRAGMA foreign_keys"))) == 1
    finally:
        await store.close()
    assert (tmp_path / "sub" / "dir" / "bot.db").is_file()


# --------------------------------------------------------------------------- tables


@pytest.mark.asyncio
async def test_create_and_get_open_table(store, backend):
    table_id = await new_table(store)
    rec = await store.get_open_table(10)
    assert rec is not None
    assert (rec.id, rec.guild_id, rec.channel_id, rec.creator_id) == (table_id, GUILD, 10, ALICE)
    assert (rec.variant, rec.status, rec.message_id, rec.hand_no, rec.lang) == (
        "two_player", "lobby", None, 0, "zh",
    )
    assert rec.options == {"flowers": True, "base": 1}
    assert rec.seed == 2**62 + 7
    assert rec.state == {}
    assert rec.created_at == rec.updated_at == T0
    assert rec.created_at.tzinfo is not None
    assert await store.get_open_table(11) is None
    assert await store.get_table(table_id) == rec


@pytest.mark.asyncio
async def test_second_open_table_in_channel_raises_table_exists(store):
    await new_table(store, channel_id=10)
    with pytest.raises(TableExists) as info:
        await new_table(store, channel_id=10, creator_id=BOB)
    assert info.value.channel_id == 10
    # Another channel is independent.
    assert await new_table(store, channel_id=11) > 0


@pytest.mark.asyncio
async def test_concurrent_creates_in_one_channel_yield_one_table(store):
    results = await asyncio.gather(
        new_table(store, channel_id=42), new_table(store, channel_id=42), return_exceptions=True
    )
    assert sum(isinstance(r, int) for r in results) == 1
    assert sum(isinstance(r, TableExists) for r in results) == 1


@pytest.mark.asyncio
async def test_partial_unique_index_rejects_second_open_row(store, backend):
    # Bypass the store's check: the database itself refuses a second open table.
    await new_table(store, channel_id=10)
    row = dict(
        guild_id=GUILD, channel_id=10, creator_id=BOB, variant="v", options={}, seed=1,
        hand_no=0, lang="zh", state={}, created_at=T0, updated_at=T0,
    )
    with pytest.raises(IntegrityError):
        async with store.engine.begin() as conn:
            await conn.execute(insert(TableRow.__table__).values(status="playing", **row))
    # ...but closed rows are not restricted.
    async with store.engine.begin() as conn:
        await conn.execute(insert(TableRow.__table__).values(status="closed", **row))
        await conn.execute(insert(TableRow.__table__).values(status="closed", **row))


@pytest.mark.asyncio
async def test_update_table_fields_and_errors(store, backend):
    table_id = await new_table(store)
    backend.clock.advance(minutes=5)
    rec = await store.update_table(
        table_id, status="playing", message_id=2**60 + 3, hand_no=2,
        state={"dealer": 1, "streak": [0, 2], "timeouts": {"0": 1}},
    )
    assert (rec.status, rec.message_id, rec.hand_no) == ("playing", 2**60 + 3, 2)
    assert rec.state == {"dealer": 1, "streak": [0, 2], "timeouts": {"0": 1}}
    assert rec.updated_at == T0 + timedelta(minutes=5)
    assert rec.created_at == T0
    assert await store.get_open_table(10) == rec
    with pytest.raises(TypeError):
        await store.update_table(table_id, colour="red")
    with pytest.raises(ValueError):
        await store.update_table(table_id, status="paused")
    with pytest.raises(NotFound):
        await store.update_table(table_id + 1000, hand_no=1)


@pytest.mark.asyncio
async def test_seed_and_ids_must_fit_64_bits(store):
    with pytest.raises(ValueError):
        await new_table(store, seed=2**63)
    with pytest.raises(TypeError):
        await new_table(store, seed="12")


@pytest.mark.asyncio
async def test_set_seats_replaces_the_list(store):
    table_id = await new_table(store)
    await store.set_seats(table_id, [SeatRecord(0, ALICE, "Alice")])
    assert await store.get_seats(table_id) == (SeatRecord(0, ALICE, "Alice"),)
    seats = [
        SeatRecord(1, None, "Bot", is_ai=True, dms_open=False, auto=True),
        SeatRecord(0, BOB, "Bob", dms_open=False),
    ]
    await store.set_seats(table_id, seats)
    assert await store.get_seats(table_id) == (
        SeatRecord(0, BOB, "Bob", is_ai=False, dms_open=False, auto=False),
        SeatRecord(1, None, "Bot", is_ai=True, dms_open=False, auto=True),
    )
    with pytest.raises(ValueError):
        await store.set_seats(table_id, [SeatRecord(0, ALICE, "A"), SeatRecord(0, BOB, "B")])
    with pytest.raises(NotFound):
        await store.set_seats(table_id + 1000, [])


# --------------------------------------------------------------------------- hands


@pytest.mark.asyncio
async def test_start_hand_and_append_actions_in_order(store, backend):
    table_id = await new_table(store)
    hand_id = await new_hand(store, table_id)
    moves = ["deal", "draw 0 5m", "discard 0 1z", "pung 1 1z", "discard 1 9p"]
    for i, move in enumerate(moves):
        backend.clock.advance(seconds=1)
        await store.append_action(hand_id, i, move)
    hand = await store.get_hand(hand_id)
    assert hand.actions == tuple(moves)
    assert (hand.table_id, hand.hand_no, hand.seed, hand.variant, hand.dealer, hand.status) == (
        table_id, 1, -(2**63), "two_player", 0, "playing",
    )
    assert hand.options == {"flowers": True}
    assert hand.seats == (
        {"seat": 0, "user_id": ALICE, "name": "Alice"},
        {"seat": 1, "user_id": BOB, "name": "Bob"},
    )
    assert (hand.result, hand.ended_at, hand.settlements) == (None, None, ())
    assert hand.started_at == T0


@pytest.mark.asyncio
async def test_duplicate_or_gapped_action_index_raises_action_conflict(store):
    hand_id = await new_hand(store, await new_table(store))
    await store.append_action(hand_id, 0, "deal")
    await store.append_action(hand_id, 1, "draw 0 5m")
    with pytest.raises(ActionConflict) as dup:
        await store.append_action(hand_id, 1, "draw 0 6m")
    assert (dup.value.idx, dup.value.expected) == (1, 2)
    with pytest.raises(ActionConflict) as gap:
        await store.append_action(hand_id, 5, "discard 0 1z")
    assert (gap.value.idx, gap.value.expected) == (5, 2)
    assert (await store.get_hand(hand_id)).actions == ("deal", "draw 0 5m")
    with pytest.raises(NotFound):
        await store.append_action(hand_id + 1000, 0, "deal")


@pytest.mark.asyncio
async def test_racing_appends_of_one_index_store_it_once(store):
    hand_id = await new_hand(store, await new_table(store))
    results = await asyncio.gather(
        store.append_action(hand_id, 0, "a"),
        store.append_action(hand_id, 0, "b"),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, ActionConflict) for r in results) == 1
    assert (await store.get_hand(hand_id)).actions in (("a",), ("b",))


@pytest.mark.asyncio
async def test_one_playing_hand_per_table(store):
    table_id = await new_table(store)
    first = await new_hand(store, table_id)
    with pytest.raises(HandInProgress) as info:
        await new_hand(store, table_id, hand_no=2)
    assert info.value.hand_id == first
    await store.abort_hand(first)
    await store.abort_hand(first)  # aborting twice is a no-op
    assert (await store.get_hand(first)).status == "aborted"
    with pytest.raises(HandNotPlaying):
        await store.append_action(first, 0, "deal")
    second = await new_hand(store, table_id, hand_no=1)  # the hand is dealt again
    assert second != first


@pytest.mark.asyncio
async def test_load_open_tables_after_restart(backend):
    store = await backend.open()
    t1 = await new_table(store, channel_id=10)
    t2 = await new_table(store, channel_id=11, variant="other", options={})
    t3 = await new_table(store, channel_id=12)
    seats = [SeatRecord(0, ALICE, "Alice"), SeatRecord(1, None, "Bot", is_ai=True, auto=True)]
    await store.set_seats(t1, seats)
    await store.update_table(t1, status="playing", hand_no=1, message_id=555, state={"dealer": 0})
    done = await new_hand(store, t1, hand_no=1)
    await store.append_action(done, 0, "old")
    await store.finish_hand(done, result={"draw": True}, settlements=[])
    hand_id = await new_hand(store, t1, hand_no=2)
    for i, move in enumerate(["deal", "draw 0 5m", "discard 0 5m"]):
        await store.append_action(hand_id, i, move)
    await store.update_table(t3, status="closed")
    await store.close()  # the bot stops

    restarted = await backend.open()
    tables = await restarted.load_open_tables()
    assert [o.table.id for o in tables] == [t1, t2]
    first, second = tables
    assert isinstance(first, OpenTable)
    assert (first.table.status, first.table.hand_no, first.table.message_id) == ("playing", 1, 555)
    assert first.table.state == {"dealer": 0}
    assert first.seats == tuple(seats)
    assert first.hand is not None
    assert (first.hand.id, first.hand.hand_no, first.hand.status) == (hand_id, 2, "playing")
    assert first.hand.actions == ("deal", "draw 0 5m", "discard 0 5m")
    assert (second.table.variant, second.seats, second.hand) == ("other", (), None)
    # The restarted store carries on the same log.
    await restarted.append_action(hand_id, 3, "draw 1 7p")
    assert (await restarted.get_hand(hand_id)).actions[-1] == "draw 1 7p"


@pytest.mark.slow
@pytest.mark.asyncio
async def test_acknowledged_actions_survive_process_kill(backend):
    store = await backend.open()
    hand_id = await new_hand(store, await new_table(store))
    child = f"""
import asyncio, sys
sys.path.insert(0, {str(ROOT)!r})
from store import Store
async def main():
    store = Store({backend.url!r}, schema={backend.schema!r})
    await store.init()
    for i in range(100000):
        await store.append_action({hand_id}, i, f"a{{i}}")
        print(i, flush=True)
asyncio.run(main())
"""
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    acked = []
    try:
        for line in proc.stdout:
            acked.append(int(line))
            if len(acked) == 150:
                proc.send_signal(signal.SIGKILL)  # no chance to flush or close anything
                break
        acked.extend(int(line) for line in proc.stdout)  # acks printed before the kill
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert acked == list(range(len(acked))) and len(acked) >= 150
    await store.close()
    actions = (await (await backend.open()).get_hand(hand_id)).actions
    # Every acknowledged action is stored; at most the one in flight is extra.
    assert actions[: len(acked)] == tuple(f"a{i}" for i in range(len(acked)))
    assert len(actions) - len(acked) in (0, 1)


# --------------------------------------------------------------------------- results & scores


async def play(store: Store, clock: Clock, table_id: int, hand_no: int, when: datetime,
               lines: list[SettlementRecord], variant: str = "two_player", **finish) -> int:
    clock.now = when
    hand_id = await new_hand(store, table_id, hand_no=hand_no, variant=variant)
    await store.append_action(hand_id, 0, "deal")
    await store.finish_hand(hand_id, result={"hand_no": hand_no}, settlements=lines, **finish)
    return hand_id


@pytest.mark.asyncio
async def test_finish_hand_writes_settlements_and_table_fields(store, backend):
    table_id = await new_table(store)
    when = T0 + timedelta(hours=1)
    lines = [
        SettlementRecord(0, ALICE, "Alice", 48, is_winner=True, self_drawn=True, fan=8),
        SettlementRecord(1, BOB, "Bob", -48),
    ]
    hand_id = await play(
        store, backend.clock, table_id, 1, when, lines,
        table_updates={"hand_no": 1, "state": {"dealer": 0, "streak": 1}},
    )
    hand = await store.get_hand(hand_id)
    assert (hand.status, hand.result, hand.ended_at) == ("done", {"hand_no": 1}, when)
    ctx = dict(hand_id=hand_id, table_id=table_id, guild_id=GUILD, variant="two_player",
               created_at=when)
    assert hand.settlements == (
        SettlementRecord(0, ALICE, "Alice", 48, is_winner=True, self_drawn=True, fan=8, **ctx),
        SettlementRecord(1, BOB, "Bob", -48, **ctx),
    )
    table = await store.get_table(table_id)
    assert (table.hand_no, table.state, table.updated_at) == (1, {"dealer": 0, "streak": 1}, when)
    # A second finish (e.g. a retried call) writes nothing.
    with pytest.raises(HandNotPlaying) as info:
        await store.finish_hand(hand_id, result={}, settlements=lines)
    assert info.value.status == "done"
    assert (await store.get_hand(hand_id)).settlements == hand.settlements
    assert (await store.score(GUILD, ALICE)).points == 48
    with pytest.raises(HandNotPlaying):
        await store.abort_hand(hand_id)


@pytest.mark.asyncio
async def test_scores_and_leaderboard_are_sums_of_settlements(store, backend):
    clock = backend.clock
    day = lambda d: datetime(2025, 3, d, 20, 0, tzinfo=UTC)  # noqa: E731
    t_ab = await new_table(store, channel_id=10)
    # Hand 1 (1 March): Alice wins on her own draw, 8 fan: Alice +48, Bob -48.
    await play(store, clock, t_ab, 1, day(1), [
        SettlementRecord(0, ALICE, "Alice", 48, is_winner=True, self_drawn=True, fan=8),
        SettlementRecord(1, BOB, "Bob", -48),
    ])
    # Hand 2 (2 March): Bob wins on Alice's discard: Bob +10, Alice -10 (dealt in).
    await play(store, clock, t_ab, 2, day(2), [
        SettlementRecord(0, ALICE, "Alice", -10, dealt_in=True),
        SettlementRecord(1, BOB, "Bob", 10, is_winner=True, fan=2),
    ])
    # Hand 3 (10 March): Alice, now named "Alicia", wins on Bob's discard: +24 / -24.
    await play(store, clock, t_ab, 3, day(10), [
        SettlementRecord(0, ALICE, "Alicia", 24, is_winner=True, fan=4),
        SettlementRecord(1, BOB, "Bob", -24, dealt_in=True),
    ])
    # Another variant, same guild (10 March): Carol beats an AI seat, +16 / -16.
    t_c = await new_table(store, channel_id=11, variant="other_variant")
    await play(store, clock, t_c, 1, day(10), [
        SettlementRecord(0, CAROL, "Carol", 16, is_winner=True, self_drawn=True, fan=3),
        SettlementRecord(1, None, "Bot", -16, is_ai=True),
    ], variant="other_variant")
    # Another guild: Alice +100, Dave -100; never counted in GUILD.
    t_g2 = await new_table(store, channel_id=20, guild_id=GUILD2)
    await play(store, clock, t_g2, 1, day(3), [
        SettlementRecord(0, ALICE, "Alice", 100, is_winner=True, self_drawn=True),
        SettlementRecord(1, DAVE, "Dave", -100),
    ])

    # Alice in GUILD: 48 - 10 + 24 = 62 over 3 hands, 2 wins (1 self-drawn), 1 deal-in.
    alice = ScoreLine(ALICE, "Alicia", points=62, hands=3, wins=2, self_drawn=1, deal_ins=1)
    # Bob: -48 + 10 - 24 = -62 over 3 hands, 1 win (on a discard), 1 deal-in.
    bob = ScoreLine(BOB, "Bob", points=-62, hands=3, wins=1, self_drawn=0, deal_ins=1)
    carol = ScoreLine(CAROL, "Carol", points=16, hands=1, wins=1, self_drawn=1, deal_ins=0)
    assert await store.score(GUILD, ALICE) == alice
    assert await store.score(GUILD, BOB, "two_player") == bob
    assert await store.score(GUILD, ALICE, "other_variant") == ScoreLine(ALICE, None)
    assert await store.score(GUILD2, ALICE) == ScoreLine(ALICE, "Alice", 100, 1, 1, 1, 0)
    # Human players only (the AI seat's -16 is left out), by points: 62, 16, -62.
    assert await store.leaderboard(GUILD) == [alice, carol, bob]
    assert await store.leaderboard(GUILD, "two_player") == [alice, bob]
    assert await store.leaderboard(GUILD, limit=1) == [alice]
    # Since 5 March only hand 3 and Carol's hand count: Alice +24, Carol +16, Bob -24.
    since = datetime(2025, 3, 5, tzinfo=UTC)
    assert await store.leaderboard(GUILD, since=since) == [
        ScoreLine(ALICE, "Alicia", points=24, hands=1, wins=1, self_drawn=0, deal_ins=0),
        carol,
        ScoreLine(BOB, "Bob", points=-24, hands=1, wins=0, self_drawn=0, deal_ins=1),
    ]
    # A naive `since` is read as UTC; 10 March 20:00:01 is after every hand.
    assert await store.leaderboard(GUILD, since=datetime(2025, 3, 10, 20, 0, 1)) == []
    assert await store.score(GUILD, BOB, since=since) == ScoreLine(BOB, "Bob", -24, 1, 0, 0, 1)


@pytest.mark.asyncio
async def test_close_table(store, backend):
    table_id = await new_table(store, channel_id=10)
    hand_id = await new_hand(store, table_id)
    await store.append_action(hand_id, 0, "deal")
    backend.clock.advance(minutes=30)
    closed = await store.update_table(table_id, status="closed")
    assert closed.status == "closed"
    assert await store.get_open_table(10) is None
    assert await store.load_open_tables() == []
    hand = await store.get_hand(hand_id)  # a closed table keeps no hand in play
    assert (hand.status, hand.ended_at, hand.actions) == ("aborted", T0 + timedelta(minutes=30), ("deal",))
    with pytest.raises(TableClosed):
        await new_hand(store, table_id, hand_no=2)
    # The channel is free again; the old table cannot be reopened next to the new one.
    new_id = await new_table(store, channel_id=10)
    assert (await store.get_open_table(10)).id == new_id
    with pytest.raises(TableExists):
        await store.update_table(table_id, status="lobby")
