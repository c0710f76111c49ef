"""A hand's last move and its settlement are stored in one transaction: when the settlement
fails, the move is not stored either — the player is told that nothing was lost and to try
again, and trying again takes the move (stored and settled together)."""

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
async def test_a_last_move_whose_settlement_fails_is_not_stored_and_taken_when_tried_again(tmp_path):
    """two_player, alice and bob (table seed 31), moves by the timeout rule up to the last one
    (the hand then ends in an exhaustive draw).  The database refuses the settlement once
    ("database is locked").  The last move is pressed: nothing of it is stored, the answer
    asks to try again; pressed again, it is stored with the settlement."""
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
        before = list((await bot.store.get_hand(table.hand_id)).actions)
        seat = table.hand.pending_seats()[0]
        a = timeout_policy(table.hand, seat)
        r = await press(fd, by_seat[seat], a, check=False)
        stored = await bot.store.get_hand(table.hand_id)
        assert list(stored.actions) == before and stored.status == "playing" and calls == [1]
        assert not table.hand.is_over()
        texts = [m.content or "" for m in r.all_messages]
        assert any("try again" in x for x in texts), texts
        hand_id = table.hand_id
        r = await press(fd, by_seat[seat], a, check=False)
        stored = await bot.store.get_hand(hand_id)
        assert stored.status == "done" and list(stored.actions) == before + [str(a)] and calls == [1, 1]
    finally:
        await fd.close()
