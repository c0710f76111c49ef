"""The players' 连庄 counts (hands kept in a row as dealer), for the games where the count
belongs to the player: one ``player_streak`` row per guild, user and game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Optional

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _K, _int64
from .database import Database


class Streaks:
    """Players' 连庄 counts of a store (written with a settlement by
    :meth:`store.hands.Hands.finish_hand`)."""

    def __init__(self, db: Database):
        self.db = db

    async def get_streak(self, guild_id: int, variant: str, user_id: int) -> int:
        """The hands ``user_id`` kept in a row as dealer (连庄) in a guild's games of
        ``variant``; 0 when none is stored."""
        _int64("guild_id", guild_id)
        _int64("user_id", user_id)
        async with self.db.read() as conn:
            kept = await conn.scalar(
                select(_K.c.kept).where(
                    _K.c.guild_id == guild_id, _K.c.user_id == user_id, _K.c.variant == variant
                )
            )
        return int(kept or 0)

    async def set_streak(self, guild_id: int, variant: str, user_id: int, kept: int) -> None:
        """Store a player's 连庄 count (a plain overwrite: the last write wins).  The table
        service writes it with the settlement (:meth:`finish_hand`); this is for corrections.

        :raises ValueError: a negative count.
        """
        _int64("guild_id", guild_id)
        counts = checked_streaks({user_id: kept})
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> Any:
            for user, count in counts.items():
                await put_streak(conn, guild_id, variant, user, count, now)

        await self.db.submit(_job)

def checked_streaks(counts: Optional[Mapping[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for user_id, kept in (counts or {}).items():
        _int64("user_id", user_id)
        if isinstance(kept, bool) or not isinstance(kept, int) or kept < 0:
            raise ValueError(f"a dealer streak (lianzhuang) count is an int >= 0, not {kept!r}")
        out[user_id] = kept
    return out


async def put_streak(
    conn: AsyncConnection, guild_id: int, variant: str, user_id: int, kept: int,
    now: datetime,
) -> None:
    """Inside a write transaction: a player's 连庄 count (inserted or replaced)."""
    ins = (sqlite_insert if conn.dialect.name == "sqlite" else pg_insert)(_K).values(
        guild_id=guild_id, user_id=user_id, variant=variant, kept=kept, updated_at=now
    )
    await conn.execute(
        ins.on_conflict_do_update(
            index_elements=[_K.c.guild_id, _K.c.user_id, _K.c.variant],
            set_={"kept": ins.excluded.kept, "updated_at": ins.excluded.updated_at},
        )
    )
