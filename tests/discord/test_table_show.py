"""A table you can find, lobbies that expire, the public table's language, through the fake
Discord: ``/mj table show`` posts the table message again at the bottom (the old one gone, the
new one's buttons and every panel working), the bot does so by itself after the server's number
of other messages, a lobby nobody changes closes after the server's minutes (through a
restart) and anyone may end it then, and the public table speaks the server setting, else the
Community server's language, else the creator's."""

from __future__ import annotations

import pytest

from service.clock import ManualClock
from service.tables import ServiceError

from discord_play import new_bot, press_for, table_button, table_message, timeout_policy
from fakediscord import FakeDiscord
from panel_checks import panels_of, restarted_bot, seated_table, shows_hand

DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


async def _world(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    return bot, fd, fd.user(1, "admin", admin=True)


async def _stored_message_id(bot, channel_id: int):
    return (await bot.store.get_open_table(channel_id)).message_id


@pytest.mark.asyncio
async def test_show_reposts_the_table_message_and_its_buttons_and_the_panels_keep_working(tmp_path):
    bot, fd, table, by_seat = await seated_table(tmp_path, "two_player", seed=5)
    ch = fd.channel_id
    try:
        old = table_message(fd, ch)
        assert old is not None and table.message_id == old.id
        passer_by = fd.user(900, "passer-by")
        r = await fd.slash(passer_by, "mj table show")
        assert r.ephemeral and r.text == "You are not seated at this table."
        await fd.post(passer_by, "anyone seen my keys?")
        assert fd.messages_in(ch)[-1].id != old.id  # the table scrolled up

        en_user = next(u for u in by_seat.values() if u.locale == "en-US")
        r = await fd.slash(en_user, "mj table show")
        assert r.ephemeral and r.text == "The table message is posted again at the bottom of the channel."
        new = table_message(fd, ch)
        assert new.id != old.id and fd.message(old.id).deleted
        assert fd.messages_in(ch)[-1].id == new.id  # at the bottom
        assert table.message_id == new.id and await _stored_message_id(bot, ch) == new.id
        assert new.embeds[0]["title"] == old.embeds[0]["title"] and new.custom_ids == old.custom_ids
        assert [a["filename"] for a in new.data["attachments"]] == ["table.png"]

        # the new message's button answers
        msg, cid = table_button(fd, ch, "hand")
        assert msg.id == new.id
        r = await fd.click(en_user, msg, cid)
        assert r.ephemeral and shows_hand(r.message)
        # the panels keep working, and the move shows on the new message
        seat = table.hand.pending_seats()[0]
        user = by_seat[seat]
        seq = table.seq
        edits = fd.message(new.id).edits
        assert len(panels_of(fd, user)) == 1
        await press_for(fd, bot, user, ch, timeout_policy(table.hand, seat))
        assert table.seq > seq
        assert fd.message(new.id).edits > edits and table_message(fd, ch).id == new.id

        # Discord refuses to delete the old message (403): the new one is posted and kept anyway
        fd.fail_next(403, route=DELETE, code=50013)
        r = await fd.slash(en_user, "mj table show")
        newer = table_message(fd, ch)
        assert r.text == "The table message is posted again at the bottom of the channel." and newer.id != new.id and not fd.message(new.id).deleted
        assert table.message_id == newer.id and await _stored_message_id(bot, ch) == newer.id
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_show_without_a_table_is_refused(tmp_path):
    bot, fd, _ = await _world(tmp_path)
    try:
        r = await fd.slash(fd.user(5, "p"), "mj table show")
        assert r.ephemeral and r.text == "There is no table in this channel. Start one with /mj table create."
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_table_is_posted_again_after_the_servers_number_of_other_messages(tmp_path):
    bot, fd, admin = await _world(tmp_path)
    ch = fd.channel_id
    try:
        r = await fd.slash(admin, "mj config server", {"repost_after": 3})
        assert r.text == "Saved."
        alice, bob = fd.user(10, "alice"), fd.user(11, "bob")
        await fd.slash(alice, "mj table create")
        first = table_message(fd, ch).id
        await fd.post(bob, "hi")
        await fd.post(admin, "hello")
        await fd.post(None, "the bot's own message")  # not counted
        assert table_message(fd, ch).id == first and not fd.message(first).deleted
        await fd.post(bob, "third")
        second = table_message(fd, ch).id
        assert second != first and fd.message(first).deleted and fd.messages_in(ch)[-1].id == second
        # the count starts again from the repost
        await fd.post(bob, "one")
        await fd.post(bob, "two")
        assert table_message(fd, ch).id == second
        # the setting and the table survive a restart
        await fd.restart(restarted_bot(bot))
        bot = fd.bot
        for text in ("a", "b"):
            await fd.post(bob, text)
        assert table_message(fd, ch).id == second
        await fd.post(bob, "c")
        third = table_message(fd, ch).id
        assert third != second and fd.message(second).deleted
        assert await _stored_message_id(bot, ch) == third
        # the new message's buttons work: bob joins with it
        msg, cid = table_button(fd, ch, "join")
        r = await fd.click(bob, msg, cid)
        assert r.text == "You sit at the table in seat 2." and bot.service.table_in(ch).seat_of(bob.id) == 1
        # 0 turns it off
        await fd.slash(admin, "mj config server", {"repost_after": 0})
        for text in ("x", "y", "z", "w"):
            await fd.post(bob, text)
        assert table_message(fd, ch).id == third
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_an_unchanged_lobby_closes_after_the_servers_minutes_through_a_restart(tmp_path):
    bot, fd, admin = await _world(tmp_path)
    clock = bot.service.clock
    ch = fd.channel_id
    try:
        assert (await fd.slash(admin, "mj config server", {"lobby_minutes": 5})).text == "Saved."
        creator, joiner = fd.user(10, "li", locale="zh-CN"), fd.user(11, "bob")
        await fd.slash(creator, "mj table create")
        table = bot.service.table_in(ch)
        assert table.lang == "zh-CN" and table.lobby_minutes == 5
        clock.advance(4 * 60)
        assert await bot.service.tick() == 0
        await fd.slash(joiner, "mj table join")  # a change: the lobby's 5 minutes start again
        clock.advance(4 * 60)
        assert await bot.service.tick() == 0 and bot.service.table_in(ch) is table
        # a restart 8 minutes after the opening, 4 after the join
        await fd.restart(restarted_bot(bot))
        bot = fd.bot
        assert bot.service.next_deadline() == clock.now() + 60
        clock.advance(59)
        assert await bot.service.tick() == 0
        assert bot.service.table_in(ch).status == "lobby"
        clock.advance(1)
        assert await bot.service.tick() == 1
        await fd.settle()
        assert ch not in bot.service.tables and await bot.store.get_open_table(ch) is None
        notice = fd.messages_in(ch)[-1]
        assert notice.text == "牌桌已关闭：5 分钟内没有人开局。用 /mj table create 重新开一桌。"
        closed = fd.message(table.message_id)
        assert closed.embeds[0]["description"] == "牌桌已关闭。" and closed.custom_ids == []
        r = await fd.slash(joiner, "mj table join")
        assert r.text == "There is no table in this channel. Start one with /mj table create."
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_anyone_may_end_a_lobby_idle_for_the_servers_minutes(tmp_path):
    bot, fd, admin = await _world(tmp_path)
    clock = bot.service.clock
    ch = fd.channel_id
    try:
        creator, outsider = fd.user(10, "alice"), fd.user(12, "carol")
        await fd.slash(creator, "mj table create")
        refused = ("Only the table's creator or a server admin can end the table "
                   "(anyone can, once the lobby has waited 15 minutes unchanged).")
        assert (await fd.slash(outsider, "mj table end")).text == refused
        clock.advance(15 * 60 - 1)
        assert (await fd.slash(outsider, "mj table end")).text == refused
        clock.advance(1)  # no timer ran: the lobby is still there, and anyone may end it
        r = await fd.slash(outsider, "mj table end")
        assert r.ephemeral and r.text == "The table is closed."
        assert await bot.store.get_open_table(ch) is None
        # a game in progress stays the creator's (or an admin's) to end, however long it waits
        await fd.slash(creator, "mj table create")
        await fd.slash(creator, "mj table add-ai")
        await fd.slash(creator, "mj table start")
        clock.advance(3600)
        assert (await fd.slash(outsider, "mj table end")).text == refused
        assert bot.service.table_in(ch).status == "playing"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_public_table_speaks_the_setting_else_the_community_servers_language_else_the_creators(tmp_path):
    bot, fd, admin = await _world(tmp_path)
    ch = fd.channel_id
    zh, en = fd.user(10, "li", locale="zh-CN"), fd.user(11, "bob", locale="en-US")

    async def opened_by(user) -> str:
        await fd.slash(user, "mj table create")
        lang = bot.service.table_in(ch).lang
        title = table_message(fd, ch).embeds[0]["title"]
        await fd.slash(user, "mj table end")
        return lang, title

    try:
        # not a Community server: the creator's language (its locale reads en-US)
        assert await opened_by(zh) == ("zh-CN", "二人麻将 — 等待玩家")
        assert await opened_by(en) == ("en", "Two-player mahjong (二人麻将) — table open")
        fd.set_guild(features=[], preferred_locale="zh-TW")  # only Community servers can set one
        assert await opened_by(en) == ("en", "Two-player mahjong (二人麻将) — table open")
        # a Community server: its language, whoever opens the table
        fd.set_guild(features=["COMMUNITY", "NEWS"], preferred_locale="zh-TW")
        assert await opened_by(en) == ("zh-TW", "二人麻將 — 等待玩家")
        assert await opened_by(zh) == ("zh-TW", "二人麻將 — 等待玩家")
        # the server setting over both
        assert (await fd.slash(admin, "mj config server", {"language": "en"})).text == "Saved."
        assert await opened_by(zh) == ("en", "Two-player mahjong (二人麻将) — table open")
        r = await fd.slash(admin, "mj config show")
        assert r.message.embeds[0]["description"].splitlines()[:3] == [
            "Language of the table messages: English",
            "A lobby closes after 15 minutes unchanged.",
            "The table message is posted again only with /mj table show."]
        # back to automatic; the other settings are kept
        await fd.slash(admin, "mj config server", {"lobby_minutes": 30, "repost_after": 12})
        await fd.slash(admin, "mj config server", {"language": "auto"})
        assert await opened_by(en) == ("zh-TW", "二人麻將 — 等待玩家")
        settings = await bot.settings.server(fd.guild_id)
        assert (settings.language, settings.lobby_minutes, settings.repost_after) == ("auto", 30, 12)
        # the language is the table's: kept through a restart
        await fd.slash(en, "mj table create")
        await fd.restart(restarted_bot(bot))
        assert fd.bot.service.table_in(ch).lang == "zh-TW"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_server_settings_are_for_admins_and_checked(tmp_path):
    bot, fd, admin = await _world(tmp_path)
    try:
        r = await fd.slash(fd.user(2, "bob"), "mj config server", {"lobby_minutes": 30})
        assert r.ephemeral and r.text == "Only server admins (Manage Server) can change these settings."
        assert (await bot.settings.server(fd.guild_id)).lobby_minutes == 15
        for bad in ({"lobby_minutes": 0}, {"lobby_minutes": 1441}, {"repost_after": -1}, {"language": "fr"}):
            with pytest.raises(ServiceError) as e:
                await bot.settings.set_server(fd.guild_id, **bad)
            assert e.value.code == "setting_bad_value" and e.value.params["value"] == next(iter(bad.values()))
        # the stored settings stay apart from the games' defaults
        await fd.slash(admin, "mj config server", {"lobby_minutes": 20})
        await fd.slash(admin, "mj config default", {"variant": "two_player", "options": "base_points=2"})
        cfg = await bot.store.get_guild_config(fd.guild_id)
        assert cfg.defaults == {"two_player": {"base_points": 2}} and cfg.settings == {"lobby_minutes": 20}
    finally:
        await fd.close()
