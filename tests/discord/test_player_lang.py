"""Each player's language is kept with the player (``service.langs``, the ``player_lang``
table): their panels and notices are written in it, also after the bot restarts, whatever the
table's language (the creator's)."""

from __future__ import annotations

import pytest

from cogs import messages
from render.text import panel as words_panel

try:
    from discord_play import play_humans, press, table_button, timeout_policy
    from panel_checks import panel_now, notices_of, panels_of, restarted_bot, seated_table
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import play_humans, press, table_button, timeout_policy
    from tests.harness.panel_checks import panel_now, notices_of, panels_of, restarted_bot, seated_table


def _tw(users):
    return next((s, u) for s, u in users.items() if u.locale == "zh-TW")


def _expected_notice(bot, table, seat, panel, lang):
    link = f"https://discord.com/channels/@me/{panel.channel_id}/{panel.id}"
    snap = bot.service.snapshot(table.channel_id)
    assert snap.parts[seat].lang == lang
    return messages.notice_text(snap, seat, link)


@pytest.mark.asyncio
async def test_a_zh_tw_player_at_an_english_table_gets_the_next_hand_in_zh_tw_after_a_restart(tmp_path):
    """two_player (table seed 4): p0 (en-US) opens the table (English), p1 (zh-TW) joins; the
    first hand is played through the panels.  The bot restarts between the hands and p0 (not
    p1) deals the next hand.  Expected: p1's new panel of hand 2 is the one drawn in 繁體中文
    (``hand_parts(…, "zh-TW")``), p0's in English, and p1's notice, when p1 must decide, is the
    zh-TW notice; the language was stored once for each player."""
    bot, fd, table, users = await seated_table(tmp_path, "two_player", 4, locales=("en-US", "zh-TW"))
    try:
        assert table.lang == "en"
        tw_seat, tw = _tw(users)
        en_seat, en = next((s, u) for s, u in users.items() if u is not tw)
        assert await bot.store.get_langs([tw.id, en.id]) == {tw.id: "zh-TW", en.id: "en"}
        await play_humans(fd, bot, fd.channel_id, users)
        await fd.settle()
        (first,) = panels_of(fd, tw)
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        await fd.click(en, *table_button(fd, fd.channel_id, "next"))
        await fd.settle()
        t2 = fd.bot.service.table_in(fd.channel_id)
        assert t2.hand is not None and not t2.hand.is_over() and t2.match.hand_no == 1
        old, panel = panels_of(fd, tw)
        assert old.id == first.id  # hand 2 has a panel of its own
        assert panel.text.startswith(panel_now(fd.bot, t2, tw_seat, "zh-TW").content)
        assert panel.text.startswith("**二人麻將**")
        assert panels_of(fd, en)[-1].text.startswith(panel_now(fd.bot, t2, en_seat, "en").content)
        # p1's notice when p1 must decide (p0 plays until then)
        while tw_seat not in t2.hand.pending_seats():
            await press(fd, en, timeout_policy(t2.hand, en_seat))
            await fd.settle()
        (notice,) = notices_of(fd, tw)
        assert notice.text == _expected_notice(fd.bot, t2, tw_seat, panels_of(fd, tw)[-1], "zh-TW")
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_player_who_only_joined_gets_their_first_panel_in_their_language_after_a_restart(tmp_path):
    """two_player: p0 (en-US) opens the table, p1 (zh-TW) joins the lobby; the bot restarts
    before the deal and p0 starts the hand.  Expected: p1's very first panel (no panel of
    theirs was ever drawn before the restart) is the zh-TW one."""
    from service.clock import ManualClock

    from discord_play import new_bot
    from fakediscord import FakeDiscord

    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 4
        en = fd.user(700, "p0", locale="en-US")
        tw = fd.user(701, "p1", locale="zh-TW")
        await fd.slash(en, "mj table create", {"variant": "two_player"})
        await fd.slash(tw, "mj table join")
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        await fd.slash(en, "mj table start")
        await fd.settle()
        table = fd.bot.service.table_in(fd.channel_id)
        assert table.lang == "en"
        (panel,) = panels_of(fd, tw)
        assert panel.text.startswith(panel_now(fd.bot, table, table.seat_of(tw.id), "zh-TW").content)
        (mine,) = panels_of(fd, en)
        assert mine.text.startswith(panel_now(fd.bot, table, table.seat_of(en.id), "en").content)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_language_follows_the_players_discord_language_and_is_written_when_it_changes(tmp_path):
    """p1 (zh-CN) switches Discord to English and clicks **My hand**: from then on the
    stored language is ``en`` and their panel is redrawn in English; clicks in an unchanged
    language write nothing."""
    bot, fd, table, users = await seated_table(tmp_path, "two_player", 4)
    try:
        seat, zh = next((s, u) for s, u in users.items() if u.locale == "zh-CN")
        assert bot.service.user_lang(zh.id) == "zh-CN"
        writes = []
        real = bot.store.set_lang

        async def spy(user_id, lang):
            writes.append((user_id, lang))
            await real(user_id, lang)

        bot.store.set_lang = spy
        await fd.click(zh, *table_button(fd, fd.channel_id, "hand"))
        assert writes == []
        zh.locale = "en-US"
        await fd.click(zh, *table_button(fd, fd.channel_id, "hand"))
        await fd.settle()
        assert writes == [(zh.id, "en")]
        assert await bot.store.get_langs([zh.id]) == {zh.id: "en"}
        other = next(s for s in users if s != seat)
        while seat not in table.hand.pending_seats():
            await press(fd, users[other], timeout_policy(table.hand, other))
            await fd.settle()
        assert panels_of(fd, zh)[-1].text.startswith(panel_now(bot, table, seat, "en").content)
    finally:
        await fd.close()
