"""Imported hands: a game record read from a file (``service.record_file``), stored so that it
can be replayed, and counted nowhere.

An import is one transaction that writes a table already ``'closed'`` (its ``state`` says
``{"imported": …}``: the record's format and version, and the settlements the file gave) and
its hands as ``'done'`` with their action logs and results — but **no settlement rows**.  The
scores, leaderboards, histories, statistics, rates, best hands, ratings (live and rebuilt),
连庄 counts and matches are all read from settlement rows (or written with them), so an
imported hand is in none of them; it is found by its id (``get_hand``, ``/mj replay``,
``/mj verify``) and in the guild's finished hands (``Scores.finished_hands``).  No schema
change: the ``imported`` key of the table's state is the mark.
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _A, _H, _T, _int64
from .database import Database

#: the key of a table's ``state`` that marks its hands as imported
IMPORTED = "imported"


class Imports:
    """Storing imported hands (the store's part for them)."""

    def __init__(self, db: Database):
        self.db = db

    async def import_hands(self, *, guild_id: int, channel_id: int, creator_id: int, variant: str, lang: str,
                           mark: dict, hands: Sequence[dict]) -> tuple[int, list[int]]:
        """Store imported hands under a new closed table of ``guild_id`` (one transaction).

        :param mark: what the table's ``state["imported"]`` keeps (JSON object: e.g. the
            record's format and version, and ``settlements`` by hand).
        :param hands: each ``{"hand_no", "seed", "options", "dealer", "seats", "context",
            "result", "actions"}`` (``actions``: the texts in order), in the order dealt.
        :returns: ``(table id, [hand id, …])`` in the order given.
        :raises ValueError: no hands; :raises TypeError, ValueError: an id or seed that is not
            a 64-bit int.
        """
        for name, value in (("guild_id", guild_id), ("channel_id", channel_id), ("creator_id", creator_id)):
            _int64(name, value)
        if not hands:
            raise ValueError("no hands to import")
        for h in hands:
            _int64("seed", h["seed"])
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> Any:
            table_id = await conn.scalar(insert(_T).values(
                guild_id=guild_id, channel_id=channel_id, creator_id=creator_id, variant=variant,
                options=dict(hands[0]["options"]), status="closed", message_id=None, seed=hands[0]["seed"],
                hand_no=max(h["hand_no"] for h in hands) + 1, lang=lang, state={IMPORTED: dict(mark)},
                created_at=now, updated_at=now).returning(_T.c.id))
            ids = []
            for h in hands:
                hand_id = await conn.scalar(insert(_H).values(
                    table_id=table_id, hand_no=h["hand_no"], seed=h["seed"], variant=variant,
                    options=dict(h["options"]), dealer=h["dealer"], seats=list(h["seats"]),
                    context=dict(h["context"]), status="done", result=dict(h["result"]), started_at=now,
                    ended_at=now).returning(_H.c.id))
                if h["actions"]:
                    await conn.execute(insert(_A), [{"hand_id": hand_id, "idx": k, "text": str(t), "created_at": now}
                                                    for k, t in enumerate(h["actions"])])
                ids.append(int(hand_id))
            return int(table_id), ids

        return await self.db.submit(_job)


__all__ = ["IMPORTED", "Imports"]
