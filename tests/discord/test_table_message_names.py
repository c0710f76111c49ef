"""The public table message names the table by its channel and lists, in the lobby, the
options chosen that differ from the game's defaults."""

from __future__ import annotations

from engine.variants import find_variant
from service.table import Update

import pytest
import pytest_asyncio

try:
    from discord_play import new_bot
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import FakeDiscord

from cogs import messages
from render.table import table_title
from render.text import table_message
from service.clock import ManualClock

GAME_EN = "Two-player mahjong (二人麻将)"  #: the game's name in English, as the image names a table


@pytest_asyncio.fixture
async def game(tmp_path):
    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", clock)
    bot.service.lobby.seed_source = lambda: 4242
    fd = FakeDiscord(bot)
    await fd.start()
    yield fd, bot
    await fd.close()


def _table_message(fd, channel_id: int):
    """The public table message of the channel (the one with an embed)."""
    return next(m for m in reversed(fd.messages_in(channel_id)) if m.embeds)


@pytest.mark.asyncio
async def test_the_lobby_lists_the_options_that_differ_from_the_defaults(game):
    fd, bot = game
    alice = fd.user(101, "alice")
    await fd.slash(alice, "mj table create", {"variant": "two_player", "options": "min_fan=8 base_points=1"})
    await fd.settle()
    desc = _table_message(fd, fd.channel_id).embeds[0]["description"]
    lines = desc.splitlines()
    assert "Table options (changed from the defaults):" in lines
    assert "• Minimum fan to win (after 加倍 and 宝牌): 8 (default 15)" in lines
    # base_points=1 is the default, the timeouts were left alone: not listed
    assert "Base points" not in desc and "Seconds" not in desc


@pytest.mark.asyncio
async def test_the_lobby_lists_on_off_options_in_the_tables_language(game):
    fd, bot = game
    li = fd.user(102, "li", locale="zh-CN")
    await fd.slash(li, "mj table create", {"variant": "laosanfan",
                                           "options": "hutou=on opening_restriction=off discard_timeout=40"})
    await fd.settle()
    lines = _table_message(fd, fd.channel_id).embeds[0]["description"].splitlines()
    i = lines.index("本桌选项（与默认不同）：")
    assert lines[i + 1:] == ["· 首局第一圈只能打筒、万，不能吃碰杠：关（默认 开）",
                             "· 胡头：未胡的三家之间按胡数结算：开（默认 关）",
                             "· 出牌超时（秒）：40（默认 15）"]


def test_a_table_with_the_defaults_lists_no_options():
    view = {"status": "lobby", "seats": [{"seat": 0, "name": "alice"}]}
    text = table_message.body(view, find_variant("two_player").facts, "en", max_players=2, options={"min_fan": 15, "base_points": 1})
    assert "options" not in text.lower()
    assert table_message.option_lines(find_variant("two_player").facts, {"min_fan": 15}, "en") == []
    assert table_message.option_lines(find_variant("two_player").facts, {"min_fan": 20}, "en") == [
        "• Minimum fan to win (after 加倍 and 宝牌): 20 (default 15)"]


@pytest.mark.asyncio
async def test_the_table_is_named_by_its_channel(game, monkeypatch):
    fd, bot = game
    drawn: list[dict] = []
    real = messages.render_table
    monkeypatch.setattr(messages, "render_table", lambda view: (drawn.append(view), real(view))[1])
    channel = fd.add_channel("mahjong-night")
    alice = fd.user(101, "alice")
    await fd.slash(alice, "mj table create", {"variant": "two_player"}, channel_id=channel)
    await fd.slash(alice, "mj table add-ai", {"level": "normal"}, channel_id=channel)
    await fd.slash(alice, "mj table start", channel_id=channel)
    await fd.settle()
    table = bot.service.table_in(channel)
    assert table.channel_name == "mahjong-night"
    assert drawn and {v["table_name"] for v in drawn} == {"#mahjong-night"}
    assert table_title(drawn[-1]) == "#mahjong-night"
    assert str(channel) not in table_title(drawn[-1])


@pytest.mark.asyncio
async def test_a_resumed_table_names_the_game_until_its_channel_is_seen(game):
    fd, bot = game
    alice = fd.user(101, "alice")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.settle()
    table = bot.service.table_in(fd.channel_id)
    table.channel_name = None  # as after a restart: the store does not keep the channel's name
    async with table.lock:
        bot.service.publisher.publish(table, Update("redraw"))
    view = dict(bot.service.snapshot(fd.channel_id).public.view)
    assert view["table_name"] is None
    assert table_title(view) == GAME_EN
    # the next press of a table button in the channel names it again
    msg = _table_message(fd, fd.channel_id)
    addai = next(c for c in msg.custom_ids if ":addai" in c)
    await fd.click(alice, msg, addai)
    await fd.settle()
    channel_name = fd.channels[fd.channel_id]["name"]
    assert table.channel_name == channel_name
    assert bot.service.snapshot(fd.channel_id).public.view["table_name"] == f"#{channel_name}"
