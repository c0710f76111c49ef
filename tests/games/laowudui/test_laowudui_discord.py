"""A whole three-player 老五对 hand through Discord (``docs/rules/laowudui.md``): two players
press the buttons the bot sends them (chosen with the hand's own AI), the third seat is
an AI; the settlement lands in the database and /score shows it."""

from __future__ import annotations

from panel_checks import shows_hand

import pytest

try:
    from discord_play import new_bot, press_for
    from fakediscord import FakeDiscord
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press_for
    from tests.harness.fakediscord import FakeDiscord

from engine.match import Match
from engine.variants import find_variant
from service.clock import ManualClock

CLAIMS = ("chi", "dui", "kong")


def _seed_with_claim_and_win(limit: int = 400) -> int:
    """A table seed whose first hand, played by the AI, has a claim and a win."""
    options = find_variant("laowudui").resolve_options({})
    for seed in range(1, limit):
        m = Match("laowudui", options, seed, 3)
        hand = m.new_hand()
        types = []
        while not hand.is_over():
            a = hand.ai_action(hand.pending_seats()[0])
            types.append(a.type)
            hand.apply(a)
        if hand.result["winner"] is not None and any(t in CLAIMS for t in types):
            return seed
    raise AssertionError("no seed found")


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path}/bot.db"


@pytest.mark.asyncio
async def test_three_player_hand_to_settlement(db_url):
    seed = _seed_with_claim_and_win()
    bot = new_bot(db_url, ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: seed
        alice = fd.user(201, "alice")
        bob = fd.user(202, "bob", locale="zh-CN")
        r = await fd.slash(alice, "mj table create", {"variant": "laowudui"})
        assert r.ephemeral
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table add-ai", {"level": "normal"})
        await fd.slash(alice, "mj table start")
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        hand = table.hand
        assert table.n_players == 3 and hand.dealer == 0  # the creator deals the first hand
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        assert set(users) == {0, 1} and table.seats[2].is_ai
        assert shows_hand(fd.dms_to(alice)[0])
        pressed: list[str] = []
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            action = table.hand.ai_action(seat)
            r = await press_for(fd, bot, users[seat], ch, action)
            assert r.response_type == 7, r.text
            pressed.append(action.type)
        assert "no_buy" in pressed  # the 买庄 buttons of the opening phase were pressed
        result = table.last_result
        assert result["winner"] is not None and sum(result["points"]) == 0
        assert result["next_dealer"] == 1
        assert any(e.get("type") in CLAIMS for e in [e.to_json() for e in table.hand.events])
        for seat, user in users.items():
            line = await bot.store.score(fd.guild_id, user.id)
            assert (line.points, line.hands) == (result["points"][seat], 1)
            assert line.wins == (1 if seat in result["winners"] else 0)
            r = await fd.slash(user, "mj score")
            assert f"{result['points'][seat]:+d}" in r.text
        # the match moved on: the next hand is dealt by seat 1
        assert table.match.state["dealer"] == 1
    finally:
        await fd.close()
