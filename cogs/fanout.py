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
import hashlib
import json
import logging
from collections import deque
from typing import Optional

import discord

from service.i18n import t
from service.tables import HIDDEN_EVENTS, Table, Update

from . import ui

log = logging.getLogger(__name__)

#: Discord's pace for editing one channel's messages (seconds between edits)
DEFAULT_EDIT_INTERVAL = 1.0


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
        self.prompted: dict[int, tuple] = {}  # seat -> (hand id, seq) of the prompt it got
        self.mentioned: dict[int, tuple] = {}  # seat -> (hand id, seq) of its channel mention
        self.closed = False
        self.task: Optional[asyncio.Task] = None

    def push(self, update: Update) -> None:
        table = self.table
        self.public_due = True
        if update.kind == "closed":
            self.closed = True
        elif table.hand is not None:
            key = (table.hand_id, table.hand.seq)
            for e in update.events:
                if e.get("type") == "auto" and "seat" in e:
                    self.jobs.append(("auto", e["seat"]))
            self.jobs.append(("prompts", update.kind == "start", update.actor, key, frozenset(update.seats_to_notify)))
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name=f"fanout-{table.channel_id}")

    async def run(self) -> None:
        while True:
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
        table = self.table
        hand = table.hand
        if hand is None or table.status == "closed":
            return
        now = (table.hand_id, hand.seq)
        pending = set(hand.pending_seats()) if not hand.is_over() else set()
        for seat in range(len(table.seats)):
            s = table.seats[seat]
            if s.is_ai or s.user_id is None or s.auto:
                continue
            if seat == actor and now == key:
                # their own answer shows this state; but a public notice must not depend on who
                # caused the turn (a pass of theirs is nobody's business)
                self.prompted[seat] = (table.hand_id, table.decisions.get(seat, hand.seq))
                if seat in pending and not s.dms_open:
                    await self.fanout.mention(table, seat, self)
                continue
            if seat in pending:
                decision = (table.hand_id, table.decisions.get(seat, hand.seq))
                if self.prompted.get(seat) == decision:
                    continue  # one prompt per decision (another seat's pass changes nothing)
                self.prompted[seat] = decision
                await self.fanout.send_prompt(table, seat, self)
            elif start and key[0] == table.hand_id and self.prompted.get(seat, (None,))[0] != table.hand_id:
                # a new hand: everybody sees their tiles
                self.prompted[seat] = now
                await self.fanout.send_prompt(table, seat, self)

    async def publish(self) -> None:
        table = self.table
        fan = self.fanout
        if table.status == "closed":
            kwargs = {"embed": discord.Embed(description=t("ui.closed", table.lang)), "view": None,
                      "attachments": []}
            if table.message_id:
                await fan.edit_public(table, kwargs)
            return
        view = ui.public_view(table)
        embed = ui.table_embed(table, view)
        buttons = ui.TableButtons(table)
        image = table.hand is not None
        digest = hashlib.sha1(json.dumps([embed.to_dict(), [c.custom_id for c in buttons.children],
                                          view if image else None], sort_keys=True, default=str,
                                         ensure_ascii=False).encode()).hexdigest()
        if digest == self.last_public and table.message_id:
            return
        files = [await ui.table_image(view)] if image else []
        self.last_edit = asyncio.get_running_loop().time()
        if await fan.edit_public(table, {"embed": embed, "view": buttons, "attachments": files}):
            self.last_public = digest
            self.last_edit = asyncio.get_running_loop().time()


class Fanout:
    """The fan-out of every table of the bot (see the module docstring)."""

    def __init__(self, bot):
        self.bot = bot
        self.feeds: dict[int, TableFeed] = {}
        self.dm_channels: dict[int, int] = {}

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

    async def send_prompt(self, table: Table, seat: int, feed: TableFeed) -> None:
        """DM a player their hand (with the buttons when they must decide); when their DMs
        are closed, mention them in the channel if the table publicly waits for them."""
        s = table.seats[seat]
        lang = self.lang_of_seat(table, seat)
        if s.dms_open:
            try:
                kwargs = await ui.hand_message(table, seat, lang)
                if kwargs.get("view") is None:
                    kwargs.pop("view")
                await self.dm(s.user_id, **kwargs)
                return
            except discord.Forbidden:
                await self.bot.service.set_dms_open(table, seat, False)
            except discord.HTTPException:
                log.warning("DM to %s failed", s.user_id)
                return
        await self.mention(table, seat, feed)

    async def mention(self, table: Table, seat: int, feed: TableFeed) -> None:
        """Mention a player whose DMs are closed in the channel, pointing at **My hand** —
        only when the table publicly waits for them (a claim window is nobody's business),
        once per turn."""
        s = table.seats[seat]
        lang = self.lang_of_seat(table, seat)
        hand = table.hand
        if hand is None or hand.is_over():
            return
        if seat not in table.public_view().get("to_act", []) or seat not in hand.pending_seats():
            return
        # the public moment: it must not count hidden moves (passes), which the action counter does
        now = (table.hand_id, sum(1 for e in hand.events if e.type not in HIDDEN_EVENTS), hand.turn)
        if feed.mentioned.get(seat) == now:
            return
        feed.mentioned[seat] = now
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.send(t("ui.dm_fallback", lang, mention=f"<@{s.user_id}>"),
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
            await self.dm(s.user_id, content=t("ui.auto_notice", lang, channel=f"<#{table.channel_id}>"),
                          view=ui.takeover_view(table, lang))
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
        except discord.HTTPException:
            log.warning("auto-play notice to %s failed", s.user_id)
