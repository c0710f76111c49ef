"""A claim timeout that puts a seat on auto-play tells the table that the seat could claim.

``TableService.tick`` (``service/tables.py``) counts a claim-window timeout like any other and,
at the third, appends the public ``auto`` event right there, before the seat's own draw and
discard (``Table.public_event`` then ``Hands.run_automatic``).  The table log (``Table.recent``, shown in
the table message and fed to its image) then reads "bob is on auto-play" between alice's
discard and bob's — an order that only a hidden claim window produces.  When bob could not
claim, the same public events show "bob discards …" first and the auto-play line after.

Twin runs of one stacked ``two_player`` hand (as in ``tests/harness/privacy_twins.py``): they differ
only in two tiles of bob's concealed hand (7z7z, which may 碰 alice's 7z, or 9m9m).
"""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.tiles import parse_kind
from service.clock import ManualClock

try:
    from table_helpers import embed_text
    from discord_play import new_bot, press, table_message
    from fakediscord import FakeDiscord
    from privacy_twins import _twin_extras
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import embed_text
    from tests.harness.discord_play import new_bot, press, table_message
    from tests.harness.fakediscord import FakeDiscord
    from tests.harness.privacy_twins import _twin_extras

HANDS = ["147m258m369m1234z7z", "123456789m12z7z7z"]  # seat 0 (alice, dealer), seat 1 (bob)
DRAWS = "5z6z5z6z1z"


def _public_events(hand) -> list[dict]:
    return [e.to_json() for e in hand.events if e.type not in ("pass", "timeout")]


async def _run(tmp_path, extra: dict, tag: str):
    """alice discards 3z, 6z, 7z by her buttons; bob never answers (each time the clock runs
    past the timeout and the timer ticks): his third timeout comes at alice's 7z.  Returns the
    table message text, the public events and the auto-play flags."""
    bot = new_bot(f"sqlite:///{tmp_path}/{tag}.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: 1
        dealt = []

        def stack(table):
            if dealt:
                return {}
            dealt.append(1)
            return dict(extra)

        bot.service.hands.deal_context = stack
        alice, bob = fd.user(900, "alice"), fd.user(901, "bob")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(bob, "mj table join")
        await fd.slash(alice, "mj table start")
        table = bot.service.table_in(fd.channel_id)
        assert table.seat_of(alice.id) == 0

        async def bob_times_out():
            assert table.hand.pending_seats() == [1]
            bot.service.clock.advance(100)
            await bot.service.tick()
            await fd.settle()

        for tile in ("3z", "6z", "7z"):
            await press(fd, alice, Action(0, "discard", parse_kind(tile)))
            await bob_times_out()
        assert table.seats[1].auto and table.hand.pending_seats() == [0]
        return (embed_text(table_message(fd, fd.channel_id)), _public_events(table.hand),
                [s.auto for s in table.seats])
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_going_on_auto_play_in_a_claim_window_looks_like_any_third_timeout(tmp_path):
    """Run A: bob holds 7z7z, a window opens for him at alice's 7z and times out (his third
    timeout); he passes, draws 1z and auto-play discards it.  Run B: bob holds 9m9m, draws 1z
    at once and his discard times out (his third timeout).  Both runs have the same public
    events and bob on auto-play at the end, so the table message should be the same; in A its
    log says "bob is on auto-play" before "bob discards 1z", in B after."""
    a, b = _twin_extras(HANDS, DRAWS, 1, "7z7z", "9m9m")
    text_a, events_a, auto_a = await _run(tmp_path, a, "a")
    text_b, events_b, auto_b = await _run(tmp_path, b, "b")
    assert events_a == events_b and auto_a == auto_b == [False, True]
    assert text_a == text_b, f"A:\n{text_a}\n\nB:\n{text_b}"
