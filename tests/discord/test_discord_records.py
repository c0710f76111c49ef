"""Server admins, presets, scores by period, history, replays, verification and languages,
through Discord."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone

import pytest
from fd_fixture import fd_bot  # noqa: F401  (the fixture)

try:
    from discord_play import new_bot
    from fakediscord import FakeDiscord, as_shown
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import FakeDiscord, as_shown

from service.records import period_start


async def _auto_hand(fd, bot, user, channel_id, variant, when: datetime, ai_seats: int, options: str | None = None):
    """Open a table, fill it with AI, start; the player's seat plays on auto; returns the
    finished hand's result after closing the table.  The store's clock says ``when``."""
    bot.store.db.clock = lambda: when
    args = {"variant": variant}
    if options:
        args["options"] = options
    r = await fd.slash(user, "mj table create", args, channel_id=channel_id)
    assert "created" in r.content.lower() or "开" in r.content, r.content
    for _ in range(ai_seats):
        await fd.slash(user, "mj table add-ai", {"level": "normal"}, channel_id=channel_id)
    await fd.slash(user, "mj table start", channel_id=channel_id)
    table = bot.service.table_in(channel_id)
    await bot.service.set_auto(channel_id, user.id, True)
    await fd.settle()
    assert table.hand.is_over()
    result, hand_id = table.last_result, table.hand_id
    await fd.slash(user, "mj table end", channel_id=channel_id)
    return result, hand_id, table.seat_of(user.id)


@pytest.mark.asyncio
async def test_admin_defaults_and_presets(fd_bot):
    fd, bot = fd_bot
    admin = fd.user(1, "admin", admin=True)
    bob = fd.user(2, "bob")
    r = await fd.slash(bob, "mj config default", {"variant": "two_player", "options": "min_fan=8"})
    assert r.ephemeral and "Only server admins" in r.content
    r = await fd.slash(admin, "mj config default", {"variant": "two_player", "options": "min_fan=0"})
    assert "min_fan" in as_shown(r.content)  # refused: out of range
    r = await fd.slash(admin, "mj config default", {"variant": "two_player", "options": "base_points=2"})
    assert r.content == "Saved."
    r = await fd.slash(admin, "mj config preset", {"name": "quick", "variant": "two_player",
                                                "options": "min_fan=8 discard_timeout=30"})
    assert r.content == "Saved."
    choices = await fd.autocomplete(bob, "mj table create", {"variant": "two_player"}, "preset")
    assert [c["value"] for c in choices][:1] == ["quick"] and "relaxed" in [c["value"] for c in choices]
    choices = await fd.autocomplete(bob, "mj table create", {"variant": "two_player", "options": "min_fan="},
                                    "options")
    assert choices and all(c["value"].startswith("min_fan=") for c in choices)
    assert "min_fan=15" in [c["value"] for c in choices]
    r = await fd.slash(bob, "mj table create", {"variant": "two_player", "preset": "quick",
                                             "options": "claim_timeout=20"})
    opts = bot.service.table_in(fd.channel_id).options
    # preset (min_fan 8, discard 30), server default (base 2), typed (claim 20)
    assert (opts["min_fan"], opts["discard_timeout"], opts["base_points"], opts["claim_timeout"]) == (8, 30, 2, 20)
    r = await fd.slash(admin, "mj config show")
    assert "quick" in r.message.embeds[0]["description"]
    # channels: allow only another channel, then this one is refused
    other = fd.add_channel("mahjong")
    await fd.slash(bob, "mj table end")
    await fd.slash(admin, "mj table end")
    r = await fd.slash(admin, "mj config channel", {"channel": other, "allow": True})
    assert r.content == "Saved."
    r = await fd.slash(bob, "mj table create", {"variant": "two_player"})
    assert r.ephemeral and "not allowed in this channel" in r.content
    r = await fd.slash(bob, "mj table create", {"variant": "two_player"}, channel_id=other)
    assert not r.content.startswith("Tables are not allowed")


@pytest.mark.asyncio
async def test_scores_periods_history_replay_verify(fd_bot):
    fd, bot = fd_bot
    alice = fd.user(1, "alice")
    now = datetime.now(timezone.utc)
    week, month = period_start("week", now), period_start("month", now)
    # three hands: before this month, this month before this week (when there is such a day),
    # and this week; the last one in another game
    old = datetime(month.year - 1, 6, 1, 12, tzinfo=timezone.utc)
    mid = month if month < week else week
    plays = [(old, "two_player", 1), (mid, "two_player", 1), (now, "zipai", 2)]
    results = []
    for i, (when, variant, ais) in enumerate(plays):
        ch = fd.add_channel(f"t{i}")
        results.append((when, variant) + await _auto_hand(fd, bot, alice, ch, variant, when, ais))
    mine = [(when, variant, res["points"][seat], hid) for when, variant, res, hid, seat in results]

    async def board(period):
        r = await fd.slash(alice, "mj leaderboard", {"period": period})
        if not r.message.embeds:
            return None
        line = r.message.embeds[0]["description"].splitlines()
        return next((ln for ln in line if "alice" in ln), None)

    for period, since in (("all", None), ("month", month), ("week", week)):
        expected = sum(p for when, _, p, _ in mine if since is None or when >= since)
        hands = sum(1 for when, *_ in mine if since is None or when >= since)
        line = await board(period)
        assert line is not None and f"{expected:+d} (" in line and f"/{hands})" in line, (period, line)
    r = await fd.slash(alice, "mj score")
    total = sum(p for *_, p, _ in mine)
    assert f"{total:+d}" in r.content and "3 hands" in r.content
    r = await fd.slash(alice, "mj score", {"variant": "zipai"})
    assert f"{mine[2][2]:+d}" in r.content and "1 hands" in r.content
    r = await fd.slash(alice, "mj history")
    desc = r.message.embeds[0]["description"]
    assert all(f"#{hid}" in desc and f"{p:+d}" in desc for *_, p, hid in mine)

    # replay: every hand face up, step by step
    hid = mine[0][3]
    r = await fd.slash(alice, "mj replay", {"hand": hid})
    assert not r.ephemeral and r.message.attachments[0].name == "table.png"
    assert "step 0/" in r.content
    first_alt = r.message.descriptions["table.png"]
    msg = r.message
    nxt = next(c for c in msg.custom_ids if c.split(":")[3] == "2")
    r2 = await fd.click(alice, msg, nxt)
    assert r2.response_type == 7 and "step 1/" in r2.message.content
    last = next(c for c in r2.message.custom_ids if c.split(":")[3] == "3")
    assert last.endswith(":en")  # the message's language, carried by its buttons
    # a player of another language stepping the shared replay keeps the message's language
    r3 = await fd.click(fd.user(9001, "zh-viewer", locale="zh-CN"), r2.message, last)
    total_steps = int(r3.message.content.split("/")[-1])
    assert f"step {total_steps}/{total_steps}" in r3.message.content
    # each step's image is described: the hand and step, and at the last step the result
    assert first_alt.startswith(
        f"Replay of Two-player mahjong (二人麻将) hand #{hid}, step 0 of {total_steps}.")
    last_alt = r3.message.descriptions["table.png"]
    assert last_alt.startswith(f"Replay of Two-player mahjong (二人麻将) hand #{hid}, step {total_steps} of {total_steps}.")
    res0 = results[0][2]
    winners = res0.get("winners") or []
    assert (all(f"wins (" in last_alt and f"{res0['points'][w]:+d} points." in last_alt for w in winners)
            if winners else "Exhaustive draw." in last_alt), last_alt

    # verify: the seed is revealed with its SHA-256 and the log replays to the stored result
    r = await fd.slash(alice, "mj verify", {"hand": hid})
    record = await bot.store.get_hand(hid)
    assert str(record.seed) in r.content
    assert hashlib.sha256(str(record.seed).encode()).hexdigest() in r.content
    assert "✓" in r.content


@pytest.mark.asyncio
async def test_zh_tw_user_sees_traditional_chinese(fd_bot):
    fd, bot = fd_bot
    carol = fd.user(3, "carol", locale="zh-TW")
    r = await fd.slash(carol, "mj score")
    assert as_shown(r.content) == f"{carol.name} 在本伺服器還沒有記錄。"
    r = await fd.slash(carol, "mj table start")
    assert r.content == "本頻道還沒有牌桌。用 /mj table create 開一桌。"
    r = await fd.slash(carol, "mj rules", {"variant": "two_player"})
    assert "國標" in r.message.embeds[0]["description"]
