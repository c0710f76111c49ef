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

The ids of each seat's panel and notice are kept through the table service (so a restarted
bot edits the same panel and deletes the same notice).  Everything is read from the table
when the task gets to it, so a slow Discord never makes the bot send an old state after a
newer one.
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

from render.text import panel as words_panel
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
        self.panels_due = False
        #: seat -> its private messages, as kept through the service: ``{"panel": {"hand",
        #: "channel", "message"}, "notice": {"hand", "decision", "channel", "message"}}``
        self.msgs: dict[int, dict] = {}
        #: seat -> what its panel shows now: ``{"digest", "image", "menu"}`` (not kept)
        self.shown: dict[int, dict] = {}
        self.panel_failures = 0
        self.closed = False
        #: the next redraw posts the table message anew at the bottom (and deletes the old one)
        self.repost_due = False
        #: other people's messages in the channel since the table message was last posted
        self.seen = 0
        #: the match that ended with the closing: its standings are posted after the last edit
        self.match_id: Optional[int] = None
        self.task: Optional[asyncio.Task] = None

    def push(self, update: Update) -> None:
        table = self.table
        self.public_due = True
        self.panels_due = True
        if update.kind in ("closed", "match_over"):
            self.closed = True
            for e in update.events:
                if e.get("type") == "lobby_expired":
                    self.jobs.append(("expired", e.get("minutes")))
            if update.match_id is not None:
                self.match_id = update.match_id
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
            if self.public_due or self.panels_due:
                wait = self.last_edit + self.fanout.interval() - asyncio.get_running_loop().time()
                if wait > 0 and not self.closed:
                    self.wake.clear()
                    try:
                        await asyncio.wait_for(self.wake.wait(), timeout=wait)
                    except asyncio.TimeoutError:
                        pass
                    continue  # new jobs first; the edit shows the latest state anyway
                if self.public_due:
                    self.public_due = False
                    try:
                        await self.publish()
                    except Exception:
                        log.exception("could not redraw the table message of %s", self.table.channel_id)
                if self.panels_due:
                    self.panels_due = False
                    try:
                        await self.refresh_panels()
                    except Exception:
                        log.exception("could not redraw the panels of %s", self.table.channel_id)
                continue
            if self.closed:
                try:
                    await self.close_private()
                except Exception:
                    log.exception("could not close the panels of %s", self.table.channel_id)
                if self.match_id is not None:
                    try:
                        await self.fanout.post_standings(self.match_id)
                    except Exception:  # posted at the next start (its message is not stored)
                        log.exception("could not post the standings of match %s", self.match_id)
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
        elif kind == "expired":
            await self.fanout.lobby_expired(self.table, job[1])
        elif kind == "prompts":
            _, start, actor, key, notify = job
            await self.prompts(start, actor, key, notify)

    async def seat_msgs(self, seat: int) -> dict:
        """The seat's kept private messages (loaded from the service once, after a restart):
        ``{"panel": {"hand", "channel", "message", "digest", "png"}, "notice": {"hand",
        "decision", "deadline", "channel", "message"}, "stale": [[channel, message], …],
        "told": hand id, "user": the player's user id}``; forgotten when another player took
        the seat."""
        uid = self.table.seats[seat].user_id
        if seat in self.msgs and self.msgs[seat].get("user", uid) != uid:
            # another player took the seat: its messages were the other player's
            self.msgs.pop(seat)
            self.shown.pop(seat, None)
            self.prompted.pop(seat, None)
        if seat not in self.msgs:
            kept = await self.fanout.bot.service.seat_messages(self.table, seat)
            self.msgs[seat] = {} if kept.get("user", uid) != uid else kept
        self.msgs[seat]["user"] = uid
        return self.msgs[seat]

    async def langs(self, seats: list[int]) -> None:
        """Before drawing: each seat's kept messages and its player's language are loaded."""
        for seat in seats:
            await self.seat_msgs(seat)
        await self.fanout.bot.service.load_langs(self.table.seats[s].user_id for s in seats)

    def _humans(self) -> list[int]:
        """The seats with a panel: humans the current hand was dealt to (who sat down since
        gets theirs at the next deal)."""
        return [i for i, s in enumerate(self.table.seats)
                if not s.is_ai and s.user_id is not None and self.table.dealt_to(i)]

    async def prompts(self, start: bool, actor: Optional[int], key: tuple, notify: frozenset) -> None:
        """After a change: the seats that must decide anew get their panel at once and a
        notice; at a deal (or a restart) every panel is drawn; notices whose decision passed
        are deleted.  The rest of the panels follow at the table message's pace."""
        table = self.table
        humans = self._humans()
        await self.langs(humans)
        async with table.lock:
            if table.hand is None or table.status == "closed":
                return
            now = (table.hand_id, table.seq)
            urgent = set()
            for seat in humans:
                decision = self._decision(seat)
                own = seat == actor and now == key  # their own answer shows this state: no ping
                if own and decision is not None:
                    self.prompted[seat] = decision
                kept = self.msgs[seat]
                notice = kept.get("notice")
                if start or (kept.get("panel") or {}).get("hand") != table.hand_id or kept.get("stale") \
                        or (decision is not None and self.prompted.get(seat) != decision) \
                        or (notice and (notice.get("hand"), notice.get("decision")) != decision):
                    urgent.add(seat)
            work = self._draw(urgent)
        await self._sync(work, start)

    async def refresh_panels(self) -> None:
        """Redraw every human's panel that changed, ping who was not pinged (paced with the
        table message)."""
        table = self.table
        humans = self._humans()
        await self.langs(humans)
        async with table.lock:
            if table.hand is None or table.status == "closed":
                return
            work = self._draw(set(humans))
        await self._sync(work, False)

    def _decision(self, seat: int) -> Optional[tuple]:
        """``(hand id, decision)`` the hand waits for from a human seat not on auto-play
        (``None`` when it waits for nothing of theirs).  Read under the lock."""
        table = self.table
        s = table.seats[seat]
        if table.hand_over or s.auto or seat not in table.pending():
            return None
        return table.hand_id, table.decision(seat)

    def _draw(self, seats: set) -> list[tuple]:
        """Under the lock: ``(seat, panel parts, decision, deadline)`` for each seat to sync."""
        table = self.table
        fan = self.fanout
        out = []
        deadline = table.deadline_unix()
        for seat in sorted(seats):
            parts = messages.hand_parts(table, seat, fan.lang_of_seat(table, seat))
            out.append((seat, parts, self._decision(seat), deadline))
        return out

    async def _sync(self, work: list[tuple], start: bool) -> None:
        """Outside the lock: make each seat's panel and notice what ``work`` says."""
        table = self.table
        fan = self.fanout
        failed = False
        for seat, parts, decision, deadline in work:
            kept = self.msgs.setdefault(seat, {})
            before = json.dumps(kept, sort_keys=True)
            await fan.delete_stale(kept)
            shown = None
            menu = (self.shown.get(seat) or {}).get("menu")
            if table.seats[seat].dms_open and menu is not None and menu == decision:
                shown = True  # the player looks at the 听 menu or a confirmation of this decision
            elif table.seats[seat].dms_open:
                shown = await fan.show_panel(self, seat, parts)
            notice = kept.get("notice")
            if notice and (notice.get("hand"), notice.get("decision")) != decision:
                await fan.delete_notice(kept)  # answered, or the decision passed
                notice = None
            if shown is True and decision is not None and self.prompted.get(seat) != decision:
                if await fan.send_notice(self, seat, parts, deadline):
                    self.prompted[seat] = decision
                    await fan.bot.service.set_prompted(table, seat, f"{decision[0]}:{decision[1]}")
            elif shown is True and notice and start and notice.get("deadline") != deadline:
                await fan.send_notice(self, seat, parts, deadline)  # a restart set a new deadline
            if shown is None and not table.seats[seat].dms_open and kept.get("told") != table.hand_id:
                kept["told"] = table.hand_id
                await fan.channel_notice(table, seat)
            failed = failed or shown is False
            if json.dumps(kept, sort_keys=True) != before:
                await fan.bot.service.set_seat_messages(table, seat, kept)
        if failed:
            # Discord failed (after its own retries): draw the panels again later
            self.panel_failures += 1
            if self.panel_failures <= 8:
                self.panels_due = True
                self.last_edit = asyncio.get_running_loop().time() + min(
                    60.0, RETRY_EDIT * 2 ** (self.panel_failures - 1)) - self.fanout.interval()
        elif work:
            self.panel_failures = 0

    async def close_private(self) -> None:
        """The table closed: delete every notice and take the buttons off this hand's panels.
        When a match ended with a settled hand, each panel shows that hand's result first."""
        table = self.table
        if table.match_id is not None and table.last_result is not None and table.hand is not None:
            humans = self._humans()
            await self.langs(humans)
            async with table.lock:
                work = self._draw(set(humans))
            for seat, parts, _, _ in work:
                if table.seats[seat].dms_open:
                    await self.fanout.show_panel(self, seat, parts)
        for seat in list(self.msgs):
            kept = self.msgs[seat]
            before = json.dumps(kept, sort_keys=True)
            await self.fanout.delete_stale(kept)
            await self.fanout.delete_notice(kept)
            panel = kept.get("panel") or {}
            if panel.get("message") and panel.get("hand") == self.table.hand_id:
                try:
                    await self.fanout._dm_message(panel["channel"], panel["message"]).edit(view=None)
                except discord.HTTPException:
                    log.warning("could not take the buttons off a panel in %s", panel.get("channel"))
            if json.dumps(kept, sort_keys=True) != before:
                await self.fanout.bot.service.set_seat_messages(self.table, seat, kept)

    async def publish(self) -> None:
        table = self.table
        fan = self.fanout
        async with table.lock:  # only stored moves show
            # a match that ended after a settled hand keeps that hand's result, without buttons
            final = table.status == "closed" and table.match_id is not None and table.last_result is not None \
                and table.hand is not None and table.hand.is_over()
            if table.status == "closed" and not final:
                kwargs = {"embed": discord.Embed(description=table_message.closed(table.lang)), "view": None,
                          "attachments": []}
                view = None
            else:
                view = messages.public_view(table)
                embed = messages.table_embed(table, view)
                buttons = None if final else messages.TableButtons(table)
                image = table.hand is not None
        if view is None:
            if table.message_id:
                await fan.edit_public(table, kwargs)
            return
        digest = hashlib.sha1(json.dumps([embed.to_dict(), [c.custom_id for c in buttons.children] if buttons else [],
                                          view if image else None], sort_keys=True, default=str,
                                         ensure_ascii=False).encode()).hexdigest()
        repost, self.repost_due = self.repost_due, False
        if digest == self.last_public and table.message_id and not repost:
            return
        files = [await messages.table_image(view)] if image else []
        self.last_edit = asyncio.get_running_loop().time()
        if await fan.edit_public(table, {"embed": embed, "view": buttons, "attachments": files}, repost=repost):
            if repost:
                self.seen = 0
            self.last_public = digest
            self.last_edit = asyncio.get_running_loop().time()
            self.edit_failures = 0
        else:
            # Discord failed (after its own retries): try again later, or the last change of a
            # hand (its result) would never be shown
            self.edit_failures += 1
            if self.edit_failures <= 8:
                self.public_due = True
                self.repost_due = self.repost_due or repost
                self.last_edit = asyncio.get_running_loop().time() + min(
                    60.0, RETRY_EDIT * 2 ** (self.edit_failures - 1)) - self.fanout.interval()

    def repost(self) -> None:
        """Post the table message again at the bottom of the channel, in this task's order."""
        self.repost_due = self.public_due = True
        self.wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name=f"fanout-{self.table.channel_id}")


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
        text = words_panel.notice_text(parts.image_view, table.names(), lang, table.variant.id,
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
