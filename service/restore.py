"""Tables rebuilt from the store (after a restart or a fault), and what front ends keep with a table: the restore part of the table service"""

from __future__ import annotations

import logging
from typing import Optional

from engine.match import Match
from engine.variants import find_variant

from .table import (CLOSED, LOBBY, PLAYING, Seat, Table,
                    Update, public_log, replay)

log = logging.getLogger("service.tables")


class Restore:
    """Part of :class:`service.tables.TableService` (tables rebuilt from the store (after a restart or a fault), and what front ends keep with a table)."""

    # ------------------------------------------------------------------ restart
    async def _table_from_store(self, ot, settle: bool = True) -> Optional[Table]:
        """A :class:`Table` rebuilt from a stored open table (``Store.load_open_tables``):
        seats, match state, and the unfinished hand replayed from its stored log with the
        context it was dealt with.  ``None`` for an unknown variant."""
        rec = ot.table
        try:
            info = find_variant(rec.variant)
        except KeyError:
            log.error("table %s has unknown variant %s", rec.id, rec.variant)
            return None
        t = Table(rec.id, rec.guild_id, rec.channel_id, rec.creator_id, info, dict(rec.options), rec.seed,
                  lang=rec.lang, status=rec.status, message_id=rec.message_id)
        t.unix_time = getattr(self.clock, "unix_time", None)
        t.seats = [Seat(s.user_id, s.name, is_ai=s.is_ai, auto=s.auto, dms_open=s.dms_open, prompted=s.prompted,
                        left=s.left, ai_level=s.ai_level) for s in ot.seats]
        if rec.status == LOBBY:
            self._restore_lobby(t, (rec.state or {}).get("lobby"))
        if rec.status == PLAYING:
            await self._load_seat_changes(t)
            t.match = Match(info, t.options, t.seed, len(t.seats), state=dict(rec.state))
            if ot.hand is not None:
                t.hand_id = ot.hand.id
                t.dealt_users = [s.get("user_id") for s in ot.hand.seats]
                context = dict(ot.hand.context) if ot.hand.context else None
                t.hand, t.decisions = replay(t.match, list(ot.hand.actions), context)
                t.actions = list(ot.hand.actions)
                t.recent = public_log(t.hand)
                if t.hand.is_over():
                    if settle:
                        # stopped after the hand's last action was stored, before its settlement
                        await self._settle(t, Update("hand_over"))
                else:
                    self._arm_timer(t)
            elif ot.last_hand is not None and ot.last_hand.result is not None:
                # between hands: the result screen of the last hand, its timeout in full
                last = ot.last_hand
                t.hand, t.decisions = replay(t.match, list(last.actions), dict(last.context) or None, last.seed)
                t.hand_id, t.actions = last.id, list(last.actions)
                t.dealt_users = [s.get("user_id") for s in last.seats]
                t.recent = public_log(t.hand)
                t.last_result = dict(last.result)
                t.settled_hand_id = last.id
                t.next_hand_at = self.clock.now() + t.options.get("result_timeout", 30)
            else:
                t.next_hand_at = self.clock.now()
        return t

    def _restore_lobby(self, t: Table, kept: Optional[dict]) -> None:
        """A lobby's last change and minutes from its stored ``state`` (``Lobby._lobby_state``):
        the Unix time brought back to the clock's time.  A lobby stored without them (before
        lobbies expired) is idle from now."""
        now = self.clock.now()
        unix_time = getattr(self.clock, "unix_time", None)
        kept = kept if isinstance(kept, dict) else {}
        since, minutes = kept.get("since"), kept.get("minutes")
        if isinstance(minutes, int) and minutes > 0:
            t.lobby_minutes = minutes
        if not isinstance(since, (int, float)):
            t.idle_since = now
        else:
            t.idle_since = now - (unix_time(now) - since) if unix_time else float(since)

    async def load(self) -> list:
        """Resume every open table from the database (after a restart) and return their
        snapshots: seats, match state, and
        the unfinished hand rebuilt by replaying its stored actions, the players' languages;
        timers restart in full.  A table whose last hand of a match is settled now closes
        instead (the front end posts the standings of every ended match not yet shown).
        With ``owns`` set, only the tables of this process's guilds (shards)."""
        loaded = []
        for ot in await self.store.load_open_tables():
            if self.owns is not None and not self.owns(ot.table.guild_id):
                continue  # another process (shard) runs this table
            t = await self._table_from_store(ot)
            if t is None or t.status == CLOSED:
                continue  # closed by its last hand's settlement: its standings are posted as unposted
            self.tables[t.channel_id] = t
            loaded.append(t)
        # the players' own languages, for their panels and notices (``service.langs``)
        await self.load_langs(s.user_id for t in loaded for s in t.seats if not s.is_ai)
        self._generation = await self.store.next_start()
        for t in loaded:
            async with t.lock:
                self._publish(t, Update("resume", hand_id=t.hand_id))
        return [self._snapshot_of(t) for t in loaded]

    async def reload(self, channel_id: int) -> None:
        """Rebuild a channel's table from the store (after an unexpected error)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            await self._reload(t)
