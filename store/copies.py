"""Copies of the bot's database and their restore — what ``store/backup.py`` (the command),
the bot's daily schedule (``store/backup_schedule.py``) and the copy before a migration
(``store/migrate.py``) share.

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the database page by
page while the bot keeps writing; the copy is one consistent moment (every transaction committed
before it is in, none half), checked with ``PRAGMA integrity_check`` before it is kept.  The
restore (:func:`restore_sqlite`) checks the copy, keeps the database it replaces beside it
(``<name>.replaced-<UTC time>.db``), and puts the copy in place without a stale ``-wal`` or
``-shm``.  PostgreSQL: ``pg_dump -Fc``, checked with ``pg_restore --list``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Optional

from sqlalchemy.engine import make_url

from .location import COMPANIONS
from .retention import backup_name, to_prune


#: a table every copy of the bot's database has (alembic's revision, from the first migration on)
BOT_TABLE = "alembic_version"


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


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return make_url(url).get_backend_name() == "postgresql"


def backup_sqlite(source: Path, dest: Path, pages: int = -1) -> int:
    """Copy the SQLite database ``source`` to ``dest`` with the online backup API while other
    connections write, then check the copy.  ``pages``: pages per step (``-1``: all in one
    step, one read of one moment, which a busy writer cannot make start over).

    :returns: the number of pages copied.
    :raises BackupError: ``source`` is missing, ``dest`` exists, or the copy fails its
        ``integrity_check`` (nothing is left at ``dest``: the copy is written to
        ``<dest>.part`` and renamed once checked).
    """
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if dest.exists():
        raise BackupError(f"{dest} exists already; choose a new file")
    if not dest.parent.is_dir():
        raise BackupError(f"no folder {dest.parent}; create it first")
    part = dest.with_name(dest.name + ".part")  # the copy appears whole under its name, or not at all
    part.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=30)  # read only: the backup writes nothing to it
    try:
        dst = sqlite3.connect(part)
    except sqlite3.Error as exc:
        src.close()
        raise BackupError(f"cannot write {dest}: {exc}") from exc
    try:
        src.backup(dst, pages=pages)
        check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        count = dst.execute("PRAGMA page_count").fetchone()[0]
    except sqlite3.Error as exc:
        dst.close()
        part.unlink(missing_ok=True)
        raise BackupError(f"backup failed: {exc}") from exc
    finally:
        src.close()
    dst.close()
    if check != "ok":
        part.unlink(missing_ok=True)
        raise BackupError(f"the copy failed its integrity check: {check}")
    os.replace(part, dest)
    return count


def pg_dump_available() -> Optional[str]:
    """Why a PostgreSQL copy cannot be made here (``None``: ``pg_dump`` and ``pg_restore`` are
    on ``PATH``)."""
    missing = [tool for tool in ("pg_dump", "pg_restore") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (e.g. apt-get install postgresql-client)"
    return None


def backup_postgres(url: str, dest: Path, schema: Optional[str] = None) -> int:
    """``pg_dump -Fc`` of the database ``url`` (only the schema ``schema`` when given: the
    bot's ``Store(schema=)``) to ``dest`` (one consistent snapshot), checked by ``pg_restore
    --list``.

    :returns: the size of the dump in bytes.
    :raises BackupError: the tools are missing, ``dest`` exists, or either command fails (the
        partial dump is removed).
    """
    why = pg_dump_available()
    if why:
        raise BackupError(why)
    if dest.exists():
        raise BackupError(f"{dest} exists already; choose a new file")
    u = make_url(url)
    env = dict(os.environ)
    if u.password is not None:  # by the environment, not the command line others can read
        env["PGPASSWORD"] = str(u.password)
    dsn = u.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    part = dest.with_name(dest.name + ".part")
    only = ["-n", schema] if schema else []
    done = subprocess.run(["pg_dump", "-Fc", *only, "-f", str(part), dsn], capture_output=True, text=True, env=env)
    if done.returncode == 0:
        done = subprocess.run(["pg_restore", "--list", str(part)], capture_output=True, text=True)
    if done.returncode != 0:
        part.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {done.stderr.strip()[:500]}")
    part.rename(dest)
    return dest.stat().st_size


def backup_into(url: str, folder: Path, when: datetime, keep_daily: int = 7, keep_weekly: int = 4,
                schema: Optional[str] = None) -> tuple[Path, list[Path]]:
    """A dated copy of the database ``url`` in ``folder`` (created if missing), named for
    ``when`` (:func:`store.retention.backup_name`), then the older copies that
    :func:`store.retention.to_keep` does not keep removed (only after the new copy passed its
    check).  ``schema``: PostgreSQL, the bot's schema alone.  Blocking: run it in a worker
    thread from the event loop.

    :returns: ``(the new copy, the copies removed)``.
    :raises BackupError: as :func:`backup_sqlite` / :func:`backup_postgres`; nothing is pruned then.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create {folder}: {exc}") from exc
    if is_postgres(url):
        dest = folder / backup_name(when, ".dump")
        backup_postgres(url, dest, schema)
    else:
        dest = folder / backup_name(when)
        backup_sqlite(sqlite_path(url), dest)
    removed = []
    for name in to_prune((p.name for p in folder.iterdir() if p.is_file()), when, keep_daily, keep_weekly):
        if name == dest.name:  # the copy just made, whatever the counts (0 and 0 keep no day)
            continue
        (folder / name).unlink(missing_ok=True)
        removed.append(folder / name)
    return dest, removed


def restore_sqlite(copy: Path, target: Path, now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                   ) -> Optional[Path]:
    """Put the copy ``copy`` in place of the SQLite database ``target`` (the bot stopped): the
    copy is checked first; the database it replaces is kept beside it as
    ``<stem>.replaced-<UTC time><suffix>`` (its ``-wal`` folded in); the stale ``-wal`` and
    ``-shm`` are removed; the copy arrives whole (written beside, then renamed).

    :returns: where the replaced database was kept (``None``: there was none).
    A database too damaged to copy by SQLite's backup is kept as its bytes (and its ``-wal``).

    :raises BackupError: the copy is missing, fails ``integrity_check`` or is not the bot's
        database (no :data:`BOT_TABLE`: an empty file, another program's), and nothing changed.
    """
    if not copy.is_file():
        raise BackupError(f"no copy at {copy}")
    try:
        con = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        try:
            check = con.execute("PRAGMA integrity_check").fetchone()[0]
            ours = con.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (BOT_TABLE,)).fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise BackupError(f"{copy} is not a SQLite database: {exc}") from exc
    if check != "ok":
        raise BackupError(f"{copy} failed its integrity check: {check}")
    if not ours:  # an empty file (a copy cut short) or another program's database
        raise BackupError(f"{copy} is not a copy of the bot's database (no {BOT_TABLE} table)")
    target.parent.mkdir(parents=True, exist_ok=True)
    kept = None
    if target.exists():
        kept = target.with_name(f"{target.stem}.replaced-{now():%Y%m%dT%H%M%SZ}{target.suffix}")
        try:
            backup_sqlite(target, kept)
        except BackupError:  # damaged (what a restore is for): kept byte for byte, with its -wal
            for suffix in ("", *COMPANIONS):
                if Path(f"{target}{suffix}").is_file():
                    shutil.copy2(f"{target}{suffix}", f"{kept}{suffix}")
    incoming = target.with_name(target.name + ".restoring")
    incoming.unlink(missing_ok=True)
    backup_sqlite(copy, incoming)
    for suffix in COMPANIONS:
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    os.replace(incoming, target)
    return kept
