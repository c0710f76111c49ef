"""Simultaneous input: clicks at the same instant, the same button twice, a discard racing a
timeout — applied one at a time under the table's lock, each at most once, and the result does
not depend on the interleaving."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from engine.actions import Action
from engine.errors import IllegalAction
from service.clock import ManualClock
from store import Store
from service.tables import ServiceError, TableService


async def _table(tmp_path, seed=99):
    store = Store(f"sqlite:///{tmp_path}/c.db")
    await store.init()
    clock = ManualClock()
    svc = TableService(store, clock, seed_source=lambda: seed)
    await svc.create_table(guild_id=1, channel_id=5, user_id=1, name="a", variant="two_player")
    await svc.join(5, 2, "b")
    await svc.start(5, 1)
    return store, svc, clock


@pytest.mark.asyncio
async def test_the_same_button_pressed_twice_at_once_applies_once(tmp_path):
    store, svc, _ = await _table(tmp_path)
    t = svc.table_in(5)
    seat = t.hand.pending_seats()[0]
    user = t.seats[seat].user_id
    seq = t.decisions[seat]  # the decision its button was drawn for
    a = t.hand.timeout_action(seat)
    results = await asyncio.gather(*(svc.act(5, user, a.type, a.kind, seq=seq) for _ in range(5)),
                                   return_exceptions=True)
    ok = [r for r in results if not isinstance(r, Exception)]
    stale = [r for r in results if isinstance(r, ServiceError) and r.code == "stale"]
    assert len(ok) == 1 and len(stale) == 4
    rec = await store.get_hand(t.hand_id)
    assert list(rec.actions) == t.actions and rec.actions[0] == str(Action(seat, a.type, a.kind))
    await store.close()


@pytest.mark.asyncio
async def test_a_discard_racing_its_timeout_is_applied_once(tmp_path):
    store, svc, clock = await _table(tmp_path)
    t = svc.table_in(5)
    seat = t.hand.pending_seats()[0]
    user = t.seats[seat].user_id
    seq = t.decisions[seat]  # the decision its button was drawn for
    a = t.hand.legal_actions(seat)[0]
    clock.advance(100)  # the timer is overdue: tick and the click race
    res = await asyncio.gather(svc.tick(), svc.act(5, user, a.type, a.kind, seq=seq), return_exceptions=True)
    # exactly one of them acted for the seat at that seq
    acted_by_timer = res[0] == 1
    acted_by_click = not isinstance(res[1], Exception)
    assert acted_by_timer != acted_by_click
    rec = await store.get_hand(t.hand_id)
    assert list(rec.actions) == t.actions
    assert sum(1 for line in rec.actions if line.startswith(f"{seat} ")) >= 1
    await store.close()


@pytest.mark.asyncio
async def test_every_interleaving_of_two_players_gives_the_same_state(tmp_path):
    """Both players press something at the same moment (one legal, one out of turn), in every
    order: the same single action is applied and the out-of-turn one is refused."""
    outcomes = set()
    for i, order in enumerate(itertools.permutations(range(2))):
        store, svc, _ = await _table(tmp_path / str(i), seed=4321)
        t = svc.table_in(5)
        seat = t.hand.pending_seats()[0]
        other = 1 - seat
        good = t.hand.timeout_action(seat)
        # both pressed a button they were shown: the one on turn its decision's, the other one
        # from before its first decision (number 0)
        calls = [svc.act(5, t.seats[seat].user_id, good.type, good.kind, seq=t.decisions[seat]),
                 svc.act(5, t.seats[other].user_id, "discard", 0, seq=0)]
        res = await asyncio.gather(*(calls[j] for j in order), return_exceptions=True)
        errors = [r for r in res if isinstance(r, (IllegalAction, ServiceError))]
        assert len(errors) == 1 and errors[0].code in ("not_your_turn", "tile_not_in_hand", "stale")
        outcomes.add((tuple(t.actions), t.hand.seq))
        await store.close()
    assert len(outcomes) == 1
