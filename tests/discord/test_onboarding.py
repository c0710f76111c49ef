"""A server admin's first minutes: ``/mj help`` in the three languages, the welcome when the bot
joins a server, and a table refused (with the permission named) where the bot could not show it."""

from __future__ import annotations

import discord
import pytest

from discord_play import new_bot
from engine.variants import all_variants
from fakediscord import FakeDiscord
from service.clock import ManualClock


async def _bot(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    return bot, fd


@pytest.mark.asyncio
@pytest.mark.parametrize("locale,about,step,commands_title", [
    ("en-US", "I host Chinese regional tile and card games", "A table in three steps", "Commands"),
    ("zh-CN", "我在频道中为朋友们开麻将和字牌牌桌", "三步开一桌", "命令"),
    ("zh-TW", "我在頻道中為朋友們開麻將和字牌牌桌", "三步開一桌", "命令"),
])
async def test_help_explains_the_bot_the_games_and_every_command_in_the_users_language(
        tmp_path, locale, about, step, commands_title):
    bot, fd = await _bot(tmp_path)
    user = fd.user(801, "newcomer", locale=locale)
    res = await fd.slash(user, "mj help")
    msg = res.message
    assert res.ephemeral and msg is not None
    intro, cmds = msg.data["embeds"]
    assert about in intro["description"] and step in intro["description"]
    for info in all_variants():  # every game with its id
        assert f"`{info.id}`" in intro["description"]
    assert "/mj rules" in intro["description"]
    assert cmds["title"] == commands_title
    # every leaf command of the tree, each once, with its description in the user's language
    leaves = []
    for cmd in bot.tree.get_commands():
        stack = [cmd]
        while stack:
            c = stack.pop()
            if isinstance(c, discord.app_commands.Group):
                stack.extend(c.commands)
            else:
                leaves.append(c.qualified_name)
    lines = cmds["description"].splitlines()
    assert len(lines) == len(leaves)
    for name in leaves:
        assert sum(1 for ln in lines if ln.startswith((f"`/{name}`", f"`/{name} "))) == 1, name
    table_create = next(ln for ln in lines if ln.startswith("`/mj table create"))
    assert table_create.startswith("`/mj table create [variant] [pace] [preset] [options] [hands] [rules]`")
    expected = {"en-US": "Open a table in this channel", "zh-CN": "在本频道开一桌", "zh-TW": "在本頻道開一桌"}[locale]
    assert table_create.endswith(expected), table_create
    await fd.close()


@pytest.mark.asyncio
async def test_joining_a_server_greets_its_system_channel_in_the_servers_language(tmp_path):
    bot, fd = await _bot(tmp_path)
    gid = await fd.join_guild("friends", community=True, locale="zh-CN")
    channel = bot.get_guild(gid).system_channel
    sent = fd.messages_in(channel.id)
    assert len(sent) == 1
    embed = sent[0].data["embeds"][0]
    assert embed["title"] == "感谢添加麻将牌桌机器人！"
    assert "/mj table create" in embed["description"] and "/mj help" in embed["description"]
    english = await fd.join_guild("pals", locale="zh-CN")  # not a Community server: en-US
    [greeting] = fd.messages_in(bot.get_guild(english).system_channel.id)
    assert greeting.data["embeds"][0]["title"] == "Thanks for adding the mahjong table bot!"
    await fd.close()


@pytest.mark.asyncio
async def test_no_welcome_without_a_system_channel_or_leave_to_post_there(tmp_path):
    bot, fd = await _bot(tmp_path)
    n = len(fd.messages)
    await fd.join_guild("quiet", system_channel=False)
    mute = discord.Permissions(view_channel=True, read_message_history=True)
    await fd.join_guild("read-only", bot_permissions=mute)
    assert len(fd.messages) == n  # nothing sent, and no error logged (strict harness)
    await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("lacking,locale,named", [
    (("embed_links",), "en-US", "I lack Embed Links here"),
    (("attach_files", "embed_links"), "zh-CN", "缺少权限 嵌入链接、附加文件"),
    (("send_messages",), "en-US", "I lack Send Messages here"),
])
async def test_a_table_is_refused_where_the_bot_lacks_a_permission_naming_it(tmp_path, lacking, locale, named):
    bot, fd = await _bot(tmp_path)
    perms = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True)
    for flag in lacking:
        setattr(perms, flag, False)
    fd.bot_permissions[fd.channel_id] = perms
    user = fd.user(802, "host", locale=locale)
    res = await fd.slash(user, "mj table create", {"variant": "laosanfan"})
    assert res.ephemeral and named in res.content
    assert bot.service.tables.get(fd.channel_id) is None  # nothing opened, the channel not blocked
    assert fd.messages_in(fd.channel_id) == []
    # with the permissions given, the same command opens the table
    del fd.bot_permissions[fd.channel_id]
    res = await fd.slash(user, "mj table create", {"variant": "laosanfan"})
    assert bot.service.tables.get(fd.channel_id) is not None
    await fd.close()


@pytest.mark.asyncio
async def test_the_bot_logs_its_invite_url_at_start_up(tmp_path, caplog):
    import logging
    from urllib.parse import parse_qs, urlparse

    from cogs.permissions import needed

    with caplog.at_level(logging.INFO, logger="bot"):
        bot, fd = await _bot(tmp_path)
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("invite the bot with ")]
    query = parse_qs(urlparse(line.removeprefix("invite the bot with ")).query)
    assert query["client_id"] == [str(bot.application_id)]
    assert int(query["permissions"][0]) == needed().value
    assert query["scope"][0].split() == ["bot", "applications.commands"]
    await fd.close()
