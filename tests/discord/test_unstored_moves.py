"""What the public sees of a move the store has not accepted (yet, or ever).

* The fan-out task reads the live table (``cogs/fanout.py`` ``TableFeed.publish`` /
  ``prompts``), not the stored one, and it runs while ``TableService.act`` holds the table's
  lock and awaits the store (``_flush``): a move applied in memory but not yet written is
  published.  When the write then fails, the table is rebuilt from the store
  (``Hands.guarded``), but nobody tells the fan-out, so the table message keeps
  showing the refused move.
  The same at a deal: ``Hands.start_hand`` sets ``Table.hand`` to the new hand, then
  awaits the store for its id; a prompt drawn meanwhile carries the previous hand's id
  (``messages.ActionButtons`` reads ``Table.hand_id``), so its buttons are refused as out of date.
  Worse, a prompt drawn from a refused move keeps its decision number: the same number is
  given to the next real decision (``Table.decisions`` counts decisions), so the prompt
  about a discard that never happened is taken for the prompt of the real one — which is
  therefore never sent (``TableFeed.prompted``: one prompt per decision) — and its buttons act
  on the real discard.
* ``TableService._rollback`` and ``_reload`` rebuild the hand but not ``Table.recent`` (the
  table log): the events of the refused move stay in the log of every later table message.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.tiles import kind_str

try:
    from table_helpers import embed_text, open_table
    from discord_play import play_humans, press, private_messages, table_button, table_message, timeout_policy
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import embed_text, open_table
    from tests.harness.discord_play import (play_humans, press, private_messages, table_button, table_message,
                                    timeout_policy)


def _fail_write(bot, which: int, delay: float = 0.0) -> dict:
    """The ``which``-th action write from now waits ``delay`` s and then fails as a full disk would."""
    real = bot.store.append_actions
    state = {"n": 0}

    async def append_actions(hand_id, idx, texts):
        state["n"] += 1
        if state["n"] == which:
            await asyncio.sleep(delay)
            raise RuntimeError("database or disk is full")
        return await real(hand_id, idx, texts)

    bot.store.append_actions = append_actions
    return state


async def _typed(fd, user, action):
    if action.type == "discard":
        return await fd.slash(user, "discard", {"tile": kind_str(action.kind)}, check=False)
    return await fd.slash(user, action.type, check=False)


@pytest.mark.slow  # real network delays
@pytest.mark.asyncio
async def test_the_table_message_never_shows_a_move_the_store_refused(tmp_path):
    """two_player, alice and bob (table seed 31), three moves by the timeout rule; channel and DM
    calls take 0.3 s.  bob discards 8m with his DM button (stored; alice may claim it).  Right
    after bob's answer, alice types /pass; the database takes 1 s and refuses that write.  alice
    is told nothing was lost; the stored hand still waits on her claim (40 tiles in the wall).
    The table message should show that as it shows any discard (the public frame: bob's
    discard, alice the next to play, 40 tiles); it showed 39 tiles — the draw that followed the
    refused pass."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat, until=lambda t: len(t.actions) >= 3)
        sb, sa = table.seat_of(bob.id), table.seat_of(alice.id)
        assert table.hand.pending_seats() == [sb]
        fd.latency = lambda call: 0.3 if "/channels/" in call.path else 0.0
        _fail_write(bot, 2, delay=1.0)
        r = await press(fd, bob, timeout_policy(table.hand, sb), wait="answered")
        assert r.response_type == 7
        assert table.hand.phase == "claim" and table.hand.pending_seats() == [sa]
        r = await fd.slash(alice, "pass", check=False)
        assert "nothing was lost" in (r.text or ""), r.text
        await fd.settle()
        stored = list((await bot.store.get_hand(table.hand_id)).actions)
        assert stored == table.actions and stored[-1] == f"{sb} discard 8m"
        assert table.hand.phase == "claim" and table.hand.wall_remaining == 40
        text = embed_text(table_message(fd, fd.channel_id))
        assert "Wall: 40" in text and f"Turn: **{alice.name}**" in text, text
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_table_log_forgets_a_move_the_store_refused(tmp_path):
    """two_player, alice and bob (table seed 31), play by the timeout rule until bob owes a
    discard.  bob types /discard of his timeout choice; the database refuses the write and bob
    is told nothing was lost.  He types the same /discard again, which is stored.  The table
    log should say once that bob discarded the tile (as after a restart, which rebuilds the
    log from the store); it says it twice."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 31, ["alice", "bob"])
    try:
        alice, bob = users
        sb = table.seat_of(bob.id)
        await play_humans(fd, bot, fd.channel_id, by_seat,
                          until=lambda t: len(t.actions) >= 3 and t.hand.pending_seats() == [sb]
                          and t.hand.timer_kind() == "discard")
        a = timeout_policy(table.hand, sb)
        assert a.type == "discard"
        line = f"{bob.name} discards {kind_str(a.kind)}"
        _fail_write(bot, 1)
        r = await _typed(fd, bob, a)
        assert "nothing was lost" in (r.text or ""), r.text
        r = await _typed(fd, bob, a)
        assert not r.errors and table.actions[-1] == str(a)
        shown = [x for x in embed_text(table_message(fd, fd.channel_id)).splitlines() if x.startswith(line)]
        assert len(shown) == 1, shown
    finally:
        await fd.close()


@pytest.mark.slow  # real network delays
@pytest.mark.asyncio
async def test_the_first_prompt_of_a_hand_works(tmp_path):
    """laosanfan, four humans (table seed 5), hand 1 played to its end by the timeout rule.
    Channel and DM calls take 0.2 s and storing a new hand takes 1 s (a busy database).  On the
    result screen bob types /mj table leave while alice presses **Next hand**.  dan, the first to
    act in hand 2, gets the DM for his first decision; pressing its discard button should play
    it.  He gets two DMs; the first one's buttons carry hand 1's id and are refused ("earlier
    turn")."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "laosanfan", 5, ["alice", "bob", "cat", "dan"])
    try:
        alice, bob, cat, dan = users
        await play_humans(fd, bot, fd.channel_id, by_seat)
        hand1 = table.hand_id
        real = bot.store.start_hand

        async def start_hand(**kwargs):
            await asyncio.sleep(1.0)
            return await real(**kwargs)

        bot.store.start_hand = start_hand
        fd.latency = lambda call: 0.2 if "/channels" in call.path else 0.0
        msg, cid = table_button(fd, fd.channel_id, "next")
        before = len(fd.dms_to(dan))
        r1, r2 = await asyncio.gather(fd.slash(bob, "mj table leave", check=False),
                                      fd.click(alice, msg, cid, check=False))
        assert not r1.errors and not r2.errors
        await fd.settle()
        fd.latency = 0.0
        sd = table.seat_of(dan.id)
        assert table.hand_id != hand1 and table.hand.pending_seats() == [sd]
        new = [m for m in fd.dms_to(dan)[before:] if any(c.startswith("mj:") for c in m.custom_ids)]
        assert new, "dan got no prompt"
        first = new[0]
        button = next(c for c in first.custom_ids if ":discard:" in c)
        seq = table.hand.seq
        r = await fd.click(dan, first, button, check=False)
        assert r.response_type == 7 and table.hand.seq > seq, r.text
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.slow  # real waits: Discord's pace, retries, the answer-first window
async def test_the_claim_prompt_names_the_discard_that_was_stored(tmp_path):
    """two_player, alice and bob (table seed 13), five moves by the timeout rule; alice owes a
    discard.  Channel and DM calls take 0.3 s.  alice and bob type their next discards at once
    (the timeout choices); then alice types /discard 4m, which bob could 碰 or 吃 — the database
    takes 1 s and refuses it, and alice is told nothing was lost.  She types /discard 5m (bob
    may 碰 or 吃 that too), which is stored.  bob's prompt for this decision should be about
    5m; his only one says "alice discarded 4m", and its 碰 button would take the 5m."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "two_player", 13, ["alice", "bob"])
    try:
        alice, bob = users
        await play_humans(fd, bot, fd.channel_id, by_seat, until=lambda t: len(t.actions) >= 5)
        sa, sb = table.seat_of(alice.id), table.seat_of(bob.id)
        assert table.hand.pending_seats() == [sa]
        fd.latency = lambda call: 0.3 if "/channels" in call.path else 0.0
        _fail_write(bot, 3, delay=1.0)
        a = timeout_policy(table.hand, sa)
        await fd.slash(alice, "discard", {"tile": kind_str(a.kind)}, wait="answered", check=False)
        b = timeout_policy(table.hand, sb)
        assert b.type == "discard" and table.hand.pending_seats() == [sb]
        await fd.slash(bob, "discard", {"tile": kind_str(b.kind)}, wait="answered", check=False)
        assert table.hand.pending_seats() == [sa]
        r = await fd.slash(alice, "discard", {"tile": "4m"}, check=False)
        assert "nothing was lost" in (r.text or ""), r.text
        r = await fd.slash(alice, "discard", {"tile": "5m"}, check=False)
        assert not r.errors and table.actions[-1] == f"{sa} discard 5m" and table.hand.pending_seats() == [sb]
        await fd.settle()
        fd.latency = 0.0
        pre = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decisions[sb]}:"
        prompts = [m for m in private_messages(fd, bob) if any(c.startswith(pre) for c in m.custom_ids)]
        assert prompts, "bob has no prompt for his decision"
        texts = [m.text for m in prompts]
        assert not any("4m" in x for x in texts) and "5m" in texts[0], texts
    finally:
        await fd.close()
