"""A sharded bot: two processes (shard 0 and shard 1 of 2) on one database.  A table belongs
to its guild's shard; a DM click, which Discord delivers on shard 0, for a table of shard 1 is
routed through the database and applied by the shard-1 process, stored once, and the
player's message is redrawn."""

from __future__ import annotations

import uuid

import pytest
import pytest_asyncio
from sqlalchemy import text

from bot import make_bot
from engine.tiles import kind_str
from service.clock import ManualClock
from service.routing import Sharding, shard_of

try:
    from discord_play import prompt_with
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import prompt_with
    from tests.harness.fakediscord import FakeDiscord

from postgres import require_postgres


def test_shard_formula_and_ownership():
    # Discord's formula: (guild_id >> 22) % shard_count; worked by hand for 2 shards:
    # 5 << 22 → 5 % 2 = 1, (4 << 22) + 123 → 4 % 2 = 0
    assert shard_of(5 << 22, 2) == 1 and shard_of((4 << 22) + 123, 2) == 0
    assert shard_of(81384788765712384, 3) == (81384788765712384 >> 22) % 3
    s1 = Sharding(2, (1,))
    assert s1.owns(5 << 22) and not s1.owns(4 << 22) and not s1.owns(None)  # a DM is shard 0
    assert Sharding.from_env("4", "0,2") == Sharding(4, (0, 2))
    assert Sharding.from_env(None, None) is None and Sharding.from_env("2", "").mine == (0, 1)
    with pytest.raises(ValueError):
        Sharding(2, (2,))


@pytest_asyncio.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/shared.db", None
        return
    url = require_postgres()  # (left out of the run when no server answers, unless required)
    schema = "shard_" + uuid.uuid4().hex[:10]
    yield url, schema
    from store import Store

    s = Store(url)
    async with s.engine.begin() as conn:
        await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    await s.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_a_dm_click_on_shard_0_is_applied_by_the_owner_on_shard_1(db):
    url, schema = db
    clock = ManualClock()
    shard0 = make_bot(url, clock=clock, timer_interval=0, shard_count=2, shard_ids=[0], route_interval=0, tile_emojis=False,
                      schema=schema)
    shard1 = make_bot(url, clock=clock, timer_interval=0, shard_count=2, shard_ids=[1], route_interval=0, tile_emojis=False,
                      schema=schema)
    assert shard0.shard_count == 2 and shard0.shard_ids == [0] and shard1.shard_ids == [1]
    fd = FakeDiscord(shard0)
    await fd.start()
    try:
        # a guild on shard 1: (id >> 22) is odd
        gid = ((fd.next_id() >> 22) | 1) << 22
        assert shard_of(gid, 2) == 1
        fd.add_guild("Shard one", guild_id=gid)
        ch = next(c for c, d in fd.channels.items() if d.get("guild_id") == str(gid))
        await fd.add_bot(shard1)
        alice, bob = fd.user(201, "alice"), fd.user(202, "bob")

        # guild commands arrive on the guild's shard: the shard-1 process
        fd.bot = shard1
        shard1.service.lobby.seed_source = lambda: 777
        for user, cmd in ((alice, "mj table create"), (bob, "mj table join"), (alice, "mj table start")):
            r = await fd.slash(user, cmd, {"variant": "two_player"} if cmd == "mj table create" else None,
                               guild_id=gid, channel_id=ch)
            assert r.ephemeral
        table = shard1.service.table_in(ch)
        assert ch not in shard0.service.tables  # shard 0 never sees this table in memory

        # the player to act presses a button of their DM; Discord delivers it on shard 0
        seat = table.hand.pending_seats()[0]
        player = alice if table.seat_of(alice.id) == seat else bob
        action = table.hand.timeout_action(seat)
        seq = table.hand.seq
        cid = f"mj:{ch}:{table.hand_id}:d{table.decision(seat)}:{action.type}:{'-' if action.kind is None else kind_str(action.kind)}"
        dm = prompt_with(fd, player, cid)
        assert dm is not None and fd.dms_to(player) and dm.channel_id == player.dm_channel_id
        edits_before = dm.edits
        fd.bot = shard0
        r = await fd.click(player, dm, cid)
        assert r.response_type == 6  # acknowledged at once (deferred update), nothing applied yet
        assert table.hand.seq == seq
        assert await shard1.router.pending([1]) == 1

        # shard 0 does not apply it, however often it polls; shard 1 does, once
        assert await shard0.poll_routed() == 0
        assert await shard1.poll_routed() == 1
        await fd.settle()
        assert table.hand.seq > seq
        assert table.actions[0] == str(action)
        stored = await shard1.store.get_hand(table.hand_id)
        assert list(stored.actions) == table.actions  # everything applied is stored
        assert sum(1 for line in stored.actions if line == str(action)) == 1
        assert await shard1.poll_routed() == 0 and await shard1.router.pending() == 0

        # the player's DM message was redrawn through the interaction token
        dm_now = fd.message(dm.id)
        assert dm_now.edits > edits_before
        assert cid not in dm_now.custom_ids
        edit = [c for c in fd.calls if c.key == "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
                and c.interaction_id == r.id]
        assert len(edit) == 1 and edit[0].status == 200

        # the same stale click again: routed, refused by the owner with a private message
        fd.bot = shard0
        r2 = await fd.click(player, fd.message(dm.id) if cid in fd.message(dm.id).custom_ids else
                            fd.plant_message([cid], user=player), cid)
        assert r2.response_type == 6
        assert await shard1.poll_routed() == 1
        await fd.settle()
        # the owner answers through a webhook of its own (discord.py's public Webhook.partial),
        # which cannot send ephemeral messages: the refusal is a follow-up in the player's DM
        assert r2.followups and "earlier turn" in r2.followups[-1].content
        assert r2.followups[-1].channel_id == dm.channel_id and r2.followups[-1].recipient_id == player.id
        assert list((await shard1.store.get_hand(table.hand_id)).actions) == table.actions

        # on restart each process resumes only its shards' tables
        assert [t.channel_id for t in await shard1.service.load()] == [ch]
        assert await shard0.service.load() == []
    finally:
        fd.bot = shard0
        await fd.close()
