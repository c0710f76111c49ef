"""A clean stop against the fake Discord: SIGTERM (or SIGINT) reaches the handler that
``cogs.shutdown.serve`` installs on this test's own loop, with a move in flight.  The move is
acknowledged, stored and fanned out, an interaction that arrives while stopping is answered
"restarting", the bot closes, and the next start resumes the hand.

(The fake Discord lives in the test's process; the same signal path in a separate ``bot.py``
process, as PID 1 and at a terminal, is tested in ``tests/test_lifecycle_exits.py``.)"""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from cogs.shutdown import serve
from engine import ai
from render.text import t
from service.clock import ManualClock

try:
    from discord_play import new_bot, press
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press
    from tests.harness.fakediscord import FakeDiscord


async def _until(condition, what: str) -> None:
    """Let the loop run until ``condition()`` (at most 10,000 turns of 1 ms)."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"never: {what}")


def _serving(fd: FakeDiscord, bot):
    """``start()`` for :func:`serve`: the fake's start-up, then wait until the bot closed (as
    ``bot.start`` returns once the gateway sees the bot closed)."""
    async def start() -> None:
        await fd.start()
        while not bot.is_closed():
            await asyncio.sleep(0.01)
    return start


@pytest.mark.asyncio
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_finishes_the_move_in_flight_refuses_new_ones_and_the_next_start_resumes(tmp_path, sig):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    clock = ManualClock()
    bot = new_bot(db_url, clock)
    bot.service.lobby.seed_source = lambda: 12345
    fd = FakeDiscord(bot)
    serving = asyncio.create_task(serve(bot, _serving(fd, bot), timeout=8.0))
    await _until(lambda: bot.shutdown.serving, "the bot set itself up")
    try:
        alice, bob = fd.user(101, "alice"), fd.user(102, "bob")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        seat = table.hand.pending_seats()[0]
        mover, other = users[seat], users[1 - seat]
        action = ai.choose_action(table.hand, seat)
        actions_before = list(table.actions)
        table_message = table.message_id

        # the move's handling is held inside the service until the test lets it go on
        entered, gate = asyncio.Event(), asyncio.Event()
        act = bot.service.press

        async def held(*args, **kwargs):
            entered.set()
            await gate.wait()
            return await act(*args, **kwargs)

        bot.service.press = held
        n_calls = len(fd.calls)
        move = asyncio.create_task(press(fd, mover, action))
        await entered.wait()
        os.kill(os.getpid(), sig)  # what docker stop / systemctl stop / Ctrl-C send
        await _until(lambda: bot.shutdown.stopping, "the stop began")
        assert bot.shutdown.in_flight == 1  # the held move

        # an interaction arriving while stopping: a private "restarting" in the user's language
        refused = await fd.slash(other, "mj table show", wait="answered")
        assert refused.response_type == 4 and refused.ephemeral
        assert refused.content == t("lifecycle.restarting", "en")
        refused_zh = await fd.slash(other, "mj table show", locale="zh-CN", wait="answered")
        assert refused_zh.content == t("lifecycle.restarting", "zh")
        shown = fd.messages[table_message]  # a button of the table message too
        button = next(c for c in shown.walk_components() if c.get("type") == 2 and "custom_id" in c
                      and not c.get("disabled"))
        clicked = await fd.click(other, shown, button["custom_id"], wait="answered")
        assert clicked.response_type == 4 and clicked.ephemeral
        assert clicked.content == t("lifecycle.restarting", "en")
        assert bot.shutdown.refused == 3

        gate.set()
        answered = await move
        assert await serving == sig.name
        assert bot.is_closed()
        # acknowledged: the clicked panel redrawn (7 UPDATE_MESSAGE)
        assert answered.response_type == 7
        # stored and fanned out before the stop ended: the table message was edited after the
        # move (its id is the one the table keeps), and so was the other player's panel
        assert table.actions[len(actions_before):] and len(table.actions) > len(actions_before)
        after = fd.calls[n_calls:]
        edited = {c.path for c in after if c.method == "PATCH"}
        assert any(str(table_message) in p for p in edited), edited
        other_panels = [m for m in fd.dms_to(other) if not m.deleted]
        assert any(any(str(m.id) in p for p in edited) for m in other_panels)

        # the next start on the same database resumes the hand with the move in it
        bot2 = new_bot(db_url, clock)
        await fd.restart(bot2)
        table2 = bot2.service.table_in(ch)
        assert table2.actions == table.actions and table2.hand.seq == table.hand.seq
        again = await fd.slash(other, "mj table show")
        assert again.content != t("lifecycle.restarting", "en")
    finally:
        if not serving.done():
            serving.cancel()
        await fd.close()


async def _held_move(tmp_path, bound: float):
    """A bot serving through :func:`serve` (bound ``bound`` s) with a two-player hand dealt
    and one move held inside the service until the returned gate opens."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    bot.service.lobby.seed_source = lambda: 12345
    fd = FakeDiscord(bot, strict=False)
    serving = asyncio.create_task(serve(bot, _serving(fd, bot), timeout=bound))
    await _until(lambda: bot.shutdown.serving, "the bot set itself up")
    alice, bob = fd.user(101, "alice"), fd.user(102, "bob")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.slash(bob, "mj table join")
    await fd.slash(alice, "mj table start")
    table = bot.service.table_in(fd.channel_id)
    seat = table.hand.pending_seats()[0]
    entered, gate = asyncio.Event(), asyncio.Event()
    pressed = bot.service.press

    async def held(*args, **kwargs):
        entered.set()
        await gate.wait()
        return await pressed(*args, **kwargs)

    bot.service.press = held
    move = asyncio.create_task(press(fd, {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}[seat],
                                     ai.choose_action(table.hand, seat)))
    await entered.wait()
    return bot, fd, serving, move, gate


@pytest.mark.asyncio
async def test_the_bound_ends_a_stop_whose_move_does_not_finish(tmp_path, caplog):
    """A move that never finishes does not hold the stop: after STOP_TIMEOUT the bot says what
    was left and closes all the same (the next start resumes from the store)."""
    bot, fd, serving, move, gate = await _held_move(tmp_path, bound=0.05)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        assert await serving == "SIGTERM"  # the gate never opens: only the bound ends the wait
        assert bot.is_closed()
        assert any("1 of interactions not finished within STOP_TIMEOUT" in r.getMessage() for r in caplog.records)
    finally:
        move.cancel()
        await fd.close()


@pytest.mark.asyncio
async def test_a_second_signal_stops_at_once(tmp_path, caplog):
    """Ctrl-C twice: the second does not wait for the bound (8 s here, and the move is held)."""
    bot, fd, serving, move, gate = await _held_move(tmp_path, bound=8.0)
    try:
        os.kill(os.getpid(), signal.SIGINT)
        await _until(lambda: bot.shutdown.stopping, "the stop began")
        os.kill(os.getpid(), signal.SIGINT)
        assert await serving == "SIGINT"
        assert bot.is_closed() and bot.shutdown.in_flight == 1  # the held move was not waited for
        assert any("SIGINT again: stopping now" in r.getMessage() for r in caplog.records)
    finally:
        move.cancel()
        await fd.close()
