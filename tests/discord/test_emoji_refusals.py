"""The tiles' emojis when Discord or the store disagree with what the bot shows
(``cogs/emojis.py``): an emoji deleted while the bot runs, an upload refused among unchanged
ones, a stored record that does not read, and a 字牌 table too long for its text — the players
keep their panels in every case."""

from __future__ import annotations

import re

import pytest

from cogs.emojis import state_key
from discord_play import latest_prompt, press, timeout_policy
from panel_checks import V2, emoji_bot, panels_of, two_humans
from render.emoji import EMOJI_NAMES, emoji_pictures, emoji_png

EMOJI_POST = "POST /applications/{application_id}/emojis"


@pytest.mark.asyncio
async def test_an_emoji_deleted_while_the_bot_runs_leaves_the_panels_working(tmp_path):
    bot, fd = await emoji_bot(f"sqlite:///{tmp_path}/bot.db")
    try:
        table, by_seat = await two_humans(fd, bot, "two_player", 3)
        gone = {e.id for e in fd.app_emojis.values() if re.fullmatch(r"m\d", e.name)}
        for emoji_id in gone:  # the 万 emojis deleted on Discord
            del fd.app_emojis[emoji_id]
        with fd.tolerating("Invalid emoji"):
            seat = table.hand.pending_seats()[0]
            await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
            await fd.settle()
            await bot.emoji_task  # the missing ones uploaded again
            await fd.settle()
        nxt = table.hand.pending_seats()[0]
        prompt = latest_prompt(fd, by_seat[nxt])
        assert prompt is not None and any(f":d{table.decision(nxt)}:" in c for c in prompt.custom_ids)
        shown = {c["emoji"]["id"] for m in panels_of(fd, by_seat[nxt]) for c in m.walk_components() if c.get("emoji")}
        assert shown and not {str(i) for i in gone} & shown  # never the deleted ids again
        assert {e.name for e in fd.app_emojis.values()} == set(EMOJI_NAMES)  # … and re-made
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_an_upload_refused_among_unchanged_emojis_keeps_the_unchanged_ones_shown(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path}/bot.db"
    bot, fd = await emoji_bot(url)
    try:
        changed = dict(emoji_pictures())
        changed["m1"] = emoji_png("m2")
        monkeypatch.setattr("render.emoji.emoji_pictures", lambda: changed)
        fd.fail_next(500, route=EMOJI_POST, times=6)  # more than discord.py's tries
        with fd.tolerating("500"):
            again, _ = await emoji_bot(url, bot.service.clock, fd)
        assert "m1" in (again.tile_emojis.refused or "")
        assert set(again.tile_emojis.known) == set(EMOJI_NAMES) - {"m1"}  # 71 shown, m1 as text
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("stored", ["[]", "null", "5", '"x"', "{not json", '{"m5": 7, "m6": [1]}'])
async def test_a_stored_record_that_does_not_read_is_made_anew(tmp_path, stored):
    url = f"sqlite:///{tmp_path}/bot.db"
    bot, fd = await emoji_bot(url)
    try:
        await bot.store.set_state(state_key(bot.application_id), stored)
        again, _ = await emoji_bot(url, bot.service.clock, fd)
        assert set(again.tile_emojis.known) == set(EMOJI_NAMES)
        assert {e.name for e in fd.app_emojis.values()} == set(EMOJI_NAMES)  # one emoji a name
        assert again.tile_emojis.named("m5").id in fd.app_emojis
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.some_games("字牌's melds fill the table's text, the other games' discards do (trimmed first)")
@pytest.mark.parametrize("game", ["zipai"])
async def test_a_long_table_of_tiles_is_cut_between_tiles_and_keeps_the_last_discard(tmp_path, game):
    bot, fd = await emoji_bot(f"sqlite:///{tmp_path}/bot.db")
    try:
        table, by_seat = await two_humans(fd, bot, game, 1, ais=2)
        checked = 0
        while not table.hand.is_over():
            seat = next(s for s in table.hand.pending_seats() if s in by_seat)
            await press(fd, by_seat[seat], table.hand.ai_action(seat))
            await fd.settle()
            view = bot.service.snapshot(fd.channel_id).parts[seat].view
            for m in panels_of(fd, by_seat[seat]):
                texts = [c["content"] for c in m.walk_components() if c.get("type") == 10]
                assert sum(map(len, texts)) <= 4000
                for text in texts:  # never half an emoji: every one that starts is whole
                    assert len(re.findall(r"<:\w+:\d+>", text)) == text.count("<:"), text[-80:]
                last = view.get("last_discard")
                if last and not table.hand.is_over() and m.flags & V2:
                    assert "by" in texts[-1] or "打出" in texts[-1], texts[-1][-120:]
                    checked += 1
        assert checked
    finally:
        await fd.close()
