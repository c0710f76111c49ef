"""A consistent copy of the bot's database while the bot runs, and how to restore it.

    python -m store.backup backup.db                 # the database DATABASE_URL names (environment or .env), or the default
    python -m store.backup backup.db --db sqlite:////data/mahjong.db

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database page by
page while the bot keeps writing; the copy is one consistent moment (every transaction committed
before it is in, none half), checked with ``PRAGMA integrity_check`` before it is kept.  To
restore: stop the bot, put the copy where ``DATABASE_URL`` points (remove a stale ``-wal`` and
``-shm`` beside it), start the bot.

PostgreSQL: ``pg_dump`` makes the consistent copy (``pg_dump -Fc "$DATABASE_URL" -f backup.dump``,
restored with ``pg_restore --clean -d "$DATABASE_URL" backup.dump``); this command prints that
advice instead of copying.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from .location import database_url, load_env_files


class BackupError(RuntimeError):
    """The copy could not be made or did not pass the integrity check (nothing is left at the
    destination then)."""


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite://`` URL.

    :raises BackupError: not a SQLite file URL (PostgreSQL: use ``pg_dump``)."""
    u = make_url(url)
    if not u.drivername.startswith("sqlite") or not u.database or u.database == ":memory:":
        raise BackupError(f"{u.drivername}: not a SQLite file; for PostgreSQL use "
                          f"pg_dump -Fc \"$DATABASE_URL\" -f backup.dump (restore: pg_restore --clean -d ...)")
    return Path(u.database)


def backup_sqlite(source: Path, dest: Path, pages: int = -1) -> int:
    """Copy the SQLite database ``source`` to ``dest`` with the online backup API while other
    connections write, then check the copy.  ``pages``: pages per step (``-1``: all in one
    step, one read of one moment, which a busy writer cannot make start over).

    :returns: the number of pages copied.
    :raises BackupError: ``source`` is missing, ``dest`` exists, or the copy fails its
        ``integrity_check`` (the partial copy is removed).
    """
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if dest.exists():
        raise BackupError(f"{dest} exists already; choose a new file")
    if not dest.parent.is_dir():
        raise BackupError(f"no folder {dest.parent}; create it first")
    src = sqlite3.connect(source, timeout=30)  # read only: the backup writes nothing to it
    try:
        dst = sqlite3.connect(dest)
    except sqlite3.Error as exc:
        src.close()
        raise BackupError(f"cannot write {dest}: {exc}") from exc
    try:
        src.backup(dst, pages=pages)
        check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        count = dst.execute("PRAGMA page_count").fetchone()[0]
    except sqlite3.Error as exc:
        dst.close()
        dest.unlink(missing_ok=True)
        raise BackupError(f"backup failed: {exc}") from exc
    finally:
        src.close()
    dst.close()
    if check != "ok":
        dest.unlink(missing_ok=True)
        raise BackupError(f"the copy failed its integrity check: {check}")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store.backup",
                                     description="A consistent copy of the bot's SQLite database, taken while it runs.")
    parser.add_argument("dest", type=Path, help="the new file to write the copy to")
    parser.add_argument("--db", default=None, help="database URL (default: DATABASE_URL, else the data directory's)")
    args = parser.parse_args(argv)
    load_env_files()  # DATABASE_URL from the .env files bot.py reads
    try:
        source = sqlite_path(args.db or database_url(os.environ))
        pages = backup_sqlite(source, args.dest)
    except BackupError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 1
    print(f"backup: {source} -> {args.dest} ({pages} pages, integrity ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
