"""The 听 menu of the panel (``cogs/messages.py``) offers every declaration the rules allow and
marks with ✗ (a grey button) each one none of whose waits can win; its text says why."""

from __future__ import annotations

import asyncio

from cogs import messages
from engine.tiles import parse_kinds

try:
    from service_tables import CHANNEL, human_table, new_service
except ImportError:  # pragma: no cover
    from tests.harness.service_tables import CHANNEL, human_table, new_service


def test_declarations_that_cannot_win_are_marked_in_the_ting_menu():
    """二人麻将 (72 tiles: 万 and honours; the 宝牌 fixed at 8m).  The dealer (seat 0, table
    seed 1) discards 5z, which seat 1 lets go; seat 1, dealt 123m 234m 567m 1z1z 9m9m, draws 2z: discarding 2z leaves
    a ready hand waiting on 1z or 9m (a pung of either) — a plain hand of a few fan, far below
    the 15-fan minimum (no 天听: not the dealer's first discard) — so its 听 button carries ✗
    and the menu says why."""
    stacked = {"hands": [parse_kinds("5z5z5z5z6z6z6z6z7z7z7z7z8m8m"), parse_kinds("123m234m567m1z1z9m9m")],
               "draws": parse_kinds("2z4z4z4z")}

    async def run():
        svc = await new_service(seed=1)
        svc.hands.deal_context = lambda t: {"stacked": stacked, "treasure": parse_kinds("8m")[0]}
        users = await human_table(svc, "two_player", 2)
        table = svc.table_in(CHANNEL)
        assert table.hand.pending_seats() == [0]
        await svc.act(CHANNEL, users[0], "discard", parse_kinds("5z")[0])
        await svc.act(CHANNEL, users[1], "pass", None)  # seat 1 may declare 听 on it: it does not
        assert table.hand.pending_seats() == [1] and table.hand.phase == "discard"
        snap = svc.snapshot(CHANNEL)
        seat = 1
        panel = messages.panel_of(snap, seat, ting_menu=True, lang="en")
        await svc.store.close()
        return snap.parts[seat], panel

    part, panel = asyncio.run(run())
    hint = {h["discard"]: h["waits"] for h in part.view["me"]["hint"]}
    assert sorted(hint) == ["2z"] and sorted(w["tile"] for w in hint["2z"]) == ["1z", "9m"], hint
    assert all(w["ok"] is False and w["why"] == "fan_below_minimum" for w in hint["2z"]), hint
    marked = [(c.item.label, c.item.style.name, c.item.disabled) for row in panel.rows for c in row
              if "✗" in (c.item.label or "")]
    # the hand's 2z button, pressed to declare with that discard, is grey and marked ✗
    assert len(marked) == 1 and marked[0][0].endswith("✗") and marked[0][1:] == ("secondary", False), marked
    assert panel.content.count("✗ ") == 1 and "cannot win: below the 15-fan minimum" in panel.content
