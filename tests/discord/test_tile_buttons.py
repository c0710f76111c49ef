"""Playing with tiles, not words (``cogs/emojis.py``, ``cogs/panel_layout.py``): every tile is an
application emoji uploaded once, the panel's hand is a row of tile buttons, and a whole hand of
every game is played by pressing them.  What a button shows is checked on the picture Discord
keeps: the fake stores each uploaded emoji's bytes, and the picture behind a discard button's
emoji id must be the renderer's own picture of the tile the button discards."""

from __future__ import annotations

import re

import pytest

from discord_play import new_bot, press, private_messages, timeout_policy
from panel_checks import emoji_bot, two_humans
from cogs.panel_layout import tile_marks
from engine.tiles import kind_str, parse_kind
from engine.variants import all_variants
from fakediscord import FakeDiscord
from render.emoji import EMOJI_NAMES, emoji_png, emoji_pictures, name_of
from service.clock import ManualClock

GAMES = [v.id for v in all_variants()]
#: table seeds whose first hand has the humans discard several times (字牌's hands are mostly
#: draws and passes); seed 3 otherwise
SEEDS = {"zipai": 9}
EMOJI_POST = "POST /applications/{application_id}/emojis"
EMOJI_DELETE = "DELETE /applications/{application_id}/emojis/{emoji_id}"


async def _started(tmp_path, game: str):
    """A bot with tile emojis on a fresh store, its emoji upload finished, and a started table
    of two humans (the rest AI seats).  Returns ``(bot, fd, table, {seat: user})``."""
    bot, fd = await emoji_bot(f"sqlite:///{tmp_path}/bot.db")
    return (bot, fd) + await two_humans(fd, bot, game, SEEDS.get(game, 3))


def _tile_button(fd, user, act: str, tile: str):
    """``(message, component)`` of the newest enabled hand button of ``user`` that makes
    ``act`` with ``tile`` (its id ends ``:<act>:<tile>`` or ``:<act>:<tile>:<copy>``)."""
    rx = re.compile(rf":{act}:{re.escape(tile)}(:\d+)?$")
    for m in private_messages(fd, user):
        for c in m.walk_components():
            if c.get("type") == 2 and c.get("custom_id", "").startswith("mj:") and rx.search(c["custom_id"]) \
                    and not c.get("disabled"):
                return m, c
    return None


async def _play_by_tiles(fd, bot, table, users, *, emojis: bool) -> int:
    """Play the hand out: every discard by pressing its tile button (its picture checked, or
    its text label without emojis), the rest through what the panel offers.  Returns the
    discards pressed."""
    discards = 0
    while not table.hand.is_over():
        seat = next(s for s in table.hand.pending_seats() if s in users)
        action = timeout_policy(table.hand, seat)
        if action.type == "discard":
            tile = kind_str(action.kind)
            found = _tile_button(fd, users[seat], "discard", tile)
            assert found is not None, f"no tile button discards {tile}"
            message, button = found
            if emojis:
                emoji = button["emoji"]
                # the picture alone, or with the mark of a tile the game singles out (★ ◆ 贼)
                marks = tile_marks(bot.service.snapshot(table.channel_id).parts[seat].view)
                assert emoji["name"] == name_of(action.kind) and button.get("label") in (None, "", marks.get(tile))
                assert fd.emoji_image(int(emoji["id"])) == emoji_png(name_of(action.kind))
            else:
                assert "emoji" not in button and button["label"]
            r = await fd.click(users[seat], message, button["custom_id"])
            if r.message is not None:  # a wild tile: confirmed with the next button
                confirm = next((c for c in r.message.walk_components()
                                if c.get("custom_id", "").endswith(f":wdiscard:{tile}")), None)
                if confirm is not None:
                    await fd.click(users[seat], r.message, confirm["custom_id"])
            discards += 1
        else:
            await press(fd, users[seat], action)
        await fd.settle()
    return discards


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_a_hand_of_every_game_is_played_by_pressing_tile_buttons(tmp_path, game):
    bot, fd, table, users = await _started(tmp_path, game)
    try:
        assert {e.name for e in fd.app_emojis.values()} == set(EMOJI_NAMES)
        hand_id = table.hand_id
        assert await _play_by_tiles(fd, bot, table, users, emojis=True) >= 3
        assert table.hand_id == hand_id and table.hand.is_over()
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_second_start_uploads_no_emoji_and_a_changed_picture_replaces_that_one(tmp_path, monkeypatch):
    bot, fd, table, users = await _started(tmp_path, "two_player")
    try:
        assert len(fd.calls_to(EMOJI_POST)) == len(EMOJI_NAMES)
        before = {e.name: e.id for e in fd.app_emojis.values()}
        again, _ = await emoji_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock, fd)
        assert len(fd.calls_to(EMOJI_POST)) == len(EMOJI_NAMES) and fd.calls_to(EMOJI_DELETE) == []
        assert {e.name: e.id for e in fd.app_emojis.values()} == before
        assert again.tile_emojis.named("m5").id == before["m5"]

        # one picture changes: exactly that emoji is deleted and made again
        changed = dict(emoji_pictures())
        changed["p7"] = emoji_png("p8")
        monkeypatch.setattr("render.emoji.emoji_pictures", lambda: changed)
        third, _ = await emoji_bot(f"sqlite:///{tmp_path}/bot.db", bot.service.clock, fd)
        (post,) = fd.calls_to(EMOJI_POST)[len(EMOJI_NAMES):]
        (delete,) = fd.calls_to(EMOJI_DELETE)
        assert post.json["name"] == "p7" and delete.path.endswith(f"/{before['p7']}")
        assert fd.emoji_image(third.tile_emojis.named("p7").id) == emoji_png("p8")
        assert {e.name: e.id for e in fd.app_emojis.values() if e.name != "p7"} == \
            {k: v for k, v in before.items() if k != "p7"}
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.some_games("the fallback is per tile, not per game: a mahjong tile set and the 字牌 cards stand for all")
@pytest.mark.parametrize("game", ["two_player", "zipai"])
async def test_with_emoji_uploads_refused_the_hand_plays_on_text_labels(tmp_path, game, caplog):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), tile_emojis=True)
    fd = FakeDiscord(bot)
    fd.fail_next(400, route=EMOJI_POST, code=30008, message="Maximum number of emojis reached (2000)")
    await fd.start()
    await bot.emoji_task
    try:
        assert fd.app_emojis == {} and bot.tile_emojis.known == {}
        assert "30008" in (bot.tile_emojis.refused or "")
        assert sum("tile emojis" in r.getMessage() for r in caplog.records) == 1  # said once, why
        table, users = await two_humans(fd, bot, game, SEEDS.get(game, 3))
        assert await _play_by_tiles(fd, bot, table, users, emojis=False) >= 3
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_game_missing_some_emojis_falls_back_per_tile(tmp_path):
    bot, fd, table, users = await _started(tmp_path, "two_player")
    try:
        seat = table.hand.pending_seats()[0]
        hand = table.hand.view(seat)["me"]["hand"]
        gone = hand[0]
        bot.tile_emojis.known.pop(name_of(parse_kind(gone)))
        await fd.click(users[seat], *_table_hand(fd, users[seat]))
        await fd.settle()
        msg = fd.last_response(users[seat])
        buttons = [c for c in msg.walk_components() if c.get("type") == 2 and ":discard:" in c.get("custom_id", "")]
        without = [c for c in buttons if "emoji" not in c]
        assert without and all(re.search(rf":discard:{gone}(:\d+)?$", c["custom_id"]) for c in without)
        assert all(c.get("label") for c in without)
        assert len(without) < len(buttons)
    finally:
        await fd.close()


def _table_hand(fd, user):
    from discord_play import table_button

    return table_button(fd, fd.channel_id, "hand")


@pytest.mark.asyncio
async def test_with_several_shard_processes_only_shard_0_uploads(tmp_path):
    from bot import make_bot

    url, clock = f"sqlite:///{tmp_path}/bot.db", ManualClock()

    def shard(i: int):
        return make_bot(url, clock=clock, timer_interval=0, shard_count=2, shard_ids=[i], route_interval=0,
                        tile_emojis=True)

    first = shard(0)
    fd = FakeDiscord(first)
    await fd.start()
    await first.emoji_task
    second = shard(1)
    await fd.add_bot(second)
    await second.emoji_task
    try:
        assert len(fd.calls_to(EMOJI_POST)) == len(EMOJI_NAMES)  # shard 0's uploads, none of shard 1
        assert {n: e.id for n, e in second.tile_emojis.known.items()} == \
            {n: e.id for n, e in first.tile_emojis.known.items()} and len(second.tile_emojis.known) == len(EMOJI_NAMES)
    finally:
        await fd.close()
