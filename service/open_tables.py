"""The open tables of this process, by channel: finding the one a request means, the one check
of who may act at it, keeping its seats and closing it — the part of the table service every
other part is given."""

from __future__ import annotations

from typing import Optional

from store import Store

from .table import CLOSED, PLAYING, ServiceError, Table


class OpenTables:
    """The open tables of this process (:attr:`tables`, by channel id).

    :param store: where a table's seats and its closing are written."""

    def __init__(self, store: Store):
        self.store = store
        #: channel id -> its open table (a closed table is dropped at once)
        self.tables: dict[int, Table] = {}

    def add(self, t: Table) -> None:
        """Run ``t`` in this process (opened, or rebuilt from the store)."""
        self.tables[t.channel_id] = t

    def get(self, channel_id: int) -> Optional[Table]:
        """The channel's table, or ``None``."""
        return self.tables.get(channel_id)

    def all(self) -> list[Table]:
        """Every table of this process, in the order they were opened or rebuilt."""
        return list(self.tables.values())

    def table_in(self, channel_id: int) -> Table:
        """The open table of a channel; :class:`ServiceError` ``no_table`` (``channel``: the
        channel asked about) if none."""
        t = self.tables.get(channel_id)
        if t is None or t.status == CLOSED:
            raise ServiceError("no_table", channel=channel_id)
        return t

    async def stored_guild_of(self, channel_id: int) -> Optional[int]:
        """The server of the open table of a channel as the store knows it (a table another
        process runs, sharded), or ``None``."""
        rec = await self.store.get_open_table(channel_id)
        return None if rec is None else rec.guild_id

    def tables_of_user(self, user_id: int) -> list[Table]:
        """The open tables where ``user_id`` sits."""
        return [t for t in self.tables.values() if t.status != CLOSED and t.seat_of(user_id) is not None]

    def table_for_user(self, user_id: int) -> Table:
        """The table a player means when they act outside a table's channel (a command typed
        in a DM): their only table, else the one table where they may act now.

        :raises ServiceError: ``no_table_dm`` (seated nowhere); ``which_table`` with
            ``channels`` (mentions of the candidate channels) when several tables fit."""
        tables = self.tables_of_user(user_id)
        if not tables:
            raise ServiceError("no_table_dm")
        if len(tables) == 1:
            return tables[0]
        acting = [t for t in tables if t.hand is not None and not t.hand.is_over()
                  and t.seat_of(user_id) in t.hand.pending_seats()]
        if len(acting) == 1:
            return acting[0]
        raise ServiceError("which_table", channels=", ".join(f"<#{t.channel_id}>" for t in (acting or tables)))

    def may_act(self, table: Table, user_id: int, *, hand_id: Optional[int] = None, seq: Optional[int] = None,
                waited: bool = True) -> int:
        """The one check of "may this user act now" (every command, button, menu and routed
        click goes through it); returns the user's seat.

        :param hand_id: the stored id of the hand the request was drawn for (buttons carry
            it); another hand's: ``stale``.
        :param seq: the decision the request was drawn for (``Table.decisions``: the number
            of the seat's current decision); another, or a seat the hand no longer waits for:
            ``stale``.
        :param waited: the seat must be one the hand waits for (``not_your_turn`` otherwise);
            ``False`` for requests that only look (the hand, the 听 menu).
        :raises ServiceError: ``not_seated``, ``no_hand``, ``stale``, ``not_your_turn``,
            ``on_auto`` (the seat is on 托管: take it over first).
        """
        table.check_open()
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_seated")
        hand = table.hand
        if hand_id is not None and hand_id != table.hand_id:
            raise ServiceError("stale")
        if hand is None or hand.is_over():
            raise ServiceError("no_hand")
        if seq is not None and (seat not in hand.pending_seats() or seq != table.decisions.get(seat)):
            raise ServiceError("stale")
        if waited and seat not in hand.pending_seats():
            if table.seats[seat].auto:
                raise ServiceError("on_auto")
            raise ServiceError("not_your_turn")
        return seat

    async def save_seats(self, t: Table) -> None:
        """Store ``t``'s seats as they are now."""
        await self.store.set_seats(t.id, t.seat_records())

    async def close(self, t: Table) -> None:
        """Close the table; a game that settled hands ends its match with the closing, in one
        transaction (``Table.match_id``: its final standings are shown)."""
        if t.status == PLAYING:
            t.match_id = await self.store.end_match(t.id, hands_planned=t.match_hands)
        else:
            await self.store.update_table(t.id, status=CLOSED)
        t.status = CLOSED
        t.deadline = t.next_hand_at = None
        self.tables.pop(t.channel_id, None)

    def drop(self, t: Table) -> None:
        """Forget a table the store closed already (its match's last hand was settled)."""
        self.tables.pop(t.channel_id, None)


__all__ = ["OpenTables"]
