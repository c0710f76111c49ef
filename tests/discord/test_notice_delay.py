"""The notice DM waits (``cogs/feed.py`` ``TableFeed._notice_due``): Discord notifies on new
messages, not on edits, so a player who must decide is pinged by a short DM — but one watching
their panel answers within seconds and needs none, and each notice costs a message and its
deletion.  The notice goes once the decision has been open for the bot's ``notice_delay``
seconds.  The seconds pass on a manual timer the test fires (``bot.notice_timer``), so nothing
here depends on how fast the machine is."""

from __future__ import annotations

import asyncio

import pytest

from discord_play import press, timeout_policy
from panel_checks import notices_of, panels_of, seated_table, two_humans


class ManualTimer:
    """The bot's ``notice_timer``: every wait ends when the test calls :meth:`fire` (an event,
    so a waiting notice is idle to the fake Discord's ``settle``)."""

    def __init__(self):
        self.asked: list[float] = []
        self.event = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await self.event.wait()

    def fire(self) -> None:
        self.event.set()


async def _table(tmp_path, game: str = "two_player", seed: int = 4):
    bot, fd, table, users = await seated_table(tmp_path, game, seed)
    return bot, fd, table, users


async def _delayed(tmp_path):
    """A table of two players whose bot waits 5 s (on a manual timer) before a notice; the
    table is started after the timer is set, so every decision waits."""
    from service.clock import ManualClock

    from discord_play import new_bot
    from fakediscord import FakeDiscord

    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    bot.notice_delay = 5.0
    timer = bot.notice_timer = ManualTimer()
    fd = FakeDiscord(bot)
    await fd.start()
    table, users = await two_humans(fd, bot, "two_player", 4)
    return bot, fd, table, users, timer


@pytest.mark.asyncio
async def test_a_decision_left_open_for_the_delay_is_pinged_once(tmp_path):
    bot, fd, table, users, timer = await _delayed(tmp_path)
    try:
        (seat,) = table.hand.pending_seats()
        user = users[seat]
        assert len(panels_of(fd, user)) == 1  # the panel goes at once
        assert notices_of(fd, user) == []  # the ping waits
        assert timer.asked == [5.0]
        timer.fire()
        await fd.settle()
        (notice,) = notices_of(fd, user)
        link = f"/{panels_of(fd, user)[0].channel_id}/{panels_of(fd, user)[0].id}"
        assert link in notice.content
        other = users[1 - seat]
        assert notices_of(fd, other) == []  # the player who waits is not pinged
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_decision_answered_within_the_delay_is_never_pinged(tmp_path):
    bot, fd, table, users, timer = await _delayed(tmp_path)
    try:
        (seat,) = table.hand.pending_seats()
        first = table.decision(seat)
        await press(fd, users[seat], timeout_policy(table.hand, seat))
        await fd.settle()
        assert table.decision(seat) != first
        assert all(notices_of(fd, u) == [] for u in users.values())  # nobody pinged yet
        timer.fire()  # every wait ends: the answered decision's too
        await fd.settle()
        # only the decisions still open are pinged, each once
        waiting = {users[s].id for s in table.hand.pending_seats() if s in users}
        pinged = {u.id for u in users.values() if notices_of(fd, u)}
        assert pinged == waiting and all(len(notices_of(fd, u)) == 1 for u in users.values() if u.id in pinged)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_without_a_delay_every_decision_is_pinged_at_once(tmp_path):
    bot, fd, table, users = await _table(tmp_path)  # the tests' bots: notice_delay 0
    try:
        assert bot.notice_delay == 0
        (seat,) = table.hand.pending_seats()
        await fd.settle()
        assert len(notices_of(fd, users[seat])) == 1
    finally:
        await fd.close()
