"""A failed answer to **My hand** / ``/hand`` rebuilds the whole table from the store.

``Play.send_hand`` (``cogs/play.py``) sends its answer with a bare ``reply`` (the other paths
wrap theirs in ``answer()``): when Discord refuses it (404 10062 "Unknown interaction", a
late click; 5xx), the ``HTTPException`` reaches the one error path, ``handle_error``
(``cogs/common.py``), which takes it for a table fault and calls ``TableService.reload``.
``Hands.reload`` rebuilds the table from the store, which

* on the result screen drops the finished hand and its result (only ``'playing'`` hands are
  loaded): the next redraw of the table message has neither the result nor **Next hand**;
* during a hand re-arms the turn timer (``Table.arm_timer``): the player on turn gets the full
  time again whenever somebody's **My hand** answer fails.
"""

from __future__ import annotations

import pytest

try:
    from table_helpers import embed_text, open_table
    from discord_play import play_humans, table_button, table_message
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import embed_text, open_table
    from tests.harness.discord_play import play_humans, table_button, table_message

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_failed_my_hand_answer_keeps_the_result_screen(tmp_path):
    """two_player, alice and bob (table seed 31), hand 1 played to its end (an exhaustive
    draw).  alice presses **My hand**; its answer reaches Discord too late (404 10062).  Then
    bob types /mj table leave, which redraws the table message.  It should still show the result
    and **Next hand**; it shows neither."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat)
        assert "Exhaustive draw" in embed_text(table_message(fd, fd.channel_id))
        fd.fail_next(404, route=CALLBACK, code=10062)
        msg, cid = table_button(fd, fd.channel_id, "hand")
        await fd.click(alice, msg, cid, check=False)
        r = await fd.slash(bob, "mj table leave", check=False)
        assert r.response_type is not None and not r.errors
        text = embed_text(table_message(fd, fd.channel_id))
        assert "Exhaustive draw — nobody pays" in text, text
        table_button(fd, fd.channel_id, "next")
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_failed_my_hand_answer_does_not_reset_the_turn_timer(tmp_path):
    """two_player, alice and bob (table seed 31), three moves; the discard timeout is 15 s.
    10 s into the turn alice presses **My hand** and its answer reaches Discord too late
    (404 10062).  The turn should still end 5 s later; its deadline moves to 15 s from now."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat, until=lambda t: len(t.actions) >= 3)
        clock = bot.service.clock
        deadline = table.deadline
        assert deadline is not None
        clock.advance(10)
        fd.fail_next(404, route=CALLBACK, code=10062)
        msg, cid = table_button(fd, fd.channel_id, "hand")
        await fd.click(alice, msg, cid, check=False)
        assert table.deadline == deadline, (deadline, table.deadline)
    finally:
        await fd.close()
