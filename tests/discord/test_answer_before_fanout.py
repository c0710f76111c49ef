"""The answer to a click and the fan-out it causes race each other.

``cogs/common.py`` and ``cogs/fanout.py`` say a click is answered before the table message
and the other players' DMs go out.  But the service notifies the fan-out (``_notify``) before
``Play.on_action_button`` draws its answer, and drawing the answer awaits a worker thread
(``messages.hand_message`` → ``hand_image``): the table's fan-out task runs meanwhile, draws the next
player's prompt in another thread and sends it.  With every REST call taking the same time,
the next player's DM usually reaches Discord before the clicking player's own answer (and the
two drawings compete for the same threads and ``render.tiles.DRAW_LOCK``).
"""

from __future__ import annotations

import pytest

try:
    from table_helpers import open_table
    from discord_play import press, timeout_policy
except ImportError:  # pragma: no cover
    from tests.harness.table_helpers import open_table
    from tests.harness.discord_play import press, timeout_policy


@pytest.mark.slow  # real network delays
@pytest.mark.asyncio
async def test_each_click_is_answered_before_its_fan_out_goes_out(tmp_path):
    """laosanfan, four humans (table seed 5), every REST call 0.2 s.  Ten moves are pressed on
    the DM buttons (the rules' timeout choice).  For each, the click's answer (the interaction
    callback) should reach Discord before any DM or channel message the move causes; in most
    of them the next player's DM comes first."""
    bot, fd, table, users, by_seat = await open_table(tmp_path, "laosanfan", 5, ["a", "b", "c", "d"], latency=0.2)
    try:
        late = []
        for i in range(10):
            await fd.settle()
            seat = table.hand.pending_seats()[0]
            n = len(fd.calls)
            r = await press(fd, by_seat[seat], timeout_policy(table.hand, seat))
            calls = fd.calls[n:]
            answer = next(k for k, c in enumerate(calls) if c.interaction_id == r.id)
            fan_out = [k for k, c in enumerate(calls) if c.interaction_id is None
                       and c.route.startswith("/channels/") and c.method in ("POST", "PATCH")]
            if fan_out and fan_out[0] < answer:
                late.append((i, calls[fan_out[0]].key))
        assert late == [], late
    finally:
        await fd.close()
