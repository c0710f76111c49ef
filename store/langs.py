"""Each player's language: one ``player_lang`` row per Discord user, the catalogue language
(``zh-CN``, ``zh-TW`` or ``en``) of their last interaction.
"""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _L, _int64
from .database import Database


class Langs:
    """The players' languages of a store."""

    def __init__(self, db: Database):
        self.db = db

    async def get_langs(self, user_ids: Iterable[int]) -> dict[int, str]:
        """``{user id: language}`` of the given users that have one stored (others left out)."""
        ids = sorted({_int64("user_id", u) for u in user_ids})
        if not ids:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute(select(_L.c.user_id, _L.c.lang).where(_L.c.user_id.in_(ids)))
            return {int(r.user_id): str(r.lang) for r in rows}

    async def set_lang(self, user_id: int, lang: str) -> None:
        """Store ``lang`` as the language of ``user_id`` (the last write wins).

        :raises ValueError: ``lang`` is empty or longer than 16 characters, or ``user_id`` is
            outside 64 bits; :raises TypeError: ``lang`` is not a str.
        """
        _int64("user_id", user_id)
        if not isinstance(lang, str):
            raise TypeError("a language is a str")
        if not 0 < len(lang) <= 16:
            raise ValueError("a language has 1 to 16 characters")
        now = self.db.now()

        async def _job(conn: AsyncConnection) -> Any:
            ins = (sqlite_insert if self.db.is_sqlite else pg_insert)(_L).values(user_id=user_id, lang=lang,
                                                                               updated_at=now)
            await conn.execute(ins.on_conflict_do_update(
                index_elements=[_L.c.user_id], set_={"lang": ins.excluded.lang, "updated_at": ins.excluded.updated_at}))

        await self.db.submit(_job)
