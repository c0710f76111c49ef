"""The bot against Discord's rate limits (``tests/harness/fakediscord/ratelimit.py``): real
sleeps, Discord's limits counted on the loop's clock, editing a channel's messages 5 times per
5 seconds.

discord.py reads the rate-limit headers and, once a channel's edit bucket is used up, holds
the next edit of that channel until the window ends -- the table's fan-out (and every DM and
prompt queued behind that edit) waits with it.  So a bot that edits the table message after
every move uses the bucket up in a burst and its fan-out stalls for seconds; at the bot's
pace of one edit a second it never has to wait longer than that second, and nothing is ever
refused (a 429 would make the harness raise, ``strict``)."""

from __future__ import annotations

import pytest

from service.clock import ManualClock

try:
    from discord_play import new_bot, press, timeout_policy
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press, timeout_policy
    from tests.harness.fakediscord import FakeDiscord

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def _started_table(tmp_path, pace: float):
    """Four humans at a laosanfan table (seed 5), started; the table message edited ``pace``
    seconds apart at least."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), public_edit_interval=pace)
    fd = FakeDiscord(bot, fast_retries=False, rate_limits=True)
    await fd.start()
    bot.service.lobby.seed_source = lambda: 5
    users = [fd.user(800 + i, n) for i, n in enumerate(["ann", "ben", "cat", "dan"])]
    await fd.slash(users[0], "mj table create", {"variant": "laosanfan"})
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    await fd.slash(users[0], "mj table start")
    table = bot.service.table_in(fd.channel_id)
    return bot, fd, table, {table.seat_of(u.id): u for u in users}


async def _move(fd, table, by_seat) -> None:
    seat = table.hand.pending_seats()[0]
    await press(fd, by_seat[seat], timeout_policy(table.hand, seat))


@pytest.mark.asyncio
async def test_table_edits_without_a_pace_use_up_the_channels_edit_bucket(tmp_path):
    """``public_edit_interval`` 0: within a few moves the table message's channel uses up its
    edit bucket faster than 5 per 5 s allows, and discord.py holds the fan-out for seconds."""
    bot, fd, table, by_seat = await _started_table(tmp_path, pace=0.0)
    label = f"{EDIT} [channel_id={fd.channel_id}]"
    try:
        for _ in range(10):
            if fd.burst_counts[label]:
                break
            await _move(fd, table, by_seat)
        await fd.settle()
        assert fd.burst_counts[label] >= 1, fd.exhausted_counts
        bucket = next(b for b in fd.buckets.values() if b.label == label)
        assert max(bucket.holds) > 2.0, bucket.holds  # the fan-out waited that long for Discord
        assert fd.rate_limited == []  # discord.py waited: nothing was refused
    finally:
        await fd.close()


@pytest.mark.slow  # ten seconds of real pace
@pytest.mark.asyncio
async def test_moves_at_the_bots_pace_never_wait_for_discord(tmp_path):
    """``public_edit_interval`` 1.0 (the bot's pace in production): six moves; no bucket is used
    up faster than its steady rate (no edit waits longer than the pace) and nothing is refused."""
    bot, fd, table, by_seat = await _started_table(tmp_path, pace=1.0)
    try:
        for _ in range(6):
            await _move(fd, table, by_seat)
        await fd.settle()
        edits = [c for c in fd.calls if c.key == EDIT and c.path.startswith(f"/channels/{fd.channel_id}/")]
        assert len(edits) >= 5  # the table message was edited all along
        assert fd.burst_counts == {} and fd.rate_limited == []
        assert all(c.status < 400 for c in fd.calls)
    finally:
        await fd.close()
