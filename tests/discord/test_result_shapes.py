"""The result of a hand as Discord shows it: a discard win and a self-drawn win of every game,
played by human seats pressing the buttons the bot sent them; the table message posted is the
one the snapshot makes (``cogs.messages.table_embed``: every result shape's words are checked at
the service, ``tests/service/test_result_shapes_told.py``), and ``/mj replay`` and ``/mj verify``
answer for the stored hand.
"""

from __future__ import annotations

import pytest

from engine.actions import Action
from service.clock import ManualClock
from engine.outcome import outcome
from cogs.messages import table_embed

try:
    from discord_play import new_bot, press
    from fakediscord import FakeDiscord, as_shown
    from result_scenarios import SCENARIOS, first_hand_wall
except ImportError:  # pragma: no cover
    from tests.harness.discord_play import new_bot, press
    from tests.harness.fakediscord import FakeDiscord, as_shown
    from tests.harness.result_scenarios import SCENARIOS, first_hand_wall

def _options(opts: dict) -> str | None:
    words = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in opts.items()]
    return " ".join(words) or None


def _params():
    """A discard win and a self-drawn win of each game (every other shape: at the service)."""
    return [pytest.param(k, id=f"{k[0]}-{k[1]}") for k in sorted(SCENARIOS) if k[1] in ("discard", "self_drawn")]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", _params())
async def test_a_result_is_announced_in_discord_and_can_be_replayed(tmp_path, key):
    sc = SCENARIOS[key]
    bot = new_bot(f"sqlite:///{tmp_path}/bot.db", ManualClock())
    fd = FakeDiscord(bot)
    await fd.start()
    try:
        bot.service.lobby.seed_source = lambda: sc.table_seed
        bot.service.hands.deal_context = first_hand_wall(sc)  # the scenario's wall, first hand only
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

        # the table message: the one the snapshot makes, every line of it
        msg = next(m for m in fd.messages_in(fd.channel_id) if m.embeds and "hand 1" in m.embeds[0].get("title", ""))
        assert msg.embeds[0]["description"] == table_embed(bot.service.snapshot(fd.channel_id)).description
        text = as_shown(msg.embeds[0]["description"])  # as the channel reads it: the names as typed
        for w in o["wins"]:
            assert f"**{names[w['seat']]}** wins" in text, text
        for i, p in enumerate(result["points"]):
            assert f"{names[i]}: {p:+d}" in text, (names[i], p, text)

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

    finally:
        await fd.close()
