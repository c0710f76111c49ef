"""A hand's last move is stored, its settlement fails: the player is told to try again.

``Hands.run_automatic`` (``service/hands.py``) stores the move (``flush``) and then
settles in the same ``_guarded`` run; when ``Store.finish_hand`` fails, ``_guarded`` turns it
into a ``TableFault`` and the one error path (``cogs/common.py`` ``handle_error``) answers
"Something went wrong — nothing was lost … Please try again" — although the move was stored
and stays (the timer settles the hand later).  Trying again is refused ("No hand is being
played"), and the clicked prompt keeps its buttons.
"""

from __future__ import annotations

import copy

import pytest

try:
    from table_helpers import open_table
    from discord_play import play_humans, press, timeout_policy
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import open_table
    from tests.harness.discord_play import play_humans, press, timeout_policy


def _last_move_next(table) -> bool:
    hand = copy.deepcopy(table.hand)
    seat = hand.pending_seats()[0]
    hand.apply(hand.timeout_action(seat))
    return hand.is_over()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_stored_last_move_is_answered_as_taken_when_the_settlement_fails(tmp_path):
    """two_player, alice and bob (table seed 31), moves by the timeout rule up to the last one
    (the hand then ends in an exhaustive draw).  The database refuses the settlement once
    ("database is locked").  The last move is pressed: it is stored.  Its answer should redraw
    the clicked prompt as for any stored move, without asking to try again; it is a new private
    message saying "nothing was lost … Please try again"."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        await play_humans(fd, bot, fd.channel_id, by_seat, until=_last_move_next)
        real = bot.store.finish_hand
        calls = []

        async def finish_hand(*args, **kwargs):
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("database is locked")
            return await real(*args, **kwargs)

        bot.store.finish_hand = finish_hand
        seat = table.hand.pending_seats()[0]
        a = timeout_policy(table.hand, seat)
        r = await press(fd, by_seat[seat], a, check=False)
        stored = list((await bot.store.get_hand(table.hand_id)).actions)
        assert stored[-1] == str(a) and table.hand.is_over() and calls == [1]
        texts = [m.content or "" for m in r.all_messages]
        assert not any("try again" in x for x in texts), texts
        assert r.response_type == 7, r.response_type
    finally:
        await fd.close()
