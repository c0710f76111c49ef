"""Connecting to the database: URLs rewritten to the async drivers, the engine, and the pragmas
every SQLite connection gets (WAL, ``synchronous``, foreign keys; see "Durability on SQLite" in
:mod:`store`).
"""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.util import await_

__all__ = ["normalize_url", "open_engine"]


def normalize_url(url: str | URL) -> str:
    """Return ``url`` rewritten to an async driver.

    ``postgres://`` and ``postgresql://`` (or ``postgresql+psycopg2://``) become
    ``postgresql+asyncpg://``, and a libpq ``sslmode=`` query parameter becomes asyncpg's
    ``ssl=``; ``sqlite://`` becomes ``sqlite+aiosqlite://``.  Other URLs are returned unchanged.

    >>> normalize_url("postgres://u:p@h:5432/db")
    'postgresql+asyncpg://u:p@h:5432/db'
    >>> normalize_url("sqlite:///data/bot.db")
    'sqlite+aiosqlite:///data/bot.db'

    :raises sqlalchemy.exc.ArgumentError: not a database URL.
    """
    raw = str(url) if isinstance(url, URL) else url
    if raw.startswith("postgres://"):
        raw = "postgresql://" + raw[len("postgres://"):]
    u = make_url(raw)
    backend, _, driver = u.drivername.partition("+")
    if backend == "postgresql" and driver in ("", "psycopg2", "psycopg"):
        u = u.set(drivername="postgresql+asyncpg")
        if "sslmode" in u.query:
            query = dict(u.query)
            query["ssl"] = query.pop("sslmode")
            u = u.set(query=query)
    elif backend == "sqlite" and driver in ("", "pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    return u.render_as_string(hide_password=False)


def _set_wal(cursor: Any) -> None:
    """``PRAGMA journal_mode=WAL`` on a new SQLite connection, retried while the file is locked.

    Switching a new file to WAL needs a moment of exclusive access; SQLite answers "database
    is locked" at once (without its busy timeout) when another connection opening the same
    file at that moment holds a lock, e.g. several bots or stores starting together.  The
    retry yields to the event loop (the connection is opened inside the async engine), so the
    lock holder can finish; about 10 s in all before giving up.
    """
    for attempt in range(200):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError
            if "locked" not in str(exc) or attempt == 199:
                raise
            await_(asyncio.sleep(0.05))


def open_engine(
    url: URL, *, echo: bool, schema: Optional[str], sqlite_synchronous: str
) -> AsyncEngine:
    """The async engine of a store at ``url`` (normalized, see :func:`normalize_url`).

    On SQLite: a 30 s busy timeout, and on every new connection WAL (not for ``:memory:``),
    ``PRAGMA synchronous=<sqlite_synchronous>`` and ``foreign_keys=ON``.  On PostgreSQL:
    connections are pinged before use and ``schema``, if given, is first on their
    ``search_path``.
    """
    is_sqlite = url.get_backend_name() == "sqlite"
    kwargs: dict[str, Any] = {"echo": echo}
    if is_sqlite:
        # 30 s busy timeout: concurrent writers from other connections wait, not fail.
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs["pool_pre_ping"] = True
        if schema is not None:
            kwargs["connect_args"] = {"server_settings": {"search_path": f'"{schema}"'}}
    engine = create_async_engine(url, **kwargs)
    if is_sqlite:
        sync = sqlite_synchronous.upper()
        memory = url.database in (None, "", ":memory:")

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if not memory:
                _set_wal(cur)
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    return engine
