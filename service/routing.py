"""Sharding: which bot process owns a table, and clicks routed to it through the database.

With many guilds the bot runs as several processes, each connected to a range of Discord
shards (``SHARD_COUNT`` / ``SHARD_IDS``), all on one database.  A table belongs to the shard
of its guild — Discord's formula ``(guild_id >> 22) % shard_count`` — and only the process
running that shard loads it, times it and applies its actions (one ``asyncio.Lock`` per table
is only a lock inside one process).

Guild interactions arrive on the guild's shard, so at the owner.  Direct messages arrive on
shard 0, whatever the table: a button click in a DM for a table of another process is not
handled from the receiving process's memory (it has none of that table).  The receiver
acknowledges the interaction and stores the click as a ``routed_action`` row (migration
``0004_routed_action``, :mod:`store.routed`) with the owner's shard; the owner polls its
shards' rows (:meth:`Router.poll_once`, every ~200 ms), claims each row by deleting it (so a
click is applied at most once even if two pollers race), applies it through its ``TableService`` —
stored before it is acknowledged, as every action — and answers through the interaction's
token (editing the clicked message), which any process of the application may use.

Nothing here knows Discord: the front end gives :meth:`Router.poll_once` the handler that
applies a row and answers.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Awaitable, Callable, Iterable, Optional

from store import Store
from store.routed import RoutedAction

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events arrive on: ``(guild_id >> 22) % shard_count`` (Discord's
    formula); ``shard_count`` ≥ 1."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True)
class Sharding:
    """The shards one process runs.

    :ivar shard_count: shards of the whole bot (every process uses the same count).
    :ivar shard_ids: the shards this process connects; ``None``: all of them.
    """

    shard_count: int = 1
    shard_ids: Optional[tuple[int, ...]] = None

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        if self.shard_ids is not None:
            bad = [s for s in self.shard_ids if not 0 <= s < self.shard_count]
            if bad or not self.shard_ids:
                raise ValueError(f"shard ids {list(self.shard_ids)} not within 0..{self.shard_count - 1}")

    @classmethod
    def from_env(cls, count: Optional[str], ids: Optional[str]) -> Optional["Sharding"]:
        """``SHARD_COUNT`` / ``SHARD_IDS`` (``"0,1"``) values → a :class:`Sharding`, or ``None``
        when ``SHARD_COUNT`` is unset or empty (one process, no sharding).  ``ValueError`` on a
        malformed value."""
        if not count or not count.strip():
            return None
        shard_ids = tuple(int(x) for x in ids.split(",") if x.strip()) if ids and ids.strip() else None
        return cls(int(count), shard_ids)

    @property
    def mine(self) -> tuple[int, ...]:
        """The shards of this process."""
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    def owns(self, guild_id: Optional[int]) -> bool:
        """Does this process own the tables of ``guild_id``?  (``None``, a DM: shard 0.)"""
        return shard_of(guild_id or 0, self.shard_count) in self.mine


Handler = Callable[[RoutedAction], Awaitable[None]]


class Router:
    """Clicks between the processes of a sharded bot, through the shared database.

    :param store: the process's store (initialised; the schema has ``routed_action``).
    :param sharding: the shards of this process.
    """

    def __init__(self, store: Store, sharding: Sharding):
        self.store = store
        self.sharding = sharding
        self._task: Optional[asyncio.Task] = None

    async def submit(self, *, guild_id: int, token: str, application_id: int, user_id: int, channel_id: int,
                     message_id: Optional[int], action: str, tile: str, seq: int, locale: str = "zh",
                     hand_id: Optional[int] = None) -> int:
        """Store a click for the process that owns ``guild_id``'s shard; returns the row id.
        Committed when the call returns (the receiver acknowledged the interaction already)."""
        return await self.store.add_routed_action(
            shard=shard_of(guild_id, self.sharding.shard_count), token=token,
            application_id=application_id, user_id=user_id, channel_id=channel_id,
            message_id=message_id, action=action, tile=tile, seq=seq, locale=locale, hand_id=hand_id)

    async def claim(self, limit: int = 100) -> list[RoutedAction]:
        """Take (delete) up to ``limit`` stored clicks of this process's shards, oldest first.
        A row is returned to exactly one claimer."""
        return await self.store.claim_routed_actions(self.sharding.mine, limit)

    async def pending(self, shards: Iterable[int] | None = None) -> int:
        """How many clicks wait (for ``shards``, default every shard)."""
        return await self.store.count_routed_actions(shards)

    async def poll_once(self, handler: Handler) -> int:
        """Claim this process's waiting clicks and ``await handler(row)`` for each, in order;
        returns how many.  A handler that raises is logged; the click is not retried (its
        interaction is answered or has expired)."""
        rows = await self.claim()
        for row in rows:
            try:
                await handler(row)
            except Exception:
                log.exception("routed click %s failed", row.id)
        return len(rows)

    def start(self, handler: Handler, interval: float = 0.2) -> asyncio.Task:
        """Poll every ``interval`` seconds in a background task (cancel it to stop)."""

        async def loop() -> None:
            while True:
                try:
                    await self.poll_once(handler)
                except Exception:
                    log.exception("routing poll failed")
                await asyncio.sleep(interval)

        self._task = asyncio.get_running_loop().create_task(loop())
        return self._task

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


__all__ = ["shard_of", "Sharding", "Router", "RoutedAction"]
