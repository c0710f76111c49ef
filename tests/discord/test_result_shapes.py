"""Every result shape of every game, through the fake Discord and at the local table.

Each scenario of ``tests/harness/result_scenarios.py`` (a fixed first hand per game and shape: no
discarder, several winners, draws, liability, 抢杠胡, a card turned up by another seat's
draw …) is played by human seats pressing the buttons the bot sent them.  Then:

* the table message names every winner, how they won (self-drawn, from whom, robbing whose
  kong, on whose turned-up card), the liable seat, and every seat's points, and carries the
  whole explanation of the result text (items, fans, formula, caps, liability, who paid whom);
* ``/replay`` of the hand and ``/verify`` work on it (the verification rebuilds the result);
* the local table's settlement text says the same.
"""

from __future__ import annotations

import pytest

from engine.actions import Action
from service.clock import ManualClock
from engine.outcome import outcome

try:
    from discord_play import new_bot, press
    from fakediscord import FakeDiscord
    from result_scenarios import SCENARIOS
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press
    from tests.harness.fakediscord import FakeDiscord
    from tests.harness.result_scenarios import SCENARIOS

HOW = {"self_drawn": "self-drawn", "discard": "from {name}", "rob_kong": "robbing {name}'s kong",
       "shown": "on the card {name} turned up"}


def _options(opts: dict) -> str | None:
    words = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in opts.items()]
    return " ".join(words) or None


def _params():
    """Every scenario; in the quick lane a discard win and a self-drawn win of each game, the
    rest (exhaustive draws: up to ~90 moves through Discord; several winners, liability) in
    the slow lane."""
    quick = {"discard", "self_drawn"}  # the other shapes (several winners, liability …) in the slow lane too
    return [pytest.param(k, marks=[] if k[1] in quick else [pytest.mark.slow], id=f"{k[0]}-{k[1]}")
            for k in sorted(SCENARIOS)]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", _params())
async def test_every_result_shape_is_announced_and_can_be_replayed(tmp_path, key):
    sc = SCENARIOS[key]
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: sc.table_seed
        first = {"dealt": False}

        def stack(table):  # the scenario's wall for the first hand only
            if first["dealt"]:
                return {}
            first["dealt"] = True
            return dict(sc.extra or {})

        bot.service.hands.deal_context = stack
        users = [fd.user(800 + i, f"p{i}") for i in range(sc.n_seats)]
        opts = _options(sc.options)
        await fd.slash(users[0], "mj table create", {"variant": sc.game, **({"options": opts} if opts else {})})
        for u in users[1:]:
            await fd.slash(u, "mj table join")
        await fd.slash(users[0], "mj table start")
        table = bot.service.table_in(fd.channel_id)
        assert [table.seat_of(u.id) for u in users] == list(range(sc.n_seats))
        for line in sc.actions:
            a = Action.parse(line)
            assert a in table.hand.legal_actions(a.seat), (line, table.hand.seq)
            r = await press(fd, users[a.seat], a)
            assert r.response_type is not None and not r.errors, (line, r.content)
        assert table.hand.is_over(), "the scenario did not end the hand"
        result = table.last_result
        o = outcome(result)
        assert [w["seat"] for w in o["wins"]] == list(sc.winners)
        names = [u.name for u in users]

        # the table message
        msg = next(m for m in fd.messages_in(fd.channel_id) if m.embeds and "hand 1" in m.embeds[0].get("title", ""))
        text = msg.embeds[0]["description"]
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
        from render.text.results import result_lines

        explained = result_lines(result, names, "en", sc.facts)
        for line in explained:
            assert line in text, (line, text)
        if sc.winners:
            assert any(line.startswith("Payments: ") for line in explained)
            for pay in o["payments"]:
                assert f"{names[pay['from']]} → {names[pay['to']]} {pay['points']}" in text, (pay, text)

        # /replay and /verify of the stored hand
        hid = table.hand_id
        r = await fd.slash(users[0], "mj replay", {"hand": hid})
        assert not r.errors and r.message is not None and r.message.attachments, r.content
        assert f"#{hid}" in r.content
        last = r.message.custom_ids[-1]
        r2 = await fd.click(users[0], r.message, last)
        assert r2.response_type == 7 and not r2.errors
        r = await fd.slash(users[0], "mj verify", {"hand": hid})
        assert "✓" in r.content, r.content

        # the local table's words
        from local.table import settlement_text

        plain = settlement_text(result, names, "en", sc.facts)
        for w in o["wins"]:
            assert HOW[w["how"]].format(name=names[w["from"]] if w["from"] is not None else "") in plain
        if sc.liable is not None:
            assert f"{names[sc.liable]} pays for everyone" in plain
        for line in result_lines(result, names, "en", sc.facts, markdown=False):
            assert line in plain, (line, plain)
    finally:
        await fd.close()
