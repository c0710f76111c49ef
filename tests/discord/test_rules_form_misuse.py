"""The rules forms and the lobby's menus against misuse, through the fake Discord: a form left
open is only ever applied to what it was opened for (its table, its command), what was typed
into a refused form comes back only in that same form, a form is checked again when it is sent
(the channel, the host), the pace menu sets what it names, and tampered ids are refused
quietly."""

from __future__ import annotations

import pytest
from discord_play import table_button, table_message
from form_checks import forged, form_bot, inputs, shown


@pytest.mark.asyncio
async def test_a_lobby_form_of_an_ended_table_does_not_touch_the_next_one(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        await fd.slash(alice, "mj table create", {"variant": "laosanfan"})
        old = await fd.click(alice, *table_button(fd, fd.channel_id, "rules"))
        await fd.slash(alice, "mj table end")
        await fd.slash(alice, "mj table create", {"variant": "laosanfan", "options": "style=tuidaoba"})
        r = await fd.submit_modal(alice, old, {"opt:hutou": "on"})
        assert r.ephemeral and "out of date" in r.content
        options = bot.service.table_in(fd.channel_id).options
        assert (options["style"], options["hutou"]) == ("tuidaoba", False)
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_what_was_typed_comes_back_only_in_the_same_form(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        refused = await fd.slash(alice, "mj table create", {"variant": "two_player", "rules": True})
        r = await fd.submit_modal(alice, refused, {"opt:base_points": "abc", "opt:min_fan": "8"})
        assert "1–1000" in r.content and bot.service.find_snapshot(fd.channel_id) is None
        # a new command is a new form: the command's own options, not the refused draft
        fresh = await fd.slash(alice, "mj table create", {"variant": "two_player", "rules": True,
                                                          "options": "base_points=5"})
        assert (shown(inputs(fresh)["opt:base_points"]), shown(inputs(fresh)["opt:min_fan"])) == ("5", "15")
        # the refusal's button opens the refused form again, with what was typed
        again = next(c["custom_id"] for row in r.message.components for c in row["components"])
        reopened = await fd.click(alice, r.message, again)
        assert "out of date" in reopened.content  # … but a newer command replaced that form
        r = await fd.submit_modal(alice, fresh, {})
        table = bot.service.table_in(fd.channel_id)
        assert (table.options["base_points"], table.options["min_fan"]) == (5, 15)
        # a refused lobby form's draft stays with that table
        rules = await fd.click(alice, *table_button(fd, fd.channel_id, "rules"))
        await fd.submit_modal(alice, rules, {"opt:base_points": "x" * 500})  # cut to what an input holds
        rules = await fd.click(alice, *table_button(fd, fd.channel_id, "rules"))
        assert rules.response_type == 9 and shown(inputs(rules)["opt:base_points"]) == "x" * 100
        await fd.slash(alice, "mj table end")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        rules = await fd.click(alice, *table_button(fd, fd.channel_id, "rules"))
        assert shown(inputs(rules)["opt:base_points"]) == "1"
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_create_form_is_checked_again_when_sent(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice, admin = fd.user(1, "alice"), fd.user(3, "admin", admin=True)
        first = await fd.slash(alice, "mj table create", {"variant": "laosanfan", "rules": True, "hands": 4})
        second = await fd.slash(alice, "mj table create", {"variant": "laosanfan", "rules": True, "hands": 8})
        r = await fd.submit_modal(alice, first, {})
        assert "out of date" in r.content and bot.service.find_snapshot(fd.channel_id) is None
        other = fd.add_channel("mahjong")
        await fd.slash(admin, "mj config channel", {"channel": other, "allow": True})
        r = await fd.submit_modal(alice, second, {})
        assert r.ephemeral and bot.service.find_snapshot(fd.channel_id) is None  # tables only in #mahjong now
        # another player's table opened meanwhile: the form says so
        await fd.slash(admin, "mj config channel", {"channel": other, "allow": False})
        bob = fd.user(2, "bob")
        form = await fd.slash(alice, "mj table create", {"variant": "laosanfan", "rules": True})
        await fd.slash(bob, "mj table create", {"variant": "two_player"})
        r = await fd.submit_modal(alice, form, {})
        assert "already" in r.content and bot.service.table_in(fd.channel_id).creator_id == 2
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_host_is_the_creator_while_seated_then_the_first_player_seated(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        alice, bob = fd.user(1, "alice"), fd.user(2, "bob")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        await fd.slash(bob, "mj table join")
        ch = fd.channel_id
        r = await fd.select(bob, table_message(fd, ch), f"mjo:{ch}:hands", ["8"])
        assert "creator" in r.content and bot.service.table_in(ch).options["match_hands"] == 0
        await fd.slash(alice, "mj table leave")
        r = await fd.select(alice, table_message(fd, ch), f"mjo:{ch}:hands", ["4"])
        assert "creator" in r.content
        await fd.select(bob, table_message(fd, ch), f"mjo:{ch}:hands", ["8"])
        assert bot.service.table_in(ch).options["match_hands"] == 8
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_the_pace_menu_sets_the_timers_it_names(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        admin = fd.user(1, "admin", admin=True)
        await fd.slash(admin, "mj config default", {"variant": "two_player", "options": "discard_timeout=30"})
        await fd.slash(admin, "mj table create", {"variant": "two_player"})
        ch = fd.channel_id

        def menu() -> list:
            return [(o["value"], bool(o.get("default")))
                    for o in table_message(fd, ch).component(f"mjo:{ch}:pace")["options"]]

        assert ("custom", True) in menu()  # the server's 30 s are the table's own timers
        await fd.select(admin, table_message(fd, ch), f"mjo:{ch}:pace", ["normal"])
        assert bot.service.table_in(ch).options["discard_timeout"] == 15
        assert [v for v, chosen in menu() if chosen] == ["normal"]
        await fd.select(admin, table_message(fd, ch), f"mjo:{ch}:pace", ["relaxed"])
        assert bot.service.table_in(ch).options["discard_timeout"] == 60
        assert [v for v, chosen in menu() if chosen] == ["relaxed"]
    finally:
        await fd.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("custom_id", ["mjform:t:0:²:1", "mjform:t:0:1", "mjform:c:0:nonexistent_game:1",
                                       "mjform:p:9:laosanfan:x", "mjform:z:0:x", "mjform:" + "9" * 120])
async def test_tampered_form_ids_are_out_of_date_and_touch_nothing(tmp_path, custom_id):
    bot, fd = await form_bot(tmp_path)
    try:
        alice = fd.user(1, "alice")
        await fd.slash(alice, "mj table create", {"variant": "two_player"})
        before = dict(bot.service.table_in(fd.channel_id).options)
        r = await forged(fd, alice, custom_id, {"opt:base_points": "7"})
        # out of date, or (a server's form from a player) for admins only: refused, privately
        assert r.ephemeral and ("out of date" in r.content or "admins" in r.content) and not r.errors
        assert bot.service.table_in(fd.channel_id).options == before
    finally:
        await fd.close()


@pytest.mark.asyncio
async def test_a_preset_needs_a_name(tmp_path):
    bot, fd = await form_bot(tmp_path)
    try:
        admin = fd.user(1, "admin", admin=True)
        for options in (None, "min_huxi=6"):
            r = await fd.slash(admin, "mj config preset", {"name": "   ", "variant": "zipai",
                                                           **({"options": options} if options else {})})
            assert r.response_type == 4 and "name" in r.content
        assert (await bot.settings.config(fd.guild_id)).presets == {}
    finally:
        await fd.close()
