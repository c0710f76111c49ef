"""A player whose DMs were closed once gets no DM again at that table.

``Fanout.send_prompt`` (``cogs/fanout.py``) marks a seat ``dms_open = False`` on the first
403/50007 and ``TableService.set_dms_open`` stores it; nothing ever sets it back (no retry at
a new hand, no command), so a player who opens their DMs again plays the rest of the table's
life — later hands, restarts — from the channel mention and **My hand**.
"""

from __future__ import annotations

import pytest

try:
    from table_helpers import open_table
    from discord_play import play_humans, press, table_button, timeout_policy
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import open_table
    from tests.harness.discord_play import play_humans, press, table_button, timeout_policy


async def _play_with_my_hand(fd, table, by_seat, user) -> None:
    """Play the hand to its end; ``user`` opens **My hand** before each of their moves."""
    while not table.hand.is_over():
        seat = table.hand.pending_seats()[0]
        u = by_seat[seat]
        if u is user:
            msg, cid = table_button(fd, fd.channel_id, "hand")
            await fd.click(user, msg, cid)
        await press(fd, u, timeout_policy(table.hand, seat))


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_player_who_opens_dms_again_gets_dms_in_the_next_hand(tmp_path):
    """two_player, alice and bob (table seed 31).  alice closes her DMs during hand 1: her next
    prompt fails with 50007 and she plays the rest of the hand from **My hand**.  Before hand 2
    she opens her DMs again.  When bob presses **Next hand**, alice should get her hand by DM,
    as every player does at a deal; she gets nothing."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        sa = table.seat_of(alice.id)
        await play_humans(fd, bot, fd.channel_id, by_seat,
                          until=lambda t: len(t.actions) >= 3 and sa not in t.hand.pending_seats())
        alice.dms_open = False
        await _play_with_my_hand(fd, table, by_seat, alice)
        assert table.seats[sa].dms_open is False
        alice.dms_open = True
        before = len(fd.dms_to(alice))
        msg, cid = table_button(fd, fd.channel_id, "next")
        await fd.click(bob, msg, cid)
        assert not table.hand.is_over()
        assert len(fd.dms_to(alice)) > before, "no DM for alice at the deal of hand 2"
    finally:
        await fd.close()
