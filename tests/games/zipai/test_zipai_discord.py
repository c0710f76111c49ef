"""A full three-player 字牌 hand through Discord (docs/rules/zipai.md): two players press the buttons
the bot sends them (chosen with the hand's own AI), the third seat is an AI; the hand is played
to settlement, the settlement is stored and /score shows it."""

from __future__ import annotations

from service import publish

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


def _seed_with_a_win(n: int = 3) -> int:
    """The first table seed whose first hand, AI everywhere, ends with a win after a 吃 or 碰."""
    info = find_variant("zipai")
    options = info.resolve_options({})
    for seed in range(1, 300):
        hand = Match(info, options, seed, n).new_hand()
        claims = 0
        while not hand.is_over():
            s = hand.pending_seats()[0]
            a = hand.ai_action(s)
            claims += a.type == "peng" or a.type.startswith("chi_")
            hand.apply(a)
        if hand.result["winner"] is not None and claims:
            return seed
    raise AssertionError("no seed found")


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path}/bot.db"


@pytest.mark.asyncio
async def test_three_player_zipai_hand_to_settlement(db_url):
    seed = _seed_with_a_win()
    bot = new_bot(db_url, ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        alice = fd.user(201, "alice")
        bob = fd.user(202, "bob", locale="zh-CN")
        await fd.slash(alice, "mj table create", {"variant": "zipai"})
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        assert table.variant.id == "zipai" and table.n_players == 3
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        assert fd.dms_to(alice) and fd.dms_to(bob)
        pressed = set()
        while not table.hand.is_over():
            seat = next(s for s in table.hand.pending_seats() if s in users)
            action = table.hand.ai_action(seat)
            r = await press_for(fd, bot, users[seat], ch, action)
            assert r.response_type == 7, r.text
            pressed.add(action.type.split("_")[0])
        # 飘 was asked, cards discarded, a win declared or made by an AI seat
        assert {"piao", "discard"} <= pressed
        result = table.last_result
        assert result["winner"] is not None and sum(result["points"]) == 0
        for seat, user in users.items():
            line = await bot.store.score(fd.guild_id, user.id)
            assert (line.points, line.hands) == (result["points"][seat], 1)
            r = await fd.slash(user, "mj score")
            assert f"{result['points'][seat]:+d}" in r.text
        # the public table message is one image message edited in place
        assert len([m for m in fd.messages_in(ch) if m.attachments]) == 1
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_several_ways_to_chi_are_offered_in_a_select_menu(tmp_path):
    """When a card can be taken in several sentences (吃 with 比牌), the prompt carries one
    select menu listing each way, not a row of look-alike buttons."""
    from cogs.components import ActionSelect
    from cogs.emojis import TileEmojis
    from cogs.panel_layout import panel_rows
    from engine.tiles import kind_str
    from service.tables import Seat, Table

    info = find_variant("zipai")
    options = info.resolve_options({})
    for seed in range(1, 400):
        hand = Match(info, options, seed, 3).new_hand()
        found = None
        while not hand.is_over() and found is None:
            for s in hand.pending_seats():
                chis = [a for a in hand.legal_actions(s) if a.type.startswith("chi_")]
                if len(chis) >= 2:
                    found = (s, chis)
                    break
            if found is None:
                hand.apply(hand.ai_action(hand.pending_seats()[0]))
        if found:
            break
    assert found, "no position with two ways to 吃 in 400 seeded hands"
    seat, chis = found
    table = Table(1, 1, 5, 1, info, options, seed, seats=[Seat(i, f"p{i}") for i in range(3)])
    table.hand = hand
    table.decisions.note(hand, None)  # the seats it waits for decide: their first decision here
    table.status, table.hand_id = "playing", 1
    snap = publish.build(table, 1, lambda user: None)
    rows = panel_rows(snap, snap.parts[seat], "en", TileEmojis(), used=3)
    selects = [c for row in rows for c in row if isinstance(c, ActionSelect)]
    assert len(selects) == 1
    values = sorted(o.value for o in selects[0].item.options)
    assert values == sorted(f"{a.type}:{'-' if a.kind is None else kind_str(a.kind)}" for a in chis)
