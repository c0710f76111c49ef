"""Small named values the bot keeps between starts (``bot_state``), such as the hash of the
slash commands last synced to Discord.
"""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _B
from .database import Database


class NamedValues:
    """Named values of a store (one ``bot_state`` row each)."""

    def __init__(self, db: Database):
        self.db = db

    async def get_state(self, key: str) -> Optional[str]:
        """The value stored under ``key``; ``None`` when there is none."""
        async with self.db.read() as conn:
            return await conn.scalar(select(_B.c.value).where(_B.c.key == _key(key)))

    async def states(self, prefix: str) -> dict[str, str]:
        """Every value whose key starts with ``prefix``: ``{key: value}`` (one query)."""
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        async with self.db.read() as conn:
            rows = await conn.execute(select(_B.c.key, _B.c.value).where(_B.c.key.like(escaped + "%", escape="\\")))
            return {k: v for k, v in rows}

    async def set_state(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` (the last write wins).

        :raises TypeError: ``key`` or ``value`` is not a str; :raises ValueError: ``key`` is
            empty or longer than 128 characters.
        """
        key = _key(key)
        if not isinstance(value, str):
            raise TypeError("a state value is a str")
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> Any:
            ins = (sqlite_insert if self.db.is_sqlite else pg_insert)(_B).values(key=key, value=value, updated_at=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=[_B.c.key], set_={"value": ins.excluded.value, "updated_at": ins.excluded.updated_at}))

        await self.db.submit(_job)


    async def next_start(self) -> int:
        """Count one more start of the bot and return the count (1 for the first start): one
        write transaction that reads and increments the stored count (``bot_state`` key
        ``starts``).  Versions of what the bot publishes begin with it, so they grow across
        restarts."""
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> Any:
            raw = await conn.scalar(select(_B.c.value).where(_B.c.key == "starts"))
            try:
                n = int(raw or 0) + 1
            except ValueError:
                n = 1
            ins = (sqlite_insert if self.db.is_sqlite else pg_insert)(_B).values(key="starts", value=str(n),
                                                                              updated_at=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=[_B.c.key], set_={"value": ins.excluded.value, "updated_at": ins.excluded.updated_at}))
            return n

        return await self.db.submit(_job)


def _key(key: str) -> str:
    if not isinstance(key, str):
        raise TypeError("a state key is a str")
    if not 0 < len(key) <= 128:
        raise ValueError("a state key has 1 to 128 characters")
    return key
