"""The order of replies: a click or command is answered as soon as it is stored, before the
table message and the other players' DMs go out; the fan-out is ordered per table and edits of
the public message are coalesced when moves come faster than Discord allows.

Discord's rules as the fake applies them: the first response to an interaction must come
within 3 seconds (a later callback is answered 404 code 10062, "This interaction failed" for
the user); every REST call here takes a real, set time (``latency``)."""

from __future__ import annotations

import re

import pytest

from engine.tiles import kind_str
from service.clock import ManualClock

try:
    from discord_play import new_bot, timeout_policy
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, timeout_policy
    from tests.harness.fakediscord import FakeDiscord

_SEQ = re.compile(r":(\d+):[a-z_]+:[0-9A-Za-z-]+$")


async def _four_humans(tmp_path, *, latency, public_edit_interval=None, seed=5):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock(), public_edit_interval=public_edit_interval or 0.0)
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(500 + i, n) for i, n in enumerate(["ann", "ben", "cat", "dan"])]
    await fd.slash(users[0], "mj table create", {"variant": "laosanfan"})
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    fd.latency = latency
    return bot, fd, users


async def _move(fd, table, users_by_seat, wait="answered"):
    """The pending human's rule-defined choice, typed as a slash command."""
    seat = table.hand.pending_seats()[0]
    a = timeout_policy(table.hand, seat)
    user = users_by_seat[seat]
    if a.type == "discard":
        return await fd.slash(user, "discard", {"tile": kind_str(a.kind)}, wait=wait, check=False)
    return await fd.slash(user, a.type, wait=wait, check=False)


def _wall_counts(msg) -> list[int]:
    out = []
    for version in msg.history + [msg.data]:
        for e in version.get("embeds") or []:
            m = re.search(r"Wall: (\d+)", e.get("description") or "")
            if m:
                out.append(int(m.group(1)))
    return out


@pytest.mark.slow  # real network delays
@pytest.mark.asyncio
async def test_a_command_is_answered_before_the_fan_out(tmp_path):
    """Channel messages and DMs take 1.2 s each: the command that starts the game and every
    move are still answered within the 3 seconds, before the other players' DMs."""
    bot, fd, users = await _four_humans(tmp_path, latency=lambda call: 1.2 if "/channels/" in call.path else 0.0)
    try:
        r = await fd.slash(users[0], "mj table start", check=False)
        assert r.response_type is not None and not r.interaction.late
        table = bot.service.table_in(fd.channel_id)
        by_seat = {table.seat_of(u.id): u for u in users}
        for _ in range(3):
            n = len(fd.calls)
            r = await _move(fd, table, by_seat, wait="settled")
            assert r.response_type is not None and not r.interaction.late and not r.errors
            keys = [c for c in fd.calls[n:]]
            first_dm = next((i for i, c in enumerate(keys) if c.route == "/channels/{channel_id}/messages"
                             and c.method == "POST"), None)
            cb = next(i for i, c in enumerate(keys) if c.interaction_id == r.id)
            assert first_dm is None or cb < first_dm
        assert fd.late == []
    finally:
        await fd.close()


@pytest.mark.lengthy
@pytest.mark.slow
@pytest.mark.asyncio
async def test_fifty_quick_moves_at_350_ms_per_call(tmp_path):
    """Four humans, every REST call 350 ms, the public message edited at Discord's pace (one
    edit a second): /mj table start and 50 moves typed as fast as the answers come.  No
    interaction is answered late, nothing arrives out of order, and once the bot is idle the
    table message shows the final state."""
    bot, fd, users = await _four_humans(tmp_path, latency=0.35, public_edit_interval=1.0)
    try:
        r = await fd.slash(users[0], "mj table start", wait="answered", check=False)
        assert r.response_type is not None and not r.interaction.late
        table = bot.service.table_in(fd.channel_id)
        by_seat = {table.seat_of(u.id): u for u in users}
        moves = 0
        while moves < 50 and not table.hand.is_over():
            r = await _move(fd, table, by_seat)
            assert r.response_type is not None and not r.interaction.late, r.content
            moves += 1
        await fd.settle(timeout=120)
        assert moves == 50 or table.hand.is_over()
        assert fd.late == []
        # the public message: wall counts never go back up, and the last version is now
        msg = next(m for m in fd.messages_in(fd.channel_id) if m.embeds and "hand" in (m.embeds[0].get("title") or ""))
        walls = _wall_counts(msg)
        assert walls and walls == sorted(walls, reverse=True), walls
        assert len(msg.history) < moves, "the public edits were not coalesced"
        final = msg.embeds[0]["description"]
        if not table.hand.is_over():
            assert f"Wall: {table.hand.wall_remaining}" in final
            if table.hand.timer_kind() == "discard":
                assert f"**{table.seats[table.hand.turn].name}**" in final
        # each player's prompts arrived in the order of the turns they were drawn for
        for u in users:
            seqs = []
            for m in sorted(fd.dms_to(u), key=lambda m: m.id):
                found = [int(x.group(1)) for x in (_SEQ.search(c) for c in m.custom_ids if c.startswith("mj:")) if x]
                if found:
                    seqs.append(found[0])
            assert seqs == sorted(seqs), (u.name, seqs)
    finally:
        await fd.close()
