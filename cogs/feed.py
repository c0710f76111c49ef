"""One table's ordered fan-out task (:class:`TableFeed`): the public table message, each
player's panel and notice, the closing of a table — what ``cogs/fanout.py`` describes, for
one table, in the order its changes came.  :class:`cogs.fanout.Fanout` owns one per table."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import deque
from typing import Any, Optional

import discord

from render.text import table_message
from service.tables import Table, Update

from . import messages

log = logging.getLogger("cogs.fanout")

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

    def __init__(self, fanout: Any, table: Table):  # fanout: the cogs.fanout.Fanout that owns it
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


__all__ = ["TableFeed", "RETRY_EDIT"]
