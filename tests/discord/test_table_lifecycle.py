"""The life of a table between hands and across tables, through the fake Discord: a finished
hand is settled once, buttons and bookkeeping belong to one hand, a player's command in a DM
goes to the table where they may act, and auto-play (托管) can be left.

Human seats play the choice the rules make on a timeout (``timeout_policy``), so nothing here
depends on the AI beyond the AI seats the tests state.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from engine.actions import Action
from engine.tiles import kind_str, parse_kind
from service.clock import ManualClock

try:
    from discord_play import (latest_prompt, new_bot, play_humans, press, private_messages, table_button,
                              table_message, timeout_policy)
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import (latest_prompt, new_bot, play_humans, press, private_messages, table_button,
                                    table_message, timeout_policy)
    from tests.harness.fakediscord import FakeDiscord


async def _open(tmp_path, variant: str, seed: int, humans: list[str], n_ai: int, options: str | None = None):
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    bot.service.lobby.seed_source = lambda: seed
    users = [fd.user(300 + i, name) for i, name in enumerate(humans)]
    await fd.slash(users[0], "mj table create", {"variant": variant, **({"options": options} if options else {})})
    for u in users[1:]:
        await fd.slash(u, "mj table join")
    for _ in range(n_ai):
        await fd.slash(users[0], "mj table add-ai", {"level": "normal"})
    await fd.slash(users[0], "mj table start")
    table = bot.service.table_in(fd.channel_id)
    by_seat = {table.seat_of(u.id): u for u in users}
    return bot, fd, table, users, by_seat


async def _stored_hands(bot, table_id: int) -> list[tuple[int, str]]:
    from store.base import _H

    async with bot.store.engine.connect() as conn:
        rows = await conn.execute(select(_H.c.hand_no, _H.c.status).where(_H.c.table_id == table_id)
                                  .order_by(_H.c.id))
        return [(r[0], r[1]) for r in rows]


async def _settlement_rows(bot, table_id: int) -> dict[int, int]:
    """hand id -> number of settlement rows."""
    from store.base import _P

    async with bot.store.engine.connect() as conn:
        rows = await conn.execute(select(_P.c.hand_id).where(_P.c.table_id == table_id))
        out: dict[int, int] = {}
        for (hid,) in rows:
            out[hid] = out.get(hid, 0) + 1
        return out


def _embed_title(msg) -> str:
    return (msg.embeds[0].get("title") or "") if msg.embeds else ""


# ------------------------------------------------------------------ 1. settled once
@pytest.mark.asyncio
async def test_leave_on_the_result_screen_does_not_settle_the_hand_again(tmp_path):
    """laosanfan, two humans and two AI seats, table seed 5: when hand 1 ends the second human
    leaves, then the first presses Next hand.  The leave is answered; the next hand is hand 2;
    stored hand numbers are 0, 1; totals and the 连庄 count are those of the first settlement."""
    bot, fd, table, (alice, bob), users = await _open(tmp_path, "laosanfan", 5, ["alice", "bob"], 2)
    try:
        await play_humans(fd, bot, fd.channel_id, users)
        first = list(table.last_result["points"])
        state = dict(table.match.state)
        assert sum(first) == 0 and state["hand_no"] == 1
        r = await fd.slash(bob, "mj table leave", check=False)
        assert r.response_type is not None and not r.errors, [str(e) for e in r.errors]
        assert table.scores() == first and table.match.state == state
        msg, cid = table_button(fd, fd.channel_id, "next")
        r = await fd.click(alice, msg, cid, check=False)
        assert r.response_type is not None and not r.errors, [str(e) for e in r.errors]
        assert "hand 2" in _embed_title(table_message(fd, fd.channel_id))
        assert [no for no, _ in await _stored_hands(bot, table.id)] == [0, 1]
        assert table.scores() == first
        assert table.match.state["dealer_streak"] == state["dealer_streak"]
        assert table.match.state["dealer"] == state["dealer"]
        assert set((await _settlement_rows(bot, table.id)).values()) == {4}
        for u in (alice, bob):
            line = await bot.store.score(fd.guild_id, u.id)
            assert line.points == first[table.seat_of(u.id)] and line.hands == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_two_concurrent_next_hand_presses_deal_one_hand(tmp_path):
    bot, fd, table, (alice, bob), users = await _open(tmp_path, "laosanfan", 5, ["alice", "bob"], 2)
    try:
        await play_humans(fd, bot, fd.channel_id, users)
        first = list(table.last_result["points"])
        msg, cid = table_button(fd, fd.channel_id, "next")
        r1, r2 = await asyncio.gather(fd.click(alice, msg, cid, check=False), fd.click(bob, msg, cid, check=False))
        for r in (r1, r2):
            assert r.response_type is not None and not r.errors, [str(e) for e in r.errors]
        # the later press is told the next hand is already dealt (not "a hand is running")
        assert any("already" in (r.content or "") for r in (r1, r2)), [r.content for r in (r1, r2)]
        assert [no for no, _ in await _stored_hands(bot, table.id)] == [0, 1]
        assert table.match.hand_no == 1 and not table.hand.is_over() and table.scores() == first
        assert "hand 2" in _embed_title(table_message(fd, fd.channel_id))
    finally:
        await fd.close()


# ------------------------------------------------------------------ 2. one hand's buttons
def _copies_of_prompts(fd, user) -> list[str]:
    """The action ids of every private message the user got so far."""
    return [c for m in private_messages(fd, user) for c in m.custom_ids if c.startswith(("mj:", "mjs:"))]


@pytest.mark.asyncio
async def test_a_button_of_an_earlier_hand_does_not_act_in_a_later_one(tmp_path):
    """laosanfan, one human and three AI seats, table seed 5.  In hand 1 the human plays with
    /discard, so their DM prompts keep their buttons; a copy of every hand-1 button id is kept.
    In hand 2, at the first decision where a hand-1 discard button of the same decision number
    names a tile the human holds, that copied button is pressed: a private refusal, hand 2 unchanged."""
    bot, fd, table, (alice,), users = await _open(tmp_path, "laosanfan", 5, ["alice"], 3)
    try:
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            a = timeout_policy(table.hand, seat)
            if a.type == "discard":
                r = await fd.slash(alice, "discard", {"tile": kind_str(a.kind)})
            else:
                r = await press(fd, alice, a)
            assert r.response_type is not None
        copied = _copies_of_prompts(fd, alice)
        hand1 = table.hand_id
        msg, cid = table_button(fd, fd.channel_id, "next")
        await fd.click(alice, msg, cid)
        assert table.hand_id != hand1
        pressed = False
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            seq = table.decision(seat)  # the number its button carries (its decisions in this hand)
            held = {a.kind for a in table.hand.legal_actions(seat) if a.type == "discard" and a.kind is not None}
            old = [c for c in copied if c.startswith("mj:") and ":discard:" in c
                   and c.split(":")[-3] == f"d{seq}" and c.split(":")[-1] != "-"
                   and parse_kind(c.split(":")[-1]) in held]
            if old:
                before = (table.hand.seq, list(table.actions))
                planted = fd.plant_message([old[0]], user=alice)
                r = await fd.click(alice, planted, old[0], check=False)
                assert r.ephemeral and "earlier turn" in r.content, r.content
                assert (table.hand.seq, list(table.actions)) == before
                pressed = True
                break
            await press(fd, alice, timeout_policy(table.hand, seat))
        assert pressed, "no decision of hand 2 met a hand-1 button of the same decision number"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_first_prompt_of_a_new_hand_is_sent(tmp_path):
    """two_player, one human against one AI seat, table seed 31: hand 1 played with the DM
    buttons; after Next hand the human gets a DM with their hand and the buttons of their first
    decision of hand 2 (the bookkeeping of who was prompted belongs to one hand)."""
    bot, fd, table, (alice,), users = await _open(tmp_path, "two_player", 31, ["alice"], 1)
    try:
        await play_humans(fd, bot, fd.channel_id, users)
        msg, cid = table_button(fd, fd.channel_id, "next")
        n_before = len(fd.dms_to(alice))
        await fd.click(alice, msg, cid)
        assert not table.hand.is_over()
        seat = table.seat_of(alice.id)
        assert seat in table.hand.pending_seats()
        new = fd.dms_to(alice)[n_before:]
        assert new, "no DM for the first decision of hand 2"
        prompt = new[-1]
        legal = table.hand.legal_actions(seat)
        a = timeout_policy(table.hand, seat)
        assert a in legal
        r = await press(fd, alice, a)
        assert r.message is not None and r.message.id in {m.id for m in new}
        assert not r.ephemeral or "earlier" not in (r.content or "")
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_command_in_a_dm_goes_to_the_table_where_the_player_may_act(tmp_path):
    """alice sits at table A (laosanfan with bob and two AI seats) and table B (laosanfan with
    three AI seats).  While bob is to act at A, alice's /discard typed in a DM acts at B; when
    she may act at both, the bot asks which table."""
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 5
        alice, bob = fd.user(401, "alice"), fd.user(402, "bob")
        ch_a, ch_b = fd.channel_id, fd.add_channel("second")
        await fd.slash(alice, "mj table create", {"variant": "laosanfan"}, channel_id=ch_a)
        await fd.slash(bob, "mj table join", channel_id=ch_a)
        for _ in range(2):
            await fd.slash(alice, "mj table add-ai", {"level": "normal"}, channel_id=ch_a)
        await fd.slash(alice, "mj table start", channel_id=ch_a)
        await fd.slash(alice, "mj table create", {"variant": "laosanfan"}, channel_id=ch_b)
        for _ in range(3):
            await fd.slash(alice, "mj table add-ai", {"level": "normal"}, channel_id=ch_b)
        await fd.slash(alice, "mj table start", channel_id=ch_b)
        ta, tb = bot.service.table_in(ch_a), bot.service.table_in(ch_b)
        users_a = {ta.seat_of(alice.id): alice, ta.seat_of(bob.id): bob}
        sa, sb = ta.seat_of(alice.id), tb.seat_of(alice.id)
        # both may act: the bot asks which table
        await play_humans(fd, bot, ch_a, users_a, until=lambda t: sa in t.hand.pending_seats())
        assert sa in ta.hand.pending_seats() and sb in tb.hand.pending_seats()
        before = (ta.hand.seq, tb.hand.seq)
        tile = kind_str(next(a.kind for a in tb.hand.legal_actions(sb) + ta.hand.legal_actions(sa)
                             if a.kind is not None) if any(a.kind is not None for a in
                                                           tb.hand.legal_actions(sb) + ta.hand.legal_actions(sa))
                        else 0)
        r = await fd.slash(alice, "discard", {"tile": tile}, in_dm=True, check=False)
        assert r.ephemeral and f"<#{ch_a}>" in r.content and f"<#{ch_b}>" in r.content, r.content
        assert (ta.hand.seq, tb.hand.seq) == before
        # alice acts at A until someone else is to act there: her command in a DM goes to B
        await play_humans(fd, bot, ch_a, users_a, until=lambda t: sa not in t.hand.pending_seats())
        assert not ta.hand.is_over() and sa not in ta.hand.pending_seats()
        assert sb in tb.hand.pending_seats()
        a = timeout_policy(tb.hand, sb)
        seq_a, seq_b = ta.hand.seq, tb.hand.seq
        if a.type == "discard":
            r = await fd.slash(alice, "discard", {"tile": kind_str(a.kind)}, in_dm=True, check=False)
        else:
            assert a.type in ("pass", "hu"), a
            r = await fd.slash(alice, a.type, in_dm=True, check=False)
        assert not r.errors and ta.hand.seq == seq_a and tb.hand.seq > seq_b, r.content
    finally:
        await fd.close()


# ------------------------------------------------------------------ 3. auto-play can be left
async def _time_out_three_times(bot, fd, table, users: dict, seat: int) -> None:
    """Let ``seat`` time out three times in a row (other humans play by the timeout rule)."""
    clock = bot.service.clock
    n = 0
    while n < 3 and not table.hand.is_over():
        pending = table.hand.pending_seats()
        if seat in pending:
            clock.advance(100)
            await bot.service.tick()
            await fd.settle()
            n += 1
            continue
        other = pending[0]
        await press(fd, users[other], timeout_policy(table.hand, other))
    assert table.seats[seat].auto


def _takeover_button(fd, user):
    for m in private_messages(fd, user):
        for c in m.custom_ids:
            if c.startswith("mjt:") and ":takeover" in c:
                return m, c
    return None


@pytest.mark.asyncio
async def test_auto_play_shows_and_can_be_taken_over(tmp_path):
    """laosanfan, alice and bob with two AI seats, table seed 5: alice times out three times and
    is on auto-play (托管).  She is told so by DM with a take-over button, and the table shows
    it; pressing the button gives her the next decision as a prompt again."""
    bot, fd, table, (alice, bob), users = await _open(tmp_path, "laosanfan", 5, ["alice", "bob"], 2)
    try:
        sa = table.seat_of(alice.id)
        await _time_out_three_times(bot, fd, table, users, sa)
        found = _takeover_button(fd, alice)
        assert found is not None, "no take-over button was sent to the player on auto-play"
        assert "托管" in found[0].content or "auto" in found[0].content.lower()
        embed = table_message(fd, fd.channel_id).embeds[0]
        assert "托管" in (embed.get("description") or "") or "auto" in (embed.get("description") or "").lower()
        r = await fd.click(alice, found[0], found[1])
        assert not table.seats[sa].auto and r.response_type is not None
        while not table.hand.is_over() and sa not in table.hand.pending_seats():
            other = table.hand.pending_seats()[0]
            await press(fd, users[other], timeout_policy(table.hand, other))
        if not table.hand.is_over():
            prompt = latest_prompt(fd, alice)
            assert prompt is not None
            seq = table.hand.seq
            r = await press(fd, alice, timeout_policy(table.hand, sa))
            assert table.hand is None or table.hand.seq > seq or table.hand.is_over()
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_player_who_left_comes_back_with_join(tmp_path):
    """A player who leaves during a hand is on auto-play; /table join gives the seat back and
    their next decision is prompted again."""
    bot, fd, table, (alice, bob), users = await _open(tmp_path, "laosanfan", 5, ["alice", "bob"], 2)
    try:
        sa = table.seat_of(alice.id)
        r = await fd.slash(alice, "mj table leave")
        assert table.seats[sa].auto
        r = await fd.slash(alice, "mj table join", check=False)
        assert not r.errors and r.ephemeral and not table.seats[sa].auto, r.content
        while not table.hand.is_over() and sa not in table.hand.pending_seats():
            other = table.hand.pending_seats()[0]
            await press(fd, users[other], timeout_policy(table.hand, other))
        if not table.hand.is_over():
            seq = table.hand.seq
            await press(fd, alice, timeout_policy(table.hand, sa))
            assert table.hand.seq > seq
    finally:
        await fd.close()


def _seed_with_two_claimants(limit: int = 400) -> int:
    """A laosanfan table seed whose first hand, every seat playing the timeout rule, soon
    has a claim window open for two seats at once."""
    from engine.match import Match
    from engine.variants import find_variant

    info = find_variant("laosanfan")
    for seed in range(1, limit):
        hand = Match(info, info.resolve_options({}), seed, 4).new_hand()
        for _ in range(60):
            if hand.is_over():
                break
            if len(hand.pending_seats()) >= 2:
                return seed
            s = hand.pending_seats()[0]
            hand.apply(hand.timeout_action(s))
    raise AssertionError("no seed")


@pytest.mark.asyncio
async def test_another_claimants_pass_leaves_my_buttons_working(tmp_path):
    """Two seats may claim one discard: when the first passes, the second's prompt keeps
    working (its buttons belong to its decision, not to the action counter) and it gets no
    second DM for the same decision."""
    seed = _seed_with_two_claimants()
    bot, fd, table, humans, users = await _open(tmp_path, "laosanfan", seed, ["ann", "ben", "cat", "dan"], 0)
    try:
        await play_humans(fd, bot, fd.channel_id, users, until=lambda t: len(t.hand.pending_seats()) >= 2)
        first, second = table.hand.pending_seats()[:2]
        prompt = latest_prompt(fd, users[second])
        n_dms = len(fd.dms_to(users[second]))
        r = await press(fd, users[first], Action(first, "pass"))
        assert not r.errors
        assert second in table.hand.pending_seats()
        assert len(fd.dms_to(users[second])) == n_dms, "a second DM for the same decision"
        cid = next(c for c in prompt.custom_ids if c.endswith(":pass:-"))
        seq = table.hand.seq
        r = await fd.click(users[second], prompt, cid)
        assert r.response_type == 7 and table.hand.seq > seq, r.content
    finally:
        await fd.close()
