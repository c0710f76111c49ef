"""What a player's rates are counted from (``docs/rates.md``): the finished hands a player sat
in as a human, with the player's settlement rows, and the action logs of chosen hands.
Read-only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Iterable, Optional

from sqlalchemy import select

from .base import _A, _H, _P, _int64
from .database import Database, utc
from .records import HandRecord, SettlementRecord, _hand_record, _settlement_record

#: most hand ids bound in one ``IN (…)`` of :meth:`Rates.hand_actions`
_CHUNK = 500


class Rates:
    """The reads behind a player's rates."""

    def __init__(self, db: Database):
        self.db = db

    async def rate_hands(
        self,
        guild_id: int,
        user_id: int,
        variant: Optional[str] = None,
        since: Optional[datetime] = None,
    ) -> list[HandRecord]:
        """The ``'done'`` hands of a guild in which ``user_id`` sat as a human (a settlement
        row with that user and ``is_ai`` false), oldest first (settlement time, then hand id).

        Each record carries the hand's columns (``result``, ``seed``, ``options``, ``dealer``,
        ``seats``, ``context``: enough for ``service.stored_hand.rebuild``) and in
        ``settlements`` only the player's own rows (one per seat the player held: normally
        one), but no actions (:meth:`hand_actions`).  Two indexed queries' worth of work: the
        settlement rows by ``(guild_id, user_id, variant)`` joined to their hands.

        :param variant: only hands of this game (``None``: every game).
        :param since: only hands settled at or after this time (the settlement's
            ``created_at``; UTC if naive), as :meth:`Store.stats` counts a period.
        :raises TypeError, ValueError: an id that is not a 64-bit int.
        """
        where = [_P.c.guild_id == _int64("guild_id", guild_id), _P.c.user_id == _int64("user_id", user_id)]
        if variant is not None:
            where.append(_P.c.variant == variant)
        if since is not None:
            where.append(_P.c.created_at >= utc(since))
        return await self._human_hands(where, (_P.c.created_at, _P.c.hand_id, _P.c.seat))

    async def human_hands(self, after: int = 0, limit: int = 2000) -> list[HandRecord]:
        """The next ``limit`` ``'done'`` hands of every guild with a human seat, by hand id from
        ``after`` (exclusive), each with its human settlement rows only (their ``guild_id`` and
        ``created_at`` filled) and no actions: what ``service.rates.rebuild_tallies`` reads, a
        page at a time."""
        ids = select(_P.c.hand_id).where(_P.c.hand_id > after, _P.c.user_id.is_not(None), _P.c.is_ai.is_(False)) \
            .group_by(_P.c.hand_id).order_by(_P.c.hand_id).limit(limit)
        return await self._human_hands([_P.c.hand_id.in_(ids)], (_P.c.hand_id, _P.c.seat))

    async def _human_hands(self, where: list, order: tuple) -> list[HandRecord]:
        """Done hands joined to their human settlement rows matching ``where``, in ``order``."""
        query = (
            select(_H, *[c.label("p_" + c.name) for c in _P.c])
            .join(_H, _H.c.id == _P.c.hand_id)
            .where(*where, _P.c.user_id.is_not(None), _P.c.is_ai.is_(False), _H.c.status == "done")
            .order_by(*order)
        )
        async with self.db.read() as conn:
            rows = (await conn.execute(query)).all()
        hands: dict[int, tuple[object, list[SettlementRecord]]] = {}
        for r in rows:
            own = _settlement_record(_Prefixed(r))
            if r.id in hands:
                hands[r.id][1].append(own)
            else:
                hands[r.id] = (r, [own])
        return [_hand_record(r, (), sets) for r, sets in hands.values()]

    async def hand_actions(self, hand_ids: Iterable[int]) -> dict[int, tuple[str, ...]]:
        """The action logs of the given hands: ``{hand id: action texts in index order}``
        (a hand without actions or unknown: ``()``).  One query per 500 ids."""
        ids = sorted(set(hand_ids))
        out: dict[int, list[str]] = {i: [] for i in ids}
        async with self.db.read() as conn:
            for k in range(0, len(ids), _CHUNK):
                part = ids[k:k + _CHUNK]
                rows = await conn.execute(
                    select(_A.c.hand_id, _A.c.text).where(_A.c.hand_id.in_(part)).order_by(_A.c.hand_id, _A.c.idx))
                for hand_id, text in rows:
                    out[hand_id].append(text)
        return {i: tuple(texts) for i, texts in out.items()}


class _Prefixed:
    """A joined row's settlement columns (labelled ``p_<name>``) read by their own names."""

    __slots__ = ("_row",)

    def __init__(self, row: object):
        self._row = row

    def __getattr__(self, name: str) -> object:
        return getattr(self._row, "p_" + name)


__all__ = ["Rates"]
