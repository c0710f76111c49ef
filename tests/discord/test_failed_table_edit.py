"""The table message after the last change of a hand: when Discord fails that one edit, the
result is never shown.

The fan-out clears ``public_due`` before it edits the table message and never tries again
when the edit fails (``cogs/fanout.py`` ``TableFeed.run`` / ``Fanout.edit_public``): the next
change of the table redraws it, but after the last move of a hand there is none until the next
hand is dealt — and then the result is gone for good.
"""

from __future__ import annotations

import copy

import pytest

try:
    from table_helpers import embed_text, open_table
    from discord_play import play_humans, table_button, table_message
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import embed_text, open_table
    from tests.harness.discord_play import play_humans, table_button, table_message

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def _last_move_next(table) -> bool:
    """Would the pending seat's timeout choice end the hand?"""
    hand = copy.deepcopy(table.hand)
    seat = hand.pending_seats()[0]
    hand.apply(hand.timeout_action(seat))
    return hand.is_over()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_the_result_is_shown_after_a_failed_last_edit(tmp_path):
    """two_player, alice and bob (table seed 31), every move the rules' timeout choice; the hand
    ends in an exhaustive draw.  Discord answers 500 to the five tries of the edit that follows
    the last move.  Once the bot is idle the table message should show the result and the
    **Next hand** button; it still shows the running hand (alice on turn, wall 0)."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        await play_humans(fd, bot, fd.channel_id, by_seat, until=_last_move_next)
        fd.fail_next(500, route=EDIT, times=5)
        await play_humans(fd, bot, fd.channel_id, by_seat)
        assert table.hand.is_over() and table.last_result is not None
        for _ in range(3):  # plenty of time for a retry
            await fd.settle()
        failed = [c for c in fd.calls_to(EDIT) if c.status == 500]
        assert len(failed) == 5
        text = embed_text(table_message(fd, fd.channel_id))
        assert "Exhaustive draw" in text, text
        assert "Turn:" not in text, text
        table_button(fd, fd.channel_id, "next")
    finally:
        await fd.close()
