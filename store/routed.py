"""Clicks routed between the processes of a sharded bot: the ``routed_action`` rows (revision
``0004_routed_action``; ``hand_id`` since ``0006_routed_hand``).

A process that receives a click for a table another process owns stores it with the owner's
shard (:meth:`RoutedActions.add_routed_action`); the owner takes the rows of its shards
(:meth:`RoutedActions.claim_routed_actions`), each deleted as it is taken, so a click is applied
at most once even if two pollers race.  Which shard owns which guild, and the polling, are the
service's (:mod:`service.routing`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Optional

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from .models import RoutedActionRow
from .database import Database

__all__ = ["RoutedAction", "RoutedActions"]

_R = RoutedActionRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class RoutedAction:
    """A stored click (see :class:`store.models.RoutedActionRow` for the fields)."""

    id: int
    shard: int
    token: str
    application_id: int
    user_id: int
    channel_id: int
    message_id: Optional[int]
    action: str
    tile: str
    seq: int
    locale: str
    created_at: datetime
    hand_id: Optional[int] = None


class RoutedActions:
    """Routed clicks of a store."""

    def __init__(self, db: Database):
        self.db = db

    async def add_routed_action(self, *, shard: int, token: str, application_id: int, user_id: int,
                                channel_id: int, message_id: Optional[int], action: str, tile: str,
                                seq: int, locale: str = "zh", hand_id: Optional[int] = None) -> int:
        """Store a click for the process that runs ``shard``; returns the row id.  Committed when
        the call returns.  ``action``, ``tile`` and ``locale`` are cut to their columns (32, 16
        and 16 characters)."""
        values = dict(shard=shard, token=token,
                      application_id=application_id, user_id=user_id, channel_id=channel_id,
                      message_id=message_id, action=action[:32], tile=tile[:16], seq=seq, locale=locale[:16],
                      created_at=self.db.now(), hand_id=hand_id)

        async def job(conn: AsyncConnection) -> Any:
            return await conn.scalar(insert(_R).values(**values).returning(_R.c.id))

        return int(await self.db.submit(job))

    async def claim_routed_actions(self, shards: Iterable[int], limit: int = 100) -> list[RoutedAction]:
        """Take (delete) up to ``limit`` stored clicks of ``shards``, oldest first.  A row is
        returned to exactly one claimer."""
        shards = list(shards)

        async def job(conn: AsyncConnection) -> Any:
            rows = (await conn.execute(
                select(_R).where(_R.c.shard.in_(shards)).order_by(_R.c.id).limit(limit))).all()
            taken = []
            for r in rows:
                gone = await conn.execute(delete(_R).where(_R.c.id == r.id))
                if gone.rowcount == 1:
                    taken.append(RoutedAction(**{k: getattr(r, k) for k in RoutedAction.__dataclass_fields__}))
            return taken

        return await self.db.submit(job)

    async def count_routed_actions(self, shards: Iterable[int] | None = None) -> int:
        """How many clicks wait (for ``shards``, default every shard)."""
        async with self.db.read() as conn:
            q = select(_R.c.id)
            if shards is not None:
                q = q.where(_R.c.shard.in_(list(shards)))
            return len((await conn.execute(q)).all())
