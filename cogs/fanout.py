"""The fan-out of the tables' changes to Discord.

The table service calls :meth:`Fanout.on_change` after every change with the snapshot after
it (``service/snapshot.py``), while the player who caused it still waits for their answer; it
only hands the change to the table's :class:`cogs.feed.TableFeed` and returns.  The feed then
keeps, each in its own lane (``cogs/lanes.py``) so that the messages of one change go out at
once:

* the public table message — from the public part only, so it shows nothing a hidden decision
  changed; edited only when the public part's version moved, its image uploaded only when its
  picture changed, at the bot's pace (``bot.public_edit_interval`` seconds between edits,
  Discord's pace is about one a second per channel); when moves come faster, the next edit
  shows the latest state (coalesced);
* each human player's **panel** — one DM per player per hand, edited in place — equal to their
  seat's part: redrawn at the same pace, except that a player who must decide now gets theirs
  at once; its image is uploaded only when the part's picture changed;
* a short **notice** DM for a player who must decide (Discord notifies on new messages, not on
  edits): at most one per player at a time, deleted when they answered or the decision passed;
  a player's own click or command is never pinged;
* when a player's DMs are closed, one channel message per player per hand, at the deal,
  mentioning only them and pointing at **My hand**; DMs are tried again at each deal;
* a player who went on auto-play (托管) is told so, with a **Take over** button;
* the table message posted again at the bottom of the channel when asked (``/mj table show``,
  or after the server's number of other messages): the new message is sent, its id stored,
  then the old one deleted, in the public lane, so it never races an edit;
* a lobby that closed unstarted is said in the channel;
* once the table closes, every panel is edited once more (the match's last result stays,
  without buttons), notices are deleted and the match's standings posted.

Every lane waits until the interaction that caused the change is answered (at most
:data:`ANSWER_FIRST` s), so the player who acted hears first.  What the feed sent (the panels'
and notices' messages, the decision each player was prompted for) is its memory, kept through
the table service so a restarted bot edits the same panel and deletes the same notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator, Optional

import discord

from render.text import panel as words_panel
from render.text import prompts, table_message
from service.snapshot import Change, TableSnapshot

from . import messages
from .feed import TableFeed
from .memory import NoticeMemo, SeatMemory

log = logging.getLogger(__name__)

#: Discord's pace for editing one channel's messages (seconds between edits)
DEFAULT_EDIT_INTERVAL = 1.0
#: longest wait of the fan-out for the answer to the interaction that caused a change
ANSWER_FIRST = 3.0


class Fanout:
    """The fan-out of every table of the bot (see the module docstring)."""

    def __init__(self, bot):
        self.bot = bot
        self.feeds: dict[int, TableFeed] = {}
        self.dm_channels: dict[int, int] = {}
        self._answering: dict[int, int] = {}  # channel -> interactions being answered
        self._answered: dict[int, asyncio.Event] = {}
        self.posting: set[int] = set()  # matches whose standings are being posted
        #: table id -> the id of the table message this process posted last (the snapshots
        #: carry it from their next change on)
        self.message_ids: dict[int, int] = {}

    @contextlib.asynccontextmanager
    async def answering(self, channel_id: int) -> AsyncIterator[None]:
        """Around the handling of an interaction that changes a table: the table's lanes send
        nothing until the interaction is answered (at most :data:`ANSWER_FIRST` s), so the
        player who acted hears first, and nothing of theirs waits behind the others."""
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

    async def on_change(self, change: Change) -> None:
        """The table service's listener: hand the change to the table's feed."""
        self.feed_of(change.snapshot).push(change)

    def feed_of(self, snap: TableSnapshot) -> TableFeed:
        """The table's feed (made when the table has none yet, e.g. after a restart)."""
        feed = self.feeds.get(snap.channel_id)
        if feed is None or feed.table_id != snap.table_id:
            feed = self.feeds[snap.channel_id] = TableFeed(self, snap)
        return feed

    def drop(self, feed: TableFeed) -> None:
        if self.feeds.get(feed.channel_id) is feed:  # not a new table's feed
            del self.feeds[feed.channel_id]

    def repost(self, snap: TableSnapshot) -> None:
        """Post the table message again at the bottom of its channel (``/mj table show``)."""
        self.feed_of(snap).repost()

    def message_seen(self, snap: TableSnapshot, repost_after: int) -> bool:
        """Another message was posted in the table's channel: with ``repost_after`` (> 0) of
        them since the table message was posted, post it again.  ``True`` when it will."""
        feed = self.feed_of(snap)
        feed.seen += 1
        if repost_after <= 0 or feed.seen < repost_after or feed.repost_due:
            return False
        feed.seen = 0
        feed.repost()
        return True

    # ------------------------------------------------------------------ answers to clicks
    def panel_answered(self, channel_id: int, seat: int, message_id: Optional[int], panel: "messages.Panel") -> None:
        """A click was answered by redrawing the clicked message with ``panel``: when that was
        the player's panel, the feed knows what it shows (and leaves a 听 menu or a
        confirmation they look at alone until their decision moves)."""
        feed = self.feeds.get(channel_id)
        if feed is not None:
            feed.answered(seat, message_id, panel)

    def panel_lost(self, channel_id: int, seat: int) -> None:
        """The answer that would have redrawn a player's panel failed: the fan-out draws it."""
        feed = self.feeds.get(channel_id)
        if feed is not None:
            feed.lost(seat)

    async def post_standings(self, match_id: int) -> None:
        """Post a match's final standings once (``cogs.standings.post``): a match being posted
        by this process is not posted a second time."""
        from .standings import post

        if match_id in self.posting:
            return
        self.posting.add(match_id)
        try:
            await post(self.bot, match_id)
        finally:
            self.posting.discard(match_id)

    async def finish(self) -> None:
        """A clean stop (``cogs/shutdown.py``): every table's lanes send what they were given,
        its memory is kept and a closing table ends its closing; returns when all are done."""
        await asyncio.gather(*(feed.finish() for feed in list(self.feeds.values())))

    def stop(self) -> None:
        for feed in self.feeds.values():
            feed.stop()
        self.feeds.clear()

    # ------------------------------------------------------------------ REST
    async def edit_public(self, snap: TableSnapshot, kwargs: dict, repost: bool = False) -> bool:
        """Edit the table message (or post it when there is none yet); ``True`` when sent.
        ``repost``: delete the old message (one gone, or that the bot may not delete, is left),
        then post it anew and store its id (a restart in between leaves no second one)."""
        channel = self.bot.get_partial_messageable(snap.channel_id)
        kwargs = dict(kwargs)
        files = kwargs.pop("attachments", None)
        message_id = self.message_id(snap)
        try:
            if message_id and not repost:
                edit = dict(kwargs, **({"attachments": files} if files is not None else {}))
                await channel.get_partial_message(message_id).edit(**edit)
                return True
        except discord.NotFound:
            message_id = None
            self.message_ids.pop(snap.table_id, None)
        except discord.HTTPException:
            log.warning("could not edit the table message of %s", snap.channel_id)
            return False
        if snap.closed:
            return False
        if repost and message_id:
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException as exc:  # 404: gone already; 403: not allowed
                log.warning("could not delete the old table message in %s: %s", snap.channel_id, exc)
        try:
            if kwargs.get("view") is None:
                kwargs.pop("view", None)
            msg = await channel.send(files=files or [], **kwargs)
        except discord.HTTPException:
            log.warning("could not post the table message in %s", snap.channel_id)
            return False
        self.message_ids[snap.table_id] = msg.id
        await self.bot.service.set_message(snap.channel_id, msg.id)
        return True

    def message_id(self, snap: TableSnapshot) -> Optional[int]:
        """The table message's id: the one this process posted last, else the snapshot's."""
        return self.message_ids.get(snap.table_id) or snap.message_id

    async def lobby_expired(self, snap: TableSnapshot, minutes: Optional[int]) -> None:
        """Say in the channel, in the table's language, that its lobby closed unstarted."""
        channel = self.bot.get_partial_messageable(snap.channel_id)
        try:
            await channel.send(table_message.lobby_expired(minutes or snap.lobby_minutes, snap.lang))
        except discord.HTTPException:
            log.warning("could not post the lobby's closing in %s", snap.channel_id)

    async def dm_channel(self, user_id: int) -> int:
        """The id of the bot's DM channel with a user (opened once)."""
        dm_id = self.dm_channels.get(user_id)
        if dm_id is None:
            dm = await self.bot.create_dm(discord.Object(user_id))
            dm_id = self.dm_channels[user_id] = dm.id
        return dm_id

    async def dm(self, user_id: int, **kwargs) -> discord.Message:
        """Send a DM (``discord.Forbidden`` when the user's DMs are closed)."""
        dm_id = await self.dm_channel(user_id)
        return await self.bot.get_partial_messageable(dm_id, type=discord.ChannelType.private).send(**kwargs)

    def dm_message(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private) \
            .get_partial_message(message_id)

    async def send_notice(self, snap: TableSnapshot, seat: int, memo: SeatMemory) -> Optional[NoticeMemo]:
        """Ping a player who must decide with a short DM linking to this hand's panel (the one
        before is deleted by the caller: at most one notice per player).  The notice, or
        ``None`` when none was sent."""
        part = snap.parts[seat]
        panel = memo.panel
        if panel is None or panel.hand_id != snap.hand_id:
            return None  # no panel of this hand to point at yet
        link = f"https://discord.com/channels/@me/{panel.channel_id}/{panel.message_id}"
        try:
            msg = await self.dm(part.user_id, content=messages.notice_text(snap, seat, link))
        except discord.Forbidden:
            await self.bot.service.set_dms_open(snap.channel_id, seat, False)
            return None
        except discord.HTTPException:
            log.warning("notice to %s failed", part.user_id)
            return None
        hid, decision = part.decision
        return NoticeMemo(hid, decision, msg.channel.id, msg.id, part.deadline)

    async def delete_messages(self, messages_: tuple) -> tuple:
        """Delete DMs (notices) by ``(channel, message)``; those Discord would not delete now
        are returned, to be tried again."""
        left = []
        for channel_id, message_id in messages_:
            try:
                await self.dm_message(channel_id, message_id).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("could not delete a notice in %s", channel_id)
                left.append((channel_id, message_id))
        return tuple(left)

    async def channel_notice(self, snap: TableSnapshot, seat: int) -> None:
        """Tell a player whose DMs are closed, in the channel and mentioning only them, to use
        **My hand** for this hand (once per player per hand)."""
        part = snap.parts[seat]
        channel = self.bot.get_partial_messageable(snap.channel_id)
        try:
            await channel.send(words_panel.channel_notice(f"<@{part.user_id}>", part.lang),
                               allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                        users=[discord.Object(part.user_id)]))
        except discord.HTTPException:
            log.warning("could not post the closed-DM notice in %s", snap.channel_id)

    async def auto_notice(self, snap: TableSnapshot, seat: int) -> None:
        """Tell a player their seat is on auto-play (托管) — or, when they left, that another
        player may take it between hands — with a **Take over** button."""
        if seat >= len(snap.seats):
            return
        s, part = snap.seats[seat], snap.parts[seat]
        if s.is_ai or part is None or not s.auto or not s.dms_open:
            return
        channel = f"<#{snap.channel_id}>"
        text = prompts.left_notice(channel, part.lang) if s.left else \
            prompts.auto_notice(channel, part.lang, snap.public.view.get("auto_play_ai"))
        try:
            await self.dm(part.user_id, content=text, view=messages.takeover_view(snap.channel_id, part.lang))
        except discord.Forbidden:
            await self.bot.service.set_dms_open(snap.channel_id, seat, False)
        except discord.HTTPException:
            log.warning("auto-play notice to %s failed", part.user_id)


__all__ = ["Fanout", "DEFAULT_EDIT_INTERVAL", "ANSWER_FIRST"]
