"""What the parts of the store share besides their database (``store/database.py``): the Core
tables their queries are written on, and the check of values bound for 64-bit columns.
"""

from __future__ import annotations

from typing import Any

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


def _int64(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name}={value} does not fit a signed 64-bit column")
    return value
