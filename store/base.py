"""What the parts of the store share: the Core tables its queries are written on, the checks
of values bound for 64-bit and timestamp columns, and :class:`StoreBase`, the state that
:class:`store.Store` sets up and every part reads.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Optional

from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine

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

    @property
    def engine(self) -> AsyncEngine:
        """The underlying SQLAlchemy async engine (for migrations and admin queries)."""
        return self._engine

    def _now(self) -> datetime:
        return _utc(self._clock())
