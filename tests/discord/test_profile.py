"""``/mj profile``, ``/mj profile-hide`` and the leaderboard by rating or 段位, through the fake
Discord, over a history rated live: the card (a PNG) and its text, a hidden profile refused to
others but shown to its owner, the boards in order."""

from __future__ import annotations

import pytest
from discord_play import new_bot
from fakediscord import FakeDiscord
from rated_history import new_rated_table, played_hand

from service.clock import ManualClock
from service.profile import display_rating

ALICE, BOB, CAROL = 1, 2, 3


async def _history(bot, guild_id: int) -> list[dict]:
    """Eight 老三番 hands played by the AI for every seat, seats: Alice, Bob, an AI seat, Carol
    — two blocks of four rated hands."""
    table = await new_rated_table(bot.store, guild_id, 900, "laosanfan")
    return [await played_hand(bot.store, table, n + 1, [ALICE, BOB, None, CAROL], "laosanfan", seed=40 + n)
            for n in range(8)]


@pytest.mark.asyncio
async def test_a_profile_card_and_the_boards_by_rating_and_dan(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice, bob, carol = fd.user(ALICE, "alice"), fd.user(BOB, "bob"), fd.user(CAROL, "carol")
        results = await _history(bot, fd.guild_id)
        mine = await bot.store.rating(fd.guild_id, "laosanfan", BOB)
        assert mine.units == 2  # two blocks of four hands
        won = sum(1 for r in results if 1 in (r.get("winners") or [r.get("winner")]))
        r = await fd.slash(bob, "mj profile", {"variant": "laosanfan"})
        assert r.ephemeral and [a.name for a in r.message.attachments] == ["profile.png"]
        assert r.message.attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"
        assert str(display_rating(mine.mu, mine.sigma)) in r.content
        assert f"{100 * won / 8:.1f}%" in r.content  # Bob's 和了率: the hands his seat won, of 8
        # another player's profile, until they hide it
        r = await fd.slash(alice, "mj profile", {"player": bob, "variant": "laosanfan"})
        assert r.message.attachments and "bob" in r.content.lower()
        await fd.slash(bob, "mj profile-hide", {"hidden": True})
        r = await fd.slash(alice, "mj profile", {"player": bob, "variant": "laosanfan"})
        assert r.ephemeral and not r.message.attachments and "to themselves" in r.content
        assert (await fd.slash(bob, "mj profile", {"variant": "laosanfan"})).message.attachments  # the owner still
        await fd.slash(bob, "mj profile-hide", {"hidden": False})
        # the boards: by rating, and by 段位
        ratings = {u: await bot.store.rating(fd.guild_id, "laosanfan", u) for u in (ALICE, BOB, CAROL)}
        order = sorted(ratings, key=lambda u: -display_rating(ratings[u].mu, ratings[u].sigma))
        r = await fd.slash(carol, "mj leaderboard", {"variant": "laosanfan", "by": "rating"})
        lines = r.message.embeds[0]["description"].splitlines()
        assert [next(n for n in ("alice", "bob", "carol") if f"P{dict(alice=1, bob=2, carol=3)[n]}" in line)
                for line in lines] == [{ALICE: "alice", BOB: "bob", CAROL: "carol"}[u] for u in order]
        r = await fd.slash(carol, "mj leaderboard", {"variant": "laosanfan", "by": "dan"})
        assert r.message.embeds and len(r.message.embeds[0]["description"].splitlines()) == 3
        r = await fd.slash(carol, "mj leaderboard", {"by": "rating"})
        assert r.ephemeral and "per game" in r.content
    finally:
        await fd.close()
