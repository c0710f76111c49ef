"""Every result shape of every game, at the table service: what the table message says, its
replay and verification, and the local table's words.

Each scenario of ``tests/harness/result_scenarios.py`` (a fixed first hand per game and shape:
no discarder, several winners, draws, liability, 抢杠胡, a card turned up by another seat's draw
…) is played by human seats through the table service.  Then, from the snapshot the service
published (the table message is a function of its public part, ``cogs.messages.table_embed``):

* the table message names every winner, how they won (self-drawn, from whom, robbing whose
  kong, on whose turned-up card), the liable seat, and every seat's points, and carries the
  whole explanation of the result text (items, fans, formula, caps, liability, who paid whom);
* the stored hand replays to its last step and verifies (the verification rebuilds the result);
* the local table's settlement text says the same.

That Discord shows this very message, and answers ``/mj replay`` and ``/mj verify``, is
``tests/discord/test_result_shapes.py``'s.
"""

from __future__ import annotations

import pytest

from cogs.messages import table_embed
from engine.actions import Action
from engine.outcome import outcome
from local.table import settlement_text
from render.text.results import result_lines
from result_scenarios import SCENARIOS, first_hand_wall
from service.clock import ManualClock
from service.records import Records
from service.tables import TableService
from store import Store

GUILD, CHANNEL = 7, 70
HOW = {"self_drawn": "self-drawn", "discard": "from {name}", "rob_kong": "robbing {name}'s kong",
       "shown": "on the card {name} turned up"}


async def play_scenario(url: str, sc) -> tuple[TableService, object]:
    """The scenario's table at the service, its first hand played by its human seats (``p0``,
    ``p1`` …, user ids 800…) action by action; returns the service and the last change."""
    store = Store(url)
    await store.init()
    svc = TableService(store, ManualClock(), seed_source=lambda: sc.table_seed)
    svc.hands.deal_context = first_hand_wall(sc)  # the scenario's wall, first hand only
    seen: list = []

    async def listen(change) -> None:
        seen.append(change)

    svc.listeners.append(listen)
    users = [800 + i for i in range(sc.n_seats)]
    await svc.create_table(guild_id=GUILD, channel_id=CHANNEL, user_id=users[0], name="p0", variant=sc.game,
                           options=dict(sc.options), lang="en")
    for i, u in enumerate(users[1:], 1):
        await svc.join(CHANNEL, u, f"p{i}")
    await svc.start(CHANNEL, users[0])
    for line in sc.actions:
        a = Action.parse(line)
        snap = svc.snapshot(CHANNEL)
        part = snap.parts[a.seat]
        assert part is not None and part.decision is not None, (line, "not that seat's decision")
        await svc.act(CHANNEL, users[a.seat], a.type, a.kind, hand_id=snap.hand_id, seq=part.decision[1])
    return svc, seen[-1]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", sorted(SCENARIOS), ids=lambda k: f"{k[0]}-{k[1]}")
async def test_every_result_shape_is_told_replayed_and_verified(tmp_path, key):
    sc = SCENARIOS[key]
    svc, last = await play_scenario(f"sqlite:///{tmp_path}/shapes.db", sc)
    try:
        snap = last.snapshot
        assert snap is not None and snap.public.result is not None, "the scenario did not end the hand"
        result = dict(snap.public.result)
        o = outcome(result)
        assert [w["seat"] for w in o["wins"]] == list(sc.winners)
        names = [f"p{i}" for i in range(sc.n_seats)]

        # the table message, as the snapshot makes it
        embed = table_embed(snap)
        assert "hand 1" in embed.title
        text = embed.description
        if not sc.winners:
            assert "Exhaustive draw" in text
        for w in o["wins"]:
            assert f"**{names[w['seat']]}** wins" in text, text
            how = HOW[w["how"]].format(name=names[w["from"]] if w["from"] is not None else "")
            assert how in text, (how, text)
            if sc.discarder is not None and sc.shape != "self_drawn":
                assert w["from"] == sc.discarder
        if sc.liable is not None:
            assert o["liable"]["seat"] == sc.liable
            assert f"{names[sc.liable]} pays for everyone" in text, text
        for i, p in enumerate(result["points"]):
            assert f"{names[i]}: {p:+d}" in text, (names[i], p, text)
        assert sum(result["points"]) == 0
        # the whole explanation: the count's items, fans, formula, caps, liability, payments
        explained = result_lines(result, names, "en", sc.facts)
        for line in explained:
            assert line in text, (line, text)
        if sc.winners:
            assert any(line.startswith("Payments: ") for line in explained)
            for pay in o["payments"]:
                assert f"{names[pay['from']]} → {names[pay['to']]} {pay['points']}" in text, (pay, text)

        # the stored hand replays to its last step and verifies
        records = Records(svc.store)
        hid = snap.hand_id
        step = await records.replay(GUILD, hid, 10_000)
        assert step.step == step.total == len(sc.actions) and step.view["result"] is not None
        assert (await records.replay(GUILD, hid, 0)).step == 0
        v = await records.verify(GUILD, hid)
        assert v.same_result and v.actions == len(sc.actions)

        # the local table's words
        plain = settlement_text(result, names, "en", sc.facts)
        for w in o["wins"]:
            assert HOW[w["how"]].format(name=names[w["from"]] if w["from"] is not None else "") in plain
        if sc.liable is not None:
            assert f"{names[sc.liable]} pays for everyone" in plain
        for line in result_lines(result, names, "en", sc.facts, markdown=False):
            assert line in plain, (line, plain)
    finally:
        await svc.store.close()
