"""What the front ends ask of the table service besides moves: the latest snapshot of a table
(look-only requests: ``/mj hand``, **My hand**, a redraw after a restart), the one check of who
may act, and the little they keep with a table — the public message's id, the channel's name,
whether a player's DMs are open, and their own per-message memory (``front_memory``).

None of it hands out the service's ``Table``: the front ends get snapshots
(``service/snapshot.py``) and ids.
"""

from __future__ import annotations

import json
import logging
from typing import Optional

from store import Store

from .open_tables import OpenTables
from .publisher import Publisher
from .snapshot import TableSnapshot
from .table import CLOSED, Update

log = logging.getLogger("service.tables")

#: the stored key of a table's front-end memory
MEMORY_KEY = "front:{table}"
#: the key each seat's memory had before it was one value per table (read once, then replaced)
LEGACY_SEAT_KEY = "seat-messages:{table}:{seat}"


class FrontEnds:
    """What the front ends read and keep.

    :param store: where the table's message, the seats' open DMs and the front ends' memory
        are kept.
    :param tables: the open tables.
    :param publisher: their snapshots (and the redraws these changes publish).
    """

    def __init__(self, store: Store, tables: OpenTables, publisher: Publisher):
        self.store = store
        self.tables = tables
        self.publisher = publisher

    def snapshot(self, channel_id: int) -> TableSnapshot:
        """The latest snapshot of the open table of a channel; ``no_table`` if none."""
        return self.publisher.snapshot_of(self.tables.table_in(channel_id))

    def find_snapshot(self, channel_id: int) -> Optional[TableSnapshot]:
        """The latest snapshot of a channel's open table, or ``None``."""
        t = self.tables.get(channel_id)
        return None if t is None or t.status == CLOSED else self.publisher.snapshot_of(t)

    def snapshot_for_user(self, user_id: int) -> TableSnapshot:
        """The snapshot of the table a player means outside a table's channel
        (:meth:`table_for_user`: ``no_table_dm``, ``which_table``)."""
        return self.publisher.snapshot_of(self.tables.table_for_user(user_id))

    def snapshots(self) -> list[TableSnapshot]:
        """The latest snapshot of every open table of this process."""
        return [self.publisher.snapshot_of(t) for t in self.tables.all() if t.status != CLOSED]

    def check(self, channel_id: int, user_id: int, *, hand_id: Optional[int] = None, seq: Optional[int] = None,
              waited: bool = True) -> tuple[TableSnapshot, int]:
        """``(snapshot, seat)`` when ``user_id`` may act at the channel's table now — the one
        check of :meth:`may_act` (every command, button, menu and routed click asks it)."""
        t = self.tables.table_in(channel_id)
        seat = self.tables.may_act(t, user_id, hand_id=hand_id, seq=seq, waited=waited)
        return self.publisher.snapshot_of(t), seat

    def is_open(self, channel_id: int) -> bool:
        """Whether this process runs an open table in the channel."""
        t = self.tables.get(channel_id)
        return t is not None and t.status != CLOSED

    def is_seated(self, channel_id: int, user_id: int) -> bool:
        """Whether ``user_id`` sits at the channel's open table."""
        t = self.tables.get(channel_id)
        return t is not None and t.status != CLOSED and t.seat_of(user_id) is not None

    # ------------------------------------------------------------------ what front ends keep
    async def set_dms_open(self, channel_id: int, seat: int, dms_open: bool) -> None:
        """Remember (and persist) whether the bot can DM a seat's player (a 50007 closes it)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            if seat < len(t.seats) and t.seats[seat].dms_open != dms_open:
                t.seats[seat].dms_open = dms_open
                await self.tables.save_seats(t)
                self.publisher.publish(t, Update("redraw", hand_id=t.hand_id))

    async def set_message(self, channel_id: int, message_id: Optional[int]) -> None:
        """Remember (and persist) the public table message that a front end edits in place."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        t.message_id = message_id
        await self.store.update_table(t.id, message_id=message_id)

    async def note_channel_name(self, channel_id: int, name: Optional[str]) -> None:
        """The channel's name as the front end knows it (a table resumed after a restart
        learns it from the next interaction); shown in the table's images from the next
        snapshot on."""
        t = self.tables.get(channel_id)
        if t is None or not name or t.channel_name == name:
            return
        async with t.lock:
            t.channel_name = str(name)
            if t.status != CLOSED:
                self.publisher.publish(t, Update("redraw", hand_id=t.hand_id))

    async def front_memory(self, table_id: int, seats: int = 0) -> dict:
        """What a front end keeps of a table's messages (``{}`` when nothing is kept), so a
        restarted bot edits and deletes the same messages; JSON.  Memory kept per seat by an
        earlier version (``seats``: how many to look for) is read into ``{"seats": {seat: …}}``."""
        raw = await self.store.get_state(MEMORY_KEY.format(table=table_id))
        if raw:
            try:
                return json.loads(raw)
            except ValueError:
                log.warning("table %s: unreadable front-end memory; forgotten", table_id)
                return {}
        out: dict = {}
        for seat in range(seats):
            old = await self.store.get_state(LEGACY_SEAT_KEY.format(table=table_id, seat=seat))
            try:
                kept = json.loads(old) if old else None
            except ValueError:
                kept = None
            if kept:
                out.setdefault("seats", {})[str(seat)] = kept
        return out

    async def set_front_memory(self, table_id: int, data: dict) -> None:
        """Keep ``data`` (JSON-able) as the table's front-end memory (one write)."""
        await self.store.set_state(MEMORY_KEY.format(table=table_id), json.dumps(data, sort_keys=True))

    async def announce(self, channel_id: int) -> None:
        """Tell the front ends about a table as it is now (after a restart): they redraw it and
        send what the stopped process had not (``Change`` kind ``"resume"``)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            change = self.publisher.publish(t, Update("resume", seats_to_notify=set(range(len(t.seats))), hand_id=t.hand_id))
        await self.publisher.notify(change)


__all__ = ["FrontEnds", "MEMORY_KEY"]
