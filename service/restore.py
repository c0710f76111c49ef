"""Tables rebuilt from the store (after a restart or a fault), and what front ends keep with a table: the restore part of the table service"""

from __future__ import annotations

import json

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
        t.wall = getattr(self.clock, "wall", None)
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
        wall = getattr(self.clock, "wall", None)
        kept = kept if isinstance(kept, dict) else {}
        since, minutes = kept.get("since"), kept.get("minutes")
        if isinstance(minutes, int) and minutes > 0:
            t.lobby_minutes = minutes
        if not isinstance(since, (int, float)):
            t.idle_since = now
        else:
            t.idle_since = now - (wall(now) - since) if wall else float(since)

    async def load(self) -> list[Table]:
        """Resume every open table from the database (after a restart): seats, match state, and
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
        return loaded

    async def reload(self, channel_id: int) -> None:
        """Rebuild a channel's table from the store (after an unexpected error)."""
        t = self.tables.get(channel_id)
        if t is None:
            return
        async with t.lock:
            await self._reload(t)

    async def set_dms_open(self, t: Table, seat: int, dms_open: bool) -> None:
        """Remember (and persist) whether the bot can DM a seat's player (a 50007 closes it)."""
        async with t.lock:
            if seat < len(t.seats) and t.seats[seat].dms_open != dms_open:
                t.seats[seat].dms_open = dms_open
                await self._save_seats(t)

    async def set_prompted(self, t: Table, seat: int, prompted: str) -> None:
        """Remember (and persist) the decision a front end just prompted a seat for, so that a
        restarted bot prompts only what was not (``Seat.prompted``)."""
        if seat < len(t.seats) and t.seats[seat].prompted != prompted:
            t.seats[seat].prompted = prompted
            await self.store.set_seat_prompted(t.id, seat, prompted)

    async def seat_messages(self, t: Table, seat: int) -> dict:
        """What a front end keeps of a seat's private messages of the table (e.g. the ids of
        its panel and of its notice, ``{"panel": {...}, "notice": {...}}``), so a restarted
        bot edits them instead of sending new ones; ``{}`` when nothing is kept."""
        raw = await self.store.get_state(f"seat-messages:{t.id}:{seat}")
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return {}

    async def set_seat_messages(self, t: Table, seat: int, data: dict) -> None:
        """Keep ``data`` (JSON-able) as the seat's private messages (:meth:`seat_messages`)."""
        await self.store.set_state(f"seat-messages:{t.id}:{seat}", json.dumps(data, sort_keys=True))

    async def announce(self, t: Table) -> None:
        """Tell the front ends about a table as it is now (after a restart): they redraw it
        and send what the stopped process had not (``Update("resume")``)."""
        await self._notify(t, Update("resume", seats_to_notify=set(range(len(t.seats))), hand_id=t.hand_id))

    async def set_message(self, t: Table, message_id: int) -> None:
        """Remember (and persist) the public table message that a front end edits in place."""
        t.message_id = message_id
        await self.store.update_table(t.id, message_id=message_id)
