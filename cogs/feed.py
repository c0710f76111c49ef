"""One table's fan-out (:class:`TableFeed`): the public table message and each player's panel
and notice, as functions of the table's latest snapshot — what ``cogs/fanout.py`` describes,
for one table.

Each message has its own :class:`cogs.lanes.Lane`, so the messages of one change go out at
once; what the feed sent is kept in its :class:`cogs.memory.TableMemory` (written through the
table service in one value, at most one write at a time, the latest).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any, Optional

import discord

from service.snapshot import Change, TableSnapshot

from . import messages
from .emojis import sending_panel
from .lanes import Lane
from .memory import PANEL_LAYOUT, NoticeMemo, PanelMemo, SeatMemory, TableMemory

log = logging.getLogger("cogs.fanout")

#: longest wait of the memory's write for the lanes to finish a change (seconds)
MEMORY_WAIT = 2.0


class TableFeed:
    """The lanes and the memory of one table (``fanout``: the :class:`cogs.fanout.Fanout`)."""

    def __init__(self, fanout: Any, snap: TableSnapshot):
        self.fanout = fanout
        self.channel_id = snap.channel_id
        self.table_id = snap.table_id
        self.latest = snap
        self.memory: Optional[TableMemory] = None
        self._loading: Optional[asyncio.Task] = None
        self._saving: Optional[asyncio.Task] = None
        self._saved: Optional[TableMemory] = None
        self.public = Lane(f"table-{snap.channel_id}", self._public_step, fanout.interval, self._before)
        self.seats: dict[int, Lane] = {}
        #: what the public message shows: the public part's version and its view
        self.shown_version = -1
        self.shown_view = None
        self.repost_due = False
        self.seen = 0  #: other people's messages in the channel since the table message was posted
        self.expired: Optional[int] = None  #: a lobby closed unstarted after these minutes
        self.closed = False
        self.match_id: Optional[int] = None
        #: seats whose notice must say the deadline a restart set (their first draw after it)
        self.resumed: set[int] = set()
        #: per seat, the decision its player's own answer showed (no ping for it)
        self.own: dict[int, tuple] = {}
        self.auto: list[int] = []  #: seats to tell they are on 托管
        #: per seat, the decision whose notice waits for the bot's ``notice_delay``, its wait,
        #: and the decision that waited it out (:meth:`_notice_due`)
        self.opened: dict[int, tuple] = {}
        self.waking: dict[int, asyncio.Task] = {}
        self.waited: dict[int, tuple] = {}
        self.task: Optional[asyncio.Task] = None  #: the closing, once the table closed

    # ------------------------------------------------------------------ changes
    def push(self, change: Change) -> None:
        """A change of the table: the lanes draw its snapshot (or a later one)."""
        snap = change.snapshot
        if snap.version >= self.latest.version:
            self.latest = snap
        if change.kind in ("closed", "match_over"):
            self.closed = True
            for e in change.events:
                if e.get("type") == "lobby_expired":
                    self.expired = int(e.get("minutes") or snap.lobby_minutes)
            if change.match_id is not None:
                self.match_id = change.match_id
        if change.kind == "resume":
            self.resumed = {p.seat for p in snap.parts if p is not None}
        for e in change.events:
            if e.get("type") == "auto" and "seat" in e:
                self.auto.append(int(e["seat"]))
        self._own_answer(change)
        self.public.poke(urgent=self.closed)
        for part in snap.parts:
            if part is not None:
                self.lane(part.seat).poke(urgent=self.closed or self._urgent(part, change))
        if self.closed and (self.task is None or self.task.done()):
            self.task = asyncio.get_running_loop().create_task(self._close(), name=f"close-{self.channel_id}")

    def _own_answer(self, change: Change) -> None:
        """The player who acted sees their next decision in their own answer: no ping for it."""
        actor = change.actor
        part = change.snapshot.parts[actor] if actor is not None and actor < len(change.snapshot.parts) else None
        if part is not None and part.decision is not None:
            self.own[actor] = part.decision

    def _urgent(self, part, change: Change) -> bool:
        """A seat that must decide anew, or the first panel of a hand, goes out at once."""
        if change.kind in ("start", "resume"):
            return True
        memo = self.memory.seat(part.seat) if self.memory is not None else SeatMemory()
        if self.own.get(part.seat) == part.decision and part.decision is not None:
            return False  # their own answer shows it
        if memo.panel is None or memo.panel.hand_id != self.latest.hand_id or memo.stale:
            return True
        return part.decision is not None and memo.prompted != part.decision

    def lane(self, seat: int) -> Lane:
        lane = self.seats.get(seat)
        if lane is None:
            lane = self.seats[seat] = Lane(f"seat-{self.channel_id}-{seat}", lambda: self._seat_step(seat),
                                           self.fanout.interval, self._before)
        return lane

    def repost(self) -> None:
        """Post the table message again at the bottom of the channel (in the public lane)."""
        self.repost_due = True
        self.public.poke(urgent=True)

    async def _before(self) -> None:
        await self._memory()

    # ------------------------------------------------------------------ memory
    async def _memory(self) -> TableMemory:
        if self.memory is None:
            if self._loading is None:
                self._loading = asyncio.ensure_future(self._load())
            await asyncio.shield(self._loading)
        return self.memory

    async def _load(self) -> None:
        try:
            raw = await self.fanout.bot.service.front_memory(self.table_id, len(self.latest.seats))
        except Exception:
            log.exception("could not read what table %s showed; drawn anew", self.table_id)
            raw = {}
        if self.memory is None:
            self.memory = TableMemory.from_json(raw)
            self._saved = self.memory
            for memo in self.memory.seats.values():  # the DM channels it wrote in: not opened again
                if memo.user_id is not None and memo.panel is not None:
                    self.fanout.dm_channels.setdefault(memo.user_id, memo.panel.channel_id)

    def _set(self, seat: int, memo: SeatMemory) -> None:
        self.memory = self.memory.with_seat(seat, memo)
        if self.memory != self._saved and (self._saving is None or self._saving.done()):
            self._saving = asyncio.get_running_loop().create_task(self._save(), name=f"memory-{self.table_id}")

    async def _save(self) -> None:
        """Write the latest memory, one write at a time (a change meanwhile is written next),
        once the lanes sent what the change asked for: one write for all of a change's messages
        (at most :data:`MEMORY_WAIT` s later)."""
        loop = asyncio.get_running_loop()
        while self.memory != self._saved:
            until = loop.time() + MEMORY_WAIT
            while loop.time() < until and not self._lanes_idle():
                await asyncio.sleep(0.02)
            memory = self.memory
            try:
                await self.fanout.bot.service.set_front_memory(self.table_id, memory.to_json())
            except Exception:
                log.exception("could not keep what table %s showed", self.table_id)
                return
            self._saved = memory

    def _lanes_idle(self) -> bool:
        return self.public.idle.is_set() and all(lane.idle.is_set() for lane in self.seats.values())

    def seat_memory(self, seat: int) -> Optional[SeatMemory]:
        return self.memory.seat(seat) if self.memory is not None else None

    def answered(self, seat: int, message_id: Optional[int], panel: "messages.Panel") -> None:
        """The player's click was answered by redrawing the message they clicked: when it is
        their panel, it shows ``panel`` now."""
        if self.memory is None or message_id is None:
            return
        memo = self.memory.seat(seat)
        p = memo.panel
        if p is None or p.message_id != message_id or p.hand_id != self.latest.hand_id:
            return
        p = replace(p, version=max(p.version, panel.version))
        self._set(seat, replace(memo, panel=p, menu=panel.decision if panel.menu else None))

    def lost(self, seat: int) -> None:
        """The answer that would have redrawn a player's panel failed: the lane draws it."""
        if self.memory is not None:
            memo = self.memory.seat(seat)
            if memo.panel is not None:
                self._set(seat, replace(memo, panel=replace(memo.panel, version=-1), menu=None))
        self.lane(seat).poke(urgent=True)

    # ------------------------------------------------------------------ the public message
    async def _public_step(self) -> Optional[bool]:
        fan, snap = self.fanout, self.latest
        sent = None
        if self.expired is not None:
            minutes, self.expired = self.expired, None
            await fan.lobby_expired(snap, minutes)
        repost = self.repost_due
        posted = fan.message_id(snap)
        if snap.closed and not snap.final:
            if posted and self.shown_version < snap.public.version:
                await fan.answers_sent(self.channel_id)
                ok = await fan.edit_public(snap, {**messages.table_payload(snap), "attachments": []})
                self.shown_version = snap.public.version
                return ok
            return None
        if snap.public.version <= self.shown_version and posted and not repost:
            return None
        payload = messages.table_payload(snap)
        image = snap.hand_id is not None
        if image and (repost or self.shown_view is not snap.public.view or not posted):
            payload["attachments"] = [await messages.table_image(snap)]
        elif not image:
            payload["attachments"] = []
        self.repost_due = False
        await fan.answers_sent(self.channel_id)  # drawn meanwhile; sent after the answer
        self.public.sending()
        ok = await fan.edit_public(snap, payload, repost=repost)
        if ok:
            if repost:
                self.seen = 0
            self.shown_version, self.shown_view = snap.public.version, snap.public.view
            sent = True
        else:
            self.repost_due = self.repost_due or repost
            sent = False
        return sent

    # ------------------------------------------------------------------ a player's DMs
    async def _seat_step(self, seat: int) -> Optional[bool]:
        snap = self.latest
        fan = self.fanout
        part = snap.parts[seat] if seat < len(snap.parts) else None
        if part is None:
            return None
        await fan.answers_sent(self.channel_id)
        memo = self.memory.seat(seat).for_user(part.user_id)
        if part.decision is not None and self.own.pop(seat, None) == part.decision and memo.prompted != part.decision:
            memo = replace(memo, prompted=part.decision)  # their own answer shows it: no ping
            self._set(seat, memo)
        if seat in self.auto:
            self.auto = [s for s in self.auto if s != seat]
            await fan.auto_notice(snap, seat)
        if snap.hand_id is None or not part.dealt:
            await self._tidy(seat, memo, None)
            return None
        if self.closed:
            return None  # the closing draws the panels once (:meth:`_close`)
        sent: Optional[bool] = None
        decision = part.decision
        shown: Optional[bool] = True
        if decision is not None and memo.menu == decision:
            pass  # the player looks at the 听 menu or a confirmation of this decision
        elif part.dms_open:
            shown, memo = await self._show_panel(snap, seat, memo)  # the panel first: it is what they read
            self._set(seat, memo)
            sent = shown
        else:
            shown = None
        memo = await self._tidy(seat, memo, decision)  # then the notice of a decision that passed goes
        if shown is None and memo.told != snap.hand_id:
            memo = replace(memo, told=snap.hand_id)
            self._set(seat, memo)
            await fan.channel_notice(snap, seat)
        if shown and decision is not None and memo.prompted != decision and not memo.stale \
                and self._notice_due(seat, decision):
            notice = await fan.send_notice(snap, seat, memo)
            if notice is not None:
                memo = replace(memo, notice=notice, prompted=decision)
                self._set(seat, memo)
        elif shown and memo.notice is not None and seat in self.resumed and memo.notice.deadline != part.deadline:
            # a restart set a new deadline: the notice says it
            notice = await fan.send_notice(snap, seat, memo)
            if notice is not None:
                memo = replace(memo, notice=notice, stale=await fan.delete_messages(memo.stale + (
                    (memo.notice.channel_id, memo.notice.message_id),)))
                self._set(seat, memo)
        self.resumed.discard(seat)
        return False if shown is False else sent

    def _notice_due(self, seat: int, decision: tuple) -> bool:
        """Is it time to ping the player for ``decision``?  A player watching their panel
        answers within seconds and needs no ping (Discord notifies on new messages, and each
        notice costs a message and its deletion): the notice goes once the decision has been
        open for the bot's ``notice_delay`` seconds (0: at once), waited on its
        ``notice_timer`` (``asyncio.sleep`` unless set)."""
        delay = float(getattr(self.fanout.bot, "notice_delay", 0) or 0)
        if delay <= 0 or self.waited.get(seat) == decision:
            return True
        if self.opened.get(seat) != decision:
            self.opened[seat] = decision
            old = self.waking.pop(seat, None)
            if old is not None:
                old.cancel()
            self.waking[seat] = asyncio.get_running_loop().create_task(self._wake(seat, decision, delay),
                                                                       name=f"notice-{self.channel_id}-{seat}")
        return False

    async def _wake(self, seat: int, decision: tuple, delay: float) -> None:
        await getattr(self.fanout.bot, "notice_timer", asyncio.sleep)(delay)
        self.waking.pop(seat, None)
        part = self.latest.parts[seat] if seat < len(self.latest.parts) else None
        if part is not None and part.decision == decision and not self.closed:
            self.waited[seat] = decision
            self.lane(seat).poke(urgent=True)

    async def _tidy(self, seat: int, memo: SeatMemory, decision) -> SeatMemory:
        """Delete the notice of a decision that is not ``decision`` (answered, or passed) and
        the notices Discord would not delete before; returns the memory after."""
        gone = memo.stale
        if memo.notice is not None and (memo.notice.hand_id, memo.notice.decision) != decision:
            gone += ((memo.notice.channel_id, memo.notice.message_id),)
            memo = replace(memo, notice=None)
        if gone:
            memo = replace(memo, stale=await self.fanout.delete_messages(gone))
            self._set(seat, memo)
        return memo

    async def _show_panel(self, snap: TableSnapshot, seat: int, memo: SeatMemory, *,
                          final: bool = False) -> tuple[Optional[bool], SeatMemory]:
        """Make the seat's panel show its part: edit this hand's panel, or send the hand's first
        one (a panel of an older format is replaced by a new one, the old deleted).  ``(True,
        memo)`` when it shows it, ``(False, memo)`` when Discord failed, ``(None, memo)`` when
        the player's DMs are closed (remembered)."""
        part = snap.parts[seat]
        panel = memo.panel if memo.panel is not None and memo.panel.hand_id == snap.hand_id else None
        if panel is not None and panel.layout != PANEL_LAYOUT:
            memo = replace(memo, stale=memo.stale + ((panel.channel_id, panel.message_id),))
            panel = None  # a message keeps its format for life: a new panel, the old one goes
        if panel is not None and panel.version >= part.version and not final:
            return True, memo
        fan = self.fanout
        await fan.answers_sent(self.channel_id)
        self.lane(seat).sending()

        async def send(again: bool):  # drawn anew if Discord refuses one of its emojis (``sending_panel``)
            payload = messages.panel_payload(messages.panel_of(snap, seat, emojis=fan.bot.tile_emojis),
                                                   buttons=not final)
            if panel is not None:
                try:
                    await fan.dm_message(panel.channel_id, panel.message_id).edit(**payload)
                    return None
                except discord.NotFound:
                    pass  # deleted: a new one
            return await fan.dm(part.user_id, **payload)

        try:
            msg = await sending_panel(fan.bot, send)
            if msg is None:
                return True, replace(memo, panel=replace(panel, version=part.version), menu=None)
        except discord.Forbidden:
            await fan.bot.service.set_dms_open(snap.channel_id, seat, False)
            return None, memo
        except discord.HTTPException:
            log.warning("panel of %s failed", part.user_id)
            return False, memo
        return True, replace(memo, panel=PanelMemo(snap.hand_id, msg.channel.id, msg.id, part.version,
                                                   layout=PANEL_LAYOUT), menu=None)

    # ------------------------------------------------------------------ closing
    async def _close(self) -> None:
        """The table closed: the public message and each panel are drawn once more (a match
        that ended after a settled hand keeps its result, without buttons), every notice is
        deleted, then the match's standings are posted and the feed goes."""
        await self._memory()
        await self.public.finish()
        snap = self.latest
        for seat, part in enumerate(snap.parts):
            if part is None:
                continue
            lane = self.lane(seat)
            await lane.finish()  # what it was sending goes first
            memo = self.memory.seat(seat).for_user(part.user_id)
            stale = memo.stale + (((memo.notice.channel_id, memo.notice.message_id),) if memo.notice else ())
            memo = replace(memo, notice=None, stale=await self.fanout.delete_messages(stale) if stale else ())
            panel = memo.panel
            if panel is not None and panel.hand_id == snap.hand_id and part.dms_open:
                if snap.final:
                    _, memo = await self._show_panel(snap, seat, memo, final=True)
                else:
                    async def bare(again: bool, panel=panel, seat=seat):  # a container keeps its words
                        edit = {"view": None}
                        if panel.layout == PANEL_LAYOUT:
                            edit = messages.panel_payload(messages.panel_of(
                                snap, seat, emojis=self.fanout.bot.tile_emojis), buttons=False)
                        await self.fanout.dm_message(panel.channel_id, panel.message_id).edit(**edit)

                    try:
                        await sending_panel(self.fanout.bot, bare)
                    except discord.HTTPException:
                        log.warning("could not take the buttons off a panel in %s", panel.channel_id)
            self._set(seat, memo)
        if self._saving is not None and not self._saving.done():
            await asyncio.wait([self._saving])
        if self.match_id is not None:
            try:
                await self.fanout.post_standings(self.match_id)
            except Exception:  # posted at the next start (its message is not stored)
                log.exception("could not post the standings of match %s", self.match_id)
        self.fanout.drop(self)

    async def finish(self) -> None:
        """A clean stop: the lanes send what they were given, then the memory is written and a
        closing table ends its closing.  Notices still waiting for the bot's ``notice_delay``
        are not sent: the next start prompts every seat of a resumed table anew."""
        for task in self.waking.values():
            task.cancel()
        await asyncio.gather(self.public.finish(), *(lane.finish() for lane in list(self.seats.values())))
        if self.task is not None and not self.task.done():
            await asyncio.wait([self.task])
        while self._saving is not None and not self._saving.done():
            await asyncio.wait([self._saving])

    def stop(self) -> None:
        for task in self.waking.values():
            task.cancel()
        self.public.cancel()
        for lane in self.seats.values():
            lane.cancel()
        if self.task is not None:
            self.task.cancel()


__all__ = ["TableFeed"]
