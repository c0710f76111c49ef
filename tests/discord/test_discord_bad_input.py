"""Bad input through Discord: each gets a clear private message in the user's language and
leaves the game as it was."""

from __future__ import annotations

from panel_checks import shows_hand

import pytest
import pytest_asyncio

from engine import ai
from engine.tiles import kind_str

try:
    from discord_play import new_bot, press_for, prompt_with
    from fakediscord import FakeDiscord, as_shown
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press_for, prompt_with
    from tests.harness.fakediscord import FakeDiscord, as_shown

from service.clock import ManualClock

EPHEMERAL = 64


@pytest_asyncio.fixture
async def game(tmp_path):
    clock = ManualClock()
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", clock)
    bot.service.lobby.seed_source = lambda: 4242
    fd = FakeDiscord(bot)
    await fd.start()
    fd.clock = clock
    yield fd, bot
    await fd.close()


async def _start_two(fd, bot, *, bob_dms=True):
    alice = fd.user(101, "alice")
    bob = fd.user(102, "bob", locale="zh-CN", dms_open=bob_dms)
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.slash(bob, "mj table join")
    await fd.slash(alice, "mj table start")
    table = bot.service.table_in(fd.channel_id)
    return alice, bob, table


def _snapshot(table):
    return table.hand.seq, [table.hand.view(s) for s in range(2)], list(table.actions)


@pytest.mark.asyncio
async def test_lobby_errors(game):
    fd, bot = game
    alice, bob, carol = fd.user(101, "alice"), fd.user(102, "bob", locale="zh-CN"), fd.user(103, "carol")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    r = await fd.slash(alice, "mj table start")
    assert r.ephemeral and "At least 2 players" in r.text
    r = await fd.slash(bob, "mj table create", {"variant": "two_player"})
    assert r.ephemeral and r.text == "本频道已有牌桌。用 /mj table join 加入，或用 /mj table end 结束。"
    await fd.slash(bob, "mj table join")
    r = await fd.slash(carol, "mj table join")
    assert r.ephemeral and "full (2 players)" in r.text
    r = await fd.slash(alice, "mj table join")
    assert "already seated" in r.text
    r = await fd.slash(alice, "mj table create", {"variant": "two_player", "options": "min_fan=abc"})
    assert r.ephemeral  # the channel already has a table: refused before options are read
    r = await fd.slash(carol, "mj table end")
    assert r.ephemeral and "creator or a server admin" in r.text
    assert bot.service.table_in(fd.channel_id).status == "lobby"


@pytest.mark.asyncio
async def test_bad_options_are_refused(game):
    fd, bot = game
    alice = fd.user(101, "alice")
    r = await fd.slash(alice, "mj table create", {"variant": "two_player", "options": "min_fan=0"})
    assert r.ephemeral and "min_fan" in as_shown(r.text)
    r = await fd.slash(alice, "mj table create", {"variant": "two_player", "options": "colour=blue"})
    assert r.ephemeral and "Unknown option colour" in r.text
    r = await fd.slash(alice, "mj table create", {"variant": "two_player", "options": "base_points=3"})
    assert bot.service.table_in(fd.channel_id).options["base_points"] == 3


@pytest.mark.asyncio
async def test_in_game_errors_leave_the_state_unchanged(game):
    fd, bot = game
    alice, bob, table = await _start_two(fd, bot)
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    turn = table.hand.pending_seats()[0]
    player, other = users[turn], users[1 - turn]
    hand_kinds = {kind_str(k) for k in table.hand.concealed_kinds(turn)}
    missing = next(k for k in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1z", "2z")
                   if k not in hand_kinds)
    snap = _snapshot(table)

    r = await fd.slash(player, "discard", {"tile": missing})
    assert r.ephemeral and "don't hold" in r.text and missing in r.text
    r = await fd.slash(player, "discard", {"tile": "banana"})
    assert r.ephemeral and "Unknown tile: banana" in r.text
    r = await fd.slash(other, "discard", {"tile": "1m"})
    assert r.ephemeral and (r.text in ("It is not your turn.", "还没轮到你。"))
    r = await fd.slash(player, "pung")
    assert r.ephemeral and "cannot" in r.text
    stranger = fd.user(999, "stranger")
    r = await fd.slash(stranger, "discard", {"tile": "1m"})
    assert r.ephemeral and "not seated" in r.text
    public = fd.messages_in(fd.channel_id)[0]
    hand_button = next(c for c in public.custom_ids if c.endswith(":hand"))
    r = await fd.click(stranger, public, hand_button)
    assert r.ephemeral and "not seated" in r.text
    assert _snapshot(table) == snap

    # a forged button id only ever acts for the presser: the waiting player is refused
    seq = table.hand.seq
    forged = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decision(turn)}:discard:" \
             f"{kind_str(table.hand.concealed_kinds(turn)[0])}"
    prompt = prompt_with(fd, player, forged)
    assert prompt is not None
    assert _snapshot(table) == snap

    # a stale button: /mj hand gives a second copy of the prompt; play from the DM, then press
    # the same button on the /mj hand copy
    r = await fd.slash(player, "mj hand")
    copy = r.message
    assert copy.ephemeral and forged in copy.custom_ids
    dm = next(m for m in reversed(fd.dms_to(player)) if forged in m.custom_ids)
    await fd.click(player, dm, forged)
    assert table.hand.seq > seq
    snap2 = _snapshot(table)
    r = await fd.click(player, copy, forged)
    assert r.ephemeral and "earlier turn" in r.text
    assert _snapshot(table) == snap2


@pytest.mark.asyncio
async def test_closed_dms_fall_back_to_the_my_hand_button(game):
    fd, bot = game
    alice, bob, table = await _start_two(fd, bot, bob_dms=False)
    users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    bob_seat = table.seat_of(bob.id)
    # play until alice's move makes it bob's turn (a claim window of his is nobody's business:
    # no mention then; after his own claim his answer shows his turn)
    last = None
    for _ in range(40):
        if table.hand.is_over() or (bob_seat in table.hand.pending_seats() and table.hand.timer_kind() == "discard"
                                    and last != bob_seat):
            break
        seat = last = table.hand.pending_seats()[0]
        if seat == bob_seat:  # bob may claim: he looks at his hand through the table message
            public = fd.messages_in(fd.channel_id)[0]
            await fd.click(bob, public, next(c for c in public.custom_ids if c.endswith(":hand")))
        await press_for(fd, bot, users[seat], fd.channel_id, ai.choose_action(table.hand, seat))
    assert bob_seat in table.hand.pending_seats()
    assert not fd.dms_to(bob)
    mentions = [m for m in fd.messages_in(fd.channel_id) if f"<@{bob.id}>" in (m.text or "")]
    assert mentions and "我的手牌" in mentions[-1].text  # in bob's language (zh-CN)
    public = fd.messages_in(fd.channel_id)[0]
    hand_button = next(c for c in public.custom_ids if c.endswith(":hand"))
    r = await fd.click(bob, public, hand_button)
    assert r.ephemeral and shows_hand(r.message)
    action = ai.choose_action(table.hand, bob_seat)
    seq = table.hand.seq
    r2 = await press_for(fd, bot, bob, fd.channel_id, action)
    assert r2.response_type == 7 and table.hand.seq > seq


@pytest.mark.asyncio
async def test_third_timeout_puts_the_seat_on_auto_play(game):
    fd, bot = game
    alice = fd.user(101, "alice")
    await fd.slash(alice, "mj table create", {"variant": "two_player"})
    await fd.slash(alice, "mj table add-ai", {"level": "normal"})
    await fd.slash(alice, "mj table start")
    table = bot.service.table_in(fd.channel_id)
    seat = table.seat_of(alice.id)
    timeouts = 0
    while not table.hand.is_over() and not table.seats[seat].auto:
        assert table.hand.pending_seats() == [seat]
        fd.clock.advance(16)
        timeouts += await bot.service.tick()
        await fd.settle()
    if not table.seats[seat].auto:
        pytest.fail("the hand ended before three timeouts")
    assert timeouts == 3
    # on auto-play the hand runs to its end without alice
    assert table.hand.is_over()
