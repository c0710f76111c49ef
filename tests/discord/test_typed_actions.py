"""Typed moves through the fake Discord: ``/act`` (its autocomplete lists the legal actions, in
the player's language) and the play verbs read as a game's own word (``/pung`` is 字牌's 碰).
What each text means is ``tests/render/test_typed_words.py``; its one reading for every front
end, ``tests/service/test_snapshots.py``."""

from __future__ import annotations

from collections import Counter

import pytest

from service.clock import ManualClock

try:
    from discord_play import new_bot
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot
    from tests.harness.fakediscord import FakeDiscord


def _value(action) -> str:
    """An engine action without its seat: ``"discard 5m"``, ``"chi_d 5X"``, ``"pung"``."""
    return str(action).split(" ", 1)[1]


def _seat_users(fd, table, users):
    return {table.seat_of(u.id): u for u in users}


@pytest.mark.asyncio
async def test_a_zipai_hand_played_with_act_through_discord(tmp_path):
    """Three humans (en, zh-CN, zh-TW) play a whole 字牌 hand typing ``/act`` with the label the
    autocomplete shows them (the hand's own AI picks the move); ``/pung`` answers as 碰."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 11
        users = [fd.user(301, "ann", locale="en-US"), fd.user(302, "bo", locale="zh-CN"),
                 fd.user(303, "chen", locale="zh-TW")]
        await fd.slash(users[0], "mj table create", {"variant": "zipai"})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        by_seat = _seat_users(fd, table, users)
        typed = Counter()
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            user = by_seat[seat]
            wanted = _value(table.hand.ai_action(seat))
            offered = await fd.autocomplete(user, "act", {}, "action")
            assert 0 < len(offered) <= 25
            choice = next(c for c in offered if c["value"] == wanted)
            before = len(table.actions)
            if wanted == "peng":
                r = await fd.slash(user, "pung")
            else:
                r = await fd.slash(user, "act", {"action": choice["name"]})
            assert r.ephemeral
            # the move was taken: the hand's log grew by it (a refusal leaves it as it was)
            assert table.actions[before].split(" ", 1)[1] == wanted, r.content
            typed[wanted.split()[0]] += 1
        assert table.last_result is not None and sum(table.last_result["points"]) == 0
        # seed 11: 14 discards, 6 碰 by /pung, 4 吃 and a 胡 by /act
        assert typed["discard"] > 0 and sum(v for k, v in typed.items() if k.startswith("piao")) == 3
        assert typed["peng"] > 0 and sum(v for k, v in typed.items() if k.startswith("chi_")) > 0 and typed["hu"] == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_act_refuses_privately_what_is_not_legal(tmp_path):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 5
        a, b = fd.user(311, "ann", locale="en-US"), fd.user(312, "bo", locale="zh-CN")
        await fd.slash(a, "mj table create", {"variant": "two_player"})
        await fd.slash(b, "mj table join")
        await fd.slash(a, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        seat = table.hand.pending_seats()[0]
        mover, other = (a, b) if table.seat_of(a.id) == seat else (b, a)
        before = table.seq
        r = await fd.slash(other, "act", {"action": "pung"})
        assert r.ephemeral and table.seq == before
        r = await fd.slash(mover, "act", {"action": "banana"})
        assert r.ephemeral and table.seq == before
        assert ("banana" in r.content) and ("Discard" in r.content or "打出" in r.content)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_act_with_a_shared_verb_that_cannot_be_done_says_why_as_its_command_does(tmp_path):
    """``/act 胡`` when no win is possible gets the refusal ``/hu`` gets (the engine says why),
    not a bare "not an action you can take now"."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 5
        a, b = fd.user(321, "ann", locale="en-US"), fd.user(322, "bo", locale="en-US")
        await fd.slash(a, "mj table create", {"variant": "two_player"})
        await fd.slash(b, "mj table join")
        await fd.slash(a, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        mover = a if table.seat_of(a.id) == table.hand.pending_seats()[0] else b
        assert "hu" not in {x.split()[1] for x in table.hand.view(table.seat_of(mover.id))["me"]["legal"]}
        before = list(table.actions)
        by_command = await fd.slash(mover, "hu")
        by_act = await fd.slash(mover, "act", {"action": "胡"})
        assert by_act.ephemeral and by_act.content == by_command.content and table.actions == before
        assert "not an action you can take now" not in by_act.content
    finally:
        await fd.close()
