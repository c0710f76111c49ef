"""Backups an admin gets wrong or needs in a bad moment (``store.backup``): the copy just made
survives any retention the command accepts, and a restore works when the database it replaces
is itself damaged — the case a restore is for."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from store.backup import main
from store.copies import backup_into, restore_sqlite


def _db(path, rows: int) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x INTEGER)")
    con.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(rows)])
    con.commit()
    con.close()


def _bot_db(path, rows: int) -> None:
    """The bot's database (its tables, by the store) with ``rows`` rows in a table ``t``."""
    import asyncio

    from store import Store

    async def make() -> None:
        store = Store(f"sqlite:///{path}")
        await store.init()
        await store.close()

    asyncio.run(make())
    _db(path, rows)


def test_the_copy_just_made_is_kept_when_retention_keeps_no_days_and_no_weeks(tmp_path):
    # `--keep-daily 0 --keep-weekly 0` is accepted by the command ("0 or more"); the new copy
    # is dated now, so the retention rule keeps nothing and the copy reported as made was gone
    db = tmp_path / "bot.db"
    _db(db, 3)
    when = datetime(2026, 1, 31, 3, tzinfo=timezone.utc)
    dest, removed = backup_into(f"sqlite:///{db}", tmp_path / "b", when, keep_daily=0, keep_weekly=0)
    assert dest.is_file() and dest not in removed
    assert main(["--dir", str(tmp_path / "c"), "--db", f"sqlite:///{db}", "--keep-daily", "0", "--keep-weekly", "0"]) == 0
    assert len(list((tmp_path / "c").iterdir())) == 1


def test_a_restore_replaces_a_corrupt_database_and_keeps_its_bytes(tmp_path):
    db = tmp_path / "bot.db"
    _bot_db(db, 5)
    copy, _ = backup_into(f"sqlite:///{db}", tmp_path / "b", datetime(2026, 1, 31, 3, tzinfo=timezone.utc))
    garbage = b"this is not a database any more" * 100
    db.write_bytes(garbage)  # a disk fault: the bot's database is damaged
    kept = restore_sqlite(copy, db, now=lambda: datetime(2026, 2, 1, 9, tzinfo=timezone.utc))
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM t").fetchone()[0] == 5  # the 5 rows written above
    con.close()
    assert kept is not None and kept.read_bytes() == garbage  # kept as it was, for whoever looks into it


def test_a_copy_dated_in_the_future_does_not_stop_the_daily_copies(tmp_path):
    # a copy taken while the clock was wrong (a year ahead, then set right) is kept by the
    # retention; it must not count as today's copy, or no copy is due again for a year
    from store.backup_schedule import BackupSchedule, BackupSettings

    db = tmp_path / "bot.db"
    _db(db, 1)
    folder = tmp_path / "b"
    ahead = datetime(2027, 1, 31, 3, tzinfo=timezone.utc)
    backup_into(f"sqlite:///{db}", folder, ahead)
    now = datetime(2026, 1, 31, 10, tzinfo=timezone.utc)
    schedule = BackupSchedule(f"sqlite:///{db}", BackupSettings(folder), clock=lambda: now)
    assert schedule.seconds_until_due(now) == 0  # no copy since today's 03:00 slot


def test_a_folder_named_like_a_copy_does_not_stop_the_pruning(tmp_path):
    # an odd entry among the copies (a folder someone made, named like a copy) is left alone;
    # the copies after it in age order are still pruned and the new copy is reported made
    db = tmp_path / "bot.db"
    _db(db, 1)
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "mahjong-2025-01-01T030000Z.db").mkdir()
    for day in range(1, 11):
        backup_into(f"sqlite:///{db}", folder, datetime(2026, 1, day, 3, tzinfo=timezone.utc), keep_daily=2,
                    keep_weekly=0)
    # 2 days kept (9th, 10th) and the folder: the 8 older copies removed
    assert sorted(p.name for p in folder.iterdir()) == [
        "mahjong-2025-01-01T030000Z.db", "mahjong-2026-01-09T030000Z.db", "mahjong-2026-01-10T030000Z.db"]


def test_a_restore_refuses_an_empty_file_or_another_programs_database(tmp_path):
    # an empty file (a copy cut short: a full disk, a failed download) opens as an empty
    # SQLite database and passes integrity_check; put in place it would start the bot on no
    # data at all. A SQLite file of another program passes it too.
    import pytest

    from store.copies import BackupError

    db = tmp_path / "bot.db"
    _db(db, 3)
    before = db.read_bytes()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    other = tmp_path / "other.db"
    _db(other, 1)  # a valid SQLite database, without the bot's tables
    for copy in (empty, other):
        with pytest.raises(BackupError):
            restore_sqlite(copy, db)
        assert db.read_bytes() == before  # nothing changed
    _bot_db(tmp_path / "fresh.db", 2)  # the bot's own database is a good copy
    assert restore_sqlite(tmp_path / "fresh.db", db) is not None
