"""``/mj replay hand: seat:`` and ``/mj replay hand: animate: True`` through the fake Discord
(which refuses uploads over 10 MiB, as a server without boosts does): a seat's view answered
privately to its player and stepped by them only, the GIF posted publicly within the limit, a
seat's view GIF asked by someone who did not sit there refused privately, a GIF over the
limit drawn smaller or refused in words."""

from __future__ import annotations

import io

import pytest
from fd_fixture import fd_bot  # noqa: F401  (the fixture)
from PIL import Image
from rated_history import new_rated_table, played_hand

import cogs.seatview as seat_cog
from render import animate as gif
from service.replays import frames

ALICE, BOB = 101, 102


async def _hand(bot, guild_id: int) -> int:
    """A 老三番 hand (seed 6) played by the AI: Alice in seat 1, Bob in seat 2, two AI seats."""
    table = await new_rated_table(bot.store, guild_id, 900, "laosanfan")
    await played_hand(bot.store, table, 1, [None, ALICE, BOB, None], "laosanfan", seed=6)
    return (await bot.store.finished_hands(guild_id))[0].id


@pytest.mark.asyncio
async def test_a_seats_view_is_its_players_alone(fd_bot):
    fd, bot = fd_bot
    alice, bob = fd.user(ALICE, "alice"), fd.user(BOB, "bob")
    hid = await _hand(bot, fd.guild_id)
    # the seat option offers the hand's seats by name
    choices = await fd.autocomplete(alice, "mj replay", {"hand": hid}, "seat")
    assert [c["value"] for c in choices] == [1, 2, 3, 4] and choices[1]["name"] == "2 · P101"
    r = await fd.slash(alice, "mj replay", {"hand": hid, "seat": 2})
    assert r.ephemeral and r.message.attachments[0].name == "table.png"
    assert f"from seat 2, P101's view — step 0/" in r.content
    ids = r.message.custom_ids
    assert all(c.endswith(":s1") for c in ids) and len(ids) == 4
    nxt = next(c for c in ids if c.split(":")[3] == "2")
    r2 = await fd.click(alice, r.message, nxt)
    assert r2.response_type == 7 and "step 1/" in r2.message.content
    # the hand is over: Bob may watch it from Alice's seat too (privately, the same view), or
    # from an AI seat's; only a seat the hand did not have is refused
    r3 = await fd.slash(bob, "mj replay", {"hand": hid, "seat": 2})
    assert r3.ephemeral and "from seat 2, P101's view — step 0/" in r3.content
    assert r3.message.attachments
    r4 = await fd.slash(bob, "mj replay", {"hand": hid, "seat": 7})
    assert r4.ephemeral and "there is no seat 7" in r4.content
    r5 = await fd.slash(bob, "mj replay", {"hand": hid, "seat": 1})  # an AI seat
    assert r5.ephemeral and "from seat 1," in r5.content and r5.message.attachments


@pytest.mark.asyncio
async def test_the_gif_is_posted_publicly_within_the_limit(fd_bot):
    fd, bot = fd_bot
    alice, bob = fd.user(ALICE, "alice"), fd.user(BOB, "bob")
    hid = await _hand(bot, fd.guild_id)
    record = await bot.store.get_hand(hid)
    r = await fd.slash(bob, "mj replay", {"hand": hid, "animate": True})
    assert r.response_type == 5 and not r.ephemeral  # deferred publicly while drawing
    msg = r.message
    assert [a.name for a in msg.attachments] == [f"hand-{hid}.gif"]
    data = msg.attachments[0].data
    assert len(data) <= gif.LIMIT
    shown = Image.open(io.BytesIO(data))
    public = frames(record)
    assert shown.format == "GIF" and shown.n_frames == len(public)
    assert f"Hand #{hid} (Lao San Fan (老三番)), move by move: {len(public) - 1} moves" in msg.content
    assert msg.descriptions[f"hand-{hid}.gif"].startswith("Animation of Lao San Fan (老三番) hand")
    # Alice's own seat, asked by Alice: public too (her choice)
    r = await fd.slash(alice, "mj replay", {"hand": hid, "seat": 2, "animate": True})
    assert not r.ephemeral and r.message.attachments[0].name == f"hand-{hid}.gif"
    assert "from seat 2, P101's view" in r.message.content
    # Alice's seat asked by Bob: refused privately, nothing posted
    before = len(fd.messages)
    r = await fd.slash(bob, "mj replay", {"hand": hid, "seat": 2, "animate": True})
    assert r.ephemeral and r.response_type == 4 and "Only the player who sat in seat 2" in r.content
    assert not r.message.attachments and len(fd.messages) == before + 1


@pytest.mark.asyncio
async def test_a_gif_over_the_limit_is_drawn_smaller_or_refused(fd_bot, monkeypatch):
    fd, bot = fd_bot
    bob = fd.user(BOB, "bob")
    hid = await _hand(bot, fd.guild_id)
    scales = []

    def too_big(views, kinds, scale):
        scales.append(scale)
        return b"GIF89a" + bytes(gif.LIMIT)  # one byte a frame could never save

    monkeypatch.setattr(seat_cog.gif, "animate", too_big)
    r = await fd.slash(bob, "mj replay", {"hand": hid, "animate": True})
    assert scales == [gif.SCALE, seat_cog.SMALLER]
    assert not r.message.attachments and "too long to animate within Discord's 10 MiB" in r.content
    # the fake Discord refuses such an upload itself, as Discord does (413)
    import discord

    channel = bot.get_channel(fd.channel_id)
    with pytest.raises(discord.HTTPException) as e:
        await channel.send(file=discord.File(io.BytesIO(b"GIF89a" + bytes(gif.LIMIT)), filename="x.gif"))
    assert e.value.status == 413 and e.value.code == 40005
