"""A whole 二人麻将 game through Discord: interaction payloads shaped like Discord's go
through discord.py's real command tree and views; only the HTTP layer is a recorder."""

from __future__ import annotations

from panel_checks import shows_hand

import pytest

from engine import ai
from engine.actions import CHOW, HU, KONG, PUNG

try:
    from discord_play import find_seed, new_bot, press_for, prompt_with
    from fakediscord import FakeDiscord, as_shown
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import find_seed, new_bot, press_for, prompt_with
    from tests.harness.fakediscord import FakeDiscord, as_shown

from service.clock import ManualClock

CLAIMS = (CHOW, PUNG, KONG)


def _claim_and_win(hand, log) -> bool:
    return hand.result["winner"] is not None and any(a.type in CLAIMS for a in log)


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path}/bot.db"


async def _seat_players(fd, bot, seed):
    bot.service.lobby.seed_source = lambda: seed
    alice = fd.user(101, "alice")
    bob = fd.user(102, "bob", locale="zh-CN")
    r = await fd.slash(alice, "mj table create", {"variant": "two_player"})
    assert r.ephemeral
    r = await fd.slash(bob, "mj table join")
    assert r.ephemeral
    r = await fd.slash(alice, "mj table start")
    assert r.ephemeral
    return alice, bob


@pytest.mark.asyncio
async def test_full_game_with_claim_win_settlement_and_score(db_url):
    seed = find_seed(_claim_and_win)
    clock = ManualClock()
    bot = new_bot(db_url, clock)
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        alice, bob = await _seat_players(fd, bot, seed)
        ch = fd.channel_id
        table = bot.service.table_in(ch)
        users = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
        # the public table message exists, shows an image, and is edited in place
        public = fd.messages_in(ch)
        assert len(public) == 1 and public[0].attachments[0].name == "table.png"
        # both players got their panel by DM at the start (the table from their seat, their hand face up)
        assert fd.dms_to(alice) and fd.dms_to(bob)
        assert shows_hand(fd.dms_to(alice)[0])
        claims = 0
        rest_per_turn = []
        while not table.hand.is_over():
            seat = table.hand.pending_seats()[0]
            action = ai.choose_action(table.hand, seat)
            before = len(fd.calls)
            r = await press_for(fd, bot, users[seat], ch, action)
            assert r.response_type == 7, r.text  # the prompt was updated in place
            claims += action.type in CLAIMS
            if action.type == "discard" and not table.hand.is_over() and table.hand.phase == "discard":
                rest_per_turn.append(len(fd.calls) - before)
        assert claims >= 1
        result = table.last_result
        assert result["winner"] is not None
        # settlement stored: the winner's points are the loser's loss
        winner_user = users[result["winner"]]
        loser_user = users[1 - result["winner"]]
        pts = result["points"][result["winner"]]
        assert pts > 0 and result["points"][1 - result["winner"]] == -pts
        line = await bot.store.score(fd.guild_id, winner_user.id)
        assert (line.points, line.hands, line.wins) == (pts, 1, 1)
        r = await fd.slash(winner_user, "mj score")
        assert f"{pts:+d}" in r.text
        r = await fd.slash(loser_user, "mj score")
        assert f"{-pts:+d}" in r.text
        r = await fd.slash(alice, "mj leaderboard")
        assert winner_user.name in as_shown(r.message.embeds[0]["description"])
        # the public message was edited in place: still one message in the channel
        assert len([m for m in fd.messages_in(ch) if m.attachments]) == 1
        # REST calls per ordinary turn: the press's answer, the table message, the other
        # player's panel and its notice, and the deletion of the presser's answered notice
        assert rest_per_turn and max(rest_per_turn) <= 5, rest_per_turn
        print(f"REST calls per ordinary turn: max {max(rest_per_turn)}, "
              f"mean {sum(rest_per_turn) / len(rest_per_turn):.2f} over {len(rest_per_turn)} turns")
    finally:
        await fd.close()
