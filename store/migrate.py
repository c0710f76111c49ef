"""Schema migrations of a store: Alembic upgrade, downgrade and stamp, one transaction each,
taken one at a time (see "Schema migrations" in :mod:`store`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Callable, Optional

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from .copies import BackupError, backup_sqlite
from .database import Database
from .records import StoreError

log = logging.getLogger("store.migrate")

__all__ = ["MIGRATIONS_DIR", "INITIAL_REVISION", "alembic_config", "head_revision", "Migrations"]

#: The Alembic environment (``env.py``, ``versions/``) of the bot's database.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The revision of the schema the bot had before migrations (the first five tables).
INITIAL_REVISION = "0001_initial"
_INITIAL_TABLES = frozenset({"game_table", "seat", "hand", "hand_action", "settlement"})
_VERSION_TABLE = "alembic_version"
#: Alembic's commands work through module globals (``alembic.context``, ``alembic.op``): two
#: threads of one process migrating at once (two stores, each on its own event loop) would
#: tear down each other's (``KeyError: 'script'``), so a process migrates one store at a time.
_ALEMBIC = threading.Lock()


def alembic_config(connection: Optional[Connection] = None, schema: Optional[str] = None) -> Config:
    """Return an Alembic :class:`~alembic.config.Config` for the bot's migrations.

    :param connection: a synchronous SQLAlchemy connection (inside ``AsyncConnection.run_sync``)
        the migrations run on, in its current transaction; ``None`` for commands that only
        read the scripts (``heads``, ``history``).
    :param schema: PostgreSQL schema of the tables and of ``alembic_version``.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    cfg.attributes["connection"] = connection
    cfg.attributes["schema"] = schema
    return cfg


def head_revision() -> str:
    """The head revision of the migrations (e.g. ``'0002_guild_config'``)."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


class Migrations:
    """Creating and upgrading a store's schema."""

    def __init__(self, db: Database, backup_dir: Optional[Path] = None):
        self.db = db
        #: where :meth:`init` copies a SQLite database before changing its schema (``None``:
        #: beside the database)
        self.backup_dir = backup_dir

    async def init(self) -> None:
        """Create the PostgreSQL schema (``schema=``) if missing and upgrade to the head revision.

        For a SQLite file the parent directory is created too.  A database made before
        migrations existed (the five first tables, no ``alembic_version``) is stamped
        ``0001_initial`` and upgraded; its rows are kept.  Idempotent; one transaction.

        A SQLite file with tables at an older revision is copied first
        (:meth:`backup_before_upgrade`), with a log line naming the copy.

        :raises StoreError: some but not all of the five first tables exist without a version
            table (not a database of the bot); the copy before the upgrade failed (nothing
            was changed).
        """
        if self.db.is_sqlite and not self.db.in_memory:
            await asyncio.to_thread(self.backup_before_upgrade)
        await self.upgrade("head")

    def backup_before_upgrade(self) -> Optional[Path]:
        """Copy the SQLite file when its schema is behind the head revision: into
        :attr:`backup_dir` (else beside the database) as
        ``<stem>-before-upgrade-from-<revision>-<UTC time>.db`` (``unversioned`` for a database
        made before migrations), checked by ``integrity_check``.  Blocking.

        :returns: the copy (``None``: no file, no tables, or already at the head).
        :raises StoreError: the copy failed (the database is left as it was).
        """
        path = Path(str(self.db.parsed_url.database))
        if not path.is_file() or path.stat().st_size == 0:
            return None
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            revision = None
            if _VERSION_TABLE in names:
                row = con.execute(f"SELECT version_num FROM {_VERSION_TABLE}").fetchone()
                revision = row[0] if row else None
        finally:
            con.close()
        if not names - {_VERSION_TABLE} or revision == head_revision():
            return None
        folder = self.backup_dir if self.backup_dir is not None else path.parent
        stamp = self.db.now().strftime("%Y%m%dT%H%M%SZ")
        dest = folder / f"{path.stem}-before-upgrade-from-{revision or 'unversioned'}-{stamp}.db"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            backup_sqlite(path, dest)
        except (BackupError, OSError) as exc:
            raise StoreError(f"could not back up {path} before upgrading its schema from {revision}: {exc}; "
                             "nothing was changed") from exc
        log.warning("the database's schema is at %s, behind %s: copied it to %s before upgrading",
                    revision or "no revision", head_revision(), dest)
        return dest

    async def upgrade(self, revision: str = "head") -> None:
        """Run the migrations up to ``revision`` (``'head'``, ``'0001'``, …) in one transaction.

        A revision may be given by a unique prefix (``'0001'`` for ``'0001_initial'``).  An
        unversioned database holding the five first tables is stamped ``0001_initial`` first.

        :raises StoreError: unrecognised unversioned database (see :meth:`init`).
        :raises alembic.util.CommandError: unknown revision.
        """
        await self._migrate(lambda cfg: command.upgrade(cfg, revision))

    async def downgrade(self, revision: str) -> None:
        """Run the migrations down to ``revision`` (``'0001'``; ``'base'`` drops every table).

        :raises alembic.util.CommandError: unknown revision.
        """
        await self._migrate(lambda cfg: command.downgrade(cfg, revision))

    async def current_revision(self) -> Optional[str]:
        """The revision stored in ``alembic_version`` (``None`` for an unversioned database)."""
        async with self.db.engine.connect() as conn:
            return await conn.run_sync(
                lambda c: MigrationContext.configure(
                    c, opts={"version_table_schema": self.db.schema}
                ).get_current_revision()
            )

    async def _migrate(self, run: Callable[[Config], None]) -> None:
        if self.db.is_sqlite and self.db.parsed_url.database not in (None, "", ":memory:"):
            Path(self.db.parsed_url.database).parent.mkdir(parents=True, exist_ok=True)
        async with self.db.engine.begin() as conn:
            if self.db.is_sqlite:
                # Take the write lock first (waiting up to the busy timeout): the DDL then runs
                # in this one transaction (the driver would otherwise autocommit each CREATE)
                # and two bots starting together migrate one after the other.
                await conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                # Serialise concurrent migrations of the same schema (released at commit).
                key = f"mahjong-bot migrations {self.db.schema or ''}"
                await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})
            if self.db.schema is not None:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.db.schema}"'))
            await conn.run_sync(self._migrate_sync, run)

    def _migrate_sync(self, conn: Connection, run: Callable[[Config], None]) -> None:
        with _ALEMBIC:
            self._migrate_locked(conn, run)

    def _migrate_locked(self, conn: Connection, run: Callable[[Config], None]) -> None:
        cfg = alembic_config(conn, self.db.schema)
        names = set(inspect(conn).get_table_names(schema=self.db.schema))
        if _VERSION_TABLE not in names:
            present = _INITIAL_TABLES & names
            if present == _INITIAL_TABLES:
                command.stamp(cfg, INITIAL_REVISION)
            elif present:
                raise StoreError(
                    "unversioned database with only some of the bot's tables "
                    f"({', '.join(sorted(present))}); refusing to migrate it"
                )
        run(cfg)
