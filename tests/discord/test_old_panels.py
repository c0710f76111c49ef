"""Panels drawn before the panel became one Components V2 container (text, an image and
buttons) are replaced, not broken: Discord keeps a message's format for life, so an old panel
cannot be edited into a container.  A restarted bot whose memory points at an old-format
panel sends a new panel and deletes the old one; a click on an old panel's button still makes
its move (nothing is lost), its message says it was replaced, and the new panel follows."""

from __future__ import annotations

import json

import pytest

from discord_play import timeout_policy
from engine.tiles import kind_str
from panel_checks import V2, panels_of, restarted_bot, seated_table


def _old_panel(fd, user, custom_id: str):
    """An old-format panel in ``user``'s DMs: content and one classic row with ``custom_id``."""
    return fd._create_message(user.dm_channel_id, {
        "content": "**Two-player mahjong** · hand 1\nYour turn: discard a tile.",
        "components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "old", "custom_id": custom_id}]}]},
        [])


async def _first_mover(tmp_path):
    """A two-player table (seed 4) and the seat to move with its player."""
    bot, fd, table, users = await seated_table(tmp_path, "two_player", 4)
    seat = table.hand.pending_seats()[0]
    return bot, fd, table, seat, users[seat]


@pytest.mark.asyncio
async def test_a_restart_replaces_an_old_format_panel_with_a_container(tmp_path):
    bot, fd, table, seat, user = await _first_mover(tmp_path)
    try:
        (new,) = panels_of(fd, user)
        old = _old_panel(fd, user, f"mj:{fd.channel_id}:{table.hand_id}:d1:discard:1m")
        # the memory of an earlier version: the seat's panel is the old message, format 1
        memory = await bot.service.front_memory(table.id, len(table.seats))
        panel = memory["seats"][str(seat)]["panel"]
        assert panel["layout"] == 2
        panel.update(message_id=old.id, layout=1)
        await bot.service.set_front_memory(table.id, json.loads(json.dumps(memory)))
        fd.messages[new.id].deleted = True  # as if this version had never sent one
        await fd.restart(restarted_bot(bot))
        await fd.settle()
        assert fd.messages[old.id].deleted  # the old panel went …
        (current,) = panels_of(fd, user)  # … and a container took its place
        assert current.id not in (old.id, new.id) and current.flags & V2
        assert any(":discard:" in c for c in current.custom_ids)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_click_on_an_old_format_panel_makes_its_move_and_says_it_was_replaced(tmp_path):
    bot, fd, table, seat, user = await _first_mover(tmp_path)
    try:
        action = timeout_policy(table.hand, seat)
        assert action.type == "discard"
        cid = f"mj:{fd.channel_id}:{table.hand_id}:d{table.decision(seat)}:discard:{kind_str(action.kind)}"
        old = _old_panel(fd, user, cid)
        before = len(table.actions)
        (panel,) = panels_of(fd, user)
        r = await fd.click(user, old, cid)
        await fd.settle()
        assert table.actions[before:before + 1] == [f"{seat} discard {kind_str(action.kind)}"]  # the move counts
        said = fd.messages[old.id]
        assert "replaced" in said.content and said.components == [] and not said.flags & V2
        assert r.errors == []
        (current,) = panels_of(fd, user)  # the container shows the move
        assert current.id == panel.id and current.edits >= 1
    finally:
        await fd.close()
