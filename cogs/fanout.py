"""The fan-out of a table's changes to Discord: one ordered task per table.

The table service calls :meth:`Fanout.on_update` after every change, under no lock and
while the player who caused it still waits for their answer; it only queues the change and
returns.  Each table's own task then, in the order the changes came:

* redraws the public table message — from ``Table.public_view`` only, so it shows nothing a
  hidden decision changed; a payload equal to the last one sent is not sent again, and edits
  are paced (``bot.public_edit_interval`` seconds apart, Discord's pace is about one a second
  per channel): when moves come faster, the next edit shows the latest state (coalesced);
* keeps each human player's **panel** — one DM per player per hand, edited in place — equal
  to their seat's panel view (``messages.panel_view``: the public view plus their own hand and
  decision).  Panels are redrawn at the same pace as the table message, except that a player
  who must decide now gets theirs at once; an edit is skipped when nothing changed, and the
  image is uploaded only when its view changed (else the message keeps the one it has);
* pings a player who must decide with a short **notice** DM (Discord notifies on new
  messages, not on edits): at most one per player at a time, deleted when they answered or
  the decision passed; a player's own click or command is never pinged;
* when a player's DMs are closed, posts one channel message per player per hand, at the
  deal, mentioning only them and pointing at **My hand**; DMs are tried again at each deal;
* tells a player who went on auto-play (托管) so, with a **Take over** button;
* posts the table message again at the bottom of the channel when asked (``/mj table show``,
  or after the server's number of other messages in the channel): the new message is sent,
  its id stored, then the old one deleted — in this same task, so it never races an edit;
* says in the channel when a lobby closed because nobody started it in time.

Each table's task is a :class:`cogs.feed.TableFeed`; this module's :class:`Fanout` owns them
and does what they share (the DMs, the panels' and notices' messages, the channel notes).
The ids of each seat's panel and notice are kept through the table service (so a restarted
bot edits the same panel and deletes the same notice).  Everything is read from the table
when the task gets to it, so a slow Discord never makes the bot send an old state after a
newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator, Optional

import discord

from render.text import panel as words_panel
from render.text import prompts, table_message
from service.tables import Table, Update

from . import messages
from .feed import TableFeed

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
        self.feed_of(table).push(update)

    def feed_of(self, table: Table) -> TableFeed:
        """The table's feed (made when the table has none yet, e.g. after a restart)."""
        feed = self.feeds.get(table.channel_id)
        if feed is None or feed.table is not table:
            feed = self.feeds[table.channel_id] = TableFeed(self, table)
        return feed

    def repost(self, table: Table) -> None:
        """Post the table message again at the bottom of its channel (``/mj table show``)."""
        self.feed_of(table).repost()

    def message_seen(self, table: Table, repost_after: int) -> bool:
        """Another message was posted in the table's channel: with ``repost_after`` (> 0) of
        them since the table message was posted, post it again.  ``True`` when it will."""
        feed = self.feed_of(table)
        feed.seen += 1
        if repost_after <= 0 or feed.seen < repost_after or feed.repost_due:
            return False
        feed.seen = 0
        feed.repost()
        return True

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

    def stop(self) -> None:
        for feed in self.feeds.values():
            if feed.task is not None:
                feed.task.cancel()
        self.feeds.clear()

    # ------------------------------------------------------------------ REST
    async def edit_public(self, table: Table, kwargs: dict, repost: bool = False) -> bool:
        """Edit the table message (or post it when there is none yet); ``True`` when sent.
        ``repost``: delete the old message (one gone, or that the bot may not delete, is left),
        then post it anew and store its id (a restart in between leaves no second one)."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        files = kwargs.pop("attachments", [])
        old = table.message_id if repost else None
        try:
            if table.message_id and not repost:
                await channel.get_partial_message(table.message_id).edit(attachments=files, **kwargs)
                return True
        except discord.NotFound:
            table.message_id = None
        except discord.HTTPException:
            log.warning("could not edit the table message of %s", table.channel_id)
            return False
        if table.status == "closed":
            return False
        if old:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException as exc:  # 404: gone already; 403: not allowed
                log.warning("could not delete the old table message in %s: %s", table.channel_id, exc)
        try:
            msg = await channel.send(files=files, **kwargs)
        except discord.HTTPException:
            log.warning("could not post the table message in %s", table.channel_id)
            return False
        await self.bot.service.set_message(table, msg.id)
        return True

    async def lobby_expired(self, table: Table, minutes: Optional[int]) -> None:
        """Say in the channel, in the table's language, that its lobby closed unstarted."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.send(table_message.lobby_expired(minutes or table.lobby_minutes, table.lang))
        except discord.HTTPException:
            log.warning("could not post the lobby's closing in %s", table.channel_id)

    def lang_of_seat(self, table: Table, seat: int) -> str:
        """A player's language: the one of their last interaction, kept with the player by the
        table service (also through restarts, ``service.langs``), else the table's."""
        return self.bot.service.user_lang(table.seats[seat].user_id) or table.lang

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

    def _dm_message(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private) \
            .get_partial_message(message_id)

    async def show_panel(self, feed: TableFeed, seat: int, parts: "messages.Panel") -> Optional[bool]:
        """Make the seat's panel show ``parts``: edit this hand's panel in place (nothing when
        it already shows it; the image uploaded only when its bytes differ from the ones it
        shows), or send the hand's first panel.  ``True`` when it shows them, ``False`` when
        Discord failed (tried again later), ``None`` when the player's DMs are closed
        (remembered)."""
        table = feed.table
        s = table.seats[seat]
        kept = feed.msgs.setdefault(seat, {})
        panel = kept.get("panel") or {}
        shown = feed.shown.get(seat) or {}
        digest, image = parts.digest, parts.image_digest
        same_hand = panel.get("hand") == table.hand_id and panel.get("message")
        if same_hand and digest in (shown.get("digest"), panel.get("digest")):
            return True
        png = shown.get("png") or panel.get("png")
        try:
            if same_hand:
                kwargs = await messages.render_parts(parts, image=shown.get("image") != image)
                if "file" in kwargs:
                    file = kwargs.pop("file")
                    if messages.png_digest(file) != png:  # the same picture from another view: kept
                        png = messages.png_digest(file)
                        kwargs["attachments"] = [file]
                try:
                    await self._dm_message(panel["channel"], panel["message"]).edit(**kwargs)
                    feed.shown[seat] = {"digest": digest, "image": image, "png": png, "menu": None}
                    kept["panel"] = dict(panel, digest=digest, png=png)
                    return True
                except discord.NotFound:
                    pass  # deleted: a new one below
            kwargs = await messages.render_parts(parts)
            png = messages.png_digest(kwargs["file"])
            if kwargs.get("view") is None:
                kwargs.pop("view")
            msg = await self.dm(s.user_id, **kwargs)
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
            return None
        except discord.HTTPException:
            log.warning("panel of %s failed", s.user_id)
            return False
        kept["panel"] = {"hand": table.hand_id, "channel": msg.channel.id, "message": msg.id,
                         "digest": digest, "png": png}
        feed.shown[seat] = {"digest": digest, "image": image, "png": png, "menu": None}
        return True

    def panel_image_of(self, table: Table, seat: int, message_id: Optional[int]) -> Optional[str]:
        """The digest of the image bytes the seat's panel shows now, when ``message_id`` is
        that panel (``None`` otherwise): an answer that would upload the same image keeps it."""
        feed = self.feeds.get(table.channel_id)
        if feed is None or message_id is None:
            return None
        panel = (feed.msgs.get(seat) or {}).get("panel") or {}
        if panel.get("message") != message_id or panel.get("hand") != table.hand_id:
            return None
        return (feed.shown.get(seat) or {}).get("png") or panel.get("png")

    def panel_answered(self, table: Table, seat: int, message_id: Optional[int], parts: "messages.Panel",
                       png: Optional[str] = None) -> None:
        """A player's click was answered by editing the message they clicked: when that was
        their panel, remember what it shows now (so the fan-out does not draw it again, and
        leaves a 听 menu or a confirmation they look at alone until their decision changes)."""
        feed = self.feeds.get(table.channel_id)
        if feed is None or message_id is None:
            return
        kept = feed.msgs.get(seat) or {}
        panel = kept.get("panel") or {}
        if panel.get("message") == message_id and panel.get("hand") == table.hand_id:
            feed.shown[seat] = {"digest": parts.digest, "image": parts.image_digest, "png": png,
                                "menu": parts.decision if parts.menu else None}
            kept["panel"] = dict(panel, digest=parts.digest, png=png)

    def panel_lost(self, table: Table, seat: int) -> None:
        """The answer that would have redrawn a player's panel failed: the fan-out draws it."""
        feed = self.feeds.get(table.channel_id)
        if feed is not None:
            feed.shown.pop(seat, None)
            panel = (feed.msgs.get(seat) or {}).get("panel")
            if panel:
                panel.pop("digest", None)
            feed.panels_due = True
            feed.wake.set()

    async def send_notice(self, feed: TableFeed, seat: int, parts: "messages.Panel",
                          deadline: Optional[int]) -> bool:
        """Ping a player who must decide with a short DM linking to this hand's panel (the
        one before deleted first: at most one notice per player).  ``True`` when sent."""
        table = feed.table
        s = table.seats[seat]
        kept = feed.msgs.setdefault(seat, {})
        panel = kept.get("panel") or {}
        if panel.get("hand") != table.hand_id or not panel.get("message"):
            return False  # no panel of this hand to point at yet
        await self.delete_notice(kept)
        if kept.get("stale"):
            return False  # an older notice could not be deleted yet: never two at once
        link = f"https://discord.com/channels/@me/{panel.get('channel')}/{panel.get('message')}"
        lang = self.lang_of_seat(table, seat)
        text = words_panel.notice_text(parts.image_view, table.hand_names(), lang, table.variant.id,
                                       f"<#{table.channel_id}>", link, deadline)
        try:
            msg = await self.dm(s.user_id, content=text)
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
            return False
        except discord.HTTPException:
            log.warning("notice to %s failed", s.user_id)
            return False
        hid, decision = parts.decision
        kept["notice"] = {"hand": hid, "decision": decision, "deadline": deadline,
                          "channel": msg.channel.id, "message": msg.id}
        return True

    async def delete_notice(self, kept: dict) -> None:
        """Delete a player's notice (answered, or its decision passed); one Discord would not
        delete now is kept to be tried again (:meth:`delete_stale`)."""
        notice = kept.pop("notice", None)
        if notice:
            kept.setdefault("stale", []).append([notice["channel"], notice["message"]])
            await self.delete_stale(kept)

    async def delete_stale(self, kept: dict) -> None:
        """Try again to delete the notices Discord would not delete before."""
        left = []
        for channel_id, message_id in kept.get("stale") or []:
            try:
                await self._dm_message(channel_id, message_id).delete()
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("could not delete a notice in %s", channel_id)
                left.append([channel_id, message_id])
        if left:
            kept["stale"] = left
        else:
            kept.pop("stale", None)

    async def channel_notice(self, table: Table, seat: int) -> None:
        """Tell a player whose DMs are closed, in the channel and mentioning only them, to use
        **My hand** for this hand (once per player per hand)."""
        s = table.seats[seat]
        lang = self.lang_of_seat(table, seat)
        channel = self.bot.get_partial_messageable(table.channel_id)
        try:
            await channel.send(words_panel.channel_notice(f"<@{s.user_id}>", lang),
                               allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                        users=[discord.Object(s.user_id)]))
        except discord.HTTPException:
            log.warning("could not post the closed-DM notice in %s", table.channel_id)

    async def auto_notice(self, table: Table, seat: int) -> None:
        """Tell a player their seat is on auto-play (托管) — or, when they left, that another
        player may take it between hands — with a **Take over** button."""
        if seat >= len(table.seats):
            return
        s = table.seats[seat]
        if s.is_ai or s.user_id is None or not s.auto or not s.dms_open:
            return
        lang = self.lang_of_seat(table, seat)
        channel = f"<#{table.channel_id}>"
        text = prompts.left_notice(channel, lang) if s.left else \
            prompts.auto_notice(channel, lang, table.auto_play_level())
        try:
            await self.dm(s.user_id, content=text,
                          view=messages.takeover_view(table, lang))
        except discord.Forbidden:
            await self.bot.service.set_dms_open(table, seat, False)
        except discord.HTTPException:
            log.warning("auto-play notice to %s failed", s.user_id)
