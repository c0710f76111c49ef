"""A full four-player hand of 老三番 and of 金湖老三番 through Discord: two human seats
press the buttons the bot DMs them (chosen with the variant's AI), two AI seats; the
hand is played to settlement and the scores land in the database and in /score."""

from __future__ import annotations

import pytest

from engine.match import Match
from engine.variants import find_variant

try:
    from discord_play import new_bot, press_for
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press_for
    from tests.harness.fakediscord import FakeDiscord

from service.clock import ManualClock


def _seed_with_human_win(variant: str, options: dict) -> int:
    """First table seed whose first hand, every seat played by the variant's AI, ends in a
    win by seat 0 or 1 (the human seats) after at least one claim."""
    opts = find_variant(variant).resolve_options(options)
    for seed in range(1, 400):
        hand = Match(variant, opts, seed, 4).new_hand()
        claims = 0
        while not hand.is_over():
            s = hand.pending_seats()[0]
            a = hand.ai_action(s)
            claims += a.type in ("pung", "chow", "kong")
            hand.apply(a)
        if hand.result["winner"] in (0, 1) and claims:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.some_games("老三番 and 金湖老三番, the games of this folder")
@pytest.mark.asyncio
@pytest.mark.parametrize("variant,options", [("laosanfan", "style=tuidaoba discard_pays=all"),
                                             ("jinhu", "min_fan_for_open_wait=2")])
async def test_full_four_player_hand(tmp_path, variant, options):
    parsed = dict(kv.split("=") for kv in options.split())
    seed = _seed_with_human_win(variant, parsed)
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        alice = fd.user(201, "alice")
        bob = fd.user(202, "bob", locale="zh-CN")
        r = await fd.slash(alice, "mj table create", {"variant": variant, "options": options})
        assert r.ephemeral
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        assert table.variant.id == variant and len(table.seats) == 4
        if variant == "laosanfan":
            assert table.options["style"] == "tuidaoba"
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        presses = 0
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            assert seat in users  # AI seats never wait
            action = table.hand.ai_action(seat)
            r = await press_for(fd, bot, users[seat], ch, action)
            assert r.response_type == 7, r.content
            presses += 1
        result = table.last_result
        assert presses > 0 and result["winner"] in users and sum(result["points"]) == 0
        winner = users[result["winner"]]
        pts = result["points"][result["winner"]]
        assert pts > 0
        if variant == "laosanfan":
            assert pts % 100 == 0  # 推倒八 pays 100 × 2^fan per loser
        line = await bot.store.score(fd.guild_id, winner.id)
        assert (line.points, line.hands, line.wins) == (pts, 1, 1)
        r = await fd.slash(winner, "mj score")
        assert f"{pts:+d}" in r.content
        loser = users[1 - result["winner"]]
        lp = result["points"][1 - result["winner"]]
        line = await bot.store.score(fd.guild_id, loser.id)
        assert (line.points, line.hands, line.wins) == (lp, 1, 0)
    finally:
        await fd.close()
