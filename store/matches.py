"""Matches: the end of a table's match (written with the table's closing, in one transaction),
its final standings, the message that showed them, and the matches of a player."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _H, _M, _P, _T, _int64
from .records import HandRecord, MatchRecord, NotFound, SettlementRecord, _hand_record, _match_record, _settlement_record
from .database import Database
from .tables import update_table_row


class Matches:
    """Ended matches of a store (one ``match`` row per table at most)."""

    def __init__(self, db: Database):
        self.db = db

    async def end_match(self, table_id: int, *, hands_planned: int = 0) -> Optional[int]:
        """Close a table and, when at least one of its hands was settled, record its match — one
        transaction (a ``'playing'`` hand is aborted with the closing).

        :param hands_planned: the table's ``match_hands`` (0: open-ended).
        :returns: the match id; the same id again when the match was recorded before (so a
            retried call cannot record it twice); ``None`` when no hand was settled.
        :raises NotFound: no such table.
        """
        async def _job(conn: AsyncConnection) -> Any:
            return await end_match_in(conn, table_id, hands_planned, self.db.now())

        return await self.db.submit(_job)

    async def get_match(self, match_id: int) -> MatchRecord:
        """One match; :raises NotFound: no such match."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(_M).where(_M.c.id == match_id))).first()
        if row is None:
            raise NotFound(f"match {match_id}")
        return _match_record(row)

    async def match_hands(self, table_id: int) -> list[HandRecord]:
        """The settled (``'done'``) hands of a table in the order they were dealt, with their
        settlements (seat order) but no actions."""
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(_H).where(_H.c.table_id == table_id, _H.c.status == "done")
                                       .order_by(_H.c.hand_no, _H.c.id))).all()
            sets = (await conn.execute(select(_P).where(_P.c.table_id == table_id)
                                       .order_by(_P.c.hand_id, _P.c.seat))).all()
        by_hand: dict[int, list[SettlementRecord]] = {r.id: [] for r in rows}
        for p in sets:
            if p.hand_id in by_hand:
                by_hand[p.hand_id].append(_settlement_record(p))
        return [_hand_record(r, (), by_hand[r.id]) for r in rows]

    async def set_match_standings(self, match_id: int, standings: dict) -> None:
        """Store a match's standings (JSON-serializable); the last write wins."""
        async def _job(conn: AsyncConnection) -> Any:
            await conn.execute(update(_M).where(_M.c.id == match_id).values(standings=dict(standings)))

        await self.db.submit(_job)

    async def set_match_message(self, match_id: int, message_id: int) -> None:
        """Remember the channel message that showed a match's standings."""
        _int64("message_id", message_id)

        async def _job(conn: AsyncConnection) -> Any:
            await conn.execute(update(_M).where(_M.c.id == match_id).values(message_id=message_id))

        await self.db.submit(_job)

    async def unposted_matches(self) -> list[MatchRecord]:
        """Ended matches whose standings message was not posted yet (``message_id`` NULL),
        oldest first."""
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(_M).where(_M.c.message_id.is_(None)).order_by(_M.c.id))).all()
        return [_match_record(r) for r in rows]

    async def player_matches(self, guild_id: int, user_id: int, limit: int = 5,
                             variant: Optional[str] = None) -> list[MatchRecord]:
        """The latest ended matches of a guild in which the user has a settlement, newest first."""
        where = [_M.c.guild_id == guild_id,
                 select(_P.c.id).where(_P.c.table_id == _M.c.table_id, _P.c.user_id == user_id).exists()]
        if variant is not None:
            where.append(_M.c.variant == variant)
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(_M).where(*where).order_by(_M.c.ended_at.desc(), _M.c.id.desc())
                                       .limit(limit))).all()
        return [_match_record(r) for r in rows]

    async def guild_matches(self, guild_id: int, limit: int = 25) -> list[MatchRecord]:
        """The latest ended matches of a guild, newest first."""
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(select(_M).where(_M.c.guild_id == guild_id)
                                       .order_by(_M.c.ended_at.desc(), _M.c.id.desc()).limit(limit))).all()
        return [_match_record(r) for r in rows]

    async def match_of_table(self, table_id: int) -> Optional[MatchRecord]:
        """The ended match of a table, or ``None``."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(_M).where(_M.c.table_id == table_id))).first()
        return None if row is None else _match_record(row)


async def end_match_in(conn: AsyncConnection, table_id: int, hands_planned: int, now: datetime) -> Optional[int]:
    """Inside a write transaction: close the table and record its match when at least one
    of its hands was settled.  Returns the match id (the existing one when the match was
    recorded before), ``None`` when no hand was settled."""
    table = (await conn.execute(select(_T.c.guild_id, _T.c.channel_id, _T.c.variant)
                                .where(_T.c.id == table_id))).first()
    if table is None:
        raise NotFound(f"table {table_id}")
    await update_table_row(conn, table_id, {"status": "closed"}, now)
    existing = await conn.scalar(select(_M.c.id).where(_M.c.table_id == table_id))
    if existing is not None:
        return int(existing)
    played, first = (await conn.execute(
        select(func.count(_H.c.id), func.min(_H.c.started_at))
        .where(_H.c.table_id == table_id, _H.c.status == "done"))).one()
    if not played:
        return None
    match_id = await conn.scalar(insert(_M).values(
        table_id=table_id, guild_id=table.guild_id, channel_id=table.channel_id, variant=table.variant,
        hands_planned=int(hands_planned), hands_played=int(played), started_at=first or now, ended_at=now,
        standings=None, message_id=None).returning(_M.c.id))
    return int(match_id)
