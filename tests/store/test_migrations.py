"""Alembic migrations of the store (store/migrations), on SQLite and PostgreSQL.

Uses the ``backend`` fixture of ``tests/store/test_store.py`` (a SQLite file, or a fresh PostgreSQL
schema dropped after the test).  A database at revision ``0001_initial`` is built either by the
``alembic`` command line or, for a database made before the bot had migrations, by the 0001 DDL
without a version table; rows are then written with plain SQL the way the first schema allows,
and ``Store.init()`` must upgrade it to head keeping every score.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, inspect, text

from store.models import ALL_TABLES
from store import (
    INITIAL_REVISION,
    MIGRATIONS_DIR,
    GuildConfig,
    ScoreLine,
    Store,
    StoreError,
    head_revision,
)
from test_store import ALICE, BOB, GUILD, ROOT, T0, backend  # noqa: F401  (backend: fixture)

UTC = timezone.utc
HEAD = "0015_player_tally"
FIRST_TABLES = {"game_table", "seat", "hand", "hand_action", "settlement"}
ALL_NAMES = FIRST_TABLES | {"guild_config", "routed_action", "player_streak", "bot_state", "match", "player_lang",
                            "rating", "rated_unit", "unit_place", "player_tally", "alembic_version"}


def day(d: int) -> datetime:
    return datetime(2025, 3, d, 20, 0, tzinfo=UTC)


async def table_names(store: Store) -> set[str]:
    async with store.engine.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def stored_versions(store: Store) -> list[str]:
    async with store.engine.connect() as conn:
        return list((await conn.scalars(text("SELECT version_num FROM alembic_version"))).all())


def alembic_cli(backend, *args: str) -> None:
    """Run ``alembic -c store/migrations/alembic.ini …`` on the backend's database."""
    if backend.schema is None:
        Path(backend.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    schema = ["-x", f"schema={backend.schema}"] if backend.schema else []
    env = dict(os.environ, DATABASE_URL=backend.url)
    subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(MIGRATIONS_DIR / "alembic.ini"), *schema,
         *args],
        check=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


async def build_0001(backend, how: str) -> None:
    """A database at revision 0001: by the command line, or unversioned (made before migrations)."""
    if how == "cli":
        alembic_cli(backend, "upgrade", "0001")
        return
    old = Store(backend.url, schema=backend.schema)
    await old.upgrade("0001")  # the 0001 DDL, exactly
    async with old.engine.begin() as conn:
        await conn.execute(text("DROP TABLE alembic_version"))
    await old.close()


INSERT_TABLE = text(
    "INSERT INTO game_table (guild_id, channel_id, creator_id, variant, options, status,"
    " message_id, seed, hand_no, lang, state, created_at, updated_at)"
    " VALUES (:g, :c, :a, 'two_player', :o, :s, NULL, :seed, 0, 'zh', :st, :t, :t) RETURNING id"
)
INSERT_SEAT = text(
    "INSERT INTO seat (table_id, seat, user_id, name, is_ai, dms_open, auto)"
    " VALUES (:t, :s, :u, :n, :no, :yes, :no)"
)
INSERT_HAND = text(
    "INSERT INTO hand (table_id, hand_no, seed, variant, options, dealer, seats, status,"
    " result, started_at, ended_at)"
    " VALUES (:t, :n, :seed, 'two_player', '{}', 0, :seats, :s, :r, :start, :end) RETURNING id"
)
INSERT_ACTION = text(
    "INSERT INTO hand_action (hand_id, idx, text, created_at) VALUES (:h, :i, :x, :c)"
)
INSERT_SETTLEMENT = text(
    "INSERT INTO settlement (hand_id, table_id, guild_id, user_id, name, is_ai, variant, seat,"
    " points, is_winner, self_drawn, dealt_in, fan, created_at)"
    " VALUES (:h, :t, :g, :u, :n, :ai, 'two_player', :seat, :p, :w, :sd, :di, :f, :c)"
)


async def fill_first_schema(backend) -> dict[str, int]:
    """Rows written with plain SQL as the first schema allows (no ORM, no store).

    Table 1 (closed) has three settled hands; table 2 is playing hand 4 with three actions.

    ====  ======  ============================================================
    hand  day     result (points)
    ====  ======  ============================================================
    1     1 Mar   Alice self-drawn, 8 fan: Alice +48, Bob -48
    2     2 Mar   Bob on Alice's discard, 2 fan: Bob +10, Alice -10
    3     10 Mar  "Alicia" (Alice) on Bob's discard, 4 fan: Alice +24, Bob -24
    ====  ======  ============================================================
    """
    pg = backend.schema is not None

    def ts(value: datetime):
        # asyncpg takes datetimes; SQLite keeps naive UTC text in SQLAlchemy's format.
        if pg:
            return value
        return value.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")

    raw = Store(backend.url, schema=backend.schema)  # only its engine: no init, no migration
    ids: dict[str, int] = {}
    async with raw.engine.begin() as conn:
        async def add_table(channel: int, status: str) -> int:
            return await conn.scalar(INSERT_TABLE, {
                "g": GUILD, "c": channel, "a": ALICE, "o": json.dumps({"flowers": True}),
                "s": status, "seed": 2**62 + 7, "st": json.dumps({"dealer": 0}), "t": ts(T0),
            })

        async def add_hand(table_id: int, no: int, status: str, when) -> int:
            seats = [{"seat": 0, "user_id": ALICE}, {"seat": 1, "user_id": BOB}]
            return await conn.scalar(INSERT_HAND, {
                "t": table_id, "n": no, "seed": -(2**63), "s": status, "seats": json.dumps(seats),
                "r": json.dumps({"hand_no": no}) if when else None, "start": ts(T0),
                "end": ts(when) if when else None,
            })

        async def settle(hand_id: int, table_id: int, seat: int, user: int, name: str, points: int,
                         when, win=False, tsumo=False, dealt_in=False, fan=None) -> None:
            await conn.execute(INSERT_SETTLEMENT, {
                "h": hand_id, "t": table_id, "g": GUILD, "u": user, "n": name, "ai": False,
                "seat": seat, "p": points, "w": win, "sd": tsumo, "di": dealt_in, "f": fan,
                "c": ts(when),
            })

        t1 = ids["t1"] = await add_table(10, "closed")
        h = ids["h1"] = await add_hand(t1, 1, "done", day(1))
        await settle(h, t1, 0, ALICE, "Alice", 48, day(1), win=True, tsumo=True, fan=8)
        await settle(h, t1, 1, BOB, "Bob", -48, day(1))
        h = ids["h2"] = await add_hand(t1, 2, "done", day(2))
        await settle(h, t1, 0, ALICE, "Alice", -10, day(2), dealt_in=True)
        await settle(h, t1, 1, BOB, "Bob", 10, day(2), win=True, fan=2)
        h = ids["h3"] = await add_hand(t1, 3, "done", day(10))
        await settle(h, t1, 0, ALICE, "Alicia", 24, day(10), win=True, fan=4)
        await settle(h, t1, 1, BOB, "Bob", -24, day(10), dealt_in=True)

        t2 = ids["t2"] = await add_table(11, "playing")
        for seat, (user, name) in enumerate(((ALICE, "Alice"), (BOB, "Bob"))):
            await conn.execute(
                INSERT_SEAT, {"t": t2, "s": seat, "u": user, "n": name, "no": False, "yes": True}
            )
        h = ids["h4"] = await add_hand(t2, 1, "playing", None)
        for i, move in enumerate(["deal", "draw 0 5m", "discard 0 5m"]):
            await conn.execute(INSERT_ACTION, {"h": h, "i": i, "x": move, "c": ts(T0)})
    await raw.close()
    return ids


# Expected totals of fill_first_schema, worked out from its table.
# Alice: 48 - 10 + 24 = 62 over 3 hands, wins 1 and 3 (1 self-drawn), dealt in hand 2.
ALICE_LINE = ScoreLine(ALICE, "Alicia", points=62, hands=3, wins=2, self_drawn=1, deal_ins=1)
# Bob: -48 + 10 - 24 = -62 over 3 hands, won hand 2 on a discard, dealt in hand 3.
BOB_LINE = ScoreLine(BOB, "Bob", points=-62, hands=3, wins=1, self_drawn=0, deal_ins=1)


async def check_first_schema_rows(store: Store, ids: dict[str, int], *, at_head: bool = True) -> None:
    """The rows of the first schema read back.  Below head (after a downgrade) only the score
    queries run: they read settlements alone, while the hand queries expect the head schema."""
    assert await store.score(GUILD, ALICE) == ALICE_LINE
    assert await store.score(GUILD, BOB) == BOB_LINE
    assert await store.leaderboard(GUILD) == [ALICE_LINE, BOB_LINE]
    # Since 5 March only hand 3 counts: Alice +24, Bob -24.
    assert [(s.user_id, s.points) for s in await store.leaderboard(GUILD, since=day(5))] == [
        (ALICE, 24), (BOB, -24),
    ]
    if not at_head:
        return
    stats = await store.stats(GUILD, ALICE)
    assert (stats.best_points, stats.best_hand_id, stats.best_fan) == (48, ids["h1"], 8)
    assert [h.hand_id for h in await store.history(GUILD, ALICE)] == [
        ids["h3"], ids["h2"], ids["h1"],
    ]
    assert [h.winner_name for h in await store.history(GUILD, BOB)] == ["Alicia", "Bob", "Alice"]
    assert [h.id for h in await store.finished_hands(GUILD)] == [ids["h3"], ids["h2"], ids["h1"]]
    [open_table] = await store.load_open_tables()
    assert (open_table.table.id, open_table.table.state, open_table.table.seed) == (
        ids["t2"], {"dealer": 0}, 2**62 + 7,
    )
    assert open_table.hand.actions == ("deal", "draw 0 5m", "discard 0 5m")
    assert open_table.table.created_at == T0


# --------------------------------------------------------------------------- tests


def test_head_revision_is_0015():
    assert head_revision() == HEAD
    assert INITIAL_REVISION == "0001_initial"


@pytest.mark.asyncio
async def test_fresh_database_is_at_head_and_matches_the_models(backend):
    store = await backend.open()
    assert await table_names(store) == ALL_NAMES
    assert await stored_versions(store) == [HEAD]
    assert await store.current_revision() == HEAD
    # The schema built by the revisions is the one the models describe (no autogenerate diff).
    target = MetaData()
    for table in ALL_TABLES:
        table.to_metadata(target)

    def ours(name, kind, _parent) -> bool:
        return not (kind == "table" and name == "alembic_version")

    def diff(conn):
        ctx = MigrationContext.configure(conn, opts={"compare_type": True, "include_name": ours})
        return compare_metadata(ctx, target)

    async with store.engine.connect() as conn:
        assert await conn.run_sync(diff) == []
    await store.init()  # idempotent
    assert await stored_versions(store) == [HEAD]


@pytest.mark.asyncio
async def test_version_table_lives_in_the_store_schema(backend):
    store = await backend.open()
    if backend.schema is None:  # SQLite: one file, one namespace
        assert "alembic_version" in await table_names(store)
        return
    async with store.engine.connect() as conn:
        rows = (await conn.execute(text(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = :s"
        ), {"s": backend.schema})).scalars().all()
    assert set(rows) == ALL_NAMES


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["cli", "unversioned"])
async def test_upgrade_from_0001_keeps_every_score(backend, how):
    await build_0001(backend, how)
    probe = Store(backend.url, schema=backend.schema)
    assert await table_names(probe) == (
        FIRST_TABLES | {"alembic_version"} if how == "cli" else FIRST_TABLES
    )
    assert await probe.current_revision() == (INITIAL_REVISION if how == "cli" else None)
    await probe.close()
    ids = await fill_first_schema(backend)

    store = await backend.open()  # Store.init(): (stamp 0001 and) upgrade to head
    assert await stored_versions(store) == [HEAD]
    assert await table_names(store) == ALL_NAMES
    await check_first_schema_rows(store, ids)
    # The new table works, and so do new rows next to the old ones.
    assert await store.get_guild_config(GUILD) == GuildConfig(GUILD)
    cfg = await store.set_preset(GUILD, "quick", "two_player", {"min_fan": 8})
    assert cfg.presets == {"quick": {"variant": "two_player", "options": {"min_fan": 8}}}
    await store.append_action(ids["h4"], 3, "draw 1 7p")
    new_table = await store.create_table(guild_id=GUILD, channel_id=12, creator_id=BOB,
                                         variant="two_player", options={}, seed=1)
    assert new_table not in (ids["t1"], ids["t2"])


@pytest.mark.asyncio
async def test_downgrade_to_0001_and_back(backend):
    await build_0001(backend, "unversioned")
    ids = await fill_first_schema(backend)
    store = await backend.open()
    await store.set_channels(GUILD, [10])

    await store.downgrade("0002")  # 0007 → 0002 drops seat.prompted, routed_action.hand_id, player_streak, routed_action and hand.context, keeps every row
    assert await store.current_revision() == "0002_guild_config"
    await check_first_schema_rows(store, ids, at_head=False)
    await store.downgrade("0001")
    assert await store.current_revision() == INITIAL_REVISION
    assert await table_names(store) == FIRST_TABLES | {"alembic_version"}
    await check_first_schema_rows(store, ids, at_head=False)  # scores do not depend on guild_config

    await store.init()
    assert await store.current_revision() == HEAD
    assert await store.get_guild_config(GUILD) == GuildConfig(GUILD)  # dropped with its table
    assert (await store.set_channels(GUILD, [11])).channels == (11,)
    await check_first_schema_rows(store, ids)

    # Down to base drops every table (the version table stays, empty); init rebuilds them.
    await store.downgrade("base")
    assert await table_names(store) == {"alembic_version"}
    assert await store.current_revision() is None
    await store.init()
    assert await table_names(store) == ALL_NAMES
    assert await store.score(GUILD, ALICE) == ScoreLine(ALICE, None)


@pytest.mark.asyncio
async def test_cli_reports_and_moves_the_same_version(backend):
    store = await backend.open()
    await store.close()
    alembic_cli(backend, "downgrade", "0001")
    store = await backend.open()  # init upgrades again
    assert await stored_versions(store) == [HEAD]


@pytest.mark.asyncio
async def test_partial_unversioned_database_is_refused(backend):
    raw = Store(backend.url, schema=backend.schema)
    await raw.upgrade("0001")
    async with raw.engine.begin() as conn:
        await conn.execute(text("DROP TABLE alembic_version"))
        await conn.execute(text("DROP TABLE hand_action"))
    with pytest.raises(StoreError, match="only some"):
        await raw.init()
    # Nothing was written: still no version table, and no guild_config.
    assert await table_names(raw) == FIRST_TABLES - {"hand_action"}
    await raw.close()


@pytest.mark.asyncio
async def test_concurrent_first_inits_migrate_once(backend):
    stores = [Store(backend.url, schema=backend.schema, clock=backend.clock) for _ in range(3)]
    backend.stores.extend(stores)
    await asyncio.gather(*(s.init() for s in stores))
    assert await stored_versions(stores[0]) == [HEAD]
    assert await table_names(stores[2]) == ALL_NAMES


@pytest.mark.asyncio
async def test_0005_adds_player_streak_and_drops_it_again(backend):
    await build_0001(backend, "unversioned")
    ids = await fill_first_schema(backend)
    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("0004")
    assert "player_streak" not in await table_names(store)
    await store.upgrade("0005")
    assert await store.current_revision() == "0005_player_streak"
    assert "player_streak" in await table_names(store)
    await check_first_schema_rows(store, ids, at_head=False)  # below head: the score queries
    await store.set_streak(GUILD, "two_player", ALICE, 2)
    assert await store.get_streak(GUILD, "two_player", ALICE) == 2

    await store.downgrade("0004")  # drops the counts, keeps every other row
    assert await store.current_revision() == "0004_routed_action"
    assert "player_streak" not in await table_names(store)
    await check_first_schema_rows(store, ids, at_head=False)
    await store.init()
    assert await store.get_streak(GUILD, "two_player", ALICE) == 0


@pytest.mark.asyncio
async def test_0006_adds_the_hand_of_routed_clicks_and_drops_it_again(backend):
    """Clicks routed between processes carry the hand they were drawn for; a row stored
    before the revision reads as ``hand_id`` None."""
    from sqlalchemy import inspect as sa_inspect

    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("0005")

    async def columns() -> set[str]:
        async with store.engine.connect() as conn:
            return await conn.run_sync(lambda c: {col["name"] for col in sa_inspect(c).get_columns(
                "routed_action", schema=backend.schema)})

    assert "hand_id" not in await columns()
    await store.upgrade("0006")
    assert await store.current_revision() == "0006_routed_hand"
    assert "hand_id" in await columns()
    await store.downgrade("0005")
    assert "hand_id" not in await columns()


@pytest.mark.asyncio
async def test_0007_keeps_what_each_seat_was_prompted_for(backend):
    """A seat's last prompted decision is stored and read back; a seat stored before the
    revision reads as None."""
    from store import SeatRecord

    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("head")
    assert await store.current_revision() == HEAD
    tid = await store.create_table(guild_id=GUILD, channel_id=4242, creator_id=ALICE, variant="two_player",
                                   options={}, seed=1)
    await store.set_seats(tid, [SeatRecord(0, ALICE, "alice"), SeatRecord(1, BOB, "bob")])
    assert [s.prompted for s in await store.get_seats(tid)] == [None, None]
    await store.set_seat_prompted(tid, 1, "7:12")
    assert [s.prompted for s in await store.get_seats(tid)] == [None, "7:12"]
    await store.downgrade("0006")
    await store.upgrade("head")
    assert [s.prompted for s in await store.get_seats(tid)] == [None, None]


@pytest.mark.asyncio
async def test_0008_keeps_named_values_between_starts(backend):
    """A named value is stored, overwritten and read back by a second store on the same
    database; a missing key reads as None; downgrading to 0007 drops the table."""
    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("head")
    assert await store.get_state("commands:global") is None
    await store.set_state("commands:global", "a" * 64)
    await store.set_state("commands:global", "b" * 64)
    again = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(again)
    assert await again.get_state("commands:global") == "b" * 64
    # by prefix, in one query: "%" and "_" in the prefix are themselves, not patterns
    for key in ("profile:hidden:1:5", "profile:hidden:1:6", "profile:hidden:12:5", "p_x", "pax", "p%y"):
        await store.set_state(key, key[-1])
    assert await again.states("profile:hidden:1:") == {"profile:hidden:1:5": "5", "profile:hidden:1:6": "6"}
    assert await again.states("p_") == {"p_x": "x"}
    assert await again.states("p%") == {"p%y": "y"}
    with pytest.raises(ValueError):
        await store.set_state("", "x")
    with pytest.raises(TypeError):
        await store.set_state("commands:global", 3)
    await store.downgrade("0007")
    assert await store.current_revision() == "0007_seat_prompted"
    await store.upgrade("head")
    assert await store.get_state("commands:global") is None


@pytest.mark.asyncio
async def test_0010_keeps_each_players_language(backend):
    """A player's language is stored, overwritten and read back by a second store on the same
    database; users without one are left out; downgrading to 0008 drops the table."""
    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("head")
    assert await store.get_langs([ALICE, BOB]) == {}
    await store.set_lang(ALICE, "en")
    await store.set_lang(ALICE, "zh-TW")
    await store.set_lang(BOB, "zh-CN")
    again = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(again)
    assert await again.get_langs([ALICE, BOB, 5]) == {ALICE: "zh-TW", BOB: "zh-CN"}
    assert await again.get_langs([]) == {}
    with pytest.raises(ValueError):
        await store.set_lang(ALICE, "")
    with pytest.raises(ValueError):
        await store.set_lang(2**63, "en")
    await store.downgrade("0008")
    assert await store.current_revision() == "0008_bot_state"
    assert "player_lang" not in await table_names(store)
    await store.upgrade("head")
    assert await store.get_langs([ALICE]) == {}


@pytest.mark.asyncio
async def test_0009_records_a_match_once_with_the_closing_of_its_table(backend):
    """Ending a table with a settled hand closes it and records its match in one call; a
    second call gives the same match; a table with no settled hand records none;
    downgrading to 0008 drops the table of matches."""
    from store import SettlementRecord

    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("head")
    tid = await store.create_table(guild_id=5, channel_id=50, creator_id=1, variant="two_player", options={},
                                   seed=7)
    hid = await store.start_hand(table_id=tid, hand_no=0, seed=1, variant="two_player", options={}, dealer=0,
                                 seats=[{"user_id": 1, "name": "a"}, {"user_id": None, "name": "AI 1"}])
    await store.finish_hand(hid, result={"points": [8, -8]}, settlements=[
        SettlementRecord(seat=0, user_id=1, name="a", points=8, is_winner=True),
        SettlementRecord(seat=1, user_id=None, name="AI 1", points=-8, is_ai=True)])
    mid = await store.end_match(tid, hands_planned=0)
    assert mid is not None and await store.end_match(tid, hands_planned=0) == mid
    m = await store.get_match(mid)
    assert (m.table_id, m.guild_id, m.channel_id, m.hands_planned, m.hands_played, m.message_id) == \
        (tid, 5, 50, 0, 1, None)
    assert (await store.get_table(tid)).status == "closed"
    assert [x.id for x in await store.unposted_matches()] == [mid]
    await store.set_match_message(mid, 123)
    assert await store.unposted_matches() == []
    empty = await store.create_table(guild_id=5, channel_id=51, creator_id=1, variant="two_player", options={},
                                     seed=8)
    assert await store.end_match(empty) is None and (await store.get_table(empty)).status == "closed"
    await store.downgrade("0008")
    assert "match" not in await table_names(store)


@pytest.mark.asyncio
async def test_0012_moves_the_server_settings_into_their_own_column_and_back(backend):
    """Settings kept under ``defaults["@server"]`` before 0012 come out in ``settings`` (the
    game defaults beside them untouched); a downgrade puts them back under that key."""
    import sqlalchemy as sa
    from sqlalchemy.dialects.postgresql import JSONB

    store = Store(backend.url, schema=backend.schema, clock=backend.clock)
    backend.stores.append(store)
    await store.upgrade("0011")
    json_type = sa.JSON().with_variant(JSONB(), "postgresql")
    guild = sa.table("guild_config", sa.column("guild_id", sa.BigInteger), sa.column("defaults", json_type),
                     sa.column("presets", json_type), sa.column("channels", json_type),
                     sa.column("updated_at", sa.DateTime(timezone=True)), schema=backend.schema)
    old = {"laosanfan": {"style": "tuidaoba"}, "@server": {"language": "en", "lobby_minutes": 5}}
    async with store.engine.begin() as conn:
        await conn.execute(guild.insert().values(guild_id=GUILD, defaults=old, presets={}, channels=[],
                                                 updated_at=T0))
    await store.upgrade("head")
    cfg = await store.get_guild_config(GUILD)
    assert cfg.defaults == {"laosanfan": {"style": "tuidaoba"}}
    assert cfg.settings == {"language": "en", "lobby_minutes": 5}
    cfg = await store.set_guild_settings(GUILD, {"repost_after": 20, "lobby_minutes": None})
    assert cfg.settings == {"language": "en", "repost_after": 20} and cfg.defaults == {"laosanfan": {"style": "tuidaoba"}}
    await store.downgrade("0011")
    async with store.engine.connect() as conn:
        [defaults] = (await conn.execute(sa.select(guild.c.defaults).where(guild.c.guild_id == GUILD))).one()
    defaults = json.loads(defaults) if isinstance(defaults, str) else defaults
    assert defaults == {"laosanfan": {"style": "tuidaoba"}, "@server": {"language": "en", "repost_after": 20}}
    await store.upgrade("head")
    assert (await store.get_guild_config(GUILD)).settings == {"language": "en", "repost_after": 20}


def test_stores_migrated_from_several_threads_at_once_all_reach_head(tmp_path):
    """Alembic's commands share module globals: stores of one process migrated from several
    threads at once (each with its own event loop, as ``bench/playout_logs.py`` reads its runs)
    once failed with ``KeyError: 'script'``; a process now migrates one store at a time."""
    import concurrent.futures
    import threading

    start = threading.Barrier(4)

    async def migrate(i: int) -> str:
        store = Store(f"sqlite:///{tmp_path}/t{i}.db")
        try:
            await store.init()
            return await store.current_revision()
        finally:
            await store.close()

    def in_thread(i: int) -> str:
        start.wait()  # the four start their migrations together
        return asyncio.run(migrate(i))

    pool = concurrent.futures.ThreadPoolExecutor(4)
    runs = [pool.submit(in_thread, i) for i in range(4)]
    # a migration torn down by another thread leaves its store's loop waiting for ever: the
    # bound turns that hang into a failure (a passing run takes about a second)
    done, hung = concurrent.futures.wait(runs, timeout=120)
    pool.shutdown(wait=not hung, cancel_futures=True)
    assert not hung, f"{len(hung)} of 4 migrations never finished"
    assert [r.result() for r in runs] == [head_revision()] * 4
