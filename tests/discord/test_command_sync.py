"""Slash commands are synced to Discord only when what would be sent changed: a second start
with the same commands makes no sync call; a changed description in a catalogue (the payload
after translation) makes exactly one; a guild sync is kept apart from the global one; in a
sharded bot only the process running shard 0 syncs."""

from __future__ import annotations

import pytest

try:
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.fakediscord import FakeDiscord

from bot import make_bot
from service.clock import ManualClock

SYNC = ("PUT /applications/{application_id}/commands", "PUT /applications/{application_id}/guilds/{guild_id}/commands")


def syncs(fd: FakeDiscord) -> list:
    return [c for c in fd.calls if c.key in SYNC]


def synced_bot(db_url: str, **kwargs):
    return make_bot(db_url, clock=ManualClock(), timer_interval=0, sync=True, tile_emojis=False, **kwargs)


@pytest.mark.asyncio
async def test_unchanged_commands_are_not_synced_again_and_a_catalogue_change_is(tmp_path, monkeypatch):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    fd = FakeDiscord(synced_bot(db_url))
    await fd.start()
    try:
        first = syncs(fd)
        assert len(first) == 1 and first[0].key == SYNC[0]
        names = sorted(c["name"] for c in first[0].json)
        assert names == ["act", "chow", "discard", "double", "hu", "kong", "mj", "pass", "pung", "ting"]
        mj = next(c for c in first[0].json if c["name"] == "mj")
        assert mj["description_localizations"]["zh-CN"] == "中国麻将与字牌的牌桌"

        await fd.restart(synced_bot(db_url))  # same commands, same catalogues
        assert len(syncs(fd)) == 1

        # a description changed in a catalogue: the translated payload differs
        import cogs.translator as translator

        real = translator.command_description

        def changed(key: str, lang: str):
            text = real(key, lang)
            return text + "！" if key == "cmd.pung" and lang == "zh-CN" else text

        monkeypatch.setattr(translator, "command_description", changed)
        await fd.restart(synced_bot(db_url))
        assert len(syncs(fd)) == 2
        pung = next(c for c in syncs(fd)[-1].json if c["name"] == "pung")
        assert pung["description_localizations"]["zh-CN"].endswith("！")

        await fd.restart(synced_bot(db_url))  # the changed catalogue again: nothing new
        assert len(syncs(fd)) == 2
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_guild_sync_is_kept_apart_from_the_global_one(tmp_path):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    fd = FakeDiscord(synced_bot(db_url))
    await fd.start()
    try:
        assert [c.key for c in syncs(fd)] == [SYNC[0]]
        await fd.restart(synced_bot(db_url, guild_id=fd.guild_id))
        assert [c.key for c in syncs(fd)] == [SYNC[0], SYNC[1]]
        await fd.restart(synced_bot(db_url, guild_id=fd.guild_id))
        await fd.restart(synced_bot(db_url))
        assert [c.key for c in syncs(fd)] == [SYNC[0], SYNC[1]]
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_only_the_process_of_shard_0_syncs(tmp_path):
    db_url = f"sqlite:///{tmp_path}/bot.db"
    fd = FakeDiscord(synced_bot(db_url, shard_count=2, shard_ids=[1], route_interval=0))
    await fd.start()
    try:
        assert syncs(fd) == []
        await fd.restart(synced_bot(db_url, shard_count=2, shard_ids=[0], route_interval=0))
        assert len(syncs(fd)) == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_choice_names_are_translated(tmp_path):
    """Fixed choices carry their names in each language (``/mj leaderboard period``: Chinese
    users no longer read ``all/month/week``)."""
    fd = FakeDiscord(synced_bot(f"sqlite:///{tmp_path}/bot.db"))
    await fd.start()
    try:
        mj = next(c for c in syncs(fd)[0].json if c["name"] == "mj")
        board = next(o for o in mj["options"] if o["name"] == "leaderboard")
        period = next(o for o in board["options"] if o["name"] == "period")
        names = {c["value"]: (c["name"], c.get("name_localizations") or {}) for c in period["choices"]}
        assert names["all"] == ("All time", {"zh-CN": "全部", "zh-TW": "全部"})
        assert names["month"] == ("This month", {"zh-CN": "本月", "zh-TW": "本月"})
        assert names["week"] == ("This week", {"zh-CN": "本周", "zh-TW": "本週"})
        table = next(o for o in mj["options"] if o["name"] == "table")
        create = next(o for o in table["options"] if o["name"] == "create")
        pace = next(o for o in create["options"] if o["name"] == "pace")
        assert [(c["value"], c["name_localizations"]["zh-CN"]) for c in pace["choices"]] == [
            ("normal", "正常 — 每步 15 秒"), ("relaxed", "从容 — 每步 60 秒")]
        # the AI's level shares the value "normal" with the pace, not its name
        add_ai = next(o for o in table["options"] if o["name"] == "add-ai")
        level = next(o for o in add_ai["options"] if o["name"] == "level")
        assert not level.get("required")
        assert [(c["value"], c["name"], c["name_localizations"]["zh-CN"], c["name_localizations"]["zh-TW"])
                for c in level["choices"]] == [
            ("easy", "Easy — the nearest win", "简单 — 只求最快胡牌", "簡單 — 只求最快胡牌"),
            ("normal", "Normal — the plain game", "普通 — 平稳的打法", "普通 — 平穩的打法"),
            ("strong", "Strong — goes for what the game pays", "强 — 冲着番数打", "強 — 衝著番數打")]
        assert level["description_localizations"]["zh-CN"] == "电脑的水平（默认：本游戏最强的一级）"
    finally:
        await fd.close()
