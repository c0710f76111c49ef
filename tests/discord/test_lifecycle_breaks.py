"""Table lifecycle at awkward moments, through the fake Discord."""

from __future__ import annotations

import asyncio

import pytest

from discord_play import new_bot, press, table_button, table_message, timeout_policy
from fakediscord import FakeDiscord
from service.clock import ManualClock
from panel_checks import restarted_bot, seated_table, shows_hand
from test_match import open_match, play_with_settlement_refused, standings_messages
from games import fewest_seats, game_params


GAMES = game_params(quick=("two_player", "zipai"))


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_next_hand_after_a_refused_last_settlement_ends_the_match_instead_of_dealing(game, tmp_path):
    bot, fd, table, seats, users = await open_match(tmp_path, 1, game=game, humans=1, ais=fewest_seats(game) - 1)
    await play_with_settlement_refused(fd, bot, seats)
    assert table.hand.is_over() and table.settled_hand_id != table.hand_id
    hand_id = table.hand_id
    msg, cid = table_button(fd, fd.channel_id, "next")
    r = await fd.click(users[0], msg, cid)
    await fd.settle()
    assert r.ephemeral and r.text == "The table is closed."  # not "the next hand is dealt"
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
    assert r.text == "The table message is posted again at the bottom of the channel."
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
    assert r.ephemeral and shows_hand(r.message)
    await fd.close()


def _slowed(store, name: str, delay: float = 0.3) -> None:
    """Make a store write take ``delay`` seconds (the table's lock is held meanwhile)."""
    real = getattr(store, name)

    async def slow(*a, **k):
        await asyncio.sleep(delay)
        return await real(*a, **k)

    setattr(store, name, slow)


NO_TABLE = "There is no table in this channel. Start one with /mj table create."


@pytest.mark.asyncio
@pytest.mark.parametrize("request_", ["leave", "move"])
async def test_a_request_that_waited_while_the_table_was_ended_is_told_there_is_no_table(request_, tmp_path):
    """The creator ends the table while another player's leave or move waits for it: the
    player is told the table is gone, the aborted hand gets no move and the closed table's seats
    are left as they were."""
    bot, fd, table, users = await seated_table(tmp_path, "two_player", 5, humans=2, locales=("en-US",) * 2)
    p0 = next(u for u in users.values() if u.id == 700)
    p1 = next(u for u in users.values() if u.id == 701)
    hand_id = table.hand_id
    stored = list((await bot.store.get_hand(hand_id)).actions)
    _slowed(bot.store, "abort_hand")
    if request_ == "leave":
        other = fd.slash(p1, "mj table leave")
    else:
        seat = table.hand.pending_seats()[0]
        mover = users[seat]
        other = press(fd, mover, timeout_policy(table.hand, seat))
    ended, r = await asyncio.gather(fd.slash(p0, "mj table end"), other, return_exceptions=True)
    await fd.settle()
    assert ended.text == "The table is closed."
    # asked in the channel: "this channel"; pressed in the panel's DM: the table's channel named
    gone = NO_TABLE if request_ == "leave" else f"The table in <#{fd.channel_id}> is no longer open."
    assert r.ephemeral and r.text == gone
    assert list((await bot.store.get_hand(hand_id)).actions) == stored
    assert [(s.user_id, s.auto, s.left) for s in (await bot.store.get_seats(table.id))] == \
        [(s.user_id, False, False) for s in table.seats]
    await fd.close()


@pytest.mark.asyncio
async def test_joining_a_lobby_as_it_expires_is_told_there_is_no_table(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    a, b = fd.user(1, "a"), fd.user(2, "b")
    await fd.slash(a, "mj table create")
    bot.service.clock.advance(16 * 60)
    _slowed(bot.store, "update_table")
    closed, r = await asyncio.gather(bot.service.tick(), fd.slash(b, "mj table join"))
    await fd.settle()
    assert closed == 1
    assert r.ephemeral and r.text == NO_TABLE
    assert fd.channel_id not in bot.service.tables
    await fd.close()


@pytest.mark.asyncio
async def test_ending_the_table_after_a_refused_settlement_settles_that_hand_first(tmp_path):
    """The store refused the settlement of a finished hand; the creator then ends the table:
    that hand is settled (its points stored and in the standings), not dropped."""
    bot, fd, table, seats, users = await open_match(tmp_path, None, game="two_player", humans=1, ais=1)
    await play_with_settlement_refused(fd, bot, seats)
    assert table.hand.is_over() and table.settled_hand_id != table.hand_id
    r = await fd.slash(users[0], "mj table end")
    await fd.settle()
    assert r.ephemeral and r.text == "The table is closed."
    [stored] = await bot.store.match_hands(table.id)
    assert stored.id == table.hand_id and [s.points for s in stored.settlements] == table.hand.result["points"]
    match = await bot.store.match_of_table(table.id)
    assert match.hands_played == 1
    # one hand: each player's total is their points of it
    assert sorted(p["total"] for p in match.standings["players"]) == sorted(table.hand.result["points"])
    [posted] = standings_messages(fd, fd.channel_id)
    assert match.message_id == posted.id
    await fd.close()
