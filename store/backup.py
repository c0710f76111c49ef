"""A consistent copy of the bot's database while the bot runs, a folder of dated copies with
retention, and the restore.

    python -m store.backup backup.db                 # the database DATABASE_URL names (environment or .env), or the default
    python -m store.backup backup.db --db sqlite:////data/mahjong.db
    python -m store.backup --dir /backups            # a dated copy in /backups, older ones pruned (7 daily, 4 weekly)
    python -m store.backup --dir /backups --keep-daily 14 --keep-weekly 8
    python -m store.backup restore /backups/mahjong-2026-01-31T030000Z.db   # the bot stopped first
    python /path/to/checkout/store/backup.py ...     # the same from any folder; installed: mahjong-backup ...

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database page by
page while the bot keeps writing; the copy is one consistent moment (every transaction committed
before it is in, none half), checked with ``PRAGMA integrity_check`` before it is kept.  The
restore (:func:`restore_sqlite`) checks the copy, keeps the database it replaces beside it
(``<name>.replaced-<UTC time>.db``), and puts the copy in place without a stale ``-wal`` or
``-shm``.

PostgreSQL: ``pg_dump -Fc`` makes the consistent copy (``--dir`` and the bot's schedule run it
when ``pg_dump`` is installed; ``pg_restore --list`` checks it), restored with ``pg_restore
--clean -d "$DATABASE_URL" backup.dump``; a single named copy is left to ``pg_dump`` itself.
Exit status: 0 done, 1 the copy or restore failed (said on stderr, nothing left half-written).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # run as a path (``python /opt/mahjong-bot/store/backup.py``): import the package from the
    # checkout, not this file's folder
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    from store.backup import main as _main

    sys.exit(_main())

import argparse
import os
from datetime import datetime, timezone

from .copies import BackupError, backup_into, backup_sqlite, restore_sqlite, sqlite_path
from .location import database_url, load_env_files


def _restore(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m store.backup restore",
                                     description="Put a copy in place of the bot's SQLite database (stop the bot first).")
    parser.add_argument("copy", type=Path, help="the copy to restore")
    parser.add_argument("--db", default=None, help="database URL (default: DATABASE_URL, else the data directory's)")
    args = parser.parse_args(argv)
    load_env_files()
    try:
        target = sqlite_path(args.db or database_url(os.environ))
        kept = restore_sqlite(args.copy, target)
    except BackupError as exc:
        print(f"restore: {exc}", file=sys.stderr)
        return 1
    print(f"restore: {args.copy} -> {target}" + (f" (the replaced database kept as {kept})" if kept else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["restore"]:
        return _restore(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m store.backup",
                                     description="A consistent copy of the bot's database, taken while it runs "
                                                 "(restore: python -m store.backup restore COPY).")
    parser.add_argument("dest", type=Path, nargs="?", help="the new file to write the copy to (SQLite)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="write a dated copy into this folder and prune the older ones instead")
    parser.add_argument("--keep-daily", type=int, default=7, help="with --dir: days to keep a copy of (default 7)")
    parser.add_argument("--keep-weekly", type=int, default=4, help="with --dir: weeks to keep a copy of (default 4)")
    parser.add_argument("--db", default=None, help="database URL (default: DATABASE_URL, else the data directory's)")
    parser.add_argument("--schema", default=None, help="PostgreSQL with --dir: dump this schema alone")
    args = parser.parse_args(argv)
    if (args.dest is None) == (args.dir is None):
        parser.error("give either a destination file or --dir FOLDER")
    if args.keep_daily < 0 or args.keep_weekly < 0:
        parser.error("--keep-daily and --keep-weekly must be 0 or more")
    load_env_files()  # DATABASE_URL from the .env files bot.py reads
    url = args.db or database_url(os.environ)
    try:
        if args.dir is not None:
            dest, removed = backup_into(url, args.dir, datetime.now(timezone.utc), args.keep_daily, args.keep_weekly,
                                        args.schema)
            print(f"backup: {dest} (integrity ok); {len(removed)} older copies removed")
            return 0
        source = sqlite_path(url)
        pages = backup_sqlite(source, args.dest)
    except BackupError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 1
    print(f"backup: {source} -> {args.dest} ({pages} pages, integrity ok)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
