"""The bot's own backups: the retention rule, the daily schedule on a manual clock (each copy
whole and holding every acknowledged move), the copy before a migration, and the restore."""

from __future__ import annotations

import logging
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from service.clock import ManualClock
from service.tables import TableService
from store import Store, head_revision
from store.copies import BackupError, backup_into, restore_sqlite
from store.backup_schedule import BackupSchedule, BackupSettings
from store.retention import backup_name, backup_time, to_keep, to_prune

UTC = timezone.utc


def _day(month: int, day: int, hour: int = 3) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


# --- the retention rule (pure) -------------------------------------------------------------
def test_names_carry_their_utc_moment_and_other_names_are_not_copies():
    when = datetime(2026, 1, 31, 3, 0, 5, tzinfo=UTC)
    assert backup_name(when) == "mahjong-2026-01-31T030005Z.db"
    assert backup_name(when, ".dump") == "mahjong-2026-01-31T030005Z.dump"
    # another zone is written in UTC: 04:00 at +01:00 is 03:00 UTC
    assert backup_name(datetime(2026, 1, 31, 4, tzinfo=timezone(timedelta(hours=1)))) == "mahjong-2026-01-31T030000Z.db"
    assert backup_time("mahjong-2026-01-31T030005Z.db") == when
    for other in ("mahjong.db", "mahjong-before-upgrade-from-0014_ratings-20260101T000000Z.db",
                  "mahjong-2026-02-30T030000Z.db", "notes.txt", "mahjong-2026-01-31T030005Z.db-journal"):
        assert backup_time(other) is None, other


def test_forty_daily_copies_keep_seven_days_and_four_weeks():
    """Copies at 03:00 UTC from Thursday 1 January to Monday 9 February 2026 (40 days).  By hand:
    the 7 newest days are 3–9 February; the ISO weeks, newest first, are 9 Feb (Monday, alone:
    its newest is 9 Feb), 2–8 Feb (8 Feb), 26 Jan–1 Feb (1 Feb), 19–25 Jan (25 Jan)."""
    names = [backup_name(_day(1, 1) + timedelta(days=i)) for i in range(40)]
    assert names[-1] == "mahjong-2026-02-09T030000Z.db"
    kept = to_keep(names, _day(2, 9, 4), keep_daily=7, keep_weekly=4)
    expected = {f"mahjong-2026-02-0{d}T030000Z.db" for d in range(3, 10)} | {
        "mahjong-2026-02-01T030000Z.db", "mahjong-2026-01-25T030000Z.db"}
    assert kept == expected
    assert to_prune(names, _day(2, 9, 4)) == sorted(set(names) - expected)
    assert len(to_prune(names, _day(2, 9, 4))) == 31


def test_a_stopped_fortnight_keeps_the_older_copies_and_other_files_and_future_copies_stay():
    """Days are counted among the days that have copies: after 20 days without any, the
    7 daily copies are the 2 new ones and the 5 newest before the gap."""
    old = [backup_name(_day(1, d)) for d in range(1, 11)]  # 1–10 January
    new = [backup_name(_day(1, d)) for d in (31, 31)] + [backup_name(_day(2, 1))]
    new[1] = backup_name(_day(1, 31, 15))  # two copies on 31 January: the newer is kept
    others = ["mahjong-before-upgrade-from-0014_ratings-20260101T000000Z.db", "README.txt"]
    future = backup_name(_day(3, 1))
    kept = to_keep(old + new + others + [future], _day(2, 1, 12), keep_daily=7, keep_weekly=0)
    assert kept == {backup_name(_day(2, 1)), backup_name(_day(1, 31, 15)), *old[5:], *others, future}
    with pytest.raises(ValueError):
        to_keep(old, _day(2, 1), keep_daily=-1)


# --- the daily schedule, on a manual clock --------------------------------------------------
class Stop(Exception):
    pass


@pytest.mark.asyncio
async def test_forty_days_of_scheduled_copies_each_whole_with_every_acknowledged_move(tmp_path, caplog):
    """The schedule runs as the bot runs it; its waits are a fake sleep that moves a manual
    clock and plays a few moves through the store meanwhile.  Each copy, just after it is
    taken, passes ``integrity_check`` and holds exactly the moves acknowledged before it; after
    40 days the folder holds the retained set computed by hand above."""
    db = tmp_path / "live.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    svc = TableService(store, ManualClock(), seed_source=lambda: 4321)
    await svc.create_table(guild_id=1, channel_id=5, user_id=50, name="a", variant="two_player")
    await svc.join(5, 51, "b")
    await svc.start(5, 50)
    acknowledged: dict[int, list[str]] = {}

    async def play(moves: int) -> None:
        for _ in range(moves):
            t = svc.table_in(5)
            if t.hand.is_over():
                await svc.next_hand(5, 50)
                continue
            seat = t.hand.pending_seats()[0]
            a = t.hand.timeout_action(seat)
            await svc.act(5, t.seats[seat].user_id, a.type, a.kind)
            acknowledged[t.hand_id] = list(t.actions)

    folder = tmp_path / "backups"
    now = [_day(1, 1)]
    before_copy: list[dict[int, list[str]]] = []
    checked: list[str] = []
    waits: list[float] = []

    def check_newest() -> None:
        newest = max(p for p in folder.iterdir())
        con = sqlite3.connect(newest)
        try:
            assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            for hand_id, lines in before_copy[-1].items():
                stored = [r[0] for r in con.execute("SELECT text FROM hand_action WHERE hand_id = ? ORDER BY idx",
                                                    (hand_id,))]
                assert stored == lines, (newest.name, hand_id)
        finally:
            con.close()
        checked.append(newest.name)

    async def sleep(seconds: float) -> None:
        check_newest()
        if len(checked) == 40:
            raise Stop
        waits.append(seconds)
        now[0] += timedelta(seconds=seconds)
        await play(7)
        before_copy.append({h: list(v) for h, v in acknowledged.items()})

    await play(5)
    before_copy.append({h: list(v) for h, v in acknowledged.items()})
    schedule = BackupSchedule(f"sqlite:///{db}", BackupSettings(folder, 7, 4, 3), clock=lambda: now[0], sleep=sleep)
    with caplog.at_level(logging.INFO, logger="store.backup"), pytest.raises(Stop):
        await schedule.run()
    await store.close()
    assert checked == [backup_name(_day(1, 1) + timedelta(days=i)) for i in range(40)]
    assert waits == [86400.0] * 39  # one a day at 03:00, nothing in between
    assert sum(len(v) for v in before_copy[-1].values()) >= 200  # the last copies had much to hold
    expected = {f"mahjong-2026-02-0{d}T030000Z.db" for d in range(3, 10)} | {
        "mahjong-2026-02-01T030000Z.db", "mahjong-2026-01-25T030000Z.db"}
    assert {p.name for p in folder.iterdir()} == expected
    assert sum("backup " in r.getMessage() and "integrity ok" in r.getMessage() for r in caplog.records) == 40


@pytest.mark.asyncio
async def test_a_restart_after_the_hour_copies_once_and_a_failed_copy_is_retried(tmp_path):
    """Started at 10:00 with yesterday's copy only: a copy now (the 03:00 slot had none); started
    again at 11:00: nothing is due until tomorrow 03:00 (16 hours).  A folder that cannot be
    written is logged and tried again an hour later."""
    db = tmp_path / "x.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    await store.close()
    folder = tmp_path / "b"
    folder.mkdir()
    backup_into(f"sqlite:///{db}", folder, _day(1, 9, 3))
    schedule = BackupSchedule(f"sqlite:///{db}", BackupSettings(folder), clock=lambda: _day(1, 10, 10))
    assert schedule.seconds_until_due(_day(1, 10, 10)) == 0
    assert await schedule.run_once() == folder / "mahjong-2026-01-10T100000Z.db"
    assert schedule.seconds_until_due(_day(1, 10, 11)) == 16 * 3600
    blocked = tmp_path / "file"
    blocked.write_text("")
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        raise Stop

    failing = BackupSchedule(f"sqlite:///{db}", BackupSettings(blocked / "sub"), clock=lambda: _day(1, 10, 10),
                             sleep=sleep)
    with pytest.raises(Stop):
        await failing.run()
    assert waits == [3600.0]


def test_settings_from_the_environment():
    assert BackupSettings.from_env({}) is None and BackupSettings.from_env({"BACKUP_DIR": " "}) is None
    assert BackupSettings.from_env({"BACKUP_DIR": "/b"}) == BackupSettings(Path("/b"), 7, 4, 3)
    assert BackupSettings.from_env({"BACKUP_DIR": "/b", "BACKUP_KEEP_DAILY": "14", "BACKUP_KEEP_WEEKLY": "0",
                                    "BACKUP_AT": "23"}) == BackupSettings(Path("/b"), 14, 0, 23)
    for name, bad in (("BACKUP_AT", "24"), ("BACKUP_KEEP_DAILY", "0"), ("BACKUP_KEEP_WEEKLY", "-1")):
        with pytest.raises(ValueError, match=name):
            BackupSettings.from_env({"BACKUP_DIR": "/b", name: bad})


@pytest.mark.asyncio
async def test_postgresql_without_pg_dump_says_why_once(monkeypatch, caplog, tmp_path):
    import store.backup_schedule as schedule_module

    monkeypatch.setattr(schedule_module, "pg_dump_available", lambda: "pg_dump not installed")
    s = BackupSchedule("postgresql://h/db", BackupSettings(tmp_path), clock=lambda: _day(1, 1))
    with caplog.at_level(logging.WARNING, logger="store.backup"):
        await s.run()  # returns: nothing to schedule
    assert [r.getMessage() for r in caplog.records] == [
        "scheduled backups are off for PostgreSQL: pg_dump not installed"]


# --- the copy before a migration ------------------------------------------------------------
def _revision(path: Path) -> str | None:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    finally:
        con.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("into_folder", [False, True])
async def test_an_upgrade_copies_the_database_first_at_its_old_revision(tmp_path, caplog, into_folder):
    db = tmp_path / "bot.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    await store.set_preset(9, "kept", "zipai", {"min_huxi": 6})
    await store.downgrade("0014")  # 0015 → 0014: the per-player tallies go, the presets stay
    await store.close()
    assert _revision(db) == "0014_ratings"
    folder = tmp_path / "backups" if into_folder else tmp_path
    fixed = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    upgraded = Store(f"sqlite:///{db}", clock=lambda: fixed, backup_dir=folder if into_folder else None)
    with caplog.at_level(logging.WARNING, logger="store.migrate"):
        await upgraded.init()
    assert await upgraded.current_revision() == head_revision()
    copy = folder / "bot-before-upgrade-from-0014_ratings-20260304T050607Z.db"
    assert copy.is_file()
    assert _revision(copy) == "0014_ratings"  # the copy opens at the old revision, with its rows
    con = sqlite3.connect(copy)
    assert con.execute("SELECT count(*) FROM guild_config").fetchone() == (1,)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    assert any(str(copy) in r.getMessage() and "0014_ratings" in r.getMessage() for r in caplog.records)
    await upgraded.close()
    # at the head already, or a new database: no copy
    def copies() -> list[Path]:
        return sorted(folder.glob("*-before-upgrade-*"))

    assert copies() == [copy]
    again = Store(f"sqlite:///{db}", backup_dir=folder if into_folder else None)
    await again.init()
    await again.close()
    fresh = Store(f"sqlite:///{tmp_path / 'new.db'}")
    await fresh.init()
    await fresh.close()
    assert copies() == [copy]


@pytest.mark.asyncio
async def test_an_upgrade_whose_copy_fails_changes_nothing(tmp_path):
    from store import StoreError

    db = tmp_path / "bot.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    await store.downgrade("0014")
    await store.close()
    (tmp_path / "blocked").write_text("")
    failing = Store(f"sqlite:///{db}", backup_dir=tmp_path / "blocked" / "sub")
    with pytest.raises(StoreError, match="could not back up"):
        await failing.init()
    await failing.close()
    assert _revision(db) == "0014_ratings"


# --- the restore ----------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_restore_brings_a_table_back(tmp_path):
    """Stop, put the copy in place, start: the table open when the copy was taken is resumed
    with every move it had then; the database it replaced is kept beside it."""
    db = tmp_path / "bot.db"
    store = Store(f"sqlite:///{db}")
    await store.init()
    svc = TableService(store, ManualClock(), seed_source=lambda: 99)
    await svc.create_table(guild_id=1, channel_id=7, user_id=70, name="a", variant="two_player")
    await svc.join(7, 71, "b")
    await svc.start(7, 70)
    t = svc.table_in(7)
    seat = t.hand.pending_seats()[0]
    a = t.hand.timeout_action(seat)
    await svc.act(7, t.seats[seat].user_id, a.type, a.kind)
    moves = list(t.actions)
    copy, _ = backup_into(f"sqlite:///{db}", tmp_path / "b", _day(1, 1))
    await svc.end(7, 70)  # the table is closed after the copy
    await store.close()
    with pytest.raises(BackupError, match="not a SQLite database|integrity"):
        (tmp_path / "junk.db").write_bytes(b"not a database" * 100)
        restore_sqlite(tmp_path / "junk.db", db)
    kept = restore_sqlite(copy, db, now=lambda: _day(1, 2))
    assert kept == tmp_path / "bot.replaced-20260102T030000Z.db" and kept.is_file()
    assert not Path(f"{db}-wal").exists()
    restored = Store(f"sqlite:///{db}")
    await restored.init()
    back = TableService(restored, ManualClock(), seed_source=lambda: 99)
    snaps = await back.load()
    assert [s.channel_id for s in snaps] == [7]
    assert list(back.table_in(7).actions) == moves
    await restored.close()


# --- PostgreSQL: pg_dump on the same schedule -----------------------------------------------
@pytest.mark.asyncio
@pytest.mark.postgres
async def test_postgresql_copies_are_pg_dumps_of_the_bots_schema(tmp_path):
    import subprocess
    import uuid

    import asyncpg
    from postgres import pg_dsn, require_postgres

    url = require_postgres()
    schema = f"test_backup_{uuid.uuid4().hex[:12]}"
    store = Store(url, schema=schema)
    await store.init()
    await store.set_preset(4, "night", "jinhu", {})
    await store.close()
    try:
        schedule = BackupSchedule(url, BackupSettings(tmp_path / "b"), clock=lambda: _day(1, 1), schema=schema)
        dump = await schedule.run_once()
        assert dump == tmp_path / "b" / "mahjong-2026-01-01T030000Z.dump"
        listed = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True).stdout
        assert f"TABLE DATA {schema} guild_config" in listed
        assert "TABLE DATA public" not in listed  # the bot's schema alone
    finally:
        conn = await asyncpg.connect(pg_dsn(), timeout=5)
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await conn.close()
