"""Hands: dealing one, its action log (appended with group commit), its settlement, its abort."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Optional, Sequence

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .base import _A, _H, _P, _T, _int64
from .ratings import Decide, Rate, rate_in
from .database import Append, Database
from .records import (
    ActionConflict,
    HandInProgress,
    HandNotPlaying,
    HandRecord,
    NotFound,
    SettlementRecord,
    StoreError,
    TableClosed,
    _hand_record,
    _settlement_record,
)
from .matches import end_match_in
from .streaks import checked_streaks, put_streak
from .tallies import PlayerTally, add_in
from .tables import check_table_fields, update_table_row


class Hands:
    """Hands, actions and settlements of a store (a settlement also writes its table's fields
    and the players' 连庄 counts, in its transaction)."""

    def __init__(self, db: Database):
        self.db = db

    async def start_hand(
        self,
        *,
        table_id: int,
        hand_no: int,
        seed: int,
        variant: str,
        options: dict,
        dealer: int,
        seats: list[dict],
        context: dict | None = None,
        table_updates: Optional[dict] = None,
    ) -> int:
        """Record a new ``'playing'`` hand and return its id.

        :param seed: the hand's seed (signed 64-bit).
        :param context: the match context the hand was dealt with (dealer streak, hand number,
            a variant's carried facts), so replays rebuild exactly this hand.
        :param seats: JSON-serializable descriptions of the seats (e.g. user ids and names by
            seat), stored as given.
        :param table_updates: fields for :meth:`update_table` on the table (the match state and
            hand number the deal leaves; at the first deal its ``'playing'`` status), written in
            the same transaction: a deal is one transaction.
        :raises NotFound: no such table.
        :raises TableClosed: the table is closed.
        :raises HandInProgress: the table has a ``'playing'`` hand (finish or abort it first).
        """
        _int64("seed", seed)
        now = self.db.now()
        values = check_table_fields(table_updates or {})
        try:
            async def _job(conn: AsyncConnection) -> Any:
                status = await conn.scalar(select(_T.c.status).where(_T.c.id == table_id))
                if status is None:
                    raise NotFound(f"table {table_id}")
                if status == "closed":
                    raise TableClosed(f"table {table_id} is closed")
                playing = await conn.scalar(
                    select(_H.c.id).where(_H.c.table_id == table_id, _H.c.status == "playing")
                )
                if playing is not None:
                    raise HandInProgress(table_id, playing)
                hand_id = await conn.scalar(
                    insert(_H)
                    .values(
                        table_id=table_id,
                        hand_no=hand_no,
                        seed=seed,
                        variant=variant,
                        options=dict(options),
                        dealer=dealer,
                        seats=list(seats),
                        context=dict(context or {}),
                        status="playing",
                        result=None,
                        started_at=now,
                        ended_at=None,
                    )
                    .returning(_H.c.id)
                )
                if values:
                    await update_table_row(conn, table_id, values, now)
                return hand_id

            hand_id = await self.db.submit(_job)
        except IntegrityError as exc:
            raise HandInProgress(table_id, None) from exc
        return int(hand_id)

    async def append_action(self, hand_id: int, idx: int, text: str) -> None:
        """Append action ``idx`` of a hand; committed when the call returns.

        ``idx`` must be the next index (0 for the first action, then 1, 2, …).  Same as
        ``append_actions(hand_id, idx, [text])``.

        :param text: the action's text form (as the engine prints and parses it).
        :raises ActionConflict: ``idx`` is already stored (also when two writers race, via the
            ``(hand_id, idx)`` primary key) or leaves a gap.
        :raises HandNotPlaying: the hand is done or aborted.
        :raises NotFound: no such hand.
        """
        await self.append_actions(hand_id, idx, [text])

    async def append_actions(self, hand_id: int, idx: int, texts: Sequence[str]) -> None:
        """Append actions ``idx, idx+1, …`` of a hand, all or none; committed when the call
        returns.

        Group commit: appends that arrive while another batch is being written (other tables'
        actions) wait and go together into the next transaction, one commit (one fsync on
        SQLite) for all of them.  Each request is checked on its own (the hand is playing,
        ``idx`` is the next index) and fails on its own; a request is acknowledged (the call
        returns) only after the transaction holding it has committed.

        :param texts: the actions' text forms, in order (an empty list does nothing).
        :raises ActionConflict, HandNotPlaying, NotFound: as :meth:`append_action`, for the
            first action of ``texts``.
        """
        texts = [str(t) for t in texts]
        if not texts:
            return

        try:
            refused = await self.db.submit(None, (hand_id, idx, texts))
        except IntegrityError as exc:
            raise ActionConflict(hand_id, idx, None) from exc
        if refused is not None:
            raise refused

    async def finish_hand(
        self,
        hand_id: int,
        *,
        result: dict,
        settlements: Sequence[SettlementRecord],
        table_updates: Optional[dict] = None,
        streaks: Optional[Mapping[int, int]] = None,
        end_match: Optional[int] = None,
        actions: Optional[tuple[int, Sequence[str]]] = None,
        rate: Optional[tuple[Decide, Rate]] = None,
        tallies: Optional[Mapping[int, PlayerTally]] = None,
    ) -> Optional[int]:
        """Close a hand as ``'done'``, in one transaction with its last actions, settlements,
        table fields and players' 连庄 counts.

        :param result: the hand's result (JSON-serializable), stored on the hand.
        :param settlements: one per seat; ``hand_id``, ``table_id``, ``guild_id``, ``variant``
            and ``created_at`` are taken from the hand, its table and the clock.
        :param table_updates: fields for :meth:`update_table` on the hand's table (e.g.
            ``{"state": …, "hand_no": …}``), applied in the same transaction.
        :param streaks: ``{user_id: count}``: 连庄 counts to store for the hand's guild and game
            (see :meth:`set_streak`), in the same transaction, so a settled hand never goes
            without the count it leaves (nor the reverse).
        :param end_match: the match's planned hands when this hand ends the match: the table is
            closed and its match recorded (:meth:`end_match`) in the same transaction, so a
            restart never finds the last hand settled and the match still running.
        :param actions: ``(idx, texts)``: the hand's last actions, not yet stored, appended
            as :meth:`append_actions` would (``idx`` the next index) in the same transaction —
            so no stop leaves a hand whose stored log is finished but unsettled.
        :param rate: ``(decide, rate)``: when the table's hands since its last rated unit
            make a unit (``decide``, given them and whether this hand ends the match), its
            players are rated (``rate``) in the same transaction (``store.ratings.rate_in``).
        :param tallies: ``{user_id: PlayerTally}``: the hand's counts for each human player
            (``service.rates.hand_tallies``), added to their tally of the day in the same
            transaction (``store.tallies.add_in``).
        :returns: the id of the match this hand ended, ``None`` when it ended none.
        :raises HandNotPlaying: the hand is already done or aborted (nothing is written, so a
            retried call cannot settle a hand twice).
        :raises NotFound: no such hand.
        :raises ValueError: two settlements for the same seat.
        """
        values = check_table_fields(table_updates or {})
        counts = checked_streaks(streaks)
        seats = [s.seat for s in settlements]
        if len(set(seats)) != len(seats):
            raise ValueError(f"duplicate settlement seats {seats}")
        now = self.db.now()
        async def _job(conn: AsyncConnection) -> Any:
            hand = (
                await conn.execute(
                    select(_H.c.status, _H.c.table_id, _H.c.variant, _T.c.guild_id)
                    .join(_T, _T.c.id == _H.c.table_id)
                    .where(_H.c.id == hand_id)
                )
            ).first()
            if hand is None:
                raise NotFound(f"hand {hand_id}")
            if actions is not None and actions[1]:
                refused = (await append_batch(conn, [(hand_id, actions[0], [str(x) for x in actions[1]])], now))[0]
                if refused is not None:
                    raise refused
            # Conditional update: only one finisher can move the hand out of 'playing'.
            done = await conn.execute(
                update(_H)
                .where(_H.c.id == hand_id, _H.c.status == "playing")
                .values(status="done", result=dict(result), ended_at=now)
            )
            if done.rowcount != 1:
                raise HandNotPlaying(hand_id, hand.status)
            if settlements:
                await conn.execute(
                    insert(_P),
                    [
                        {
                            "hand_id": hand_id,
                            "table_id": hand.table_id,
                            "guild_id": hand.guild_id,
                            "user_id": s.user_id,
                            "name": s.name,
                            "is_ai": s.is_ai,
                            "variant": hand.variant,
                            "seat": s.seat,
                            "points": s.points,
                            "is_winner": s.is_winner,
                            "self_drawn": s.self_drawn,
                            "dealt_in": s.dealt_in,
                            "fan": s.fan,
                            "created_at": now,
                        }
                        for s in settlements
                    ],
                )
            if tallies:
                await add_in(conn, hand.guild_id, hand.variant, now.date(), tallies)
            if rate is not None:
                await rate_in(conn, hand.table_id, hand.guild_id, hand.variant, end_match is not None, *rate, now)
            if values:
                await update_table_row(conn, hand.table_id, values, now)
            for user_id, kept in counts.items():
                await put_streak(conn, hand.guild_id, hand.variant, user_id, kept, now)
            if end_match is not None:
                return await end_match_in(conn, hand.table_id, end_match, now)
            return None

        return await self.db.submit(_job)

    async def abort_hand(self, hand_id: int) -> None:
        """Mark a ``'playing'`` hand ``'aborted'`` (no settlements).  No-op if already aborted.

        :raises HandNotPlaying: the hand is done.
        :raises NotFound: no such hand.
        """
        async def _job(conn: AsyncConnection) -> Any:
            status = await conn.scalar(select(_H.c.status).where(_H.c.id == hand_id))
            if status is None:
                raise NotFound(f"hand {hand_id}")
            if status == "aborted":
                return
            if status != "playing":
                raise HandNotPlaying(hand_id, status)
            await conn.execute(
                update(_H)
                .where(_H.c.id == hand_id, _H.c.status == "playing")
                .values(status="aborted", ended_at=self.db.now())
            )

        await self.db.submit(_job)

    async def get_hand(self, hand_id: int) -> HandRecord:
        """Return a hand with its actions (index order) and settlements (seat order).

        :raises NotFound: no such hand.
        """
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(select(_H).where(_H.c.id == hand_id))).first()
            if row is None:
                raise NotFound(f"hand {hand_id}")
            acts = (
                await conn.scalars(
                    select(_A.c.text).where(_A.c.hand_id == hand_id).order_by(_A.c.idx)
                )
            ).all()
            sets = (
                await conn.execute(
                    select(_P).where(_P.c.hand_id == hand_id).order_by(_P.c.seat)
                )
            ).all()
        return _hand_record(row, acts, [_settlement_record(s) for s in sets])


async def append_batch(conn: AsyncConnection, requests: list[Append], now: datetime) -> list[Optional[StoreError]]:
    """Check and insert action appends in the batch's transaction: one query reads the
    status and next index of every hand concerned, one multi-row INSERT stores the accepted
    ones.  Returns each request's refusal (not raised, so the other requests stay in the
    transaction) or ``None``.  A writer of another process racing for the same index is
    stopped by the ``(hand_id, idx)`` primary key (the batch rolls back and is retried)."""
    hand_ids = sorted({h for h, _, _ in requests})
    state: dict[int, list] = {}
    for k in range(0, len(hand_ids), 500):
        chunk = hand_ids[k : k + 500]
        next_idx = (
            select(func.coalesce(func.max(_A.c.idx) + 1, 0))
            .where(_A.c.hand_id == _H.c.id)
            .scalar_subquery()
        )
        rows = await conn.execute(
            select(_H.c.id, _H.c.status, next_idx).where(_H.c.id.in_(chunk))
        )
        for hid, status, nxt in rows:
            state[hid] = [status, int(nxt)]
    rows_out: list[dict[str, Any]] = []
    refusals: list[Optional[StoreError]] = []
    for hand_id, idx, texts in requests:
        st = state.get(hand_id)
        if st is None:
            refusals.append(NotFound(f"hand {hand_id}"))
        elif st[0] != "playing":
            refusals.append(HandNotPlaying(hand_id, st[0]))
        elif st[1] != idx:
            refusals.append(ActionConflict(hand_id, idx, st[1]))
        else:
            rows_out.extend(
                {"hand_id": hand_id, "idx": idx + k, "text": t, "created_at": now}
                for k, t in enumerate(texts)
            )
            st[1] = idx + len(texts)
            refusals.append(None)
    if rows_out:
        await conn.execute(insert(_A), rows_out)
    return refusals
