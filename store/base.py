"""What the parts of the store share: the Core tables its queries are written on, the checks
of values bound for 64-bit and timestamp columns, and :class:`StoreBase`, the state that
:class:`store.Store` sets up and every part reads.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timezone
from typing import Any, AsyncIterator, Callable, Optional

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .models import (
    ActionRow,
    BotStateRow,
    GuildConfigRow,
    HandRow,
    PlayerLangRow,
    MatchRow,
    PlayerStreakRow,
    SeatRow,
    SettlementRow,
    TableRow,
)

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1

# Core Table objects (the SQLModel classes' __table__).
_T = TableRow.__table__  # type: ignore[attr-defined]
_S = SeatRow.__table__  # type: ignore[attr-defined]
_H = HandRow.__table__  # type: ignore[attr-defined]
_A = ActionRow.__table__  # type: ignore[attr-defined]
_P = SettlementRow.__table__  # type: ignore[attr-defined]
_G = GuildConfigRow.__table__  # type: ignore[attr-defined]
_K = PlayerStreakRow.__table__  # type: ignore[attr-defined]
_B = BotStateRow.__table__  # type: ignore[attr-defined]
_L = PlayerLangRow.__table__  # type: ignore[attr-defined]
_M = MatchRow.__table__  # type: ignore[attr-defined]


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _int64(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name}={value} does not fit a signed 64-bit column")
    return value


class StoreBase:
    """The state of a store, set by :meth:`store.Store.__init__`.

    :ivar url: the database URL, normalized (:func:`store.connect.normalize_url`).
    """

    url: str
    _url: URL
    #: returns the current time; every stored timestamp comes from it (through :meth:`_now`)
    _clock: Callable[[], datetime]
    _is_sqlite: bool
    #: PostgreSQL schema of the tables, ``None`` for the connection's default
    _schema: Optional[str]
    _engine: AsyncEngine

    #: SQLite: the one connection the short reads share (``None`` until the first)
    _reader: Optional[AsyncConnection] = None
    _reader_lock: Optional[asyncio.Lock] = None

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        """A connection for a short read.  On a SQLite file, the store's one kept reading
        connection, taken in turns: in WAL mode it never waits for the writer, and no new
        connection (a thread of the driver, its pragmas) is opened for a read during play;
        each read ends its transaction, so it sees every commit before it.  Elsewhere (an
        in-memory SQLite, PostgreSQL) one of the pool's."""
        if not self._is_sqlite or self._url.database in (None, "", ":memory:"):
            async with self._engine.connect() as conn:
                yield conn
            return
        if self._reader_lock is None:
            self._reader_lock = asyncio.Lock()
        async with self._reader_lock:
            if self._reader is None:
                self._reader = await self._engine.connect()
            try:
                yield self._reader
            except BaseException:
                reader, self._reader = self._reader, None
                with contextlib.suppress(Exception):
                    await reader.close()
                raise
            else:
                await self._reader.rollback()

    async def _close_reader(self) -> None:
        if self._reader is not None:
            reader, self._reader = self._reader, None
            with contextlib.suppress(Exception):
                await reader.close()

    @property
    def engine(self) -> AsyncEngine:
        """The underlying SQLAlchemy async engine (for migrations and admin queries)."""
        return self._engine

    def _now(self) -> datetime:
        return _utc(self._clock())
