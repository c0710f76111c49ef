"""Backups an admin gets wrong or needs in a bad moment (``store.backup``): the copy just made
survives any retention the command accepts, and a restore works when the database it replaces
is itself damaged — the case a restore is for."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from store.backup import backup_into, main, restore_sqlite


def _db(path, rows: int) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x INTEGER)")
    con.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(rows)])
    con.commit()
    con.close()


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
    _db(db, 5)
    copy, _ = backup_into(f"sqlite:///{db}", tmp_path / "b", datetime(2026, 1, 31, 3, tzinfo=timezone.utc))
    garbage = b"this is not a database any more" * 100
    db.write_bytes(garbage)  # a disk fault: the bot's database is damaged
    kept = restore_sqlite(copy, db, now=lambda: datetime(2026, 2, 1, 9, tzinfo=timezone.utc))
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM t").fetchone()[0] == 5  # the 5 rows written above
    con.close()
    assert kept is not None and kept.read_bytes() == garbage  # kept as it was, for whoever looks into it
