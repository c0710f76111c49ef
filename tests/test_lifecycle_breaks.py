"""Table lifecycle at awkward moments, through the fake Discord."""

from __future__ import annotations

import pytest

from discord_play import play_humans, table_button, table_message
from test_match import open_match, standings_messages


@pytest.mark.asyncio
async def test_next_hand_after_a_refused_last_settlement_ends_the_match_instead_of_dealing(tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, 1, game="two_player", humans=1, ais=1)
    real = bot.store.finish_hand

    async def refused(*a, **k):
        raise RuntimeError("database gone")

    bot.store.finish_hand = refused
    await play_humans(fd, bot, fd.channel_id, seats)
    await fd.settle()
    assert table.hand.is_over() and table.settled_hand_id != table.hand_id
    bot.store.finish_hand = real
    hand_id = table.hand_id
    msg, cid = table_button(fd, fd.channel_id, "next")
    r = await fd.click(users[0], msg, cid)
    await fd.settle()
    assert r.ephemeral and r.content == "Done."
    # the settlement stored now is the match's last: the match ends, no hand is dealt
    assert table.status == "closed" and table.hand_id == hand_id
    assert fd.channel_id not in bot.service.tables
    match = await bot.store.match_of_table(table.id)
    assert match is not None and match.hands_played == 1
    [posted] = standings_messages(fd, fd.channel_id)
    assert match.message_id == posted.id
    assert table_message(fd, fd.channel_id) is None  # the result stays, without buttons
    await fd.close()
