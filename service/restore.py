"""Tables resumed from the store after a restart, and a table rebuilt after a fault: the
restore part of the table service (``service/rebuild.py`` rebuilds one table)."""

from __future__ import annotations

from typing import Callable, Optional

from store import Store

from . import rates, ratings
from .clock import Clock
from .hands import Hands
from .langs import Langs
from .open_tables import OpenTables
from .publisher import Publisher
from .rebuild import needs_settling, table_from_store
from .snapshot import TableSnapshot
from .table import CLOSED, Update


class Restore:
    """Resuming the open tables of this process.

    :param store: the stored open tables, and this start's number.
    :param clock: ``now() -> float`` seconds: the timers restart in full.
    :param tables: where the resumed tables are kept.
    :param publisher: publishes each resumed table's snapshot; its versions continue from
        this start's number.
    :param hands: settles a hand whose last action was stored but not its settlement, and
        rebuilds a table after a fault.
    :param langs: the players' languages, read for the seated players.
    :param owns: ``owns(guild_id)``: the guilds whose tables this process runs (sharding);
        ``None``: every table.
    """

    def __init__(self, store: Store, clock: Clock, tables: OpenTables, publisher: Publisher, hands: Hands,
                 langs: Langs, owns: Optional[Callable[[int], bool]] = None):
        self.store = store
        self.clock = clock
        self.tables = tables
        self.publisher = publisher
        self.hands = hands
        self.langs = langs
        self.owns = owns

    async def load(self) -> list[TableSnapshot]:
        """Resume every open table from the database (after a restart) and return their
        snapshots: seats, match state, and the unfinished hand rebuilt by replaying its stored
        actions, the players' languages; timers restart in full.  A table whose last hand of a
        match is settled now closes instead (the front end posts the standings of every ended
        match not yet shown).  With ``owns`` set, only the tables of this process's guilds
        (shards).  First, when no rating is stored yet, the stored history is rated
        (``service.ratings.rebuild``), and when no tally is, tallied
        (``service.rates.rebuild_tallies``)."""
        await ratings.rebuild(self.store)  # a history stored before ratings is rated once
        await rates.rebuild_tallies(self.store)  # and tallied once
        loaded = []
        for ot in await self.store.load_open_tables():
            if self.owns is not None and not self.owns(ot.table.guild_id):
                continue  # another process (shard) runs this table
            t = await table_from_store(self.store, self.clock, ot)
            if t is not None and needs_settling(t):
                # stopped after the hand's last action was stored, before its settlement
                await self.hands.settle(t, Update("hand_over"))
            if t is None or t.status == CLOSED:
                continue  # closed by its last hand's settlement: its standings are posted as unposted
            self.tables.add(t)
            loaded.append(t)
        # the players' own languages, for their panels and notices (``service.langs``)
        await self.langs.load_langs(s.user_id for t in loaded for s in t.seats if not s.is_ai)
        self.publisher.generation = await self.store.next_start()
        for t in loaded:
            async with t.lock:
                self.publisher.publish(t, Update("resume", hand_id=t.hand_id))
        return [self.publisher.snapshot_of(t) for t in loaded]

    async def reload(self, channel_id: int) -> None:
        """Rebuild a channel's table from the store (after an unexpected error)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            await self.hands.reload(t)


__all__ = ["Restore"]
