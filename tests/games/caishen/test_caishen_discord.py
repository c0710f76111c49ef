"""A whole 财神麻将 hand through Discord (FakeDiscord): three people and one AI seat at a
four-seat table; each person presses the buttons the bot sent them, chosen like the AI;
the hand is played to settlement, stored, and /score shows it."""

from __future__ import annotations

import pytest

try:
    from discord_play import find_seed, new_bot, press_for
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import find_seed, new_bot, press_for
    from tests.harness.fakediscord import FakeDiscord

from service.clock import ManualClock


def _won_without_wild_discard(hand, log) -> bool:
    # a hand with a winner, with a claim, where nobody discards a 财神 (a discard the front
    # end asks to confirm)
    return (hand.result["winner"] is not None and any(a.type in ("chow", "pung", "kong") for a in log)
            and not any(a.type == "discard" and hand.is_wild(a.kind) for a in log))


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path}/bot.db"


@pytest.mark.asyncio
async def test_full_four_player_hand_to_settlement(db_url):
    seed = find_seed(_won_without_wild_discard, variant="caishen", n_seats=4)
    bot = new_bot(db_url, ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        people = [fd.user(201, "ann"), fd.user(202, "bo", locale="zh-CN"), fd.user(203, "cy")]
        r = await fd.slash(people[0], "mj table create", {"variant": "caishen"})
        assert r.ephemeral
        for u in people[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(people[0], "mj table add-ai", {"level": "normal"})
        await fd.slash(people[0], "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        assert table.hand is not None and table.hand.VARIANT == "caishen"
        users = {table.seat_of(u.id): u for u in people}
        assert len(users) == 3
        # the public view shows the turned 财神
        assert table.hand.view(None)["wild"]["indicator"]
        pressed = 0
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            assert seat in users  # the AI seat acts by itself
            action = table.hand.ai_action(seat)
            r = await press_for(fd, bot, users[seat], ch, action)
            assert r.response_type == 7, r.content
            pressed += 1
        result = table.last_result
        assert result["winner"] is not None and sum(result["points"]) == 0
        assert pressed > 5
        for seat, u in users.items():
            line = await bot.store.score(fd.guild_id, u.id)
            assert line.points == result["points"][seat] and line.hands == 1
            r = await fd.slash(u, "mj score")
            assert f"{result['points'][seat]:+d}" in r.content
        print(f"\ncaishen Discord hand: seed {seed}, {pressed} button presses, points {result['points']}, "
              f"specials {result.get('specials')}")
    finally:
        await fd.close()
