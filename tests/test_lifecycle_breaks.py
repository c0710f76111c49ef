"""Table lifecycle at awkward moments, through the fake Discord."""

from __future__ import annotations

import pytest

from discord_play import play_humans, table_button, table_message
from panel_checks import restarted_bot, seated_table
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


def _table_messages(fd, ch) -> list:
    """The live messages of a channel that carry table buttons."""
    return [m for m in fd.messages_in(ch) if any(c.startswith("mjt:") for c in m.custom_ids)]


@pytest.mark.asyncio
@pytest.mark.parametrize("slow", ["DELETE", "POST"])
async def test_a_restart_in_the_middle_of_table_show_leaves_one_table_message(slow, tmp_path):
    """The bot stops while /mj table show has one of its two calls in flight (the old message's
    deletion, or the new message's post): after the restart the channel holds one table
    message with buttons, the one the table edits."""
    bot, fd, table, by_seat = await seated_table(tmp_path, "two_player", seed=5)
    ch = fd.channel_id
    old = table_message(fd, ch)
    fd.latency = lambda c: 30.0 if c.method == slow and "/channels/" in c.path and "/messages" in c.path else 0.0
    r = await fd.slash(by_seat[0], "mj table show")
    assert r.content == "Done."
    fd.latency = 0.0  # the call in flight sleeps on, until the restart stops it
    await fd.restart(restarted_bot(bot))
    await fd.settle()
    t2 = fd.bot.service.table_in(ch)
    [live] = _table_messages(fd, ch)
    assert live.id == t2.message_id == (await fd.bot.store.get_open_table(ch)).message_id
    assert [a["filename"] for a in live.data["attachments"]] == ["table.png"]
    if slow == "POST":  # the old one was deleted first: the resumed table posted a new one
        assert fd.message(old.id).deleted and live.id != old.id
    # its buttons answer
    msg, cid = table_button(fd, ch, "hand")
    r = await fd.click(by_seat[0], msg, cid)
    assert r.ephemeral and r.message.data["attachments"]
    await fd.close()
