"""Tables and their seats: opening, updating and closing a table, the seat list, what each seat
was last prompted for, and every open table with its hand for a restart.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Mapping, Optional, Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _A, _H, _S, _T, _int64
from .models import OPEN_TABLE_STATUSES, TABLE_STATUSES
from .records import (
    HandRecord,
    NotFound,
    OpenTable,
    SeatRecord,
    TableExists,
    TableRecord,
    _hand_record,
    _seat_record,
    _table_record,
)
from .database import Database

_TABLE_FIELDS = {
    "status",
    "message_id",
    "hand_no",
    "state",
    "options",
    "seed",
    "variant",
    "lang",
    "creator_id",
}
_INT64_FIELDS = {"message_id", "seed", "creator_id"}


def check_table_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - _TABLE_FIELDS
    if unknown:
        raise TypeError(f"unknown table field(s): {', '.join(sorted(unknown))}")
    values = dict(fields)
    if "status" in values and values["status"] not in TABLE_STATUSES:
        raise ValueError(f"table status must be one of {TABLE_STATUSES}, got {values['status']!r}")
    for name in _INT64_FIELDS & set(values):
        if not (name == "message_id" and values[name] is None):
            _int64(name, values[name])
    for name in ("state", "options"):
        if name in values and not isinstance(values[name], dict):
            raise TypeError(f"{name} must be a dict")
    return values


class Tables:
    """Tables and seats of a store."""

    def __init__(self, db: Database):
        self.db = db

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        variant: str,
        options: dict,
        seed: int,
        lang: str = "zh",
        state: Optional[dict] = None,
    ) -> int:
        """Open a table in ``'lobby'`` status and return its id.

        :param options: variant options (JSON-serializable dict).
        :param state: the table's first ``state`` (JSON object; ``{}`` by default).
        :param seed: table seed, must fit a signed 64-bit integer (e.g. ``getrandbits(63)``).
        :raises TableExists: the channel already has a ``'lobby'``/``'playing'`` table (checked
            in the transaction; a concurrent creator is stopped by the partial unique index).
        :raises ValueError/TypeError: an id or the seed is not a 64-bit int.
        """
        for name, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("creator_id", creator_id),
            ("seed", seed),
        ):
            _int64(name, value)
        now = self.db.now()
        try:
            async def _job(conn: AsyncConnection) -> Any:
                existing = await conn.scalar(
                    select(_T.c.id).where(
                        _T.c.channel_id == channel_id, _T.c.status.in_(OPEN_TABLE_STATUSES)
                    )
                )
                if existing is not None:
                    raise TableExists(channel_id)
                table_id = await conn.scalar(
                    insert(_T)
                    .values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        creator_id=creator_id,
                        variant=variant,
                        options=dict(options),
                        status="lobby",
                        message_id=None,
                        seed=seed,
                        hand_no=0,
                        lang=lang,
                        state=dict(state or {}),
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(_T.c.id)
                )
                return table_id

            table_id = await self.db.submit(_job)
        except IntegrityError as exc:
            raise TableExists(channel_id) from exc
        return int(table_id)

    async def get_table(self, table_id: int) -> TableRecord:
        """Return table ``table_id`` whatever its status.

        :raises NotFound: no such table.
        """
        async with self.db.read() as conn:
            row = (await conn.execute(select(_T).where(_T.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"table {table_id}")
        return _table_record(row)

    async def get_open_table(self, channel_id: int) -> Optional[TableRecord]:
        """Return the ``'lobby'``/``'playing'`` table of a channel, or ``None``."""
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(_T).where(
                        _T.c.channel_id == channel_id, _T.c.status.in_(OPEN_TABLE_STATUSES)
                    )
                )
            ).first()
        return None if row is None else _table_record(row)

    async def update_table(self, table_id: int, **fields: Any) -> TableRecord:
        """Set table fields and return the updated table; ``updated_at`` is set to now.

        Allowed fields: ``status``, ``message_id``, ``hand_no``, ``state``, ``options``,
        ``seed``, ``variant``, ``lang``, ``creator_id``.  Closing a table (``status='closed'``)
        also aborts its ``'playing'`` hand, if any, so no hand is left in play on a closed table.

        :raises TypeError: unknown field, or ``state``/``options`` not a dict.
        :raises ValueError: bad status or out-of-range id.
        :raises NotFound: no such table.
        :raises TableExists: re-opening a closed table in a channel that has another open one.
        """
        values = check_table_fields(fields)
        try:
            async def _job(conn: AsyncConnection) -> Any:
                return await update_table_row(conn, table_id, values, self.db.now())

            return await self.db.submit(_job)
        except IntegrityError as exc:
            raise TableExists(await self._channel_of(table_id)) from exc

    async def _channel_of(self, table_id: int) -> int:
        return (await self.get_table(table_id)).channel_id

    async def set_seats(self, table_id: int, seats: Iterable[SeatRecord]) -> None:
        """Replace the seat list of a table (and set its ``updated_at``).

        :raises NotFound: no such table.
        :raises ValueError: two seats with the same number.
        """
        seats = list(seats)
        numbers = [s.seat for s in seats]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"duplicate seat numbers in {numbers}")
        for s in seats:
            if s.user_id is not None:
                _int64("user_id", s.user_id)
        async def _job(conn: AsyncConnection) -> Any:
            found = await conn.scalar(
                update(_T)
                .where(_T.c.id == table_id)
                .values(updated_at=self.db.now())
                .returning(_T.c.id)
            )
            if found is None:
                raise NotFound(f"table {table_id}")
            await conn.execute(delete(_S).where(_S.c.table_id == table_id))
            if seats:
                await conn.execute(
                    insert(_S),
                    [
                        {
                            "table_id": table_id,
                            "seat": s.seat,
                            "user_id": s.user_id,
                            "name": s.name,
                            "is_ai": s.is_ai,
                            "dms_open": s.dms_open,
                            "auto": s.auto,
                            "prompted": s.prompted,
                            "left": s.left,
                            "ai_level": s.ai_level,
                        }
                        for s in seats
                    ],
                )

        await self.db.submit(_job)

    async def set_seat_prompted(self, table_id: int, seat: int, prompted: Optional[str]) -> None:
        """Record the last decision a seat was prompted for (``SeatRecord.prompted``); one
        UPDATE, committed when the call returns (no error when the seat is gone)."""
        async def _job(conn: AsyncConnection) -> Any:
            await conn.execute(update(_S).where(_S.c.table_id == table_id, _S.c.seat == seat)
                               .values(prompted=None if prompted is None else str(prompted)[:64]))

        await self.db.submit(_job)

    async def get_seats(self, table_id: int) -> tuple[SeatRecord, ...]:
        """Return the seats of a table in seat order (empty if none or no such table)."""
        async with self.db.read() as conn:
            rows = (
                await conn.execute(select(_S).where(_S.c.table_id == table_id).order_by(_S.c.seat))
            ).all()
        return tuple(_seat_record(r) for r in rows)

    async def load_open_tables(self, table_id: Optional[int] = None) -> list[OpenTable]:
        """Return every ``'lobby'``/``'playing'`` table for a restart, ordered by table id
        (with ``table_id``: only that table, if it is open — to rebuild one table).

        Each comes with its seats (seat order) and its ``'playing'`` hand, if any, whose
        ``actions`` hold the whole log in index order, ready to replay.  Four queries in total,
        whatever the number of tables.
        """
        where = [_T.c.status.in_(OPEN_TABLE_STATUSES)]
        if table_id is not None:
            where.append(_T.c.id == table_id)
        async with self.db.engine.connect() as conn:
            tables = (
                await conn.execute(
                    select(_T).where(*where).order_by(_T.c.id)
                )
            ).all()
            if not tables:
                return []
            ids = [t.id for t in tables]
            seat_rows = (
                await conn.execute(
                    select(_S).where(_S.c.table_id.in_(ids)).order_by(_S.c.table_id, _S.c.seat)
                )
            ).all()
            hand_rows = (
                await conn.execute(
                    select(_H)
                    .where(_H.c.table_id.in_(ids), _H.c.status == "playing")
                    .order_by(_H.c.id)
                )
            ).all()
            playing_tables = {h.table_id for h in hand_rows}
            between = [i for i in ids if i not in playing_tables]
            last_rows: Sequence[Any] = []
            if between:
                latest = (
                    select(func.max(_H.c.id))
                    .where(_H.c.table_id.in_(between), _H.c.status == "done")
                    .group_by(_H.c.table_id)
                )
                last_rows = (await conn.execute(select(_H).where(_H.c.id.in_(latest)))).all()
            hand_ids = [h.id for h in hand_rows] + [h.id for h in last_rows]
            action_rows = (
                (
                    await conn.execute(
                        select(_A.c.hand_id, _A.c.text)
                        .where(_A.c.hand_id.in_(hand_ids))
                        .order_by(_A.c.hand_id, _A.c.idx)
                    )
                ).all()
                if hand_ids
                else []
            )
        seats: dict[int, list[SeatRecord]] = {i: [] for i in ids}
        for r in seat_rows:
            seats[r.table_id].append(_seat_record(r))
        actions: dict[int, list[str]] = {i: [] for i in hand_ids}
        for r in action_rows:
            actions[r.hand_id].append(r.text)
        hands: dict[int, HandRecord] = {}
        for h in hand_rows:  # ordered by id: the latest playing hand wins
            hands[h.table_id] = _hand_record(h, actions[h.id])
        last = {h.table_id: _hand_record(h, actions[h.id]) for h in last_rows}
        return [
            OpenTable(table=_table_record(t), seats=tuple(seats[t.id]), hand=hands.get(t.id),
                      last_hand=last.get(t.id))
            for t in tables
        ]


async def update_table_row(conn: AsyncConnection, table_id: int, values: dict[str, Any], now: datetime) -> TableRecord:
    """Inside a write transaction: set ``values`` (checked by :func:`check_table_fields`) on a
    table; closing it aborts its playing hand.  :raises NotFound: no such table."""
    row = (
        await conn.execute(
            update(_T)
            .where(_T.c.id == table_id)
            .values(**values, updated_at=now)
            .returning(*_T.c)
        )
    ).first()
    if row is None:
        raise NotFound(f"table {table_id}")
    if values.get("status") == "closed":
        await conn.execute(
            update(_H)
            .where(_H.c.table_id == table_id, _H.c.status == "playing")
            .values(status="aborted", ended_at=now)
        )
    return _table_record(row)
