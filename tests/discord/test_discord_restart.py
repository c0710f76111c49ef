"""Stop the bot mid-hand, start a new process on the same database, finish the hand with the
buttons that were sent before the restart."""

from __future__ import annotations

import pytest

from engine import ai

try:
    from discord_play import new_bot, press_for
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press_for
    from tests.harness.fakediscord import FakeDiscord

from service.clock import ManualClock


@pytest.mark.asyncio
async def test_restart_mid_hand_resumes_exactly(tmp_path):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    clock = ManualClock()
    bot = new_bot(db_url, clock)
    bot.service.lobby.seed_source = lambda: 12345
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice, bob = fd.user(101, "alice"), fd.user(102, "bob")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        for _ in range(7):
            seat = table.hand.pending_seats()[0]
            await press_for(fd, bot, users[seat], ch, ai.choose_action(table.hand, seat))
        assert not table.hand.is_over()
        before_views = [table.hand.view(s) for s in range(2)]
        before_seq, before_log = table.hand.seq, list(table.actions)

        # the process dies; a new one starts on the same database
        bot2 = new_bot(db_url, clock)
        await fd.restart(bot2)
        table2 = bot2.service.table_in(ch)
        assert table2 is not table
        assert table2.hand.seq == before_seq and table2.actions == before_log
        assert [table2.hand.view(s) for s in range(2)] == before_views
        assert table2.message_id == table.message_id

        # finish the hand by pressing the buttons of the messages sent before the restart
        steps = 0
        while not table2.hand.is_over():
            seat = table2.hand.pending_seats()[0]
            r = await press_for(fd, bot2, users[seat], ch, ai.choose_action(table2.hand, seat))
            assert r.response_type == 7
            steps += 1
            assert steps < 200
        hand = await bot2.store.get_hand(table2.hand_id)
        assert hand.status == "done"
        assert [s.points for s in hand.settlements] == table2.last_result["points"]
        assert list(hand.actions) == table2.actions
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_restart_keeps_timers_working(tmp_path):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    clock = ManualClock()
    bot = new_bot(db_url, clock)
    bot.service.lobby.seed_source = lambda: 777
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice = fd.user(101, "alice")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table start")
        bot2 = new_bot(db_url, clock)
        await fd.restart(bot2)
        table = bot2.service.table_in(fd.channel_id)
        seq = table.hand.seq
        assert table.hand.pending_seats() == [table.seat_of(alice.id)]
        clock.advance(16)  # discard timeout is 15 s: the drawn tile is discarded for alice
        assert await bot2.service.tick() == 1
        await fd.settle()
        assert table.hand.is_over() or table.hand.seq > seq
    finally:
        await fd.close()
