"""Restarts: what the bot had not sent before it stopped, and the result screen.

* ``TableService.load`` (``service/tables.py``) rebuilds each table but tells no listener, and
  the new process's fan-out (``cogs/fanout.py``) starts with nothing queued: a move stored and
  answered just before the stop, whose fan-out had not gone out yet, is never shown — the
  player to act gets no prompt and the table message shows the turn before.
* On the result screen the finished hand is not reloaded (``Store.load_open_tables`` returns
  only ``'playing'`` hands; ``service.rebuild.table_from_store`` sets ``hand``/``last_result`` to
  ``None`` and ``next_hand_at`` to *now*): the next timer tick deals at once, and any redraw
  before that drops the result and the **Next hand** button.
* The new fan-out's ``TableFeed.prompted`` is empty: the first change after a restart sends a
  second DM for a decision that was prompted before it.
"""

from __future__ import annotations

import pytest

from service.clock import ManualClock

try:
    from table_helpers import embed_text, open_table
    from discord_play import new_bot, play_humans, press, table_button, table_message, timeout_policy
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import embed_text, open_table
    from tests.harness.discord_play import new_bot, play_humans, press, table_button, table_message, timeout_policy


def _prompts_for(fd, user, channel_id: int, hand_id: int, decision: int) -> list:
    """The user's DMs that carry buttons of that decision."""
    pre = (f"mj:{channel_id}:{hand_id}:d{decision}:", f"mjs:{channel_id}:{hand_id}:d{decision}")
    return [m for m in fd.dms_to(user) if any(c.startswith(pre) for c in m.custom_ids)]


@pytest.mark.asyncio
async def test_a_move_stored_just_before_a_stop_is_shown_after_the_restart(tmp_path):
    """two_player, alice and bob (table seed 31), moves by the timeout rule.  Channel and DM
    calls take 0.5 s.  bob discards with his DM button; the click is answered (stored) and the
    bot process stops before its fan-out went out.  A new process starts on the same database.
    Once it is idle, alice — whose turn it now is — should hold a prompt for her decision and the
    table message should name her as on turn; she has no prompt and the message says bob."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat,
                          until=lambda t: len(t.actions) >= 3 and t.seat_of(bob.id) in t.hand.pending_seats()
                          and t.hand.timer_kind() == "discard")
        sb = table.seat_of(bob.id)
        fd.latency = lambda call: 0.5 if "/channels/" in call.path else 0.0
        r = await press(fd, bob, timeout_policy(table.hand, sb), wait="answered")
        assert r.response_type == 7
        stored = list((await bot.store.get_hand(table.hand_id)).actions)
        assert stored == table.actions  # the move is stored: the answer said so

        bot2 = new_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock)
        await fd.restart(bot2)
        fd.latency = 0.0
        await fd.settle()
        t2 = bot2.service.table_in(fd.channel_id)
        sa = t2.seat_of(alice.id)
        assert t2.actions == stored and t2.hand.pending_seats() == [sa]
        assert _prompts_for(fd, alice, fd.channel_id, t2.hand_id, t2.decisions[sa]), \
            "alice was never prompted for her turn"
        text = embed_text(table_message(fd, fd.channel_id))
        # the message shows bob's stored discard and alice the next to play — whether or not she
        # may claim it (a claim window reads as any discard does)
        discard = stored[-1].split()[-1]
        assert f"Turn: **{bob.name}**" not in text and f"{bob.name} discards {discard}" in text.splitlines()[-1], text
        assert f"Turn: **{alice.name}**" in text, text
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_restart_on_the_result_screen_keeps_the_result_on_the_table_message(tmp_path):
    """two_player, alice and bob (table seed 31), hand 1 played to its end (an exhaustive draw).
    The bot restarts; bob types /mj table leave (his seat goes on auto-play, which redraws the table
    message).  The message should still show the result and its **Next hand** button; it shows
    only the auto-play line."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat)
        assert "Exhaustive draw" in embed_text(table_message(fd, fd.channel_id))
        bot2 = new_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock)
        await fd.restart(bot2)
        r = await fd.slash(bob, "mj table leave", check=False)
        assert r.response_type is not None and not r.errors
        text = embed_text(table_message(fd, fd.channel_id))
        assert "Exhaustive draw" in text, text
        table_button(fd, fd.channel_id, "next")
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_restart_on_the_result_screen_keeps_the_result_timeout(tmp_path):
    """two_player, alice and bob (table seed 31), hand 1 played to its end; the result timeout
    is 30 s.  The bot restarts at once and its timer ticks with the clock unmoved: no hand should
    be dealt before the 30 s are up; hand 2 is dealt by that first tick."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        await play_humans(fd, bot, fd.channel_id, by_seat)
        hand1 = table.hand_id
        bot2 = new_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock)
        await fd.restart(bot2)
        await bot2.service.tick()
        await fd.settle()
        t2 = bot2.service.table_in(fd.channel_id)
        assert t2.hand_id in (None, hand1), "a new hand was dealt before the result timeout"
        bot2.service.clock.advance(31)
        await bot2.service.tick()
        await fd.settle()
        assert t2.hand_id not in (None, hand1) and not t2.hand.is_over()
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_decision_prompted_before_a_restart_is_not_prompted_again(tmp_path):
    """laosanfan, four humans (table seed 5), three moves by the timeout rule; the seat to act
    has its DM prompt.  The bot restarts; another player types /mj table leave (a change of the
    table).  The waiting player should still hold one DM for that decision; they get two."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "laosanfan", 5, ["ann", "ben", "cat", "dan"])
    try:
        await play_humans(fd, bot, fd.channel_id, by_seat, until=lambda t: len(t.actions) >= 3)
        seat = table.hand.pending_seats()[0]
        waiting = by_seat[seat]
        dec = table.decisions[seat]
        assert len(_prompts_for(fd, waiting, fd.channel_id, table.hand_id, dec)) == 1

        bot2 = new_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock)
        await fd.restart(bot2)
        t2 = bot2.service.table_in(fd.channel_id)
        other = next(u for s, u in by_seat.items() if s != seat)
        r = await fd.slash(other, "mj table leave", check=False)
        assert not r.errors
        assert t2.hand.pending_seats() == [seat] and t2.decisions[seat] == dec
        assert len(_prompts_for(fd, waiting, fd.channel_id, t2.hand_id, dec)) == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_hand_settled_at_a_restart_shows_its_result(tmp_path):
    """two_player, alice and bob (table seed 31), moves by the timeout rule; the last move is
    stored and the process stops before the settlement is written — as a bot from before the
    last move and the settlement were one transaction could leave a hand.  The new process
    settles the hand while it loads the tables.  Once it is idle the table message should
    show the result and **Next hand**."""
    import copy

    def last_move_next(t) -> bool:
        hand = copy.deepcopy(t.hand)
        hand.apply(hand.timeout_action(hand.pending_seats()[0]))
        return hand.is_over()

    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        await play_humans(fd, bot, fd.channel_id, by_seat, until=last_move_next)

        async def dies(hand_id, *args, actions=None, **kwargs):
            if actions is not None:  # the older bot's separate transaction of the last move
                await bot.store.append_actions(hand_id, *actions)
            raise RuntimeError("process killed before the settlement was written")

        bot.store.finish_hand = dies
        seat = table.hand.pending_seats()[0]
        await press(fd, by_seat[seat], timeout_policy(table.hand, seat), check=False)
        stored = await bot.store.get_hand(table.hand_id)
        assert stored.status == "playing" and list(stored.actions) == table.actions and table.hand.is_over()

        bot2 = new_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock)
        await fd.restart(bot2)
        await fd.settle()
        t2 = bot2.service.table_in(fd.channel_id)
        assert (await bot2.store.get_hand(t2.hand_id)).status == "done"
        text = embed_text(table_message(fd, fd.channel_id))
        assert "Exhaustive draw" in text, text
        table_button(fd, fd.channel_id, "next")
    finally:
        await fd.close()
