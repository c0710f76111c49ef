"""The fan-out of a table's changes to Discord: one ordered task per table.

The table service calls :meth:`Fanout.on_update` after every change, under no lock and
while the player who caused it still waits for their answer; it only queues the change and
returns.  Each table's own task then, in the order the changes came:

* redraws the public table message — from ``Table.public_view`` only, so it shows nothing a
  hidden decision changed; a payload equal to the last one sent is not sent again, and edits
  are paced (``bot.public_edit_interval`` seconds apart, Discord's pace is about one a second
  per channel): when moves come faster, the next edit shows the latest state (coalesced);
* sends each human who must decide their hand with the buttons of that decision (once per
  hand and turn; not to the player whose own click or command caused the change — their
  answer already shows it), or, when their DMs are closed, mentions them in the channel — only
  when the table publicly waits for them (their turn, an opening decision), never because a
  claim window opened for them;
* tells a player who went on auto-play (托管) so, with a **Take over** button.

Everything is read from the table when the task gets to it, so a slow Discord never makes
the bot send an old state after a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections import deque
from typing import AsyncIterator, Optional

import discord

from render.text import prompts, table_message
from service.tables import Table, Update

from . import messages

log = logging.getLogger(__name__)

#: Discord's pace for editing one channel's messages (seconds between edits)
DEFAULT_EDIT_INTERVAL = 1.0
#: longest wait of the fan-out for the answer to the interaction that caused a change
ANSWER_FIRST = 3.0
#: seconds before the first retry of a failed edit of the table message (doubling, at most 60)
RETRY_EDIT = 0.5


def _decision_key(text: Optional[str]) -> Optional[tuple]:
    """``"<hand id>:<seq>"`` (``Seat.prompted``) → ``(hand id, seq)``."""
    try:
        hid, seq = str(text).split(":")
        return int(hid), int(seq)
    except (TypeError, ValueError):
        return None


class TableFeed:
    """The queue and task of one table."""

    def __init__(self, fanout: "Fanout", table: Table):
        self.fanout = fanout
        self.table = table
        self.jobs: deque[tuple] = deque()
        self.wake = asyncio.Event()
        self.public_due = False
        self.last_edit = float("-inf")
        self.last_public: Optional[str] = None
        # seat -> (hand id, seq) of the decision it was prompted for (kept in the store too)
        self.prompted: dict[int, tuple] = {i: k for i, s in enumerate(table.seats)
                                           if (k := _decision_key(s.prompted)) is not None}
        self.edit_failures = 0
        self.mentioned: dict[int, tuple] = {}  # seat -> (hand id, seq) of its channel mention
        self.closed = False
        self.task: Optional[asyncio.Task] = None

    def push(self, update: Update) -> None:
        table = self.table
        self.public_due = True
        if update.kind == "closed":
            self.closed = True
        elif table.hand is not None:
            key = (table.hand_id, table.seq)
            for e in update.events:
                if e.get("type") == "auto" and "seat" in e:
                    self.jobs.append(("auto", e["seat"]))
            self.jobs.append(("prompts", update.kind in ("start", "resume"), update.actor, key,
                              frozenset(update.seats_to_notify)))
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name=f"fanout-{table.channel_id}")

    async def run(self) -> None:
        while True:
            await self.fanout.answers_sent(self.table.channel_id)
            while self.jobs:
                job = self.jobs.popleft()
                try:
                    await self.do(job)
                except Exception:
                    log.exception("fan-out of table %s failed at %s", self.table.id, job[0])
            if self.public_due:
                wait = self.last_edit + self.fanout.interval() - asyncio.get_running_loop().time()
                if wait > 0 and not self.closed:
                    self.wake.clear()
                    try:
                        await asyncio.wait_for(self.wake.wait(), timeout=wait)
                    except asyncio.TimeoutError:
                        pass
                    continue  # new jobs first; the edit shows the latest state anyway
                self.public_due = False
                try:
                    await self.publish()
                except Exception:
                    log.exception("could not redraw the table message of %s", self.table.channel_id)
                continue
            if self.closed:
                if self.fanout.feeds.get(self.table.channel_id) is self:  # not a new table's feed
                    del self.fanout.feeds[self.table.channel_id]
                return
            self.wake.clear()
            if not self.jobs and not self.public_due:
                await self.wake.wait()

    async def do(self, job: tuple) -> None:
        kind = job[0]
        if kind == "auto":
            await self.fanout.auto_notice(self.table, job[1])
        elif kind == "prompts":
            _, start, actor, key, notify = job
            await self.prompts(start, actor, key, notify)

    async def prompts(self, start: bool, actor: Optional[int], key: tuple, notify: frozenset) -> None:
        """Decide, under the table's lock (only stored moves count), who gets a prompt or a
        channel mention now and draw what each will see; then send, outside the lock."""
        table = self.table
        fan = self.fanout
        sends: list[tuple[int, tuple]] = []  # (seat, hand parts)
        mentions: list[int] = []
        async with table.lock:
            if table.hand is None or table.status == "closed":
                return
            now = (table.hand_id, table.seq)
            pending = set(table.pending())
            for seat in range(len(table.seats)):
                s = table.seats[seat]
                if s.is_ai or s.user_id is None or s.auto:
                    continue
                decision = (table.hand_id, table.decision(seat))
                if seat == actor and now == key:
                    # their own answer shows this state; but a public notice must not depend on
                    # who caused the turn (a pass of theirs is nobody's business)
                    self.prompted[seat] = decision
                    if seat in pending and not s.dms_open and self.mentionable(seat):
                        mentions.append(seat)
                    continue
                if seat in pending:
                    if self.prompted.get(seat) == decision:
                        continue  # one prompt per decision (another seat's pass changes nothing)
                elif not (start and key[0] == table.hand_id and self.prompted.get(seat, (None,))[0] != table.hand_id):
                    continue
                self.prompted[seat] = decision if seat in pending else now  # a new hand: everybody sees their tiles
                if s.dms_open:
                    sends.append((seat, messages.hand_parts(table, seat, fan.lang_of_seat(table, seat))))
                elif seat in pending and self.mentionable(seat):
                    mentions.append(seat)
            # if a DM fails (closed DMs), the channel instead, when the table waits for them
            fallback = {seat: self.moment(seat) if seat in pending else None for seat, _ in sends}
        for seat, parts in sends:
            if await fan.send_prompt(table, seat, parts):
                hid, seq = self.prompted[seat]
                await fan.bot.service.set_prompted(table, seat, f"{hid}:{seq}")
            elif fallback[seat] is not None and self.mentioned.get(seat) != fallback[seat]:
                self.mentioned[seat] = fallback[seat]
                mentions.append(seat)
        for seat in mentions:
            await fan.mention(table, seat)

    def moment(self, seat: int) -> Optional[tuple]:
        """The public moment at which the table waits for ``seat`` (``None`` when it does not
        publicly wait for them: a claim window is nobody's business).  It counts public
        events only — never passes, which the action counter does.  Read under the lock."""
        return self.table.public_moment(seat)

    def mentionable(self, seat: int) -> bool:
        """May a player with closed DMs be mentioned in the channel now (once per public
        moment)?  Marks them mentioned.  Read under the lock."""
        moment = self.moment(seat)
        if moment is None or self.mentioned.get(seat) == moment:
            return False
        self.mentioned[seat] = moment
        return True

    async def publish(self) -> None:
        table = self.table
        fan = self.fanout
        async with table.lock:  # only stored moves show
            if table.status == "closed":
                kwargs = {"embed": discord.Embed(description=table_message.closed(table.lang)), "view": None,
                          "attachments": []}
                view = None
            else:
                view = messages.public_view(table)
                embed = messages.table_embed(table, view)
                buttons = messages.TableButtons(table)
                image = table.hand is not None
        if view is None:
            if table.message_id:
                await fan.edit_public(table, kwargs)
            return
        digest = hashlib.sha1(json.dumps([embed.to_dict(), [c.custom_id for c in buttons.children],
                                          view if image else None], sort_keys=True, default=str,
                                         ensure_ascii=False).encode()).hexdigest()
        if digest == self.last_public and table.message_id:
            return
        files = [await messages.table_image(view)] if image else []
        self.last_edit = asyncio.get_running_loop().time()
        if await fan.edit_public(table, {"embed": embed, "view": buttons, "attachments": files}):
            self.last_public = digest
            self.last_edit = asyncio.get_running_loop().time()
            self.edit_failures = 0
        else:
            # Discord failed (after its own retries): try again later, or the last change of a
            # hand (its result) would never be shown
            self.edit_failures += 1
            if self.edit_failures <= 8:
                self.public_due = True
                self.last_edit = asyncio.get_running_loop().time() + min(
                    60.0, RETRY_EDIT * 2 ** (self.edit_failures - 1)) - self.fanout.interval()


class Fanout:
    """The fan-out of every table of the bot (see the module docstring)."""

    def __init__(self, bot):
        self.bot = bot
        self.feeds: dict[int, TableFeed] = {}
        self.dm_channels: dict[int, int] = {}
        self._answering: dict[int, int] = {}  # channel -> interactions being answered
        self._answered: dict[int, asyncio.Event] = {}

    @contextlib.asynccontextmanager
    async def answering(self, channel_id: int) -> AsyncIterator[None]:
        """Around the handling of an interaction that changes a table: the table's fan-out
        sends nothing until the interaction is answered (at most :data:`ANSWER_FIRST` s), so
        the player who acted hears first, and nothing of theirs waits behind the others."""
        self._answering[channel_id] = self._answering.get(channel_id, 0) + 1
        self._answered.setdefault(channel_id, asyncio.Event()).clear()
        try:
            yield
        finally:
            self._answering[channel_id] -= 1
            if self._answering[channel_id] <= 0:
                self._answering.pop(channel_id, None)
                self._answered[channel_id].set()

    async def answers_sent(self, channel_id: int) -> None:
        """Wait (at most :data:`ANSWER_FIRST` s) until no interaction of this table is being
        answered."""
        if self._answering.get(channel_id):
            try:
                await asyncio.wait_for(self._answered[channel_id].wait(), timeout=ANSWER_FIRST)
            except asyncio.TimeoutError:
                pass

    def interval(self) -> float:
        return float(getattr(self.bot, "public_edit_interval", DEFAULT_EDIT_INTERVAL))

    async def on_update(self, table: Table, update: Update) -> None:
        """The table service's listener: queue the change for the table's task."""
        feed = self.feeds.get(table.channel_id)
        if feed is None or feed.table is not table:
            feed = self.feeds[table.channel_id] = TableFeed(self, table)
        feed.push(update)

    def stop(self) -> None:
        for feed in self.feeds.values():
            if feed.task is not None:
                feed.task.cancel()
        self.feeds.clear()

    # ------------------------------------------------------------------ REST
    async def edit_public(self, table: Table, kwargs: dict) -> bool:
        """Edit the table message (or post it when there is none yet); ``True`` when sent."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        files = kwargs.pop("attachments", [])
        try:
            if table.message_id:
                await channel.get_partial_message(table.message_id).edit(attachments=files, **kwargs)
                return True
        except discord.NotFound:
            table.message_id = None
        except discord.HTTPException:
            log.warning("could not edit the table message of %s", table.channel_id)
            return False
        if table.status == "closed":
            return False
        try:
            msg = await channel.send(files=files, **kwargs)
        except discord.HTTPException:
            log.warning("could not post the table message in %s", table.channel_id)
            return False
        await self.bot.service.set_message(table, msg.id)
        return True

    def lang_of_seat(self, table: Table, seat: int) -> str:
        return self.bot.user_langs.get(table.seats[seat].user_id, table.lang)

    async def dm(self, user_id: int, **kwargs) -> None:
        """Send a DM (``discord.Forbidden`` when the user's DMs are closed)."""
        dm_id = self.dm_channels.get(user_id)
        if dm_id is None:
            dm = await self.bot.create_dm(discord.Object(user_id))
            dm_id = self.dm_channels[user_id] = dm.id
        await self.bot.get_partial_messageable(dm_id, type=discord.ChannelType.private).send(**kwargs)

    async def send_prompt(self, table: Table, seat: int, parts: tuple) -> bool:
        """DM a player their hand (with the buttons when they must decide), drawn from
        ``parts`` (``messages.hand_parts``); ``False`` when it could not be sent (their DMs are
        closed: remembered)."""
        s = table.seats[seat]
        try:
            kwargs = await messages.render_parts(parts)
            if kwargs.get("view") is None:
                kwargs.pop("view")
            await self.dm(s.user_id, **kwargs)
            return True
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
        except discord.HTTPException:
            log.warning("DM to %s failed", s.user_id)
        return False

    async def mention(self, table: Table, seat: int) -> None:
        """Mention a player whose DMs are closed in the channel, pointing at **My hand**."""
        s = table.seats[seat]
        lang = self.lang_of_seat(table, seat)
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.send(prompts.dm_fallback(f"<@{s.user_id}>", lang),
                               allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            log.warning("could not post the DM fallback in %s", table.channel_id)

    async def auto_notice(self, table: Table, seat: int) -> None:
        """Tell a player their seat is on auto-play (托管), with a **Take over** button."""
        if seat >= len(table.seats):
            return
        s = table.seats[seat]
        if s.is_ai or s.user_id is None or not s.auto or not s.dms_open:
            return
        lang = self.lang_of_seat(table, seat)
        try:
            await self.dm(s.user_id, content=prompts.auto_notice(f"<#{table.channel_id}>", lang),
                          view=messages.takeover_view(table, lang))
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
        except discord.HTTPException:
            log.warning("auto-play notice to %s failed", s.user_id)
